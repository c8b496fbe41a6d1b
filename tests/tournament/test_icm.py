"""ICM equities (TR-DEAL-2): exact against enumeration of every finishing order, and a published example."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.icm import ICMError, enumerated_equities, equities, sampled_equities, sets_walked


def test_TR_DEAL_2_the_published_three_player_example():
    # Wikipedia, "Independent Chip Model", section Model: A, B, C hold 50%, 30%, 20% of the chips; 1st pays 70
    # and 2nd 30; ICM(A) ~ 45 and ICM(B) ~ 32. Exactly: 1265/28, 129/4 and 158/7.
    a, b, c = equities([50, 30, 20], [70, 30], exact=True)
    assert (a, b, c) == (Fraction(1265, 28), Fraction(129, 4), Fraction(158, 7))
    assert round(a) == 45 and round(b) == 32
    assert equities([50, 30, 20], [70, 30]) == pytest.approx([45.178571, 32.25, 22.571429])


@settings(max_examples=60)
@given(st.lists(st.integers(1, 10_000), min_size=1, max_size=6),
       st.lists(st.integers(0, 1_000), min_size=0, max_size=7))
def test_TR_DEAL_2_exact_equities_equal_enumeration_of_every_finishing_order(stacks, payouts):
    assert equities(stacks, payouts, exact=True) == enumerated_equities(stacks, payouts, exact=True)


@settings(max_examples=30)
@given(st.lists(st.integers(1, 10**9), min_size=2, max_size=9), st.lists(st.integers(0, 10**6), max_size=9))
def test_TR_DEAL_2_equities_share_out_exactly_the_prizes_that_can_be_reached(stacks, payouts):
    exact = equities(stacks, payouts, exact=True)
    assert sum(exact) == sum(payouts[:len(stacks)])
    assert equities(stacks, payouts) == pytest.approx([float(x) for x in exact], rel=1e-9, abs=1e-9)


def test_TR_DEAL_2_more_chips_never_means_less_equity_and_equal_stacks_share_equally():
    stacks, payouts = [900, 500, 500, 100, 40], [50, 30, 20]
    e = equities(stacks, payouts, exact=True)
    assert e[0] > e[1] == e[2] > e[3] > e[4]
    assert equities([7, 7, 7, 7], [40, 30, 20, 10], exact=True) == [25, 25, 25, 25]


def test_TR_DEAL_2_a_player_without_chips_finishes_below_all_with_chips():
    assert equities([10, 0, 5], [5, 3, 2], exact=True) == [Fraction(13, 3), 2, Fraction(11, 3)]
    assert equities([10, 0, 0], [5, 3, 2], exact=True) == [5, Fraction(5, 2), Fraction(5, 2)]


def test_TR_DEAL_2_ten_players_with_ten_prizes_are_priced_exactly():
    stacks = [112_000, 96_500, 80_250, 61_000, 55_500, 40_000, 33_333, 20_100, 9_800, 2_200]
    payouts = [30_000, 20_000, 14_000, 10_000, 8_000, 6_500, 5_000, 3_500, 2_000, 1_000]
    assert sets_walked(10, 10) == 1023                     # sets of finishers, not 3,628,800 orders
    exact = equities(stacks, payouts, exact=True)
    assert sum(exact) == sum(payouts)
    assert exact == sorted(exact, reverse=True)
    assert equities(stacks, payouts) == pytest.approx([float(x) for x in exact], rel=1e-12)


def test_sampling_agrees_with_the_exact_equities_within_its_stated_error():
    stacks, payouts = [5_000, 3_000, 2_500, 1_000, 700, 300], [45, 25, 15, 10, 5]
    exact = equities(stacks, payouts)
    estimate = sampled_equities(stacks, payouts, samples=40_000, seed=7)
    assert estimate.samples == 40_000 and sum(estimate.equities) == pytest.approx(sum(payouts))
    for e, s, error in zip(exact, estimate.equities, estimate.standard_errors, strict=True):
        assert 0 < error < 0.2
        assert abs(e - s) < 5 * error


def test_sampling_prices_a_thousand_player_field_and_every_prize_is_handed_out_once_per_order():
    stacks = [1_000 + 37 * i for i in range(1_000)]
    payouts = [1_000 - 5 * i for i in range(150)]
    estimate = sampled_equities(stacks, payouts, samples=2_000, seed=1)
    assert sum(estimate.equities) == pytest.approx(sum(payouts))
    assert estimate.equities[-1] > estimate.equities[0]          # the biggest stack is worth more than the least


def test_bad_stacks_and_prizes_are_refused_with_a_sentence():
    with pytest.raises(ICMError, match="no stacks"):
        equities([], [1])
    with pytest.raises(ICMError, match="some chips"):
        equities([0, 0], [1])
    with pytest.raises(ICMError, match="zero or more"):
        equities([5, -1], [1])
    with pytest.raises(ICMError, match="prizes"):
        equities([5, 1], [-1])
    with pytest.raises(ICMError, match="sampled_equities"):
        equities(list(range(1, 41)), list(range(40, 0, -1)))
