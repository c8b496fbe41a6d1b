"""Missed blinds and the dead button (HR-MB-1..6), and the posting options players expect."""

from __future__ import annotations

from pokerroom.poker import Stakes
from pokerroom.poker import events as he
from pokerroom.table import events as te
from tests.table.scenario import Scenario


def four_handed(**kwargs) -> Scenario:
    game = Scenario(button="A", **kwargs)
    game.sit("A", "B", "C", "D")
    game.play_hand()                                # A button, B small, C big
    return game


def test_HR_MB_1_missing_only_the_small_blind_costs_a_dead_small_blind():
    game = four_handed()
    game.do("sit_out", "C")                         # C was big blind; the small blind comes to C next
    game.play_hand()                                # B button, C small (dead), D big
    assert game.positions() == ("B", "-", "D")
    assert [(m.seat, m.blind, m.owes) for m in game.of_type(te.BlindMissed)] == [(3, "small", "small")]
    game.do("sit_in", "C")
    game.play_hand()                                # the button is on C's seat: C waits for it to pass
    assert game.positions() == ("(C)", "D", "A")
    game.deal()
    assert game.positions() == ("D", "A", "B")
    assert [p for p in game.posts() if p[0] == "C"] == [("C", "dead_small_blind", 1)]


def test_HR_MB_2_missing_small_and_big_blind_costs_a_live_big_and_a_dead_small():
    game = four_handed()
    game.do("sit_out", "D")                         # D is next big blind: skipped, owes both
    game.play_hand()                                # B button, C small, A big (D passed over)
    assert game.positions() == ("B", "C", "A")
    assert [(m.seat, m.blind, m.owes) for m in game.of_type(te.BlindMissed)] == [(4, "big", "big")]
    game.play_hand()                                # C button, A small, B big
    game.do("sit_in", "D")
    game.deal()                                     # A button, B small, C big; D between C and A
    assert "D" in game.dealt()
    assert [p for p in game.posts() if p[0] == "D"] == [("D", "dead_small_blind", 1), ("D", "entry", 2)]
    posted = {e.kind: e.live for e in game.last_hand() if isinstance(e, he.Posted) and e.seat == 4}
    assert posted == {"dead_small_blind": False, "entry": True}


def test_HR_MB_3_missing_the_third_blind_costs_a_live_third_and_dead_small_and_big():
    game = Scenario(button="A", stakes=Stakes(1, 2, third_blind=4))
    game.sit("A", "B", "C", "D", "E")
    game.play_hand()                                # A button, B small, C big, D third
    assert [k for _, k, _ in game.posts()] == ["small_blind", "big_blind", "third_blind"]
    game.do("sit_out", "E")                         # E is next third blind
    game.play_hand()                                # B button, C small, D big, A third (E passed over)
    assert [(m.seat, m.blind) for m in game.of_type(te.BlindMissed)] == [(5, "third")]
    game.play_hand()                                # C button, D small, A big, B third
    game.do("sit_in", "E")
    game.play_hand()                                # D button, A small, B big, C third: E, between
    assert "E" not in game.dealt()                  # the button and the small blind, waits (HR-POST-3)
    game.deal()                                     # A button, B small, C big, D third
    assert [p for p in game.posts() if p[0] == "E"] == [
        ("E", "dead_small_blind", 1), ("E", "dead_big_blind", 2), ("E", "entry", 4)]


def test_HR_MB_4_a_returning_player_may_wait_for_the_big_blind_and_owes_nothing_then():
    game = four_handed()
    game.do("sit_out", "D")
    game.play_hand()                                # B button, C small, A big: D passed over, owes both
    game.do("sit_in", "D", wait_for_big_blind=True)
    waited = 0
    while "D" not in (game.deal() and game.dealt()):
        waited += 1
        game.finish_hand()
    assert waited == 2                              # B, then C took the big blind before it reached D
    assert game.positions() == ("B", "C", "D")
    assert [p for p in game.posts() if p[0] == "D"] == [("D", "big_blind", 2)]
    assert game.table.players[4].owes is None


def test_HR_MB_5_owed_posts_survive_a_quick_leave_and_rejoin_of_the_same_table():
    game = four_handed()
    game.do("sit_out", "D")
    game.play_hand()                                # D owes big + small
    game.do("leave", "D")
    game.wait(5 * 60)
    events = game.sit("D")
    assert game.of_type(te.PlayerSeated, events)[0].owes == "big"
    game.play_hand()                                # C button, A small: D between them waits
    game.play_hand()                                # A button, B small, C big: D pays both
    assert [p for p in game.posts() if p[0] == "D"] == [("D", "dead_small_blind", 1), ("D", "entry", 2)]


def test_HR_MB_5_after_the_period_a_rejoin_is_an_ordinary_newcomer():
    game = four_handed(owed_posts_memory=600)
    game.do("sit_out", "D")
    game.play_hand()
    game.do("leave", "D")
    game.wait(601)
    events = game.sit("D")
    assert game.of_type(te.PlayerSeated, events)[0].owes is None
    game.play_hand()
    game.play_hand()
    assert [p for p in game.posts() if p[0] == "D"] == [("D", "entry", 2)]


def test_HR_MB_5_owed_posts_do_not_follow_the_player_to_another_table():
    first = four_handed()
    first.do("sit_out", "D")
    first.play_hand()
    first.do("leave", "D")
    other = Scenario(history=first.history, table_id="t2", button="A")
    other.sit("A", "B", "C")
    other.play_hand()
    events = other.sit("D")
    assert other.of_type(te.PlayerSeated, events)[0].owes is None


def test_HR_MB_6_the_big_blind_moves_to_the_next_player_and_the_small_blind_may_be_dead():
    game = four_handed()                            # A button, B small, C big
    game.do("leave", "C")                           # the big blind leaves
    game.play_hand()
    assert game.positions() == ("B", "-", "D")      # the small blind is dead; the button is B
    game.play_hand()
    assert game.positions() == ("(C)", "D", "A")    # the button is dead on the empty seat
    game.play_hand()
    assert game.positions() == ("D", "A", "B")


def test_HR_MB_6_nobody_posts_the_big_blind_twice_when_three_become_two():
    game = Scenario(button="A")
    game.sit("A", "B", "C")
    game.play_hand()                                # A button, B small, C big
    game.do("leave", "A")
    game.play_hand()                                # heads-up: the big blind moves on to B; C button+small
    assert game.positions() == ("C", "C", "B")
    game.play_hand()
    assert game.positions() == ("B", "B", "C")


def test_HR_MB_6_heads_up_the_button_posts_the_small_blind_and_acts_first_before_the_flop():
    game = Scenario(button="A")
    game.sit("A", "B")
    game.deal()
    assert game.positions() == ("A", "A", "B")
    assert game.table.hand.to_act() == 1


def test_HR_MB_6_two_becoming_three_keeps_the_big_blind_moving_forward():
    game = Scenario(button="A")
    game.sit("A", "C")
    game.play_hand()                                # heads-up: A button+small, C big
    game.sit("D", wait_for_big_blind=True)
    game.play_hand()                                # the big blind moves from C to D
    assert game.positions() == ("A", "C", "D")
    game.play_hand()
    assert game.positions() == ("C", "D", "A")
    bigs = [e.event.big_blind_seat for e in game.log
            if isinstance(e, te.HandEvent) and e.event.__class__.__name__ == "HandStarted"]
    assert all(a != b for a, b in zip(bigs, bigs[1:], strict=False))


def test_auto_post_off_sits_a_player_out_when_a_blind_comes_due():
    game = four_handed()
    game.do("set_options", "D", auto_post_blinds=False)
    game.deal()                                     # D would be big blind
    assert "D" not in game.dealt()
    assert [(e.seat, e.reason) for e in game.of_type(te.PlayerSatOut)] == [(4, te.SKIPPED_BLIND)]
    assert game.table.players[4].owes == "big"


def test_sit_out_next_big_blind_skips_only_that_blind():
    game = four_handed()
    game.do("set_options", "D", sit_out_next_big_blind=True)
    game.deal()
    assert "D" not in game.dealt() and game.positions() == ("B", "C", "A")
    assert not game.table.players[4].sit_out_next_big_blind


def test_sit_out_next_hand_takes_effect_at_the_next_deal():
    game = four_handed()
    game.do("set_options", "A", sit_out_next_hand=True)
    game.deal()
    assert "A" not in game.dealt()
    assert [(e.seat, e.reason) for e in game.of_type(te.PlayerSatOut)] == [(1, te.NEXT_HAND)]
