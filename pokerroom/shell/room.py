"""The room: every table, every session, the ledger and the store, on one reactor.

Theory of operation
-------------------
A request arrives already parsed (:mod:`pokerroom.protocol.schema`) with the
:class:`Session` that sent it. :meth:`Room.handle` answers it -- a dict, or a
Deferred of one when the answer needs the database or a password hash, which
run off the reactor thread. A :class:`~pokerroom.errors.RuleViolation` from
any layer becomes an error answer with its code, sentence and rule ID.

Tables run on their :class:`~pokerroom.shell.table_timer.TableTimer`. Every
event a table emits passes through :meth:`Room._table_events`, in order, and
that is the only place where the outside world learns of it:

* money -- a seat taken, chips added, a player leaving and a hand's end move
  money in the ledger (buy-in: wallet to table escrow; hand end: escrow to
  end-of-hand stacks and rake to the house), so ledger and tables never
  disagree;
* storage -- a hand's start-of-hand stacks are written when it starts, its
  events, end stacks and settling transfer in one transaction when it ends;
  writes go through one writer thread, in order;
* fan-out -- each watcher gets the event through the one redaction function,
  as the viewer they are (their seat's cards only if they were dealt them).

The ledger lives in memory and is loaded from the store at start, after
crash recovery (:meth:`~pokerroom.store.room_store.RoomStore.recover`).
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from typing import Any, Protocol

import msgpack
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from twisted.internet import defer, threads
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger
from twisted.python.failure import Failure
from twisted.python.threadpool import ThreadPool

from pokerroom import conduct, players
from pokerroom.errors import RuleViolation
from pokerroom.money.ledger import WORLD, Ledger, Transfer, cash, table_escrow
from pokerroom.poker import events as he
from pokerroom.poker.actions import action_named
from pokerroom.poker.redact import Viewer
from pokerroom.poker.redact import redact as redact_hand_event
from pokerroom.protocol.codec import MSGPACK, pack, pack_with_packed_list
from pokerroom.protocol.schema import Request, error, ok
from pokerroom.security.facts import hand_facts
from pokerroom.security.moderation import Moderation
from pokerroom.shell.password_desk import PasswordDesk
from pokerroom.shell.play_check import PlayCheck
from pokerroom.shell.session_watch import SessionWatch
from pokerroom.shell.table_timer import TableTimer
from pokerroom.shell.throttle import BucketsByKey, network_of
from pokerroom.store.room_store import RoomStore
from pokerroom.store.session_records import TOKEN_EXPIRED, TOKEN_LIVE, token_digest
from pokerroom.table import CashTable, Departure, InMemorySeatingHistory, TableRules
from pokerroom.table import events as te
from pokerroom.table.events import redact, table_event_from_dict, table_event_to_dict
from pokerroom.table.seating_history import Arrival

LOG_SIZE = 160                      # table events kept for clients that resume: two hands or so; older, a snapshot
LOG_HANDS = 16                      # hands whose seating is kept for redacting the log (more than it holds)
LEDGER_KEEP = 1_000                 # transfers kept in memory; the store has them all
DAY = 86_400.0
LOBBY_EVERY = 1.0                   # seconds between lobby updates at most
WRITE_GATHER = 0.025                # seconds a busy writer waits for its next batch to fill
ACCOUNT_WIDE = 10                   # an account's password attempts from all networks: this many times one network's
BATCH = 32                          # table events in one frame at most
OBSERVER = Viewer.observer()
_LOBBY_CHANGES = (te.PlayerSeated, te.PlayerLeft, te.WaitingListChanged)
PUBLIC_REQUESTS = frozenset({"register", "login", "resume", "lobby_list", "lobby_subscribe", "observe"})


class Connection(Protocol):
    """What the room needs of a connection. It may also have ``identity_ended()``, called when the player it
    carried logs out or is ended on it (the edge starts its login deadline again)."""

    def send(self, message: dict[str, Any]) -> None: ...

    def close(self, code: int, reason: str) -> None: ...


@dataclass(eq=False)
class Session:
    """A logged-in player (or an anonymous connection while ``player_id`` is None)."""

    connection: Connection | None
    player_id: str | None = None
    token: str | None = None                                # in memory only: the store keeps its hash (STAFF-3)
    role: str = "player"
    client_type: str = "desktop"
    country: str = ""
    excluded_until: float | None = None
    deposit_limit: int | None = None
    logged_in_at: float = 0.0
    reminder: Any = None                                    # the pending session-time reminder (AC-5)
    ip: str = ""
    device: str | None = None                               # the client's own device id, if it sends one
    connection_record: Any = None                           # Deferred of the stored connection's id
    tables: set[str] = field(default_factory=set)          # observing or seated
    lobby: bool = False
    chat_at: float = 0.0
    muted_chat_at: float = 0.0                              # a muted player's lines are kept, one a second

    def push(self, message: dict[str, Any]) -> None:
        if self.connection is not None:
            self.connection.send(message)

    def push_shared(self, shared: dict[str, Any], extra: dict[str, Any] | None = None) -> None:
        """Send ``shared["message"]`` (with ``extra``'s keys), encoded and framed once per subprotocol for everyone
        it goes to."""
        if self.connection is not None:
            send_shared = getattr(self.connection, "send_shared", None)
            if send_shared is None:
                self.connection.send(dict(shared["message"], **(extra or {})))
            else:
                send_shared(shared, extra)


@dataclass(eq=False)
class TableRunner:
    table: CashTable
    timer: TableTimer | None = None
    log: deque = field(default_factory=lambda: deque(maxlen=LOG_SIZE))   # packed events, oldest first
    log_seq: int = 0                        # the seq of the newest event in the log
    hand_players: dict[int, str] = field(default_factory=dict)     # seat -> player in the running hand
    hand_start: dict[str, int] = field(default_factory=dict)
    hand_events: list[dict] = field(default_factory=list)
    hand_objects: list[he.Event] = field(default_factory=list)  # the same events as they came: what the facts read
    hand_id: str = ""
    hand_times: list[float] = field(default_factory=list)       # when each of them happened (SEC-1)
    chatted: set[str] = field(default_factory=set)              # who chatted at the table while it ran
    seated: dict[int, str] = field(default_factory=dict)        # seat -> player, as the events have told it
    hand_end: tuple[dict[str, int], int] = ({}, 0)
    start_written: bool = False
    decision_seq: int = 0                   # the DecisionStarted the table's clock is running for
    dealt_by_hand: dict[str, dict[int, str]] = field(default_factory=dict)   # hand -> seat -> player
    pots: deque = field(default_factory=lambda: deque(maxlen=50))


class StoredSeatingHistory(InMemorySeatingHistory):
    """The tables' seating-history port: kept in memory, each new refusal and departure also stored.

    Tables read it on the reactor thread without touching the database; the
    store gets the same records through the room's writer queue, and a restart
    reads them back (:meth:`restore`).
    """

    def __init__(self, write: Callable, store: RoomStore) -> None:
        super().__init__()
        self._write_through = write
        self._store = store

    def restore(self, refusals: list, departures: list, arrivals: list = ()) -> None:
        for player, level, at in refusals:
            super().record_refusal(player, level, at)
        for player, game, departure in departures:
            super().record_departure(player, game, departure)
        for player, game, arrival in arrivals:
            super().record_arrival(player, game, arrival)

    def record_refusal(self, player_id: str, blind_level: str, at: float) -> None:
        super().record_refusal(player_id, blind_level, at)
        self._write_through(self._store.record_refusal, player_id, blind_level, at)

    def record_departure(self, player_id: str, game_key: str, departure: Departure) -> None:
        super().record_departure(player_id, game_key, departure)
        self._write_through(self._store.record_departure, player_id, game_key, departure)

    def record_arrival(self, player_id: str, game_key: str, arrival: Arrival) -> None:
        super().record_arrival(player_id, game_key, arrival)
        self._write_through(self._store.record_arrival, player_id, game_key, arrival)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.connections = Gauge("pokerroom_connections", "open WebSocket connections", registry=self.registry)
        self.tables = Gauge("pokerroom_tables", "tables in the room", registry=self.registry)
        self.hands = Counter("pokerroom_hands", "hands played", registry=self.registry)
        self.actions = Counter("pokerroom_actions", "player actions accepted", registry=self.registry)
        self.latency = Histogram("pokerroom_action_seconds", "time to answer an action", registry=self.registry,
                                 buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.5))


class Room:
    log = Logger()
    demo = False                # serve --demo: play money; /health says so, and `pokerroom bots` needs no secret

    def __init__(self, tables: list[TableRules], store: RoomStore, reactor: IReactorTime, *,
                 account_rules: players.AccountRules | None = None,
                 shuffle: Callable[[], list[int]] | None = None, writer: ThreadPool | None = None,
                 password_desk: PasswordDesk | None = None) -> None:
        self.reactor = reactor
        self.store = store
        self.account_rules = account_rules or players.AccountRules()
        self.metrics = Metrics()
        self.sessions: dict[str, Session] = {}                 # token -> session
        self.by_player: dict[str, Session] = {}
        self.history = StoredSeatingHistory(self.write, store)
        self.ledger = Ledger(LEDGER_KEEP)
        self.deposits: dict[str, deque] = {}                    # player -> (at, amount) of the last day (AC-5)
        self._lobby_dirty: set[str] = set()
        self._lobby_call: Any = None
        self.password_attempts = BucketsByKey(self.account_rules.password_attempts_per_minute / 60,
                                              self.account_rules.password_attempts_burst)
        rules = self.account_rules
        self.network_attempts = BucketsByKey(rules.network_password_attempts_per_minute / 60,
                                             rules.network_password_attempts_burst)
        self.account_attempts = BucketsByKey(rules.account_password_attempts_per_minute / 60,
                                             rules.account_password_attempts_burst)       # (account, network)
        self.account_attempts_anywhere = BucketsByKey(ACCOUNT_WIDE * rules.account_password_attempts_per_minute / 60,
                                                      ACCOUNT_WIDE * rules.account_password_attempts_burst)
        self.password_desk = password_desk or PasswordDesk(threads=rules.password_threads,
                                                           queue=rules.password_queue,
                                                           per_network=rules.password_queue_per_network)
        self._writer = writer
        self._queued: list[tuple[Callable, tuple, defer.Deferred]] = []
        self._writing = False
        self.connections: set[Session] = set()
        self.listeners: list[Callable[[str, list], None]] = []     # (table id, events): e.g. the demo's narrator
        self.handlers: dict[str, Callable[..., Any]] = {}            # request type -> handler of a composed service
        self.public_requests = set(PUBLIC_REQUESTS)                  # answered without a login
        self.on_disconnect: list[Callable[[Session], None]] = []
        self.on_login: list[Callable[[Session], None]] = []          # a player (re)connected: login or resume
        self.lobby_sections: dict[str, Callable[[], list]] = {}      # more of the lobby: e.g. the casino tables
        self.recovery = None
        self.runners: dict[str, TableRunner] = {}
        self.watching: dict[str, dict[Session, None]] = {}
        self.on_table_closed: list[Callable[[str], None]] = []       # a closed table has left the room
        self._hands_played: dict[str, int] = {}                     # table -> its newest stored hand's number
        self.known_tables: set[str] = set()                         # every cash table id, open or since closed
        self._shuffle = shuffle
        self.moderation = Moderation()                                # the security team's standing decisions
        self.play_check = PlayCheck(self)                             # who may play, on every path (STAFF-2)
        self.display_names: dict[str, str] = {}                      # AC-4: players showing their verified name
        self.session_watch = SessionWatch(self)                      # STAFF-3: role changes and bans, at once
        self.serve(self.session_watch)
        for rules in tables:
            self.add_table(rules, announce=False)

    def add_table(self, rules: TableRules, *, announce: bool = True) -> TableRunner:
        """Open a cash table (at start from the config; later, a director's) and show it in the lobby."""
        if rules.table_id in self.runners:
            raise RuleViolation("table_exists", f"there is already a table {rules.table_id}")
        kwargs = {"shuffle": self._shuffle} if self._shuffle else {}
        runner = TableRunner(CashTable(rules, self.history, **kwargs))
        runner.table.hand_number = self._hands_played.get(rules.table_id, 0)
        runner.timer = TableTimer(runner.table, self.reactor, lambda events: self._table_events(runner, events))
        self.runners[rules.table_id] = runner
        self.known_tables.add(rules.table_id)
        self.watching[rules.table_id] = {}
        self.metrics.tables.set(len(self.runners))
        if announce:
            self._lobby_changed(rules.table_id)
        return runner

    def close_table(self, table_id: str) -> list:
        """Close a cash table: no new hand; everyone stands up with their chips once no hand is running.

        When the last player is up the table leaves the room (:meth:`_retire`).
        """
        runner = self.runner(table_id)
        events = self.command(runner, "close")
        self._lobby_changed(table_id)                   # lobby subscribers see it closing (or gone)
        return events

    def _retire(self, runner: TableRunner) -> None:
        table_id = runner.table.table_id
        runner.timer.stop()
        del self.runners[table_id]
        watchers = self.watching.pop(table_id)
        # every session that knew the table, connected or not: one that resumes later must not look for it
        for session in {*self.connections, *self.sessions.values(), *self.by_player.values()}:
            session.tables.discard(table_id)
        for session in watchers:
            session.push({"type": "table_closed", "table": table_id})
        self.metrics.tables.set(len(self.runners))
        self._lobby_changed(table_id)
        for listener in self.on_table_closed:
            listener(table_id)

    def serve(self, service: Any, public: set[str] | frozenset[str] = frozenset()) -> None:
        """Answer a composed service's requests: each ``_on_<type>`` method; ``public`` ones without a login."""
        for name in dir(service):
            if name.startswith("_on_"):
                self.handlers[name[4:]] = getattr(service, name)
        self.public_requests |= set(public)

    # ------------------------------------------------------------------ start and storage

    def start(self) -> Any:
        """Recover from any crash, then load the ledger and the seating memory (blocking; before listening)."""
        now = self.reactor.seconds()
        self.ledger = self.store.load_ledger(LEDGER_KEEP)
        self.recovery = self.store.recover(self.ledger, now)
        self.record_transfers(*self.recovery.returned, store=False)    # stored by recover; flagged (AC-6)
        self._hands_played = self.store.last_hand_numbers()   # a hand id is never used twice at a table
        for table_id, runner in self.runners.items():
            runner.table.hand_number = self._hands_played.get(table_id, 0)
        for player, amount, at in self.store.deposits_since(now - DAY):
            self._remember_deposit(player, amount, at)
        self.history.restore(self.store.refusals_since(now - 2 * 12 * 3600),
                             self.store.departures_since(now - 24 * 3600),
                             self.store.arrivals_since(now - 24 * 3600))
        for mute in self.store.active_mutes(now):
            self.moderation.mute(mute.player_id, mute.table_id, mute.until, mute.reason)
        for restriction in self.store.restrictions():
            self.moderation.link(restriction.a, restriction.b)
        self.moderation.frozen = self.store.frozen_accounts()
        self.session_watch.start()
        return self.recovery

    def audit(self, kind: str, at: float | None = None, **data: Any) -> None:
        """Chain a record in the audit log (SEC-1): who did what, when, in the writer's order."""
        self.write(self.store.audit, kind, data, self.reactor.seconds() if at is None else at)

    def write(self, function: Callable, *args: Any, quiet: bool = True) -> defer.Deferred:
        """Run a store call on the writer thread after every earlier one; a Deferred of its result.

        Calls queue up while the writer is busy and then go to the store as one
        batch, one transaction (:meth:`~pokerroom.store.room_store.RoomStore.batch`):
        a busy room commits once per batch, not once per write. Reads that must
        see every earlier write (a player's hands, their bets) queue here too.
        ``quiet`` writes have nobody waiting: a failure is logged (and the room
        goes on) instead of being handed back.
        """
        out: defer.Deferred = defer.Deferred()
        if quiet:
            out.addErrback(lambda failure: self.log.failure("a store write failed", failure))
        self._queued.append((function, args, out))
        if not self._writing:
            self._write_queued()
        return out

    def _write_queued(self) -> None:
        self._writing = True
        while self._queued:
            batch, self._queued = self._queued, []
            calls = [(function, args) for function, args, _ in batch]
            if self._writer is not None:
                d = threads.deferToThreadPool(self.reactor, self._writer, self.store.batch, calls)
                d.addBoth(self._written, batch)
                return
            self._settle(batch, self.store.batch(calls))
        self._writing = False

    def _written(self, results: Any, batch: list) -> None:
        if isinstance(results, Failure):
            results = [(False, results.value)] * len(batch)
        self._settle(batch, results)
        # A write that finds the writer idle goes at once; while the room is busy, the next batch
        # gathers for a moment, so many hands share one transaction.
        self.reactor.callLater(WRITE_GATHER, self._write_queued)

    @staticmethod
    def _settle(batch: list, results: list) -> None:
        for (_, _, d), (done, value) in zip(batch, results, strict=True):
            if done:
                d.callback(value)
            else:
                d.errback(Failure(value, type(value), value.__traceback__))

    def flushed(self) -> defer.Deferred:
        """Fires when every write asked for so far has landed."""
        return self.write(lambda: None)

    def record_transfers(self, *transfers: Transfer, store: bool = True) -> None:
        """The one wallet path: every transfer made in the ledger comes here, in ledger order -- cash tables,
        tournaments, the casino, staking, staff -- to be stored and to flag the large ones (AC-6).

        ``store=False``: the caller writes them in a transaction of its own (the hall, with its snapshot).
        """
        if store and transfers:
            self.write(self.store.save_transfers, list(transfers))
        for t in transfers:
            if players.aml_flag(t.size, self.account_rules):
                self.log.warn("AML flag: transfer {number} of {size} ({reason} {reference})", number=t.number,
                              size=t.size, reason=t.reason, reference=t.reference)
                self.write(self.store.audit, "aml_flag", {
                    "transfer": t.number, "size": t.size, "reason": t.reason, "reference": t.reference,
                    "postings": [[p.account, p.amount] for p in t.postings]}, t.at)

    def deposit(self, player_id: str, amount: int) -> Transfer:
        """Money in from outside (the cashier; play money in a demo room), within the player's limits (AC-5)."""
        now = self.reactor.seconds()
        session = self.by_player.get(player_id)
        if session is not None:
            if session.excluded_until is not None and now < session.excluded_until:
                raise RuleViolation("self_excluded", "you have excluded yourself: no deposits", "AC-5")
            if session.deposit_limit is not None:
                recent = sum(size for at, size in self.deposits.get(player_id, ()) if at > now - DAY)
                if recent + amount > session.deposit_limit:
                    raise RuleViolation("deposit_limit", f"your deposit limit is {session.deposit_limit} a day; "
                                                         f"{recent} deposited in the last 24 hours", "AC-5")
        t = self.ledger.move(WORLD, cash(player_id), amount, "deposit", player_id, now)
        self._remember_deposit(player_id, amount, now)
        self.record_transfers(t)
        return t

    def _remember_deposit(self, player_id: str, amount: int, at: float) -> None:
        recent = self.deposits.setdefault(player_id, deque())
        recent.append((at, amount))
        while recent and recent[0][0] <= at - DAY:
            recent.popleft()

    # ------------------------------------------------------------------ connections

    def connected(self, connection: Connection, ip: str = "") -> Session:
        self.metrics.connections.inc()
        session = Session(connection, ip=ip)
        self.connections.add(session)
        return session

    def disconnected(self, session: Session) -> None:
        self.metrics.connections.dec()
        self.connections.discard(session)
        session.connection = None
        for table_id in session.tables:                 # still theirs to resume; nobody to send to meanwhile
            self.watching[table_id].pop(session, None)
        for forget in self.on_disconnect:
            forget(session)
        if session.reminder is not None and session.reminder.active():
            session.reminder.cancel()
        if session.connection_record is not None:
            now = self.reactor.seconds()
            session.connection_record.addCallback(lambda record: self.write(self.store.connection_closed, record,
                                                                             now))
        if session.player_id is None or self.by_player.get(session.player_id) is not session:
            return
        for table_id in list(session.tables):
            runner = self.runners[table_id]
            if runner.table.seat_of(session.player_id) is not None:
                self.command(runner, "disconnect", session.player_id)

    # ------------------------------------------------------------------ requests

    def handle(self, session: Session, request: Request) -> dict | defer.Deferred:
        """The answer to one request (a dict or a Deferred of one); never raises."""
        started = time.perf_counter()
        try:
            handler = self.handlers.get(request.type) or getattr(self, f"_on_{request.type}")
            if request.type not in self.public_requests and session.player_id is None:
                raise RuleViolation("not_logged_in", "log in first")
            answer = handler(session, request, **request.fields)
        except RuleViolation as refusal:
            return error(request.type, request.rid, refusal.code, refusal.message, refusal.rule_id)
        if isinstance(answer, defer.Deferred):
            return answer.addErrback(self._refused, request)
        if request.type == "act":
            self.metrics.latency.observe(time.perf_counter() - started)
        return answer

    def _refused(self, failure: Any, request: Request) -> dict:
        if failure.check(RuleViolation):
            r = failure.value
            return error(request.type, request.rid, r.code, r.message, r.rule_id)
        self.log.failure("request {type} failed", failure, type=request.type)
        return error(request.type, request.rid, "server_error", "the server could not do that; try again")

    def wallet(self, player_id: str) -> int:
        """A player's cash balance (what the hall and the casino floor check a buy-in or a stake against)."""
        return self.ledger.balance(cash(player_id))

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

    def runner(self, table_id: str) -> TableRunner:
        runner = self.runners.get(table_id)
        if runner is None:
            raise RuleViolation("no_such_table", f"there is no table {table_id}")
        return runner

    def command(self, runner: TableRunner, name: str, *args: Any, **kwargs: Any) -> list:
        return runner.timer.command(name, *args, **kwargs)

    # accounts

    def _on_register(self, session: Session, request: Request, nickname: str, password: str, birth_date: str,
                     country: str) -> defer.Deferred:
        now = self.reactor.seconds()
        today = datetime.fromtimestamp(now, UTC).date()
        players.check_registration(nickname, birth_date, country, self.account_rules, today)
        self._password_attempt(session, nickname)
        d = self.password_desk.run(network_of(session.ip), players.hash_password, password)
        d.addCallback(lambda digest: self.write(self.store.create_account, nickname,
                                                 players.nickname_key(nickname), digest, birth_date, country, now,
                                                 quiet=False))

        def created(account: Any) -> dict:
            if self.account_rules.welcome_balance:
                self.deposit(account.nickname, self.account_rules.welcome_balance)
            return ok(request, nickname=account.nickname)

        return d.addCallback(created)

    def _password_attempt(self, session: Session, nickname: str) -> None:
        """Each attempt costs an argon2id hash: an address, its network and an account each get a few a minute.

        An account's limit counts per network, so whoever guesses at a player's
        password from one network does not lock the player out from theirs; a
        limit ``ACCOUNT_WIDE`` times larger bounds guessing from many networks.
        """
        now = self.reactor.seconds()
        network = network_of(session.ip)
        if not (self.password_attempts.take(session.ip, now) and self.network_attempts.take(network, now)):
            raise RuleViolation("too_many_attempts", "too many log-in and registration attempts from your "
                                                     "address; wait a minute and try again")
        account = players.nickname_key(nickname)
        if not (self.account_attempts.take((account, network), now)
                and self.account_attempts_anywhere.take(account, now)):
            raise RuleViolation("too_many_attempts", "too many log-in attempts for this account; wait a minute "
                                                     "and try again")

    def _on_login(self, session: Session, request: Request, nickname: str, password: str,
                  client: str = "desktop", device: str | None = None) -> defer.Deferred:
        self._password_attempt(session, nickname)
        d = self.write(self.store.find_account, players.nickname_key(nickname), quiet=False)
        network = network_of(session.ip)

        def found(account: Any) -> defer.Deferred:
            if account is None:
                return self.password_desk.run(network, players.hash_password, password).addCallback(lambda _: None)
            return self.password_desk.run(network, players.password_matches, account.password_hash, password) \
                .addCallback(lambda good: account if good else None)

        def checked(account: Any) -> defer.Deferred:
            if account is None:
                raise RuleViolation("bad_login", "that nickname and password do not match")
            if account.closed:
                raise RuleViolation("account_closed", "this account is closed", "AC-1")
            if session.connection is None:
                raise RuleViolation("connection_closed", "the connection closed while logging in")
            # STAFF-3: every other token of the account ends in the store (a restart's, another process's), and
            # the new one is stored with the account as it is now -- read after the hash, not before it.
            token, now = players.new_session_token(), self.reactor.seconds()
            self.write(self.store.end_tokens_of, account.nickname_key, now, "logged in again")
            return self.write(self.store.open_token, token_digest(token), account.nickname, account.nickname_key,
                               now, now + self.session_watch.idle, quiet=False) \
                .addCallback(lambda fresh: landed(fresh, token))

        def landed(account: Any, token: str) -> dict:
            if account is None:
                raise RuleViolation("account_closed", "this account is closed", "AC-1")
            if session.connection is None:
                self.write(self.store.end_token, token_digest(token), self.reactor.seconds(), "connection closed")
                raise RuleViolation("connection_closed", "the connection closed while logging in")
            if session.player_id is not None and session.player_id != account.nickname:
                self.end_identity(session)                 # this connection was someone else until now
            old = self.by_player.get(account.nickname)
            if old is not None and old is not session:
                self._end_token(old.token, "logged in elsewhere")   # a new login ends the old token
                self._take_over(session, old, 4000, "logged in elsewhere")
            session.player_id, session.role, session.client_type = account.nickname, account.role, client
            session.country, session.excluded_until = account.country, account.excluded_until
            session.deposit_limit, session.logged_in_at = account.deposit_limit, self.reactor.seconds()
            session.device = device
            if account.show_real_name and account.verified_name:
                self.display_names[account.nickname] = account.verified_name
            self._connection_opened(session)
            self._account_state(session, account)
            self._end_token(session.token, "logged in again")
            session.token = token
            self.sessions[token] = session
            self.by_player[account.nickname] = session
            self.reconnect_seats(session)
            return ok(request, token=session.token, nickname=account.nickname, role=account.role,
                      balance=self.ledger.balance(cash(account.nickname)))

        return d.addCallback(found).addCallback(checked)

    def _connection_opened(self, session: Session) -> None:
        """Where a player connected from (IP, device): stored, and chained in the audit log (SEC-1)."""
        now = self.reactor.seconds()
        session.connection_record = self.write(self.store.connection_opened, session.player_id, session.ip,
                                                session.device, now)
        self.audit("connection", player=session.player_id, ip=session.ip, device=session.device,
                   client=session.client_type)

    _IDENTITY = ("player_id", "token", "role", "client_type", "country", "excluded_until", "deposit_limit",
                 "logged_in_at", "lobby")

    def _take_over(self, session: Session, old: Session, code: int, reason: str) -> None:
        """``session`` becomes the player ``old`` was; ``old`` is nobody from now on, and is closed."""
        for name in self._IDENTITY:
            setattr(session, name, getattr(old, name))
        self._unwatch_all(session)
        for table_id in old.tables:
            self._watch(session, table_id)
        if old.reminder is not None and old.reminder.active():
            old.reminder.cancel()
        old.player_id = old.token = None
        self._unwatch_all(old)
        if old.connection is not None:
            old.connection.close(code, reason)

    def end_identity(self, session: Session) -> None:
        """The player leaves this connection: disconnected at their tables (HR-DC-1), token ended."""
        for table_id in list(session.tables):
            runner = self.runners[table_id]
            if runner.table.seat_of(session.player_id) is not None:
                self.command(runner, "disconnect", session.player_id)
        for forget in self.on_disconnect:               # the composed services treat it as a disconnection too
            forget(session)
        self._end_token(session.token, "ended")
        if self.by_player.get(session.player_id or "") is session:
            del self.by_player[session.player_id]
        if session.reminder is not None and session.reminder.active():
            session.reminder.cancel()
        session.player_id = session.token = None
        self._unwatch_all(session)
        identity_ended = getattr(session.connection, "identity_ended", None)
        if identity_ended is not None:                  # the edge's login deadline runs again (optional hook)
            identity_ended()

    def reconnect_seats(self, session: Session) -> None:
        for table_id in sorted(session.tables):
            runner = self.runners[table_id]
            if runner.table.seat_of(session.player_id) is not None:
                self.command(runner, "reconnect", session.player_id)
        for back in self.on_login:
            back(session)

    def _on_logout(self, session: Session, request: Request) -> dict:
        """End the session; at tables the player is treated as disconnected (HR-DC-1)."""
        self.end_identity(session)
        return ok(request)

    # session tokens (STAFF-3): the store holds their hashes and expiry; any process can check one

    def open_token(self, session: Session, account: Any) -> None:
        """A token for a session signed in directly (the tests' sign-in): an account banned meanwhile is shut out
        when it lands; otherwise the session gets the account as stored then (the login does the same inline)."""
        token = session.token = players.new_session_token()
        self.sessions[token] = session
        now = self.reactor.seconds()
        d = self.write(self.store.open_token, token_digest(token), account.nickname, account.nickname_key,
                        now, now + self.session_watch.idle)
        d.addCallback(lambda fresh: self.session_watch.shut(session, token) if fresh is None
                      else self._account_state(session, fresh) if session.token == token else None)

    def _end_token(self, token: str | None, reason: str) -> None:
        """Logout, a newer login, a ban: the token resumes nothing any more, in any process."""
        if token is None:
            return
        self.sessions.pop(token, None)
        self.write(self.store.end_token, token_digest(token), self.reactor.seconds(), reason)

    def _account_state(self, session: Session, account: Any) -> None:
        """What the account may do, as stored now (STAFF-3): never what an older session remembers."""
        session.role, session.country = account.role, account.country
        session.excluded_until, session.deposit_limit = account.excluded_until, account.deposit_limit
        if account.frozen:                                  # only ever added here: a row read before a freeze
            self.moderation.frozen.add(account.nickname)   # landed must not undo it; unfreezing is the security
                                                            # desk's job (SEC)

    def _on_resume(self, session: Session, request: Request, token: str, tables: dict[str, int],
                   device: str | None = None) -> defer.Deferred:
        """A reconnecting client: same session, the events it missed or a snapshot (HR-DC-2).

        The token is checked against the store, not this process's memory (STAFF-3): one that ended, expired
        or belongs to a closed account resumes nothing; one this process does not know (a restart, another
        process) resumes its account as it is stored now.
        """
        d = self.write(self.store.use_token, token_digest(token), self.reactor.seconds(), self.session_watch.idle,
                        quiet=False)
        return d.addCallback(lambda found: self._resumed(session, request, token, tables, device, *found))

    def _resumed(self, session: Session, request: Request, token: str, tables: dict[str, int],
                 device: str | None, status: str, account: Any) -> dict:
        if status == TOKEN_EXPIRED:
            hours = self.account_rules.session_idle_hours
            raise RuleViolation("session_expired", f"that session expired after {hours:g} hours without use; "
                                                   "log in again", "STAFF-3")
        if status != TOKEN_LIVE:
            raise RuleViolation("bad_token", "that session has ended; log in again", "STAFF-3")
        if account.closed:
            raise RuleViolation("account_closed", "this account is closed", "AC-1")
        if session.connection is None:
            raise RuleViolation("connection_closed", "the connection closed while resuming")
        old = self.sessions.get(token)
        if old is None or old.player_id != account.nickname:
            old = self.by_player.get(account.nickname)      # known here under another token, or not at all
        if old is not session:
            if session.player_id is not None:
                self.end_identity(session)                 # this connection was someone until now
            if old is not None:
                if old.token not in (None, token):          # the token it had ends in every process too
                    self._end_token(old.token, "resumed elsewhere")
                self.sessions.pop(old.token or "", None)
                self._take_over(session, old, 4001, "resumed elsewhere")
            else:                                           # a token from before a restart, or another process
                session.player_id, session.logged_in_at = account.nickname, self.reactor.seconds()
            session.device = device
            self._connection_opened(session)
        elif session.token not in (None, token):
            self._end_token(session.token, "resumed elsewhere")
        session.token = token
        self._account_state(session, account)
        self.sessions[token] = session
        self.by_player[session.player_id] = session
        caught_up = {}
        for table_id in sorted(session.tables):
            caught_up[table_id] = self._catch_up(session, self.runners[table_id], tables.get(table_id, 0))
        self.reconnect_seats(session)                      # pushed after the catch-up
        return ok(request, nickname=session.player_id, role=session.role, tables=caught_up,
                  balance=self.ledger.balance(cash(session.player_id)))

    def _catch_up(self, session: Session, runner: TableRunner, last_seq: int) -> str:
        log = runner.log
        first = runner.log_seq - len(log) + 1
        if log and first <= last_seq + 1:
            packed = list(itertools.islice(log, max(0, last_seq + 1 - first), None))
            missed = [table_event_from_dict(msgpack.unpackb(as_bytes, strict_map_key=False)) for as_bytes in packed]
            self._fan_out(runner, missed, (session,), [table_event_to_dict(event) for event in missed], packed)
            return "events"
        session.push(self._snapshot(session, runner))
        return "snapshot"

    # lobby and watching

    def summary(self, runner: TableRunner) -> dict:
        rules, table = runner.table.rules, runner.table
        pots = list(runner.pots)
        return {"table": rules.table_id, "name": rules.name, "game": rules.variant.code,
                "small_blind": rules.stakes.small_blind, "big_blind": rules.stakes.big_blind,
                "currency": rules.currency, "seats": rules.max_seats, "taken": len(table.players),
                "waiting": len(table.waiting_list), "average_pot": sum(pots) // len(pots) if pots else 0,
                "min_buy_in": rules.min_buy_in, "max_buy_in": rules.max_buy_in, "closing": table.closing}

    def _on_lobby_list(self, session: Session, request: Request) -> dict:
        return ok(request, tables=[self.summary(r) for r in self.runners.values()],
                  **{name: section() for name, section in self.lobby_sections.items()})

    def _on_lobby_subscribe(self, session: Session, request: Request, on: bool) -> dict:
        """Lobby subscribers get a ``lobby_update`` of the tables that changed, at most once a second."""
        session.lobby = on
        return ok(request)

    def _lobby_changed(self, table_id: str) -> None:
        self._lobby_dirty.add(table_id)
        if self._lobby_call is None:
            self._lobby_call = self.reactor.callLater(LOBBY_EVERY, self._lobby_update)

    def _lobby_update(self) -> None:
        self._lobby_call = None
        changed, self._lobby_dirty = sorted(self._lobby_dirty), set()
        message = {"type": "lobby_update", "tables": [self.summary(self.runners[t]) for t in changed
                                                      if t in self.runners]}
        closed = [t for t in changed if t not in self.runners]
        if closed:
            message["closed"] = closed                  # tables that left the room since the last update
        shared = {"message": message}
        for session in self.connections:
            if session.lobby:
                session.push_shared(shared)

    def _snapshot(self, session: Session, runner: TableRunner) -> dict:
        table = runner.table
        snap = table.snapshot(table.viewer(session.player_id))
        clock = snap.clock
        seats = [dataclasses.asdict(s) for s in snap.seats]
        for seat in seats:
            if seat.get("player_id") in self.display_names:
                seat["name"] = self.display_names[seat["player_id"]]     # AC-4: the verified real name
        message = {"type": "table_snapshot", "table": table.table_id, "seq": snap.seq, "seats": seats,
                   "hand": [he.event_to_dict(e) for e in snap.hand_events],
                   "to_act": None if clock is None else clock[0],
                   "deadline": None if clock is None else clock[2],
                   "phase": None if clock is None else clock[1],
                   "seconds_left": None if clock is None else max(0.0, clock[2] - self.reactor.seconds()),
                   "button": None if snap.positions is None else snap.positions.button,
                   "waiting_list": list(snap.waiting_list)}
        seated = table.players.get(clock[0]) if clock is not None else None
        if seated is not None and seated.player_id == session.player_id:
            legal = table.legal_actions(session.player_id)
            if legal is not None:                       # your turn: what you may do, as a decision's frame says
                message["legal"] = legal.to_wire()
        return message

    def _on_observe(self, session: Session, request: Request, table: str, on: bool) -> dict:
        runner = self.runner(table)
        if on:
            self._watch(session, table)
            session.push(self._snapshot(session, runner))
        elif runner.table.seat_of(session.player_id or "") is None:
            self._unwatch(session, table)
        return ok(request)

    # playing

    def _seated(self, session: Session, table: str) -> TableRunner:
        runner = self.runner(table)
        if runner.table.seat_of(session.player_id) is None:
            raise RuleViolation("not_seated", f"you are not seated at {table}")
        return runner

    def may_play(self, session: Session) -> None:
        """The one may-play check (closed, staff SEC-2, frozen, AC-2, AC-5): :mod:`pokerroom.shell.play_check`."""
        self.play_check.session(session)

    def _funds(self, session: Session, amount: int) -> None:
        have = self.ledger.balance(cash(session.player_id))
        if have < amount:
            raise RuleViolation("insufficient_funds", f"you have {have} in your wallet, not {amount}")

    def _on_join(self, session: Session, request: Request, table: str, buy_in: int, seat: int | None = None,
                 wait_for_big_blind: bool = False) -> dict:
        runner = self.runner(table)
        self.may_play(session)
        self.moderation.verify_seat(session.player_id, [p.player_id for p in runner.table.players.values()])
        self._funds(session, buy_in)
        self._watch(session, table)
        self.command(runner, "sit", session.player_id, seat, buy_in, client_type=session.client_type,
                      wait_for_big_blind=wait_for_big_blind)
        return ok(request, seat=runner.table.seat_of(session.player_id))

    def _simple(self, name: str, session: Session, request: Request, table: str, **kwargs: Any) -> dict:
        self.command(self._seated(session, table), name, session.player_id, **kwargs)
        return ok(request)

    def _on_leave(self, session: Session, request: Request, table: str) -> dict:
        return self._simple("leave", session, request, table)

    def _on_sit_out(self, session: Session, request: Request, table: str) -> dict:
        return self._simple("sit_out", session, request, table)

    def _on_sit_in(self, session: Session, request: Request, table: str, wait_for_big_blind: bool = False) -> dict:
        self.may_play(session)
        return self._simple("sit_in", session, request, table, wait_for_big_blind=wait_for_big_blind)

    def _on_post(self, session: Session, request: Request, table: str) -> dict:
        return self._on_sit_in(session, request, table, False)

    def _on_wait_for_big_blind(self, session: Session, request: Request, table: str) -> dict:
        return self._on_sit_in(session, request, table, True)

    def _on_options(self, session: Session, request: Request, table: str, **options: bool) -> dict:
        return self._simple("set_options", session, request, table, **options)

    def _on_add_chips(self, session: Session, request: Request, table: str, amount: int) -> dict:
        runner = self._seated(session, table)
        self.may_play(session)
        self._funds(session, amount)
        self.command(runner, "add_chips", session.player_id, amount)
        return ok(request)

    def _on_act(self, session: Session, request: Request, table: str, action: str, amount: int | None = None,
                agree: bool | None = None) -> dict:
        runner = self._seated(session, table)
        command = action_named(runner.table.seat_of(session.player_id), action, amount, agree)
        self.command(runner, "act", session.player_id, command)
        self.metrics.actions.inc()
        return ok(request)

    def _on_waiting_list(self, session: Session, request: Request, table: str, on: bool) -> dict:
        runner = self.runner(table)
        if on:
            self.may_play(session)
        self.command(runner, "join_waiting_list" if on else "leave_waiting_list", session.player_id)
        self._watch(session, table)
        return ok(request)

    def _on_chat(self, session: Session, request: Request, table: str, text: str) -> dict:
        runner = self.runner(table)
        player = session.player_id
        if table not in session.tables:
            raise RuleViolation("not_at_table", f"watch or sit at {table} to chat there")
        now = self.reactor.seconds()
        hand = runner.table.hand
        try:
            self.moderation.verify_chat(player, table, now)
        except RuleViolation:                           # kept all the same, never shown (HR-CHAT-1): a line a second
            if now - session.muted_chat_at >= 1.0:
                session.muted_chat_at = now
                self.write(self.store.save_chat, table, hand.hand_id if hand else None, player, text, now, True)
            raise
        if now - session.chat_at < 1.0:
            raise RuleViolation("chat_too_fast", "one chat line a second, please", "HR-CHAT-2")
        session.chat_at = now
        abusive = conduct.chat_refusal(text, self.account_rules.banned_words) is not None
        in_hand = hand is not None and player in runner.hand_players.values()
        blocked = abusive or (in_hand and runner.table.rules.block_chat_in_hand)
        self.write(self.store.save_chat, table, hand.hand_id if hand else None, player, text, now, blocked)
        if hand is not None:
            runner.chatted.add(player)                  # railbirds too: the collusion signals read it (HR-CHAT-4)
        if in_hand:                                     # chat during one's own hand is flagged for review
            self.audit("chat_in_hand", player=player, table=table, hand_id=hand.hand_id, text=text,
                       blocked=blocked)
        if abusive:
            raise RuleViolation("chat_blocked", "links and abusive words are not allowed in chat", "HR-CHAT-2")
        if blocked:
            raise RuleViolation("chat_in_hand", "chat is closed to players in the hand until it ends at this table",
                                "HR-CHAT-4")
        message = {"type": "chat", "table": table, "player": player, "text": text, "at": now}
        if player in self.display_names:
            message["name"] = self.display_names[player]                # AC-4
        shared = {"message": message}
        for watcher in self.watching[table]:
            watcher.push_shared(shared)
        return ok(request)

    # responsible gaming (AC-5)

    def _on_self_exclude(self, session: Session, request: Request, days: int | None) -> defer.Deferred:
        now = self.reactor.seconds()
        until = float("inf") if days is None else now + days * DAY
        until = max(until, session.excluded_until or 0.0)             # it cannot be shortened or undone
        session.excluded_until = until
        d = self.write(partial(self.store.update_account, players.nickname_key(session.player_id),
                                excluded_until=until), quiet=False)
        return d.addCallback(lambda _: ok(request, until=None if days is None else until))

    def _on_deposit_limit(self, session: Session, request: Request, amount: int | None) -> defer.Deferred:
        session.deposit_limit = amount
        d = self.write(partial(self.store.update_account, players.nickname_key(session.player_id),
                                deposit_limit=amount), quiet=False)
        return d.addCallback(lambda _: ok(request))

    def _on_session_reminder(self, session: Session, request: Request, minutes: int | None) -> dict:
        if session.reminder is not None and session.reminder.active():
            session.reminder.cancel()
        session.reminder = None
        if minutes is not None:
            def remind() -> None:
                played = (self.reactor.seconds() - session.logged_in_at) / 60
                session.push({"type": "reminder", "minutes_played": round(played)})
                if session.connection is not None:
                    session.reminder = self.reactor.callLater(minutes * 60, remind)

            session.reminder = self.reactor.callLater(minutes * 60, remind)
        return ok(request)

    def _on_hand_history(self, session: Session, request: Request, limit: int = 20,
                         before: int | None = None) -> defer.Deferred:
        player = session.player_id

        def shape(hands: list) -> dict:
            out = []
            for h in hands:
                events = [he.event_from_dict(e) for e in (h.events or [])]
                seat = next((e.seat for e in events if isinstance(e, he.SeatDealtIn) and e.player_id == player),
                            None)
                viewer = Viewer.player(seat) if seat is not None else Viewer.observer()
                shown = [redact_hand_event(e, viewer, hand_ended=True) for e in events]
                out.append({"hand_id": h.hand_id, "table": h.table_id, "started_at": h.started_at,
                            "ended_at": h.ended_at, "void": h.void, "start": h.start_stacks.get(player),
                            "end": (h.end_stacks or {}).get(player),
                            "events": [he.event_to_dict(e) for e in shown if e is not None]})
            return ok(request, hands=out, next=hands[-1].id if len(hands) == limit else None)

        # Through the writer's queue: a hand that has just ended is stored before it is read back.
        return self.write(self.store.hands_of, player, limit, before, quiet=False).addCallback(shape)

    def escrows(self, player: str) -> list[str]:
        """The player's chip accounts at every cash table the room has known, closed ones too (their history)."""
        return sorted(table_escrow(table_id, player) for table_id in self.known_tables)

    def _on_bet_history(self, session: Session, request: Request, limit: int = 20,
                        before: int | None = None) -> defer.Deferred:
        player = session.player_id
        wallet = cash(player)
        escrows = set(self.escrows(player))

        def shape(transfers: list[Transfer]) -> dict:
            mine = [{"number": t.number, "reason": t.reason, "reference": t.reference, "at": t.at,
                     "wallet": sum(p.amount for p in t.postings if p.account == wallet),
                     "tables": sum(p.amount for p in t.postings if p.account in escrows)} for t in transfers]
            return ok(request, transfers=mine, balance=self.ledger.balance(wallet),
                      next=transfers[-1].number if len(transfers) == limit else None)

        # Through the writer's queue: every transfer made so far is stored before it is read back.
        return self.write(self.store.transfers_touching, [wallet, *sorted(escrows)], limit, before,
                           quiet=False).addCallback(shape)

    # ------------------------------------------------------------------ table events

    def _watch(self, session: Session, table_id: str) -> None:
        session.tables.add(table_id)
        if session.connection is not None:
            self.watching[table_id][session] = None

    def _unwatch(self, session: Session, table_id: str) -> None:
        session.tables.discard(table_id)
        self.watching[table_id].pop(session, None)

    def _unwatch_all(self, session: Session) -> None:
        for table_id in session.tables:
            self.watching[table_id].pop(session, None)
        session.tables = set()

    def _fan_out(self, runner: TableRunner, events: list, watchers: Any, dicts: list, packed: list[bytes]) -> None:
        """Send ``events`` to each watcher as one ``table_events`` frame, as that watcher may see them.

        Every event passes the one redaction function as an observer sees it;
        that public batch is built and encoded once and goes to everyone,
        except to a player whose own hole cards are in it (their seat's cards
        go only to whoever was dealt that seat in that hand -- not to a later
        occupant) or whose decision it starts (it carries their ``legal``
        actions): they get a frame of their own. ``packed`` are the events as
        the table's log packed them: the shared msgpack frame is built from them.
        """
        if not watchers:
            return
        for start in range(0, len(events), BATCH):          # a resume's catch-up can be long: frames stay small
            self._fan_out_batch(runner, events[start:start + BATCH], watchers, dicts[start:start + BATCH],
                                packed[start:start + BATCH])

    def _fan_out_batch(self, runner: TableRunner, events: list, watchers: Any, dicts: list,
                       packed: list[bytes]) -> None:
        table_id = runner.table.table_id
        public: list[dict] = []
        public_packed: list[bytes] = []
        own: dict[str, dict[int, dict]] = {}            # player -> position in the batch -> their own view
        decision = None
        for event, as_dict, as_bytes in zip(events, dicts, packed, strict=True):
            shown = redact(event, OBSERVER)
            if shown is None:
                continue
            if shown is not event:                      # hole cards: their owner sees them
                owner = runner.dealt_by_hand.get(event.hand_id, {}).get(event.event.seat)
                if owner is not None:
                    own.setdefault(owner, {})[len(public)] = as_dict
                as_dict = table_event_to_dict(shown)
                as_bytes = pack(as_dict)
            elif isinstance(event, te.DecisionStarted) and event.seq == runner.decision_seq:
                decision = event
            public.append(as_dict)
            public_packed.append(as_bytes)
        if not public:
            return
        legal_for, legal = None, None
        clock = runner.table.clock
        if decision is not None and clock is not None and clock.seat == decision.seat:
            seated = runner.table.players.get(decision.seat)
            legal_for = seated.player_id if seated is not None else None
            legal = runner.table.legal_actions(legal_for) if legal_for is not None else None
        head = {"type": "table_events", "table": table_id, "seq": events[-1].seq}
        shared = {"message": dict(head, events=public),
                  "encoded": {MSGPACK: pack_with_packed_list(head, "events", public_packed)}}
        for session in watchers:
            player = session.player_id
            deciding = legal is not None and player == legal_for
            mine = own.get(player) if player is not None else None
            if mine is None:
                session.push_shared(shared, {"legal": legal.to_wire()} if deciding else None)
                continue
            message = dict(shared["message"], events=[mine.get(i, e) for i, e in enumerate(public)])
            if deciding:
                message["legal"] = legal.to_wire()
            session.push(message)

    def _table_events(self, runner: TableRunner, events: list) -> None:
        table = runner.table
        table_id = table.table_id
        now = self.reactor.seconds()
        dicts = [table_event_to_dict(event) for event in events]
        packed = [pack(as_dict) for as_dict in dicts]
        for event, as_dict, as_bytes in zip(events, dicts, packed, strict=True):
            # The log keeps events packed: bytes are nothing for the garbage collector to scan.
            runner.log.append(as_bytes)
            runner.log_seq = event.seq
            if isinstance(event, te.DecisionStarted):
                runner.decision_seq = event.seq
            elif isinstance(event, te.PlayerSeated):
                self.record_transfers(self.ledger.move(cash(event.player_id), table_escrow(table_id, event.player_id),
                                             event.stack, "buy_in", table_id, now))
                runner.seated[event.seat] = event.player_id
                self.audit("seat", now, what="joined", table=table_id, player=event.player_id, seat=event.seat,
                           stack=event.stack)
            elif isinstance(event, te.ChipsAdded):
                player = table.players[event.seat].player_id
                self.record_transfers(self.ledger.move(cash(player), table_escrow(table_id, player), event.amount,
                                             "add_chips", table_id, now))
            elif isinstance(event, te.PlayerSatOut | te.PlayerSatIn):
                self.audit("seat", now, what="sat_out" if isinstance(event, te.PlayerSatOut) else "sat_in",
                           table=table_id, seat=event.seat, player=runner.seated.get(event.seat),
                           reason=getattr(event, "reason", ""))
            elif isinstance(event, te.PlayerLeft):
                runner.seated.pop(event.seat, None)
                self.audit("seat", now, what="left", table=table_id, player=event.player_id, seat=event.seat,
                           stack=event.stack, reason=event.reason)
                if event.stack:
                    self.record_transfers(self.ledger.move(table_escrow(table_id, event.player_id),
                                                 cash(event.player_id), event.stack, "cash_out", table_id, now))
            elif isinstance(event, te.HandEvent):
                self._hand_event(runner, event.event, now, as_dict["event"])
        self._fan_out(runner, events, self.watching[table_id], dicts, packed)
        if any(isinstance(e, _LOBBY_CHANGES) or (isinstance(e, te.HandEvent) and isinstance(e.event, he.HandEnded))
               for e in events):
            self._lobby_changed(table_id)
        for listener in self.listeners:
            listener(table_id, events)
        if table.closing and not table.players and table.hand is None and table_id in self.runners:
            self._retire(runner)

    def _hand_event(self, runner: TableRunner, event: he.Event, now: float, as_dict: dict) -> None:
        if isinstance(event, he.HandStarted):
            runner.hand_id, runner.hand_players, runner.hand_start = event.hand_id, {}, {}
            runner.hand_events, runner.hand_times, runner.chatted = [], [], set()
            runner.hand_objects = []
            runner.start_written = False
        runner.hand_events.append(as_dict)
        runner.hand_objects.append(event)
        runner.hand_times.append(now)
        if isinstance(event, he.SeatDealtIn):
            runner.hand_players[event.seat] = event.player_id
            runner.hand_start[event.player_id] = event.stack
            runner.dealt_by_hand.setdefault(runner.hand_id, {})[event.seat] = event.player_id
            while len(runner.dealt_by_hand) > LOG_HANDS:
                runner.dealt_by_hand.pop(next(iter(runner.dealt_by_hand)))
        elif not runner.start_written and isinstance(event, he.Posted | he.HoleCardsDealt):
            runner.start_written = True             # every seat is known: store the start before any card
            self.write(self.store.hand_started, runner.hand_id, runner.table.table_id, now,
                        dict(runner.hand_start))
        elif isinstance(event, he.PotFormed):
            runner.pots.append(event.amount)
        elif isinstance(event, he.HandEnded):
            runner.hand_end = ({runner.hand_players[seat]: stack for seat, stack in event.stacks}, event.rake)
        elif isinstance(event, he.DeckRevealed):
            end, rake = runner.hand_end
            settlement = self.ledger.settle_hand(runner.table.table_id, runner.hand_id, runner.hand_start, end,
                                                 rake, now)
            self.write(self.store.hand_ended, runner.hand_id, now, end, rake, list(runner.hand_events),
                        settlement, self._facts(runner, now), list(runner.hand_times))
            if settlement is not None:
                self.record_transfers(settlement, store=False)         # stored with the hand; flagged (AC-6)
            self.metrics.hands.inc()

    @staticmethod
    def _facts(runner: TableRunner, now: float) -> Callable[[], Any]:
        """What the hand says about pairs of players (SEC-3), worked out on the writer's thread."""
        rules = runner.table.rules
        return partial(hand_facts, runner.hand_objects, table_id=rules.table_id, game_key=rules.game_key,
                       at=now, chatted=frozenset(runner.chatted))
