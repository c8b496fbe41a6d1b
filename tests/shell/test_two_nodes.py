"""Two nodes of one room (issue 21): two compositions, each with its own cash table, on one NATS room over one
database. A read every node answers for itself is asked of both: a player seated at node B's table is found from
node A's gateway side, and node A, started after B's table opened, lists both tables in its lobby."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest
from twisted.internet import defer
from twisted.internet.task import Clock

from pokerroom.bus.records import Rename, WhereRead
from pokerroom.bus.subjects import CASH_TABLES_WHERE, SECURITY_RENAME
from pokerroom.errors import RuleViolation
from pokerroom.players import AccountRules
from pokerroom.protocol.schema import parse_request
from pokerroom.shell.composition import RoomServices
from pokerroom.shell.every_node import AT_TABLES, ask_every_node
from pokerroom.shell.staff_out_of_play import where_playing
from pokerroom.store.db import make_engine, migrate
from pokerroom.store.room_store import RoomStore
from pokerroom.table.config import tables_from_config
from tests.support import nats_buses
from tests.support.clocked_room import Connection
from tests.support.together import shared_database


def table(table_id: str) -> dict:
    return {"tables": [{"id": table_id, "variant": "NLHE", "small_blind": 5, "big_blind": 10, "min_buy_in": 400,
                        "max_buy_in": 1000, "seats": 6}]}


class Node:
    """One process: its own engine, clock and NATS connection, one cash table of its own."""

    def __init__(self, url: str, name: str, room: str, table_id: str) -> None:
        self.clock = Clock()
        self.clock.advance(1_000)
        self.store = RoomStore(make_engine(url))
        self.room = RoomServices(tables_from_config(table(table_id)), self.store, self.clock,
                                 account_rules=AccountRules(), bus=nats_buses.nats_bus(room), node=name,
                                 shared_money=True)
        self.rid = 0

    def start(self) -> None:
        self.room.startService()

    def person(self, name: str):   # noqa: ANN201
        session = self.room.gateway.connected(Connection(), "10.0.0.9")
        session.player_id, session.country = name, "NL"
        self.room.gateway.identify(session, name)
        if self.store.accounts.find_account(name.casefold()) is None:
            self.store.accounts.create_account(name, name.casefold(), "-", "1990-01-01", "NL", 0.0)
        self.room.wallet.deposit(name, 10_000, self.store.accounts.find_account(name.casefold()))
        return session

    def ask(self, session, kind: str, **fields) -> dict:   # noqa: ANN001
        self.rid += 1
        answer = self.room.gateway.handle(session, parse_request({"type": kind, "rid": self.rid, **fields}))
        return nats_buses.settle(answer) if isinstance(answer, defer.Deferred) else answer


def until(done: Callable[[], bool]) -> None:
    """The real reactor runs (the NATS bus's answers) until ``done``, for at most the NATS wait."""
    deadline = time.monotonic() + nats_buses.WAIT
    while not done() and time.monotonic() < deadline:
        nats_buses.reactor().iterate(0.01)
    assert done()


@pytest.fixture(params=["postgresql", "sqlite"])
def nodes(request, tmp_path) -> Iterator[tuple[Node, Node]]:
    nats_buses.require_nats()
    with shared_database(request.param, tmp_path) as url:
        engine = make_engine(url)
        migrate(engine)
        engine.dispose()
        room = f"t{time.monotonic_ns()}"
        b = Node(url, "b", room, "t2")
        b.start()                                   # b's table opens before a exists: a never hears its line
        a = Node(url, "a", room, "t1")
        yield a, b
        for node in (a, b):
            node.room.stopService()
        nats_buses.close_all()
        for node in (a, b):
            node.store.engine.dispose()


def test_a_player_at_another_nodes_table_is_found_and_a_late_node_lists_every_table(nodes):
    a, b = nodes
    a.start()
    assert a.room.roster.count() == 2               # b's lease was live when a read the roster
    b.clock.advance(b.room.roster.ttl / 3)          # b's next beat
    assert b.room.roster.count() == 2
    until(lambda: "t2" in a.room.lobby.lines)       # a's start asked every node for its tables' lines
    watcher = a.person("cy")
    listed = a.ask(watcher, "lobby_list")
    assert sorted(line["table"] for line in listed["tables"]) == ["t1", "t2"]

    ana = b.person("ana")
    assert b.ask(ana, "join", table="t2", buy_in=500, seat=1)["ok"]
    where = nats_buses.settle(ask_every_node(a.room.bus, CASH_TABLES_WHERE, WhereRead("ana"), AT_TABLES))
    assert where == {"seated": ["t2"], "leaving": [], "waiting": []}
    assert nats_buses.settle(where_playing(a.room.bus, {}, "ana")) == "is seated at t2"   # as a's desks ask


def test_HR_DC_2_a_player_whose_process_died_resumes_on_another_and_sees_every_table_they_sit_at(nodes):
    """Their connection was on b; b's gateway is gone (the player comes back through a): a resume naming no table
    still watches the table they sit at, wherever it is played, and catches them up with a snapshot."""
    a, b = nodes
    a.start()
    ana = b.person("ana")
    assert b.ask(ana, "join", table="t2", buy_in=500, seat=1)["ok"]
    account = b.store.accounts.find_account("ana")
    b.room.accounts.open_token(ana, account, b.room.session_watch.shut)     # the token a login gave her, on b
    token = ana.token
    back = a.room.gateway.connected(Connection(), "10.0.0.9")              # through the load balancer, to a
    answer = a.ask(back, "resume", token=token, tables={})
    assert answer["ok"] and answer["tables"] == {"t2": "snapshot"}
    assert "t2" in back.tables and back.player_id == "ana"
    snapshots = [m for m in back.connection.sent if m.get("type") == "table_snapshot"]
    assert snapshots and snapshots[-1]["table"] == "t2"
    seats = snapshots[-1]["seats"]
    assert [s["player"] for s in (seats.values() if isinstance(seats, dict) else seats) if s] == ["ana"]


def test_AC_3_a_rename_answered_by_one_node_refuses_a_player_seated_at_another_nodes_table(nodes):
    """``security.rename`` is a move one node answers: it asks every node again whether the player is idle, so
    a seat at another node's table refuses it as a seat at its own would; an idle player is renamed."""
    a, b = nodes
    a.start()
    ana = b.person("ana")
    a.person("bob")                                           # idle: an account and a wallet of 10,000
    assert b.ask(ana, "join", table="t2", buy_in=500, seat=1)["ok"]
    b.room.bus.responders[SECURITY_RENAME].cancel()          # a answers the move: ana sits at b's table only
    nats_buses.settle(b.room.bus.flushed())
    with pytest.raises(RuleViolation) as refused:
        nats_buses.settle(a.room.bus.request(SECURITY_RENAME, Rename("ana", "anna", "anna", "cheat", "sec", 1.0)))
    assert refused.value.code == "player_busy" and "at t2" in refused.value.message
    assert a.store.accounts.find_account("ana") is not None and a.store.accounts.find_account("anna") is None
    moved = nats_buses.settle(a.room.bus.request(SECURITY_RENAME, Rename("bob", "rob", "rob", "abuse", "sec", 1.0)))
    assert moved == {"moved": 10_000} and a.store.accounts.find_account("rob") is not None
