"""The roster (issue 21): each node's own lease, and the live nodes counted on the keeper's beat -- a node that
starts is counted within a beat, one that dies leaves the count within the ttl, a clean stop at once, and a node's
lease is never taken over as a table's would be."""

from __future__ import annotations

import pytest
from twisted.internet.task import Clock

from pokerroom.shell.leases import TTL, LeaseKeeper
from pokerroom.shell.recorder import Recorder
from pokerroom.shell.roster import OneNode, Roster
from pokerroom.store.db import make_engine, migrate
from pokerroom.store.lease_records import node_resource, resource
from pokerroom.store.room_store import RoomStore
from tests.support.together import shared_database

T0 = 1_000.0
STEP = 0.25


class Node:
    def __init__(self, url: str, name: str) -> None:
        self.clock = Clock()
        self.clock.advance(T0)
        self.store = RoomStore(make_engine(url))
        self.recorder = Recorder(self.store, self.clock)
        self.roster = Roster(self.clock, self.store.leases, self.recorder, name)


def run(seconds: float, *nodes: Node) -> None:
    for _ in range(round(seconds / STEP)):
        for node in nodes:
            node.clock.advance(STEP)


@pytest.fixture(params=["sqlite", "postgresql"])
def nodes(request, tmp_path):
    with shared_database(request.param, tmp_path) as url:
        engine = make_engine(url)
        migrate(engine)
        engine.dispose()
        made = [Node(url, name) for name in "abc"]
        yield made
        for node in made:
            node.store.engine.dispose()


def test_one_process_is_one_node():
    assert OneNode().count() == 1


def test_nodes_are_counted_as_they_start_die_and_stop(nodes):
    a, b, c = nodes
    assert a.roster.count() == 1                            # itself, before anything is read
    a.roster.start()
    assert a.roster.count() == 1
    b.roster.start()
    c.roster.start()
    assert c.roster.count() == 3                            # read at its start: the others were there
    run(TTL / 3, a, b, c)
    assert [n.roster.count() for n in nodes] == [3, 3, 3]
    assert a.store.leases.nodes(a.clock.seconds()) == ["a", "b", "c"]
    run(TTL + TTL / 3, a, b)                                # c is killed: its clock and beat stop
    assert [a.roster.count(), b.roster.count()] == [2, 2]
    b.roster.stop()                                         # a clean stop: gone at a's next beat, not after the ttl
    run(TTL / 3, a)
    assert a.roster.count() == 1


def test_a_dead_nodes_lease_is_never_taken_over_as_a_table(nodes):
    a, b, _ = nodes
    taken: list = []
    keeper = LeaseKeeper(b.clock, b.store.leases, b.recorder, "b", lambda r: None,
                         lambda r, epoch: taken.append(r))
    a.roster.start()
    held: list = []
    keeper.hold(resource("cash", "nl-1")).addBoth(held.append)
    assert held == [True]
    b.store.leases.release("b", [resource("cash", "nl-1")])
    keeper.start()
    run(TTL * 3, b)                                         # a died long ago; b's keeper looks every beat
    assert taken == [resource("cash", "nl-1")]              # the table it let go, not a's node lease
    assert b.store.leases.owner(node_resource("a"), b.clock.seconds()) is None
    assert b.store.leases.nodes(b.clock.seconds()) == []


def test_a_gateway_only_process_reads_the_roster_without_being_counted(nodes):
    a, b, c = nodes
    gateway = Roster(c.clock, c.store.leases, c.recorder, "gw", counted=False)
    assert gateway.count() == 0
    a.roster.start()
    b.roster.start()
    gateway.start()
    assert gateway.count() == 2                             # the two table sides, not itself
    assert a.store.leases.nodes(a.clock.seconds()) == ["a", "b"]
    gateway.stop()
    assert a.store.leases.nodes(a.clock.seconds()) == ["a", "b"]


def test_a_recount_reads_the_nodes_now_between_beats(nodes):
    """A decision's gather counts the nodes afresh (one started since the last beat is waited for), and a gather
    that came back short has a node that stopped cleanly counted out at once, not at the next beat."""
    a, b, c = nodes
    a.roster.start()
    b.roster.start()
    assert a.roster.count() == 1                            # a read before b claimed its lease
    counts: list = []
    a.roster.recounted().addCallback(counts.append)
    assert counts == [2] and a.roster.count() == 2          # b, without waiting for a's next beat
    b.roster.stop()
    a.roster.recounted().addCallback(counts.append)
    assert counts == [2, 1]
    assert OneNode().recounted().result == 1
