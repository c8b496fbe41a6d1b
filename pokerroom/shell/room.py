"""The old name of the composition root (:mod:`pokerroom.shell.composition`), with the forwarding names its
callers still use; it goes once they call the services themselves."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twisted.internet import defer
from twisted.internet.interfaces import IReactorTime

from pokerroom import players
from pokerroom.gateway.sessions import Connection, Session
from pokerroom.money.ledger import LedgerView, Transfer
from pokerroom.protocol.schema import Request
from pokerroom.shell.composition import RoomServices
from pokerroom.shell.room_parts import verify_director
from pokerroom.shell.table_host import TableRunner
from pokerroom.store.room_store import RoomStore
from pokerroom.table import TableRules

__all__ = ["Room", "Session", "TableRunner"]


class Room(RoomServices):
    """The old name of the composition root, with the forwarding names its callers still use (going: call the
    service itself)."""

    def __init__(self, tables: list[TableRules], store: RoomStore, reactor: IReactorTime, **options: Any) -> None:
        super().__init__(tables, store, reactor, **options)
        # the services' shared registries, by the names other services use
        self.sessions, self.by_player, self.connections = self.gateway.sessions, self.gateway.by_player, \
            self.gateway.connections
        self.runners = self.tables.runners
        self.lobby_sections = self.lobby.sections

    def start(self) -> Any:
        """Start every service (the restores first); what the restores recovered."""
        self.startService()
        return self.recovery

    # ------------------------------------------------------------------ the names other services call

    @property
    def ledger(self) -> LedgerView:
        """The wallet's ledger to read (the tests' and the demo's look at it); money moves through the wallet."""
        return self.wallet.books

    def serve(self, service: Any, public: set[str] | frozenset[str] = frozenset()) -> None:
        self.gateway.serve(service, public)

    def connected(self, connection: Connection, ip: str = "") -> Session:
        return self.gateway.connected(connection, ip)

    def disconnected(self, session: Session) -> None:
        self.gateway.disconnected(session)

    def handle(self, session: Session, request: Request) -> dict | defer.Deferred:
        return self.gateway.handle(session, request)

    def write(self, function: Callable, *args: Any, quiet: bool = True) -> defer.Deferred:
        return self.recorder.write(function, *args, quiet=quiet)

    def flushed(self) -> defer.Deferred:
        return self.recorder.flushed()

    def audit(self, kind: str, at: float | None = None, **data: Any) -> None:
        self.recorder.audit(kind, at, **data)

    def deposit(self, player_id: str, amount: int) -> Transfer:
        """Play money in (the tests, the bench): within the limits the store holds for the player's account, if
        there is one (AC-5) -- read from the store, blocking, as the tests and the bench may."""
        return self.wallet.deposit(player_id, amount, self.store.accounts.find_account(players.nickname_key(player_id)))

    def balance(self, player_id: str) -> int:
        return self.wallet.balance(player_id)

    def add_table(self, rules: TableRules, *, announce: bool = True) -> TableRunner:
        return self.tables.add_table(rules, announce=announce)

    def summary(self, runner: TableRunner) -> dict:
        return self.tables.summary(runner)

    def may_play(self, session: Session) -> None:
        """The one may-play check (closed, staff SEC-2, frozen, AC-2, AC-5): :mod:`pokerroom.shell.play_check`."""
        self.play_check.session(session)

    def end_identity(self, session: Session) -> None:
        self.accounts.end_identity(session)

    def open_token(self, session: Session, account: Any) -> None:
        self.accounts.open_token(session, account, self.session_watch.shut)

    # directors (tournaments and cash tables): one role check and one record for every command

    @staticmethod
    def verify_director(session: Session) -> None:
        verify_director(session)

    def directed(self, session: Session, command: str, tournament: str = "", **details: Any) -> str:
        """Refuse anyone without the role; record the command in the audit log with who, when and why."""
        return self.parts.directed(session, command, tournament, **details)
