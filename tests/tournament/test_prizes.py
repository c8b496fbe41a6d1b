"""Prize pools and payout tables (TR-PRIZE-1..3)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.prizes import PayoutError, PayoutTable, prize_pool, prizes
from tournament.structure import PAYOUTS

STANDARD = Path(__file__).resolve().parents[2] / "config" / "payouts" / "standard.toml"


def test_TR_PRIZE_1_the_payout_structure_depends_on_the_number_of_entries():
    table = PayoutTable.load(STANDARD)
    assert table.shares_for(3) == (100,)
    assert table.shares_for(9) == (50, 30, 20)
    assert len(table.shares_for(100)) == 14 and table.shares_for(60)[0] == Fraction(55, 2)
    with pytest.raises(PayoutError, match="no prizes for 1 entries"):
        table.shares_for(1)


def test_TR_PRIZE_1_large_fields_pay_fifteen_percent_on_a_curve_of_exact_shares():
    table = PayoutTable.load(STANDARD)
    for entries, places in ((101, 16), (1000, 150), (10_000, 1500)):
        shares = table.shares_for(entries)
        assert len(shares) == places == table.places_for(entries) and sum(shares) == 100
        assert all(a >= b for a, b in zip(shares, shares[1:], strict=False))
    # place k weighs 1,000,000 // (k + 2): the first two of 1,000 entries weigh 333,333 and 250,000
    shares = table.shares_for(1000)
    assert shares[0] / shares[1] == Fraction(333_333, 250_000)


def test_TR_PRIZE_1_a_table_that_does_not_add_up_or_leaves_gaps_is_refused():
    with pytest.raises(PayoutError, match="add up to 100"):
        PayoutTable.from_dict({"brackets": [{"entries": [2, 5], "percent": [60, 30]}]})
    with pytest.raises(PayoutError, match="gap or overlap"):
        PayoutTable.from_dict({"brackets": [{"entries": [2, 5], "percent": [100]},
                                            {"entries": [7, 9], "percent": [100]}]})
    with pytest.raises(PayoutError, match="must not grow"):
        PayoutTable.from_dict({"brackets": [{"entries": [4, 5], "percent": [40, 60]}]})
    with pytest.raises(PayoutError, match="cannot be filled"):
        PayoutTable.from_dict({"brackets": [{"entries": [2, 5], "percent": [50, 30, 20]}]})


def test_TR_PRIZE_2_a_guarantee_tops_the_pool_up_only_when_it_is_not_reached():
    assert prize_pool(8_000, guarantee=10_000).total == 10_000
    assert prize_pool(8_000, guarantee=10_000).overlay == 2_000
    assert prize_pool(12_500, guarantee=10_000).total == 12_500
    assert prize_pool(12_500, guarantee=10_000).overlay == 0


def test_TR_PRIZE_3_nobody_receives_a_fraction_of_a_cent():
    # RULES.md's own example: 4.096 is paid as 4.09. A pool of 1,024 cents at 40% is 409.6 cents -> 409.
    paid = prizes((Fraction(40), Fraction(35), Fraction(25)), 1_024)
    assert paid.amounts == (409, 358, 256) and paid.remainder == 1
    onto_first = prizes((Fraction(40), Fraction(35), Fraction(25)), 1_024, remainder_to_top=True)
    assert onto_first.amounts == (410, 358, 256) and onto_first.remainder == 0


@given(st.integers(0, 10**9), st.integers(2, 100), st.booleans())
def test_TR_PRIZE_3_prizes_and_remainder_are_the_pool_exactly(pool, entries, to_top):
    table = PayoutTable.load(STANDARD)
    paid = prizes(table.shares_for(entries), pool, remainder_to_top=to_top)
    assert sum(paid.amounts) + paid.remainder == pool
    assert 0 <= paid.remainder < len(paid.amounts)
    assert list(paid.amounts) == sorted(paid.amounts, reverse=True)


@settings(max_examples=60)
@given(st.sampled_from(sorted(PAYOUTS.glob("*.toml"))), st.integers(2, 200_000), st.integers(0, 10**10),
       st.booleans())
def test_TR_PRIZE_3_the_curve_pays_from_its_weights_exactly_what_its_shares_pay(path, entries, pool, to_top):
    table = PayoutTable.load(path)
    try:
        shares = table.shares_for(entries)
    except PayoutError:
        return                                              # no bracket for that many: nothing to compare
    assert table.prizes_for(entries, pool, remainder_to_top=to_top) == prizes(shares, pool,
                                                                              remainder_to_top=to_top)
