"""Tamper tests for the audit log (SEC-1, SEC-5), on SQLite and PostgreSQL: editing, removing or reordering any
record -- or a stored hand or chat line behind one -- is found by ``pokerroom audit verify``, which says where;
cutting records off the end is found against an anchor."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import text, update
from twisted.internet.task import Clock

from pokerroom.cli import main
from pokerroom.money.ledger import WORLD, Ledger, cash
from pokerroom.security.audit import GENESIS, Anchor, record_hash, verify_chain
from pokerroom.store.db import make_engine, migrate, sqlite_url
from pokerroom.store.models import HandRecord
from pokerroom.store.room_store import RoomStore
from tests.support.clocked_room import play_until, player, request
from tests.support.security_room import account, security_room


@dataclass
class Row:
    id: int
    kind: str
    data: dict
    at: float
    previous_hash: str
    hash: str


def chain(n: int) -> list[Row]:
    rows, previous = [], GENESIS
    for i in range(1, n + 1):
        data = {"n": i, "player": f"p{i % 3}"}
        digest = record_hash(previous, "chat", data, float(i))
        rows.append(Row(i, "chat", data, float(i), previous, digest))
        previous = digest
    return rows


def test_SEC_5_an_untouched_chain_verifies_and_names_its_head():
    rows = chain(5)
    verdict = verify_chain(rows, [Anchor(3, rows[2].hash), Anchor(5, rows[4].hash)])
    assert verdict.intact and verdict.count == 5 and verdict.head == rows[-1].hash


def test_SEC_5_an_edited_record_is_named():
    rows = chain(5)
    rows[2].data = {**rows[2].data, "player": "someone else"}
    assert verify_chain(rows).problems == ["record 3 (chat) was edited: its contents no longer match its hash"]


def test_SEC_5_an_edited_and_rehashed_record_breaks_the_next_link():
    rows = chain(5)
    rows[2].data = {"n": 3, "player": "forged"}
    rows[2].hash = record_hash(rows[2].previous_hash, "chat", rows[2].data, rows[2].at)
    [problem] = verify_chain(rows).problems
    assert problem.startswith("record 4 (chat) does not follow record 3 (chat)")


def test_SEC_5_a_removed_record_is_found_between_its_neighbours():
    rows = chain(5)
    del rows[1]
    [problem] = verify_chain(rows).problems
    assert problem.startswith("record 3 (chat) does not follow record 1 (chat): the record between them was removed")


def test_SEC_5_reordered_records_are_named_out_of_order():
    rows = chain(5)
    rows[1], rows[2] = rows[2], rows[1]
    problems = verify_chain(rows).problems
    assert any(p.startswith("record 3 (chat) is out of order") for p in problems), problems
    assert any(p.startswith("record 2 (chat) is out of order") for p in problems), problems


def test_SEC_5_records_cut_off_the_end_are_found_against_an_anchor():
    rows = chain(6)
    anchor = Anchor(6, rows[-1].hash)
    assert verify_chain(rows[:4]).intact                              # alone, a shorter chain looks whole
    [problem] = verify_chain(rows[:4], [anchor]).problems
    assert problem == "the chain has 4 records but an anchor saw 6: records were removed from its end"
    assert Anchor.parse(anchor.line() + " 2026-12-03T10:00:00Z") == anchor


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 12), st.data())
def test_SEC_5_any_one_edit_removal_swap_or_insertion_is_detected(n, data):
    rows = chain(n)
    i = data.draw(st.integers(0, n - 1))
    how = data.draw(st.sampled_from(["edit", "rehash", "remove", "swap", "insert", "kind", "time"]))
    if how == "edit":
        rows[i].data = {**rows[i].data, "player": "x"}
    elif how == "rehash":                                             # edited and its own hash recomputed
        rows[i].data = {"forged": True}
        rows[i].hash = record_hash(rows[i].previous_hash, rows[i].kind, rows[i].data, rows[i].at)
        if i == n - 1:
            return                                                    # the newest record: only an anchor shows it
    elif how == "remove":
        if i == n - 1:
            return                                                    # the end: only an anchor shows it (above)
        del rows[i]
    elif how == "swap":
        j = data.draw(st.integers(0, n - 1).filter(lambda j: j != i))
        rows[i], rows[j] = rows[j], rows[i]
    elif how == "insert":
        forged = Row(0, "chat", {"forged": True}, 0.0, rows[i].previous_hash, "")
        forged.hash = record_hash(forged.previous_hash, forged.kind, forged.data, forged.at)
        rows.insert(i, forged)
    elif how == "kind":
        rows[i].kind = "seat"
    else:
        rows[i].at += 1
    assert not verify_chain(rows).intact


# ---------------------------------------------------------------------------------------- the stored records


@pytest.fixture
def played(store):
    """Two players, three hands and a chat line, stored and chained."""
    clock = Clock()
    room, _ = security_room(store, clock)
    people = {}
    for name in ("ana", "bob"):
        account(store, name)
        people[name] = player(room, name)[0]
        assert request(room, people[name], "join", table="t1", buy_in=1000)["ok"]
    clock.advance(2)
    assert request(room, people["ana"], "chat", table="t1", text="good luck")["ok"]
    play_until(room, clock, 3)
    assert store.audit_log.verify_audit().intact
    return store


def execute(store, sql: str, **params) -> None:                   # noqa: ANN001
    with store.engine.begin() as connection:
        connection.execute(text(sql), params)


def problems(store) -> list[str]:                                 # noqa: ANN001
    return store.audit_log.verify_audit().problems


def test_SEC_1_a_hole_card_changed_in_a_stored_hand_is_found(played):
    store = played
    hand = store.security.hand("t1-2")
    events = [dict(e) for e in hand.events]
    dealt = next(e for e in events if e["type"] == "hole_cards_dealt")
    dealt["cards"] = [51, 50]
    with store.engine.begin() as connection:
        connection.execute(update(HandRecord).where(HandRecord.hand_id == "t1-2").values(events=events))
    assert problems(store) == ["hand t1-2 was changed after it ended: it no longer matches its audit record"]


def test_SEC_1_a_result_changed_a_hand_removed_or_one_added_is_found(played):
    store = played
    execute(store, "UPDATE hands SET rake = rake + 1 WHERE hand_id = 't1-1'")
    execute(store, "DELETE FROM hand_players WHERE hand_id = 't1-3'")
    execute(store, "DELETE FROM hands WHERE hand_id = 't1-3'")
    when = store.security.hand("t1-2").ended_at                               # slipped in among the chained hands
    execute(store, "INSERT INTO hands (hand_id, table_id, started_at, ended_at, void, start_stacks, end_stacks, "
                   "rake, events) VALUES ('t1-99', 't1', :at, :at, true, '{}', '{}', 0, '[]')", at=when)
    assert sorted(problems(store)) == sorted([
        "hand t1-1 was changed after it ended: it no longer matches its audit record",
        "hand t1-3 is in the audit log but was removed from the hands",
        "hand t1-99 has no audit record: it was added afterwards"])


def test_HR_CHAT_1_a_chat_line_edited_deleted_or_forged_is_found(played):
    store = played
    [line] = store.security.search_chat(table="t1")
    execute(store, "UPDATE chat_lines SET text = 'nothing to see' WHERE id = :id", id=line.id)
    assert problems(store) == [f"chat line {line.id} by ana was changed: it no longer matches its audit record"]
    execute(store, "INSERT INTO chat_lines (table_id, hand_id, player_id, text, at, blocked) "
                   "VALUES ('t1', NULL, 'bob', 'forged', :at, false)", at=line.at)
    forged = max(c.id for c in store.security.search_chat(table="t1"))
    assert problems(store)[1:] == [f"chat line {forged} by bob has no audit record: it was added afterwards"]
    execute(store, "DELETE FROM chat_lines WHERE id IN (:a, :b)", a=line.id, b=forged)
    assert problems(store) == [f"chat line {line.id} is in the audit log but was removed from the chat"]


def test_SEC_5_audit_rows_edited_deleted_or_swapped_in_the_database_are_found_and_located(played):
    store = played
    records = store.audit_log.audit_records()
    hand = next(r for r in records if r.kind == "hand")
    execute(store, "UPDATE audit_records SET at = at + 1 WHERE id = :id", id=hand.id)
    assert problems(store) == [f"record {hand.id} (hand) was edited: its contents no longer match its hash"]
    execute(store, "UPDATE audit_records SET at = at - 1 WHERE id = :id", id=hand.id)
    assert problems(store) == []
    middle = records[len(records) // 2]
    execute(store, "DELETE FROM audit_records WHERE id = :id", id=middle.id)
    assert any(f"does not follow record {middle.id - 1} " in p for p in problems(store))


def test_SEC_5_swapped_audit_rows_are_out_of_order(played):
    store = played
    a, b = store.audit_log.audit_records()[2:4]
    swap = ("UPDATE audit_records SET kind = :kind, data = :data, at = :at, previous_hash = :previous, "
            "hash = :hash WHERE id = :id")
    execute(store, "UPDATE audit_records SET previous_hash = 'x', hash = 'y' WHERE id = :id", id=a.id)
    execute(store, swap, id=b.id, kind=a.kind, data=json.dumps(a.data), at=a.at, previous=a.previous_hash,
            hash=a.hash)
    execute(store, swap, id=a.id, kind=b.kind, data=json.dumps(b.data), at=b.at, previous=b.previous_hash,
            hash=b.hash)
    found = problems(store)
    assert any(p.startswith(f"record {a.id} ({b.kind}) is out of order") for p in found), found


def test_SEC_5_pokerroom_audit_verify_and_anchor_on_the_command_line(tmp_path, capsys):
    data = tmp_path / "room"
    store = RoomStore(make_engine(sqlite_url(data)))
    migrate(store.engine)
    for i in range(4):
        store.audit("role_granted", {"nickname": f"p{i}", "role": "security", "by": "operator"}, float(i))
    anchors = tmp_path / "anchors.txt"
    assert main(["audit", "anchor", "--data-dir", str(data), "--anchors", str(anchors)]) == 0
    assert main(["audit", "verify", "--data-dir", str(data), "--anchors", str(anchors)]) == 0
    out = capsys.readouterr().out
    assert "audit log intact: 4 records" in out
    execute(store, "DELETE FROM audit_records WHERE id = 4")
    assert main(["audit", "verify", "--data-dir", str(data), "--anchors", str(anchors)]) == 1
    out = capsys.readouterr().out
    assert "audit log NOT intact" in out and "an anchor saw 4: records were removed from its end" in out
    execute(store, "UPDATE audit_records SET data = '{}' WHERE id = 2")
    assert main(["audit", "verify", "--data-dir", str(data)]) == 1
    assert "record 2 (role_granted) was edited" in capsys.readouterr().out


def test_SEC_5_a_room_writing_while_the_check_reads_is_not_reported(played):
    store = played
    chain = store.audit_log.audit_records()
    late = chain[-1].at + 10                                          # ended after the newest record read
    execute(store, "INSERT INTO hands (hand_id, table_id, started_at, ended_at, void, start_stacks, end_stacks, "
                   "rake, events) VALUES ('t1-50', 't1', :at, :at, false, '{}', '{}', 0, '[]')", at=late)
    assert problems(store) == []
    store.audit("note", {"later": True}, late + 1)                     # the next check covers it
    assert problems(store) == ["hand t1-50 has no audit record: it was added afterwards"]


def test_SEC_5_a_hand_ended_at_a_whole_second_verifies_as_stored(store):
    store.hands.hand_started("t9-1", "t9", 10, {"ana": 100, "bob": 100})
    store.hands.hand_ended("t9-1", 20, {"ana": 110, "bob": 90}, 0, [{"type": "hand_started", "seq": 1}], None,
                           times=[11, 12])
    assert store.audit_log.verify_audit().intact                  # int times are stored (and digested) as floats


def test_SEC_5_audit_records_gathered_in_a_batch_chain_in_call_order_with_hands_and_chat(store):
    """A batch writes its audit records in one statement: the chain still follows the order of the calls."""
    store.audit("note", {"before": True}, 1.0)                      # a head from an earlier transaction
    ledger = Ledger()
    buy_in = ledger.move(WORLD, cash("ana"), 100, "deposit", "ana", 2.0)
    results = store.batch([
        (store.audit, ("seat", {"player": "ana", "seat": 1}, 2.0)),
        (store.ledger.save_transfers, ([buy_in],)),
        (store.hands.hand_started, ("t9-1", "t9", 3.0, {"ana": 100, "bob": 100})),
        (store.audit, ("seat", {"player": "bob", "seat": 2}, 3.5)),
        (store.hands.hand_ended, ("t9-1", 4.0, {"ana": 110, "bob": 90}, 0, [{"type": "hand_started", "seq": 1}], None)),
        (store.audit, ("seat", {"player": "ana", "what": "left", "stacks": [1, 2]}, 5.0)),
        (store.tables.save_chat, ("t9", None, "bob", "gg", 6.0, False)),
        (store.audit, ("seat", {"player": "bob", "what": "left"}, 7.0)),
    ])
    assert all(done for done, _ in results)
    records = store.audit_log.audit_records()
    assert [(r.kind, r.at) for r in records] == [("note", 1.0), ("seat", 2.0), ("seat", 3.5), ("hand", 4.0),
                                                 ("seat", 5.0), ("chat", 6.0), ("seat", 7.0)]
    assert [r.hash for r in records if r.kind == "seat"] == [results[i][1] for i in (0, 3, 5, 7)]
    assert store.audit_log.verify_audit().intact and store.ledger.load_ledger().balances == ledger.balances
    store.audit("note", {"after": True}, 8.0)                       # the next transaction chains on from it
    assert store.audit_log.verify_audit().intact
    assert store.audit_log.audit_records()[-1].previous_hash == records[-1].hash


def test_SEC_1_a_hand_ended_from_its_remembered_start_chains_what_was_stored(store):
    """The store ends a hand from the start it remembers writing; the chain still digests the stored row."""
    store.batch([(store.hands.hand_started, ("t9-1", "t9", 10, {"ana": 100, "bob": 100})),
                 (store.hands.hand_started, ("t9-2", "t9", 11, {"ana": 100, "bob": 100}))])
    store.batch([(store.hands.hand_ended, ("t9-1", 20, {"ana": 110, "bob": 90}, 0, [{"type": "x", "seq": 1}], None)),
                 (store.audit, ("note", {"between": True}, 20.5))])
    assert [r.kind for r in store.audit_log.audit_records()] == ["hand", "note"]
    assert store.audit_log.verify_audit().intact
    execute(store, "UPDATE hands SET ended_at = 30.0, end_stacks = start_stacks WHERE hand_id = 't9-2'")
    with pytest.raises(ValueError, match="hand t9-2 is not open"):     # ended behind this store's back
        store.hands.hand_ended("t9-2", 31.0, {"ana": 100, "bob": 100}, 0, [], None)
    with pytest.raises(ValueError, match="hand t9-1 is not open"):     # a hand ends once
        store.hands.hand_ended("t9-1", 32.0, {"ana": 110, "bob": 90}, 0, [], None)
    assert [r.kind for r in store.audit_log.audit_records()] == ["hand", "note"]  # neither refusal chained anything


def test_a_records_reference_is_found_by_the_database_among_others_of_its_kind(store):
    """A deposit's credit asks for the records naming its reference, on SQLite and PostgreSQL alike."""
    store.audit("cashier_deposit_asked", {"reference": "r-1", "player": "ana", "amount": 5}, 1.0)
    store.audit("cashier_deposit_asked", {"reference": "r-2", "player": "bo", "amount": 7}, 2.0)
    store.audit("cashier_deposit_refused", {"reference": "r-1"}, 3.0)
    assert [r.data for r in store.audit_log.audit_records_naming("cashier_deposit_asked", "r-2")] == [
        {"reference": "r-2", "player": "bo", "amount": 7}]
    assert [r.at for r in store.audit_log.audit_records_naming("cashier_deposit_refused", "r-1")] == [3.0]
    assert store.audit_log.audit_records_naming("cashier_deposit_refused", "r-2") == []
