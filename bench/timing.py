"""The benches' stopwatch: the best of several runs of one piece of work."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(runs: int, work: Callable[[], object], clock: Callable[[], float] = time.perf_counter) -> float:
    """The shortest of ``runs`` timings of ``work()``, in seconds of ``clock`` (wall time unless told)."""
    best = float("inf")
    for _ in range(runs):
        started = clock()
        work()
        best = min(best, clock() - started)
    return best
