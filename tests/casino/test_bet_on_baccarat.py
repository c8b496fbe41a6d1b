"""Bet on Baccarat (RULES.md BOB-1..BOB-3): markets, settlement and exact pricing."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.cards import parse_card
from pokerroom.casino import bet_on_baccarat as bob
from pokerroom.casino.baccarat import Coup, deal_coup, finish_coup
from pokerroom.errors import RuleViolation
from tests.casino.drivers import every_coup

MARGIN = Fraction(3, 100)


def cards(text: str) -> list[int]:
    """Cards in deal order; a multi-deck shoe may repeat a card."""
    return [parse_card(t) for t in text.split()]


def coup(text: str) -> Coup:
    """A coup dealt from a stacked shoe written in deal order."""
    shoe = iter(cards(text))
    return deal_coup(lambda: next(shoe))


def pool_without(text: str, decks: int = bob.DECKS) -> list[int]:
    """The unknown pool of a fresh shoe once ``text``'s cards are out of it."""
    pool = bob.new_pool(decks)
    for c in cards(text):
        pool[c] -= 1
    return pool


# --- BOB-1 --------------------------------------------------------------------------------------------------

def test_BOB_1_six_decks_with_baccarat_values_and_drawing():
    assert bob.DECKS == 6
    assert bob.new_pool() == [6] * 52
    p = bob.probabilities(bob.new_pool())
    # The published six-deck Punto Banco figures.
    assert round(float(p["banker"]), 6) == 0.458653
    assert round(float(p["player"]), 6) == 0.446279
    assert round(float(p["tie"]), 6) == 0.095069
    # BA drawing: player 2 draws a 4, banker 3 draws after a third card that is not 8.
    dealt = coup("2c 3d Qh Ks 4h 6s")
    assert (dealt.player_points, dealt.banker_points, dealt.cards_dealt) == (6, 9, 6)


def test_BOB_1_full_shoe_pair_odds():
    p = bob.probabilities(bob.new_pool())
    # The second card of a side matches the first's rank: 23 of the other 311 cards.
    assert p["player_pair"] == p["banker_pair"] == Fraction(23, 311)
    # Perfect pair: a side's second card is one of the 5 other copies of its first.
    side = Fraction(5, 311)
    # Both sides: the banker's first card is the player's card (4 copies left) or another (306 cards).
    both = side * (Fraction(4, 310) * Fraction(3, 309) + Fraction(306, 310) * Fraction(5, 309))
    assert p["perfect_pair"] == 2 * side - both


# --- BOB-2 --------------------------------------------------------------------------------------------------

def test_BOB_2_odds_are_repriced_after_each_shown_card():
    before = "Ac 7d 5h Ks Qd 3c"                 # an earlier draw, already out of the shoe
    round1 = bob.price(pool_without(before), (), MARGIN)
    round2 = bob.price(pool_without(before + " 9h"), tuple(cards("9h")), MARGIN)
    round3 = bob.price(pool_without(before + " 9h 9s"), tuple(cards("9h 9s")), MARGIN)
    assert round1 != round2 != round3
    # A 9 as the player's first card makes the player likelier: shorter odds; the banker longer.
    assert round2["player"] < round1["player"]
    assert round2["banker"] > round1["banker"]
    # The player's pair now needs one of the 23 nines left.
    assert round2["player_pair"] != round1["player_pair"]
    # Then a 9 for the banker helps the banker.
    assert round3["banker"] < round2["banker"]
    assert round3["banker_pair"] != round2["banker_pair"]


def test_BOB_2_a_bet_keeps_the_odds_it_was_placed_at():
    placed_at = bob.price(bob.new_pool(), (), MARGIN)["player"]
    dealt = coup("9c 2d Kh Qs")                  # player wins 9 to 2
    assert bob.returned("player", dealt, 1000, placed_at) == 1000 * placed_at // 100
    assert bob.returned("player", dealt, 1000, 250) == 2500


# --- BOB-3: outcomes ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("shoe", "won"), [
    # player 9 v banker 2, a natural: four cards.
    ("9c 2d Kh Qs", {"player", "small"}),
    # banker 9 v player 2, a natural.
    ("2d 9c Qs Kh", {"banker", "small"}),
    # 8 v 8: player and banker push (not listed), tie wins.
    ("Tc 3d 8h 5s", {"tie", "small"}),
    # 8 v 8 again, the banker's 4d 4s a pair (not perfect).
    ("Tc 4d 8h 4s", {"tie", "small", "banker_pair", "any_pair"}),
    # player 5c 5d pairs (not perfect), banker Kd Kd pairs perfectly (two decks); 0 v 0, both draw: 2 v 0.
    ("5c Kd 5d Kd 2h Tc", {"player_pair", "banker_pair", "any_pair", "perfect_pair", "player", "big"}),
    # player 5c 5c: a perfect pair; banker 3d 2d no pair. Player 0 draws 9h; banker 5 stands on a 9.
    ("5c 3d 5c 2d 9h", {"player_pair", "any_pair", "perfect_pair", "player", "big"}),
    # The player's third card matches its first: third cards never count (player 5c Tc draws 5d; banker 7).
    ("5c Kc Tc 7d 5d", {"banker", "big"}),
    # The banker's third card matches its first: player 3h 3d stands on 6, banker 2c Kd draws 2h.
    ("3h 2c 3d Kd 2h", {"player_pair", "any_pair", "player", "big"}),
    # Six cards: player 2 draws 4, banker 3 draws 6.
    ("2c 3d Qh Ks 4h 6s", {"banker", "big"}),
])
def test_BOB_3_every_market_settles(shoe, won):
    dealt = coup(shoe)
    tied = dealt.winner == "tie"
    for market in bob.MARKETS:
        expected = "win" if market in won else "push" if tied and market in ("player", "banker") else "lose"
        assert bob.outcome(market, dealt) == expected, market


def test_BOB_3_third_cards_never_count_for_pairs_even_through_finish_coup():
    # Player As Kh (1) draws As: a third card of the same rank and suit as the first.
    dealt = finish_coup(*cards("As Qc Kh 7d"), draw=iter(cards("As")).__next__)
    assert dealt.player == tuple(cards("As Kh As"))
    for market in ("player_pair", "any_pair", "perfect_pair"):
        assert bob.outcome(market, dealt) == "lose"


def test_BOB_3_winnings_are_stake_times_decimal_odds_rounded_down():
    assert bob.paid(333, 195) == 649                # 649.35
    assert bob.paid(1000, 101) == 1010
    assert bob.paid(1, 199) == 1
    tied = coup("Tc 4d 8h 4s")
    assert bob.returned("banker", tied, 500, 190) == 500     # pushed: the stake comes back
    assert bob.returned("tie", tied, 500, 1021) == 5105
    assert bob.returned("small", coup("2c 3d Qh Ks 4h 6s"), 500, 256) == 0
    with pytest.raises(ValueError):
        bob.paid(100, 99)


def test_BOB_3_unknown_market_is_refused():
    with pytest.raises(RuleViolation) as info:
        bob.outcome("dragon", coup("Tc 4d 8h 4s"))
    assert info.value.rule_id == "BOB-3"


# --- BOB-3: closed markets and pricing ----------------------------------------------------------------------

def test_BOB_3_player_pair_closes_when_no_card_of_the_shown_rank_is_left():
    pool = bob.new_pool()
    for c in cards("Kc Kd Kh Ks"):
        pool[c] = 0                              # every other king is out (seen in earlier draws)
    shown = tuple(cards("Kh"))
    p = bob.probabilities(pool, shown)
    assert p["player_pair"] == 0
    odds = bob.price(pool, shown, MARGIN)
    assert odds["player_pair"] is None
    assert odds["banker_pair"] is not None and odds["any_pair"] is not None
    assert bob.price(pool, (), MARGIN)["player_pair"] is not None     # before the king is shown it is open


def test_BOB_3_perfect_pair_closes_when_neither_shown_card_can_repeat():
    pool = bob.new_pool()
    shown = tuple(cards("Kh Kd"))
    pool[shown[0]] = pool[shown[1]] = 0
    odds = bob.price(pool, shown, MARGIN)
    assert odds["perfect_pair"] is None
    assert odds["player_pair"] is not None            # the other kings still pair by rank


def test_BOB_3_a_certain_tie_closes_every_result_market():
    pool = [0] * 52
    for c in cards("Tc Td Jh Qs Kc Kd Th Js"):          # only zeros: both sides draw to 0 and tie
        pool[c] = 3
    p = bob.probabilities(pool)
    assert (p["tie"], p["big"], p["player"], p["small"]) == (1, 1, 0, 0)
    odds = bob.price(pool, (), Fraction(0))
    # No win possible: closed. Certain: fair odds 1.00, below 1.01: closed too.
    assert odds["player"] is odds["banker"] is odds["small"] is None
    assert odds["tie"] is odds["big"] is None
    assert odds["perfect_pair"] is not None


@pytest.mark.parametrize("shown", ["", "9h", "9h Kc", "Qd Qs", "5c 5c"])
def test_BOB_2_prices_return_one_minus_the_margin_to_the_hundredth(shown):
    pool = pool_without("Ac 7d 5h Ks Qd 3c " + shown)
    shown_cards = tuple(cards(shown))
    p = bob.probabilities(pool, shown_cards)
    odds = bob.price(pool, shown_cards, MARGIN)
    for market in bob.MARKETS:
        push = p["tie"] if market in ("player", "banker") else 0
        o = odds[market]
        assert o is not None and o >= 101
        assert p[market] * Fraction(o, 100) + push <= 1 - MARGIN < p[market] * Fraction(o + 1, 100) + push


def test_BOB_2_bad_pools_are_refused():
    with pytest.raises(ValueError):
        bob.probabilities([6] * 51)
    with pytest.raises(ValueError):
        bob.probabilities(bob.new_pool(), tuple(cards("As Ks Qs")))
    with pytest.raises(ValueError, match="cannot finish"):
        bob.probabilities([0] * 50 + [1, 1])
    with pytest.raises(ValueError):
        bob.price(bob.new_pool(), (), Fraction(1))


# --- exact pricing against brute force ----------------------------------------------------------------------

# Few distinct cards so small pools hold pairs, perfect pairs and every kind of coup.
PALETTE = cards("As Ad 9c 9h 5s 2h Kd 7c")


def every_market_by_brute_force(pool: Counter[int], shown: tuple[int, ...]) -> dict[str, Fraction]:
    """Deal every card sequence from ``pool`` after ``shown`` through deal_coup; P(win) of each market."""
    won: Counter[str] = Counter()
    for dealt, p in every_coup(pool, shown):
        for market in bob.MARKETS:
            if bob.outcome(market, dealt) == "win":
                won[market] += p
    return {market: won[market] for market in bob.MARKETS}


@settings(max_examples=60)
@given(pool_cards=st.lists(st.sampled_from(PALETTE), min_size=6, max_size=8),
       shown=st.lists(st.sampled_from(PALETTE), max_size=2))
def test_BOB_3_exact_probabilities_agree_with_dealing_every_card_sequence(pool_cards, shown):
    pool = Counter(pool_cards)
    remaining = [pool[c] for c in range(52)]
    p = bob.probabilities(remaining, tuple(shown))
    assert p == every_market_by_brute_force(pool, tuple(shown))
    assert p["player"] + p["banker"] + p["tie"] == 1
    assert p["small"] + p["big"] == 1
    odds = bob.price(remaining, tuple(shown), MARGIN)
    for market, o in odds.items():
        if p[market] == 0:
            assert o is None
        elif o is not None:
            assert o >= bob.MIN_ODDS
