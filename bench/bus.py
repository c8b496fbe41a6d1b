"""What the bus costs a poker action: the in-process bus, the strict test bus, and the NATS bus (both bridges).

The traffic is a table's: per action, the gateway's side asks ``table.<id>.command`` (an ``Act`` record of about
100 bytes) and the table host answers it after publishing six frames of about 300 bytes to the six seats'
``table.<id>.seat.<name>``, which the gateway's side subscribes to. An action's round trip ends when its answer and
its six frames have arrived. On NATS the gateway and the host are two buses on two connections (two processes of a
room, here in one), so this process's CPU is both sides' cost; ``nats-server``'s own CPU (another process, read
from /proc) is reported beside it.

Each bus runs the same actions twice: one table at a time (the round trip alone) and ``--tables`` tables at once
(the CPU per action under load, the way a busy room batches). The machines are shared and noisy: only the ratios
of one run mean anything, so every line is a ratio to the in-process bus of the same run. The asyncio reactor can
only be installed before anything else uses a reactor, so its variant runs in a child process (with its own
in-process baseline, which its ratio is to).

    python bench/bus.py [--actions 4000] [--tables 16] [--nats nats://127.0.0.1:4222]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

if __name__ == "__main__" and "--asyncio-reactor" in sys.argv:
    from twisted.internet import asyncioreactor

    asyncioreactor.install()

from twisted.internet import defer, protocol, reactor  # noqa: E402
from twisted.internet.endpoints import TCP4ClientEndpoint  # noqa: E402

from pokerroom.bus.records import Frame, packb  # noqa: E402
from pokerroom.bus.subjects import table_command, table_seat  # noqa: E402
from pokerroom.table.commands import Act  # noqa: E402

SEATS = 6


def act(n: int) -> Act:
    return Act(f"player-{n % SEATS:04d}-of-table-nl-holdem-2-4", "raise", 1_250 + n % 100, None,
               f"decision-{n:012d}-{n % 7}-of-hand-{n // 9:010d}")


def frame(table: str, seq: int, seat: int) -> Frame:
    return Frame({"type": "table_event", "table": table, "seq": seq,
                  "events": [{"event": "bet", "seat": seat, "player": f"player-{seat:04d}-of-table", "amount": 1_250,
                              "stack": 48_750, "pot": 3_900, "to_call": 1_250, "street": "flop"},
                             {"event": "turn", "seat": (seat + 1) % SEATS, "deadline": 1_733_400_000_000,
                              "time_bank": 30_000, "legal": ["fold", "call", "raise"], "min": 2_500,
                              "max": 48_750}],
                  "board": ["Ah", "Kd", "7c"], "pots": [3_900]}, instead=("player-0001", "player-0002"))


class Table:
    """One table's actions, one after another: ask, then wait for the answer and all six frames."""

    def __init__(self, table: str, gateway, actions: int, round_trips: list[float], done: defer.Deferred) -> None:
        self.table, self.gateway, self.left, self.round_trips, self.done = table, gateway, actions, round_trips, done
        self.frames, self.answered, self.started, self.number = 0, False, 0.0, 0
        for seat in range(SEATS):
            gateway.subscribe(table_seat(table, f"player-{seat:04d}"), self.heard)

    def heard(self, subject, payload) -> None:
        self.frames += 1
        self.check()

    def answer(self, result) -> None:
        self.answered = True
        self.check()

    def go(self) -> None:
        self.frames, self.answered, self.started = 0, False, time.perf_counter()
        self.number += 1
        self.gateway.request(table_command(self.table), act(self.number)).addCallbacks(self.answer, self.done.errback)

    def check(self) -> None:
        if self.answered and self.frames == SEATS:
            self.round_trips.append(time.perf_counter() - self.started)
            self.left -= 1
            if self.left:
                reactor.callLater(0, self.go)
            else:
                self.done.callback(None)


def host_tables(host, tables: list[str]) -> None:
    for table in tables:
        host.respond(table_command(table), partial(command, host, table, itertools.count(1)))


def command(host, table: str, hands, _act: Act) -> dict:
    """The table host's answer to an action: six seats' frames first, then the seat."""
    seq = next(hands)
    for seat in range(SEATS):
        host.publish(table_seat(table, f"player-{seat:04d}"), frame(table, seq, seat))
    return {"seat": 3}


def nats_server_ticks() -> int | None:
    """nats-server's CPU so far in clock ticks (user + system), or None where it cannot be read."""
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and (entry / "comm").read_text().strip() == "nats-server":
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                return int(fields[11]) + int(fields[12])
        except OSError:
            continue
    return None


@defer.inlineCallbacks
def measure(gateway, host, actions: int, tables: int):
    """CPU per action (this process; nats-server's apart), p50 and p99 round trip, in µs."""
    names = [f"bench-{uuid.uuid4().hex[:6]}-{n}" for n in range(tables)]
    host_tables(host, names)
    round_trips: list[float] = []
    finished = [defer.Deferred() for _ in names]
    runners = [Table(name, gateway, max(1, actions // tables), round_trips, d)
               for name, d in zip(names, finished, strict=True)]
    yield host.flushed()
    yield gateway.flushed()
    for runner in runners:                      # a warm-up action each, not counted
        runner.left += 1
    cpu, server = time.process_time(), nats_server_ticks()
    counted_from = len(runners)
    for runner in runners:
        runner.go()
    yield defer.gatherResults(finished, consumeErrors=True)
    cpu = time.process_time() - cpu
    server_after = nats_server_ticks()
    counted = round_trips[counted_from:]
    n = len(round_trips)
    quantiles = statistics.quantiles(counted, n=100)
    result = {"cpu": cpu / n * 1e6, "p50": quantiles[49] * 1e6, "p99": quantiles[98] * 1e6}
    if server is not None and server_after is not None:
        result["server"] = (server_after - server) / os.sysconf("SC_CLK_TCK") / n * 1e6
    return result


@defer.inlineCallbacks
def run_bus(make, actions: int, tables: int):
    gateway, host, close = yield make()
    try:
        alone = yield measure(gateway, host, max(200, actions // 4), 1)
        loaded = yield measure(gateway, host, actions, tables)
    finally:
        yield close()
    return {"alone": alone, "loaded": loaded}


def in_process():
    from pokerroom.bus.in_process import InProcessBus

    bus = InProcessBus()
    return defer.succeed((bus, bus, lambda: defer.succeed(None)))


def strict():
    from pokerroom.bus.strict import StrictBus

    bus = StrictBus(reactor)
    return defer.succeed((bus, bus, lambda: defer.succeed(None)))


def nats_pair(url: str):
    @defer.inlineCallbacks
    def make():
        from pokerroom.bus.nats_bus import NatsBus

        room = f"bench{uuid.uuid4().hex[:8]}"
        gateway, host = NatsBus(reactor, url, room=room), NatsBus(reactor, url, room=room)
        yield defer.gatherResults([gateway.connect(), host.connect()], consumeErrors=True)
        return gateway, host, lambda: defer.gatherResults([gateway.close(), host.close()], consumeErrors=True)

    return make


def line(name: str, result: dict, base: dict | None) -> str:
    """``name: CPU per action loaded and alone, round trips alone and loaded``, each with its ratio to ``base``."""

    def value(phase: str, key: str) -> str:
        mine = result[phase][key]
        return f"{mine:.0f} us" + (f" ({mine / base[phase][key]:.1f}x)" if base else "")

    text = (f"{name}: {value('loaded', 'cpu')} CPU per action loaded, {value('alone', 'cpu')} alone"
            f"; round trip alone p50 {value('alone', 'p50')}, p99 {value('alone', 'p99')}"
            f"; loaded p50 {value('loaded', 'p50')}, p99 {value('loaded', 'p99')}")
    if "nats" in name and "server" in result["loaded"]:
        text += f"; nats-server's own CPU {result['loaded']['server']:.0f} us per action loaded"
    return text


class Echo(protocol.Protocol):
    def dataReceived(self, data: bytes) -> None:
        self.transport.write(data)


class Pinger(protocol.Protocol):
    """A client of the echo: one 300-byte message at a time, ``left`` of them, then ``done``."""

    def __init__(self, left: int, done: defer.Deferred) -> None:
        self.left, self.done, self.got = left, done, 0

    def connectionMade(self) -> None:
        self.transport.write(ECHOED)

    def dataReceived(self, data: bytes) -> None:
        self.got += len(data)
        if self.got >= len(ECHOED):
            self.got -= len(ECHOED)
            self.left -= 1
            if self.left:
                self.transport.write(ECHOED)
            else:
                self.transport.loseConnection()
                self.done.callback(None)


ECHOED = b"x" * 300


@defer.inlineCallbacks
def echo(round_trips: int, clients: int):
    """The reactor's own cost of client traffic: CPU per round trip of a 300-byte TCP echo on loopback (a write
    and a read on each side, as a WebSocket frame in and a frame out of the room), ``clients`` at once."""
    factory = protocol.Factory.forProtocol(Echo)
    port = reactor.listenTCP(0, factory, interface="127.0.0.1")
    endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", port.getHost().port)
    finished = [defer.Deferred() for _ in range(clients)]
    cpu = time.process_time()
    yield defer.gatherResults([endpoint.connect(protocol.Factory.forProtocol(lambda d=d: Pinger(
        round_trips // clients, d))) for d in finished])
    yield defer.gatherResults(finished)
    cpu = time.process_time() - cpu
    yield port.stopListening()
    return cpu / round_trips * 1e6


@defer.inlineCallbacks
def main(options):
    results: dict = {}
    try:
        results["in-process"] = yield run_bus(in_process, options.actions, options.tables)
        if options.asyncio_reactor:
            results["nats asyncio reactor"] = yield run_bus(nats_pair(options.nats), options.actions, options.tables)
        else:
            results["strict"] = yield run_bus(strict, options.actions, options.tables)
            results["nats thread bridge"] = yield run_bus(nats_pair(options.nats), options.actions, options.tables)
        results["echo"] = yield echo(options.actions * 5, options.tables)
    finally:
        reactor.stop()
    options.results = results


def run(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=4000)
    parser.add_argument("--tables", type=int, default=16)
    parser.add_argument("--nats", default=os.environ.get("POKERROOM_NATS", "nats://127.0.0.1:4222"))
    parser.add_argument("--asyncio-reactor", action="store_true", help="(the child run on the asyncio reactor)")
    options = parser.parse_args(argv)
    options.results = None
    reactor.callWhenRunning(lambda: main(options).addErrback(lambda f: print(f.getTraceback(), file=sys.stderr)))
    reactor.run()
    if options.results is None:
        sys.exit(1)
    if options.asyncio_reactor:
        print(json.dumps(options.results))
        return
    results = options.results
    child = subprocess.run([sys.executable, __file__, "--asyncio-reactor", "--actions", str(options.actions),
                            "--tables", str(options.tables), "--nats", options.nats], capture_output=True, text=True)
    sizes = len(packb(act(1))), len(packb(frame("bench-abcdef-1", 1, 0)))
    print(f"per action: a {sizes[0]}-byte command request and its answer, {SEATS} frames of {sizes[1]} bytes;"
          f" {options.actions} actions over {options.tables} tables at once (loaded), and one table alone")
    base = results["in-process"]
    print(line("in-process", base, None) + " (the ratios below are to these)")
    for name in ("strict", "nats thread bridge"):
        print(line(name, results[name], base))
    if child.returncode == 0:
        theirs = json.loads(child.stdout.strip().splitlines()[-1])
        print(line("nats asyncio reactor (against its own in-process run)", theirs["nats asyncio reactor"],
                   theirs["in-process"]))
        print(f"the reactor's own cost of client traffic (a 300-byte TCP echo on loopback, {options.tables} clients):"
              f" epoll {results['echo']:.1f} us per round trip, asyncio {theirs['echo']:.1f} us"
              f" ({theirs['echo'] / results['echo']:.2f}x)")
    else:
        print(f"nats asyncio reactor: the child run failed:\n{child.stderr[-2000:]}")


if __name__ == "__main__":
    run()
