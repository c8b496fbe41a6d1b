"""Money across processes: two wallets over one database, as two processes of one room, never spend one balance
twice (issue 21). Each "process" has its own engine, store, recorder and wallet; only the database is shared.
Run on the machine's PostgreSQL (row locks) and on one SQLite file (its one writer)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial

import pytest
from twisted.internet.task import Clock

from pokerroom.bus.in_process import InProcessBus
from pokerroom.bus.records import PayoutsRead
from pokerroom.bus.subjects import WALLET_PAYOUTS, table_command
from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import (
    HOUSE_FEES,
    HOUSE_RAKE,
    cash,
    payout,
    table_escrow,
    tournament_bounties,
    tournament_pool,
)
from pokerroom.players import AccountRules
from pokerroom.shell.cashier_moves import CashierMoves
from pokerroom.shell.composition import RoomServices
from pokerroom.shell.recorder import Recorder
from pokerroom.shell.shared_wallet import NUMBER_BLOCK, SharedWallet
from pokerroom.store.db import make_engine, migrate
from pokerroom.store.room_store import RoomStore
from pokerroom.table import commands as tc
from pokerroom.table.config import tables_from_config
from tests.support.together import assert_numbered_once, at_once, shared_database, stop_all

ROUNDS = 5


@pytest.fixture(params=["postgresql", "sqlite"])
def database(request, tmp_path) -> Iterator[str]:
    with shared_database(request.param, tmp_path) as url:
        yield url


@contextmanager
def two_processes(url: str) -> Iterator[tuple[SharedWallet, SharedWallet]]:
    """Two wallets, each on its own engine and store (nothing in memory shared), over one migrated database."""
    engines = [make_engine(url) for _ in range(2)]
    migrate(engines[0])
    try:
        wallets = []
        for engine in engines:
            clock = Clock()
            clock.advance(1_000)
            store = RoomStore(engine)
            wallet = SharedWallet(Recorder(store, clock), clock, AccountRules(aml_threshold=10**9))
            wallet.load(store.ledger.load_ledger(), [])
            wallets.append(wallet)
        yield wallets[0], wallets[1]
    finally:
        for engine in engines:
            engine.dispose()


def stored_numbers(wallet: SharedWallet) -> list[int]:
    return [t.number for t in wallet.recorder.store.ledger.load_ledger().transfers]


def test_two_processes_moving_one_whole_balance_to_two_tables_at_once_exactly_one_succeeds(database):
    with two_processes(database) as (east, west):
        for round_number in range(ROUNDS):
            balance = 1_000 + round_number
            east.deposit("ana", balance, None)
            tables = (f"east-{round_number}", f"west-{round_number}")
            results = at_once(*[partial(wallet.move, cash("ana"), table_escrow(table, "ana"), balance, "buy_in", table)
                                for wallet, table in zip((east, west), tables, strict=True)])
            refused = [r for r in results if isinstance(r, RuleViolation)]
            moved = [r for r in results if not isinstance(r, RuleViolation)]
            assert len(moved) == 1 and len(refused) == 1, results
            assert refused[0].code == "insufficient_funds"
            assert moved[0].stored                          # in the database already: no caller stores it again
            winner = tables[results.index(moved[0])]
            for wallet in (east, west):
                assert wallet.balance("ana") == 0
            held = east.recorder.store.ledger.balances([table_escrow(t, "ana") for t in tables])
            assert held == {table_escrow(winner, "ana"): balance,
                            table_escrow(tables[1 - tables.index(winner)], "ana"): 0}
        store = east.recorder.store
        numbers = stored_numbers(east)
        assert len(numbers) == len(set(numbers)) == 2 * ROUNDS           # the deposits and the winning buy-ins
        assert store.ledger.ledger_check() and store.ledger.ledger_problems() == []


def test_a_welcome_deposit_asked_of_two_processes_at_once_is_paid_once(database):
    """Each process's desk read the stored deposits and found none (the race the desk's own check cannot see):
    the database pays the reference once, under its lock, and refuses the other in the same transaction."""
    with two_processes(database) as (east, west):
        for round_number in range(ROUNDS):
            player, reference = f"p{round_number}", f"welcome-{round_number}"
            refusal = RuleViolation("already_welcomed", f"{player} was given the welcome balance already")
            results = at_once(*[partial(wallet.deposit_once, player, 500, None, reference, refusal)
                                for wallet in (east, west)])
            assert sorted(type(r).__name__ for r in results) == ["RuleViolation", "Transfer"], results
            assert [r.code for r in results if isinstance(r, RuleViolation)] == ["already_welcomed"]
            for wallet in (east, west):
                assert wallet.balance(player) == 500
        store = east.recorder.store
        assert len(store.cashier.transfer_references("deposit", [f"welcome-{n}" for n in range(ROUNDS)])) == ROUNDS
        assert_numbered_once(store, ROUNDS)


def test_a_deposit_on_one_process_is_seen_by_the_other_when_it_returns(database):
    with two_processes(database) as (east, west):
        east.deposit("ana", 700, None)
        assert west.balance("ana") == 700 and west.held(cash("ana")) == 700
        west.move(cash("ana"), table_escrow("w1", "ana"), 300, "buy_in", "w1")
        assert east.balance("ana") == 400
        with pytest.raises(RuleViolation) as short:
            east.verify_funds("ana", 401)
        assert short.value.code == "insufficient_funds" and short.value.amounts == {"have": 400, "need": 401}


def test_transfer_numbers_come_in_blocks_that_never_collide(database):
    with two_processes(database) as (east, west):
        made = [wallet.deposit(f"p{i}", 10, None).number
                for i in range(NUMBER_BLOCK + 5) for wallet in (east, west)]
        assert len(set(made)) == len(made)
        assert sorted(stored_numbers(east)) == sorted(made)
        assert east.recorder.store.ledger.ledger_check()


def test_a_shared_move_a_caller_stores_with_its_own_record_is_written_once(database):
    with two_processes(database) as (east, _):
        store = east.recorder.store
        deposit = east.deposit("ana", 500, None)
        entry = east.move(cash("ana"), tournament_pool("sng"), 500, "tournament", "sng", store=False)
        assert entry.stored and entry.number in stored_numbers(east)
        prize = east.move(tournament_pool("sng"), cash("ana"), 200, "prize", "sng", store=False)   # pays in only
        assert not prize.stored and prize.number not in stored_numbers(east)
        store.ledger.save_transfers([entry, prize])      # the caller's step: the entry is skipped, the prize written
        assert sorted(stored_numbers(east)) == sorted((deposit.number, entry.number, prize.number))
        assert east.balance("ana") == 200 and store.ledger.ledger_check()


def test_a_hands_settlement_pays_the_rake_into_the_shared_row_with_the_hand(database):
    with two_processes(database) as (east, west):
        for player in ("ana", "bob"):
            east.deposit(player, 400, None)
            east.move(cash(player), table_escrow("e1", player), 400, "buy_in", "e1", store=False)
        settlement = east.settle_hand("e1", "e1-1", {"ana": 400, "bob": 400}, {"ana": 0, "bob": 780}, 20)
        assert not settlement.stored and west.held(HOUSE_RAKE) == 0       # the recorder stores it with the hand
        east.recorder.store.ledger.save_transfers([settlement])
        assert west.held(HOUSE_RAKE) == 20 and east.held(table_escrow("e1", "bob")) == 780


def test_a_buy_in_is_taken_before_the_command_runs_and_given_back_if_it_is_refused(database):
    with two_processes(database) as (east, west):
        east.deposit("ana", 1_000, None)
        seat = table_escrow("e1", "ana")
        with east.funding(cash("ana"), [(seat, 600, "buy_in")], "e1") as funds:
            assert funds == 1_000 and west.balance("ana") == 400   # gone from the wallet before the table seats her
            taken = east.move(cash("ana"), seat, 600, "buy_in", "e1", store=False)   # the table's own move
        assert taken.stored and east.held(seat) == 600 and west.balance("ana") == 400
        with pytest.raises(RuleViolation) as refused, west.funding(cash("ana"), [(table_escrow("w1", "ana"), 400,
                                                                                  "buy_in")], "w1"):
            raise RuleViolation("table_full", "there is no free seat")
        assert refused.value.code == "table_full" and east.balance("ana") == 400   # given back
        with pytest.raises(RuleViolation) as short, west.funding(cash("ana"), [(table_escrow("w1", "ana"), 401,
                                                                                "buy_in")], "w1"):
            pytest.fail("a buy-in over the balance runs no command")
        assert short.value.code == "insufficient_funds" and short.value.amounts == {"have": 400, "need": 401}
        with west.funding(cash("ana"), [(table_escrow("w1", "ana"), 401, "buy_in")], "w1", verify=False) as funds:
            assert funds == 400                                  # the table refuses it with the funds there are
        assert east.recorder.store.ledger.ledger_problems() == []


def test_an_entrys_payments_are_taken_in_one_locked_transaction_or_not_at_all(database):
    """A tournament entry pays the pool, the bounties and the fee: taken together, refused together."""
    legs = [(tournament_pool("sng"), 300, "tournament buy-in"), (tournament_bounties("sng"), 100, "tournament bounty"),
            (HOUSE_FEES, 50, "tournament fee")]
    with two_processes(database) as (east, west):
        east.deposit("ana", 449, None)
        before = stored_numbers(east)
        with west.funding(cash("ana"), legs, "sng", verify=False) as funds:
            assert funds == 449                                 # short by one: nothing taken, the director refuses
        assert east.balance("ana") == 449 and stored_numbers(east) == before
        east.deposit("ana", 1, None)
        with west.funding(cash("ana"), legs, "sng", verify=False) as funds:
            assert funds == 450 and east.balance("ana") == 0
            taken = [west.move(cash("ana"), target, amount, reason, "sng", store=False)
                     for target, amount, reason in legs[:2]]    # the director paid two of the three
        assert all(t.stored for t in taken) and east.held(HOUSE_FEES) == 0 and east.balance("ana") == 50
        assert west.held(tournament_pool("sng")) == 300 and west.held(tournament_bounties("sng")) == 100
        assert east.recorder.store.ledger.ledger_check()


def room_owning(url: str, table_id: str) -> RoomServices:
    """One process of the room: its own engine, store, bus and clock, owning the one cash table ``table_id``."""
    engine = make_engine(url)
    migrate(engine)
    clock = Clock()
    clock.advance(1_000)
    tables = tables_from_config({"tables": [{"id": table_id, "variant": "NLHE", "small_blind": 5, "big_blind": 10,
                                             "min_buy_in": 400, "max_buy_in": 2_000, "seats": 6}]})
    room = RoomServices(tables, RoomStore(engine), clock, bus=InProcessBus(), shared_money=True)
    room.startService()
    return room


def sit(room: RoomServices, table: str, command: tc.Sit) -> object:
    """The table's answer to ``command`` as a gateway on any process asks it (the in-process bus answers in the
    call): the seat, or the refusal."""
    out: list = []
    room.bus.request(table_command(table), command).addBoth(out.append)
    assert out, "the table did not answer"
    failure = out[0]
    if hasattr(failure, "value"):
        failure.trap(RuleViolation)
        return failure.value
    return failure


def test_one_account_sitting_at_two_tables_owned_by_two_processes_at_once_with_its_whole_balance_sits_once(database):
    rooms = [room_owning(database, "east"), room_owning(database, "west")]
    try:
        for round_number in range(ROUNDS):
            player, balance = f"ana{round_number}", 1_000 + round_number
            rooms[0].wallet.deposit(player, balance, None)
            answers = at_once(*[partial(sit, room, table, tc.Sit(player, None, balance))
                                for room, table in zip(rooms, ("east", "west"), strict=True)])
            seated = [i for i, a in enumerate(answers) if isinstance(a, dict)]
            refused = [a for a in answers if isinstance(a, RuleViolation)]
            assert len(seated) == 1 and len(refused) == 1, answers
            assert refused[0].code == "insufficient_funds" and refused[0].amounts == {"have": 0, "need": balance}
            winner, loser = rooms[seated[0]], rooms[1 - seated[0]]
            assert winner.tables.runner(("east", "west")[seated[0]]).table.seat_of(player) is not None
            assert loser.tables.runner(("east", "west")[1 - seated[0]]).table.seat_of(player) is None
            assert winner.wallet.balance(player) == loser.wallet.balance(player) == 0
            assert winner.wallet.held(table_escrow(("east", "west")[seated[0]], player)) == balance
        assert_numbered_once(rooms[0].store, 2 * ROUNDS)
    finally:
        stop_all(rooms)


def test_crash_recoverys_transfers_take_their_numbers_from_the_blocks_too(database):
    """Recovery posts to the ledger as stored before the wallet loads it: prepared by a shared wallet, its
    transfers are numbered from a block of their own, never the stored maximum plus one another process holds."""
    with two_processes(database) as (east, west):
        first = east.deposit("ana", 500, None).number            # east holds the rest of its block
        ledger = west.prepare(west.recorder.store.ledger.load_ledger())
        assert ledger.count == first
        recovered = ledger.move(cash("ana"), table_escrow("w1", "ana"), 100, "recovery", "w1", 2_000.0)
        assert recovered.number >= first + NUMBER_BLOCK
        west.recorder.store.ledger.save_transfers([recovered])
        assert east.deposit("bob", 10, None).number == first + 1    # no collision with the stored recovery
        assert east.recorder.store.ledger.ledger_check()


def test_every_held_withdrawal_is_read_from_the_database_whichever_process_held_it(database):
    """``wallet.payouts`` (the cashier's start) lists a withdrawal another process held, not only its own."""
    with two_processes(database) as (east, west):
        east.deposit("ana", 5_000, None)
        east.move(cash("ana"), payout("w-1", "ana"), 2_000, "withdrawal held", "w-1")
        bus = InProcessBus()
        CashierMoves(bus, west, west.recorder)
        answered = []
        bus.request(WALLET_PAYOUTS, PayoutsRead()).addBoth(answered.append)
        assert answered == [{"held": [["ana", "w-1", 2_000]]}]
