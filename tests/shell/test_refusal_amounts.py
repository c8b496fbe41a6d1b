"""A refusal's amounts read in the table's money and travel as numbers (issue #20): HR-STAKE-4, HR-STAKE-2, BET-3."""

from __future__ import annotations

from twisted.internet.task import Clock

from pokerroom.players import AccountRules
from pokerroom.shell.composition import RoomServices
from pokerroom.table.config import tables_from_config
from tests.support.clocked_room import player, request, resolved
from tests.support.hall_lobby import started
from tests.support.wire_schema import server_problem

USD = {"tables": [{"id": "usd", "variant": "NLHE", "small_blind": 5, "big_blind": 10, "min_buy_in": 400,
                   "max_buy_in": 1000, "seats": 6, "currency": "USD"},
                  {"id": "play", "variant": "NLHE", "small_blind": 5, "big_blind": 10, "min_buy_in": 400,
                   "max_buy_in": 1200, "seats": 6}]}


def _room(store, clock):   # noqa: ANN001, ANN202
    room = RoomServices(tables_from_config(USD), store, clock, account_rules=AccountRules())
    room.startService()
    return room


def _refusal(answer: dict) -> dict:
    answer = resolved(answer)
    assert answer["ok"] is False and server_problem(answer) is None, answer
    return answer["error"]


def test_HR_STAKE_4_a_buy_in_out_of_range_reads_in_dollars_and_gives_the_cents(store):
    room = _room(store, Clock())
    ana, _ = player(room, "ana")
    problem = _refusal(request(room, ana, "join", table="usd", buy_in=1200))
    assert problem == {"code": "buy_in_out_of_range", "rule": "HR-STAKE-4",
                       "message": "the buy-in here is $4.00 to $10.00, not $12.00",
                       "amounts": {"min": 400, "max": 1000, "given": 1200}, "currency": "USD"}
    chips = _refusal(request(room, ana, "join", table="play", buy_in=1300))      # a table without a currency
    assert chips["message"] == "the buy-in here is 400 chips to 1,200 chips, not 1,300 chips"
    assert chips["currency"] == "chips"


def test_HR_STAKE_2_adding_chips_over_the_maximum_names_the_maximum_and_the_stack_in_dollars(store):
    room = _room(store, Clock())
    ana, _ = player(room, "ana")
    assert resolved(request(room, ana, "join", table="usd", buy_in=800, seat=1))["ok"]
    problem = _refusal(request(room, ana, "add_chips", rid=2, table="usd", amount=300))
    assert problem["code"] == "above_max_buy_in" and problem["currency"] == "USD"
    assert problem["message"] == "you may have at most $10.00 on the table; you have $8.00, and $3.00 more is too much"
    assert problem["amounts"] == {"max": 1000, "stack": 800, "given": 300}


def test_BET_3_a_raise_too_small_reads_in_dollars(store):
    clock = Clock()
    room = _room(store, clock)
    sessions = {}
    for seat, name in ((1, "ana"), (2, "bob")):
        sessions[name], _ = player(room, name)
        assert resolved(request(room, sessions[name], "join", table="usd", buy_in=1000, seat=seat))["ok"]
    table = room.tables.runners["usd"].table
    while table.hand is None:
        clock.advance(1)
    actor = next(name for name in sessions if table.legal_actions(name) is not None)
    decision = table.legal_actions(actor).decision
    problem = _refusal(request(room, sessions[actor], "act", rid=3, table="usd", action="raise", to=15,
                               decision=decision))
    assert problem["code"] == "raise_too_small" and problem["rule"] == "BET-3"
    assert problem["message"] == "the smallest raise is to $0.20, not $0.15"
    assert problem["amounts"] == {"min": 20, "given": 15} and problem["currency"] == "USD"


def test_BET_3_at_a_tournament_table_amounts_are_chips(store):
    lobby, d = started(store)
    (table,) = d.tables.values()
    player, legal = table.to_act()
    action = "raise" if legal.can_raise else "bet"
    answer = lobby.ask(player, "tournament_act", tournament="sng", action=action, to=1, decision=legal.decision)
    problem = answer["error"]
    assert problem["code"] == f"{action}_too_small" and problem["currency"] == "chips"
    assert problem["message"] == f"the smallest {action} is to {problem['amounts']['min']:,} chips, not 1 chip"
