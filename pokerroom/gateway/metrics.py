"""The room's Prometheus metrics (``/metrics``): one registry the services count into.

The counts a request touches (actions, their answer times) are plain numbers
the reactor thread adds to, read when ``/metrics`` is asked: a
``prometheus_client`` metric takes a lock on every change, which for an
action costs as much as checking its fields. Everything counted here is
counted on the reactor thread only.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator

from prometheus_client import CollectorRegistry
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric


class Count:
    """A counter (only ever up) or a gauge (``set``, ``dec``), by what the metric says it is."""

    __slots__ = ("name", "help", "gauge", "value")

    def __init__(self, name: str, help_text: str, *, gauge: bool = False) -> None:
        self.name, self.help, self.gauge, self.value = name, help_text, gauge, 0

    def inc(self, amount: int = 1) -> None:
        self.value += amount

    def dec(self, amount: int = 1) -> None:
        self.value -= amount

    def set(self, value: int) -> None:
        self.value = value

    def family(self) -> Metric:
        if self.gauge:
            return GaugeMetricFamily(self.name, self.help, value=self.value)
        return CounterMetricFamily(self.name, self.help, value=self.value)


class Timings:
    """A histogram of durations in seconds, over fixed bucket bounds."""

    __slots__ = ("name", "help", "bounds", "counts", "total")

    def __init__(self, name: str, help_text: str, bounds: tuple[float, ...]) -> None:
        self.name, self.help, self.bounds = name, help_text, tuple(sorted(bounds))
        self.counts = [0] * (len(self.bounds) + 1)              # the last: above every bound (+Inf)
        self.total = 0.0

    def observe(self, seconds: float) -> None:
        self.counts[bisect_left(self.bounds, seconds)] += 1    # a bucket holds what is <= its bound
        self.total += seconds

    def family(self) -> Metric:
        cumulative, buckets = 0, []
        for bound, count in zip((*map(str, self.bounds), "+Inf"), self.counts, strict=True):
            cumulative += count
            buckets.append((bound, cumulative))
        return HistogramMetricFamily(self.name, self.help, buckets=buckets, sum_value=self.total)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.connections = Count("pokerroom_connections", "open WebSocket connections", gauge=True)
        self.tables = Count("pokerroom_tables", "tables in the room", gauge=True)
        self.hands = Count("pokerroom_hands", "hands played")
        self.actions = Count("pokerroom_actions", "player actions accepted")
        self.latency = Timings("pokerroom_action_seconds", "time to answer an action",
                               (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.5))
        self.registry.register(self)

    def collect(self) -> Iterator[Metric]:
        """What ``/metrics`` shows of these counts (the registry's collector interface)."""
        for metric in (self.connections, self.tables, self.hands, self.actions, self.latency):
            yield metric.family()
