"""Keep-alive pings spread over their interval: connections that opened together are not pinged together."""

from __future__ import annotations

import random
from types import SimpleNamespace

from hypothesis import given
from hypothesis import strategies as st

from pokerroom.gateway.pings import spread_first_ping


class Timer:
    """Stands in for Autobahn's batched timer: the delays asked for, and the calls handed out."""

    def __init__(self) -> None:
        self.asked: list[tuple[float, object]] = []

    def call_later(self, delay: float, function: object) -> SimpleNamespace:
        self.asked.append((delay, function))
        return SimpleNamespace(cancelled=False, cancel=lambda: None)


class Connection:
    """The parts of an open Autobahn connection the spreading reads: its interval, pending ping and factory."""

    def __init__(self, interval: float, timer: Timer) -> None:
        self.autoPingInterval = interval
        self.first = SimpleNamespace(cancelled=False)
        self.first.cancel = lambda: setattr(self.first, "cancelled", True)
        self.autoPingPendingCall = self.first             # Autobahn scheduled it a whole interval after opening
        self.factory = SimpleNamespace(_batched_timer=timer)

    def _sendAutoPing(self) -> None:                      # noqa: N802 - Autobahn's name
        raise AssertionError("not called here")


@given(st.floats(min_value=0, max_value=1, exclude_max=True), st.sampled_from([5.0, 20.0, 60.0]))
def test_the_first_ping_moves_to_a_point_inside_its_interval(draw, interval):
    timer = Timer()
    connection = Connection(interval, timer)
    spread_first_ping(connection, lambda: draw)
    assert connection.first.cancelled                      # Autobahn's own first ping is gone...
    [(delay, function)] = timer.asked                      # ...and exactly one takes its place
    assert 0 < delay <= interval
    assert function == connection._sendAutoPing
    assert connection.autoPingPendingCall is not connection.first


def test_a_crowd_that_opened_together_is_pinged_across_the_whole_interval():
    timer, rng = Timer(), random.Random(34)
    for _ in range(2_000):
        spread_first_ping(Connection(20.0, timer), rng.random)
    seconds = [int(delay) for delay, _ in timer.asked]
    per_second = [seconds.count(s) for s in range(20)]
    assert min(per_second) >= 60 and max(per_second) <= 140      # about 100 in every second of the 20, not 2,000 in one


def test_a_connection_without_pings_is_left_alone():
    timer = Timer()
    quiet = Connection(0, timer)
    spread_first_ping(quiet)
    assert timer.asked == [] and not quiet.first.cancelled
    stopped = Connection(20.0, timer)
    stopped.autoPingPendingCall = None                      # closing: no ping pending
    spread_first_ping(stopped)
    assert timer.asked == [] and stopped.autoPingPendingCall is None
