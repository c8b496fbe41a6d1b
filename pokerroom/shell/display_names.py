"""Who shows their verified real name at the tables (AC-4), and what it is.

Accounts set it at login from the stored account; the security desk changes
it when a player's choice or verification changes; tables and chat read it.
"""

from __future__ import annotations


class DisplayNames:
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
