"""Infinite Blackjack side bets: every pattern, the round limits, and the exact odds (RULES.md IB-9, IB-10)."""

from collections import Counter
from fractions import Fraction
from itertools import product
from math import perm, prod

import pytest

from pokerroom.cards import parse_card
from pokerroom.casino.side_bets import (
    PAYTABLES,
    ROUND_LIMITS,
    SIDE_BETS,
    bust_bonus,
    exact_frequencies,
    lucky_trio,
    outcome,
    pairs,
    poker_trio,
    returned,
    rtp,
)


def c(text: str) -> tuple[int, ...]:
    """Cards from text, repeats allowed (a shoe has eight of each)."""
    return tuple(parse_card(text[i:i + 2]) for i in range(0, len(text), 2))


# IB-9: every pattern, highest only ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("7h7h", ("perfect pair", 30)), ("7c7s", ("coloured pair", 10)), ("7d7h", ("coloured pair", 10)),
    ("7c7h", ("mixed pair", 5)), ("7s7d", ("mixed pair", 5)), ("KsKd", ("mixed pair", 5)),
    ("KsQs", None), ("Ts9s", None),
])
def test_IB_9_pairs(text, expected):
    assert pairs(*c(text)) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("Tc6dKh", ("3 cards", 1)), ("2c3dTsTh", ("4 cards", 2)), ("2c2d2hTsTh", ("5 cards", 9)),
    ("2c2d2h2s8cTh", ("6 cards", 50)), ("2c2d2h2s2c6dTh", ("7 cards", 100)),
    ("2c2d2h2s2c2d4hTh", ("8+ cards", 250)), ("2c2d2h2s2c2dAhAs2cTd", ("8+ cards", 250)),
    ("Tc7d", None), ("Tc6d5h", None), ("AcKd", None), ("2c3d4h5s3c", None),
])
def test_IB_9_bust_bonus_by_cards_in_the_dealer_bust_hand(text, expected):
    assert bust_bonus(c(text)) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("7h7h7h", ("suited 7-7-7", 200)), ("7h7h7c", ("7-7-7", 50)),
    ("6d8d7d", ("suited 6-7-8", 100)), ("8c6d7d", ("6-7-8", 30)),
    ("AhKhTh", ("suited 21", 10)), ("9s5s7s", ("suited 21", 10)),
    ("9c5d7h", ("21", 3)), ("AsAd9c", ("21", 3)), ("KsQdAc", ("21", 3)),
    ("Kc5d4h", ("19 or 20", 2)), ("5c5dKh", ("19 or 20", 2)), ("As4d4c", ("19 or 20", 2)), ("AsAd8c", ("19 or 20", 2)),
    ("Ks5d3c", None), ("KsQd5c", None), ("2s3s4s", None), ("7s7s4s", None),
])
def test_IB_9_lucky_trio(text, expected):
    assert lucky_trio(*c(text)) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("9h9h9h", ("suited three of a kind", 100)),
    ("9c9d9h", ("three of a kind", 30)), ("9h9h9c", ("three of a kind", 30)),
    ("5h7h6h", ("straight flush", 40)), ("AsQsKs", ("straight flush", 40)), ("3d2dAd", ("straight flush", 40)),
    ("5c6d7h", ("straight", 10)), ("AsKdQc", ("straight", 10)), ("As2d3c", ("straight", 10)),
    ("2h7hJh", ("flush", 5)), ("7h7h9h", ("flush", 5)), ("Kh2hAh", ("flush", 5)),
    ("Kc2dAh", None), ("7c7d9h", None), ("2c4d6h", None),
])
def test_IB_9_poker_trio(text, expected):
    assert poker_trio(*c(text)) == expected


def test_IB_9_side_bets_return_stake_plus_winnings():
    assert set(SIDE_BETS) == set(PAYTABLES) == {"pairs", "bust_bonus", "lucky_trio", "poker_trio"}
    player, dealer = c("7h7h"), c("7hTc6dKh")
    assert outcome("pairs", player, dealer) == ("perfect pair", 30)
    assert returned("pairs", 10, player, dealer) == 310
    assert returned("lucky_trio", 10, player, dealer) == 2010
    assert returned("poker_trio", 10, player, dealer) == 1010
    assert returned("bust_bonus", 10, player, dealer) == 30
    assert returned("bust_bonus", 10, player, c("7hTc")) == 0


def test_IB_10_round_limits_per_shoe():
    assert ROUND_LIMITS == {"pairs": 40, "bust_bonus": 45, "lucky_trio": 45, "poker_trio": 45}


# IB-9 exact odds against counts derived here ---------------------------------------------------------------------

DECKS, KIND = 8, 8  # eight decks: eight of each card
SHOE, RANK, SUIT = 52 * DECKS, 4 * KIND, 13 * KIND  # 416 cards, 32 of a rank, 104 of a suit
TWO, THREE = perm(SHOE, 2), perm(SHOE, 3)  # ordered draws
PAYS = {  # the paytable as RULES.md IB-9 writes it
    "pairs": {"mixed pair": 5, "coloured pair": 10, "perfect pair": 30},
    "bust_bonus": {"3 cards": 1, "4 cards": 2, "5 cards": 9, "6 cards": 50, "7 cards": 100, "8+ cards": 250},
    "lucky_trio": {"19 or 20": 2, "21": 3, "suited 21": 10, "6-7-8": 30, "7-7-7": 50, "suited 6-7-8": 100,
                   "suited 7-7-7": 200},
    "poker_trio": {"flush": 5, "straight": 10, "three of a kind": 30, "straight flush": 40,
                   "suited three of a kind": 100},
}


@pytest.fixture(scope="module")
def frequencies():
    return exact_frequencies(DECKS)


def _pairs_expected():
    # whatever the first card, the second matches it from the 415 left: 7 of the same kind, 8 of the other
    # suit of its colour, 16 of the two suits of the other colour
    return {"perfect pair": Fraction(SHOE * (KIND - 1), TWO), "coloured pair": Fraction(SHOE * KIND, TWO),
            "mixed pair": Fraction(SHOE * 2 * KIND, TWO)}


def _poker_trio_expected():
    suited_trips = 52 * perm(KIND, 3)
    trips = 13 * perm(RANK, 3) - suited_trips
    straights = 12  # A-2-3 up to Q-K-A
    straight_flush = straights * 4 * 6 * KIND ** 3  # a suit, an order of the three ranks, a copy of each
    straight = straights * 6 * RANK ** 3 - straight_flush
    flush = 4 * perm(SUIT, 3) - straight_flush - suited_trips  # a suited pair is still a flush
    counts = {"suited three of a kind": suited_trips, "three of a kind": trips, "straight flush": straight_flush,
              "straight": straight, "flush": flush}
    return {k: Fraction(v, THREE) for k, v in counts.items()}


def _lucky_trio_expected():
    counts = {
        "suited 7-7-7": 4 * perm(KIND, 3), "7-7-7": perm(RANK, 3) - 4 * perm(KIND, 3),
        "suited 6-7-8": 6 * 4 * KIND ** 3, "6-7-8": 6 * (RANK ** 3 - 4 * KIND ** 3),
        "suited 21": 0, "21": 0, "19 or 20": 0,
    }
    # the totals: over the 13**3 ordered rank triples, drawn any suit or all one suit
    for ranks in product(range(13), repeat=3):
        if sorted(ranks) in ([4, 5, 6], [5, 5, 5]):
            continue
        values = [1 if r == 12 else min(r + 2, 10) for r in ranks]
        best = sum(values) + (10 if 1 in values and sum(values) <= 11 else 0)
        repeats = Counter(ranks).values()
        any_suit, one_suit = prod(perm(RANK, k) for k in repeats), 4 * prod(perm(KIND, k) for k in repeats)
        if best == 21:
            counts["suited 21"] += one_suit
            counts["21"] += any_suit - one_suit
        elif best in (19, 20):
            counts["19 or 20"] += any_suit
    return {k: Fraction(v, THREE) for k, v in counts.items()}


def _bust_bonus_expected():
    """Every ordered dealer hand by card values, one by one (no memo): ways to draw it, by its length."""
    left = [4 * DECKS] * 9 + [16 * DECKS]  # aces, 2..9, ten-values
    ways: Counter[int] = Counter()

    def deal(hard: int, ace: bool, n: int, w: int) -> None:
        best = hard + 10 if ace and hard <= 11 else hard
        if best >= 17:
            if best > 21:
                ways[n] += w
            return
        for i in range(10):
            if left[i]:
                w_i, left[i] = w * left[i], left[i] - 1
                deal(hard + i + 1, ace or i == 0, n + 1, w_i)
                left[i] += 1

    deal(0, False, 0, 1)
    out: Counter[str] = Counter()
    for n, w in ways.items():
        out["8+ cards" if n >= 8 else f"{n} cards"] += Fraction(w, perm(SHOE, n))
    return dict(out)


def test_IB_9_pairs_exact_odds(frequencies):
    assert frequencies["pairs"] == _pairs_expected()
    assert frequencies["pairs"]["perfect pair"] == Fraction(7, 415)


def test_IB_9_poker_trio_exact_odds(frequencies):
    assert frequencies["poker_trio"] == _poker_trio_expected()


def test_IB_9_lucky_trio_exact_odds(frequencies):
    assert frequencies["lucky_trio"] == _lucky_trio_expected()


def test_IB_9_bust_bonus_exact_odds(frequencies):
    expected = _bust_bonus_expected()
    assert frequencies["bust_bonus"] == expected
    assert 0.28 < sum(expected.values()) < 0.285  # the dealer's well-known bust rate, standing on soft 17


@pytest.mark.parametrize("bet", sorted(PAYS))
def test_IB_9_side_bet_returns_are_below_one(frequencies, bet):
    expected = {"pairs": _pairs_expected, "poker_trio": _poker_trio_expected, "lucky_trio": _lucky_trio_expected,
                "bust_bonus": _bust_bonus_expected}[bet]()
    assert PAYTABLES[bet] == PAYS[bet]
    by_hand = sum(p * (PAYS[bet][pattern] + 1) for pattern, p in expected.items())
    assert rtp(bet, frequencies[bet]) == by_hand < 1
    assert by_hand > Fraction(9, 10)


def test_IB_9_single_deck_has_no_repeated_card():
    one = exact_frequencies(1)
    assert "perfect pair" not in one["pairs"]
    assert "suited 7-7-7" not in one["lucky_trio"]
    assert "suited three of a kind" not in one["poker_trio"]
    assert one["pairs"]["mixed pair"] == Fraction(2, 51)
