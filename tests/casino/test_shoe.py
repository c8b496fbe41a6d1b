"""The shoe: a secure shuffle of n decks (CR-8, HR-RNG-1), the cut card (BA-1), the burns (IB-2, BOB-4)."""

from __future__ import annotations

from collections import Counter

import pytest

from pokerroom.cards import DECK_SIZE, parse_card
from pokerroom.casino.bet_on_baccarat_table import BetOnBaccaratTable
from pokerroom.casino.betting import Limits
from pokerroom.casino.punto_banco import BaccaratTable
from pokerroom.casino.shoe import (
    Shoe,
    ShoeEmpty,
    blackjack_count,
    burn_by_first_card,
    burn_random,
    secure_shoe,
    stacked,
)
from pokerroom.casino.table import CasinoRules


def card(text: str) -> int:
    return parse_card(text)


# ---------------------------------------------------------------------------------------------- CR-8 / HR-RNG-1


@pytest.mark.parametrize("decks", [1, 6, 8])
def test_CR_8_HR_RNG_1_a_secure_shoe_is_every_card_of_n_decks(decks):
    shoe = secure_shoe(decks)
    assert len(shoe) == decks * DECK_SIZE
    assert Counter(shoe) == {c: decks for c in range(DECK_SIZE)}


def test_CR_8_HR_RNG_1_secure_shoes_are_shuffled_and_differ():
    shoes = [secure_shoe(8) for _ in range(3)]
    ordered = list(range(DECK_SIZE)) * 8
    assert all(s != ordered for s in shoes)
    assert shoes[0] != shoes[1] != shoes[2] != shoes[0]     # 416!/(8!^52) orders: a repeat means no shuffle
    assert len({tuple(secure_shoe(1)[:10]) for _ in range(20)}) == 20


def test_CR_8_HR_RNG_1_the_tables_shuffle_with_the_secure_shoe_by_default():
    for cls, game in ((BaccaratTable, "baccarat"), (BetOnBaccaratTable, "bet_on_baccarat")):
        table = cls(CasinoRules(table_id="t", name="t", game=game, limits=Limits(100, 1_000), decks=6))
        assert table.source is secure_shoe
        table.expire()
        shoe = table.shoe.cards
        assert Counter(shoe) == {c: 6 for c in range(DECK_SIZE)} and shoe != list(range(DECK_SIZE)) * 6


# ---------------------------------------------------------------------------------------------- the test shoe


def test_stacked_puts_the_given_cards_first_and_keeps_the_whole_shoe():
    front = [card("As"), card("As"), card("2c")]
    cards = stacked(front, [card("Kd")])(2)
    assert cards[:4] == [card("As"), card("As"), card("2c"), card("Kd")]
    assert Counter(cards) == {c: 2 for c in range(DECK_SIZE)}
    with pytest.raises(ValueError):                          # three aces of spades in a two-deck shoe
        stacked([card("As")] * 3)(2)


def test_a_shoe_must_hold_exactly_n_decks():
    with pytest.raises(ValueError, match="a 2-deck shoe holds 104 cards, not 52"):
        Shoe.fresh(lambda n: list(range(DECK_SIZE)), 2, 0)


def test_CR_5_a_shoe_that_runs_out_raises_shoe_empty():
    shoe = Shoe.fresh(stacked(), 1, 0)
    assert [shoe.draw() for _ in range(DECK_SIZE)] == list(range(DECK_SIZE))
    assert shoe.remaining == 0
    with pytest.raises(ShoeEmpty):
        shoe.draw()


# ---------------------------------------------------------------------------------------------- BA-1 cut card


def test_BA_1_the_cut_card_sits_seven_cards_from_the_back():
    shoe = Shoe.fresh(stacked(), 8, 7)
    assert len(shoe.cards) == 416 and shoe.cut == 409
    for _ in range(408):
        shoe.draw()
    assert not shoe.cut_card_out and shoe.remaining == 8
    shoe.draw()
    assert shoe.cut_card_out and shoe.remaining == 7         # everything in front of it is out: it shows


def test_BOB_1_a_shoe_without_a_cut_card_never_shows_one():
    shoe = Shoe.fresh(stacked(), 6, 0)
    for _ in range(6 * DECK_SIZE):
        assert not shoe.cut_card_out
        shoe.draw()
    assert not shoe.cut_card_out


# ---------------------------------------------------------------------------------------------- burns


def test_BOB_4_burned_cards_nobody_saw_stay_unknown():
    shoe = Shoe.fresh(stacked([card("Ah"), card("Kc"), card("2d"), card("9s")]), 6, 0)
    assert burn_random(shoe, lambda: 3) == 3
    assert shoe.burned == 3 and shoe.position == 3 and shoe.unseen == [card("Ah"), card("Kc"), card("2d")]
    assert shoe.unknown_counts() == [6] * DECK_SIZE           # the burns are as unknown as the rest
    shown = shoe.draw()
    assert shown == card("9s")
    counts = shoe.unknown_counts()
    assert counts[card("9s")] == 5 and sum(counts) == 6 * DECK_SIZE - 1


@pytest.mark.parametrize("bad", [2, 7, 0])
def test_BOB_4_a_burn_is_three_to_six_cards(bad):
    shoe = Shoe.fresh(stacked(), 6, 0)
    with pytest.raises(ValueError, match="3 to 6"):
        burn_random(shoe, lambda: bad)
    assert shoe.position == 0 and shoe.burned == 0


def test_BOB_4_the_random_burn_count_takes_each_of_three_to_six():
    counts = Counter()
    for _ in range(200):
        shoe = Shoe.fresh(stacked(), 6, 0)
        n = burn_random(shoe)
        assert shoe.position == shoe.burned == n == len(shoe.unseen)
        counts[n] += 1
    assert set(counts) == {3, 4, 5, 6}                        # each misses 200 draws with chance (3/4)^200


@pytest.mark.parametrize(("shown", "burns"), [("Ac", 1), ("2d", 2), ("9h", 9), ("Ts", 10), ("Kd", 10)])
def test_IB_2_the_first_card_is_shown_and_that_many_more_are_burned(shown, burns):
    assert blackjack_count(card(shown)) == burns
    shoe = Shoe.fresh(stacked([card(shown)]), 8, 104)
    assert burn_by_first_card(shoe) == card(shown)
    assert shoe.burned == burns + 1 and shoe.position == burns + 1
    assert len(shoe.unseen) == burns                          # the shown card is seen; the rest are not
    assert shoe.unknown_counts()[card(shown)] == 7
    assert sum(shoe.unknown_counts()) == 8 * DECK_SIZE - 1
