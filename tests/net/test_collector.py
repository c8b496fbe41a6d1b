"""The garbage collector paced so the room does not stall, and connections that need no collection to be freed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from prometheus_client import CollectorRegistry
from twisted.internet.task import Clock

from pokerroom.shell.collector import CollectorPacer, CollectorWatch

ROOT = Path(__file__).resolve().parents[2]


class RecordingCollector:
    """Stands in for the gc module: the pacer's calls, in order."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def collect(self) -> int:
        self.calls.append("collect")
        return 0

    def freeze(self) -> None:
        self.calls.append("freeze")

    def unfreeze(self) -> None:
        self.calls.append("unfreeze")

    def set_threshold(self, *thresholds: int) -> None:
        self.calls.append(f"threshold {thresholds}")


def test_a_closed_connection_is_freed_by_reference_counting_alone():
    """Over real sockets: clients log in, watch and sit, then hang up with the collector switched off."""
    done = subprocess.run([sys.executable, "-m", "tests.net.closed_run", "--clients", "12"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, POKERROOM_ARGON2="bench"))
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["joined"] == [True] * 6 and report["connections"] == 12 and report["open"] == 0
    assert report["alive_without_collection"] == 0       # nothing waits for a collection (or a sweep)...
    assert report["protocols_in_cycles"] == 0            # ...because no connection is left in a cycle


def test_the_pacer_freezes_at_start_then_collects_and_freezes_what_survived_each_step():
    clock, gc = Clock(), RecordingCollector()
    pacer = CollectorPacer(clock, every=5, sweep_every=20, collector=gc)
    pacer.start()
    assert gc.calls == ["collect", "freeze", "threshold (10000, 10, 10)"]
    gc.calls.clear()
    clock.advance(4.9)
    assert gc.calls == []                                  # driven by the reactor's clock, nothing before
    clock.advance(0.1)
    assert gc.calls == ["collect", "freeze"]
    gc.calls.clear()
    clock.pump([5, 5])
    assert gc.calls == ["collect", "freeze"] * 2
    gc.calls.clear()
    clock.advance(5)                                       # the 4th step is the sweep: everything once
    assert gc.calls == ["unfreeze", "collect", "freeze"]
    pacer.stop()
    gc.calls.clear()
    clock.advance(100)
    assert gc.calls == []


def test_the_pacer_refuses_a_sweep_more_often_than_its_steps():
    with pytest.raises(ValueError):
        CollectorPacer(Clock(), every=10, sweep_every=5, collector=RecordingCollector())
    with pytest.raises(ValueError):
        CollectorPacer(Clock(), every=0, collector=RecordingCollector())


def test_every_pause_of_the_collector_is_on_the_metrics_with_its_generation_and_what_it_freed():
    registry, now = CollectorRegistry(), [100.0]
    watch = CollectorWatch(registry, clock=lambda: now[0])
    watch("start", {"generation": 2})
    now[0] += 0.25
    watch("stop", {"generation": 2, "collected": 7, "uncollectable": 0})
    watch("start", {"generation": 0})
    now[0] += 0.001
    watch("stop", {"generation": 0, "collected": 0, "uncollectable": 0})
    value = registry.get_sample_value
    assert value("pokerroom_gc_pause_seconds_count", {"generation": "2"}) == 1
    assert value("pokerroom_gc_pause_seconds_sum", {"generation": "2"}) == pytest.approx(0.25)
    assert value("pokerroom_gc_pause_seconds_bucket", {"generation": "2", "le": "0.1"}) == 0
    assert value("pokerroom_gc_pause_seconds_count", {"generation": "0"}) == 1
    assert value("pokerroom_gc_collected_objects_total", {"generation": "2"}) == 7


def test_the_watch_installs_once_and_removes_itself():
    import gc

    watch = CollectorWatch(CollectorRegistry())
    watch.install()
    watch.install()
    assert gc.callbacks.count(watch) == 1
    watch.remove()
    assert watch not in gc.callbacks


def test_the_room_config_sets_the_pacers_step_and_sweep_and_a_bad_one_is_refused():
    clock, gc = Clock(), RecordingCollector()
    pacer = CollectorPacer.from_config(clock, {"collector": {"step_seconds": 2, "sweep_seconds": 6}}, collector=gc)
    pacer.start()
    gc.calls.clear()
    clock.pump([2, 2])
    assert gc.calls == ["collect", "freeze"] * 2           # a step every 2 s...
    gc.calls.clear()
    clock.advance(2)
    assert gc.calls == ["unfreeze", "collect", "freeze"]   # ...and the third is the sweep
    pacer.stop()
    default = CollectorPacer.from_config(clock, {}, collector=gc)
    assert (default.every, default.sweep_every) == (1.0, 900.0)     # the measured step (docs/operations.md)
    for bad in ({"step_seconds": "soon"}, {"step_seconds": 0}, {"step_seconds": 60, "sweep_seconds": 30}):
        with pytest.raises(ValueError, match=r"\[collector\]"):
            CollectorPacer.from_config(clock, {"collector": bad}, collector=gc)
