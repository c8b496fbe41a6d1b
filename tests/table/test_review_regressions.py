"""Defects a review found, each pinned by the scenario that showed it."""

from __future__ import annotations

import pytest

from pokerroom.errors import RuleViolation
from pokerroom.poker import BlindSeats, Call, Fold, Post, Stakes
from pokerroom.poker import events as he
from pokerroom.poker.redact import Viewer
from pokerroom.table import BIG, InMemorySeatingHistory, Positions
from pokerroom.table import commands as tc
from pokerroom.table import events as te
from pokerroom.table.blinds import SeatView, plan_hand
from tests.support.timed_table import Timed
from tests.table.scenario import Scenario


def conserved(game: Scenario) -> bool:
    t = game.table
    return sum(p.stack for p in t.players.values()) + t.chips_out + t.rake == t.chips_in


def test_HR_STAKE_1_a_seat_left_and_retaken_during_a_hand_keeps_each_players_own_chips():
    game = Scenario(button="A")
    game.sit("A", "B", "C")
    game.deal()
    game.act("A", Fold)
    game.do("leave", "A")
    game.do("sit", "X", 1, 40)
    assert not game.table.dealt_in(1) and game.table.stacks()[1] == 40
    game.do("add_chips", "X", 10)                       # X is not in this hand: may top up
    left = game.of_type(te.PlayerLeft, game.do("leave", "X"))[0]
    assert left.stack == 50
    game.finish_hand()
    assert conserved(game)


def test_SEC_2_a_player_in_a_seat_retaken_mid_hand_does_not_see_the_cards_dealt_to_it():
    game = Scenario(button="A")
    game.sit("A", "B", "C")
    game.deal()
    game.act("A", Fold)
    game.do("leave", "A")
    game.do("sit", "X", 1, 100)
    assert game.table.viewer("X") == Viewer.observer()
    for viewer in (Viewer.player(1), game.table.viewer("X")):
        snap = game.table.snapshot(viewer)
        assert all(e.cards == () for e in snap.hand_events if isinstance(e, he.HoleCardsDealt))
    assert game.table.viewer("B") == Viewer.player(2)


def test_HR_MB_6_heads_up_sit_out_next_big_blind_deals_no_hand_rather_than_a_double_big_blind():
    game = Scenario(button="A")
    game.sit("A", "B")
    game.play_hand()                                    # A button+small, B big
    game.do("set_options", "A", sit_out_next_big_blind=True)
    game.deal()
    assert game.table.hand is None
    assert game.table.players[1].sitting_out
    assert [(e.seat, e.reason) for e in game.of_type(te.PlayerSatOut)] == [(1, te.SKIPPED_BLIND)]


def test_HR_MB_1_a_restarted_table_still_collects_missed_blinds_and_moves_the_big_blind_on():
    game = Scenario(seats=3, button="A")
    game.sit("A", "B", "C")
    game.play_hand()                                    # A button, B small, C big
    game.do("sit_out", "C")
    game.play_hand()                                    # heads-up: A big, B button+small; C misses the small
    assert game.table.players[3].owes == "small"
    game.do("sit_out", "B")
    game.do("sit_in", "C")                              # C sits where the blinds just passed
    game.deal()                                         # the dead-button rule deals nobody: a restart
    assert game.table.plan.fresh and game.dealt() == "CA"
    assert game.positions() == ("A", "A", "C")          # the big blind moves on from A to C
    assert game.table.players[3].owes is None           # C took the big blind: settled (HR-MB-4)


def test_HR_MB_2_a_restart_collects_missed_blinds_from_a_player_not_on_the_big_blind():
    # Last hand: small blind position seat 3 (empty), big blind seat 6. Seats 4 (new) and 5 (owes the big
    # blind) sit where the blinds just passed, so the dead-button rule deals nobody; the table restarts.
    views = [SeatView(4, 100, new=True), SeatView(5, 100, owes=BIG), SeatView(6, 100)]
    plan = plan_hand(views, max_seats=6, stakes=Stakes(1, 2), previous=Positions(2, (3, 6)), draw=min)
    assert plan.fresh and plan.dealt == (4, 5, 6)
    assert (plan.button, plan.blinds) == (5, BlindSeats(6, 4))      # the big blind moves on from seat 6
    assert plan.posts == (Post(5, "dead_small_blind", 1), Post(5, "entry", 2))   # no entry blind for 4


@pytest.mark.parametrize("seat", [1.0, True, "1", None])
def test_HR_TIME_5_a_timer_command_with_a_seat_that_is_not_an_int_is_refused_and_the_hand_goes_on(seat):
    game = Scenario(button="A")
    game.sit("A", "B", "C")
    game.deal()
    game.wait(60)
    with pytest.raises(RuleViolation):
        game.do("timeout", seat)
    assert game.table.clock is not None and isinstance(game.table.next_deadline().command, tc.Timeout)
    game.act("A", Call)


def test_HR_STAKE_3_a_leave_is_settled_by_sitting_again_with_its_stack_and_later_losses_are_not_owed():
    # The case: leave A with 200, sit at B with 200, lose 160 in play, leave B with 40.
    history = InMemorySeatingHistory()
    first = Scenario(history=history)
    first.do("sit", "A", 1, 200)
    first.do("leave", "A")
    second = Scenario(history=history, table_id="t2")
    second.wait(60)
    second.do("sit", "A", 1, 200)
    second.table.players[1].stack = 40                  # as if they had lost 160
    second.do("leave", "A")
    third = Scenario(history=history, table_id="t3")
    third.wait(120)
    with pytest.raises(RuleViolation) as refused:       # the most recent leave binds, within the hour
        third.do("sit", "A", 1, 39)
    assert refused.value.rule_id == "HR-STAKE-4"
    third.do("sit", "A", 1, 40)
    assert third.table.stacks() == {1: 40}


def test_HR_STAKE_3_leaves_from_tables_held_at_once_bind_with_the_larger_stack():
    history = InMemorySeatingHistory()
    first = Scenario(history=history)
    second = Scenario(history=history, table_id="t2")
    first.do("sit", "A", 1, 200)
    second.do("sit", "A", 1, 100)                       # two tables of the same game and stakes at once
    first.wait(60)
    first.do("leave", "A")                              # leaves with 200
    second.wait(120)
    second.do("leave", "A")                             # then with 100: no sit in between settled the 200
    third = Scenario(history=history, table_id="t3")
    third.wait(180)
    with pytest.raises(RuleViolation) as refused:
        third.do("sit", "A", 1, 150)
    assert refused.value.rule_id == "HR-STAKE-3" and "200" in refused.value.message
    third.do("sit", "A", 1, 200)


def test_HR_DC_1_coming_back_during_reconnect_time_moves_the_clock_to_the_time_bank():
    t = Timed(reconnect_seconds=20)
    t.sit("A", "B", "C")
    t.advance(2)
    t.advance(9.9)
    t.do("disconnect", "A")
    t.advance(0.1)                                      # decision time over: reconnect time starts
    events = t.do("reconnect", "A")
    assert [(e.seat, e.seconds) for e in events if isinstance(e, te.TimeBankStarted)] == [(1, 30)]
    t.advance(10)
    events = t.do("act", "A", Call(1))
    assert [(e.used, e.remaining) for e in events if isinstance(e, te.TimeBankUsed)] == [(10, 20)]


def test_HR_HNR_1_a_player_who_leaves_mid_hand_folds_even_when_checking_is_free():
    game = Scenario(button="A")
    game.sit("A", "B", "C")
    game.deal()
    game.act("A", Call)
    game.act("B", Call)
    game.do("leave", "C")                               # C, the big blind, could check
    actions = [e for e in game.last_hand() if isinstance(e, he.ActionTaken) and e.seat == 3]
    assert [(a.action, a.timed_out) for a in actions] == [("fold", False)]


def test_HR_HNR_2_a_block_lasts_as_announced_even_when_earlier_refusals_leave_the_window():
    game = Scenario(button="A", rat_hole_period=0)
    game.sit("A", "B")
    start = game.now

    def hit_and_run() -> te.PlayerLeft:
        game.sit("C", stack=200)
        while game.table.players[3].hands_played < 1:
            game.play_hand()
        return game.of_type(te.PlayerLeft, game.do("leave", "C"))[0]

    hit_and_run()
    game.now = start + 12 * 3600 - 60
    second = hit_and_run()
    assert (second.refusal, second.blocked_seconds) == (2, 300)
    game.wait(61)                                       # the first refusal is now out of the window
    with pytest.raises(RuleViolation, match="in 4 minutes"):
        game.sit("C", stack=200)


def test_HR_STAKE_4_a_top_up_must_reach_the_table_minimum():
    game = Scenario()
    game.do("sit", "A", 1, 40)
    game.table.players[1].stack = 1                     # as if they had lost 39
    with pytest.raises(RuleViolation) as refused:
        game.do("add_chips", "A", 1)
    assert refused.value.code == "below_min_buy_in" and refused.value.rule_id == "HR-STAKE-4"
    game.do("add_chips", "A", 39)


def test_options_are_true_or_false_only():
    game = Scenario()
    game.sit("A")
    with pytest.raises(RuleViolation):
        game.do("set_options", "A", auto_post_blinds="false")
    assert game.table.players[1].auto_post_blinds


def test_HR_TIME_4_a_quick_leave_and_rejoin_keeps_the_spent_time_bank():
    t = Timed(reconnect_seconds=0)
    t.sit("A", "B", "C")
    t.advance(2)
    t.advance(10 + 30)                                  # A spends the whole bank and folds
    t.do("leave", "A")
    t.do("sit", "A", 1, 100)
    assert t.game.table.players[1].time_bank == 0


def test_HR_STAKE_2_a_player_not_dealt_in_may_top_up_while_the_hand_runs():
    game = Scenario(button="A")
    game.sit("A", "B", "C")
    game.play_hand()                                    # A button, B small, C big
    game.do("sit_out", "A")
    game.deal()
    assert game.table.hand is not None and not game.table.dealt_in(1)
    game.do("add_chips", "A", 50)
    assert game.table.stacks()[1] == 150
