"""One appender for the audit chain (SEC-5): appends racing from threads and from separate engines -- as the
writer thread, a demo start on the main thread and ``pokerroom role`` in another process do -- never fork it."""

from __future__ import annotations

import threading

from pokerroom.store.db import make_engine
from pokerroom.store.room_store import RoomStore


def test_SEC_5_appends_racing_from_two_engines_and_many_threads_make_one_unbroken_chain(engine):
    other = make_engine(engine.url.render_as_string(hide_password=False))     # another process's connections
    stores = [RoomStore(engine), RoomStore(other)]
    start = threading.Barrier(6)
    failures: list[BaseException] = []

    def append(store: RoomStore, who: int) -> None:
        start.wait()
        try:
            for i in range(15):
                store.audit("race", {"who": who, "i": i}, float(i))
        except BaseException as e:                              # noqa: BLE001 - reported below
            failures.append(e)

    threads = [threading.Thread(target=append, args=(stores[who % 2], who)) for who in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert failures == []
    records = stores[0].audit_log.audit_records("race")
    assert len(records) == 90
    assert len({r.previous_hash for r in records}) == 90          # no two records link to the same head
    verdict = stores[0].audit_log.verify_audit()
    assert verdict.intact, verdict.problems
    assert sorted((r.data["who"], r.data["i"]) for r in records) == [(w, i) for w in range(6) for i in range(15)]
    other.dispose()
