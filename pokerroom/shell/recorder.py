"""The recorder: the one writer to the store, and what it records of every table's full stream.

Theory of operation
-------------------
Every store call of the room goes through :meth:`Recorder.write`, which runs
it on the writer thread after every earlier one. Calls queue up while the
writer is busy and then go to the store as one batch, one transaction
(:meth:`~pokerroom.store.room_store.RoomStore.batch`): a busy room commits
once per batch, not once per write. Reads that must see every earlier write
(a player's hands, their bets) queue here too.

The table host of the recorder's own process hands it every batch through
a direct port, :meth:`Recorder.record` (the :class:`TableRecording`
protocol), in the call that made the events -- not over the bus, whose
delivery is at most once and on a later turn: no money or hand record waits
for a message. A :class:`FullBatch` is the table's events as they happened,
with the ledger transfers the table host made for them. In the events' order
the recorder stores the transfers, chains the seat records in the audit log
(SEC-1), stores a hand's start-of-hand stacks before any card is dealt, and
its events, end stacks, settling transfer and facts (SEC-3) in one call when
it ends -- the stacks the table's runner tracked (:class:`HandStacks`), never
tracked again here. Casino rounds (:class:`CasinoRound`) and tournament steps
(:class:`TournamentStep`) come through the same port, in the call that made
them, and give a Deferred of their commit.

Fencing
-------
On several processes each table's writes are fenced by its lease
(:meth:`Recorder.fence_with`): a table's writes carry the epoch this process
held its lease at when they were asked, and run in one transaction after the
lease row's check (:meth:`~pokerroom.store.lease_records.LeaseRecords.fenced`;
read once per batch). A process that hung past its lease and wakes has its
late writes refused as a whole -- nothing of them lands -- and the table
stops here at once (:meth:`~pokerroom.shell.leases.LeaseKeeper.refused`), in
one logged sentence. One process (no leases) writes unfenced, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

from twisted.internet import defer, threads
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger
from twisted.python.failure import Failure
from twisted.python.threadpool import ThreadPool

from pokerroom.bus.records import ChatLine
from pokerroom.money.ledger import Transfer
from pokerroom.poker import events as he
from pokerroom.security.facts import hand_facts
from pokerroom.store.lease_records import Fence, LeaseLost, resource
from pokerroom.store.room_store import RoomStore
from pokerroom.table import TableRules
from pokerroom.table import events as te

WRITE_GATHER = 0.1                  # seconds a busy writer waits for its next batch to fill, while nobody waits


def _fire(result: Any, out: defer.Deferred) -> Any:
    out.callback(None)
    return result


@dataclass(slots=True)
class HandStacks:
    """A cash hand's stacks, tracked once -- by the table's runner, which settles the hand on them -- and read by
    the recorder, which stores them: who was dealt in at which seat with what, and the stacks and rake at its end."""

    hand_id: str
    players: dict[int, str] = field(default_factory=dict)   # seat -> player
    start: dict[str, int] = field(default_factory=dict)     # player -> stack when dealt in
    end: dict[str, int] = field(default_factory=dict)       # player -> stack at the end
    rake: int = 0

    def dealt(self, seat: int, player: str, stack: int) -> None:
        self.players[seat] = player
        self.start[player] = stack

    def ended(self, stacks: tuple[tuple[int, int], ...], rake: int) -> None:
        self.end = {self.players[seat]: stack for seat, stack in stacks}
        self.rake = rake

    @classmethod
    def of(cls, events: list) -> HandStacks:
        """The stacks of a whole hand's events, as a runner tracking them one by one would have them (a
        tournament hand is stored from its events once it has ended)."""
        stacks = cls(next((e.hand_id for e in events if isinstance(e, he.HandStarted)), ""))
        for event in events:
            if isinstance(event, he.SeatDealtIn):
                stacks.dealt(event.seat, event.player, event.stack)
            elif isinstance(event, he.HandEnded):
                stacks.ended(event.stacks, event.rake)
        return stacks


@dataclass(slots=True)
class FullBatch:
    """A table's events as they happened (every card), handed to the recorder once per batch, in process: the
    objects themselves (the bus's :class:`~pokerroom.bus.records.TableBatch` is the plain copy for listeners)."""

    rules: TableRules
    events: list
    dicts: list[dict]                       # the events as the protocol writes them
    at: float
    transfers: dict[int, Transfer]          # position in ``events`` -> the transfer the table host made for it
    hand: HandStacks | None = None          # the hand in play's stacks as the batch leaves them (the runner's)


@dataclass(frozen=True, slots=True)
class CasinoRound:
    """A casino round's end as the recorder stores it: its result, cards and every bet ``(player, market, staked,
    returned, detail)``, with the transfer settling or refunding it (CR-7, BOB-6)."""

    table_id: str
    number: int
    game: str
    result: str
    void: bool
    cards: tuple[int, ...]
    bets: tuple[tuple[str, str, int, int, str], ...]
    transfers: tuple[Transfer, ...]
    at: float


@dataclass(frozen=True, slots=True)
class TournamentStep:
    """A tournament's step as the recorder stores it, in one transaction: the hands that ended in it (each as its
    ``hand_started`` and ``hand_ended`` arguments) and the director's saved step with its transfers (None: nothing
    a snapshot keeps changed); ``tournament`` names the event, whose lease fences it."""

    hands: tuple[tuple[tuple, tuple], ...]
    step: tuple | None
    tournament: str = ""


class Fencing(Protocol):
    """What the recorder uses of the lease keeper: the fence of a table's writes asked now, and a refused one."""

    def fence(self, resource: str) -> Fence | None: ...

    def refused(self, lost: LeaseLost) -> None: ...


class TableRecording(Protocol):
    """The recorder's one port for the tables of its own process -- cash, casino and tournament: every batch, in
    order, in the call that made it (never a bus delivery), and a table's leaving. A casino round's and a
    tournament step's record give a Deferred of their commit, which their frames wait for."""

    def record(self, batch: FullBatch) -> None: ...

    def record_round(self, round_end: CasinoRound) -> defer.Deferred: ...

    def record_step(self, step: TournamentStep) -> defer.Deferred: ...

    def table_closed(self, table_id: str) -> None: ...

    def chat_kept(self, table_id: str, line: ChatLine, tournament: str = "") -> None: ...


@dataclass(slots=True)
class _HandBeingPlayed:
    stacks: HandStacks                                      # the runner's: read, never tracked again here
    events: list[dict] = field(default_factory=list)
    objects: list = field(default_factory=list)             # the same events as they came: what the facts read
    times: list[float] = field(default_factory=list)        # when each happened (SEC-1)
    chatted: set[str] = field(default_factory=set)          # who chatted at the table while it ran (HR-CHAT-4)
    start_written: bool = False


class Recorder:
    log = Logger()

    def __init__(self, store: RoomStore, reactor: IReactorTime, writer: ThreadPool | None = None,
                 on_hand_stored: Callable[[], None] | None = None) -> None:
        self.store = store
        self.reactor = reactor
        self._writer = writer
        self._queued: list[tuple[Callable, tuple, defer.Deferred]] = []
        self._writing = False
        self._gathering: Any = None                         # the call that writes the gathered batch, while pending
        self._awaited = False                               # an outcome waits for what is queued: write it now
        self._newest: defer.Deferred | None = None          # the last write asked for
        self._hands: dict[str, _HandBeingPlayed] = {}       # table -> the hand it is playing
        self._seated: dict[str, dict[int, str]] = {}         # table -> seat -> player, as the events told it
        self._on_hand_stored = on_hand_stored or (lambda: None)
        self._fencing: Fencing | None = None                # several processes: the leases' keeper

    # ------------------------------------------------------------------ fencing (several processes)

    def fence_with(self, fencing: Fencing) -> None:
        """From now on a leased table's writes are fenced by the epoch this process holds its lease at."""
        self._fencing = fencing

    @property
    def fencing(self) -> bool:
        """Whether leased tables' writes are fenced here (several processes)."""
        return self._fencing is not None

    def fence_of(self, kind: str, table_id: str) -> tuple[Fence, ...]:
        """The fence of a write of a table asked now: none on one process, or for a table not held by lease."""
        if self._fencing is None or not table_id:
            return ()
        fence = self._fencing.fence(resource(kind, table_id))
        return () if fence is None else (fence,)

    def refused(self, lost: LeaseLost) -> None:
        """A fenced write refused (nothing of it stored): the table stops here, as a lost lease does."""
        if self._fencing is not None:
            self._fencing.refused(lost)

    def write_fenced(self, fences: tuple[Fence, ...], function: Callable, *args: Any,
                     quiet: bool = True) -> defer.Deferred:
        """:meth:`write`, in one transaction after ``fences`` (a leased table's). Refused, it fires None once the
        table is stopped here (its frames may go: the table is gone from this process); another failure is
        logged when ``quiet``, else handed back."""
        if not fences:
            return self.write(function, *args, quiet=quiet)
        d = self.write(self.store.leases.fenced, fences, function, *args, quiet=False)
        d.addErrback(self._fence_failed, quiet)
        return d

    def _fence_failed(self, failure: Failure, quiet: bool) -> Failure | None:
        if failure.check(LeaseLost):
            self.refused(failure.value)
            return None
        if quiet:
            self.log.failure("a store write failed", failure)
            return None
        return failure

    # ------------------------------------------------------------------ the writer

    def write(self, function: Callable, *args: Any, quiet: bool = True) -> defer.Deferred:
        """Run a store call on the writer thread after every earlier one; a Deferred of its result.

        ``quiet`` writes have nobody waiting: a failure is logged (and the room
        goes on) instead of being handed back.
        """
        out: defer.Deferred = defer.Deferred()
        if quiet:
            out.addErrback(lambda failure: self.log.failure("a store write failed", failure))
        self._queued.append((function, args, out))
        self._newest = out
        if not self._writing:
            self._write_queued()
        return out

    def _write_queued(self) -> None:
        self._writing = True
        self._gathering = None
        self._awaited = False
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
        # gathers for a moment, so many writes share one transaction -- unless an outcome's frames
        # wait for it (:meth:`landed`): a hand's end is shown as soon as it can be, not a gather later.
        if self._awaited:
            self._write_queued()
        else:
            self._gathering = self.reactor.callLater(WRITE_GATHER, self._write_queued)

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

    def landed(self) -> defer.Deferred:
        """Fires when every write asked for so far has committed, without a write of its own: what an outcome's
        frames wait for (:mod:`pokerroom.shell.outcome_hold`) -- the batch holding its write, not one after it."""
        out: defer.Deferred = defer.Deferred()
        newest = self._newest
        if newest is None or newest.called:
            out.callback(None)
            return out
        newest.addBoth(_fire, out)
        if self._queued:                                    # not yet on its way: it goes with the next batch,
            self._awaited = True                            # which no longer gathers
            if self._gathering is not None:
                self._gathering.cancel()
                self._write_queued()
        return out

    def audit(self, kind: str, at: float | None = None, **data: Any) -> None:
        """Chain a record in the audit log (SEC-1): who did what, when, in the writer's order."""
        self.write(self.store.audit, kind, data, self.reactor.seconds() if at is None else at)

    def audit_of(self, lease: str, place: str, kind: str, at: float | None = None, **data: Any) -> None:
        """:meth:`audit` of a leased table's or event's own record (``lease``: ``cash``, ``casino`` or
        ``tournament``; ``place``: its id), fenced by its lease on several processes."""
        self._table_audit(self.fence_of(lease, place), kind, self.reactor.seconds() if at is None else at, **data)

    def _table_audit(self, fences: tuple[Fence, ...], kind: str, at: float, **data: Any) -> None:
        """:meth:`audit` of a table's own record, fenced by its lease."""
        self.write_fenced(fences, self.store.audit, kind, data, at)

    def chat_kept(self, table_id: str, line: ChatLine, tournament: str = "") -> None:
        """A chat line at the table, shown or not, kept (HR-CHAT-1); one during a hand noted for the collusion signals
        (railbirds too: HR-CHAT-4), and one during its author's own hand flagged for review. At a ``tournament``'s
        table the writes are fenced by the event's lease, whose hall keeps them."""
        fences = self.fence_of("tournament", tournament) if tournament else self.fence_of("cash", table_id)
        self.write_fenced(fences, self.store.tables.save_chat, table_id, line.hand, line.player, line.text, line.at,
                          line.blocked)
        hand = self._hands.get(table_id)
        if hand is not None and hand.stacks.hand_id == line.hand:     # not a hand dealt since the line
            hand.chatted.add(line.player)
        if line.in_hand:
            self._table_audit(fences, "chat_in_hand", line.at, player=line.player, table=table_id,
                              hand_id=line.hand, text=line.text, blocked=line.blocked,
                              **({"tournament": tournament} if tournament else {}))

    # ------------------------------------------------------------------ a table's batches, through the port

    def table_closed(self, table_id: str) -> None:
        """A table that left the room: nothing of it is kept (a table opened again later starts afresh)."""
        self._seated.pop(table_id, None)
        self._hands.pop(table_id, None)

    def record_round(self, round_end: CasinoRound) -> defer.Deferred:
        """A casino round's end, stored in one transaction; fires once committed (its frames wait for that), or
        refused by its lease's fence (the table stops here)."""
        r = round_end
        return self.write_fenced(self.fence_of("casino", r.table_id), self.store.casino.save_casino_round,
                                 r.table_id, r.number, r.game, r.result, r.void, list(r.cards), list(r.bets),
                                 list(r.transfers), r.at)

    def record_step(self, step: TournamentStep) -> defer.Deferred:
        """A tournament's step and the hands it ended, in one transaction; fires once committed, or refused by the
        event's lease's fence (the event stops here)."""
        calls = [call for started, ended in step.hands
                 for call in ((self.store.hands.hand_started, started), (self.store.hands.hand_ended, ended))]
        if step.step is not None:
            calls.append((self.store.tournaments.save_tournament, step.step))
        return self.write_fenced(self.fence_of("tournament", step.tournament), self.store.together, calls)

    def record(self, batch: FullBatch) -> None:
        """One batch of a table's events, in the table host's call: its writes are queued before it returns (so an
        outcome's frames can wait for :meth:`landed`)."""
        table_id = batch.rules.table_id
        seated = self._seated.setdefault(table_id, {})
        now = batch.at
        fences = self.fence_of("cash", table_id)
        for i, (event, as_dict) in enumerate(zip(batch.events, batch.dicts, strict=True)):
            transfer = batch.transfers.get(i)
            if isinstance(event, te.HandEvent):
                self._hand_event(batch, event.event, now, as_dict["event"], transfer, fences)
                continue
            if transfer is not None:
                self.write_fenced(fences, self.store.ledger.save_transfers, [transfer])
            if isinstance(event, te.PlayerSeated):
                seated[event.seat] = event.player
                self.write_fenced(fences, self.store.tables.seat_changed, table_id, event.player, event.seat,
                                  {"what": "joined", "table": table_id, "player": event.player, "seat": event.seat,
                                   "stack": event.stack}, now)
            elif isinstance(event, te.PlayerSatOut | te.PlayerSatIn):
                self._table_audit(fences, "seat", now,
                                  what="sat_out" if isinstance(event, te.PlayerSatOut) else "sat_in",
                                  table=table_id, seat=event.seat, player=seated.get(event.seat),
                                  reason=getattr(event, "reason", ""))
            elif isinstance(event, te.PlayerLeft):
                seated.pop(event.seat, None)
                self.write_fenced(fences, self.store.tables.seat_changed, table_id, event.player, None,
                                  {"what": "left", "table": table_id, "player": event.player, "seat": event.seat,
                                   "stack": event.stack, "reason": event.reason}, now)

    def _hand_event(self, batch: FullBatch, event: he.Event, now: float, as_dict: dict,
                    settlement: Transfer | None, fences: tuple[Fence, ...]) -> None:
        rules = batch.rules
        table_id = rules.table_id
        if isinstance(event, he.HandStarted):
            stacks = batch.hand
            if stacks is None or stacks.hand_id != event.hand_id:
                raise ValueError(f"a batch starting hand {event.hand_id} must carry that hand's stacks")
            hand = self._hands[table_id] = _HandBeingPlayed(stacks)
        else:
            hand = self._hands.get(table_id)
            if hand is None:                        # a hand begun before this recorder knew the table
                hand = self._hands[table_id] = _HandBeingPlayed(batch.hand or HandStacks(""))
        hand.events.append(as_dict)
        hand.objects.append(event)
        hand.times.append(now)
        if not hand.start_written and isinstance(event, he.Posted | he.HoleCardsDealt):
            hand.start_written = True               # every seat is known: store the start before any card
            self.write_fenced(fences, self.store.hands.hand_started, hand.stacks.hand_id, table_id, now,
                              dict(hand.stacks.start))
        elif isinstance(event, he.DeckRevealed):
            stacks = hand.stacks
            facts = partial(hand_facts, hand.objects, table_id=table_id, game_key=rules.game_key, at=now,
                            chatted=frozenset(hand.chatted))   # worked out on the writer's thread (SEC-3)
            self.write_fenced(fences, self.store.hands.hand_ended, stacks.hand_id, now, dict(stacks.end),
                              stacks.rake, list(hand.events), settlement, facts, list(hand.times))
            del self._hands[table_id]
            self._on_hand_stored()
