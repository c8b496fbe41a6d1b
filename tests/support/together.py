"""Two processes of one room in one test: the same database by URL on each (PostgreSQL, or one SQLite file), and
calls released on their own threads at the same instant (a barrier), as two processes' requests would come."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from pokerroom.errors import RuleViolation
from pokerroom.store.db import sqlite_url
from tests.support.databases import postgres_database


@contextmanager
def shared_database(kind: str, directory: Path) -> Iterator[str]:
    """The URL of a fresh database of ``kind`` ("postgresql": the machine's, dropped after; "sqlite": a file)."""
    if kind == "sqlite":
        yield sqlite_url(directory)
        return
    with postgres_database() as url:
        yield url


def at_once(*calls: Callable[[], object]) -> list:
    """Run each call on its own thread, released together by a barrier: each one's result or RuleViolation."""
    barrier = threading.Barrier(len(calls))
    out: list = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        try:
            out[i] = calls[i]()
        except RuleViolation as refused:
            out[i] = refused

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return out


def assert_numbered_once(store, transfers: int) -> None:   # noqa: ANN001 - a RoomStore
    """The stored ledger holds ``transfers`` transfers, each number once (every process took its own), and is sound."""
    numbers = [t.number for t in store.ledger.load_ledger().transfers]
    assert len(numbers) == len(set(numbers)) == transfers
    assert store.ledger.ledger_check() and store.ledger.ledger_problems() == []


def stop_all(rooms: list) -> None:
    """Each room stopped and its engine let go (a test's processes, at its end)."""
    for room in rooms:
        room.stopService()
        room.store.engine.dispose()
