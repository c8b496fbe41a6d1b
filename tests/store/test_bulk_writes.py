"""The busy writer's rows as the driver writes them (issue 36), on SQLite and PostgreSQL: many hands and transfers in
one batch land whole (more rows than one SQLite statement binds), read back as written, chained with the digest a
check recomputes from the stored row (SEC-1), and a batch that fails leaves nothing of its rows behind."""

from __future__ import annotations

import pytest

from pokerroom.money import WORLD, Ledger, cash
from pokerroom.money.accounts import table_escrow
from pokerroom.store.transactions import hand_digest


def _hand(n: int, players: int = 3) -> tuple[tuple, tuple]:
    names = [f"p{n}x{i}" for i in range(players)]
    start = {name: 400 + i for i, name in enumerate(names)}
    events = [{"type": "hand_started", "hand_id": f"t-{n}", "seats": [(1, names[0])], "zed": 1, "alpha": "é"},
              {"type": "hand_ended", "stacks": [[1, 410]], "rake": 1, "nested": {"b": 2, "a": [1.5, None]}}]
    end = dict(start) | {names[0]: start[names[0]] + 10, names[1]: start[names[1]] - 11}
    return ((f"t-{n}", "t", 100.0 + n, start),
            (f"t-{n}", 200.5 + n, end, 1, events, None, None, [100.0 + n, 200.25 + n]))


def test_SEC_1_a_batch_of_many_hands_lands_whole_and_each_stored_row_matches_its_chained_digest(store):
    hands = [_hand(n) for n in range(400)]           # 2,800 start values: several SQLite statements
    results = store.batch([(store.hands.hand_started, started) for started, _ in hands])
    assert all(done for done, _ in results)
    results = store.batch([(store.hands.hand_ended, ended) for _, ended in hands])
    assert all(done for done, _ in results)
    stored = {hand.hand_id: hand for hand in store.security.hands_by_id([f"t-{n}" for n in range(400)])}
    assert len(stored) == 400
    row = stored["t-7"]
    assert row.end_stacks == hands[7][1][2]
    assert row.events[0]["seats"] == [[1, "p7x0"]] and row.events[0]["alpha"] == "é"
    assert row.event_times == [107.0, 207.25] and row.start_stacks == hands[7][0][3] and row.void is False
    digests = {r.data["hand_id"]: r.data["digest"] for r in store.audit_log.audit_records("hand")}
    assert all(digests[hand_id] == hand_digest(hand) for hand_id, hand in stored.items())
    assert store.audit_log.verify_audit().intact
    assert store.hands.hands_of("p7x1", 5)[0].hand_id == "t-7"


def test_many_transfers_in_one_batch_keep_their_postings_and_balances(store):
    ledger = Ledger()
    deposits = [ledger.move(WORLD, cash(f"p{n}"), 1_000 + n, "deposit", f"p{n}", 1.0) for n in range(700)]
    buy_ins = [ledger.move(cash(f"p{n}"), table_escrow("t", f"p{n}"), 500, "buy-in", "t", 2.0) for n in range(700)]
    store.batch([(store.ledger.save_transfers, (deposits,)), (store.ledger.save_transfers, (buy_ins,))])
    stored = store.ledger.load_ledger()
    assert stored.balance(cash("p699")) == 1_199 and stored.balance(table_escrow("t", "p3")) == 500
    assert store.ledger.ledger_check()


def test_a_batch_that_fails_leaves_none_of_its_gathered_rows(store):
    (started, ended), (other, _) = _hand(1), _hand(2)
    store.hands.hand_started(*started)
    with pytest.raises(ValueError):                 # a hand ending twice in one transaction: refused whole
        store.together([(store.hands.hand_started, other), (store.hands.hand_ended, ended),
                        (store.hands.hand_ended, ended)])
    assert [h.hand_id for h in store.hands.open_hands()] == ["t-1"]
    assert store.audit_log.verify_audit().intact
    store.hands.hand_ended(*ended)
    assert store.hands.open_hands() == [] and store.audit_log.verify_audit().intact
