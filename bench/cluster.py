"""The process line's cost (issue 21): one load on one process and on two processes with NATS between them, in one
run.

    .venv/bin/python bench/cluster.py [--clients 1000] [--seconds 20] [--target 1000] [--client-processes 2]
                                      [--postgres postgresql+psycopg://postgres@127.0.0.1:5432/postgres]
                                      [--nats nats://127.0.0.1:4222]

The same room (bench/load.py's: one 6-max No-Limit table per six clients, fast house-rule timings) and the same
players (bench/load_clients.py's lean clients, each thinking tables / ``--target`` seconds on average) against:

a. **one process**, ``pokerroom serve`` (``--role both``) on the in-process bus -- the room as it runs alone;
b. **one process on NATS**, ``--role both --bus nats://…``: every request and frame through the broker, in one
   process (the bus's own cost, the process line not yet drawn);
c. **split over NATS**, ``--role tables`` and ``--role gateway`` in two processes on one NATS room: clients on the
   gateway, the tables, wallet and hall in the other.

Each on a fresh PostgreSQL database of its own (the database a split room shares; the single process on it too,
so the three differ only in the bus and the processes), dropped afterwards, and a NATS room of its own. After
everyone is seated each is measured for ``--seconds``: actions/s (the gateway's /metrics), p50/p99 round trip of
an action (request to answer, at the client), the server CPU per action summed over the room's processes (from
/proc, every thread), and nats-server's own CPU per action apart (its pid from ``pgrep nats-server``; the
database server's is in none of them). Each line ends with its ratio to (a). The goals from the issue are for
(c) against (a): CPU per action at most 1.3x, p99 at most 2x. Takeover after SIGKILL is not measured here (the
table leases are not wired to the tables yet).
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from load import ClientPool, metric, proc_cpu, room_config, start
from sqlalchemy import create_engine, text

ROOT = Path(__file__).resolve().parents[1]
SERVER_ENV = {"POKERROOM_ARGON2": "bench", "POKERROOM_LOG_LEVEL": "error", "POKERROOM_BUS": "",
              "PYTHONPATH": str(ROOT)}
SHAPES = (("one", "one process", "both", False), ("nats", "one process on NATS", "both", True),
          ("split", "split over NATS", "split", True))


def nats_server_pid() -> int | None:
    found = subprocess.run(["pgrep", "-o", "nats-server"], capture_output=True, text=True).stdout.split()
    return int(found[0]) if found else None


class Database:
    """A fresh PostgreSQL database for one shape, dropped (connections and all) afterwards."""

    def __init__(self, admin_url: str) -> None:
        self.admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
        self.name = f"pokerroom_bench_{uuid.uuid4().hex[:12]}"
        self.url = admin_url.rsplit("/", 1)[0] + f"/{self.name}"

    def __enter__(self) -> str:
        with self.admin.connect() as c:
            c.execute(text(f'CREATE DATABASE "{self.name}"'))
        return self.url

    def __exit__(self, *exc: object) -> None:
        with self.admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)'))
        self.admin.dispose()


def serve(tmp: Path, database: str, role: str, bus: str, node: str) -> tuple[subprocess.Popen, str]:
    command = [sys.executable, "-m", "pokerroom.cli", "serve", "--port", "0", "--data-dir", str(tmp / "data"),
               "--config", str(tmp / "room.toml"), "--demo", "--bots", "0", "--max-rate", "1000",
               "--database", database, "--node", node]
    if role != "both":
        command += ["--role", role]
    if bus:
        command += ["--bus", bus]
    process, line = start(command, env=SERVER_ENV)
    if "serving on" not in line:
        process.kill()
        raise RuntimeError(f"pokerroom serve --role {role} did not start: {line!r}")
    return process, line.split()[4]


def run_shape(shape: str, n: int, args: argparse.Namespace) -> dict:
    """One shape of the room under ``n`` seated clients: the window's numbers."""
    tmp = Path(tempfile.mkdtemp(prefix=f"pokerroom-cluster-{shape}-"))
    (tmp / "room.toml").write_text(room_config(n))
    bus = f"{args.nats}/bench-{uuid.uuid4().hex[:12]}" if shape != "one" else ""
    servers: list[subprocess.Popen] = []
    with Database(args.postgres) as database:
        try:
            if shape == "split":
                tables, _ = serve(tmp, database, "tables", bus, "tables")     # the tables first: the gateway asks
                servers.append(tables)
                gateway, url = serve(tmp, database, "gateway", bus, "gateway")
                servers.insert(0, gateway)
            else:
                process, url = serve(tmp, database, "both", bus, "main")
                servers.append(process)
            base = url.replace("ws://", "http://").rsplit("/ws", 1)[0]
            think = -(-n // 6) / args.target if args.target else 0.0
            pool = ClientPool(url, n, args.client_processes, "room", think=think)
            try:
                started = time.monotonic()
                pool.wait_for("ready", 900)
                print(f"  seated {n} clients in {time.monotonic() - started:.1f} s; measuring for {args.seconds:g} s",
                      flush=True)
                result = measure([s.pid for s in servers], nats_server_pid() if bus else None, pool, args.seconds,
                                 lambda: metric(base, "pokerroom_actions_total"))
            finally:
                pool.stop()
        finally:
            # the gateway first, then the tables: SIGTERM, whose drain ends at once with no client left (SIGINT
            # is ignored by a process started from a background job)
            for process in servers:
                if process.poll() is None:
                    process.send_signal(signal.SIGTERM)
                try:
                    process.wait(20)
                except subprocess.TimeoutExpired:
                    process.kill()
    return result


def measure(pids: list[int], nats_pid: int | None, pool: ClientPool, seconds: float, actions) -> dict:  # noqa: ANN001
    """bench/load.py's window, its CPU summed over the room's processes, nats-server's apart."""
    cpu0, nats0, actions0 = [proc_cpu(p) for p in pids], proc_cpu(nats_pid) if nats_pid else 0.0, actions()
    pool.send("go")
    time.sleep(seconds)                       # a benchmark's measuring window, not a test's timing
    pool.send("report")
    cpu1, nats1, actions1 = [proc_cpu(p) for p in pids], proc_cpu(nats_pid) if nats_pid else 0.0, actions()
    answers = pool.wait_for("rtts", 60)
    rtts = sorted(r for answer in answers for r in answer["rtts"])
    done = max(actions1 - actions0, 1)
    each = [(b - a) / done for a, b in zip(cpu0, cpu1, strict=True)]
    return {"per_second": done / seconds, "cpu_per_action": sum(each), "each": each,
            "nats_per_action": (nats1 - nats0) / done if nats_pid else 0.0,
            "p50": statistics.median(rtts) if rtts else float("nan"),
            "p99": rtts[int(len(rtts) * 0.99)] if rtts else float("nan"), "samples": len(rtts)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=1000, help="seated clients, the same in every shape")
    parser.add_argument("--seconds", type=float, default=20, help="each measuring window")
    parser.add_argument("--target", type=float, default=1000,
                        help="actions/s the players aim at in all: each thinks (tables / target) s on average")
    parser.add_argument("--client-processes", type=int, default=2)
    parser.add_argument("--postgres", default=os.environ.get("POKERROOM_TEST_POSTGRES",
                                                             "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"),
                        help="the PostgreSQL server's maintenance URL: each shape gets a database of its own on it")
    parser.add_argument("--nats", default=os.environ.get("POKERROOM_TEST_NATS", "nats://127.0.0.1:4222"))
    args = parser.parse_args()
    n = args.clients
    print(f"{n} clients in {args.client_processes} processes, {args.seconds:g} s windows, players aiming at "
          f"{args.target:g} actions/s; PostgreSQL for every shape; load average {os.getloadavg()[0]:.2f}", flush=True)
    results = {}
    for shape, title, _, _ in SHAPES:
        print(title, flush=True)
        results[shape] = run_shape(shape, n, args)
    one = results["one"]

    def ratio(a: float, b: float) -> str:
        return f"{a / b:.2f}x" if b else "n/a"

    for shape, title, _, over_nats in SHAPES:
        r = results[shape]
        line = (f"{title}: {r['cpu_per_action'] * 1e6:.0f} us per action, p50 {r['p50'] * 1e3:.2f} ms, "
                f"p99 {r['p99'] * 1e3:.1f} ms at {r['per_second']:.0f} actions/s")
        if shape != "one":
            line = (f"{title}: {r['cpu_per_action'] * 1e6:.0f} us per action "
                    f"({ratio(r['cpu_per_action'], one['cpu_per_action'])} one process), "
                    f"p50 {r['p50'] * 1e3:.2f} ms ({ratio(r['p50'], one['p50'])}), "
                    f"p99 {r['p99'] * 1e3:.1f} ms ({ratio(r['p99'], one['p99'])}) at {r['per_second']:.0f} actions/s")
        if shape == "split":
            line += (f"; gateway {r['each'][0] * 1e6:.0f} us + tables {r['each'][1] * 1e6:.0f} us")
        if over_nats:
            line += f"; nats-server {r['nats_per_action'] * 1e6:.0f} us per action more"
        print(line, flush=True)
    split = results["split"]
    cpu, p99 = split["cpu_per_action"] / one["cpu_per_action"], split["p99"] / one["p99"]
    print("goals, split over NATS against one process (issue 21):")
    print(f"  {'PASS' if cpu <= 1.3 else 'FAIL'}  server CPU per action at most 1.3x: {cpu:.2f}x "
          f"({(split['cpu_per_action'] + split['nats_per_action']) / one['cpu_per_action']:.2f}x with nats-server's)")
    print(f"  {'PASS' if p99 <= 2 else 'FAIL'}  p99 round trip at most 2x: {p99:.2f}x", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
