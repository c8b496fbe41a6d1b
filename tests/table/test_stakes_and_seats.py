"""Table stakes (HR-STAKE-2..4), multi-tabling (AC-8), rake at a table (HR-RAKE-1), seats, waiting list."""

from __future__ import annotations

from fractions import Fraction
from functools import partial

import pytest

from pokerroom.poker import Bet, Call, Check, Fold, RakeSchedule, Stakes
from pokerroom.poker import events as he
from pokerroom.table import InMemorySeatingHistory
from pokerroom.table import commands as tc
from pokerroom.table import events as te
from tests.support.refusals import refused
from tests.table.scenario import Scenario


def seats_and_chips(game: Scenario) -> tuple:
    """What a refused seat or stake command must leave as it was: the event count, every stack, the chips in play."""
    return game.table.seq, dict(game.table.stacks()), game.table.chips_in


@pytest.mark.parametrize("buy_in", [39, 201, "100", 100.0])
def test_HR_STAKE_4_buy_ins_are_bounded_by_the_table(buy_in):
    game = Scenario()
    error = refused(game.do, "sit", "A", 1, buy_in, keeps=partial(seats_and_chips, game))
    assert error.rule_id == "HR-STAKE-4"


def test_HR_STAKE_4_the_bounds_themselves_are_allowed():
    game = Scenario()
    game.do("sit", "A", 1, 40)
    game.do("sit", "B", 2, 200)
    assert game.table.stacks() == {1: 40, 2: 200}


def test_HR_STAKE_2_chips_are_added_between_hands_up_to_the_maximum():
    game = Scenario(button="A")
    game.sit("A", "B", stack=150)
    game.deal()
    assert refused(game.do, "add_chips", "A", 10, keeps=partial(seats_and_chips, game)).code == "between_hands_only"
    game.finish_hand()
    assert refused(game.do, "add_chips", "A", 200 - game.table.stacks()[1] + 1,
                   keeps=partial(seats_and_chips, game)).rule_id == "HR-STAKE-2"
    top_up = 200 - game.table.stacks()[1]
    events = game.do("add_chips", "A", top_up)
    assert game.of_type(te.ChipsAdded, events)[0].stack == 200 and game.table.chips_in == 300 + top_up


def test_HR_STAKE_2_a_player_not_in_the_hand_may_top_up_while_it_runs():
    game = Scenario(button="A")
    game.sit("A", "B")
    game.sit("C", wait_for_big_blind=True)
    game.play_hand()
    game.deal()
    if not game.table.dealt_in(3):
        game.do("add_chips", "C", 50)
        assert game.table.stacks()[3] == 150


def test_HR_STAKE_3_no_rat_holing_within_the_hour_at_any_table_of_the_same_game_and_stakes():
    history = InMemorySeatingHistory()
    game = Scenario(history=history, button="A")
    game.sit("A", "B", stack=180)
    game.do("leave", "B")
    other = Scenario(history=history, table_id="t2")
    error = refused(other.do, "sit", "B", 2, 120, keeps=partial(seats_and_chips, other))
    assert error.code == "rat_holing" and error.rule_id == "HR-STAKE-3" and "180" in error.message
    other.wait(59 * 60)
    assert refused(other.do, "sit", "B", 2, 179, keeps=partial(seats_and_chips, other)).rule_id == "HR-STAKE-3"
    other.wait(60)
    other.do("sit", "B", 2, 40)                     # an hour later: any legal buy-in


def test_HR_STAKE_3_a_winner_may_bring_back_more_than_the_maximum_buy_in():
    game = Scenario()
    game.do("sit", "A", 1, 200)
    game.table.players[1].stack = 350               # as if they had won 150
    game.do("leave", "A")
    assert game.table.chips_out == 350
    game.do("sit", "A", 1, 350)
    assert game.table.stacks()[1] == 350


def test_HR_STAKE_3_other_stakes_are_not_affected():
    history = InMemorySeatingHistory()
    game = Scenario(history=history)
    game.do("sit", "A", 1, 200)
    game.do("leave", "A")
    other = Scenario(history=history, table_id="t2", stakes=Stakes(2, 4), min_buy_in=80, max_buy_in=400)
    other.do("sit", "A", 1, 80)


def test_AC_8_the_number_of_tables_is_capped_per_client_type():
    history = InMemorySeatingHistory()
    tables = [Scenario(history=history, table_id=f"t{i}") for i in range(5)]
    for t in tables[:4]:
        t.do("sit", "A", 1, 100, client_type="mobile")
    error = refused(tables[4].do, "sit", "A", 1, 100, client_type="mobile", keeps=partial(seats_and_chips, tables[4]))
    assert (error.code, error.rule_id) == ("too_many_tables", "AC-8")
    tables[4].do("sit", "A", 1, 100, client_type="desktop")      # desktop allows 16
    assert history.tables_seated("A") == 5
    tables[0].do("leave", "A")
    assert history.tables_seated("A") == 4
    assert refused(tables[0].do, "sit", "A", 2, 100, client_type="tablet",
                   keeps=partial(seats_and_chips, tables[0])).code == "unknown_client_type"


def test_HR_RAKE_1_a_cash_pot_is_raked_with_the_cap_for_the_players_dealt_in():
    schedule = RakeSchedule(Fraction(5, 100), ((2, 1), (3, 3)))
    game = Scenario(button="A", rake=schedule)
    game.sit("A", "B", "C")
    game.deal()                                     # A button, B small, C big
    game.act("A", Call)
    game.act("B", Call)
    game.act("C", Check)                            # 6 in the pot on the flop
    game.act("B", Bet, 60)
    game.act("C", Call)
    game.act("A", Fold)                             # 126 in the pot
    for _ in range(2):
        game.act("B", Check)
        game.act("C", Check)
    formed = [e for e in game.last_hand() if isinstance(e, he.PotFormed)]
    assert [(p.amount, p.rake) for p in formed] == [(126, 3)]   # 5% is 6, capped at 3 for three dealt in
    assert game.table.rake == 3
    assert sum(game.table.stacks().values()) + game.table.rake == game.table.chips_in


def test_HR_RAKE_1_no_flop_no_drop_at_the_table():
    game = Scenario(button="A", rake=RakeSchedule(Fraction(5, 100)))
    game.sit("A", "B", "C")
    game.play_hand()                                # everyone folds to the big blind
    assert game.table.rake == 0


def test_seats_are_numbered_and_taken_once():
    game = Scenario(seats=2)
    assert refused(game.do, "sit", "A", 3, 100, keeps=partial(seats_and_chips, game)).code == "no_such_seat"
    game.do("sit", "A", 1, 100)
    assert refused(game.do, "sit", "B", 1, 100, keeps=partial(seats_and_chips, game)).code == "seat_taken"
    assert refused(game.do, "sit", "A", 2, 100, keeps=partial(seats_and_chips, game)).code == "already_seated"
    game.do("sit", "B", None, 100)
    assert refused(game.do, "sit", "C", None, 100, keeps=partial(seats_and_chips, game)).code == "table_full"


def test_the_waiting_list_gets_the_free_seat_kept_for_it():
    game = Scenario(seats=2, seat_offer=60)
    game.do("sit", "A", 1, 100)
    assert refused(game.do, "join_waiting_list", "C", keeps=partial(seats_and_chips, game)).code == "seat_available"
    game.do("sit", "B", 2, 100)
    game.do("join_waiting_list", "C")
    game.do("join_waiting_list", "D")
    events = game.do("leave", "B")
    offer = game.of_type(te.SeatOffered, events)[0]
    assert (offer.seat, offer.player, offer.expires_at) == (2, "C", game.now + 60)
    assert refused(game.do, "sit", "E", 2, 100, keeps=partial(seats_and_chips, game)).code == "seat_reserved"
    assert game.table.next_deadline().command == tc.OfferExpired("C")
    assert refused(game.do, "offer_expired", "C", keeps=partial(seats_and_chips, game)).code == "not_due"
    game.wait(60)
    events = game.do("offer_expired", "C")
    assert [(e.seat, e.player) for e in game.of_type(te.SeatOffered, events)] == [(2, "D")]
    game.do("sit", "D", None, 100)
    assert game.table.seat_of("D") == 2 and game.table.waiting_list == []


def test_a_player_sitting_out_too_long_makes_room_for_the_waiting_list():
    game = Scenario(seats=2, max_sit_out=600)
    game.sit("A", "B")
    game.do("sit_out", "B")
    assert game.table.next_deadline() is None       # nobody waits for the seat: B may sit out
    game.wait(700)
    game.do("join_waiting_list", "C")
    deadline = game.table.next_deadline()
    assert deadline.command == tc.SitOutExpired(2)
    events = game.table.fire(deadline, game.now)
    left = game.of_type(te.PlayerLeft, events)[0]
    assert (left.player, left.reason, left.refusal) == ("B", te.SAT_OUT_TOO_LONG, 0)
    assert game.of_type(te.SeatOffered, events)[0].player == "C"


def test_TR_REFUND_1_a_table_taken_over_seats_its_players_again_with_the_stacks_the_void_hand_started_with():
    """The process taking a table over seats each player again (``Reseat``, ``sit(restored=True)``): any stack,
    outside the buy-in range
    too (it is what they had), their old seat if it is free, no blind to post as a newcomer; once only."""
    game = Scenario()
    game.do("sit", "A", 3, 1_000, restored=True)       # above the maximum buy-in of 200: their chips, not a buy-in
    game.do("sit", "B", 3, 15, restored=True)          # below the minimum; seat 3 is taken: the first free one
    assert game.table.stacks() == {3: 1_000, 1: 15}
    assert not game.table.players[3].new and not game.table.players[1].new
    seated = [e for e in game.log if isinstance(e, te.PlayerSeated)]
    assert [(e.seat, e.player, e.stack) for e in seated] == [(3, "A", 1_000), (1, "B", 15)]
    error = refused(game.do, "sit", "A", 2, 50, restored=True, keeps=partial(seats_and_chips, game))
    assert error.code == "already_seated"
    error = refused(game.do, "sit", "C", 2, 0, restored=True, keeps=partial(seats_and_chips, game))
    assert error.code == "bad_amount"
