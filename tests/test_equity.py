"""Exact all-in equity, checked against independent enumerations."""

import itertools
from fractions import Fraction

import numpy as np
import pytest

from pokerroom.cards import parse
from pokerroom.evaluator import equity, evaluate_batch


def _treys_equity(holes, board, dead=(), omaha=False):
    """Brute force with treys: every completion of the board, split pots shared."""
    from treys import Card, Evaluator

    judge = Evaluator()
    names = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    tcard = [Card.new(n) for n in names]
    used = {c for h in holes for c in h} | set(board) | set(dead)
    deck = [c for c in range(52) if c not in used]
    shares = [Fraction(0)] * len(holes)
    boards = 0
    for extra in itertools.combinations(deck, 5 - len(board)):
        full = list(board) + list(extra)
        if omaha:
            scores = [
                min(judge._five([tcard[c] for c in (*two, *three)])
                    for two in itertools.combinations(h, 2)
                    for three in itertools.combinations(full, 3))
                for h in holes
            ]
        else:
            scores = [judge.evaluate([tcard[c] for c in h], [tcard[c] for c in full]) for h in holes]
        best = min(scores)
        winners = [i for i, s in enumerate(scores) if s == best]
        for i in winners:
            shares[i] += Fraction(1, len(winners))
        boards += 1
    return boards, [s / boards for s in shares]


@pytest.mark.parametrize(
    ("holes", "board", "dead"),
    [
        (["AhKh", "2c2d"], "Qh7h2s", ""),
        (["AsAd", "KcKd", "8h9h"], "Th7h2s", ""),
        (["AsKs", "AdKd"], "QsJd5c", ""),            # chopped most of the time
        (["7c6c", "AhAd", "KsQs", "9d9s"], "8c5h2d", "3s4s"),
        (["AhKh", "QcQd"], "2h3h4s5d", ""),           # turn: one card to come
    ],
)
def test_holdem_equity_matches_treys_brute_force(holes, board, dead):
    hands = [parse(h) for h in holes]
    ours = equity(hands, parse(board), parse(dead))
    boards, shares = _treys_equity(hands, parse(board), parse(dead))
    assert [e.boards for e in ours] == [boards] * len(hands)
    assert [e.exact for e in ours] == shares


def test_omaha_equity_matches_treys_brute_force():
    hands = [parse("AhKhQcJc"), parse("9s9d8s7d"), parse("Ac2c3d4d")]
    ours = equity(hands, parse("Th6s5c2h"))
    boards, shares = _treys_equity(hands, parse("Th6s5c2h"), omaha=True)
    assert ours[0].boards == boards == 52 - 12 - 4
    assert [e.exact for e in ours] == shares


@pytest.mark.parametrize(
    "matchup",
    [("AhKh", "2c2d"), ("AhKh", "QhJh"), ("AsAd", "KcKh"),
     ("7h6h", "AsKd"), ("AhKh", "AsKs"), ("Ts9s", "8s7s")],
)
def test_preflop_heads_up_matches_every_board_through_the_batch_path(matchup):
    # the pre-flop loop reuses a river's value across suits when no flush is
    # possible; the batch path evaluates every 7-card hand on its own
    hands = [parse(h) for h in matchup]
    deck = np.array([c for c in range(52) if c not in {*hands[0], *hands[1]}], dtype=np.uint8)
    boards = deck[np.array(list(itertools.combinations(range(48), 5)), dtype=np.uint8)]
    values = [
        evaluate_batch(np.hstack([np.tile(np.array(h, dtype=np.uint8), (len(boards), 1)), boards]))
        for h in hands
    ]
    wins = int((values[0] > values[1]).sum())
    ties = int((values[0] == values[1]).sum())
    ours = equity(hands)
    assert ours[0].boards == len(boards) == 1_712_304
    assert ours[0].exact == Fraction(2 * wins + ties, 2 * len(boards))
    assert ours[0].exact + ours[1].exact == 1


def test_preflop_symmetric_hands_split_exactly():
    a, b = equity([parse("AsKs"), parse("AhKh")])
    assert a.exact == b.exact
    assert a.win == b.win
    assert a.equity + b.equity == pytest.approx(1)


def test_preflop_multiway_shares_sum_to_one():
    result = equity([parse("AhAd"), parse("KsKc"), parse("QhQs")])
    assert sum(e.exact for e in result) == 1
    assert result[0].equity > result[1].equity > result[2].equity


def test_complete_board_is_a_single_showdown():
    a, b, c = equity([parse("AhKh"), parse("AsKs"), parse("4c3d")], parse("QhJh9c8d2s"))
    assert a.boards == 1
    assert a.exact == b.exact == Fraction(1, 2) and c.exact == 0


@pytest.mark.parametrize(
    ("holes", "board", "dead", "message"),
    [
        (["AhKh"], "", "", "equity needs 2 to 9 hands"),
        (["AhKh"] * 10, "", "", "equity needs 2 to 9 hands"),
        (["AhKh", "AhQd"], "", "", "duplicate card Ah"),
        (["AhKh", "QdQc"], "2c3c", "", "a board has 0, 3, 4 or 5 cards"),
        (["AhKh", "QdQc"], "2c3c4c", "2c", "duplicate card 2c"),
        (["AhKhQhJh", "QdQc2c2d3d"], "", "", "same number of cards"),
        (["AhKh", "Qd"], "", "", "wrong number of cards in hand 2"),
    ],
)
def test_bad_equity_input_names_the_problem(holes, board, dead, message):
    with pytest.raises(ValueError, match=message):
        equity(holes, board, dead)


@pytest.mark.parametrize("holes", [5, [None, [1, 2]], [iter([0, 1]), [2, 3]]])
def test_malformed_equity_hands_are_value_errors(holes):
    with pytest.raises(ValueError):
        equity(holes, [4, 5, 6, 7])
