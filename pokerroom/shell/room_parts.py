"""The room's shared parts, handed to the services still built on a room-like collaborator.

The tournament hall (``TournamentHall(room)`` and its parts), the casino
floor (``FloorRoom``) and the security desk (``ReviewedRoom``) still name what
they use of the room in a Protocol of their own. :class:`RoomParts` is what they
get: the services the composition root built, typed, and the few checks they
ask for by name, each answered by the one service whose job it is. It holds no
state and builds nothing; the root (:mod:`pokerroom.shell.composition`) is
handed to nobody. It goes once those constructors take their services one by one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pokerroom.shell.directors import directed, verify_director

if TYPE_CHECKING:
    from twisted.internet import defer
    from twisted.internet.interfaces import IReactorTime

    from pokerroom import players
    from pokerroom.bus import Bus
    from pokerroom.gateway.routes import Gateway
    from pokerroom.gateway.sessions import Session
    from pokerroom.security.moderation import Moderation
    from pokerroom.shell.accounts import Accounts
    from pokerroom.shell.display_names import DisplayNames
    from pokerroom.shell.histories import Histories
    from pokerroom.shell.lobby_feed import LobbyFeed
    from pokerroom.shell.play_check import PlayCheck
    from pokerroom.shell.recorder import Recorder
    from pokerroom.shell.session_watch import SessionWatch
    from pokerroom.shell.table_host import TableHost, TableRunner
    from pokerroom.shell.wallet import Wallet
    from pokerroom.store.room_store import RoomStore


class RoomParts:
    """The composed services, by the names the room-like Protocols use; each call goes to the service that owns it."""

    def __init__(self, *, reactor: IReactorTime, store: RoomStore, bus: Bus, account_rules: players.AccountRules,
                 moderation: Moderation, display_names: DisplayNames, gateway: Gateway,
                 recorder: Recorder, wallet: Wallet, tables: TableHost, lobby: LobbyFeed, play_check: PlayCheck,
                 session_watch: SessionWatch, accounts: Accounts, histories: Histories) -> None:
        self.reactor = reactor
        self.store = store
        self.bus = bus
        self.account_rules = account_rules
        self.moderation = moderation
        self.display_names = display_names
        self.gateway = gateway
        self.recorder = recorder
        self.wallet = wallet
        self.tables = tables
        self.lobby = lobby
        self.play_check = play_check
        self.session_watch = session_watch
        self.accounts = accounts
        self.histories = histories

    # the shared registries, read where they are kept

    @property
    def by_player(self) -> dict[str, Session]:
        return self.gateway.by_player

    @property
    def runners(self) -> dict[str, TableRunner]:
        return self.tables.runners

    # the calls, each to its service

    def serve(self, service: Any, public: set[str] | frozenset[str] = frozenset()) -> None:
        self.gateway.serve(service, public)

    def write(self, function: Callable[..., Any], *args: Any, quiet: bool = True) -> defer.Deferred:
        return self.recorder.write(function, *args, quiet=quiet)

    def audit(self, kind: str, at: float | None = None, **data: Any) -> None:
        self.recorder.audit(kind, at, **data)

    def balance(self, player_id: str) -> int:
        return self.wallet.balance(player_id)

    def may_play(self, session: Session) -> None:
        """The one may-play check (closed, staff SEC-2, frozen, AC-2, AC-5): :mod:`pokerroom.shell.play_check`."""
        self.play_check.session(session)

    def end_identity(self, session: Session) -> None:
        self.accounts.end_identity(session)

    @staticmethod
    def verify_director(session: Session) -> None:
        verify_director(session)

    def directed(self, session: Session, command: str, tournament: str = "", **details: Any) -> str:
        """The directors' role check and audited record (:mod:`pokerroom.shell.directors`)."""
        return directed(self.recorder, session, command, tournament, **details)
