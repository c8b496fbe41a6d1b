"""Deal offers (TR-DEAL-3) rounded per TR-PRIZE-3: every minor unit accounted for, every amount within bounds."""

from __future__ import annotations

from math import floor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.deals import DealError, offer
from tournament.icm import equities

prizes_st = st.lists(st.integers(0, 500_000), min_size=1, max_size=7).map(lambda p: sorted(p, reverse=True))


@settings(max_examples=80)
@given(st.lists(st.integers(1, 10**7), min_size=2, max_size=7), prizes_st, st.sampled_from(["icm", "chip_chop"]),
       st.booleans(), st.integers(0, 10**6))
def test_TR_DEAL_3_amounts_plus_left_to_play_for_plus_remainder_are_the_unpaid_prizes_exactly(
        stacks, payouts, kind, to_top, left):
    prizes = (payouts + [0] * len(stacks))[:len(stacks)]
    left = min(left, prizes[0] - prizes[1])
    deal = offer(kind, stacks, payouts, left_to_play_for=left, remainder_to_top=to_top)
    assert deal.total == sum(prizes)
    assert 0 <= deal.remainder < len(stacks)              # rounding down once per player loses < 1 each
    for amount in deal.amounts:                          # TR-DEAL-3 bounds
        assert prizes[-1] <= amount <= prizes[0] - left


def test_TR_DEAL_2_an_icm_deal_pays_each_player_their_equity_rounded_down():
    stacks, payouts = [50_000, 30_000, 20_000], [7_001, 3_000]
    deal = offer("icm", stacks, payouts)
    exact = equities(stacks, [7_001, 3_000, 0], exact=True)
    assert deal.amounts == tuple(floor(x) for x in exact)
    assert deal.remainder == 10_001 - sum(deal.amounts) > 0


def test_TR_PRIZE_3_nobody_receives_a_fraction_and_the_rounding_account_gets_the_rest():
    deal = offer("chip_chop", [100, 100, 100], [50_000, 30_000, 20_000 + 1])
    assert deal.amounts == (33_333, 33_333, 33_333) and deal.remainder == 2
    to_top = offer("chip_chop", [101, 100, 100], [50_000, 30_000, 20_001], remainder_to_top=True)
    assert to_top.remainder == 0 and sum(to_top.amounts) == 100_001
    assert to_top.amounts[0] == max(to_top.amounts)       # the configured alternative: onto the top amount


def test_TR_DEAL_3_a_chip_chop_pays_the_lowest_prize_and_shares_the_rest_by_chips():
    deal = offer("chip_chop", [60, 30, 10], [1_000, 600, 400])
    assert deal.amounts == (400 + 480, 400 + 240, 400 + 80)          # 800 over the lowest, 60 : 30 : 10
    assert deal.remainder == 0


def test_TR_DEAL_3_chip_chop_excess_above_the_first_prize_goes_to_the_others_by_chips():
    # Everyone gets the lowest prize, 100, and 700 is shared by chips: the leader's 100 + 630 = 730 is over
    # the first prize, so 600 and the 130 over goes to the other two by their chips, 3 : 1:
    # 100 + 52.5 + 97.5 = 250 and 100 + 17.5 + 32.5 = 150.
    deal = offer("chip_chop", [900, 75, 25], [600, 300, 100])
    assert deal.amounts == (600, 250, 150)
    assert deal.total == 1_000


def test_TR_DEAL_3_the_amount_left_to_play_for_comes_off_the_first_prize():
    deal = offer("icm", [500, 500], [1_000, 600], left_to_play_for=100)
    assert deal.amounts == (750, 750) and deal.left_to_play_for == 100 and deal.total == 1_600
    with pytest.raises(DealError, match="between 0 and 400"):
        offer("icm", [500, 500], [1_000, 600], left_to_play_for=401)


def test_TR_DEAL_1_offers_that_cannot_be_made_are_refused_with_a_sentence_and_the_rule():
    with pytest.raises(DealError, match="icm or chip_chop") as refused:
        offer("coin_flip", [1, 2], [10, 5])
    assert refused.value.rule == "TR-DEAL-1"
    with pytest.raises(DealError, match="two remaining players"):
        offer("icm", [5], [10])
    with pytest.raises(DealError, match="positive number of chips"):
        offer("icm", [5, 0], [10, 5])
    with pytest.raises(DealError, match="must not grow") as refused:
        offer("icm", [5, 5], [5, 10])
    assert refused.value.rule == "TR-PRIZE-1"


def test_TR_DEAL_2_TR_DEAL_3_an_icm_deal_for_more_than_ten_players_stays_within_the_bounds():
    import random as _random

    from tournament.deals import EXACT_PLAYERS, offer
    from tournament.icm import equities
    rng = _random.Random(5)
    for players in (EXACT_PLAYERS + 1, 13):
        stacks = [rng.randint(1, 10**6) for _ in range(players)] + [1]
        prizes = sorted((rng.randint(100, 10_000) for _ in range(players + 1)), reverse=True)
        deal = offer("icm", stacks, prizes)
        assert sum(deal.amounts) + deal.remainder == sum(prizes) and deal.remainder >= 0
        assert min(deal.amounts) >= prizes[-1] and max(deal.amounts) <= prizes[0]
    stacks, prizes = [5, 3, 2, 1, 1, 1, 1, 1, 1, 1, 1], [50, 30, 20, 10, 9, 8, 7, 6, 5, 4, 3]
    exact = equities(stacks, prizes, exact=True)
    assert all(abs(a - float(e)) <= 1 for a, e in zip(offer("icm", stacks, prizes).amounts, exact, strict=True))
