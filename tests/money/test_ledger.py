"""The double-entry ledger: balanced transfers, no overdrafts, the zero-sum check (DESIGN.md idea 3, AC-6)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokerroom.errors import RuleViolation
from pokerroom.money import HOUSE_RAKE, WORLD, Ledger, Posting, cash, table_escrow


def funded(amount: int = 10_000) -> Ledger:
    ledger = Ledger()
    ledger.move(WORLD, cash("ana"), amount, "deposit", "d1", 1.0)
    return ledger


def test_AC_6_every_movement_is_recorded_with_reason_reference_and_time():
    ledger = funded()
    t = ledger.move(cash("ana"), table_escrow("t1", "ana"), 4_000, "buy_in", "t1", 2.0)
    assert (t.number, t.reason, t.reference, t.at, t.size) == (2, "buy_in", "t1", 2.0, 4_000)
    assert ledger.balance(cash("ana")) == 6_000 and ledger.balance(table_escrow("t1", "ana")) == 4_000
    assert ledger.balance(WORLD) == -10_000 and ledger.check()


def test_an_unbalanced_or_fractional_transfer_is_refused():
    ledger = funded()
    with pytest.raises(ValueError, match="balance"):
        ledger.transfer([Posting(cash("ana"), -5), Posting(cash("bo"), 4)], "x", "y", 1.0)
    with pytest.raises(ValueError, match="whole number"):
        ledger.transfer([Posting(cash("ana"), -0.5), Posting(cash("bo"), 0.5)], "x", "y", 1.0)
    with pytest.raises(ValueError, match="some money"):
        ledger.transfer([Posting(cash("ana"), 0)], "x", "y", 1.0)
    assert len(ledger.transfers) == 1


def test_an_overdraft_is_refused_and_changes_nothing():
    ledger = funded(100)
    with pytest.raises(RuleViolation) as refused:
        ledger.move(cash("ana"), table_escrow("t1", "ana"), 101, "buy_in", "t1", 2.0)
    assert refused.value.code == "insufficient_funds"
    assert ledger.balance(cash("ana")) == 100 and len(ledger.transfers) == 1
    with pytest.raises(RuleViolation):
        ledger.move(cash("ana"), cash("bo"), -5, "gift", "x", 2.0)


def test_HR_RAKE_2_a_hand_settles_once_with_the_rake_credited_to_the_house():
    ledger = Ledger()
    for player in ("ana", "bo"):
        ledger.move(WORLD, table_escrow("t1", player), 200, "buy_in", "t1", 1.0)
    t = ledger.settle_hand("t1", "t1-7", {"ana": 200, "bo": 200}, {"ana": 305, "bo": 90}, 5, 3.0)
    assert t.reference == "t1-7" and t.reason == "hand"
    assert ledger.balance(table_escrow("t1", "ana")) == 305 and ledger.balance(HOUSE_RAKE) == 5
    assert ledger.check()
    with pytest.raises(ValueError):
        ledger.settle_hand("t1", "t1-8", {"ana": 305, "bo": 90}, {"ana": 300, "bo": 90}, 0, 4.0)
    assert ledger.settle_hand("t1", "t1-9", {"ana": 305}, {"ana": 305}, 0, 4.0) is None


def test_the_check_finds_a_tampered_balance():
    ledger = funded()
    ledger.balances[cash("ana")] += 1
    assert not ledger.check()


@given(st.lists(st.tuples(st.sampled_from(["ana", "bo", "cy"]), st.sampled_from(["ana", "bo", "cy"]),
                          st.integers(-50, 5_000)), max_size=60))
def test_money_is_conserved_whatever_is_tried(moves):
    ledger = funded(3_000)
    for source, target, amount in moves:
        before = (dict(ledger.balances), len(ledger.transfers))
        try:
            ledger.move(cash(source), cash(target) if source != target else WORLD, amount, "move", "m", 1.0)
        except RuleViolation:
            assert (dict(ledger.balances), len(ledger.transfers)) == before
        assert all(v >= 0 for a, v in ledger.balances.items() if a != WORLD)
        assert sum(ledger.balances.values()) == 0
    assert ledger.check()


def test_AC_6_a_ledger_that_keeps_few_transfers_still_checks_exactly():
    # A long-running room keeps only recent transfers in memory; what older ones
    # did is folded into the opening balances, so the check stays exact.
    bounded, full = Ledger(keep=3), Ledger()
    for ledger in (bounded, full):
        ledger.move(WORLD, cash("ana"), 10_000, "deposit", "d1", 1.0)
        for i in range(10):
            ledger.move(cash("ana"), table_escrow("t1", "ana"), 100, "buy_in", "t1", 2.0 + i)
    assert len(bounded.transfers) == 3 and [t.number for t in bounded.transfers] == [9, 10, 11]
    assert bounded.balances == full.balances and bounded.count == full.count == 11
    assert bounded.check()
    bounded.balances[cash("ana")] += 1                      # a balance that no transfer explains
    assert not bounded.check()
    restored = Ledger.restore(full.balances, list(full.transfers)[-2:], full.count, keep=2)
    assert restored.check() and restored.move(cash("ana"), cash("bo"), 5, "x", "y", 20.0).number == 12
