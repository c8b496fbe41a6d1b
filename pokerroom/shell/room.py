"""The room: its services, composed once, and the few names the other services and the tests call it by.

Theory of operation
-------------------
Each job is a service of its own (docs/architecture.md draws them):

* :class:`~pokerroom.gateway.routes.Gateway` -- connections, sessions, the
  route table, forwarding what the bus brings;
* :class:`~pokerroom.shell.recorder.Recorder` -- the one writer, and what it
  records of every table's full stream (hands, audit chain, facts);
* :class:`~pokerroom.shell.wallet.Wallet` -- the one money path (AC-5, AC-6);
* :class:`~pokerroom.shell.table_host.TableHost` -- the cash tables and their
  timers; each event redacted once, per audience, where it is made;
* :class:`~pokerroom.shell.lobby_feed.LobbyFeed`,
  :class:`~pokerroom.shell.accounts.Accounts`,
  :class:`~pokerroom.shell.cash_play.CashPlay`,
  :class:`~pokerroom.shell.table_chat.TableChat`,
  :class:`~pokerroom.shell.responsible_gaming.ResponsibleGaming`,
  :class:`~pokerroom.shell.histories.Histories` -- each one family of requests.

They talk through public methods and the :mod:`bus <pokerroom.bus>`; nobody
reaches into another's state. :mod:`pokerroom.app` composes the room with
the tournament hall, the casino floor and the staff desks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twisted.internet import defer
from twisted.internet.interfaces import IReactorTime
from twisted.python.threadpool import ThreadPool

from pokerroom import players
from pokerroom.bus import Bus, make_bus
from pokerroom.errors import RuleViolation
from pokerroom.gateway.metrics import Metrics
from pokerroom.gateway.routes import Gateway
from pokerroom.gateway.sessions import Connection, Session
from pokerroom.money.accounts import Kind, parse
from pokerroom.money.ledger import LedgerView, Transfer
from pokerroom.protocol.schema import Request
from pokerroom.security.moderation import Moderation
from pokerroom.shell.accounts import Accounts
from pokerroom.shell.cash_play import CashPlay
from pokerroom.shell.display_names import DisplayNames
from pokerroom.shell.histories import Histories
from pokerroom.shell.lobby_feed import LobbyFeed
from pokerroom.shell.password_desk import PasswordDesk
from pokerroom.shell.play_check import PlayCheck
from pokerroom.shell.recorder import Recorder
from pokerroom.shell.responsible_gaming import DAY, ResponsibleGaming
from pokerroom.shell.seating_store import StoredSeatingHistory
from pokerroom.shell.security_moves import SecurityMoves
from pokerroom.shell.session_watch import SessionWatch
from pokerroom.shell.table_chat import TableChat
from pokerroom.shell.table_host import TableHost, TableRunner
from pokerroom.shell.wallet import LEDGER_KEEP, Wallet
from pokerroom.store.room_store import RoomStore
from pokerroom.table import TableRules

__all__ = ["Room", "Session", "TableRunner"]


class Room:
    demo = False                # serve --demo: play money; /health says so, and `pokerroom bots` needs no secret

    def __init__(self, tables: list[TableRules], store: RoomStore, reactor: IReactorTime, *,
                 account_rules: players.AccountRules | None = None,
                 shuffle: Callable[[], list[int]] | None = None, writer: ThreadPool | None = None,
                 password_desk: PasswordDesk | None = None, bus: Bus | None = None) -> None:
        self.reactor = reactor
        self.store = store
        self.account_rules = rules = account_rules or players.AccountRules()
        self.bus = bus or make_bus(reactor)
        self.metrics = Metrics()
        self.moderation = Moderation()                                # the security team's standing decisions
        self.display_names = DisplayNames()                           # AC-4: players showing their verified name
        self.recovery = None
        self.gateway = gateway = Gateway(self.bus, self.metrics)
        self.recorder = recorder = Recorder(store, reactor, writer)
        self.wallet = Wallet(recorder, reactor, rules)
        self.history = StoredSeatingHistory(recorder.write, store)
        self.tables = TableHost(reactor, self.bus, self.wallet, recorder, self.history, self.metrics,
                                display_names=self.display_names, shuffle=shuffle,
                                landed=recorder.landed)
        SecurityMoves(self.bus, self.wallet, self.tables, recorder)   # the security desk's asks (AC-3, AC-7)
        self.lobby = LobbyFeed(reactor, self.bus, gateway.follow_lobby)
        self.play_check = PlayCheck(self)                             # who may play, on every path (STAFF-2)
        self.session_watch = SessionWatch(self)                      # STAFF-3: role changes and bans, at once
        # chosen once, here: the server's desk has a pool of its own (app.build_room); a test's borrows the reactor's
        self.password_desk = password_desk or PasswordDesk(threads=rules.password_threads,
                                                           queue=rules.password_queue,
                                                           per_network=rules.password_queue_per_network)
        self.accounts = Accounts(reactor, gateway, recorder, self.wallet, self.moderation, rules,
                                 self.password_desk, self.display_names, self.session_watch.idle)
        self.responsible_gaming = ResponsibleGaming(reactor, self.bus, recorder)
        self.histories = Histories(recorder, self.wallet, self.bus)
        for service in (self.lobby, self.accounts, self.responsible_gaming, self.session_watch, self.histories,
                        CashPlay(gateway, self.bus, self.wallet, self.moderation, self.may_play, self.metrics),
                        TableChat(self.bus, reactor, self.moderation, rules, self.display_names)):
            gateway.serve(service)
        # the services' shared registries, by the names other services use
        self.sessions, self.by_player, self.connections = gateway.sessions, gateway.by_player, gateway.connections
        self.runners = self.tables.runners
        self.lobby_sections = self.lobby.sections
        for table_rules in tables:
            self.tables.add_table(table_rules, announce=False)

    # ------------------------------------------------------------------ start

    def start(self) -> Any:
        """Recover from any crash, then load the ledger and the seating memory (blocking; before listening)."""
        now = self.reactor.seconds()
        ledger = self.store.ledger.load_ledger(LEDGER_KEEP)
        self.recovery = self.store.hands.recover(ledger, now)
        self.wallet.load(ledger, self.store.cashier.deposits_since(now - DAY), self.recovery.returned)
        self.tables.restore_hand_numbers(self._hand_numbers(self.recovery))
        self.tables.restore_known(self.store.tables.cash_table_ids())      # players' histories include closed ones
        self.history.restore(self.store.tables.refusals_since(now - 2 * 12 * 3600),
                             self.store.tables.departures_since(now - 24 * 3600),
                             self.store.tables.arrivals_since(now - 24 * 3600))
        for mute in self.store.security.active_mutes(now):
            self.moderation.mute(mute.player_id, mute.table_id, mute.until, mute.reason)
        for restriction in self.store.security.restrictions():
            self.moderation.link(restriction.a, restriction.b)
        self.moderation.restore_frozen(self.store.security.frozen_accounts())
        self.session_watch.start()
        return self.recovery

    def _hand_numbers(self, recovery: Any) -> dict[str, int]:
        """Each table's newest stored hand number -- one more where players still sat when the room stopped: the
        hand they were dealt may have been shown before its start was stored, and its number is not used again
        (a later hand is never shown before the end of the one before it is stored)."""
        numbers = self.store.hands.last_hand_numbers()
        sat = {account.place for account in (parse(t.reference) for t in recovery.returned)
               if account is not None and account.kind is Kind.TABLE}
        return {**numbers, **{table: numbers.get(table, 0) + 1 for table in sat}}

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
        if session.role not in players.DIRECTOR_ROLES:
            raise RuleViolation("forbidden", "only a tournament director can do that")

    def directed(self, session: Session, command: str, tournament: str = "", **details: Any) -> str:
        """Refuse anyone without the role; record the command in the audit log with who, when and why."""
        self.verify_director(session)
        self.audit("director_command", command=command, tournament=tournament, by=session.player_id, **details)
        return session.player_id
