"""The director from registration to the start: entries, unregistering, re-entries, rebuys, add-ons (TR-REG)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pokerroom.errors import RuleViolation
from pokerroom.money.ledger import HOUSE_FEES, WORLD
from tests.tournament.director_drivers import Room, spec
from tournament import director as td


def check_refusal(excinfo, code: str, rule: str) -> None:
    assert excinfo.value.code == code and excinfo.value.rule_id == rule and excinfo.value.message


def test_TR_REG_2_buy_in_goes_to_the_pool_the_bounty_to_its_escrow_and_the_fee_to_the_house():
    room = Room(spec(bounty=500))
    room.register("ana")
    assert room.cash("ana") == 100_000 - 1500
    assert room.ledger.balance(td.pool_account("t")) == 900
    assert room.ledger.balance(td.bounty_account("t")) == 500
    assert room.ledger.balance(HOUSE_FEES) == 100
    assert room.director.spec.entry_cost == 900 + 500 + 100


def test_TR_REG_6_an_entry_needs_the_funds_at_that_moment_and_a_refusal_changes_nothing():
    room = Room(spec())
    room.fund("bo", 999)
    with pytest.raises(RuleViolation) as e:
        room.apply(room.director.registration.register("bo", room.cash("bo")))
    check_refusal(e, "insufficient_funds", "TR-REG-6")
    assert room.director.entries == {} and room.cash("bo") == 999 and room.director.collected == 0


def test_TR_REG_1_a_tournament_starts_only_with_its_minimum_and_a_sit_and_go_when_full():
    room = Room(spec(min_players=3))
    room.register("a", "b")
    with pytest.raises(RuleViolation) as e:
        room.director.registration.start()
    check_refusal(e, "too_few_players", "TR-REG-1")
    sng = Room(spec(start_at=None, min_players=3, max_players=3))
    sng.register("a", "b")
    assert sng.director.state == td.REGISTERING
    sng.register("c")
    assert sng.director.state == td.RUNNING and sng.of(td.Started)


def test_TR_REG_3_seats_are_drawn_from_the_tournaments_seeded_generator():
    def draw(seed):
        room = Room(spec(start_at=0), seed=seed)
        room.register(*[f"p{i}" for i in range(14)])
        room.apply(room.director.registration.start())
        return [(e.player, e.table, e.seat) for e in room.of(td.Seated)]

    assert draw(3) == draw(3)
    assert draw(3) != draw(4)
    sizes = sorted([t for _, t, _ in draw(3)].count(t) for t in {t for _, t, _ in draw(3)})
    assert sizes == [4, 5, 5]             # 14 players at six-seat tables: three tables, even


def test_TR_REG_5_unregistering_until_the_stated_time_gives_everything_back():
    room = Room(spec(start_at=1000.0, unregister_until=300, bounty=200))
    room.register("ana", "bo")
    room.apply(room.director.registration.unregister("ana", now=699.0))
    assert room.cash("ana") == 100_000 and "ana" not in room.director.entries
    with pytest.raises(RuleViolation) as e:
        room.director.registration.unregister("bo", now=701.0)
    check_refusal(e, "unregister_closed", "TR-REG-5")


def test_TR_REG_5_a_tournament_can_forbid_unregistering_and_a_won_seat_cannot_be_unregistered():
    room = Room(spec(unregister_until=None, start_at=1000.0))
    room.register("ana")
    with pytest.raises(RuleViolation) as e:
        room.director.registration.unregister("ana", now=0.0)
    check_refusal(e, "unregister_forbidden", "TR-REG-5")
    room = Room(spec(start_at=1000.0))
    room.ledger.move(WORLD, td.ticket_account("t", "bo"), 1000, "satellite seat", "sat", 0.0)
    room.apply(room.director.registration.register("bo", 1000, source=td.ticket_account("t", "bo"), ticket=True))
    with pytest.raises(RuleViolation) as e:
        room.director.registration.unregister("bo", now=0.0)
    check_refusal(e, "unregister_forbidden", "TR-REG-5")


def test_TR_REG_4_late_registration_is_open_for_the_stated_levels_and_dealt_in_at_once():
    room = Room(spec(late_registration_levels=2))
    room.register("a", "b", "c")
    room.apply(room.director.registration.start())
    room.register("late")
    seated = [e for e in room.of(td.Seated) if e.player == "late"]
    assert seated and seated[0].reason == "late" and seated[0].chips == 1000
    room.apply(room.director.clock.level_up())
    room.register("later")
    room.apply(room.director.clock.level_up())             # level 3: past the two levels
    assert room.of(td.RegistrationClosed)[-1].reason == "levels"
    with pytest.raises(RuleViolation) as e:
        room.register("too_late")
    check_refusal(e, "registration_closed", "TR-REG-4")


def test_TR_REG_4_late_registration_closes_early_when_the_field_is_full():
    room = Room(spec(late_registration_levels=5, max_players=4))
    room.register("a", "b", "c")
    room.apply(room.director.registration.start())
    room.register("d")
    assert room.of(td.RegistrationClosed)[-1].reason == "full" and not room.director.clock.late_open


def test_TR_REG_6_re_entries_are_counted_per_player():
    room = Room(spec(late_registration_levels=5, re_entries=1))
    room.register("a", "b", "c")
    room.apply(room.director.registration.start())
    table = room.director.table_of("a").id
    room.deal(table, {"b": "AcAd", "a": "KcKh"})
    room.shove_all(table, only=["a", "b"])
    busted = [e.player for e in room.of(td.Busted)]
    assert "a" in busted and room.of(td.Busted)[0].can_re_enter
    room.register("a")
    assert room.director.entries["a"].number == 2
    assert room.director.used_entries["a"] == 2


def test_TR_REG_6_rebuys_need_a_stack_at_or_below_the_start_and_are_bounded_in_count_and_period():
    room = Room(spec(rebuys=1, rebuy_levels=1, add_on_stack=2000, add_on_cost=900))
    room.register("a", "b", "c")
    room.apply(room.director.registration.start())
    d = room.director
    room.apply(d.registration.rebuy("a", room.cash("a")))
    assert d.chips("a") == 2000 and room.of(td.ChipsAdded)[-1].kind == "rebuy"
    with pytest.raises(RuleViolation) as e:
        d.registration.rebuy("a", room.cash("a"))
    check_refusal(e, "no_rebuys_left", "TR-REG-6")
    room.apply(d.registration.rebuy("b", room.cash("b")))
    with pytest.raises(RuleViolation) as e:
        d.registration.rebuy("c", 10)
    check_refusal(e, "insufficient_funds", "TR-REG-6")
    room.apply(d.registration.add_on("c", room.cash("c")))
    with pytest.raises(RuleViolation) as e:
        d.registration.add_on("c", room.cash("c"))
    check_refusal(e, "no_add_on_left", "TR-REG-6")
    room.apply(d.clock.level_up())
    with pytest.raises(RuleViolation) as e:
        d.registration.rebuy("c", room.cash("c"))
    check_refusal(e, "rebuys_closed", "TR-REG-6")
    assert d.collected == 3 * 900 + 2 * 900 + 900


def test_TR_STAKE_1_shares_are_sold_before_the_start_and_paid_into_escrow():
    room = Room(spec())
    room.register("ana")
    room.fund("bo")
    room.apply(room.director.registration.sell_shares("ana", "bo", Fraction(30), Fraction("1.1"), room.cash("bo")))
    assert room.cash("bo") == 100_000 - 330                 # 30% of 1,000 at 1.1
    assert room.ledger.balance(td.stakes_account("t")) == 330
    with pytest.raises(RuleViolation) as e:
        room.director.registration.sell_shares("ana", "bo", Fraction(71), Fraction(1), room.cash("bo"))
    check_refusal(e, "sold_out", "TR-STAKE-1")


def test_TR_STAKE_2_unregistering_gives_every_backer_their_money_back():
    room = Room(spec(start_at=1000.0))
    room.register("ana")
    room.fund("bo")
    room.fund("cy")
    room.apply(room.director.registration.sell_shares("ana", "bo", Fraction(30), Fraction("1.2"), room.cash("bo")))
    room.apply(room.director.registration.sell_shares("ana", "cy", Fraction(10), Fraction(1), room.cash("cy")))
    room.apply(room.director.registration.unregister("ana", now=0.0))
    assert room.cash("bo") == room.cash("cy") == room.cash("ana") == 100_000
    assert room.ledger.balance(td.stakes_account("t")) == 0
