"""The store's writer on a thread of the room's process, or in a process of its own: what each costs (issue 36).

    PYTHONPATH=. .venv/bin/python bench/writer_process.py [--actions N] [--repeat R] [--tables T]

A prototype of the process variant, measured against the thread the room
runs today, on the same writes. It plays :mod:`bench.action_path`'s room (the
writer's batches run on this thread, ``queued``) and records every batch the
recorder handed to the store, each call as ``(part, method, args)``: what a
table host would send a writer process. Then it replays the recorded batches
into a fresh database twice:

* ``thread``: ``store.batch`` in this process, as the writer thread runs them
  -- its CPU (``time.thread_time``) is the writer's;
* ``process``: each batch pickled and sent over a pipe to a writer process
  (spawned: a store of its own on the same kind of database), which unpickles
  it, runs ``store.batch`` and sends each call's outcome back; the sender's CPU
  (pickling, the pipe, the answers unpickled: what the reactor thread would
  pay) and the writer process's own CPU (``time.process_time`` there) both
  counted.

A hand's facts (SEC-3) go to the process as the hand's stored event dicts,
which it reads back into events (:func:`~pokerroom.security.facts.facts_from_dicts`):
the event objects themselves would cost the reactor more to pickle.

Prints µs per action of the recorded stretch (its ``--actions`` acts), the
median of ``--repeat`` replays of each.
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing
import os
import pickle
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import action_path  # noqa: E402

from pokerroom.security.facts import facts_from_dicts, hand_facts  # noqa: E402
from pokerroom.store.db import make_engine, migrate, sqlite_url  # noqa: E402
from pokerroom.store.room_store import RoomStore  # noqa: E402

PARTS = ("hands", "ledger", "accounts", "sessions", "tables", "casino", "tournaments", "security", "audit_log",
         "cashier", "leases")


class Facts:
    """A hand's facts, worked out by the writer: on the room's thread from the event objects, as the recorder hands
    them over today; in a writer process from the hand's stored event dicts (the ``hand_ended`` call's own), since
    pickling the objects would cost the reactor more -- they are not sent."""

    def __init__(self, keywords: dict, objects: list) -> None:
        self.keywords = keywords
        self.objects = objects

    def __getstate__(self) -> dict:
        return {"keywords": self.keywords, "objects": None}

    def __setstate__(self, state: dict) -> None:
        self.keywords, self.objects = state["keywords"], state["objects"]


def portable(store: RoomStore, value: Any) -> Any:
    """A call's function or argument as a writer process would be sent it: a store method by name."""
    if isinstance(value, functools.partial) and value.func is hand_facts:
        return Facts(dict(value.keywords), list(value.args[0]))
    owner = getattr(value, "__self__", None)
    if owner is store:
        return ("call", "", value.__name__)
    for part in PARTS:
        if owner is getattr(store, part):
            return ("call", part, value.__name__)
    if callable(value) and getattr(value, "__name__", "") == "<lambda>":
        return ("call", "", "nothing")                  # the recorder's flushed(): a write of nothing
    if isinstance(value, list | tuple) and value and callable(value[0]):
        return type(value)(portable(store, v) for v in value)
    if isinstance(value, list) and value and isinstance(value[0], tuple) and value[0] and callable(value[0][0]):
        return [(portable(store, f), tuple(portable(store, a) for a in args)) for f, args in value]
    return value


def resolved(store: RoomStore, call: tuple) -> tuple:
    """A portable call as the store runs it."""
    (_, part, name), args = call
    if name == "nothing":
        return (lambda: None), ()
    function = getattr(getattr(store, part) if part else store, name)
    args = list(args)
    for i, arg in enumerate(args):
        if isinstance(arg, Facts) and arg.objects is not None:
            args[i] = functools.partial(hand_facts, arg.objects, **arg.keywords)
        elif isinstance(arg, Facts):
            events = args[4]                            # hand_ended(hand_id, at, end, rake, events, ...)
            args[i] = functools.partial(facts_from_dicts, list(events), **arg.keywords)
    return function, tuple(args)


def record(tables: int, warmup: int, actions: int) -> tuple[list, int]:
    """Play the room; every batch its writer ran, portable, and where the measured stretch's batches begin."""
    batches: list = []
    original = RoomStore.batch

    def recording(self: RoomStore, calls: list) -> list:
        batches.append([(portable(self, f), tuple(portable(self, a) for a in args)) for f, args in calls])
        return original(self, calls)

    RoomStore.batch = recording
    try:
        with tempfile.TemporaryDirectory() as directory:
            bench = action_path.Bench(tables, "queued", directory)
            bench.play(warmup)
            bench.flush()
            mark = len(batches)
            bench.play(actions)
            bench.flush()
            bench.close()
    finally:
        RoomStore.batch = original
    return batches, mark


def fresh_store(directory: str) -> RoomStore:
    engine = make_engine(sqlite_url(directory))
    migrate(engine)
    return RoomStore(engine)


def replay_thread(batches: list, mark: int) -> float:
    """The writer's CPU seconds for the measured batches, run on this thread."""
    with tempfile.TemporaryDirectory() as directory:
        store = fresh_store(directory)
        spent = 0.0
        for n, batch in enumerate(batches):
            calls = [resolved(store, call) for call in batch]
            started = time.thread_time()
            store.batch(calls)
            if n >= mark:
                spent += time.thread_time() - started
        store.engine.dispose()
    return spent


def writer_process(pipe: Any, directory: str) -> None:
    """The writer process: batches in, each call's outcome out; its CPU for the measured ones at the end."""
    store = fresh_store(directory)
    spent = [0.0, 0.0, 0.0]                     # CPU seconds: on the batches' calls alone, user, system
    while True:
        started = os.times()
        message = pipe.recv_bytes()
        if message == b"stop":
            pipe.send_bytes(pickle.dumps(spent))
            return
        measured, batch = pickle.loads(message)
        calls = [resolved(store, call) for call in batch]
        before = time.thread_time()
        results = store.batch(calls)
        on_calls = time.thread_time() - before
        pipe.send_bytes(pickle.dumps([(done, None if done else repr(value)) for done, value in results]))
        if measured:
            ended = os.times()
            spent[0] += on_calls
            spent[1] += ended.user - started.user
            spent[2] += ended.system - started.system


def replay_process(batches: list, mark: int) -> tuple[float, list[float]]:
    """The sender's CPU seconds for the measured batches, and the writer process's (on the calls alone, user,
    system: the pipe and being woken)."""
    context = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as directory:
        ours, theirs = context.Pipe()
        child = context.Process(target=writer_process, args=(theirs, directory))
        child.start()
        sender = 0.0
        for n, batch in enumerate(batches):
            started = time.thread_time()
            ours.send_bytes(pickle.dumps((n >= mark, batch), pickle.HIGHEST_PROTOCOL))
            spent = time.thread_time() - started
            answer = ours.recv_bytes()                  # the reactor would take it on a later turn
            started = time.thread_time()
            for done, error in pickle.loads(answer):
                if not done:
                    raise RuntimeError(error)
            if n >= mark:
                sender += spent + time.thread_time() - started
        ours.send_bytes(b"stop")
        writer = pickle.loads(ours.recv_bytes())
        child.join()
    return sender, writer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--actions", type=int, default=10_000)
    parser.add_argument("--warmup", type=int, default=3_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    batches, mark = record(args.tables, args.warmup, args.actions)
    per = 1e6 / args.actions
    measured = batches[mark:]
    size = statistics.mean(len(pickle.dumps(b, pickle.HIGHEST_PROTOCOL)) for b in measured)
    print(f"{len(measured)} batches measured ({sum(len(b) for b in measured)} calls, {size:.0f} bytes pickled "
          f"each on average)")
    threads, senders, writers, calls = [], [], [], []
    for _ in range(args.repeat):                        # interleaved: the machine's noise falls on both alike
        threads.append(replay_thread(batches, mark) * per)
        sender, (on_calls, user, system) = replay_process(batches, mark)
        senders.append(sender * per)
        writers.append((user + system) * per)
        calls.append(on_calls * per)
        print(f"  run: thread {threads[-1]:6.1f} µs; process: sender {senders[-1]:6.1f} µs + writer "
              f"{writers[-1]:6.1f} µs (user {user * per:.1f}, system {system * per:.1f}; "
              f"store calls {calls[-1]:.1f}) per action", flush=True)
    thread, sender, writer, on_calls = (statistics.median(x) for x in (threads, senders, writers, calls))
    print(f"median of {args.repeat}: writer thread {thread:.1f} µs per action (the room's process); writer "
          f"process {sender + writer:.1f} µs (sender {sender:.1f} µs on the reactor, writer {writer:.1f} µs in its "
          f"own process, {on_calls:.1f} µs of it in the store's calls)")


if __name__ == "__main__":
    main()
