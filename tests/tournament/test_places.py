"""Elimination order of players busted together (TR-PLAY-3) and what tied places pay (TR-PRIZE-3)."""

from __future__ import annotations

from tournament.places import Bust, Finish, awards, finishing_places


def test_TR_PLAY_3_players_busted_in_one_hand_finish_by_their_stacks_at_its_start():
    busts = [Bust("small", 300, "t1", 0), Bust("big", 900, "t1", 2), Bust("mid", 500, "t1", 1)]
    assert finishing_places(busts, remaining_before=10) == [
        Finish(("big",), (8,)), Finish(("mid",), (9,)), Finish(("small",), (10,))]


def test_TR_PLAY_3_equal_stacks_at_one_table_finish_in_dealing_order_from_the_button():
    busts = [Bust("third", 500, "t1", 2), Bust("first", 500, "t1", 0), Bust("second", 500, "t1", 1)]
    assert finishing_places(busts, remaining_before=5) == [
        Finish(("first",), (3,)), Finish(("second",), (4,)), Finish(("third",), (5,))]


def test_TR_PLAY_3_equal_stacks_at_different_tables_in_hand_for_hand_tie_and_share_their_places():
    busts = [Bust("a", 700, "t1", 4), Bust("b", 700, "t2", 0), Bust("c", 200, "t2", 1)]
    finishes = finishing_places(busts, remaining_before=6)
    assert finishes == [Finish(("a", "b"), (4, 5)), Finish(("c",), (6,))]
    # places 4 and 5 pay 101 and 50: 151 shared, 75 each, 1 to the rounding account (TR-PRIZE-3)
    assert awards(finishes[0], [500, 300, 200, 101, 50]) == ({"a": 75, "b": 75}, 1)
    assert awards(finishes[1], [500, 300, 200, 101, 50]) == ({"c": 0}, 0)
