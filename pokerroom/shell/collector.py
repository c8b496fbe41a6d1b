"""CPython's cyclic garbage collector, paced for a room that must not stall.

Theory of operation
-------------------
Every collection stops the reactor, and with it every table. A young
collection looks at the few objects made since the last one and is short; a
full collection looks at every tracked object that is not frozen, and at
5,000 connections that is a few hundred thousand objects and a few tenths of a
second in which no player's action is answered. CPython starts one whenever a
quarter more objects have reached the old generation since the last, and in a
card room those are mostly the state of hands that live a few seconds: so
without pacing a busy room stalls every few seconds.

Most objects that have lived a few seconds in the room live for minutes:
connections, sessions, seats, tables. The pacer, every ``every`` seconds,
collects what is not frozen (short, because that is only what appeared since
the last time; the pause grows with the step, so the step is one second) and
freezes the survivors, so no automatic collection ever scans them again.
Garbage cycles among frozen objects are only found by a sweep: every
``sweep_every`` seconds everything is unfrozen and collected once (the one
long pause, a few tenths of a second every quarter of an hour at 5,000
connections). The room's own long-lived objects are built so that dropping
them leaves no cycle (a closed connection is freed by reference counting
alone: tests/net/test_collector.py), so what waits for a sweep is small.

:class:`CollectorWatch` reports every pause on ``/metrics``.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any, Protocol

from prometheus_client import CollectorRegistry, Counter, Histogram
from twisted.internet.interfaces import IReactorTime
from twisted.internet.task import LoopingCall

PACE_EVERY = 1.0                 # seconds between collect-and-freeze steps (docs/operations.md: how it was chosen)
SWEEP_EVERY = 900.0              # seconds between full collections of everything


class Collector(Protocol):
    """What the pacer calls of :mod:`gc` (a test gives a double)."""

    def collect(self, generation: int = 2) -> int: ...

    def freeze(self) -> None: ...

    def unfreeze(self) -> None: ...

    def set_threshold(self, threshold: int, *more: int) -> None: ...


class CollectorWatch:
    """``gc.callbacks`` hook: how long each collection stopped the room, and what it freed."""

    def __init__(self, registry: CollectorRegistry, clock: Callable[[], float] = time.perf_counter) -> None:
        self.pauses = Histogram("pokerroom_gc_pause_seconds", "time the garbage collector stopped the room",
                                ["generation"], registry=registry,
                                buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0))
        self.freed = Counter("pokerroom_gc_collected_objects", "objects freed by the garbage collector",
                             ["generation"], registry=registry)
        self._clock = clock
        self._started = 0.0

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = self._clock()
            return
        generation = str(info["generation"])
        self.pauses.labels(generation).observe(self._clock() - self._started)
        self.freed.labels(generation).inc(info["collected"])

    def install(self) -> None:
        if self not in gc.callbacks:
            gc.callbacks.append(self)

    def remove(self) -> None:
        if self in gc.callbacks:
            gc.callbacks.remove(self)


class CollectorPacer:
    """Collect-and-freeze every ``every`` seconds; unfreeze-and-collect everything every ``sweep_every``."""

    def __init__(self, reactor: IReactorTime, every: float = PACE_EVERY, sweep_every: float = SWEEP_EVERY,
                 collector: Collector = gc) -> None:
        if every <= 0 or sweep_every < every:
            raise ValueError("the pacer needs 0 < every <= sweep_every")
        self.every, self.sweep_every = every, sweep_every
        self._gc = collector
        self._steps_per_sweep = max(1, round(sweep_every / every))
        self._step = 0
        self._loop = LoopingCall(self.pace)
        self._loop.clock = reactor

    @classmethod
    def from_config(cls, reactor: IReactorTime, config: dict[str, Any], collector: Any = gc) -> CollectorPacer:
        """The pacer of the room config's ``[collector]`` section (``step_seconds``, ``sweep_seconds``)."""
        section = config.get("collector", {})
        try:
            every = float(section.get("step_seconds", PACE_EVERY))
            sweep_every = float(section.get("sweep_seconds", SWEEP_EVERY))
            return cls(reactor, every, sweep_every, collector)
        except (TypeError, ValueError) as e:
            raise ValueError(f"[collector] in the room config: {e}") from None

    def start(self) -> None:
        """Freeze what exists now (modules, config, tables: it lives as long as the process) and start pacing."""
        self._gc.collect()
        self._gc.freeze()
        # The youngest generation waits for 10,000 new objects rather than 700, so most of a hand's
        # objects are freed by reference counting before any collection looks at them.
        self._gc.set_threshold(10_000, 10, 10)
        self._loop.start(self.every, now=False)

    def stop(self) -> None:
        if self._loop.running:
            self._loop.stop()

    def pace(self) -> None:
        self._step += 1
        if self._step % self._steps_per_sweep == 0:
            self._gc.unfreeze()
        self._gc.collect()
        self._gc.freeze()
