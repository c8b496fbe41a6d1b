"""The process line's cost and a dead process's takeover (issue 21): one load on one process and on two processes
with NATS between them, and the seconds a SIGKILLed process's tables take to play again elsewhere, in one run.

    .venv/bin/python bench/cluster.py [--clients 1000] [--seconds 20] [--target 1000] [--client-processes 2]
                                      [--takeover-clients 120] [--takeovers 3] [--shapes one,nats,split,lease]
                                      [--postgres postgresql+psycopg://postgres@127.0.0.1:5432/postgres]
                                      [--nats nats://127.0.0.1:4222] [--before DIR]

The same room (bench/load.py's: one 6-max No-Limit table per six clients, fast house-rule timings) and the same
players (bench/load_clients.py's lean clients, each thinking tables / ``--target`` seconds on average) against:

a. **one process**, ``pokerroom serve`` (``--role both``) on the in-process bus -- the room as it runs alone;
b. **one process on NATS**, ``--role both --bus nats://…``: every request and frame through the broker, in one
   process (the bus's own cost, the process line not yet drawn);
c. **split over NATS**, ``--role tables`` and ``--role gateway`` in two processes on one NATS room: clients on the
   gateway, the tables, wallet and hall in the other;
d. **leased across processes**, the cluster path of the issue: two ``--role both`` processes on one NATS room and
   one database, B started first so that it holds every table's lease, then A, which holds none (checked in
   ``table_leases`` and A's /health before the clients come); the clients connect to A, so every action crosses
   the broker from A's gateway to B's table host and its frames come back.

Each on a fresh PostgreSQL database of its own (the database a room of several processes shares; the single
process on it too, so the shapes differ only in the bus and the processes), dropped afterwards, and a NATS room of
its own. After everyone is seated each is measured for ``--seconds``: actions/s (the /metrics of the process the
clients are on), p50/p99 round trip of an action (request to answer, at the client), the server CPU per action
summed over the room's processes (from /proc, every thread), and nats-server's own CPU per action apart (its pid
from ``pgrep nats-server``; the database server's is in none of them). Each line ends with its ratio to (a). The
goals from the issue are for the cluster path (d) against (a): CPU per action at most 1.3x, p99 at most 2x. A
shape on NATS whose tables changed hands during its window (``table_leases`` by node and epoch, before and after)
is marked INVALID: nobody played through the window. (Renewals queued behind the seating's writes once made
every table change hands at 1,000 clients; they have their own thread now, ``LeaseThread``.)
Each process's warnings are in its room's directory
(``<node>.log``). With ``--before DIR`` (another copy of the code, e.g. ``git archive`` of an earlier commit
unpacked there) each shape but (a) runs on that code too, right after its own, and is printed as ``(before)``: a
change's before and after from one run, on a machine whose load moves between runs.

**Takeover after SIGKILL**, ``--takeovers`` times, each on a fresh database and NATS room: shape (d) with
``--takeover-clients`` players seated on A at tables B holds, playing; after a few seconds of play B is killed
with SIGKILL and, from a second later (``ASK_AFTER``), every player asks to sit again every 0.25 s (a taken-over
table's players are re-seated by A with their chips and told by ``table_moved``; a join asked before that is
answered once the table is open on A). Measured from the kill: when
``table_leases`` shows every table held by A, when every player was seated again, and when the last table dealt
its first hand on A -- the takeover time (goal: at most 10 s). A kill is INVALID if B had not kept every table at
its first epoch until then. Under each takeover line, its phases (first-last table, seconds from the kill), sampled
every 0.05 s from ``table_leases``, A's /health and the players: B's lease run out (its ``expires_at``), the lease
A's, the table open on A (A's /health's count), its seats back (the ``table_moved`` push, sent once its players
are seated again), its first hand dealt on A (seen by anyone at it), and each player's join answered.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from urllib.request import urlopen

from load import ClientPool, metric, proc_cpu, room_config
from sqlalchemy import create_engine, text

ROOT = Path(__file__).resolve().parents[1]
SERVER_ENV = {"POKERROOM_ARGON2": "bench", "POKERROOM_LOG_LEVEL": "warn", "POKERROOM_BUS": "",
              "PYTHONPATH": str(ROOT)}
SHAPES = {"one": "one process", "nats": "one process on NATS", "split": "split over NATS",
          "lease": "leased across processes"}
PLAY_BEFORE_KILL = 3.0             # seconds the takeover's players play before B is killed
# Seconds after the kill the players start asking to sit again. A request that reaches NATS in the moments before
# it has seen the dead process's connection close is delivered to it and waits out the bus's request timeout (10 s,
# NoAnswer), and the player's later requests wait behind it on the connection: asked at the instant of the kill,
# every join here did (all players back at 10.4 s in such a run). Players notice a dead table later than that.
ASK_AFTER = 1.0
HOLDER, FRONT = "b", "a"            # shape (d): B holds every table's lease, the clients are on A


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


def tables_held(database: str, tenures: bool = False) -> dict[str, int]:
    """The live cash-table leases by node, as ``table_leases`` has them now (expiry is on the holders' clock, this
    machine's); with ``tenures``, by node and epoch (``b@1``): a table given up and claimed again, even by the
    same node, is at a later epoch."""
    engine = create_engine(database)
    try:
        with engine.connect() as c:
            rows = c.execute(text("SELECT node, epoch FROM table_leases WHERE resource LIKE 'cash:%' "
                                  "AND expires_at > :now"), {"now": time.time()}).all()
        held: dict[str, int] = {}
        for node, epoch in rows:
            key = f"{node}@{epoch}" if tenures else node
            held[key] = held.get(key, 0) + 1
        return held
    finally:
        engine.dispose()


class Timeline:
    """What happens at the tables from just before the kill, sampled every ``every`` s on a thread of its own, as an
    operator would watch it: each table's lease in ``table_leases`` (B's last expiry, when it was first seen A's)
    and how many tables A's /health says it plays (when it reached each count). The phases of the takeover."""

    def __init__(self, database: str, base: str, every: float = 0.05) -> None:
        self.engine = create_engine(database)
        self.base, self.every = base, every
        self.expiry: dict[str, float] = {}          # table -> B's lease's last expiry seen (this machine's clock)
        self.claimed: dict[str, float] = {}         # table -> when its lease was first seen A's
        self.opened: list[float] = []               # when A's /health first said it played 1, 2, ... tables
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, name="timeline", daemon=True)

    def __enter__(self) -> Timeline:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        self.thread.join(10)
        self.engine.dispose()

    def _run(self) -> None:
        with self.engine.connect() as c:
            while not self.done.wait(self.every):
                now = time.time()
                for table, node, expires in c.execute(text(
                        "SELECT resource, node, expires_at FROM table_leases WHERE resource LIKE 'cash:%'")).all():
                    if node == HOLDER:
                        self.expiry[table] = expires
                    elif node == FRONT:
                        self.claimed.setdefault(table, now)
                c.rollback()
                try:
                    playing = json.loads(urlopen(self.base + "/health", timeout=2).read())["tables"]
                except OSError:
                    continue
                while len(self.opened) < playing:
                    self.opened.append(now)


def phases(t: dict, killed: float, timeline: Timeline, answer: dict) -> dict:
    """Each phase's first and last table, in seconds from the kill: B's lease run out, A's, the table open on A,
    its players told ``table_moved`` (their seats back), its first hand dealt on A; the players' join answered."""
    def span(times: list[float], every: int | None = None) -> tuple[float, float] | None:
        return (min(times) - killed, max(times) - killed) if len(times) == (every or t["tables"]) else None

    return {"expired": span(list(timeline.expiry.values())), "claimed": span(list(timeline.claimed.values())),
            "opened": span(timeline.opened), "moved": span(list(answer.get("moved", {}).values())),
            "dealing": span(list(answer.get("dealing", {}).values())),
            "seated": span(list(answer["back"].values()), t["players"])}


def health(base: str) -> dict:
    return json.loads(urlopen(base + "/health", timeout=10).read())


def leased_pair(tmp: Path, database: str, bus: str, tables: int) -> tuple[list[subprocess.Popen], str]:
    """Shape (d): B, then A, both ``--role both``; every table's lease B's and none A's, checked. The processes
    (A first) and A's URL."""
    holder, holder_url = serve(tmp, database, "both", bus, HOLDER)     # first: it claims every lease as it opens
    servers = [holder]
    try:
        front, url = serve(tmp, database, "both", bus, FRONT)
        servers.insert(0, front)
        held, front_tables = tables_held(database), health(url.replace("ws://", "http://").rsplit("/ws", 1)[0])
        if held != {HOLDER: tables} or front_tables["tables"] != 0:
            raise RuntimeError(f"B should hold all {tables} tables' leases and A none: table_leases {held}, "
                               f"A's /health {front_tables}")
    except BaseException:
        stop(servers)
        raise
    return servers, url


def stop(servers: list[subprocess.Popen]) -> None:
    """Each in turn (the gateway first): SIGTERM, whose drain ends at once with no client left (SIGINT is ignored
    by a process started from a background job)."""
    for process in servers:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def serve(tmp: Path, database: str, role: str, bus: str, node: str) -> tuple[subprocess.Popen, str]:
    command = [sys.executable, "-m", "pokerroom.cli", "serve", "--port", "0", "--data-dir", str(tmp / "data"),
               "--config", str(tmp / "room.toml"), "--demo", "--bots", "0", "--max-rate", "1000",
               "--database", database, "--node", node]
    if role != "both":
        command += ["--role", role]
    if bus:
        command += ["--bus", bus]
    # its warnings kept beside the room's config (a lease given up is one)
    with open(tmp / f"{node}.log", "w") as log:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True,
                                   env=dict(os.environ, **SERVER_ENV))
    line = process.stdout.readline()
    if "serving on" not in line:
        process.kill()
        raise RuntimeError(f"pokerroom serve --role {role} did not start: {line!r} (its log: {tmp / node}.log)")
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
            elif shape == "lease":
                servers, url = leased_pair(tmp, database, bus, -(-n // 6))
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
                owner = {"nats": "main", "split": "tables", "lease": HOLDER}.get(shape)
                before = tables_held(database, tenures=True) if owner else {}
                result = measure([s.pid for s in servers], nats_server_pid() if bus else None, pool, args.seconds,
                                 lambda: metric(base, "pokerroom_actions_total"))
                after = tables_held(database, tenures=True) if owner else {}
                if owner and not before == after == {f"{owner}@1": -(-n // 6)}:
                    # a keeper whose renewals did not land in time gave its tables up, and took them back empty
                    # (the players unseated): the window measured a room that was not playing
                    result["lost"] = (f"table_leases by node@epoch {before} before the window, {after} after; "
                                      f"the logs in {tmp}")
            finally:
                pool.stop()
        finally:
            stop(servers)
    return result


def run_takeover(n: int, args: argparse.Namespace) -> dict:
    """Shape (d) with ``n`` players at B's tables, playing; B SIGKILLed: the seconds from the kill until every table
    is A's in ``table_leases``, every player is seated again and every table has dealt a hand on A."""
    tables = -(-n // 6)
    tmp = Path(tempfile.mkdtemp(prefix="pokerroom-cluster-takeover-"))
    (tmp / "room.toml").write_text(room_config(n))
    bus = f"{args.nats}/bench-{uuid.uuid4().hex[:12]}"
    with Database(args.postgres) as database:
        servers, url = leased_pair(tmp, database, bus, tables)
        holder = servers[1]
        base = url.replace("ws://", "http://").rsplit("/ws", 1)[0]
        try:
            pool = ClientPool(url, n, 1, "room", think=tables / args.target if args.target else 0.0)
            try:
                pool.wait_for("ready", 300)
                before = metric(base, "pokerroom_actions_total")
                time.sleep(PLAY_BEFORE_KILL)            # hands in flight at every table when B dies
                played = metric(base, "pokerroom_actions_total") - before
                held = tables_held(database, tenures=True)     # B's first tenure of every table, still
                with Timeline(database, base) as timeline:
                    time.sleep(0.2)                     # its first samples: B's leases as they stood
                    killed = time.time()
                    holder.send_signal(signal.SIGKILL)
                    time.sleep(ASK_AFTER)               # see ASK_AFTER
                    pool.send("rejoin")
                    leases = None
                    while time.time() - killed < 60:    # polled, as an operator would watch the table
                        if tables_held(database) == {FRONT: tables}:
                            leases = time.time() - killed
                            break
                        time.sleep(0.05)
                    answer = pool.wait_for("back", 90)[0]
            finally:
                pool.stop()
        finally:
            stop(servers)
    back, dealt = answer["back"], answer["dealt"]
    stages = phases({"tables": tables, "players": n}, killed, timeline, answer)
    return {"phases": stages, "played": played, "held": held, "valid": held == {f"{HOLDER}@1": tables},
            "leases": leases, "tables": tables, "players": n,
            "back": len(back), "dealt": len(dealt), "refusals": answer["refusals"],
            "all_back": max(back.values()) - killed if len(back) == n else None,
            "first_dealt": min(dealt.values()) - killed if dealt else None,
            "all_dealt": max(dealt.values()) - killed if len(dealt) == tables else None}


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
    parser.add_argument("--shapes", default=",".join(SHAPES),
                        help="which shapes to measure, of " + ", ".join(SHAPES) + " (one is always measured)")
    parser.add_argument("--takeover-clients", type=int, default=120,
                        help="players at B's tables when it is killed (six to a table)")
    parser.add_argument("--takeovers", type=int, default=3, help="how many times B is killed (0: none)")
    parser.add_argument("--postgres", default=os.environ.get("POKERROOM_TEST_POSTGRES",
                                                             "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"),
                        help="the PostgreSQL server's maintenance URL: each shape gets a database of its own on it")
    parser.add_argument("--nats", default=os.environ.get("POKERROOM_TEST_NATS", "nats://127.0.0.1:4222"))
    parser.add_argument("--before", type=Path, default=None,
                        help="another copy of the room's code (an earlier commit's `git archive`): each shape but "
                             "(a) is measured on it too, right after, so a change's before and after share one run")
    args = parser.parse_args()
    shapes = ["one"] + [shape for shape in args.shapes.split(",") if shape in SHAPES and shape != "one"]
    n = args.clients
    print(f"{n} clients in {args.client_processes} processes, {args.seconds:g} s windows, players aiming at "
          f"{args.target:g} actions/s; PostgreSQL for every shape; load average {os.getloadavg()[0]:.2f}", flush=True)
    results = {}
    for shape in shapes:
        print(SHAPES[shape], flush=True)
        results[shape] = run_shape(shape, n, args)
        if args.before and shape != "one":
            print(f"{SHAPES[shape]}, before (the code in {args.before})", flush=True)
            SERVER_ENV["PYTHONPATH"] = str(args.before.resolve())
            try:
                results[f"{shape}:before"] = run_shape(shape, n, args)
            finally:
                SERVER_ENV["PYTHONPATH"] = str(ROOT)
    one = results["one"]

    def ratio(a: float, b: float) -> str:
        return f"{a / b:.2f}x" if b else "n/a"

    for key, r in results.items():
        shape, before = key.split(":")[0], key.endswith(":before")
        name = SHAPES[shape] + (" (before)" if before else "")
        line = (f"{name}: {r['cpu_per_action'] * 1e6:.0f} us per action, p50 {r['p50'] * 1e3:.2f} ms, "
                f"p99 {r['p99'] * 1e3:.1f} ms at {r['per_second']:.0f} actions/s")
        if shape != "one":
            line = (f"{name}: {r['cpu_per_action'] * 1e6:.0f} us per action "
                    f"({ratio(r['cpu_per_action'], one['cpu_per_action'])} one process), "
                    f"p50 {r['p50'] * 1e3:.2f} ms ({ratio(r['p50'], one['p50'])}), "
                    f"p99 {r['p99'] * 1e3:.1f} ms ({ratio(r['p99'], one['p99'])}) at {r['per_second']:.0f} actions/s")
        if shape == "split":
            line += f"; gateway {r['each'][0] * 1e6:.0f} us + tables {r['each'][1] * 1e6:.0f} us"
        if shape == "lease":
            line += (f"; A (the clients') {r['each'][0] * 1e6:.0f} us + B (every table's lease) "
                     f"{r['each'][1] * 1e6:.0f} us")
        if shape != "one":
            line += f"; nats-server {r['nats_per_action'] * 1e6:.0f} us per action more"
        print(line, flush=True)
        if "lost" in r:
            print(f"  INVALID: the tables changed hands during the window ({r['lost']}; one owner of all "
                  "expected): not a measure of the process line", flush=True)
    cluster = next((shape for shape in ("lease", "split") if shape in results), None)
    if cluster is not None and "lost" in results[cluster]:
        print(f"goals not judged: {SHAPES[cluster]} did not keep its tables through the window", flush=True)
    elif cluster is not None:
        c = results[cluster]
        cpu, p99 = c["cpu_per_action"] / one["cpu_per_action"], c["p99"] / one["p99"]
        print(f"goals, {SHAPES[cluster]} against one process (issue 21):")
        print(f"  {'PASS' if cpu <= 1.3 else 'FAIL'}  server CPU per action at most 1.3x: {cpu:.2f}x "
              f"({(c['cpu_per_action'] + c['nats_per_action']) / one['cpu_per_action']:.2f}x with nats-server's)")
        print(f"  {'PASS' if p99 <= 2 else 'FAIL'}  p99 round trip at most 2x: {p99:.2f}x", flush=True)
    for attempt in range(1, args.takeovers + 1):
        t = run_takeover(args.takeover_clients, args)
        print(takeover_line(t, attempt), flush=True)
        print(phases_line(t["phases"]), flush=True)
    return 0


def takeover_line(t: dict, attempt: int) -> str:
    def seconds(value: float | None) -> str:
        return "never" if value is None else f"{value:.1f} s"

    verdict = "PASS" if t["all_dealt"] is not None and t["all_dealt"] <= 10 else "FAIL"
    if not t["valid"]:
        verdict = f"INVALID (B had not kept its tables before the kill: table_leases by node@epoch {t['held']})"
    refusals = ", ".join(f"{count} {code}" for code, count in sorted(t["refusals"].items())) or "none"
    return (f"takeover after SIGKILL: {seconds(t['all_dealt'])} (goal at most 10 s) {verdict} [{attempt}: "
            f"{t['players']} players at {t['tables']} tables, {t['played']:.0f} actions in the "
            f"{PLAY_BEFORE_KILL:g} s before; every lease A's at {seconds(t['leases'])}, first table dealing at "
            f"{seconds(t['first_dealt'])}, {t['back']} of {t['players']} players seated again by "
            f"{seconds(t['all_back'])}, {t['dealt']} of {t['tables']} tables dealing; joins refused meanwhile: "
            f"{refusals}]")


def phases_line(p: dict) -> str:
    """Where the seconds went: each phase's first and last table, from the kill."""
    names = {"expired": "B's lease run out", "claimed": "lease A's", "opened": "table open on A",
             "moved": "seats back (table_moved)", "dealing": "first deal on A", "seated": "player's join answered"}

    def span(value: tuple[float, float] | None) -> str:
        return "n/a" if value is None else f"{value[0]:.1f}-{value[1]:.1f} s"

    return "  phases from the kill (first-last table): " + ", ".join(f"{names[k]} {span(p[k])}" for k in names)


if __name__ == "__main__":
    sys.exit(main())
