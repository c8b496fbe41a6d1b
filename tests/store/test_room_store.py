"""The store on SQLite and PostgreSQL: migrations, the ledger, hands, crash recovery, seating memory."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect, update

from pokerroom.money import HOUSE_RAKE, WORLD, Ledger, cash, table_escrow
from pokerroom.store.db import migrate
from pokerroom.store.models import AuditRecord
from pokerroom.table.seating_history import Arrival, Departure


def test_migrations_build_the_whole_schema_and_are_idempotent(engine):
    tables = set(inspect(engine).get_table_names())
    assert {"accounts", "ledger_transfers", "ledger_postings", "ledger_balances", "hands", "hand_players",
            "chat_lines", "connections", "hit_and_run_refusals", "departures", "audit_records",
            "alembic_version"} <= tables
    migrate(engine)                                     # already at the newest: nothing to do


def test_AC_6_transfers_are_stored_with_their_balances_and_reload_exactly(store):
    ledger = Ledger()
    transfers = [ledger.move(WORLD, cash("ana"), 10_000, "deposit", "dep-1", 1.0),
                 ledger.move(cash("ana"), table_escrow("t1", "ana"), 4_000, "buy_in", "t1", 2.0)]
    store.ledger.save_transfers(transfers)
    loaded = store.ledger.load_ledger()
    assert loaded.transfers == ledger.transfers and loaded.balances == ledger.balances
    assert store.ledger.ledger_check()


def settle_a_hand(store, ledger: Ledger, hand_id: str, end: dict[str, int], rake: int) -> None:
    start = {"ana": 4_000, "bo": 4_000}
    store.hands.hand_started(hand_id, "t1", 10.0, start)
    settlement = ledger.settle_hand("t1", hand_id, start, end, rake, 20.0)
    store.hands.hand_ended(hand_id, 20.0, end, rake, [{"type": "hand_started", "seq": 1}], settlement)


def funded_table(store) -> Ledger:
    ledger = Ledger()
    moves = []
    for player in ("ana", "bo"):
        moves.append(ledger.move(WORLD, cash(player), 10_000, "deposit", f"dep-{player}", 1.0))
        moves.append(ledger.move(cash(player), table_escrow("t1", player), 4_000, "buy_in", "t1", 2.0))
    store.ledger.save_transfers(moves)
    return ledger


def test_HR_RAKE_2_a_hand_its_events_and_its_settlement_land_together(store):
    ledger = funded_table(store)
    settle_a_hand(store, ledger, "t1-1", {"ana": 4_950, "bo": 3_000}, 50)
    reloaded = store.ledger.load_ledger()
    assert reloaded.balance(table_escrow("t1", "ana")) == 4_950 and reloaded.balance(HOUSE_RAKE) == 50
    (hand,) = store.hands.hands_of("ana", 10)
    assert (hand.hand_id, hand.rake, hand.end_stacks, hand.void) == ("t1-1", 50, {"ana": 4_950, "bo": 3_000},
                                                                      False)
    with pytest.raises(ValueError):
        store.hands.hand_ended("t1-1", 30.0, {}, 0, [], None)     # a hand ends once
    assert store.ledger.ledger_check()


def test_TR_REFUND_1_a_hand_open_at_a_crash_is_void_and_every_stack_returns_to_its_start(store):
    ledger = funded_table(store)
    settle_a_hand(store, ledger, "t1-1", {"ana": 4_500, "bo": 3_500}, 0)
    store.hands.hand_started("t1-2", "t1", 30.0, {"ana": 4_500, "bo": 3_500})   # ... and the server dies
    after_restart = store.ledger.load_ledger()
    recovery = store.hands.recover(after_restart, 40.0)
    assert recovery.voided_hands == ("t1-2",)
    assert store.hands.open_hands() == []
    final = store.ledger.load_ledger()
    assert final.balance(cash("ana")) == 6_000 + 4_500 and final.balance(cash("bo")) == 6_000 + 3_500
    assert final.balance(table_escrow("t1", "ana")) == 0 and final.check() and store.ledger.ledger_check()
    voided = [h for h in store.hands.hands_of("ana", 10) if h.hand_id == "t1-2"][0]
    assert voided.void and voided.end_stacks == voided.start_stacks


def test_HR_HNR_2_HR_STAKE_3_refusals_and_departures_outlive_a_restart(store):
    store.tables.record_refusal("ana", "50/100 USD", 100.0)
    store.tables.record_refusal("ana", "50/100 USD", 200.0)
    store.tables.record_departure("ana", "NLHE 50/100 USD", Departure("t1", 9_000, 150.0))
    assert store.tables.refusals_since(150.0) == [("ana", "50/100 USD", 200.0)]
    store.tables.record_arrival("ana", "NLHE 50/100 USD", Arrival("t2", 9_000, 160.0))     # the sit that settles it
    assert store.tables.departures_since(0.0) == [("ana", "NLHE 50/100 USD", Departure("t1", 9_000, 150.0))]
    assert store.tables.arrivals_since(155.0) == [("ana", "NLHE 50/100 USD", Arrival("t2", 9_000, 160.0))]


def test_AC_3_a_nickname_is_unique_in_any_letter_case(store):
    from pokerroom.errors import RuleViolation

    store.accounts.create_account("Ana", "ana", "hash", "1990-01-01", "NL", 1.0)
    with pytest.raises(RuleViolation) as taken:
        store.accounts.create_account("ANA", "ana", "hash", "1990-01-01", "NL", 2.0)
    assert taken.value.code == "nickname_taken"
    assert store.accounts.find_account("ana").nickname == "Ana" and store.accounts.find_account("bo") is None


def test_HR_CHAT_1_every_chat_line_is_kept_even_when_blocked(store):
    store.tables.save_chat("t1", "t1-3", "ana", "nice hand", 5.0, False)
    store.tables.save_chat("t1", None, "bo", "www.spam.example", 6.0, True)
    assert [(c.player_id, c.hand_id, c.blocked) for c in store.tables.chat_of("t1")] == [("ana", "t1-3", False),
                                                                                         ("bo", None, True)]


def test_connections_are_kept_with_ip_and_times(store):
    record = store.accounts.connection_opened("ana", "10.0.0.7", "device-1", 10.0)
    store.accounts.connection_closed(record, 25.0)
    (c,) = store.accounts.connections_of("ana")
    assert (c.ip, c.device_id, c.connected_at, c.disconnected_at) == ("10.0.0.7", "device-1", 10.0, 25.0)


def test_AC_6_the_ledger_reloads_its_balances_and_only_its_recent_transfers(store):
    ledger = Ledger()
    transfers = [ledger.move(WORLD, cash("ana"), 10_000, "deposit", "ana", 1.0),
                 ledger.move(WORLD, cash("bo"), 500, "deposit", "bo", 2.0)]
    transfers += [ledger.move(cash("ana"), table_escrow("t1", "ana"), 100, "buy_in", "t1", 3.0 + i) for i in range(5)]
    store.ledger.save_transfers(transfers)
    loaded = store.ledger.load_ledger(keep=2)
    assert loaded.balances == ledger.balances and loaded.count == 7
    assert [t.number for t in loaded.transfers] == [6, 7] and loaded.check()
    assert [t.number for t in store.ledger.transfers_touching([cash("bo")], 10)] == [2]
    assert [t.number for t in store.ledger.transfers_touching([cash("ana"), table_escrow("t1", "ana")], 3)] == [7, 6, 5]
    assert store.cashier.deposits_since(1.5) == [("bo", 500, 2.0)]           # the deposit limit's memory (AC-5)


def test_a_batch_is_one_transaction_and_a_failing_step_fails_alone(store):
    ledger = Ledger()
    deposit = ledger.move(WORLD, cash("ana"), 100, "deposit", "ana", 1.0)
    calls = [(store.accounts.create_account, ("Ana", "ana", "hash", "1990-01-01", "NL", 1.0)),
             (store.ledger.save_transfers, ([deposit],)),
             (store.accounts.create_account, ("ANA", "ana", "hash", "1990-01-01", "NL", 2.0)),    # taken (AC-3)
             (store.accounts.find_account, ("ana",))]
    results = store.batch(calls)
    assert [done for done, _ in results] == [True, True, False, True]
    assert results[2][1].code == "nickname_taken" and results[3][1].nickname == "Ana"
    assert store.ledger.load_ledger().balances == ledger.balances and store.ledger.ledger_check()
    results = store.batch([(store.accounts.find_account, ("ana",)), (store.hands.hands_of, ("Ana", 5))])
    assert results[0][0] and results[0][1].nickname == "Ana" and results[1] == (True, [])


def test_SEC_5_audit_records_chain_and_any_edit_breaks_the_chain(store):
    first = store.audit("aml_flag", {"transfer": 1, "size": 2_000_000}, 5.0)
    second = store.audit("nickname_reset", {"player": "Ana", "reason": "bumhunted"}, 6.0)
    records = store.audit_log.audit_records()
    assert [r.hash for r in records] == [first, second] and records[1].previous_hash == first
    assert store.audit_log.audit_chain_intact()
    assert [r.kind for r in store.audit_log.audit_records("aml_flag")] == ["aml_flag"]
    with store.session_maker.begin() as session:                 # someone edits history behind the room's back
        session.execute(update(AuditRecord).where(AuditRecord.hash == first).values(data={"transfer": 1, "size": 1}))
    assert not store.audit_log.audit_chain_intact()


def test_directors_tables_are_kept_until_closed_and_their_ids_stay_used(store):
    store.tables.save_cash_table("nl-a", {"id": "nl-a", "variant": "NLHE", "small_blind": 5}, "boss", 10.0)
    store.tables.save_cash_table("nl-b", {"id": "nl-b", "variant": "PLO", "small_blind": 10}, "boss", 20.0)
    assert [(r.id, r.definition["variant"], r.opened_by) for r in store.tables.open_cash_tables()] == \
        [("nl-a", "NLHE", "boss"), ("nl-b", "PLO", "boss")]
    store.tables.cash_table_closed("nl-a", 30.0)
    assert [r.id for r in store.tables.open_cash_tables()] == ["nl-b"]
    assert store.tables.cash_table_ids() == {"nl-a", "nl-b"}


def test_director_activity_is_the_newest_director_commands_of_one_tournament_or_all(store):
    for i, tournament in enumerate(["a", "b", "a", "c", "a"]):
        store.audit("director_command", {"command": f"c{i}", "tournament": tournament, "by": "boss"}, float(i))
        store.audit("chat", {"text": "not a command"}, float(i))
    assert [r.data["command"] for r in store.audit_log.director_activity(10)] == ["c4", "c3", "c2", "c1", "c0"]
    assert [r.data["command"] for r in store.audit_log.director_activity(2, "a")] == ["c4", "c2"]
    assert store.audit_log.director_activity(5, "nowhere") == []


def test_histories_come_in_pages_before_a_cursor(store):
    ledger = funded_table(store)
    for n in range(1, 6):
        settle_a_hand(store, ledger, f"t1-{n}", {"ana": 4_000, "bo": 4_000}, 0)
    first = store.hands.hands_of("ana", 2)
    second = store.hands.hands_of("ana", 2, before=first[-1].id)
    last = store.hands.hands_of("ana", 2, before=second[-1].id)
    assert [h.hand_id for h in first + second + last] == ["t1-5", "t1-4", "t1-3", "t1-2", "t1-1"]
    accounts = [cash("ana"), table_escrow("t1", "ana")]
    newest = store.ledger.transfers_touching(accounts, 3)
    older = store.ledger.transfers_touching(accounts, 3, before=newest[-1].number)
    numbers = [t.number for t in newest + older]
    assert numbers == sorted(numbers, reverse=True) and len(set(numbers)) == len(numbers)
    assert store.ledger.transfers_touching(accounts, 100, before=1) == []


def test_processes_starting_together_on_a_fresh_postgresql_database_migrate_it_once_each_unharmed():
    """Several processes of one room, started at once on an empty database: each migrates, none fails, and the
    schema is whole (issue 21: without the migration's advisory lock two of them both created the tables)."""
    from pokerroom.store.db import make_engine
    from tests.support.databases import postgres_database
    from tests.support.together import at_once

    with postgres_database() as url:
        engines = [make_engine(url) for _ in range(4)]
        try:
            assert at_once(*(lambda engine=engine: migrate(engine) for engine in engines)) == [None] * 4
            assert {"accounts", "table_leases", "ledger_numbers"} <= set(inspect(engines[0]).get_table_names())
        finally:
            for engine in engines:
                engine.dispose()
