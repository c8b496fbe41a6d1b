"""Where a poker action's CPU goes, without sockets: the room in process, its frames encoded but never sent.

    PYTHONPATH=. .venv/bin/python bench/action_path.py [--mode thread|queued|inline] [--actions N]
                                                      [--repeat R] [--profile] [--tables T] [--observers K]
                                                      [--components] [--checkout DIR]

Builds a :class:`~pokerroom.shell.composition.RoomServices` on a heap clock with ``--tables``
six-seat NLHE tables (50 by default), the real store (SQLite in a temporary
directory) and six players seated at each (and ``--observers`` anonymous observers), each on an in-memory connection
that encodes what it is sent as ``RoomProtocol`` does (``send_frame`` encodes
a shared frame once per subprotocol, the bytes kept as the gateway keeps them; a decision's ``legal`` is
the shared bytes extended) and then drops the bytes. The players act as the
load test's bots do -- check when they may, else call, and fold one time in
ten -- through ``room.gateway.handle(session, parse_request(...))``; between hands
the clock advances for the tables' timers. Deterministic: seeded shuffles and
choices. The garbage collector is paced as the server paces it
(:class:`~pokerroom.shell.collector.CollectorPacer`).

The writer runs as ``--mode`` says:

* ``thread`` (default): on its own thread pool as the server runs it
  (``pokerroom/app.py``); the reactor thread's CPU is ``time.thread_time``
  on this thread, the writer's is the rest of ``time.process_time``;
* ``queued``: the server's batching, but each batch run on this thread when
  the loop next drains (so ``--profile`` sees the writer too);
* ``inline``: no writer pool (the tests' way: every write its own
  transaction; not what the server does).

Prints µs per action: the reactor's share (without the store), the store's
(the writer's batches), and the whole process; the median of ``--repeat``
runs. ``--profile`` runs once more under cProfile (mode ``queued`` unless
told) and prints the top 30 functions by own and by cumulative time.
``--components`` runs once more under cProfile (mode ``queued``) and prints
each part of the room's own time per action: the engine, the table host and
its runner, the recorder, the store, the gateway, the protocol, the bus,
Twisted, and the bench's own connections and driver. Time in the standard
library or a built-in is its caller's part. cProfile slows Python calls more
than C, so the parts are for comparing runs of this bench, not the server.
``--checkout DIR`` imports the room from another checkout (this bench as it
is now, the room as it was): run it with and without, interleaved, for a
before/after.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import heapq
import io
import itertools
import pstats
import queue
import random
import statistics
import sys
import tempfile
import time
from collections import deque
from pathlib import Path
from typing import Any

# the room this bench imports: this checkout's, or another's (``--checkout DIR``: a before/after)
_CHECKOUT = next((sys.argv[i + 1] for i, a in enumerate(sys.argv[:-1]) if a == "--checkout"), None)
sys.path.insert(0, str(Path(_CHECKOUT).resolve() if _CHECKOUT else Path(__file__).resolve().parents[1]))

from bench_tables import seeded_shuffle, six_max_config  # noqa: E402
from twisted.internet.base import DelayedCall  # noqa: E402
from twisted.python.failure import Failure  # noqa: E402
from twisted.python.threadpool import ThreadPool  # noqa: E402

from pokerroom.bus.records import Frame  # noqa: E402
from pokerroom.gateway.frame_bytes import PreparedFrames  # noqa: E402
from pokerroom.players import AccountRules  # noqa: E402
from pokerroom.protocol.codec import MSGPACK, Codec  # noqa: E402
from pokerroom.protocol.schema import parse_request  # noqa: E402
from pokerroom.shell.collector import CollectorPacer  # noqa: E402
from pokerroom.shell.composition import RoomServices  # noqa: E402
from pokerroom.store.db import make_engine, migrate, sqlite_url  # noqa: E402
from pokerroom.store.room_store import RoomStore  # noqa: E402
from pokerroom.table.config import tables_from_config  # noqa: E402

CODEC = Codec(MSGPACK)
FRAMES = PreparedFrames().of(CODEC)


class ThreadClock:
    """A clock as the real reactor keeps its timers (a heap, cancelled calls skipped when they come up; Twisted's
    test ``Clock`` sorts every call, which would bill the bench), that also takes calls from other threads (the
    writer's results), run when the loop drains."""

    def __init__(self) -> None:
        self.now = 0.0
        self.heap: list = []
        self.order = itertools.count()
        self.from_threads: queue.SimpleQueue = queue.SimpleQueue()

    def seconds(self) -> float:
        return self.now

    def callLater(self, delay: float, f, *args, **kwargs) -> DelayedCall:   # noqa: ANN001, N802 - Twisted's name
        call = DelayedCall(self.now + delay, f, args, kwargs, lambda call: None, self._reset, seconds=self.seconds)
        heapq.heappush(self.heap, (call.time, next(self.order), call))
        return call

    def _reset(self, call: DelayedCall) -> None:
        heapq.heappush(self.heap, (call.time, next(self.order), call))

    def advance(self, amount: float) -> None:
        self.now += amount
        heap = self.heap
        while heap and heap[0][0] <= self.now:
            at, _, call = heapq.heappop(heap)
            if call.cancelled or call.called or call.time != at:
                continue
            call.called = 1
            call.func(*call.args, **call.kw)

    def callFromThread(self, f, *args, **kwargs) -> None:   # noqa: ANN001, N802 - Twisted's name
        self.from_threads.put((f, args, kwargs))

    def drain(self) -> None:
        while True:
            try:
                f, args, kwargs = self.from_threads.get_nowait()
            except queue.Empty:
                return
            f(*args, **kwargs)


class QueuedPool:
    """A writer 'thread pool' whose jobs run on the caller's thread when :meth:`run` is called: the server's
    batching, on one thread."""

    def __init__(self) -> None:
        self.jobs: list = []

    def start(self) -> None:                    # the room starts and stops its writer: nothing to do here
        pass

    def stop(self) -> None:
        pass

    def callInThreadWithCallback(self, on_result, f, *args, **kwargs) -> None:   # noqa: ANN001, N802
        self.jobs.append((on_result, f, args, kwargs))

    def run(self) -> None:
        jobs, self.jobs = self.jobs, []
        for on_result, f, args, kwargs in jobs:
            try:
                result = f(*args, **kwargs)
            except BaseException:                                # noqa: BLE001 - handed back as the pool does
                on_result(False, Failure())
            else:
                on_result(True, result)


class Connection:
    """A socket double that encodes what it is sent as ``RoomProtocol`` does and keeps only the decisions."""

    def __init__(self, decisions: deque) -> None:
        self.decisions = decisions
        self.session: Any = None
        self.bytes = 0

    def send(self, message: dict) -> None:
        self.bytes += len(CODEC.encode(message))
        if "legal" in message:
            self.decisions.append((self.session, message["table"], message["legal"]))

    def send_frame(self, frame: Frame) -> None:
        payload = FRAMES.prepared(frame)[0]
        extra = frame.extra
        if extra:
            payload = CODEC.extend(payload, extra)
            if "legal" in extra:
                self.decisions.append((self.session, frame.message["table"], extra["legal"]))
        elif "legal" in frame.message:
            self.decisions.append((self.session, frame.message["table"], frame.message["legal"]))
        self.bytes += len(payload)

    def close(self, code: int, reason: str) -> None:
        pass


class Bench:
    def __init__(self, tables: int, mode: str, directory: str, observers: int = 0) -> None:
        self.mode = mode
        engine = make_engine(sqlite_url(directory))
        migrate(engine)
        self.store = RoomStore(engine)
        self.clock = ThreadClock()
        self.clock.advance(1_700_000_000)
        self.pool: Any = None
        if mode == "thread":
            self.pool = ThreadPool(minthreads=1, maxthreads=1, name="bench-store")     # started with the room
        elif mode == "queued":
            self.pool = QueuedPool()
        self.store_seconds = 0.0
        batch = self.store.batch

        def timed_batch(calls):   # noqa: ANN001, ANN202 - the writer's CPU, on whichever thread runs it
            started = time.thread_time()
            try:
                return batch(calls)
            finally:
                self.store_seconds += time.thread_time() - started

        self.store.batch = timed_batch
        shuffle = seeded_shuffle(1)
        config = six_max_config(tables)
        self.room = RoomServices(tables_from_config(config), self.store, self.clock, account_rules=AccountRules(),
                                 shuffle=shuffle, writer=self.pool)
        self.room.startService()
        self.decisions: deque = deque()
        self.choices = random.Random(2)
        self.rid = 0
        self.idle = 0
        self.stale = 0
        self.step = 1 / 2500                # the load test's target: 2,500 actions a second
        for t in range(1, tables + 1):
            for seat in range(1, 7):
                name = f"p{t:03d}s{seat}"
                connection = Connection(self.decisions)
                session = self.room.gateway.connected(connection, f"10.{t // 250}.{t % 250}.{seat}")
                connection.session = session
                session.player_id, session.country = name, "NL"
                self.room.gateway.identify(session, name)
                self.room.wallet.deposit(name, 1_000_000, None)     # no stored account: no AC-5 limits
                answer = self.ask(session, "join", table=f"t{t}", buy_in=1_000, seat=seat)
                assert answer.get("ok"), answer
            for watcher in range(observers):        # anonymous observers: the table's public stream alone
                connection = Connection(deque())
                session = self.room.gateway.connected(connection, f"10.{200 + t // 250}.{t % 250}.{watcher}")
                connection.session = session
                assert self.ask(session, "observe", table=f"t{t}", on=True).get("ok")
            self.clock.advance(5.0 / tables)        # the tables' hands staggered, so every stretch is alike
            self.settle()
        self.settle()
        self.pacer = CollectorPacer(self.clock)     # the garbage collector paced as the server paces it (app.py)
        self.pacer.start()

    def ask(self, session: Any, kind: str, **fields: Any) -> dict:
        self.rid += 1
        answer = self.room.gateway.handle(session, parse_request({"type": kind, "rid": self.rid, **fields}))
        if isinstance(answer, dict):
            session.connection.send(answer)
        return answer

    def settle(self) -> None:
        """What the writer finished is handed back; the queued pool's batches run."""
        if self.mode == "queued":
            self.pool.run()
        self.clock.drain()

    def play(self, actions: int) -> int:
        """``actions`` acts, the clock moving 1/2500 s each (and half a second when nobody is to act)."""
        done = 0
        while done < actions:
            if not self.decisions:
                self.idle += 1
                self.clock.advance(0.05)
                self.settle()
                continue
            session, table, legal = self.decisions.popleft()
            if legal["can_check"]:
                action = "check"
            else:
                action = "fold" if self.choices.random() < 0.1 else "call"
            answer = self.ask(session, "act", table=table, action=action, decision=legal["decision"])
            if isinstance(answer, dict) and not answer.get("ok"):     # a hand-ending act: a Deferred answer
                # a decision its clock ended first (a player whose turn came while the tables ahead of theirs
                # were being seated): as a bot would, it hears no and waits for its next turn
                assert answer["error"]["code"] == "stale_decision", answer
                self.stale += 1
                continue
            done += 1
            self.clock.advance(self.step)
            if done % 16 == 0:
                self.settle()
        return done

    def flush(self) -> None:
        out: list = []
        self.room.recorder.flushed().addBoth(out.append)
        while not out:
            self.clock.advance(0.001)           # the writer's gathering pause (25 ms) passes; decisions wait
            self.settle()
            if self.mode == "thread":
                time.sleep(0.0005)

    def hands(self) -> int:
        return sum(runner.table.hand_number for runner in self.room.tables.runners.values())

    def close(self) -> None:
        self.pacer.stop()
        gc.unfreeze()
        if self.mode == "thread":
            self.pool.stop()


def measure(bench: Bench, actions: int) -> dict[str, float]:
    bench.flush()
    hands = bench.hands()
    store_before = bench.store_seconds
    thread_before, process_before, wall_before = time.thread_time(), time.process_time(), time.perf_counter()
    simulated = bench.clock.seconds()
    bench.play(actions)
    bench.flush()
    thread = time.thread_time() - thread_before
    process = time.process_time() - process_before
    wall = time.perf_counter() - wall_before
    store = bench.store_seconds - store_before
    per = 1e6 / actions
    on_reactor = thread - (store if bench.mode != "thread" else 0.0)
    return {"reactor": on_reactor * per, "store": store * per, "process": process * per, "wall": wall * per,
            "hands": bench.hands() - hands, "rate": actions / (bench.clock.seconds() - simulated),
            "stale": bench.stale}


# Each part of the room's work, by where its code lives (the first that matches); a built-in or standard
# library function's time goes to the part that called it.
PARTS = (("engine", ("pokerroom/poker/", "pokerroom/table/", "pokerroom/cards.py", "pokerroom/_evaluator")),
         ("table host and runner", ("pokerroom/shell/cash_runner", "pokerroom/shell/table_host",
                                    "pokerroom/shell/runner", "pokerroom/shell/cash_play", "pokerroom/shell/table_asks",
                                    "pokerroom/shell/audiences", "pokerroom/shell/asked")),
         ("recorder", ("pokerroom/shell/recorder", "pokerroom/shell/outcome_hold")),
         ("store", ("pokerroom/store/", "sqlalchemy/")),
         ("gateway", ("pokerroom/gateway/",)),
         ("protocol", ("pokerroom/protocol/", "msgpack/")),
         ("bus", ("pokerroom/bus/",)),
         ("rest of the room", ("pokerroom/",)),
         ("twisted", ("twisted/",)),
         ("bench connections and driver", ("bench/",)))


def _part(function: tuple) -> str | None:
    path = function[0].replace("\\", "/")
    for part, places in PARTS:
        if any(place in path for place in places):
            return part
    return None


def parts_per_action(profile: cProfile.Profile, actions: int) -> dict[str, float]:
    """µs per action of each of :data:`PARTS` (own time), a built-in's or the standard library's given to its
    callers' parts in proportion to the time each caller spent in it."""
    stats = pstats.Stats(profile).stats              # function -> (calls, primitive, own, cumulative, callers)
    totals: dict[str, float] = {}

    def give(function: tuple, seconds: float, depth: int) -> None:
        part = _part(function)
        callers = stats.get(function, (0, 0, 0, 0, {}))[4]
        if part is None and callers and depth < 12:
            spent = sum(entry[2] for entry in callers.values()) or 1.0
            for caller, entry in callers.items():
                give(caller, seconds * entry[2] / spent, depth + 1)
            return
        totals[part or "unattributed"] = totals.get(part or "unattributed", 0.0) + seconds

    for function, (_, _, own, _, _) in stats.items():
        give(function, own, 0)
    return {part: seconds * 1e6 / actions for part, seconds in totals.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mode", choices=("thread", "queued", "inline"), default="thread")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--observers", type=int, default=0, help="observers at each table besides its six players")
    parser.add_argument("--actions", type=int, default=20_000)
    parser.add_argument("--warmup", type=int, default=3_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--profile-mode", choices=("thread", "queued", "inline"), default="queued")
    parser.add_argument("--components", action="store_true",
                        help="the room's own time per action, part by part, under cProfile (queued mode)")
    parser.add_argument("--checkout", default="", help="import the room from this checkout instead of this one")
    args = parser.parse_args()
    import pokerroom

    print(f"the room from {Path(pokerroom.__file__).resolve().parents[1]}", flush=True)
    runs = []
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as directory:
            bench = Bench(args.tables, args.mode, directory, args.observers)
            bench.play(args.warmup)
            result = measure(bench, args.actions)
            bench.close()
        runs.append(result)
        print(f"  run: reactor {result['reactor']:6.1f} µs  store {result['store']:6.1f} µs  "
              f"process {result['process']:6.1f} µs  wall {result['wall']:6.1f} µs per action  "
              f"({args.actions} actions, {result['hands']} hands)", flush=True)
    if runs:
        med = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
        print(f"median of {len(runs)} ({args.mode}, {args.tables} tables): reactor {med['reactor']:.1f} µs, "
              f"store {med['store']:.1f} µs, process {med['process']:.1f} µs per action; "
              f"{args.actions / med['hands']:.1f} actions per hand, {med['rate']:.0f} actions per simulated second, "
              f"{sum(r['stale'] for r in runs)} stale decisions refused")
    if args.components:
        profile = profiled(args, "queued")
        parts = parts_per_action(profile, args.actions)
        print(f"parts of an action under cProfile (queued, {args.tables} tables, {args.actions} actions), "
              f"µs per action, {sum(parts.values()):.1f} in all:")
        for part, micros in sorted(parts.items(), key=lambda item: -item[1]):
            print(f"  {part:30} {micros:7.1f}")
    if args.profile:
        profile = profiled(args, args.profile_mode)
        for order in ("tottime", "cumulative"):
            out = io.StringIO()
            pstats.Stats(profile, stream=out).sort_stats(order).print_stats(30)
            text = out.getvalue()
            print(text[text.index("   ncalls"):] if "   ncalls" in text else text)


def profiled(args: argparse.Namespace, mode: str) -> cProfile.Profile:
    """``args.actions`` actions played under cProfile, after the warm-up and every write of it landed."""
    with tempfile.TemporaryDirectory() as directory:
        bench = Bench(args.tables, mode, directory, args.observers)
        bench.play(args.warmup)
        bench.flush()
        profile = cProfile.Profile()
        profile.enable()
        bench.play(args.actions)
        bench.flush()
        profile.disable()
        bench.close()
    return profile


if __name__ == "__main__":
    main()
