"""The hand evaluator: exhaustive class counts, agreement with treys, Omaha,
showdown, batch and bad input (HR-TIE-1, HR-TIE-2)."""

import itertools
import multiprocessing
import os
import pickle
import threading
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokerroom.cards import parse
from pokerroom.evaluator import (
    NUM_CLASSES,
    HandCategory,
    category,
    describe,
    enumerate_all,
    evaluate,
    evaluate_batch,
    evaluate_omaha,
    showdown,
)

FIVE_CARD_COUNTS = {
    HandCategory.STRAIGHT_FLUSH: 40,
    HandCategory.FOUR_OF_A_KIND: 624,
    HandCategory.FULL_HOUSE: 3_744,
    HandCategory.FLUSH: 5_108,
    HandCategory.STRAIGHT: 10_200,
    HandCategory.THREE_OF_A_KIND: 54_912,
    HandCategory.TWO_PAIR: 123_552,
    HandCategory.ONE_PAIR: 1_098_240,
    HandCategory.HIGH_CARD: 1_302_540,
}
SEVEN_CARD_COUNTS = {
    HandCategory.STRAIGHT_FLUSH: 41_584,
    HandCategory.FOUR_OF_A_KIND: 224_848,
    HandCategory.FULL_HOUSE: 3_473_184,
    HandCategory.FLUSH: 4_047_644,
    HandCategory.STRAIGHT: 6_180_020,
    HandCategory.THREE_OF_A_KIND: 6_461_620,
    HandCategory.TWO_PAIR: 31_433_400,
    HandCategory.ONE_PAIR: 58_627_800,
    HandCategory.HIGH_CARD: 23_294_460,
}


def _category_counts(histogram):
    counts = dict.fromkeys(HandCategory, 0)
    for value in np.flatnonzero(histogram):
        counts[category(int(value))] += int(histogram[value])
    return counts


def test_HR_TIE_1_every_five_card_hand_gives_the_textbook_counts():
    histogram = enumerate_all(5)
    assert histogram.sum() == 2_598_960
    assert np.count_nonzero(histogram) == NUM_CLASSES == 7462
    assert _category_counts(histogram) == FIVE_CARD_COUNTS


def test_HR_TIE_1_every_seven_card_hand_gives_the_textbook_counts():
    histogram = enumerate_all(7)
    assert histogram.sum() == 133_784_560
    assert np.count_nonzero(histogram) == 4824  # seven cards reach 4,824 classes
    assert _category_counts(histogram) == SEVEN_CARD_COUNTS


def test_every_six_card_hand_is_counted():
    histogram = enumerate_all(6)
    assert histogram.sum() == 20_358_520
    assert np.count_nonzero(histogram) == 6075


# --- agreement with treys, an independent evaluator ------------------------

def _deals(seed, count, board_size):
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, 52)), axis=1)[:, : 4 + board_size].astype(np.uint8)


def _treys_verdicts(args):
    """treys' verdict (1 first hand wins, -1 second, 0 tie) per deal; runs in a worker."""
    from treys import Card, Evaluator

    seed, count, board_size = args
    names = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    tcard = [Card.new(n) for n in names]
    judge = Evaluator()
    verdicts = []
    for deal in _deals(seed, count, board_size).tolist():
        board = [tcard[c] for c in deal[4:]]
        a = judge.evaluate([tcard[deal[0]], tcard[deal[1]]], board)
        b = judge.evaluate([tcard[deal[2]], tcard[deal[3]]], board)
        verdicts.append((a < b) - (a > b))  # treys: smaller is better
    return np.array(verdicts, dtype=np.int8)


@pytest.mark.parametrize("board_size", [3, 5], ids=["five-card", "seven-card"])
def test_HR_TIE_2_agrees_with_treys_on_a_million_pairs(board_size):
    # Each pair shares a board, as at a real showdown, so ties and kicker
    # decisions are common: the hardest cases for an evaluator. Workers are
    # spawned, not forked: OpenMP's threads do not survive fork().
    chunks = [(1000 * board_size + i, 50_000, board_size) for i in range(20)]
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 2, mp_context=context) as pool:
        theirs = list(pool.map(_treys_verdicts, chunks))
    checked = 0
    for chunk, verdicts in zip(chunks, theirs, strict=True):
        deals = _deals(*chunk)
        a = evaluate_batch(np.ascontiguousarray(deals[:, [0, 1, *range(4, 4 + board_size)]]))
        b = evaluate_batch(np.ascontiguousarray(deals[:, [2, 3, *range(4, 4 + board_size)]]))
        ours = np.sign(a - b).astype(np.int8)
        disagree = np.flatnonzero(ours != verdicts)
        assert disagree.size == 0, f"treys disagrees on deal {deals[disagree[0]].tolist()}"
        checked += len(deals)
    assert checked == 1_000_000


# --- single hands ----------------------------------------------------------

def test_HR_TIE_2_kickers_count_only_within_the_best_five():
    board = parse("AsAdKcKdQh")
    a, b = showdown(board, [parse("2c3c"), parse("4c5c")])
    assert a == b  # both play the board: split pot
    a, b = showdown(parse("AsAdKcKd7h"), [parse("Qc2c"), parse("Jc9c")])
    assert a > b  # queen kicker plays over jack


def test_descriptions_and_categories():
    cases = {
        "AsKsQsJsTs": ("Royal Flush", HandCategory.STRAIGHT_FLUSH),
        "5h4h3h2hAh": ("Straight Flush, Five high", HandCategory.STRAIGHT_FLUSH),
        "KcKdKh4s4c": ("Full House, Kings full of Fours", HandCategory.FULL_HOUSE),
        "AsAdKcKd3h": ("Two Pair, Aces and Kings with Three kicker", HandCategory.TWO_PAIR),
        "5c4d3h2sAc": ("Straight, Five high", HandCategory.STRAIGHT),
        "AsKd9h7c2d": ("High Card, Ace", HandCategory.HIGH_CARD),
    }
    for text, (phrase, cat) in cases.items():
        value = evaluate(parse(text))
        assert describe(value) == phrase
        assert category(value) is cat
    assert evaluate(parse("AsKsQsJsTs")) == NUM_CLASSES
    assert evaluate(parse("7c5d4h3s2c")) == 1
    assert evaluate(parse("5c4d3h2sAc")) < evaluate(parse("6c5d4h3s2c"))  # the wheel is the lowest straight


def test_text_tuples_lists_and_numpy_ints_all_work():
    hand = parse("AsKdQh7c2d9s")
    assert evaluate(list(hand)) == evaluate(hand) == evaluate("AsKdQh7c2d9s")
    assert evaluate([np.int64(c) for c in hand]) == evaluate(hand)
    assert evaluate(iter(hand)) == evaluate(hand)


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ([0, 1, 2, 3], "wrong number of cards in a hand: got 4, need 5 to 7"),
        (list(range(8)), "got 8"),
        ([0, 1, 2, 3, 3], "duplicate card 2s"),
        ([0, 1, 2, 3, 52], "not a card: 52"),
        ([0, 1, 2, 3, -1], "not a card: -1"),
        ([0, 1, 2, 3, 2**70], "not a card"),
        ([0, 1, 2, 3, 4.0], "not a card: 4.0"),
        ([0, 1, 2, 3, None], "not a card: None"),
        ("AsKdQhJcXx", "unknown card"),
        (12345, "must be a sequence of cards"),
    ],
)
def test_bad_input_raises_value_error_naming_it(cards, message):
    with pytest.raises(ValueError, match=message):
        evaluate(cards)


@given(st.lists(st.integers(0, 51), min_size=6, max_size=7, unique=True))
def test_six_and_seven_cards_take_the_best_five(hand):
    best = max(evaluate(list(five)) for five in itertools.combinations(hand, 5))
    assert evaluate(hand) == best


@given(st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True), st.permutations(range(7)))
def test_order_of_cards_does_not_matter(hand, order):
    assert evaluate(hand) == evaluate([hand[i] for i in order])


# --- Omaha -----------------------------------------------------------------

def test_omaha_four_suited_hole_cards_and_one_on_board_is_not_a_flush():
    value = evaluate_omaha(parse("AhKhQhJh"), parse("2h7c8d9sTc"))
    assert category(value) is HandCategory.STRAIGHT  # Q-J with 8-9-T, not the flush
    value = evaluate_omaha(parse("AhKhQcJd"), parse("2h7h8h9sTc"))
    assert category(value) is HandCategory.FLUSH  # two hearts in hand, three on board


def test_omaha_board_trips_and_a_hole_pair_is_a_full_house():
    value = evaluate_omaha(parse("9c9dAsKs"), parse("7h7d7s2c3d"))
    assert describe(value) == "Full House, Sevens full of Nines"
    # a single seven in hand with board trips is quads only with two hole cards
    value = evaluate_omaha(parse("7cAdKs2h"), parse("7h7d7sQc3d"))
    assert describe(value) == "Four of a Kind, Sevens with Ace kicker"


def test_omaha_board_straight_needs_two_hole_cards():
    value = evaluate_omaha(parse("AcAdKsKh"), parse("5h6d7s8c9d"))
    assert category(value) is HandCategory.ONE_PAIR  # the board's straight is not playable
    value = evaluate_omaha(parse("KcKd3c4c"), parse("AhAsAdAc2d"))
    assert describe(value) == "Full House, Aces full of Kings"  # quads on board: only three play


def test_omaha_board_flush_with_one_suited_hole_card_is_not_a_flush():
    value = evaluate_omaha(parse("Ah2c3d4s"), parse("Kh9h7h5h2h"))
    assert category(value) is not HandCategory.FLUSH


@pytest.mark.parametrize("hole_size", [4, 5, 6])
def test_omaha_matches_brute_force_with_treys(hole_size):
    from treys import Card, Evaluator

    judge = Evaluator()
    names = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    tcard = [Card.new(n) for n in names]
    rng = np.random.default_rng(hole_size)
    for _ in range(300):
        deal = rng.permutation(52)[: hole_size + 5].tolist()
        hole, board = deal[:hole_size], deal[hole_size:]
        best = min(
            judge._five([tcard[c] for c in (*two, *three)])
            for two in itertools.combinations(hole, 2)
            for three in itertools.combinations(board, 3)
        )
        ours = evaluate_omaha(hole, board)
        # the same class: treys numbers classes from the best (1) down
        assert NUM_CLASSES + 1 - ours == best


def test_omaha_bad_input():
    with pytest.raises(ValueError, match="wrong number of cards in an Omaha hand: got 3"):
        evaluate_omaha(parse("AcAdKs"), parse("2h3h4h5c9d"))
    with pytest.raises(ValueError, match="duplicate card Ac"):
        evaluate_omaha(parse("AcAdKsKh"), parse("Ac3h4h5c9d"))
    with pytest.raises(ValueError, match="wrong number of cards in the board: got 2"):
        evaluate_omaha(parse("AcAdKsKh"), parse("2h3h"))


# --- showdown and batch ----------------------------------------------------

def test_showdown_equals_one_evaluation_per_hand():
    rng = np.random.default_rng(7)
    for _ in range(200):
        deal = rng.permutation(52)[:23].tolist()
        board, holes = deal[:5], [deal[5 + 2 * i: 7 + 2 * i] for i in range(9)]
        assert showdown(board, holes) == [evaluate(h + board) for h in holes]
        omaha_holes = [deal[5 + 4 * i: 9 + 4 * i] for i in range(4)]
        assert showdown(board, omaha_holes) == [evaluate_omaha(h, board) for h in omaha_holes]


def test_showdown_rejects_a_card_in_two_hands():
    with pytest.raises(ValueError, match="duplicate card As"):
        showdown(parse("2c3c4c5d9h"), [parse("AsKs"), parse("AsQd")])
    with pytest.raises(ValueError, match="hand 2"):
        showdown(parse("2c3c4c5d9h"), [parse("AsKs"), parse("Qd")])


def test_batch_equals_single_calls_for_every_width():
    rng = np.random.default_rng(3)
    for width in (5, 6, 7):
        hands = np.argsort(rng.random((5000, 52)), axis=1)[:, :width]
        for dtype in (np.uint8, np.int64, np.int32):
            values = evaluate_batch(hands.astype(dtype))
            assert values.dtype == np.int32
            assert values.tolist() == [evaluate(h) for h in hands.tolist()]


def test_batch_names_the_bad_row():
    hands = np.tile(np.arange(7, dtype=np.uint8), (10, 1))
    hands[6, 3] = hands[6, 2]
    with pytest.raises(ValueError, match="hand 6: a card is out of range or repeated"):
        evaluate_batch(hands)
    hands[6, 3] = 60
    with pytest.raises(ValueError, match="hand 6"):
        evaluate_batch(hands)
    with pytest.raises(ValueError, match="hand 2: not a card"):
        evaluate_batch(np.array([[0, 1, 2, 3, 4]] * 2 + [[0, 1, 2, 3, -4]]))
    with pytest.raises(ValueError, match="shape"):
        evaluate_batch(np.zeros((3, 4), dtype=np.uint8))
    with pytest.raises(ValueError, match="integer cards"):
        evaluate_batch(np.zeros((3, 5)))
    assert evaluate_batch(np.zeros((0, 7), dtype=np.uint8)).shape == (0,)


def test_batch_runs_in_threads_without_the_gil():
    rng = np.random.default_rng(4)
    hands = np.argsort(rng.random((200_000, 52)), axis=1)[:, :7].astype(np.uint8)
    expected = evaluate_batch(hands)
    results = [None] * 4

    def work(i):
        results[i] = evaluate_batch(hands)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(np.array_equal(r, expected) for r in results)


def test_category_and_describe_reject_non_values():
    for bad in (0, 7463, -1, "7"):
        with pytest.raises(ValueError, match="not a hand value"):
            describe(bad)
        with pytest.raises(ValueError, match="not a hand value"):
            category(bad)


# --- hostile input (found by review): never a crash, never a wrong answer --

class _Shrinking:
    """A card whose ``__index__`` empties the list being read."""

    def __init__(self, cards, value):
        self.cards, self.value = cards, value

    def __index__(self):
        del self.cards[:]
        return self.value


class _FloatIndex:
    def __index__(self):
        return 3.5


def test_a_list_emptied_while_it_is_read_is_not_read_past_its_end():
    cards = [0, 4, 8, 12, 17, 21, 25]
    cards[0] = _Shrinking(cards, 0)
    assert evaluate(cards) == evaluate([0, 4, 8, 12, 17, 21, 25])
    holes = [[1, 2], [3, 5], [6, 7], [9, 11]]
    holes[0] = [_Shrinking(holes, 1), 2]
    assert len(showdown([20, 24, 28], holes)) == 4
    hole = [1, 2, 3, 5]
    hole[0] = _Shrinking(hole, 1)
    assert evaluate_omaha(hole, [20, 24, 28]) == evaluate_omaha([1, 2, 3, 5], [20, 24, 28])


@pytest.mark.parametrize(
    "cards",
    [[True, 4, 8, 12, 17], [_FloatIndex(), 4, 8, 12, 17], [np.array(1.5), 4, 8, 12, 17],
     [np.array([1, 2]), 4, 8, 12, 17]],
)
def test_odd_card_objects_are_refused_with_value_error(cards):
    with pytest.raises(ValueError, match="not a card"):
        evaluate(cards)


def test_every_repeated_card_is_refused_in_every_size_and_place():
    # the single-hand fast path spots repeats arithmetically, not card by card
    for size in (5, 6, 7):
        for card in range(52):
            others = [c for c in (0, 13, 26, 39, 51, 7, 20) if c != card][: size - 2]
            for cards in ([card, card, *others], [*others, card, card], [card, *others, card]):
                for container in (list, tuple):
                    with pytest.raises(ValueError, match="duplicate card"):
                        evaluate(container(cards))


def test_int_subclasses_take_the_slow_path_and_agree():
    class Card(int):
        pass

    hand = parse("AsKdQh7c2d9s2c")
    assert evaluate([Card(c) for c in hand]) == evaluate(hand)
    assert evaluate(tuple(Card(c) for c in hand[:5])) == evaluate(hand[:5])


def test_values_are_plain_ints():
    for hand in (parse("AsKsQsJsTs"), parse("7c5d4h3s2c"), parse("AsKdQh7c2d9s2c"), (0, 1, 2, 3, 4)):
        value = evaluate(hand)
        assert type(value) is int
        assert value == int(str(value)) and hash(value) == hash(int(str(value)))
        assert pickle.loads(pickle.dumps(value)) == value
        assert value + 0 == value and -value < 0


@pytest.mark.parametrize("holes", [[None], [5], 5, "AsKd", [iter([3, 4])]])
def test_malformed_hands_in_a_showdown_are_value_errors(holes):
    with pytest.raises(ValueError):
        showdown([20, 24, 28], holes)


def test_enumerate_all_takes_a_card_count_only():
    for bad in (5.5, 2**40, 4, "7"):
        with pytest.raises(ValueError, match="wrong number of cards"):
            enumerate_all(bad)
