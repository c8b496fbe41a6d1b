"""Refunds of a cancelled or interrupted tournament (TR-REFUND), each checked against a calculation by hand."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.refunds import (
    BEFORE_THE_MONEY,
    IN_THE_MONEY,
    NOT_STARTED,
    Refund,
    RefundError,
    Remaining,
    after_the_start,
    before_the_start,
)


def test_TR_REFUND_2_before_the_start_everyone_gets_buy_in_and_fee_back():
    refund = before_the_start({"ana": (90, 10), "bo": (90, 10), "cy": (0, 0)})   # cy: a free ticket entry
    assert refund == Refund(NOT_STARTED, {"ana": 100, "bo": 100, "cy": 0}, 0)


def test_TR_REFUND_3_before_the_money_fee_back_and_the_pool_half_evenly_half_by_chips():
    # 4 left, 3 places paid, 1,000 collected. Half (500) evenly: 125 each. Half by chips (10,000 in play):
    # 250, 150, 75, 25. Plus each live entry's fee of 10.
    left = [Remaining("a", 5_000, 10), Remaining("b", 3_000, 10), Remaining("c", 1_500, 10),
            Remaining("d", 500, 10)]
    refund = after_the_start(left, 1_000, [500, 300, 200])
    assert refund.case == BEFORE_THE_MONEY
    assert refund.amounts == {"a": 385, "b": 285, "c": 210, "d": 160} and refund.remainder == 0


def test_TR_REFUND_7_each_refund_is_rounded_down_once_and_the_rest_recorded():
    # 1,001 collected: 125.125 each evenly; by chips 250.25, 150.15, 75.075, 25.025; sums 385.375, 285.275,
    # 210.2, 160.15 with the fees: paid 385, 285, 210, 160, and 1 to the rounding account.
    left = [Remaining("a", 5_000, 10), Remaining("b", 3_000, 10), Remaining("c", 1_500, 10),
            Remaining("d", 500, 10)]
    refund = after_the_start(left, 1_001, [500, 300, 200])
    assert refund.amounts == {"a": 385, "b": 285, "c": 210, "d": 160} and refund.remainder == 1
    assert refund.total == 1_001 + 40


def test_TR_REFUND_4_in_the_money_the_next_prize_each_and_the_rest_of_the_places_by_chips():
    # 4 places; the 4th (100) is paid already; 3 left with 6,000 / 3,000 / 1,000 chips. Each gets place 3's
    # 200; places 1..3 pay 1,000 - 3 * 200 = 400 more, by chips: 240, 120, 40. Fees of 10 back.
    left = [Remaining("a", 6_000, 10), Remaining("b", 3_000, 10), Remaining("c", 1_000, 10)]
    refund = after_the_start(left, 1_100, [500, 300, 200, 100])
    assert refund.case == IN_THE_MONEY
    assert refund.amounts == {"a": 450, "b": 330, "c": 250} and refund.remainder == 0


def test_TR_PLAY_6_cancelled_before_the_money_held_bounties_are_paid_and_own_bounties_refunded():
    left = [Remaining("a", 7_500, 10, bounty_held=50, own_bounty=50), Remaining("b", 2_500, 10, own_bounty=25)]
    refund = after_the_start(left, 400, [300, 100, 50][:1])         # 1 place paid, 2 left: not in the money
    # pool: 100 each evenly, 150 / 50 by chips; fees 10; a: +50 held +50 own, b: +25 own
    assert refund.amounts == {"a": 360, "b": 185}


def test_TR_REFUND_5_only_collected_money_is_shared_not_an_unmet_guarantee():
    left = [Remaining("a", 5, 0), Remaining("b", 5, 0)]
    with pytest.raises(RefundError, match="TR-REFUND-5"):
        after_the_start(left, 1_000, [5_000, 3_000])            # prizes of a 10,000 guarantee: refused
    assert sum(after_the_start(left, 1_000, [600, 400]).amounts.values()) == 1_000


@settings(max_examples=80)
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 500), st.integers(0, 300), st.integers(0, 300)),
                min_size=1, max_size=9),
       st.integers(0, 10**6), st.lists(st.integers(0, 10**5), max_size=6))
def test_TR_REFUND_7_every_minor_unit_is_accounted_for(rows, pool, prizes):
    prizes = sorted(prizes, reverse=True)
    if sum(prizes) > pool or not any(chips for chips, *_ in rows):
        return
    left = [Remaining(f"p{i}", *row) for i, row in enumerate(rows)]
    refund = after_the_start(left, pool, prizes)
    in_money = len(left) <= len(prizes)
    shared = sum(prizes[:len(left)]) if in_money else pool
    assert refund.total == shared + sum(r.fee + r.bounty_held + r.own_bounty for r in left)
    assert 0 <= refund.remainder < len(left)
    for r in left:                                              # nobody gets less than what is theirs anyway
        assert refund.amounts[r.player] >= r.fee + r.bounty_held + r.own_bounty


def test_refunds_refuse_state_they_cannot_price_with_a_sentence():
    with pytest.raises(RefundError, match="nobody remains"):
        after_the_start([], 10, [])
    with pytest.raises(RefundError, match="twice"):
        after_the_start([Remaining("a", 1, 0), Remaining("a", 1, 0)], 10, [])
    with pytest.raises(RefundError, match="no chips"):
        after_the_start([Remaining("a", 0, 0)], 10, [])
    with pytest.raises(RefundError, match="whole"):
        before_the_start({"a": (1.5, 0)})
