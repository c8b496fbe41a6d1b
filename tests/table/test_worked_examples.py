"""The worked examples of docs/house-rules.md, played out exactly as the page tells them."""

from __future__ import annotations

from datetime import datetime

import pytest

from pokerroom.errors import RuleViolation
from pokerroom.poker import Stakes
from pokerroom.table import InMemorySeatingHistory
from pokerroom.table import events as te
from tests.table.scenario import Scenario


def test_HR_MB_2_the_missed_blinds_example():
    game = Scenario(button="A")
    game.sit("A", "B", "C", "D", "E", "F")
    game.play_hand()
    assert game.positions() == ("A", "B", "C")
    game.do("sit_out", "D")
    game.play_hand()                                            # hand 2
    assert game.positions() == ("B", "C", "E")
    assert game.table.players[4].owes == "big"
    game.deal()                                                 # hand 3
    assert game.positions() == ("C", "E", "F")
    game.do("sit_in", "D")
    game.finish_hand()
    game.deal()                                                 # hand 4
    assert game.positions() == ("E", "F", "A")
    assert [p for p in game.posts() if p[0] == "D"] == [("D", "dead_small_blind", 1), ("D", "entry", 2)]
    assert game.table.hand.pot_total == 6


def test_HR_MB_2_HR_POST_3_sitting_in_one_hand_earlier_waits_for_the_button():
    game = Scenario(button="A")
    game.sit("A", "B", "C", "D", "E", "F")
    game.play_hand()
    game.do("sit_out", "D")
    game.play_hand()                                            # hand 2
    game.do("sit_in", "D")
    game.play_hand()                                            # hand 3: C button, E small
    assert "D" not in game.dealt()
    assert [w.reason for w in game.of_type(te.WaitingToPlay)] == [te.BUTTON_MUST_PASS]


def at(clock: str, day: int = 2) -> float:
    return datetime(2026, 12, day, *map(int, clock.split(":"))).timestamp()


def test_HR_HNR_2_HR_HNR_5_the_hit_and_run_example():
    history = InMemorySeatingHistory()
    stakes = Stakes(50, 100)
    level = {"stakes": stakes, "min_buy_in": 4000, "max_buy_in": 10000, "history": history}

    def visit(table_id: str, start: str, hands: int, leave: str | None = None, day: int = 2) -> te.PlayerLeft:
        game = Scenario(table_id=table_id, button="B", **level)
        game.now = at(start, day)
        game.sit("B", "C", stack=5000)
        game.sit("A", stack=10000)                              # Ana
        while game.table.players[1].hands_played < hands:
            game.play_hand()
        game.now = at(leave or start, day)
        return game.of_type(te.PlayerLeft, game.do("leave", "A"))[0]

    first = visit("betelgeuse", "14:00", 3)
    assert (first.refusal, first.blocked_seconds) == (1, 0)
    second = visit("t2", "14:20", 5)
    assert (second.refusal, second.blocked_seconds) == (2, 300)
    blocked = Scenario(table_id="t3", **level)
    blocked.now = at("14:22")
    with pytest.raises(RuleViolation, match="again in 3 minutes"):
        blocked.do("sit", "A", 1, 10000)
    other_level = Scenario(table_id="t4", stakes=Stakes(100, 200), min_buy_in=8000, max_buy_in=20000,
                           history=history)
    other_level.now = at("14:22")
    other_level.do("sit", "A", 1, 10000)
    assert visit("t5", "14:40", 12).refusal == 0
    fourth = visit("t6", "15:00", 2)
    assert (fourth.refusal, fourth.blocked_seconds) == (3, 900)
    next_day = visit("t7", "02:01", 1, leave="02:05", day=3)
    assert next_day.refusal == 3
