"""Which tables this process plays, on a room of several: the ones whose lease it holds (issue 21).

Theory of operation
-------------------
One process alone plays every table; it needs no lease. On several processes
over one database and one bus, each table is played by the one process holding
its lease (:mod:`pokerroom.shell.leases`, :mod:`pokerroom.store.lease_records`):
its host answers the table's subjects, and the others' gateways reach it over
the bus. :class:`Tenancy` is the one place a process asks for a table and hears
that it won, lost or took one over; each kind of table (``cash``; the casino's
and the tournaments' when they lease) says once, with :meth:`Tenancy.serve`, how
it opens a table it now owns and how it drops one it no longer does.

A table taken over from a process that died is opened from the database as a
restart would open it (:class:`EscrowRecovery`): its open hand is void and
every stack back where the hand started (TR-REFUND-1), and each player's chips
go back to their wallet, exact -- the ledger as committed is what the dead
process left, since a hand's settlement is stored with its end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from twisted.internet import defer
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger
from twisted.python.failure import Failure

from pokerroom.amount_text import amount_text, unit_name
from pokerroom.bus import Bus
from pokerroom.bus.subjects import TABLES_MOVING, TABLES_TAKEN_OVER
from pokerroom.casino.table import CasinoTable
from pokerroom.errors import RuleViolation, table_moving
from pokerroom.money.accounts import Kind, cash, parse
from pokerroom.money.ledger import Posting
from pokerroom.shell.casino_floor import CasinoFloor
from pokerroom.shell.leases import LeaseKeeper
from pokerroom.shell.table_host import TableHost
from pokerroom.shell.tournaments.hall import TournamentHall
from pokerroom.shell.wallet import Wallet
from pokerroom.store.lease_records import resource
from pokerroom.store.room_store import RoomStore
from pokerroom.table import TableRules

CASH, CASINO, TOURNAMENT = "cash", "casino", "tournament"


def table_moved(table_id: str, voided: list[str], *, refunded: int | None = None, currency: str = "") -> dict:
    """The ``table_moved`` push: in a plain sentence, that the table goes on on another process and what its
    takeover voided -- at a cash table its hands (TR-REFUND-1); at a casino table (``refunded`` given) its round in
    play and what one bettor had staked on it, back in their wallet (CR-5), their own push."""
    moved = (f"{'Table' if refunded is None else 'Casino table'} {table_id} moved to another server of the room "
             "after its own stopped, and goes on there.")
    if refunded is not None:
        rounds = " and ".join(voided)
        return {"type": "table_moved", "table": table_id, "voided": voided, "rule": "CR-5", "message": moved +
                f" The round in play ({rounds}) was void: your stakes on it, {amount_text(refunded, currency)}, "
                "are back in your wallet.", "refunded": refunded, "currency": unit_name(currency)}
    if not voided:
        return {"type": "table_moved", "table": table_id, "voided": voided, "rule": "",
                "message": moved + " No hand was in play: every seat and stack is as it was."}
    hands = " and ".join(voided)
    return {"type": "table_moved", "table": table_id, "voided": voided, "rule": "TR-REFUND-1", "message": moved +
            f" The hand in play ({hands}) was void: every stack is back where it started, at the same seat."}


MOVING_KEPT = 1.0                   # seconds one read of the room's leases answers every tables.moving ask


@dataclass(frozen=True, slots=True)
class _Kind:
    take: Callable[[str], None]         # a table of this kind this process now owns: open it
    drop: Callable[[str], None]         # one it no longer owns: stop serving it, at once, and say nothing


class Tenancy:
    """The tables this process holds the leases of, by kind: asked for, won, lost, taken over."""

    log = Logger()

    def __init__(self, clock: IReactorTime | None = None) -> None:
        self.clock = clock                  # with one, what the database said of a lease is kept MOVING_KEPT s
        self.leased: tuple[float, defer.Deferred | set[str]] | None = None    # (kept until, every lease's name)
        self.kinds: dict[str, _Kind] = {}
        self.keeper: LeaseKeeper | None = None
        self.let_go: set[str] = set()       # leases lost here: what it says of them with the database away
        self.bus: Bus | None = None         # the room's, once this process answers for leases (answer_moving)

    def attach(self, keeper: LeaseKeeper) -> None:
        """The keeper of this process's leases (made with :meth:`lost` and :meth:`takeover` as its callbacks)."""
        self.keeper = keeper

    def serve(self, kind: str, take: Callable[[str], None], drop: Callable[[str], None]) -> None:
        self.kinds[kind] = _Kind(take, drop)

    def serves(self, name: str) -> bool:
        """Whether a lease ``name`` is of a kind this process plays (the keeper takes over only those: a
        gateway-only process, say, holds the cashier's lease and never a table's)."""
        return name.partition(":")[0] in self.kinds

    def hold(self, kind: str, table_id: str) -> defer.Deferred:
        """Ask for a table's lease: fires True, once the table is open here, if this process won it."""
        if self.keeper is None:
            raise RuntimeError("a tenancy asks for leases through its keeper: attach one first")
        d = self.keeper.hold(resource(kind, table_id))
        d.addCallback(self._held, kind, table_id)
        return d

    def retire(self, kind: str, table_id: str) -> None:
        """A table or event gone for good (closed, ended and retired): its lease goes, and nobody takes it over."""
        if self.keeper is not None:
            self.keeper.retire(resource(kind, table_id))

    def answer_moving(self, bus: Bus) -> None:
        """Answer ``tables.moving`` (:meth:`moving`), one table side of the room for each ask."""
        self.bus = bus
        bus.respond(TABLES_MOVING, self.moving, shared=True)

    def moving(self, asked: list[str]) -> defer.Deferred:
        """A table (``[kind, id]``) nobody answered for: refused ``table_moving`` if it is between owners -- the room
        leases it, held live or not (its process stopped, and another is opening it from the database, or soon
        will) -- else None, and the asker's refusal stands (no such table, or closed for good). With the database
        unreachable, a table whose lease this process lost is moving (every process stops serving then)."""
        kind, table_id = asked
        name = resource(kind, table_id)
        if self.keeper is None:
            raise RuntimeError("a tenancy tells of leases through its keeper: attach one first")
        return self._leased(name).addCallback(self._moving, kind, table_id)

    def _leased(self, name: str) -> defer.Deferred:
        """Whether the room leases ``name``, read on the leases' thread. With a clock, every lease the room has is
        read at once and the answer kept ``MOVING_KEPT`` seconds for every ask: a dead process's players all ask
        again every moment until their tables open elsewhere, and a read each (or one a table) queued the
        takeover's own claims and renewals behind them."""
        assert self.keeper is not None
        keeper = self.keeper
        if self.clock is None:
            d = keeper.writer.write(keeper.leases.leased, name, quiet=False)
            return d.addErrback(lambda _: name in self.let_go)
        now = self.clock.seconds()
        if self.leased is None or self.leased[0] <= now:
            d = keeper.writer.write(keeper.leases.leased_names, quiet=False)
            kept = (now + MOVING_KEPT, d)
            self.leased = kept

            def read(names: set[str]) -> set[str]:
                if self.leased is kept:
                    self.leased = (kept[0], names)
                return names

            def unread(_: Failure) -> None:
                if self.leased is kept:
                    self.leased = None                  # not kept: asked of the database again next time
                return None                             # unknown: each ask answers from what it let go

            known: defer.Deferred | set[str] = d.addCallbacks(read, unread)
        else:
            known = self.leased[1]
        if not isinstance(known, defer.Deferred):
            return defer.succeed(name in known)
        told: defer.Deferred = defer.Deferred()
        known.addBoth(lambda result: (told.callback(result), result)[1])
        return told.addCallback(lambda names: name in self.let_go if names is None else name in names)

    @staticmethod
    def _moving(leased: bool, kind: str, table_id: str) -> None:
        if leased:
            raise table_moving(kind, table_id)

    def _held(self, won: bool, kind: str, table_id: str) -> bool:
        if won:
            self.let_go.discard(resource(kind, table_id))
            self.kinds[kind].take(table_id)
        return won

    def takeover(self, name: str, epoch: int) -> None:
        """The keeper claimed a lease that ran out (its process died or hung): the table opens here."""
        kind, _, table_id = name.partition(":")
        handlers = self.kinds.get(kind)
        if handlers is None:
            self.log.warn("took over {name}, which no service here plays", name=name)
            return
        self.log.info("taking over {name} (epoch {epoch})", name=name, epoch=epoch)
        self.let_go.discard(name)
        if self.bus is not None:            # the gateways stop waiting for what the former owner never answered
            self.bus.publish(TABLES_TAKEN_OVER, [kind, table_id])
        handlers.take(table_id)

    def lost(self, name: str) -> None:
        kind, _, table_id = name.partition(":")
        self.let_go.add(name)
        handlers = self.kinds.get(kind)
        if handlers is not None:
            self.log.warn("lost the lease of {name}: no longer serving it", name=name)
            handlers.drop(table_id)


class EscrowRecovery:
    """A table opened by this process from what another left in the database: each player's chips or stakes there,
    as committed, back in their wallet (TR-REFUND-1 at a cash table, whose open hand is void; CR-5 at a casino
    table, whose round in play is void and every bet refunded)."""

    def __init__(self, store: RoomStore, wallet: Wallet, reactor: IReactorTime) -> None:
        self.store = store
        self.wallet = wallet
        self.reactor = reactor

    def cash_table(self, table_id: str) -> tuple[list[str], int, list[tuple[str, int | None, int]]]:
        """The hands voided, the number of the table's next hand, and who sat where with what (their chips now
        back in their wallet): ``(player, seat, stack)``, the seat as its seat rows, kept with the audit chain's seat
        records, last told it."""
        voided = self.store.hands.void_open_hands(table_id, self.reactor.seconds())
        returned = self.escrow(Kind.TABLE, table_id)
        seats = self.store.tables.seats_at(table_id)        # a row a seat, not the table's seat history
        sat = [(parse(account).player, seats.get(parse(account).player), stack)
               for account, stack in sorted(returned.items())]
        # players sat: the hand they were dealt may have been shown before its start was stored (Restores)
        return voided, self.store.hands.last_hand_number(table_id) + (1 if returned else 0), sat

    def casino_table(self, table_id: str) -> tuple[str, dict[str, int]]:
        """The round voided (``<table>#<number>``: staked on, never finished) and each bettor's stakes on it, now
        back in their wallet (CR-5); none when nothing was staked."""
        returned = self.escrow(Kind.CASINO, table_id)
        stakes = {parse(account).player: stake for account, stake in sorted(returned.items())}
        return (f"{table_id}#{self.store.casino.last_casino_round(table_id)}" if stakes else ""), stakes

    def adopt(self, kind: Kind, place: str) -> dict[str, int]:
        """Every escrow account of a table or event, as committed, held by this process's wallet from now on."""
        escrow = self.store.ledger.held_in(kind, place)
        self.wallet.adopt(escrow)
        return escrow

    def escrow(self, kind: Kind, table_id: str) -> dict[str, int]:
        """Every escrow account of the table, as stored, adopted and moved back to its player's wallet -- in one
        transfer (stored, AC-6), so one locked transaction a table: one a player, on the reactor thread, was half
        of a twenty-table takeover's opening (bench/cluster.py, py-spy)."""
        escrow = self.adopt(kind, table_id)
        postings = [posting for account, balance in sorted(escrow.items()) if balance > 0
                    for posting in (Posting(account, -balance), Posting(cash(parse(account).player), balance))]
        if postings:
            self.wallet.transfer(postings, "recovery", table_id)
        return escrow


class CashTenant:
    """The cash tables' part in a tenancy: a table is opened through its lease when there is a keeper (several
    processes), at once when there is none (one process); one taken over is recovered first."""

    def __init__(self, tables: TableHost, tenancy: Tenancy, recovery: EscrowRecovery | None,
                 configured: Iterable[TableRules] = ()) -> None:
        self.tables = tables
        self.tenancy = tenancy
        self.recovery = recovery
        self.rules = {r.table_id: r for r in configured}    # every cash table this process may play (one taken over)
        self.opening: list[defer.Deferred] = []                # the asks made at start (:meth:`ready`)
        tenancy.serve(CASH, self.take, tables.drop_table)
        tables.when_retired(self.retired)

    def open(self, rules: TableRules, *, announce: bool = True) -> defer.Deferred:
        """Open a table here, or ask for its lease: fires True if it is open here."""
        self.rules[rules.table_id] = rules
        if self.tenancy.keeper is None:
            self.tables.add_table(rules, announce=announce)
            return defer.succeed(True)
        return self.tenancy.hold(CASH, rules.table_id)

    def open_all(self, tables: Iterable[TableRules]) -> None:
        """At start: each table opened here or asked for; :meth:`ready` fires once every ask is answered."""
        self.opening = [self.open(rules) for rules in tables]

    def ready(self) -> defer.Deferred:
        """Fires once the tables asked for at start are open here or known to be another process's."""
        return defer.gatherResults(self.opening, consumeErrors=True)

    def retired(self, table_id: str) -> None:
        """A table closed for good: its lease goes, so no process opens it again."""
        self.rules.pop(table_id, None)
        self.tenancy.retire(CASH, table_id)

    def take(self, table_id: str) -> None:
        """This process now owns the table: recovered from the database, then open."""
        rules = self.rules.get(table_id)
        if rules is None or table_id in self.tables.runners:
            return
        sat: list[tuple[str, int | None, int]] = []
        voided: list[str] = []
        if self.recovery is not None:
            voided, number, sat = self.recovery.cash_table(table_id)
            if voided:
                self.tenancy.log.warn("{table}: voided {hands} (TR-REFUND-1)", table=table_id, hands=", ".join(voided))
            self.tables.number_from(table_id, number)
        self.tables.add_table(rules)
        landing = []                            # reseats whose money is taken off the reactor
        for player, seat, stack in sat:         # the table goes on: each at their seat, with their stack
            try:
                seated = self.tables.reseat(table_id, player, seat, stack)
            except RuleViolation as refused:
                self._not_seated(table_id, player, refused)
                continue
            if isinstance(seated, defer.Deferred):
                landing.append(seated.addErrback(self._not_seated_later, table_id, player))
        if sat:                                 # taken over with players: told in words, after their seats
            told = table_moved(table_id, voided)
            if landing:
                later = defer.gatherResults(landing, consumeErrors=True)
                later.addCallback(lambda _: self.tables.moved_to_here(table_id, told))
                later.addErrback(lambda failure: self.tenancy.log.failure("{table}: its players not told", failure,
                                                                          table=table_id))
            else:
                self.tables.moved_to_here(table_id, told)

    def _not_seated(self, table_id: str, player: str, refused: RuleViolation) -> None:
        """Their wallet spent meanwhile elsewhere (or the table gone again): the chips stay there."""
        self.tenancy.log.warn("{table}: {player} not seated again ({why})", table=table_id, player=player,
                              why=refused.code)

    def _not_seated_later(self, failure: Failure, table_id: str, player: str) -> None:
        failure.trap(RuleViolation)
        self._not_seated(table_id, player, failure.value)


class CasinoTenant:
    """The casino tables' part in a tenancy: on several processes each is played where its lease is held, and one
    taken over is opened after its stakes went back to their wallets (CR-5)."""

    def __init__(self, floor: CasinoFloor, tenancy: Tenancy, recovery: EscrowRecovery,
                 configured: Iterable[CasinoTable]) -> None:
        self.floor = floor
        self.tenancy = tenancy
        self.recovery = recovery
        self.tables = {t.table_id: t for t in configured}
        tenancy.serve(CASINO, self.take, floor.drop)

    def open_all(self) -> None:
        for table_id in self.tables:
            self.tenancy.hold(CASINO, table_id)

    def take(self, table_id: str) -> None:
        table = self.tables.get(table_id)
        if table is None or table_id in self.floor.tables:
            return
        voided, stakes = self.recovery.casino_table(table_id)
        self.floor.add(table)
        if not stakes:
            return
        self.tenancy.log.warn("{table}: the round in play ({round}) is void, its stakes refunded (CR-5)",
                              table=table_id, round=voided)
        self.floor.moved_to_here(table_id, {            # who had stakes on it hear why, in words, with their amounts
            player: table_moved(table_id, [voided], refunded=stake, currency=table.rules.currency)
            for player, stake in stakes.items()})


class TournamentTenant:
    """The tournaments' part in a tenancy: each event is directed by the process holding its lease (the one that
    made it); one whose process died is refunded where its lease is taken over, as a restart refunds it
    (TR-REFUND-2..7). It is the hall's :class:`~pokerroom.shell.tournaments.hall.EventLeases`."""

    def __init__(self, tenancy: Tenancy, recovery: EscrowRecovery) -> None:
        self.tenancy = tenancy
        self.recovery = recovery

    def serve(self, hall: TournamentHall) -> None:
        def take(tid: str) -> None:
            if tid not in hall.directors:       # another process's event: its pools as committed, here from now on
                self.recovery.adopt(Kind.TOURNAMENT, tid)
            hall.take_over(tid)

        self.tenancy.serve(TOURNAMENT, take, hall.drop)

    def claim(self, tid: str) -> defer.Deferred:
        return self.tenancy.hold(TOURNAMENT, tid)

    def retire(self, tid: str) -> None:
        self.tenancy.retire(TOURNAMENT, tid)
