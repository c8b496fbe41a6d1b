"""The wallet built alone, on a Clock with its recorder: every mutator stores and flags, an overdraft changes
nothing, chips are conserved, deposits are held to the limits the caller read from the store (AC-5, AC-6)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st
from twisted.internet.task import Clock

from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import HOUSE_RAKE, cash, table_escrow, tournament_dollars
from pokerroom.money.ledger import Posting
from pokerroom.players import AccountRules
from pokerroom.shell.recorder import Recorder
from pokerroom.shell.wallet import Wallet

THRESHOLD = 5_000


def wallet_on(store, threshold: int = THRESHOLD) -> tuple[Wallet, Clock]:   # noqa: ANN001
    clock = Clock()
    clock.advance(1_000)
    return Wallet(Recorder(store, clock), clock, AccountRules(aml_threshold=threshold)), clock


def stored(store) -> dict[int, tuple]:   # noqa: ANN001
    """The transfers the store holds, by number: (reason, reference, postings)."""
    return {t.number: (t.reason, t.reference, t.postings) for t in store.ledger.load_ledger().transfers}


def flagged(store) -> list[int]:   # noqa: ANN001
    return [r.data["transfer"] for r in store.audit_log.audit_records("aml_flag")]


def test_AC_6_every_mutator_stores_its_transfer_and_flags_a_large_one_with_no_call_to_remember(store):
    wallet, _ = wallet_on(store)
    small = wallet.deposit("ana", 1_000, None)
    big = wallet.credit("ana", 9_000, "pay-1")
    buy_in = wallet.move(cash("ana"), table_escrow("t1", "ana"), 6_000, "buy_in", "t1")
    void = wallet.transfer([Posting(table_escrow("t1", "ana"), -100), Posting(cash("bob"), 100)], "void", "t1-1")
    assert set(stored(store)) == {small.number, big.number, buy_in.number, void.number}
    assert stored(store)[void.number] == ("void", "t1-1", (Posting(table_escrow("t1", "ana"), -100),
                                                           Posting(cash("bob"), 100)))
    assert flagged(store) == [big.number, buy_in.number]
    assert store.audit_log.audit_chain_intact()


def test_AC_6_a_transfer_stored_with_what_caused_it_is_flagged_at_once_and_left_to_its_caller_to_store(store):
    wallet, _ = wallet_on(store)
    wallet.credit("ana", 9_000, "pay-1")
    held = wallet.move(cash("ana"), tournament_dollars("ana"), 8_000, "tournament", "sng", store=False)
    small = wallet.move(cash("ana"), table_escrow("t1", "ana"), 1_000, "buy_in", "t1", store=False)
    assert held.number not in stored(store) and small.number not in stored(store)
    assert held.number in flagged(store) and small.number not in flagged(store)


def test_AC_6_a_hands_settlement_is_flagged_and_stored_with_the_hand_not_by_the_wallet(store):
    wallet, _ = wallet_on(store, threshold=1_000)          # each buy-in is under it; the pot of three is not
    for player in ("ana", "bob", "cy"):
        wallet.credit(player, 600, f"pay-{player}")
        wallet.move(cash(player), table_escrow("t1", player), 600, "buy_in", "t1")
    start, end = {"ana": 600, "bob": 600, "cy": 600}, {"ana": 0, "bob": 1_750, "cy": 0}
    settlement = wallet.settle_hand("t1", "t1-1", start, end, 50)
    assert settlement is not None and settlement.reason == "hand" and settlement.reference == "t1-1"
    assert flagged(store) == [settlement.number] and settlement.number not in stored(store)
    assert wallet.held(table_escrow("t1", "bob")) == 1_750 and wallet.held(HOUSE_RAKE) == 50
    assert wallet.settle_hand("t1", "t1-2", {"bob": 1_750}, {"bob": 1_750}, 0) is None    # nothing moved


def test_a_transfer_that_would_overdraw_is_refused_and_changes_nothing(store):
    wallet, _ = wallet_on(store)
    wallet.credit("ana", 1_000, "pay-1")
    before = (dict(wallet.books.balances), wallet.books.count, stored(store), flagged(store))
    with pytest.raises(RuleViolation) as refused:
        wallet.move(cash("ana"), table_escrow("t1", "ana"), 1_001, "buy_in", "t1")
    assert refused.value.code == "insufficient_funds"
    with pytest.raises(RuleViolation):
        wallet.transfer([Posting(cash("ana"), -10_000), Posting(cash("bob"), 10_000)], "void", "t1-1")
    assert (dict(wallet.books.balances), wallet.books.count, stored(store), flagged(store)) == before
    assert wallet.balance("ana") == 1_000 and wallet.books.check()


def test_the_books_are_read_only_a_view_has_no_way_to_move_money(store):
    wallet, _ = wallet_on(store)
    wallet.credit("ana", 1_000, "pay-1")
    books = wallet.books
    assert not hasattr(books, "move") and not hasattr(books, "transfer") and not hasattr(wallet, "ledger")
    with pytest.raises(TypeError):
        books.balances[cash("ana")] = 5             # type: ignore[index]
    assert [t.reason for t in books.transfers] == ["deposit"] and books.balance(cash("ana")) == 1_000


@dataclass(frozen=True)
class StoredLimits:
    """What an account row holds of a player's own limits."""

    excluded_until: float | None = None
    deposit_limit: int | None = None


def test_AC_5_a_deposit_is_held_to_the_limits_the_store_holds_and_a_credit_counts_toward_the_day(store):
    wallet, clock = wallet_on(store)
    limits = StoredLimits(deposit_limit=1_000)
    wallet.credit("ana", 700, "pay-1")                  # a provider's approval: counted, never refused
    with pytest.raises(RuleViolation) as over:
        wallet.deposit("ana", 301, limits)
    assert (over.value.code, over.value.rule_id) == ("deposit_limit", "AC-5")
    assert wallet.deposit("ana", 300, limits).size == 300
    with pytest.raises(RuleViolation) as excluded:
        wallet.deposit("ana", 1, StoredLimits(excluded_until=clock.seconds() + 1))
    assert (excluded.value.code, excluded.value.rule_id) == ("self_excluded", "AC-5")
    clock.advance(86_400)
    assert wallet.deposit("ana", 1_000, limits).size == 1_000       # a day on: the limit is whole again
    assert wallet.balance("ana") == 2_000


class TransfersKept:
    """A store double for the property test: the transfers the wallet had stored, and its audit records."""

    def __init__(self) -> None:
        self.saved: list = []
        self.ledger = self
        self.audited: list = []

    def save_transfers(self, transfers: list) -> None:
        self.saved.extend(transfers)

    def audit(self, kind: str, data: dict, at: float) -> None:
        self.audited.append((kind, data))

    @staticmethod
    def batch(calls: list) -> list:
        return [(True, function(*args)) for function, args in calls]


PLACES = [cash("ana"), cash("bob"), table_escrow("t1", "ana"), table_escrow("t1", "bob"), HOUSE_RAKE]


@given(st.lists(st.tuples(st.sampled_from(PLACES), st.sampled_from(PLACES), st.integers(1, 3_000)), max_size=40))
def test_chips_are_conserved_over_any_moves_and_every_move_made_is_stored_once(moves):
    kept = TransfersKept()
    clock = Clock()
    wallet = Wallet(Recorder(kept, clock), clock, AccountRules(aml_threshold=2_500))   # type: ignore[arg-type]
    wallet.credit("ana", 5_000, "pay-1")
    wallet.credit("bob", 5_000, "pay-2")
    made = []
    for source, target, amount in moves:
        try:
            made.append(wallet.move(source, target, amount, "test", "t1"))
        except (RuleViolation, ValueError):
            pass                                        # an overdraft, or a move to where it came from: refused
    balances = wallet.books.balances
    assert sum(balances.values()) == 0 and wallet.books.check()
    assert sum(balances.get(place, 0) for place in PLACES) == 10_000      # every chip the players brought
    assert all(balances.get(place, 0) >= 0 for place in PLACES)
    assert [t.number for t in kept.saved][2:] == [t.number for t in made]
    assert [data["transfer"] for kind, data in kept.audited if kind == "aml_flag"] == [
        t.number for t in (*kept.saved[:2], *made) if t.size >= 2_500]
