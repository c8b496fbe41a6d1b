"""Posting on joining (HR-POST-1..4): entry blinds, waiting for the big blind, seats the blinds passed."""

from __future__ import annotations

from pokerroom.poker import Call, Check
from pokerroom.table import events as te
from tests.table.scenario import Scenario


def test_HR_POST_4_a_new_tables_first_hand_has_no_entry_posts_and_a_drawn_button():
    game = Scenario(button="C")
    game.sit("A", "B", "C", "D")
    game.deal()
    assert game.dealt() == "DABC"                   # from the drawn button, C
    assert game.positions() == ("C", "D", "A")
    assert game.posts() == [("D", "small_blind", 1), ("A", "big_blind", 2)]


def test_HR_POST_4_the_draw_decides_the_button():
    drawn = []
    game = Scenario()
    game.table._draw = lambda seats: drawn.append(tuple(seats)) or seats[-1]
    game.sit("A", "B", "C")
    game.deal()
    assert drawn == [(1, 2, 3)]
    assert game.positions() == ("C", "A", "B")


def test_HR_POST_1_a_newcomer_posts_an_entry_blind_to_be_dealt_in_at_once():
    game = Scenario(button="A")
    game.sit("A", "B", "C", "D")
    game.play_hand()                                # A button, B small, C big
    game.sit("F")                                   # seat 6: after the big blind's next stop (D)
    game.deal()
    assert game.positions() == ("B", "C", "D")
    assert "F" in game.dealt()
    assert ("F", "entry", 2) in game.posts()


def test_HR_POST_1_a_newcomer_may_wait_for_the_big_blind_instead():
    game = Scenario(button="A")
    game.sit("A", "B", "C", "D")
    game.play_hand()                                # big blind C
    events = game.sit("F", wait_for_big_blind=True)
    assert game.of_type(te.PlayerSeated, events)[0].wait_for_big_blind
    game.deal()                                     # big blind D; F waits
    assert "F" not in game.dealt()
    waiting = game.of_type(te.WaitingToPlay)
    assert [(w.seat, w.reason) for w in waiting] == [(6, te.WAITING_FOR_BIG_BLIND)]
    game.finish_hand()
    game.deal()                                     # the big blind reaches F: dealt in, no extra post
    assert game.positions() == ("C", "D", "F")
    assert [p for p in game.posts() if p[0] == "F"] == [("F", "big_blind", 2)]


def test_HR_POST_1_a_newcomer_next_to_the_big_blind_just_takes_the_big_blind():
    game = Scenario(button="A")
    game.sit("A", "B", "C", "E")
    game.play_hand()                                # A button, B small, C big
    game.sit("D")                                   # seat 4: the next big blind
    game.deal()
    assert game.positions() == ("B", "C", "D")
    assert [p for p in game.posts() if p[0] == "D"] == [("D", "big_blind", 2)]


def test_HR_POST_2_the_entry_blind_is_live_and_may_check_when_nobody_raised():
    game = Scenario(button="A")
    game.sit("A", "B", "C", "D")
    game.play_hand()
    game.sit("F")
    game.deal()                                     # B button, C small, D big; F (first to act) posted 2
    legal = game.table.legal_actions("F")
    assert legal is not None and legal.can_check and legal.call_added == 0
    game.act("F", Check)
    game.act("A", Call)
    assert game.table.hand.pot_total == 1 + 2 + 2 + 2


def test_HR_POST_3_a_seat_between_the_next_button_and_small_blind_waits_even_to_post():
    game = Scenario(button="A", seats=6)
    game.sit("A", "C", "E")
    game.play_hand()                                # A button, C small, E big
    game.sit("D")                                   # the next hand: C button, E small -- D is between them
    game.deal()
    assert game.positions() == ("C", "E", "A")
    assert "D" not in game.dealt()
    assert [(w.seat, w.reason) for w in game.of_type(te.WaitingToPlay)] == [(4, te.BUTTON_MUST_PASS)]
    game.finish_hand()
    game.deal()                                     # the button has passed D: the entry blind deals D in
    assert game.positions() == ("E", "A", "C")
    assert "D" in game.dealt()
    assert ("D", "entry", 2) in game.posts()


def test_HR_POST_3_a_seat_the_button_is_about_to_pass_is_judged_against_the_next_hand():
    game = Scenario(button="A", seats=6)
    game.sit("A", "D", "E")
    game.play_hand()                                # A button, D small, E big
    game.sit("B")                                   # between this button and small blind; the next button: D
    game.deal()
    assert game.positions() == ("D", "E", "A")
    assert "B" in game.dealt() and ("B", "entry", 2) in game.posts()


def test_HR_POST_3_the_button_seat_itself_waits_too():
    game = Scenario(button="A")
    game.sit("A", "B", "C", "D")
    game.play_hand()                                # A button, B small, C big
    game.do("leave", "B")                           # the small blind's seat empties
    game.sit("B")                                   # someone sits where the small blind was: next button
    game.deal()
    assert game.positions() == ("(B)", "C", "D")
    assert "B" not in game.dealt()


def test_HR_POST_4_a_table_that_empties_is_a_new_table_again():
    game = Scenario(button="A")
    game.sit("A", "B")
    game.play_hand()
    game.do("leave", "A")
    game.do("leave", "B")
    assert game.table.positions is None
    game.button = "D"
    game.sit("C", "D")
    game.deal()
    assert game.positions() == ("D", "D", "C") and game.table.plan.fresh
