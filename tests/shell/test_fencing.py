"""A table's writes fenced by its lease (issue 21): a process that hung past its lease and wakes has its late writes
for the table refused as a whole, drops the table at once, and the new owner's table and the ledger are untouched.

Two rooms ("nodes") over one database, each on its own Clock (tests/support/leased_rooms.py): east owns ``t1``
and hangs -- its Clock stops -- west takes ``t1`` over at the next epoch, then east goes on where it stopped, its
keeper not yet having noticed: what it writes of ``t1`` carries the epoch it held."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import event, text
from twisted.internet.task import Clock
from twisted.logger import formatEvent, globalLogPublisher

from pokerroom.money.accounts import cash
from pokerroom.shell.leases import TTL
from pokerroom.shell.promotions_desk import fund_promotions
from pokerroom.store.db import make_engine, migrate
from pokerroom.store.lease_records import LeaseLost
from pokerroom.store.room_store import RoomStore
from tests.support.clocked_room import make_room, player, request, resolved, settle
from tests.support.leased_rooms import (
    BUY_IN,
    ROULETTE,
    SIT_AND_GO,
    START,
    dealt,
    director,
    directors_sit_and_go,
    nodes,
    sit_and_go,
)
from tests.support.together import shared_database


@pytest.fixture(params=["postgresql", "sqlite"])
def database(request, tmp_path) -> Iterator[str]:   # noqa: ANN001
    with shared_database(request.param, tmp_path) as url:
        yield url


def _stored(store: RoomStore) -> dict:
    """What the database holds of the tables' play and money: hands, seat and hand records, transfers, balances."""
    with store.engine.connect() as c:
        return {
            "hands": sorted(tuple(r) for r in c.execute(text("SELECT hand_id, ended_at, void FROM hands"))),
            "audits": sorted(tuple(r) for r in c.execute(text(
                "SELECT kind, COUNT(*) FROM audit_records WHERE kind IN ('seat', 'hand') GROUP BY kind"))),
            "transfers": c.execute(text("SELECT COUNT(*) FROM ledger_transfers")).scalar_one(),
            "balances": dict(tuple(r) for r in c.execute(text("SELECT account, balance FROM ledger_balances"))),
        }


def _lease_reads(engine) -> list[str]:   # noqa: ANN001 - an Engine
    """The statements run on ``engine`` that read the leases, from now on (listened to)."""
    seen: list[str] = []

    def note(conn, cursor, statement, *_):   # noqa: ANN001, ANN002, ANN202
        if "table_leases" in statement and statement.lstrip().upper().startswith("SELECT"):
            seen.append(statement)

    event.listen(engine, "before_cursor_execute", note)
    return seen


@pytest.fixture
def said() -> Iterator[list[str]]:
    """Every log line while the test runs, as formatted."""
    lines: list[str] = []

    def observe(e: dict) -> None:
        if e.get("log_format"):
            lines.append(formatEvent(e))

    globalLogPublisher.addObserver(observe)
    yield lines
    globalLogPublisher.removeObserver(observe)


def _dealt_then_taken_over(east, west) -> dict:   # noqa: ANN001
    """ana and bob sit at east's t1 and are dealt a hand; east hangs and west takes t1 over: the sessions on east."""
    seated = {}
    for seat, name in enumerate(("ana", "bob"), start=1):
        session, _ = player(east, name)
        assert request(east, session, "join", table="t1", buy_in=BUY_IN, seat=seat)["ok"]
        seated[name] = session
    dealt(east)
    assert east.tenancy.keeper.epoch("cash:t1") == 1
    west.reactor.advance(TTL + TTL / 3)                         # east's clock stopped: its lease ran out
    settle(west)
    assert west.tenancy.keeper.epoch("cash:t1") == 2 and "t1" in west.tables.runners
    assert "t1" in east.tables.runners                          # east has not noticed: it still believes epoch 1
    return seated


def test_a_hung_owners_hand_end_is_refused_whole_and_it_drops_the_table(database, said):
    with nodes(database, "east", "west") as (east, west):
        seated = _dealt_then_taken_over(east, west)
        before = _stored(west.store)
        taken = west.tables.runners["t1"].table
        west_stacks = {seat: p.stack for seat, p in taken.players.items()}

        table = east.tables.runners["t1"].table                 # east wakes mid-hand: the player to act folds
        name = table.players[table.clock.seat].player_id
        legal = table.legal_actions(name)
        answer = resolved(request(east, seated[name], "act", table="t1", decision=legal.decision, action="fold"))
        settle(east)

        assert "type" in answer                                 # answered, not a traceback
        assert "t1" not in east.tables.runners                  # dropped at once, as a lost lease is
        assert east.tenancy.keeper.epoch("cash:t1") is None
        assert _stored(west.store) == before                    # nothing of the hand's end or its settlement
        assert {seat: p.stack for seat, p in taken.players.items()} == west_stacks
        assert west.tenancy.keeper.epoch("cash:t1") == 2        # west's lease untouched
        assert west.store.ledger.ledger_check() and west.store.ledger.ledger_problems() == []
        assert any("a write of cash:t1 was refused" in line and "nothing of the write was stored" in line
                   for line in said)


def test_a_hung_owners_seat_record_is_refused_and_it_drops_the_table(database):
    with nodes(database, "east", "west") as (east, west):
        seated = _dealt_then_taken_over(east, west)
        before = _stored(west.store)

        answer = resolved(request(east, seated["ana"], "sit_out", table="t1"))   # east wakes: ana sits out
        settle(east)

        assert not answer["ok"] and answer["error"]["code"] == "no_such_table", answer
        assert _stored(west.store) == before                    # no seat record of east's lands
        assert "t1" not in east.tables.runners
        assert west.store.ledger.ledger_check() and west.store.ledger.ledger_problems() == []


def test_a_hung_owners_buy_in_is_refused_and_no_money_leaves_the_wallet(database):
    with nodes(database, "east", "west") as (east, west):
        _dealt_then_taken_over(east, west)
        cyd, _ = player(east, "cyd")
        before = _stored(west.store)

        answer = resolved(request(east, cyd, "join", table="t1", buy_in=BUY_IN, seat=3))
        settle(east)

        assert not answer["ok"] and answer["error"]["code"] == "no_such_table", answer
        assert "t1" not in east.tables.runners
        assert _stored(west.store) == before                    # the buy-in's move never landed
        assert west.store.ledger.balances([cash("cyd")])[cash("cyd")] == 10_000
        assert west.wallet.balance("cyd") == east.wallet.balance("cyd") == 10_000
        assert west.store.ledger.ledger_check() and west.store.ledger.ledger_problems() == []


def test_a_hung_owners_casino_stake_is_refused_and_it_drops_the_casino_table(database):
    with nodes(database, "east", "west", config=ROULETTE) as (east, west):
        east.reactor.advance(0)                                 # its first round opens
        session, _ = player(east, "ana")
        assert request(east, session, "casino_join", table="rou")["ok"]
        west.reactor.advance(TTL + TTL / 3)                     # east hangs: west takes the table over
        settle(west)
        assert set(west.casino_floor.tables) == {"rou"} and "rou" in east.casino_floor.tables
        before = _stored(west.store)

        bet = resolved(request(east, session, "casino_bet", table="rou", market="red", amount=2_500))
        settle(east)

        assert not bet["ok"] and bet["error"]["code"] == "unknown_table", bet
        assert _stored(west.store) == before                    # the stake never left the wallet
        assert east.casino_floor.tables == {}
        assert west.wallet.balance("ana") == 10_000
        assert west.store.ledger.ledger_check() and west.store.ledger.ledger_problems() == []


def test_a_hung_directors_registration_is_refused_and_it_drops_the_event(database):
    with nodes(database, "east", "west", config=SIT_AND_GO) as (east, west):
        directors_sit_and_go(east)
        ana, _ = player(east, "ana")
        assert request(east, ana, "tournament_register", tournament="sng")["ok"]
        bob, _ = player(east, "bob")
        west.reactor.advance(TTL + TTL / 3)                     # east hangs: west takes the event over
        settle(west)
        assert west.tenancy.keeper.epoch("tournament:sng") == 2
        before = _stored(west.store)

        answer = resolved(request(east, bob, "tournament_register", tournament="sng"))
        settle(east)

        assert not answer["ok"] and answer["error"]["code"] == "unknown_tournament", answer
        assert _stored(west.store) == before                    # bob's entry never left his wallet
        assert "sng" not in east.hall.directors
        assert west.wallet.balance("bob") == 10_000
        assert west.store.ledger.ledger_check() and west.store.ledger.ledger_problems() == []


def test_a_fence_is_read_once_per_batch_and_refuses_only_the_fenced_writes(database):
    engine = make_engine(database)
    migrate(engine)
    store = RoomStore(engine)
    try:
        assert store.leases.claim("cash:t1", "east", TTL, START) == 1
        fence = ("cash:t1", "east", 1)
        reads = _lease_reads(engine)
        store.batch([(store.leases.fenced, ((fence,), store.audit, "seat", {"table": "t1", "n": n}, START))
                     for n in range(3)])
        assert len(reads) == 1                                  # one lease row read for the batch's three writes

        assert store.leases.claim("cash:t1", "west", TTL, START + TTL) == 2     # ran out; west's now
        results = store.batch([
            (store.leases.fenced, ((fence,), store.audit, "seat", {"table": "t1", "late": True}, START + TTL)),
            (store.audit, ("seat", {"table": "t2"}, START + TTL)),
        ])
        assert not results[0][0] and isinstance(results[0][1], LeaseLost)
        assert results[1][0]                                    # another table's write in the batch still lands
        tables = [r.data.get("table") for r in store.audit_log.audit_records_naming("seat", "t1", field="table")]
        assert tables == ["t1"] * 3                             # the late write: nothing of it
    finally:
        engine.dispose()


def test_one_process_reads_no_lease_to_write(tmp_path):
    store = RoomStore(make_engine(f"sqlite:///{tmp_path / 'one.db'}"))
    migrate(store.engine)
    clock = Clock()
    room = make_room(store, clock)
    reads = _lease_reads(store.engine)
    for name in ("ana", "bob"):
        session, _ = player(room, name)
        assert request(room, session, "join", table="t1", buy_in=BUY_IN)["ok"]
    clock.advance(5)
    assert room.tables.runners["t1"].table.hand is not None
    assert not room.recorder.fencing and reads == []            # no keeper: no fence, no lease read
    store.engine.dispose()


def _seating_rows(store: RoomStore) -> dict:
    """The seating history as stored: each player's leaves and sits (by table) and hit-and-run refusals."""
    with store.engine.connect() as c:
        return {
            "moves": sorted(tuple(r) for r in c.execute(text(
                "SELECT player_id, table_id, arrived, stack FROM departures"))),
            "refusals": sorted(tuple(r) for r in c.execute(text(
                "SELECT player_id, blind_level FROM hit_and_run_refusals"))),
        }


def test_a_hung_owners_departure_is_refused_and_nothing_of_the_leave_lands(database):
    with nodes(database, "east", "west") as (east, west):
        for seat, name in enumerate(("ana", "bob"), start=1):
            session, _ = player(east, name)
            assert request(east, session, "join", table="t1", buy_in=BUY_IN, seat=seat)["ok"]
        dealt(east)
        cyd, _ = player(east, "cyd")
        assert request(east, cyd, "join", table="t1", buy_in=BUY_IN, seat=3)["ok"]   # waits: not dealt in
        west.reactor.advance(TTL + TTL / 3)                     # east hangs: west takes t1 over, cyd seated there
        settle(west)
        assert west.tables.runners["t1"].table.seat_of("cyd") == 3
        before, seating = _stored(west.store), _seating_rows(west.store)

        answer = resolved(request(east, cyd, "leave", table="t1"))    # east wakes: cyd leaves at once
        settle(east)

        assert not answer["ok"] and answer["error"]["code"] == "no_such_table", answer
        assert "t1" not in east.tables.runners                  # dropped, as a lost lease is
        assert _seating_rows(west.store) == seating             # no departure of cyd's from t1
        assert _stored(west.store) == before
        assert west.tables.runners["t1"].table.seat_of("cyd") == 3
        assert west.store.ledger.ledger_check() and west.store.ledger.ledger_problems() == []


def test_a_hung_owners_hit_and_run_refusal_is_refused_and_not_stored(database):
    with nodes(database, "east", "west") as (east, west):
        seated = _dealt_then_taken_over(east, west)
        before, seating = _stored(west.store), _seating_rows(west.store)
        table = east.tables.runners["t1"].table
        name = next(p.player_id for seat, p in table.players.items() if seat != table.clock.seat)

        # east wakes: a player dealt in leaves after one hand, not their turn -- a refusal (HR-HNR-1), their
        # leave itself waits for the hand's end
        answer = resolved(request(east, seated[name], "leave", table="t1"))
        settle(east)

        assert not answer["ok"] and answer["error"]["code"] == "no_such_table", answer
        assert "t1" not in east.tables.runners
        assert _seating_rows(west.store) == seating             # no refusal of theirs at 5/10 stored
        assert _stored(west.store) == before
        assert west.tables.runners["t1"].table.seat_of(name) is not None


def _event_rows(store: RoomStore) -> dict:
    """What the database holds of the events: their rows, their records in the audit chain, the money."""
    with store.engine.connect() as c:
        return {
            "events": sorted(tuple(r) for r in c.execute(text("SELECT id, state FROM tournaments"))),
            "records": sorted(tuple(r) for r in c.execute(text(
                "SELECT kind, COUNT(*) FROM audit_records WHERE kind LIKE 'tournament%' GROUP BY kind"))),
            "transfers": c.execute(text("SELECT COUNT(*) FROM ledger_transfers")).scalar_one(),
            "balances": dict(tuple(r) for r in c.execute(text("SELECT account, balance FROM ledger_balances"))),
        }


def test_a_hung_directors_creation_is_refused_whole_and_nothing_of_the_event_lands(database):
    with nodes(database, "east", "west", config=SIT_AND_GO) as (east, west):
        boss = director(east)
        east.tenancy.keeper.hold("tournament:sng")              # east's claim of the new event's lease landed ...
        settle(east)
        assert east.tenancy.keeper.epoch("tournament:sng") == 1
        west.reactor.advance(TTL + TTL / 3)                     # ... and east hung before writing its creation
        settle(west)
        assert west.tenancy.keeper.epoch("tournament:sng") == 2
        before = _event_rows(west.store)

        answer = resolved(sit_and_go(east, boss))               # east wakes: its director's event is made
        settle(east)

        assert not answer["ok"] and answer["error"]["code"] == "unknown_tournament", answer
        assert "sng" not in east.hall.directors                 # dropped by the lost-lease path
        assert _event_rows(west.store) == before                # no creation record, no saved event
        assert west.store.ledger.ledger_check() and west.store.ledger.ledger_problems() == []


def test_a_hung_directors_approval_is_refused_and_not_recorded(database):
    with nodes(database, "east", "west", config=SIT_AND_GO) as (east, west):
        fund_promotions(east.wallet, east.recorder, "deposit", 10_000_000, "house", "guarantees")   # STAFF-1
        made = directors_sit_and_go(east, "big", guarantee=east.hall.bounds.approval_above + 1)
        assert made and east.hall.directors["big"].awaiting_approval
        root, _ = player(east, "root")
        root.role = "admin"
        east.store.accounts.create_account("root", "root", "-", "1990-01-01", "NL", 0.0, role="admin")
        west.reactor.advance(TTL + TTL / 3)                     # east hangs: west takes the event over
        settle(west)
        assert west.tenancy.keeper.epoch("tournament:big") == 2
        before = _event_rows(west.store)

        answer = resolved(request(east, root, "admin_approve_tournament", tournament="big",
                                  reason="the spring series"))
        settle(east)

        assert not answer["ok"] and answer["error"]["code"] == "unknown_tournament", answer
        assert "big" not in east.hall.directors
        assert _event_rows(west.store) == before                # no tournament_approved record of east's
        assert west.store.ledger.ledger_check() and west.store.ledger.ledger_problems() == []


def test_a_hung_directors_invitation_answer_is_refused_and_not_recorded(database):
    with nodes(database, "east", "west", config=SIT_AND_GO) as (east, west):
        boss = directors_sit_and_go(east)
        ana, connection = player(east, "ana")
        east.store.accounts.create_account("ana", "ana", "-", "1990-01-01", "NL", 0.0)
        invited = request(east, boss, "director_add_player", tournament="sng", player="ana", reason="a regular")
        assert invited["ok"] and invited["invited"], invited
        west.reactor.advance(TTL + TTL / 3)                     # east hangs: west takes the event over
        settle(west)
        before = _event_rows(west.store)

        answer = resolved(request(east, ana, "tournament_invitation_answer", tournament="sng", accept=False))
        settle(east)

        assert not answer["ok"] and answer["error"]["code"] == "unknown_tournament", answer
        assert "sng" not in east.hall.directors
        assert _event_rows(west.store) == before                # no tournament_invitation record of east's
        assert west.wallet.balance("ana") == 10_000
