"""The seat rows a takeover reads (issue 21), on SQLite and PostgreSQL: built as the model has them, kept by sits and
leaves, and filled at the upgrade from the seat audit records they replace."""

from __future__ import annotations

import pytest

from pokerroom.store.db import migrate
from pokerroom.store.lease_records import LeaseLost, resource
from pokerroom.store.room_store import RoomStore
from tests.support.migrations import differences, downgrade


def test_the_migration_builds_the_seat_table_as_the_model_has_it(engine):
    assert differences(engine, "table_seats") == []


def test_a_sit_keeps_one_row_a_seat_and_a_leave_takes_it_away(engine):
    tables = RoomStore(engine).tables
    tables.seat_taken("t1", "ana", 2)
    tables.seat_taken("t1", "bob", 5)
    tables.seat_taken("t2", "ana", 1)
    tables.seat_taken("t1", "ana", 3)                   # sat again (a takeover, or back at another seat)
    tables.seat_left("t1", "bob")
    assert tables.seats_at("t1") == {"ana": 3}
    assert tables.seats_at("t2") == {"ana": 1}
    assert tables.seats_at("t3") == {}


def test_a_seat_change_keeps_its_audit_record_and_its_seat_row_in_one_write(engine):
    store = RoomStore(engine)
    sat = {"what": "joined", "table": "t1", "player": "ana", "seat": 2, "stack": 600}
    store.tables.seat_changed("t1", "ana", 2, sat, 10.0)
    store.tables.seat_changed("t1", "bob", 5, {**sat, "player": "bob", "seat": 5}, 11.0)
    store.tables.seat_changed("t1", "bob", None, {"what": "left", "table": "t1", "player": "bob", "seat": 5}, 12.0)
    assert store.tables.seats_at("t1") == {"ana": 2}
    assert [(r.data["what"], r.data["player"], r.at) for r in store.audit_log.audit_records("seat")] == [
        ("joined", "ana", 10.0), ("joined", "bob", 11.0), ("left", "bob", 12.0)]
    assert store.audit_log.verify_audit().intact


def test_a_fenced_out_seat_change_stores_neither_its_audit_record_nor_its_seat_row(engine):
    """A former owner's late sit, refused by its table's lease: a takeover reading the seat rows finds no seat the
    audit log does not show, nor the reverse."""
    store = RoomStore(engine)
    cash_t1 = resource("cash", "t1")
    epoch = store.leases.claim(cash_t1, "east", 6.0, 0.0)
    store.leases.claim(cash_t1, "west", 6.0, 6.0)                      # run out, and taken over
    with pytest.raises(LeaseLost):
        store.leases.fenced([(cash_t1, "east", epoch)], store.tables.seat_changed, "t1", "ana", 2,
                            {"what": "joined", "table": "t1", "player": "ana", "seat": 2, "stack": 600}, 7.0)
    assert store.tables.seats_at("t1") == {} and store.audit_log.audit_records("seat") == []


def test_the_upgrade_fills_the_seat_rows_from_the_seat_audit_history(engine):
    downgrade(engine, "0010_ledger_numbers")
    store = RoomStore(engine)
    history = [("joined", "ana", 2), ("joined", "bob", 5), ("sat_out", "ana", 2), ("left", "bob", 5),
               ("joined", "cy", 4), ("left", "ana", 2), ("joined", "ana", 6)]
    for i, (what, player, seat) in enumerate(history):
        store.audit("seat", {"what": what, "table": "t1", "player": player, "seat": seat}, 10.0 + i)
    store.audit("seat", {"what": "joined", "table": "t2", "player": "dee", "seat": 1}, 20.0)
    migrate(engine)
    assert store.tables.seats_at("t1") == {"ana": 6, "cy": 4}
    assert store.tables.seats_at("t2") == {"dee": 1}
