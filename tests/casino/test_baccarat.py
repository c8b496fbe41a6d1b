"""Punto Banco rules (RULES.md BA-1..BA-5) and its exact odds."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.cards import parse, parse_card
from pokerroom.casino import baccarat as bac
from pokerroom.casino.baccarat import Coup, deal_coup, finish_coup
from pokerroom.errors import RuleViolation
from tests.casino.drivers import every_coup

# One card of each point value 0..9 (suits varied so nothing here depends on them).
CARD_OF_VALUE = parse("Kc As 2d 3h 4s 5c 6d 7h 8s 9c")


def drawing(*cards: int):
    """A ``draw`` that deals ``cards`` in order and fails loudly if the coup wants more."""
    it = iter(cards)

    def draw() -> int:
        card = next(it, None)
        if card is None:
            raise AssertionError("the coup drew a card it should not have")
        return card

    return draw


def coup(text: str) -> Coup:
    """A coup dealt from a stacked shoe written in deal order."""
    return deal_coup(drawing(*parse_shoe(text)))


def parse_shoe(text: str) -> list[int]:
    """Cards in deal order; unlike ``cards.parse`` a shoe may repeat a card (several decks)."""
    return [parse_card(t) for t in text.split()]


# --- BA-1 ---------------------------------------------------------------------------------------------------

def test_BA_1_eight_decks_and_a_cut_card_seven_from_the_back():
    assert bac.DECKS == 8
    assert bac.BEHIND_CUT == 7
    shoe = list(range(52)) * 8
    by_value = Counter(bac.point_value(c) for c in shoe)
    assert [by_value[v] for v in range(10)] == bac.value_counts(8) == [128] + [32] * 9
    assert sum(bac.value_counts(8)) == 416


# --- BA-2 ---------------------------------------------------------------------------------------------------

WRITTEN_VALUES = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
                  "T": 0, "J": 0, "Q": 0, "K": 0}


@pytest.mark.parametrize("suit", "cdhs")
def test_BA_2_card_values_ace_one_pips_face_tens_and_courts_zero(suit):
    for rank, value in WRITTEN_VALUES.items():
        assert bac.point_value(parse_card(rank + suit)) == value


@pytest.mark.parametrize(("hand", "total"), [
    ("9s8h", 7), ("KdAs", 1), ("5c5d", 0), ("9h9d9c", 7), ("TcJd", 0), ("4h3s", 7), ("6c7d8h", 1), ("Ah", 1),
])
def test_BA_2_points_are_the_sum_modulo_ten(hand, total):
    assert bac.points(parse(hand)) == total


# --- BA-3 ---------------------------------------------------------------------------------------------------

def test_BA_3_cards_one_and_three_to_the_player_two_and_four_to_the_banker():
    dealt = coup("9c 2d Kh Qs")              # player 9 natural: nothing more is drawn
    assert dealt.player == tuple(parse("9cKh"))
    assert dealt.banker == tuple(parse("2dQs"))
    assert dealt.cards_dealt == 4


def test_BA_3_the_players_third_card_comes_before_the_bankers():
    # Player 2+Q = 2 draws; banker 3+K = 3 draws unless the player's third is an 8.
    dealt = coup("2c 3d Qh Ks 4h 6s")
    assert dealt.player == tuple(parse("2cQh4h"))
    assert dealt.banker == tuple(parse("3dKs6s"))
    assert (dealt.player_points, dealt.banker_points, dealt.winner) == (6, 9, "banker")


# --- BA-4 ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("shoe", "player", "banker"), [
    ("8c Kd Jh 2s", 8, 2),      # player natural 8: the banker stands on 2
    ("Kc 9d Qh Ts", 0, 9),      # banker natural 9: the player stands on 0
    ("4c 5d 5h 3s", 9, 8),      # both natural
    ("Tc 4d 8h 4s", 8, 8),      # natural tie
])
def test_BA_4_a_natural_on_either_side_and_both_stand(shoe, player, banker):
    dealt = coup(shoe)
    assert dealt.cards_dealt == 4
    assert (dealt.player_points, dealt.banker_points) == (player, banker)
    assert bac.is_natural(max(player, banker))


@pytest.mark.parametrize("total", range(8))
def test_BA_4_player_draws_on_0_to_5_stands_on_6_and_7(total):
    player = [CARD_OF_VALUE[0], CARD_OF_VALUE[total]]
    banker = parse("Kh7d")                   # banker 7: never draws, whatever the player does
    dealt = finish_coup(player[0], banker[0], player[1], banker[1], drawing(CARD_OF_VALUE[3]))
    assert len(dealt.player) == (3 if total <= 5 else 2)
    assert len(dealt.banker) == 2
    assert bac.player_draws(total) is (total <= 5)


# BA-4 as written, one row per banker total: the column "-" is "the player stood",
# then the player's third card value 0..9. D = the banker draws, S = the banker stands.
BANKER_TABLE = {
    #    -  0123456789
    0: ("D", "DDDDDDDDDD"),
    1: ("D", "DDDDDDDDDD"),
    2: ("D", "DDDDDDDDDD"),
    3: ("D", "DDDDDDDDSD"),    # 3: draws unless the player's third is 8
    4: ("D", "SSDDDDDDSS"),    # 4: draws if it is 2-7
    5: ("D", "SSSSDDDDSS"),    # 5: draws if it is 4-7
    6: ("S", "SSSSSSDDSS"),    # 6: draws if it is 6-7
    7: ("S", "SSSSSSSSSS"),    # 7: stands
}
TABLE_CELLS = [(b, None, row[0] == "D") for b, row in BANKER_TABLE.items()] + [
    (b, t, row[1][t] == "D") for b, row in BANKER_TABLE.items() for t in range(10)
]


@pytest.mark.parametrize(("banker_total", "third", "draws"), TABLE_CELLS)
def test_BA_4_banker_drawing_table_every_cell(banker_total, third, draws):
    banker = (parse_card("Qd"), CARD_OF_VALUE[banker_total])
    banker_card = parse_card("4c")
    if third is None:
        player = parse("3h3d")               # 6: the player stands
        shoe = [banker_card]
    else:
        player = parse("Th5h")               # 5: the player draws
        shoe = [CARD_OF_VALUE[third], banker_card]
    dealt = finish_coup(player[0], banker[0], player[1], banker[1], drawing(*shoe))
    assert dealt.player == (player[0], player[1], *shoe[:-1])
    assert dealt.banker == (banker + (banker_card,) if draws else banker)
    assert bac.banker_draws(banker_total, third) is draws


def test_BA_4_banker_draws_on_3_unless_player_third_is_8():
    assert len(coup("Tc 3d 4h Ks 8h 2c").banker) == 2
    assert len(coup("Tc 3d 4h Ks 9h 2c").banker) == 3


def test_BA_4_rule_functions_refuse_values_outside_0_to_9():
    for bad in (-1, 10):
        with pytest.raises(ValueError):
            bac.player_draws(bad)
        with pytest.raises(ValueError):
            bac.banker_draws(3, bad)


# --- BA-5 ---------------------------------------------------------------------------------------------------

PLAYER_WINS = "9c 2d Kh Qs"     # 9 to 2
BANKER_WINS = "2d 9c Qs Kh"     # 2 to 9
TIED = "Tc 4d 8h 4s"            # 8 to 8


@pytest.mark.parametrize(("shoe", "market", "stake", "back"), [
    (PLAYER_WINS, "player", 1000, 2000),
    (PLAYER_WINS, "banker", 1000, 0),
    (PLAYER_WINS, "tie", 1000, 0),
    (BANKER_WINS, "banker", 1000, 1950),
    (BANKER_WINS, "banker", 199, 388),      # 199 + 189.05 rounded down
    (BANKER_WINS, "banker", 1, 1),          # 0.95 of a minor unit rounds down to nothing
    (BANKER_WINS, "player", 1000, 0),
    (TIED, "tie", 1000, 9000),              # 8 to 1, stake back
    (TIED, "player", 1000, 1000),           # returned on a tie
    (TIED, "banker", 1000, 1000),
])
def test_BA_5_payouts(shoe, market, stake, back):
    assert bac.returned(market, coup(shoe), stake) == back


def test_BA_5_only_the_three_bets_exist():
    with pytest.raises(RuleViolation) as info:
        bac.returned("player_pair", coup(TIED), 100)
    assert info.value.rule_id == "BA-5"
    with pytest.raises(ValueError):
        bac.returned("player", coup(TIED), 1.5)


# --- exact odds ---------------------------------------------------------------------------------------------

def test_BA_4_eight_deck_odds_and_BA_5_house_edges():
    probs = bac.exact_outcomes(bac.value_counts(8))
    assert sum(probs.values()) == 1
    assert round(float(probs["banker"]), 6) == 0.458597
    assert round(float(probs["player"]), 6) == 0.446247
    assert round(float(probs["tie"]), 6) == 0.095156
    assert round(100 * float(bac.house_edge("banker", probs)), 2) == 1.06
    assert round(100 * float(bac.house_edge("player", probs)), 2) == 1.24
    assert round(100 * float(bac.house_edge("tie", probs)), 2) == 14.36


def test_BA_4_eight_deck_four_card_coups():
    odds = bac.coup_odds(bac.value_counts(8))
    assert round(float(odds.four_cards), 6) == 0.378868
    assert odds.four_cards + odds.five_or_six_cards == 1


def test_BA_4_exact_odds_stay_exact_past_64_bit_counts():
    big = bac.coup_odds(bac.value_counts(200))          # 10400 cards: sums beyond int64
    assert big.player + big.banker + big.tie == 1
    eight = bac.coup_odds(bac.value_counts(8))
    assert abs(big.banker - eight.banker) < Fraction(1, 1000)


def test_BA_4_a_pool_too_small_to_finish_a_coup_is_refused():
    with pytest.raises(ValueError, match="cannot finish"):
        bac.exact_outcomes([5, 0, 0, 0, 0, 0, 0, 0, 0, 0])


def dealt_every_way(pool: Counter[int], dealt: tuple[int, ...] = ()) -> Counter[str]:
    """Brute force: deal every card sequence from ``pool`` through :func:`deal_coup`; P(winner) and P(4 cards)."""
    out: Counter[str] = Counter()
    for result, p in every_coup(pool, dealt):
        out[result.winner] += p
        out["four"] += p * (result.cards_dealt == 4)
    return out


@settings(max_examples=60)
@given(counts=st.lists(st.integers(0, 2), min_size=10, max_size=10).filter(lambda c: 6 <= sum(c) <= 9),
       dealt=st.lists(st.integers(0, 9), max_size=4))
def test_BA_4_exact_odds_agree_with_dealing_every_card_sequence(counts, dealt):
    pool = Counter({CARD_OF_VALUE[v]: n for v, n in enumerate(counts)})
    brute = dealt_every_way(pool, tuple(CARD_OF_VALUE[v] for v in dealt))
    odds = bac.coup_odds(counts, dealt)
    assert (odds.player, odds.banker, odds.tie) == (brute["player"], brute["banker"], brute["tie"])
    assert odds.four_cards == brute["four"]
    assert odds.player + odds.banker + odds.tie == 1 == odds.four_cards + odds.five_or_six_cards
