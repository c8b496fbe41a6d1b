"""A node that stops answering the reads every node answers (issue 21): one read waits the gather's timeout for it,
the reads after it do not (the roster suspects it), a decision still refuses without it, and once it answers again
-- late, to a read that went on without it -- the reads wait for it again. Three nodes on the machine's NATS, their
rosters over one database, the gathers' timeouts on a Clock."""

from __future__ import annotations

import time

import pytest
from twisted.internet import defer
from twisted.internet.task import Clock

from pokerroom.errors import RuleViolation
from pokerroom.shell.every_node import answer_every_gather, ask_every_node, count_nodes_with, union_sorted
from pokerroom.shell.recorder import Recorder
from pokerroom.shell.roster import Roster
from pokerroom.store.db import make_engine, migrate
from pokerroom.store.room_store import RoomStore
from tests.support.nats_buses import close_all, nats_bus, reactor, settle

T0 = 1_000.0
TIMEOUT = 2.0


@pytest.fixture
def room(tmp_path):
    """Nodes a, b, c: each a bus of one room, a roster on the leases, and its tables known; c may fall silent."""
    url = f"sqlite:///{tmp_path / 'room.db'}"
    migrate(make_engine(url))
    clock = Clock()
    clock.advance(T0)
    shared = f"t{time.monotonic_ns()}"
    silent = {"c": False}
    nodes = {}
    for name in "abc":
        store = RoomStore(make_engine(url))
        bus = nats_bus(shared, clock=clock, gather_timeout=TIMEOUT)
        roster = Roster(clock, store.leases, Recorder(store, clock), name)
        count_nodes_with(bus, roster)
        answer_every_gather(bus, "tables.known", lambda _, name=name: defer.Deferred() if silent.get(name)
                            else [f"{name}-1"])
        answer_every_gather(bus, "security.idle", lambda _, name=name: defer.Deferred() if silent.get(name)
                            else None)
        settle(bus.flushed())
        roster.start()
        nodes[name] = (bus, roster, store)
    nodes["a"][1].recounted()
    yield nodes, clock, silent
    close_all()
    for _, roster, store in nodes.values():
        roster.stop()
        store.engine.dispose()


def fired(d: defer.Deferred) -> bool:
    out: list = []
    d.addBoth(lambda result: out.append(result) or result)
    return bool(out)


def until(condition, wait: float = 10.0) -> None:
    deadline = time.monotonic() + wait
    while not condition() and time.monotonic() < deadline:
        reactor().iterate(0.01)
    assert condition()


def test_a_silent_node_costs_one_timeout_not_one_a_read_and_is_awaited_again_once_it_answers(room):
    nodes, clock, silent = room
    bus, roster, _ = nodes["a"]
    assert roster.count() == 3
    assert settle(ask_every_node(bus, "tables.known", None, union_sorted)) == ["a-1", "b-1", "c-1"]

    silent["c"] = True                                      # c hangs (or died): its lease still live
    first = ask_every_node(bus, "tables.known", None, union_sorted)
    until(lambda: any(len(g.answers) == 2 for g in bus.gathering.values()))
    assert not fired(first)                                 # two of three: it waits for c
    clock.advance(TIMEOUT)
    assert settle(first) == ["a-1", "b-1"]                  # the timeout: the two that answered
    assert roster.suspects == {"c"} and roster.count() == 3

    for _ in range(3):                                      # no clock turned: none of these waits for c
        assert settle(ask_every_node(bus, "tables.known", None, union_sorted)) == ["a-1", "b-1"]

    decision = ask_every_node(bus, "security.idle", "ana", lambda answers: None, whole=True)
    until(lambda: any(len(g.answers) == 2 for g in bus.gathering.values() if not g.done))
    assert not fired(decision)                              # a decision still waits for every live node
    clock.advance(TIMEOUT)
    with pytest.raises(RuleViolation) as refused:
        settle(decision)
    assert refused.value.code == "node_unanswered"

    silent["c"] = False                                     # c answers again: to a read that went on without it
    assert settle(ask_every_node(bus, "tables.known", None, union_sorted)) in (["a-1", "b-1"],
                                                                                ["a-1", "b-1", "c-1"])
    until(lambda: not roster.suspects)
    read = ask_every_node(bus, "tables.known", None, union_sorted)
    assert settle(read) == ["a-1", "b-1", "c-1"]            # awaited again


def test_a_suspect_whose_lease_runs_out_leaves_the_roster(room):
    nodes, clock, silent = room
    bus, roster, _ = nodes["a"]
    silent["c"] = True
    first = ask_every_node(bus, "tables.known", None, union_sorted)
    until(lambda: any(len(g.answers) == 2 for g in bus.gathering.values()))
    clock.advance(TIMEOUT)
    settle(first)
    assert roster.suspects == {"c"}
    nodes["c"][1].stop()                                    # its lease gone (a clean stop; a dead one's runs out)
    settle(roster.recounted())
    assert roster.suspects == set() and roster.count() == 2
