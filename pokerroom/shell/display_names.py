"""Who shows their verified real name at the tables (AC-4), and what it is: each side of the process line keeps
its own copy.

The gateway's side decides -- the accounts at a login from the stored account,
the security desk when a player's choice, verification or nickname changes --
on :class:`DecidedNames`, which publishes each change as a record
(``players.display_name``: :class:`~pokerroom.bus.records.DisplayName`;
``players.renamed``: :class:`~pokerroom.bus.records.PlayerRenamed`). The
table process keeps a :class:`DisplayNames` that :meth:`~DisplayNames.follow` s
those records, and draws its seats from it (a snapshot's ``name``); table chat
reads the deciding copy beside it. A change reaches the other copy on a later
turn, as any message does. A table process that starts after the gateway's
:meth:`asks <DisplayNames.ask>` for the names decided before it listened
(``players.names_wanted``): the deciding copy sends each again.
"""

from __future__ import annotations

from pokerroom.bus import Bus, Subscription
from pokerroom.bus.records import DisplayName, PlayerRenamed
from pokerroom.bus.subjects import PLAYERS_DISPLAY_NAME, PLAYERS_NAMES_WANTED, PLAYERS_RENAMED


class DisplayNames:
    """One side's copy: the names shown, by player."""

    def __init__(self) -> None:
        self._names: dict[str, str] = {}

    def show(self, player: str, verified_name: str) -> None:
        self._names[player] = verified_name

    def hide(self, player: str) -> None:
        self._names.pop(player, None)

    def renamed(self, old: str, new: str) -> None:
        """A nickname reset: the old name shows nothing any more (the new one shows after a new verification)."""
        self._names.pop(old, None)

    def get(self, player: str | None) -> str | None:
        return self._names.get(player) if player is not None else None

    def follow(self, bus: Bus) -> tuple[Subscription, ...]:
        """Keep this copy as the deciding side's records say, from now on."""
        return (bus.subscribe(PLAYERS_DISPLAY_NAME, self._heard), bus.subscribe(PLAYERS_RENAMED, self._heard))

    @staticmethod
    def ask(bus: Bus) -> None:
        """At a table process's start: the deciding side sends the names it shows again (those it sent before were
        before this copy listened)."""
        bus.publish(PLAYERS_NAMES_WANTED, None)

    def _heard(self, subject: str, change: DisplayName | PlayerRenamed) -> None:
        # this class's own changes, never a deciding copy's: what was heard is not published again
        if isinstance(change, PlayerRenamed):
            DisplayNames.renamed(self, change.old, change.new)
        elif change.name is None:
            DisplayNames.hide(self, change.player)
        else:
            DisplayNames.show(self, change.player, change.name)


class DecidedNames(DisplayNames):
    """The deciding side's copy: each change is made here and published for the other side's copies."""

    def __init__(self, bus: Bus) -> None:
        super().__init__()
        self.bus = bus
        bus.subscribe(PLAYERS_NAMES_WANTED, lambda _subject, _: self._tell_all())

    def _tell_all(self) -> None:
        """Every name shown, published again for a copy that started after it was decided."""
        for player, name in list(self._names.items()):
            self.bus.publish(PLAYERS_DISPLAY_NAME, DisplayName(player, name))

    def show(self, player: str, verified_name: str) -> None:
        super().show(player, verified_name)
        self.bus.publish(PLAYERS_DISPLAY_NAME, DisplayName(player, verified_name))

    def hide(self, player: str) -> None:
        super().hide(player)
        self.bus.publish(PLAYERS_DISPLAY_NAME, DisplayName(player, None))

    def renamed(self, old: str, new: str) -> None:
        """AC-3: published as ``players.renamed`` -- the security desk's rename, once the account moved."""
        super().renamed(old, new)
        self.bus.publish(PLAYERS_RENAMED, PlayerRenamed(old, new))
