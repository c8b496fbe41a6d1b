"""ICM equities (TR-DEAL-2): exact against enumeration of every finishing order, and a published example;
the integral method against the exact one, an exact recursion for two stack sizes, and sampling."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.icm import ICMError, enumerated_equities, equities, integral_equities, sampled_equities, sets_walked


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


def _exact_floats(stacks, payouts):
    return [float(x) for x in equities([Fraction(s) for s in stacks], payouts, exact=True)]


def _two_stack_sizes(small, small_chips, big, big_chips, payouts):
    """Exact Malmuth–Harville equity of one short and one big stack when the field has only these two sizes:
    a recursion over how many of each have finished (a reference for fields too big for :func:`equities`)."""
    chance = np.ones(1)                       # chance[i]: i short stacks among the first k finishers
    short = tall = 0.0
    for k, prize in enumerate(payouts[:small + big]):
        i = np.arange(k + 1)
        left_small, left_big = np.maximum(small - i, 0) * small_chips, np.maximum(big - k + i, 0) * big_chips
        p_small = np.divide(left_small, left_small + left_big, out=np.zeros(k + 1), where=left_small + left_big > 0)
        short += prize * (chance * p_small).sum() / small
        tall += prize * (chance * (1 - p_small)).sum() / big
        grown = np.zeros(k + 2)
        grown[1:] += chance * p_small
        grown[:-1] += chance * (1 - p_small)
        chance = grown
    return short, tall


@settings(max_examples=40, deadline=None)
@given(st.lists(st.one_of(st.integers(1, 10**6), st.sampled_from([1, 10**6])), min_size=1, max_size=8),
       st.lists(st.integers(0, 10**6), max_size=9))
def test_TR_DEAL_2_integral_equities_equal_the_exact_model(stacks, payouts):
    exact = _exact_floats(stacks, payouts)
    pool = sum(payouts[:len(stacks)])
    assert integral_equities(stacks, payouts) == pytest.approx(exact, rel=1e-10, abs=1e-13 * pool)


@pytest.mark.parametrize("seed", range(6))
def test_TR_DEAL_2_integral_equities_equal_the_exact_model_on_twelve_players(seed):
    # integer stacks keep the exact method's float arithmetic exact in its chip counts, so it is a fair reference
    rng = np.random.default_rng(seed)
    stacks = [int(x) for x in (rng.integers(1, 10**6, 12) if seed % 2 else rng.choice([1, 10**6], 12))]
    stacks[0], stacks[1] = 1, 10**6
    for paid in (1, 3, 7, 12):
        payouts = sorted((int(x) for x in rng.integers(1, 10**5, paid)), reverse=True)
        assert integral_equities(stacks, payouts) == pytest.approx(equities(stacks, payouts), rel=1e-10)


def test_TR_DEAL_2_integral_equities_of_one_chip_against_a_million():
    assert integral_equities([1, 10**6], [70, 30]) == pytest.approx(_exact_floats([1, 10**6], [70, 30]), rel=1e-12)
    stacks, payouts = [1, 10**6, 10**6, 3, 10**6], [100, 40, 10]
    exact = _exact_floats(stacks, payouts)
    assert exact[0] < 1e-4                                  # a chance in a million to be paid at all
    assert integral_equities(stacks, payouts) == pytest.approx(exact, rel=1e-10)


def test_TR_DEAL_2_integral_equities_share_out_exactly_the_prizes_and_equal_stacks_equally():
    stacks, payouts = [900, 500, 500, 100, 40, 500], [50, 30, 20, 10]
    e = integral_equities(stacks, payouts)
    assert sum(e) == pytest.approx(sum(payouts), rel=1e-14)
    assert e[1] == pytest.approx(e[2], rel=1e-14) and e[1] == pytest.approx(e[5], rel=1e-14)
    assert e[0] > e[1] > e[3] > e[4]
    assert integral_equities([7] * 5, [40, 30, 20, 10]) == pytest.approx([20] * 5, rel=1e-14)
    assert integral_equities([3, 9], [10, 5, 1]) == pytest.approx(_exact_floats([3, 9], [10, 5]), rel=1e-14)
    field = [1_000 + 37 * (i % 500) for i in range(1_000)]            # every stack twice
    payouts = [1_000 - 5 * i for i in range(150)]
    e = integral_equities(field, payouts)
    assert sum(e) == pytest.approx(sum(payouts), rel=1e-13)
    assert e[:500] == pytest.approx(e[500:], rel=1e-13)
    assert integral_equities([777] * 1_000, payouts) == pytest.approx([sum(payouts) / 1_000] * 1_000, rel=1e-13)


def test_TR_DEAL_2_integral_equities_equal_an_exact_recursion_on_a_field_of_two_stack_sizes():
    # 900 short stacks and 300 three times as big, 180 paid in tiers: too many for the exact method, exact here
    payouts = [10_000, 7_000, 5_000, 4_000, 3_000] + [2_000] * 15 + [1_000] * 60 + [500] * 100
    short, tall = _two_stack_sizes(900, 1, 300, 3, payouts)
    e = integral_equities([1] * 900 + [3] * 300, payouts)
    assert e[0] == pytest.approx(short, rel=1e-12) and e[-1] == pytest.approx(tall, rel=1e-12)


def test_TR_DEAL_2_integral_equities_agree_with_sampling_on_a_thousand_players():
    rng = np.random.default_rng(4)
    field = [int(x) for x in rng.integers(20_000, 200_000, 1_000)]
    payouts = [1_000 - 5 * i for i in range(150)]
    e = np.array(integral_equities(field, payouts))
    estimate = sampled_equities(field, payouts, samples=4_000, seed=1)
    z = (np.array(estimate.equities) - e) / np.array(estimate.standard_errors)
    assert np.all(np.abs(z) < 4)                            # every player within 4 standard errors
    assert 0.7 < np.mean(np.abs(z)) < 0.9                   # and the errors as big as stated (0.80 for a normal)
    assert e.sum() == pytest.approx(sum(payouts), rel=1e-13)


def test_TR_DEAL_2_integral_equities_price_busted_players_and_refuse_bad_input():
    assert integral_equities([10, 0, 5], [5, 3, 2]) == pytest.approx([13 / 3, 2, 11 / 3], rel=1e-13)
    assert integral_equities([10, 0, 0], [5, 3, 2]) == pytest.approx([5, 2.5, 2.5], rel=1e-13)
    assert integral_equities([4, 6], []) == [0.0, 0.0]
    assert integral_equities([4], [9, 1]) == [9.0]
    assert integral_equities([3, 1], [Fraction(1, 2)]) == pytest.approx([0.375, 0.125], rel=1e-14)
    with pytest.raises(ICMError, match="no stacks"):
        integral_equities([], [1])
    with pytest.raises(ICMError, match="some chips"):
        integral_equities([0, 0], [1])
    with pytest.raises(ICMError, match="prizes"):
        integral_equities([5, 1], [-1])
    with pytest.raises(ICMError, match="nodes"):
        integral_equities([5, 1], [1], nodes=1)


def test_TR_DEAL_2_integral_equities_converge_as_nodes_are_added():
    stacks = [112_000, 96_500, 80_250, 61_000, 55_500, 40_000, 33_333, 20_100, 9_800, 2_200]
    payouts = [30_000, 20_000, 14_000, 10_000, 8_000, 6_500, 5_000, 3_500, 2_000, 1_000]
    exact = equities(stacks, payouts)
    errors = [max(abs(x - y) for x, y in zip(integral_equities(stacks, payouts, nodes=k), exact, strict=True))
              for k in (4, 8, 16, 24)]
    assert errors[0] > errors[1] > errors[2] and errors[3] < 1e-9
