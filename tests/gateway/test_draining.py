"""Draining for a deploy on a Clock: ``/health`` flips to 503 ``draining`` at once, the process keeps its
connections and stops when the last has gone or at the deadline, and a second SIGTERM stops it now."""

from __future__ import annotations

import json

import pytest
from twisted.internet.task import Clock
from twisted.web.test.requesthelper import DummyRequest

from pokerroom.gateway.draining import Drain
from pokerroom.gateway.routes import Gateway
from pokerroom.gateway.server import Health
from tests.support.clocked_room import Connection
from tests.support.recording_bus import RecordingBus


class Process:
    """What a drain watches and stops: the open connections and whether it stopped (and when)."""

    def __init__(self, clock: Clock, connections: int) -> None:
        self.clock = clock
        self.connections = connections
        self.stopped_at: list[float] = []

    def stop(self) -> None:
        self.stopped_at.append(self.clock.seconds())


def health(resource: Health) -> tuple[int, dict]:
    request = DummyRequest([b""])
    body = resource.render_GET(request)
    return request.responseCode or 200, json.loads(body)


def test_health_answers_ok_with_the_node_until_the_drain_begins_then_503_draining():
    clock = Clock()
    gateway = Gateway(RecordingBus(clock))
    gateway.connected(Connection())
    process = Process(clock, 1)
    drain = Drain(clock, lambda: process.connections, process.stop, seconds=300)
    resource = Health(gateway, lambda: 4, False, node="east", drain=drain)
    assert health(resource) == (200, {"status": "ok", "node": "east", "tables": 4, "tournament_hands": 0,
                                        "connections": 1, "demo": False})
    drain.begin()
    code, answer = health(resource)
    assert (code, answer["status"], answer["node"], answer["connections"]) == (503, "draining", "east", 1)
    assert answer["stops_within_seconds"] == 300
    clock.advance(120)
    assert health(resource)[1]["stops_within_seconds"] == 180
    assert process.stopped_at == []                     # its player is still on: it serves on


def test_a_draining_process_stops_once_its_last_connection_has_gone():
    clock = Clock()
    process = Process(clock, 3)
    drain = Drain(clock, lambda: process.connections, process.stop, seconds=600, every=1)
    drain.begin()
    clock.pump([1] * 30)
    assert process.stopped_at == [] and drain.draining
    process.connections = 0
    clock.advance(1)
    assert process.stopped_at == [31]
    clock.pump([1] * 5)
    assert process.stopped_at == [31]                   # once
    assert clock.getDelayedCalls() == []


def test_a_draining_process_with_players_still_on_stops_at_its_deadline():
    clock = Clock()
    process = Process(clock, 2)
    drain = Drain(clock, lambda: process.connections, process.stop, seconds=10, every=3)
    drain.begin()
    clock.pump([3, 3, 3])
    assert process.stopped_at == []
    clock.advance(1)
    assert process.stopped_at == [10]


def test_an_idle_process_stops_at_once_and_a_second_sigterm_stops_a_busy_one_now():
    clock = Clock()
    idle = Process(clock, 0)
    Drain(clock, lambda: idle.connections, idle.stop).begin()
    assert idle.stopped_at == [0]
    busy = Process(clock, 5)
    drain = Drain(clock, lambda: busy.connections, busy.stop)
    drain.begin()
    clock.advance(2)
    drain.begin()
    assert busy.stopped_at == [2] and clock.getDelayedCalls() == []


def test_a_process_stopped_another_way_stops_counting():
    clock = Clock()
    process = Process(clock, 1)
    drain = Drain(clock, lambda: process.connections, process.stop)
    drain.begin()
    drain.cancel()
    assert clock.getDelayedCalls() == []
    assert process.stopped_at == []


def test_a_drain_needs_sensible_times():
    with pytest.raises(ValueError, match="seconds"):
        Drain(Clock(), lambda: 0, lambda: None, seconds=-1)
    with pytest.raises(ValueError, match="interval"):
        Drain(Clock(), lambda: 0, lambda: None, every=0)


def test_the_process_s_own_clients_are_told_to_leave_when_the_drain_begins_and_a_late_one_at_once():
    clock = Clock()
    process = Process(clock, 2)
    drain = Drain(clock, lambda: process.connections, process.stop, seconds=600, every=1)
    left: list[str] = []
    drain.letting_go(lambda: left.append("bots"))
    assert left == []                                   # serving: its bots play on
    drain.begin()
    assert left == ["bots"]
    drain.letting_go(lambda: left.append("tournament bots"))      # connected after the drain began
    assert left == ["bots", "tournament bots"]
    process.connections = 0
    clock.advance(1)
    assert process.stopped_at == [1]
