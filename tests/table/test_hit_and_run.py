"""Hit-and-run (HR-HNR-1..5): refusals per blind level in a sliding 12-hour window, and their blocks."""

from __future__ import annotations

import pytest

from pokerroom.errors import RuleViolation
from pokerroom.poker import PLO, Stakes
from pokerroom.table import InMemorySeatingHistory
from pokerroom.table import events as te
from tests.table.scenario import Scenario

HOUR = 3600.0


def hit_and_run(game: Scenario, name: str, hands: int = 1) -> te.PlayerLeft:
    """``name`` sits (with what they last left with: HR-STAKE-3), plays ``hands`` hands, and leaves."""
    earlier = game.of_type(te.PlayerLeft)
    game.sit(name, stack=max([100] + [e.stack for e in earlier if e.player == name]))
    seat = game.table.seat_of(name)
    while game.table.players[seat].hands_played < hands:
        game.play_hand()
    return game.of_type(te.PlayerLeft, game.do("leave", name))[0]


def room() -> Scenario:
    game = Scenario(button="A")
    game.sit("A", "B")
    return game


def test_HR_HNR_1_leaving_after_one_to_nine_hands_is_a_refusal():
    game = room()
    left = hit_and_run(game, "C", hands=1)
    assert left.refusal == 1 and left.blocked_seconds == 0          # the first one costs nothing
    assert game.history.refusals("C", "1/2", 0) == [game.now]


@pytest.mark.parametrize(("hands", "refusal"), [(0, 0), (9, 1), (10, 0)])
def test_HR_HNR_1_the_boundaries_are_one_and_ten_hands(hands, refusal):
    game = room()
    assert hit_and_run(game, "C", hands=hands).refusal == refusal


def test_HR_HNR_2_blocks_grow_with_each_refusal_in_the_window():
    game = room()
    blocks = []
    for _ in range(6):
        left = hit_and_run(game, "C")
        blocks.append(left.blocked_seconds)
        game.wait(left.blocked_seconds)                             # sit out the block
    assert blocks == [0, 300, 900, 1800, 3600, 3600]


def test_HR_HNR_2_refusals_older_than_twelve_hours_drop_out_of_the_window():
    game = room()
    hit_and_run(game, "C")
    game.wait(6 * HOUR)
    assert hit_and_run(game, "C").refusal == 2
    game.wait(6 * HOUR + 1)                                         # the first is now 12 h + 1 s old
    assert hit_and_run(game, "C").refusal == 2


def test_HR_HNR_2_the_block_covers_every_table_of_that_blind_level_and_no_other():
    history = InMemorySeatingHistory()
    first = Scenario(history=history, button="A")
    first.sit("A", "B")
    hit_and_run(first, "C")
    hit_and_run(first, "C")                                         # second refusal: 5 minutes
    same_level = Scenario(history=history, table_id="t2", variant=PLO)
    with pytest.raises(RuleViolation) as refused:
        same_level.sit("C")
    assert refused.value.code == "hit_and_run_block"
    other_level = Scenario(history=history, table_id="t3", stakes=Stakes(2, 4), min_buy_in=80, max_buy_in=400)
    other_level.sit("C")


def test_HR_HNR_5_a_blocked_join_says_how_long_is_left():
    game = room()
    hit_and_run(game, "C")
    hit_and_run(game, "C")
    game.wait(61)
    with pytest.raises(RuleViolation) as refused:
        game.sit("C")
    assert refused.value.rule_id == "HR-HNR-5"
    assert "in 4 minutes" in refused.value.message
    game.wait(4 * 60)
    game.sit("C", stack=200)                                        # the block is over


def test_HR_HNR_3_leaving_is_no_refusal_when_everyone_else_sits_out():
    game = room()
    game.sit("C")
    game.play_hand()
    game.do("sit_out", "A")
    game.do("sit_out", "B")
    left = game.of_type(te.PlayerLeft, game.do("leave", "C"))[0]
    assert left.refusal == 0


def test_HR_HNR_3_leaving_is_no_refusal_when_alone_at_the_table():
    game = Scenario(button="A")
    game.sit("A", "C")
    game.play_hand()
    game.do("leave", "A")
    left = game.of_type(te.PlayerLeft, game.do("leave", "C"))[0]
    assert left.refusal == 0


@pytest.mark.parametrize("flag", ["fast_fold", "all_in_or_fold"])
def test_HR_HNR_4_fast_fold_and_all_in_or_fold_tables_are_exempt(flag):
    game = Scenario(button="A", **{flag: True})
    game.sit("A", "B")
    for _ in range(3):
        assert hit_and_run(game, "C").refusal == 0
    assert game.history.refusals("C", "1/2", 0) == []


def test_HR_HNR_1_a_leave_during_a_hand_folds_at_the_players_turn_and_counts_when_asked():
    game = room()
    game.sit("C")
    game.play_hand()
    game.deal()
    assert game.table.in_hand(3)
    game.do("leave", "C")
    assert game.table.seat_of("C") == 3                             # still seated until the hand ends
    game.finish_hand()
    left = game.of_type(te.PlayerLeft)[-1]
    assert (left.player, left.refusal) == ("C", 1) and game.table.seat_of("C") is None
