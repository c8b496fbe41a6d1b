"""Money and rule paths a review of the director found broken, each kept as a test (TR-REFUND, TR-REG, TR-DEAL)."""

from __future__ import annotations

import random

import pytest

from pokerroom.errors import RuleViolation
from tests.tournament.director_drivers import Room, bust_one, started, winning
from tournament import director as td


def emptied(room: Room) -> None:
    for account in (td.pool_account("t"), td.bounty_account("t"), td.stakes_account("t")):
        assert room.ledger.balance(account) == 0, account
    assert room.ledger.check()


def test_TR_REFUND_4_cancelled_after_a_deal_shares_only_what_was_left_to_play_for():
    room = started(list("abcde"), deals=True)
    d = room.director
    while len(d.entries) > 2:
        bust_one(room)
    room.apply(d.deal_desk.propose_deal(next(iter(d.entries)), "icm", left_to_play_for=300))
    for player in room.of(td.DealOffered)[-1].amounts:
        room.apply(d.deal_desk.answer_deal(player, True))
    stacks = d.stacks()
    room.apply(d.cancel("server failure"))
    refunds = room.of(td.Cancelled)[-1].refunds
    # next prize (place 2) is 0 after the deal; the 300 left is shared by chips; the 100 fees come back
    assert refunds == {p: 100 + 300 * c // sum(stacks.values()) for p, c in stacks.items()}
    emptied(room)


def test_TR_REFUND_3_what_rounding_took_when_prizes_were_fixed_is_not_shared_again():
    for bust in (True, False):
        room = started(list("abcdefg"), buy_in=901)              # 6,307 collected, 1 to rounding at fixing
        if bust:
            bust_one(room)
        room.apply(room.director.cancel("server failure"))
        emptied(room)


def test_TR_REG_6_rebuys_are_bought_between_hands_and_not_after_the_prizes_are_fixed():
    room = started(list("abcde"), rebuys=2, rebuy_levels=3, add_on_stack=1000, add_on_cost=900)
    d = room.director
    table = room.only_table()
    room.deal(table)
    player = next(iter(d.tables[table].seats.values()))
    with pytest.raises(RuleViolation) as e:
        d.registration.rebuy(player, room.cash(player))
    assert e.value.code == "hand_running" and e.value.rule_id == "TR-REG-6"
    room.check_down(table)
    while d.eliminations.prizes is None:  # to the money: rebuys close, prizes fixed
        bust_one(room)
    for command in (d.registration.rebuy, d.registration.add_on):
        survivor = next(iter(d.entries))
        with pytest.raises(RuleViolation):
            command(survivor, room.cash(survivor))
    while d.state == td.RUNNING:
        bust_one(room)
    emptied(room)


def test_TR_PLAY_6_a_bounty_holder_busted_in_an_unfinished_hand_for_hand_round_is_paid_on_cancel():
    for seed in range(1, 60):
        room = started(list("abcdefg"), seed=seed, bounty=500, table_size=3)
        d = room.director
        rng = random.Random(seed)
        while len(d.entries) > 4:
            bust_one(room, winner=rng.choice(room.dealing_order(d.ready_tables()[0])))
        found = [(t, x, p) for t, table in d.tables.items() for x in table.seats.values() if d.entries[x].held
                 for p in table.seats.values() if p != x and table.stacks[p] >= table.stacks[x]]
        if not d.hand_for_hand or not found:
            continue
        table_id, holder, bigger = found[0]
        held = d.entries[holder].held
        other = next(t for t in d.tables if t != table_id)
        room.deal(other)                                          # the round stays open
        room.deal(table_id, winning([bigger, holder]))
        room.shove_all(table_id, only=[bigger, holder])
        before = room.cash(holder)
        room.apply(d.cancel("server failure"))
        assert room.cash(holder) == before + held
        emptied(room)
        return
    pytest.fail("no seed gave the situation")


def test_TR_PLAY_7_a_late_registrant_seated_during_a_hand_is_refunded_their_stack():
    room = started(["a", "b"], late_registration_levels=2)
    table = room.only_table()
    room.deal(table)
    room.register("c")
    preview = room.director.refund_preview()
    assert set(preview.amounts) == {"a", "b", "c"}
    room.apply(room.director.cancel("server failure"))
    emptied(room)


def test_TR_PRIZE_6_a_satellite_ends_only_once_the_hands_in_play_are_over():
    satellite = dict(satellite_target="daily", satellite_seat_value=1800, satellite_seat_fee=100)
    for seed in range(1, 40):
        room = started(list("abcdefgh"), seed=seed, table_size=4, **satellite)   # 7,200: four seats
        d = room.director
        while len(d.entries) > 6:
            bust_one(room)
        if len(d.tables) != 2:
            continue
        first, second = list(d.tables)
        players = list(d.tables[first].seats.values())
        big = max(players, key=lambda p: d.tables[first].stacks[p])
        if len(players) != 3:
            continue
        room.deal(second)
        room.deal(first, winning([big] + [p for p in room.dealing_order(first) if p != big]))
        room.shove_all(first)
        if len(d.entries) > 4:
            continue
        assert d.state == td.RUNNING and d.ready_tables() == []    # waits for the other table's hand
        room.check_down(second)
        assert d.state == td.FINISHED and len(room.of(td.SeatWon)) == 4
        emptied(room)
        return
    pytest.fail("no seed gave the situation")


def test_TR_DEAL_1_a_cancelled_tournament_drops_its_deal():
    room = started(list("abcdefg"), deals=True)
    d = room.director
    while len(d.entries) > 3:
        bust_one(room)
    room.apply(d.deal_desk.propose_deal(next(iter(d.entries)), "icm"))
    room.apply(d.cancel("server failure"))
    with pytest.raises(RuleViolation):
        d.deal_desk.answer_deal(next(iter(room.of(td.DealOffered)[-1].amounts)), True)
    with pytest.raises(RuleViolation):
        d.deal_desk.deal_expired()


def test_TR_REG_4_a_late_entry_that_puts_the_field_in_the_money_closes_registration():
    room = started(list("abcdefghij"), late_registration_levels=3, table_size=10)
    d = room.director
    while len(d.entries) > 4:
        bust_one(room)
    room.register("k")                                # 11 entries pay 5; 5 left: the next bust is paid
    assert not d.clock.late_open and room.of(td.RegistrationClosed)[-1].reason == "in the money"
    with pytest.raises(RuleViolation):
        room.register("l")
