"""Money across processes at the casino: one account betting its whole balance at two baccarat tables whose floors
run on two processes over one database, at the same instant -- exactly one stake is taken, the other bet is
refused before its table takes it (CR-3), and the ledger adds up (issue 21)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

import pytest
from twisted.internet.task import Clock

from pokerroom.bus.in_process import InProcessBus
from pokerroom.bus.subjects import casino_command
from pokerroom.casino import commands as cc
from pokerroom.casino.config import build_table
from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import casino_escrow
from pokerroom.players import AccountRules
from pokerroom.shell.composition import RoomServices
from pokerroom.store.db import make_engine, migrate
from pokerroom.store.room_store import RoomStore
from tests.support.casino_room import casino_floor, quick_rules
from tests.support.together import assert_numbered_once, at_once, shared_database, stop_all

ROUNDS = 3


@pytest.fixture(params=["postgresql", "sqlite"])
def database(request, tmp_path) -> Iterator[str]:
    with shared_database(request.param, tmp_path) as url:
        yield url


def floor_owning(url: str, table_id: str) -> RoomServices:
    """One process: its own engine, store, bus and clock, with a casino floor running the baccarat ``table_id``."""
    engine = make_engine(url)
    migrate(engine)
    clock = Clock()
    clock.advance(1_000)
    room = RoomServices([], RoomStore(engine), clock, account_rules=AccountRules(), bus=InProcessBus(),
                        shared_money=True)
    room.startService()
    casino_floor(room, [build_table(quick_rules(table_id, "baccarat"))]).start()
    clock.advance(0)
    return room


def asked(room: RoomServices, table: str, command: object) -> object:
    out: list = []
    room.bus.request(casino_command(table), command).addBoth(out.append)
    assert out, "the floor did not answer"
    return out[0].value if hasattr(out[0], "trap") and out[0].trap(RuleViolation) else out[0]


def test_CR_3_one_balance_bet_whole_at_two_processes_tables_at_once_is_staked_once(database):
    rooms = [floor_owning(database, "east"), floor_owning(database, "west")]
    try:
        for round_number in range(ROUNDS):
            player, balance = f"ana{round_number}", 5_000 + round_number
            rooms[0].wallet.deposit(player, balance, None)
            for room, table in zip(rooms, ("east", "west"), strict=True):
                assert isinstance(asked(room, table, cc.Join(player)), dict)
            answers = at_once(*[partial(asked, room, table, cc.Bet(player, "player", balance, 0))
                                for room, table in zip(rooms, ("east", "west"), strict=True)])
            placed = [i for i, a in enumerate(answers) if isinstance(a, dict)]
            refused = [a for a in answers if isinstance(a, RuleViolation)]
            assert len(placed) == 1 and len(refused) == 1, answers
            assert refused[0].code == "insufficient_funds" and refused[0].amounts == {"have": 0, "need": balance}
            winner, loser = ("east", "west")[placed[0]], ("east", "west")[1 - placed[0]]
            assert asked(rooms[placed[0]], winner, cc.Reconnect(player))["bets"][0]["amount"] == balance
            assert asked(rooms[1 - placed[0]], loser, cc.Reconnect(player))["bets"] == []   # its table took nothing
            assert answers[placed[0]]["balance"] == 0 and answers[placed[0]]["amount"] == balance
            held = rooms[0].store.ledger.balances([casino_escrow(t, player) for t in ("east", "west")])
            assert held == {casino_escrow(winner, player): balance,
                            casino_escrow(loser, player): 0}
        assert_numbered_once(rooms[0].store, 2 * ROUNDS)
    finally:
        stop_all(rooms)
