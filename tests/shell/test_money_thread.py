"""A shared wallet's locked moves off the reactor (issue 21): while a move waits for its rows' locks -- another
process's transaction holding them -- the reactor's thread is free, and what the move answers is what it
answered on the reactor: exactly one of two spends of one balance, refusals in their words, nothing lost.

Real PostgreSQL (its row locks), a real thread pool; the "reactor" is a Clock whose ``callFromThread`` queues,
turned by the test, so nothing here waits on the wall clock but for PostgreSQL to say the move is waiting."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial

import pytest
from sqlalchemy import text
from twisted.internet import defer
from twisted.internet.task import Clock
from twisted.python.failure import Failure
from twisted.python.threadpool import ThreadPool

from pokerroom.bus.in_process import InProcessBus
from pokerroom.bus.records import (
    AdminCredit,
    BuyShares,
    Enter,
    FundPromotions,
    OfferShares,
    WithdrawalHold,
    WithdrawalSettled,
)
from pokerroom.bus.subjects import (
    WALLET_CREDIT,
    WALLET_HOLD,
    WALLET_PROMOTIONS,
    WALLET_SETTLE,
    casino_command,
    table_command,
    tournament_command,
)
from pokerroom.casino import commands as cc
from pokerroom.casino.config import build_table
from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import PROMOTIONS, WORLD, cash, casino_escrow, payout, table_escrow, tournament_pool
from pokerroom.players import AccountRules
from pokerroom.shell.composition import RoomServices
from pokerroom.shell.recorder import Recorder
from pokerroom.shell.shared_wallet import SharedWallet
from pokerroom.shell.tournaments.director_requests import template_spec
from pokerroom.store.db import make_engine, migrate
from pokerroom.store.room_store import RoomStore
from pokerroom.table import commands as tc
from pokerroom.table.config import tables_from_config
from tests.support.casino_room import casino_floor, quick_rules
from tests.support.databases import postgres_database
from tests.support.waiting import wait_until

LOCK_ROW = text("SELECT balance FROM ledger_balances WHERE account = :account FOR UPDATE")
WAITING = text("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")


class QueuedReactor(Clock):
    """A Clock whose ``callFromThread`` queues the call for the test's thread (the reactor's) to run."""

    def __init__(self) -> None:
        super().__init__()
        self.from_threads: queue.Queue = queue.Queue()

    def callFromThread(self, f, *args, **kwargs) -> None:  # noqa: N802, ANN001 - Twisted's name
        self.from_threads.put(partial(f, *args, **kwargs))

    def until(self, d: defer.Deferred) -> object:
        """Turn until ``d`` has a result (the money thread's answers run here); its result, or its failure raised."""
        out: list = []
        d.addBoth(out.append)                   # not ``d.called``: true of one still waiting on a chained Deferred
        while not out:
            self.from_threads.get(timeout=30)()
        if isinstance(out[0], Failure):
            out[0].raiseException()
        return out[0]


@contextmanager
def processes(count: int) -> Iterator[tuple[list[SharedWallet], object]]:
    """``count`` wallets, each its own engine, store, reactor and money thread, over one PostgreSQL database; and
    a connection of the test's own (another process's transaction)."""
    with postgres_database() as url:
        # a move's wait for a lock gives up after 20 s: one made on the test's own thread fails, never hangs
        engines = [make_engine(url + "?options=-c%20lock_timeout%3D20s") for _ in range(count + 1)]
        migrate(engines[0])
        pools, wallets = [], []
        try:
            for engine in engines[:count]:
                reactor = QueuedReactor()
                reactor.advance(1_000)
                store = RoomStore(engine)
                wallet = SharedWallet(Recorder(store, reactor), reactor, AccountRules(aml_threshold=10**9))
                wallet.load(store.ledger.load_ledger(), [])
                pool = ThreadPool(minthreads=1, maxthreads=2, name="test-money")
                wallet.move_off_reactor(pool)
                pool.start()
                pools.append(pool)
                wallets.append(wallet)
            yield wallets, engines[count]
        finally:
            for pool in pools:
                pool.stop()
            for engine in engines:
                engine.dispose()


def held(wallet: SharedWallet, *accounts: str) -> list[int]:
    stored = wallet.ledger_store.balances(accounts)
    return [stored[account] for account in accounts]


def answers(wallets: list[SharedWallet], asked: list[defer.Deferred]) -> list[object]:
    """What each wallet answered its own request, turned on its own reactor: the result, or the refusal."""
    results: list[object] = []
    for wallet, d in zip(wallets, asked, strict=True):
        try:
            results.append(wallet.reactor.until(d))
        except RuleViolation as refused:
            results.append(refused)
    return results


def waiting(engine, count: int) -> None:  # noqa: ANN001 - an Engine
    """PostgreSQL says ``count`` transactions wait on a lock (the moves are in the database, not on our thread)."""
    def seen() -> bool:
        with engine.connect() as c:
            return c.execute(WAITING).scalar() >= count
    assert wait_until(seen, timeout=20), "the locked moves never reached the database"


def test_a_buy_in_waiting_for_its_locked_row_leaves_the_reactor_free_and_lands_when_the_lock_goes():
    with processes(1) as ([east], other):
        east.deposit("ana", 1_000, None, reference="cashier")   # stored at once (no money thread asked yet)
        escrow = table_escrow("t1", "ana")
        ran = []

        def sit(funds: int) -> str:
            ran.append(funds)
            east.move(cash("ana"), escrow, 600, "buy_in", "t1", store=False)     # the table's move: the prepaid one
            return "seated"

        with other.connect() as c, c.begin():                   # another process's transaction holds ana's row
            c.execute(LOCK_ROW, {"account": cash("ana")})
            d = east.funded(cash("ana"), [(escrow, 600, "buy_in")], "t1", sit)
            assert isinstance(d, defer.Deferred) and not d.called    # answered at once: the reactor is free
            east.reactor.advance(5)                             # its timers fire while the move waits
            waiting(other, 1)
            assert not d.called and ran == [] and east.reactor.from_threads.empty()
        assert east.reactor.until(d) == "seated"                # the lock gone (rolled back): it lands
        assert ran == [1_000]
        assert held(east, cash("ana"), escrow) == [400, 600]
        assert east.ledger_store.ledger_check() and east.ledger_store.ledger_problems() == []


def test_two_processes_buying_in_with_one_whole_balance_off_the_reactor_exactly_one_succeeds():
    with processes(2) as (wallets, other):
        east, west = wallets
        east.deposit("ana", 1_000, None, reference="cashier")
        ran: list[str] = []

        def sit(wallet: SharedWallet, table: str, funds: int) -> str:
            ran.append(table)
            wallet.move(cash("ana"), table_escrow(table, "ana"), 1_000, "buy_in", table, store=False)
            return table

        with other.connect() as c, c.begin():
            c.execute(LOCK_ROW, {"account": cash("ana")})
            asked = [w.funded(cash("ana"), [(table_escrow(t, "ana"), 1_000, "buy_in")], t, partial(sit, w, t))
                     for w, t in ((east, "east-1"), (west, "west-1"))]
            waiting(other, 2)                                   # both in the database, both reactors free
            assert not any(d.called for d in asked)
        results = answers(wallets, asked)
        refusals = [r for r in results if isinstance(r, RuleViolation)]
        assert len(refusals) == 1 and ran == [r for r in results if isinstance(r, str)], results
        assert refusals[0].code == "insufficient_funds" and refusals[0].amounts == {"have": 0, "need": 1_000}
        assert held(east, cash("ana"), table_escrow(ran[0], "ana")) == [0, 1_000]
        assert east.ledger_store.ledger_check() and east.ledger_store.ledger_problems() == []


def test_a_refused_command_gets_its_money_back_off_the_reactor_and_its_refusal_unchanged():
    with processes(1) as ([east], _):
        east.deposit("ana", 1_000, None, reference="cashier")

        def refuse(funds: int) -> None:
            raise RuleViolation("seat_taken", "seat 3 is taken")

        d = east.funded(cash("ana"), [(table_escrow("t1", "ana"), 600, "buy_in")], "t1", refuse)
        with pytest.raises(RuleViolation) as refused:
            east.reactor.until(d)
        assert refused.value.code == "seat_taken"
        assert held(east, cash("ana"), table_escrow("t1", "ana")) == [1_000, 0]
        assert east.held(table_escrow("t1", "ana")) == 0        # the escrow here agrees: no chip anywhere else
        reasons = [t.reason for t in east.ledger_store.load_ledger().transfers]
        assert reasons == ["deposit", "buy_in", "buy_in returned"]


def test_a_welcome_deposit_off_the_reactor_is_paid_once_by_two_processes():
    with processes(2) as (wallets, _):
        refusal = RuleViolation("already_welcomed", "ana was given the welcome balance already")
        asked = [w.deposit_once("ana", 500, None, "welcome-ana", refusal) for w in wallets]    # both in flight
        assert all(isinstance(d, defer.Deferred) for d in asked)
        results = answers(wallets, asked)
        assert sorted(type(r).__name__ for r in results) == ["RuleViolation", "Transfer"], results
        assert [r.code for r in results if isinstance(r, RuleViolation)] == ["already_welcomed"]
        assert held(wallets[0], cash("ana")) == [500]


@contextmanager
def room_with_money_thread(*, furnished: bool = False) -> Iterator[RoomServices]:
    """One process of the room on PostgreSQL, owning cash table ``t1``, its wallet's locked moves on a thread;
    ``furnished``: with the tournament hall and the desks of the house's money too, as configured by default."""
    with postgres_database() as url:
        engine = make_engine(url + "?options=-c%20lock_timeout%3D20s")
        migrate(engine)
        reactor = QueuedReactor()
        reactor.advance(1_000)
        tables = tables_from_config({"tables": [{"id": "t1", "variant": "NLHE", "small_blind": 5, "big_blind": 10,
                                                 "min_buy_in": 400, "max_buy_in": 2_000, "seats": 6}]})
        room = RoomServices(tables, RoomStore(engine), reactor, bus=InProcessBus(), shared_money=True,
                            config={} if furnished else None)
        pool = ThreadPool(minthreads=1, maxthreads=2, name="test-money")
        room.wallet.move_off_reactor(pool)
        pool.start()
        room.startService()
        try:
            yield room
        finally:
            room.stopService()
            pool.stop()
            engine.dispose()


def test_a_join_through_the_table_host_off_the_reactor_is_seated_once_its_money_lands():
    with room_with_money_thread() as room:
        room.wallet.deposit("ana", 1_000, None, reference="cashier")
        d = room.bus.request(table_command("t1"), tc.Sit("ana", 2, 600))
        assert room.tables.runner("t1").table.seat_of("ana") is None    # not seated before the money is taken
        assert room.reactor.until(d) == {"seat": 2}
        assert room.tables.runner("t1").table.seat_of("ana") == 2
        assert room.wallet.balance("ana") == 400 and room.wallet.held(table_escrow("t1", "ana")) == 600


def test_a_table_gone_while_its_buy_in_was_taken_refuses_the_join_and_gives_the_money_back():
    with room_with_money_thread() as room:
        room.wallet.deposit("ana", 1_000, None, reference="cashier")
        d = room.bus.request(table_command("t1"), tc.Sit("ana", 2, 600))
        room.tables.drop_table("t1")                # its lease lost while the money thread took the buy-in
        with pytest.raises(RuleViolation) as refused:
            room.reactor.until(d)
        assert refused.value.code == "no_such_table"
        assert room.wallet.balance("ana") == 1_000 and room.wallet.held(table_escrow("t1", "ana")) == 0
        reasons = [t.reason for t in room.store.ledger.load_ledger().transfers]
        assert reasons == ["deposit", "buy_in", "buy_in returned"]


# ---------------------------------------------------------------------- the other locked moves, each off the reactor


def moving_threads(wallet: SharedWallet) -> list[str]:
    """The names of the threads the wallet's locked transactions run on, from now on, in order."""
    seen: list[str] = []
    post = wallet.ledger_store.post_locked

    def watched(*args, **kwargs) -> None:  # noqa: ANN002, ANN003 - post_locked's own
        seen.append(threading.current_thread().name)
        return post(*args, **kwargs)

    wallet.ledger_store.post_locked = watched
    return seen


def on_money_thread(seen: list[str], count: int) -> None:
    assert len(seen) == count and all("test-money" in name for name in seen), seen
    assert threading.current_thread().name not in seen


def outcome(room: RoomServices, d: defer.Deferred) -> object:
    """What ``d`` answers once the money thread's results have run on the reactor: its result or its refusal."""
    try:
        return room.reactor.until(d)
    except RuleViolation as refused:
        return refused


def reasons(room: RoomServices) -> list[str]:
    return [t.reason for t in room.store.ledger.load_ledger().transfers]


def exact(room: RoomServices, **expected: int) -> None:
    """Each account holds what is expected, in the database and in this process's copy, and the ledger adds up."""
    stored = room.store.ledger.balances(expected)
    assert stored == expected
    assert {account: room.wallet.books.balance(account) for account in expected} == expected
    assert room.store.ledger.ledger_check() and room.store.ledger.ledger_problems() == []


def ana_at_baccarat(room: RoomServices) -> list[str]:
    """A baccarat table on the room's floor, ana at it with 1,000 in her wallet; the threads the wallet moves on."""
    casino_floor(room, [build_table(quick_rules("bac", "baccarat"))]).start()
    room.reactor.advance(0)
    room.wallet.deposit("ana", 1_000, None, reference="cashier")
    assert room.reactor.until(room.bus.request(casino_command("bac"), cc.Join("ana")))
    return moving_threads(room.wallet)


def test_two_casino_stakes_of_one_balance_off_the_reactor_go_in_turn_the_second_refused_in_the_tables_words():
    with room_with_money_thread() as room:
        seen = ana_at_baccarat(room)
        first = room.bus.request(casino_command("bac"), cc.Bet("ana", "player", 1_000, 0))
        second = room.bus.request(casino_command("bac"), cc.Bet("ana", "banker", 1_000, 0))   # waits its turn
        assert not first.called and not second.called          # nothing answered before the money is taken
        placed, refused = outcome(room, first), outcome(room, second)
        assert placed["amount"] == 1_000 and placed["balance"] == 0
        assert isinstance(refused, RuleViolation) and refused.code == "insufficient_funds", refused
        on_money_thread(seen, 2)                                # the second's transaction refused: nothing written
        assert reasons(room) == ["deposit", "casino bet"]
        exact(room, **{cash("ana"): 0, casino_escrow("bac", "ana"): 1_000})


def test_a_casino_stake_the_table_refuses_after_its_money_was_taken_off_the_reactor_comes_back():
    with room_with_money_thread() as room:
        seen = ana_at_baccarat(room)
        refused = outcome(room, room.bus.request(casino_command("bac"), cc.Bet("ana", "player", 50, 0)))  # < 100
        assert isinstance(refused, RuleViolation) and refused.code not in ("insufficient_funds", None), refused
        on_money_thread(seen, 2)                                # taken, then given back
        assert reasons(room) == ["deposit", "casino bet", "casino bet returned"]
        exact(room, **{cash("ana"): 1_000, casino_escrow("bac", "ana"): 0})


def test_a_tournament_entry_off_the_reactor_is_made_once_its_money_is_taken_and_one_short_of_it_refused():
    with room_with_money_thread(furnished=True) as room:
        hall = room.hall
        hall.create(template_spec("sit_and_go", id="sng", name="sng", start_at=None), "boss")
        room.wallet.deposit("ana", 600, None, reference="cashier")
        room.wallet.deposit("bob", 400, None, reference="cashier")
        seen = moving_threads(room.wallet)
        entries = [room.bus.request(tournament_command("sng"), Enter(player)) for player in ("ana", "bob")]
        assert not any(d.called for d in entries)
        entered, refused = (outcome(room, d) for d in entries)
        assert entered == {"balance": 100}
        assert isinstance(refused, RuleViolation) and refused.code == "insufficient_funds", refused
        on_money_thread(seen, 2)                                # bob's transaction refused: nothing written
        assert list(hall.director("sng").entries) == ["ana"]
        exact(room, **{cash("ana"): 100, cash("bob"): 400})
        assert room.wallet.held(tournament_pool("sng")) + room.wallet.held("house:fees") == 500


def test_a_reseat_after_a_takeover_off_the_reactor_seats_once_its_money_lands_and_one_short_is_refused():
    with room_with_money_thread() as room:
        room.wallet.deposit("ana", 1_000, None, reference="cashier")
        seen = moving_threads(room.wallet)
        d = room.tables.reseat("t1", "ana", 2, 600)
        assert isinstance(d, defer.Deferred) and room.tables.runner("t1").table.seat_of("ana") is None
        room.reactor.until(d)
        assert room.tables.runner("t1").table.seat_of("ana") == 2
        refused = outcome(room, room.tables.reseat("t1", "bob", 3, 600))
        assert isinstance(refused, RuleViolation) and refused.code == "insufficient_funds"
        assert refused.amounts == {"have": 0, "need": 600}
        on_money_thread(seen, 2)
        assert room.tables.runner("t1").table.seat_of("bob") is None
        exact(room, **{cash("ana"): 400, table_escrow("t1", "ana"): 600, cash("bob"): 0})


def test_two_withdrawal_holds_of_one_balance_off_the_reactor_hold_once_and_the_held_one_settles_there_too():
    with room_with_money_thread() as room:
        room.store.accounts.create_account("ana", "ana", "-", "1990-01-01", "NL", 0.0)
        room.wallet.deposit("ana", 1_000, None, reference="cashier")
        seen = moving_threads(room.wallet)
        with room.store.engine.connect() as c, c.begin():      # another process's transaction holds ana's row
            c.execute(LOCK_ROW, {"account": cash("ana")})
            holds = [room.bus.request(WALLET_HOLD, WithdrawalHold("ana", 700, reference))
                     for reference in ("w1", "w2")]             # both read 1,000 and wait in the database
            waiting(room.store.engine, 2)
            assert room.reactor.from_threads.empty()           # nothing answered: both wait, the reactor free
        answers = [outcome(room, d) for d in holds]             # the row's lock lets one through
        held = [i for i, answer in enumerate(answers) if answer == {"balance": 300}]
        refused = [a for a in answers if isinstance(a, RuleViolation)]
        assert len(held) == 1 and [r.code for r in refused] == ["insufficient_funds"], answers
        kept, other = ("w1", "w2")[held[0]], ("w1", "w2")[1 - held[0]]
        exact(room, **{cash("ana"): 300, payout(kept, "ana"): 700, payout(other, "ana"): 0})
        settled = outcome(room, room.bus.request(WALLET_SETTLE, WithdrawalSettled("ana", 700, kept, paid=True)))
        assert settled["settled"] is True and settled["balance"] == 300
        on_money_thread(seen, 3)
        exact(room, **{cash("ana"): 300, payout(kept, "ana"): 0})
        assert room.store.ledger.balances([WORLD])[WORLD] == -1_000 + 700


def test_a_share_bought_off_the_reactor_is_sold_once_its_money_is_taken_and_one_short_of_it_refused():
    with room_with_money_thread(furnished=True) as room:
        room.hall.create(template_spec("sit_and_go", id="sng", name="sng", start_at=None), "boss")
        for player, amount in (("ana", 500), ("bob", 1_000), ("cy", 10)):
            room.wallet.deposit(player, amount, None, reference="cashier")
        assert room.reactor.until(room.bus.request(tournament_command("sng"), Enter("ana"))) == {"balance": 0}
        assert room.reactor.until(room.bus.request(tournament_command("sng"), OfferShares("ana", 50, 100))) == {}
        seen = moving_threads(room.wallet)
        bought = [room.bus.request(tournament_command("sng"), BuyShares("ana", buyer, 20)) for buyer in ("bob", "cy")]
        sold, refused = (outcome(room, d) for d in bought)
        assert sold == {"balance": 900}                          # 20% of a 500 entry, at cost
        assert isinstance(refused, RuleViolation) and refused.code == "insufficient_funds", refused
        on_money_thread(seen, 2)
        exact(room, **{cash("ana"): 0, cash("bob"): 900, cash("cy"): 10})   # the share is held for the event


def admin(room: RoomServices) -> None:
    room.store.accounts.create_account("boss", "boss", "-", "1970-01-01", "NL", 0.0, role="admin")
    room.store.accounts.create_account("ana", "ana", "-", "1990-01-01", "NL", 0.0)


def test_a_promotions_funding_and_an_admins_credit_off_the_reactor_answer_once_moved_and_refuse_in_their_words():
    with room_with_money_thread(furnished=True) as room:
        admin(room)
        seen = moving_threads(room.wallet)
        funded = outcome(room, room.bus.request(WALLET_PROMOTIONS, FundPromotions("deposit", 5_000, "boss", "why")))
        assert funded["balance"] == 5_000
        credited = outcome(room, room.bus.request(WALLET_CREDIT, AdminCredit("ana", 700, "boss", "why", "wire")))
        assert credited["balance"] == 700 and credited["today"] == [700]
        on_money_thread(seen, 2)
        short = outcome(room, room.bus.request(WALLET_PROMOTIONS, FundPromotions("house:rake", 1, "boss", "why")))
        assert isinstance(short, RuleViolation) and short.code == "insufficient_funds"     # the desk's, before
        over = outcome(room, room.bus.request(WALLET_CREDIT, AdminCredit("ana", 10**12, "boss", "why", "wire")))
        assert isinstance(over, RuleViolation) and over.code == "over_limit"
        on_money_thread(seen, 2)                                # neither moved anything
        exact(room, **{PROMOTIONS: 5_000, cash("ana"): 700, WORLD: -5_700})
