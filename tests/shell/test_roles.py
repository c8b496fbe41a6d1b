"""The composition root's roles (issue 21): a ``gateway`` room builds only the gateway's side of the process line and
a ``tables`` room only the table side; the two on one strict bus and one store are one room -- the lobby lines the
table side had before the gateway started reach it (``lobby.wanted``), a player joins a table the other side runs,
and a director's new table is opened beside the table host (``tables.open``), never by a call across the line."""

from __future__ import annotations

import pytest
from twisted.internet.task import Clock

from pokerroom.bus.strict import StrictBus
from pokerroom.players import AccountRules
from pokerroom.shell.composition import RoomServices
from pokerroom.table.config import tables_from_config
from tests.support.clocked_room import TABLES, Connection, deposit, request, resolved, settle

NEW = {"id": "nl-new", "name": "New", "game": "NLHE", "small_blind": 10, "big_blind": 20, "min_buy_in": 800,
       "max_buy_in": 2000, "seats": 6, "reason": "the room is busy"}
ROOM = {**TABLES, "casino": [{"id": "roulette-x", "name": "Roulette X", "game": "roulette", "min_bet": 100,
                               "max_bet": 10_000, "currency": "USD"}]}
GATEWAY_SIDE = ("gateway", "lobby", "accounts", "session_watch", "cashier", "table_desk", "casino_play")
TABLE_SIDE = ("tables", "wallet", "wallet_desk", "cashier_moves", "restores", "hall", "casino_floor", "table_opener")


def side(role: str, store, clock: Clock, bus: StrictBus) -> RoomServices:   # noqa: ANN001
    room = RoomServices(tables_from_config(TABLES), store, clock, account_rules=AccountRules(), bus=bus,
                        config=ROOM, role=role)
    room.startService()
    return room


def test_each_role_builds_only_its_side_of_the_process_line(store):
    clock = Clock()
    bus = StrictBus(clock)
    tables, gateway = side("tables", store, clock, bus), side("gateway", store, clock, bus)
    assert all(getattr(tables, name) is not None for name in TABLE_SIDE)
    assert all(getattr(tables, name) is None for name in GATEWAY_SIDE)
    assert all(getattr(gateway, name) is not None for name in GATEWAY_SIDE)
    assert all(getattr(gateway, name) is None for name in TABLE_SIDE)
    assert tables.recorder is not gateway.recorder                  # each process its own writer
    assert gateway.recovery is None and tables.recovery is not None   # crash recovery is the table side's
    assert "restores" not in [s.name for s in gateway] and "standing decisions" not in [s.name for s in tables]
    with pytest.raises(ValueError, match="gateway's side"):
        RoomServices([], store, clock, role="dealer")


def test_a_gateway_room_and_a_table_room_on_one_bus_are_one_room(store):
    clock = Clock()
    bus = StrictBus(clock)
    tables = side("tables", store, clock, bus)
    settle(tables)                                  # its lines were published before any gateway listened
    gateway = side("gateway", store, clock, bus)
    settle(gateway)
    assert list(gateway.lobby.lines) == ["t1"]      # asked for at the gateway's start, sent again
    sessions = {}
    for name in ("ana", "boss"):
        session = gateway.gateway.connected(Connection(), "10.0.0.9")
        session.player_id, session.country = name, "NL"
        gateway.gateway.identify(session, name)
        deposit(tables, name, 10_000)              # the wallet is the table side's
        sessions[name] = session
    settle(gateway)
    joined = resolved(request(gateway, sessions["ana"], "join", table="t1", buy_in=1_000))
    assert joined["ok"], joined
    assert tables.tables.runners["t1"].table.seat_of("ana") is not None
    assert tables.wallet.balance("ana") == 9_000
    casino = resolved(request(gateway, sessions["ana"], "casino_list"))          # the floor's, over the line
    assert [t["table"] for t in casino["tables"]] == ["roulette-x"], casino
    events = resolved(request(gateway, sessions["ana"], "tournament_list"))      # the hall's, over the line
    assert events["ok"] and events["tournaments"] == [], events
    sessions["boss"].role = "director"
    opened = resolved(request(gateway, sessions["boss"], "director_open_table", **NEW))
    assert opened["ok"], opened
    assert opened["table"]["table"] == "nl-new" and opened["table"]["opened_by_director"]
    assert tables.tables.runners["nl-new"].table.rules.stakes.big_blind == 20    # opened beside the host
    settle(gateway)
    assert "nl-new" in gateway.lobby.lines
    again = resolved(request(gateway, sessions["boss"], "director_open_table", **NEW))
    assert not again["ok"] and again["error"]["code"] == "table_exists"
    gateway.recorder.flushed()
    stored = {record.id for record in store.tables.open_cash_tables()}
    assert stored == {"nl-new"}                     # stored by the desk once the table side said it is open


def test_a_table_room_that_starts_after_the_gateway_room_hears_the_names_and_sends_its_lines(store):
    clock = Clock()
    bus = StrictBus(clock)
    gateway = side("gateway", store, clock, bus)
    gateway.display_names.show("ana", "Ana Real")     # AC-4: decided at a login, before any table process listened
    settle(gateway)
    assert gateway.lobby.lines == {}
    tables = side("tables", store, clock, bus)
    settle(tables)
    assert tables.tables.display_names.get("ana") == "Ana Real"     # asked for at its start, sent again
    assert list(gateway.lobby.lines) == ["t1"]                        # its lines, sent at its own start
