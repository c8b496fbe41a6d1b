"""Load on the room server against three baseline servers -- an echo, a table relay and a lean relay -- in one run.

    .venv/bin/python bench/load.py [--clients 1000,3000,5000] [--seconds 20] [--target 2500]
                                   [--client-processes 2] [--baselines twice|after] [--gc-step 1,2,5,10]

What it does at each load, in order:

1. **Baselines before ours** (bench/relays.py, docs/operations.md): the same
   number of connections on each of

   * a bare Autobahn **echo** (one read and one write per message), each client
     sending a message the size of an action at the per-client rate;
   * a bare Autobahn **table relay**: connections sit six to a table; the one
     whose turn it is sends an action, gets a small answer with its rid, and
     the payload goes unchanged to the other five, one of whom is named next --
     turns pass round each table as in the room, one sender at a time;
   * a **lean relay**: the same fan-out on the room's own edge (small whole
     frames read without Autobahn's parser, the relayed frame built once, one
     ``send`` when nothing is buffered). This is the floor: everything the
     room's transport does for an action, nothing of the room's own work.

   The relays' players think as the room's do (tables / ``--target`` seconds on
   average), so every server runs at the same per-client rate.
2. **Ours.** Starts ``pokerroom serve`` (SQLite, one 6-max No-Limit table per
   six clients, fast house-rule timings) and ``--client-processes`` client
   processes that together open ``--clients`` WebSocket connections. Each
   client registers, logs in and sits down; when the server says it is its
   turn it thinks and acts, timing each action from request to answer. After
   everyone is seated the server is measured for ``--seconds``: actions/s (from
   its /metrics), p50/p99 action round trip, server CPU per action (from
   /proc, every thread: game, fan-out and storing hands), memory per
   connection (server RSS growth / clients), the collector's pauses.
3. **Resume.** Every client of ours drops its connection and resumes on a new
   one with its token; the time until all are back is printed.
4. **Baselines after ours**, at the rate ours reached. Each baseline is the
   mean of its runs either side of ours (``--baselines after``: only this one).

Every server pings each connection every 20 s, its first ping at a random
point of the interval (as on a server whose players sat down over time), so
every 20 s window holds one ping per connection for the baselines and the room
alike. The clients are lean (bench/load_clients.py): two cores must carry the
server and 5,000 clients at once. Every number is printed with its ratio to
each baseline of the same run (the machine is shared: absolute times mean
little). Goals: >= 2,000 actions/s and resume of all clients within 10 s.
Targets against the lean relay (issue #34; the room's own work stands between
them and today's numbers, so they FAIL today): CPU per action at most 2x,
p99 at most 3x, memory per connection at most 2x.

``--profile DIR`` records ours with py-spy through each measuring window
(``DIR/ours-N.txt``, collapsed stacks of every thread) and prints where the
server's samples went: by thread, and the functions that hold most of them
(themselves, and with what they call). py-spy takes CPU of its own on the
same cores: a profiled window's figures are for the profile, not the ratios.

``--gc-step`` measures ours alone at each pacer step and load instead
(p99, CPU per action, the collector's pauses): how the step in
pokerroom/shell/collector.py was chosen.
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
import time
from pathlib import Path
from urllib.request import urlopen

ROOT = Path(__file__).resolve().parents[1]
BASELINES = ("echo", "relay", "lean")          # bench/relays.py
NAMES = {"echo": "echo", "relay": "table relay", "lean": "lean relay"}
SEATS = 6


# ---------------------------------------------------------------------------- server-side helpers

def proc_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def proc_rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def metric(base: str, name: str) -> float:
    for line in urlopen(base + "/metrics", timeout=10).read().decode().splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return 0.0


def collector_pauses(base: str) -> dict[str, tuple[float, float]]:
    """Per generation: (collections, seconds stopped) so far, from the server's /metrics."""
    counts: dict[str, list[float]] = {}
    for line in urlopen(base + "/metrics", timeout=10).read().decode().splitlines():
        for suffix, slot in (("_count", 0), ("_sum", 1)):
            if line.startswith("pokerroom_gc_pause_seconds" + suffix + "{"):
                generation = line.split('generation="', 1)[1].split('"', 1)[0]
                counts.setdefault(generation, [0.0, 0.0])[slot] = float(line.rsplit(" ", 1)[1])
    return {g: (c[0], c[1]) for g, c in counts.items()}


def start(command: list[str], env: dict | None = None) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               env=dict(os.environ, **(env or {})))
    line = process.stdout.readline()
    return process, line


# ---------------------------------------------------------------------------- orchestration

class ClientPool:
    def __init__(self, url: str, total: int, processes: int, mode: str, rate: float = 0.0,
                 think: float = 0.0) -> None:
        self.procs = []
        share = -(-total // processes)
        for k in range(processes):
            count = min(share, total - k * share)
            if count <= 0:
                continue
            self.procs.append(subprocess.Popen(
                [sys.executable, __file__, "--role", "clients", "--url", url, "--count", str(count),
                 "--first", str(k * share), "--mode", mode, "--rate", str(rate), "--think", str(think)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True))

    def wait_for(self, key: str, timeout: float) -> list[dict]:
        answers = []
        deadline = time.monotonic() + timeout
        for p in self.procs:
            while time.monotonic() < deadline:
                line = p.stdout.readline()
                if not line:
                    break
                data = json.loads(line)
                if key in data:
                    answers.append(data)
                    break
        if len(answers) != len(self.procs):
            raise RuntimeError(f"clients did not report {key!r} in {timeout:.0f} s")
        return answers

    def send(self, command: str) -> None:
        for p in self.procs:
            p.stdin.write(command + "\n")
            p.stdin.flush()

    def stop(self) -> None:
        for p in self.procs:
            try:
                self.send("stop")
            except (BrokenPipeError, OSError):
                pass
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()


def measure(pid: int, pool: ClientPool, seconds: float, actions, profile: Path | None = None) -> dict:
    cpu0, actions0 = proc_cpu(pid), actions()
    pool.send("go")
    spy = None
    if profile is not None:                   # py-spy samples the server through the window, from outside it
        spy = subprocess.Popen([str(Path(sys.executable).with_name("py-spy")), "record", "--pid", str(pid),
                                "--duration", str(int(seconds)), "--rate", "200", "--threads", "--format", "raw",
                                "--output", str(profile), "--nonblocking"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(seconds)                       # a benchmark's measuring window, not a test's timing
    pool.send("report")
    cpu1, actions1 = proc_cpu(pid), actions()
    answers = pool.wait_for("rtts", 60)
    if spy is not None:
        spy.wait(60)
    rtts = sorted(r for answer in answers for r in answer["rtts"])
    ending = sorted(r for answer in answers for r in answer.get("ending", ()))     # acts that ended a hand
    done = actions1 - actions0 if actions1 > actions0 else len(rtts)
    return {"per_second": done / seconds, "cpu_per_action": (cpu1 - cpu0) / max(done, 1),
            "p50": statistics.median(rtts) if rtts else float("nan"),
            "p99": rtts[int(len(rtts) * 0.99)] if rtts else float("nan"), "samples": len(rtts),
            "ending_p50": statistics.median(ending) if ending else float("nan"),
            "ending_p99": ending[int(len(ending) * 0.99)] if ending else float("nan"), "ending_samples": len(ending)}


def baseline(kind: str, n: int, args: argparse.Namespace, per_second: float) -> dict:
    """The baseline server ``kind`` (bench/relays.py) under ``n`` clients making ``per_second`` messages a second
    in all: echo clients each send at ``per_second / n``; relay clients pass turns round tables of six, each
    thinking (tables / ``per_second``) seconds on average, as the room's players do."""
    server, line = start([sys.executable, __file__, "--role", "server", "--kind", kind])
    url = line.split()[2]
    rss0 = proc_rss(server.pid)
    tables = -(-n // SEATS)
    if kind == "echo":
        pool = ClientPool(url, n, args.client_processes, "echo", rate=per_second / n if per_second else 0.0)
    else:
        pool = ClientPool(url, n, args.client_processes, "relay", think=tables / per_second if per_second else 0.0)
    try:
        pool.wait_for("ready", 600)
        pool.send("play")
        time.sleep(2)                          # every connection open and every table passing turns
        rss = (proc_rss(server.pid) - rss0) / n
        result = measure(server.pid, pool, args.seconds, lambda: 0)
    finally:
        pool.stop()
        server.terminate()
        server.wait(10)
    print(f"  {NAMES[kind]}: {result['per_second']:.0f} messages/s, {result['cpu_per_action'] * 1e6:.0f} us of "
          f"server CPU per message, p99 {result['p99'] * 1e3:.2f} ms, {rss / 1024:.1f} KiB per connection",
          flush=True)
    return dict(result, rss=rss)


def room_config(clients: int, gc_step: float | None = None) -> str:
    tables = -(-clients // SEATS)
    # Every client comes from this machine: the limits meant for strangers (per address, network and account;
    # the password desk's queue) are opened wide, as an operator would for a load test, not for a room.
    lines = ["[accounts]", "password_attempts_per_minute = 1e9", "password_attempts_burst = 1e9",
             "network_password_attempts_per_minute = 1e9", "network_password_attempts_burst = 1e9",
             "account_password_attempts_per_minute = 1e9", "account_password_attempts_burst = 1e9",
             "password_threads = 2", f"password_queue = {clients}", f"password_queue_per_network = {clients}",
             # a crowd registering on a busy machine may take minutes to log in: the deadline must not close it
             "[connections]", f"per_address = {clients + 100}", "login_seconds = 3600",
             "[house_rules]", "between_hands_seconds = 0.05", "reconnect_seconds = 0",
             "[house_rules.decision_seconds]", "default = { preflop = 10, flop = 10, turn = 10, river = 10 }"]
    if gc_step is not None:
        lines += ["[collector]", f"step_seconds = {gc_step:g}"]
    for t in range(1, tables + 1):
        lines += ["[[tables]]", f'id = "t{t}"', 'variant = "NLHE"', "small_blind = 5", "big_blind = 10",
                  "min_buy_in = 400", "max_buy_in = 1000", "seats = 6"]
    return "\n".join(lines) + "\n"


def run_room(n: int, args: argparse.Namespace, gc_step: float | None = None, resume: bool = True) -> dict:
    """Ours: ``n`` seated clients playing; the window's numbers, memory per connection, the collector's pauses
    and (with ``resume``) the seconds until every client is back on a new connection."""
    tmp = Path(tempfile.mkdtemp(prefix="pokerroom-load-"))
    (tmp / "room.toml").write_text(room_config(n, gc_step))
    server, line = start([sys.executable, "-m", "pokerroom.cli", "serve", "--port", "0", "--data-dir",
                          str(tmp / "data"), "--config", str(tmp / "room.toml"), "--demo", "--bots", "0",
                          "--max-rate", "1000"], env={"POKERROOM_ARGON2": "bench", "POKERROOM_LOG_LEVEL": "error"})
    url = line.split()[4]
    base = url.replace("ws://", "http://").rsplit("/ws", 1)[0]
    rss0 = proc_rss(server.pid)
    started = time.monotonic()
    think = -(-n // SEATS) / args.target if args.target else 0.0
    pool = ClientPool(url, n, args.client_processes, "room", think=think)
    try:
        pool.wait_for("ready", 600)
        seated_in = time.monotonic() - started
        print(f"  seated {n} clients in {seated_in:.1f} s; measuring for {args.seconds:g} s", flush=True)
        rss = (proc_rss(server.pid) - rss0) / n
        pauses0 = collector_pauses(base)
        profile = Path(args.profile) / f"ours-{n}.txt" if args.profile else None
        ours = measure(server.pid, pool, args.seconds, lambda: metric(base, "pokerroom_actions_total"), profile)
        if profile is not None and profile.exists():
            print(profile_summary(profile, ours["per_second"] * args.seconds), flush=True)
        pauses = {g: (c - pauses0.get(g, (0, 0))[0], s - pauses0.get(g, (0, 0))[1])
                  for g, (c, s) in collector_pauses(base).items()}
        resume_seconds = float("nan")
        if resume:
            t0 = time.time()
            pool.send("resume")
            resumed = pool.wait_for("resumed", 120)
            resume_seconds = max(r["at"] for r in resumed) - t0 - 0.5
    finally:
        pool.stop()
        server.send_signal(signal.SIGINT)       # stop now (SIGTERM would drain: docs/operations.md)
        server.wait(10)
    return dict(ours, rss=rss, pauses=pauses, resume=resume_seconds)


def _frame_name(frame: str) -> str:
    """``function (path/file.py:12)`` as ``function file.py``: a function's samples add up over its lines."""
    name, _, where = frame.partition(" (")
    return f"{name} {where.rsplit(':', 1)[0].rsplit('/', 1)[-1]}" if where else name


def profile_summary(path: Path, actions: float, top: int = 25) -> str:
    """Where py-spy's samples of the server went (collapsed stacks, ``--threads``): each thread's share, and the
    functions holding most samples, on their own and with their callees, in shares of all samples."""
    threads: dict[str, int] = {}
    own: dict[str, int] = {}
    inclusive: dict[str, int] = {}
    total = 0
    for row in path.read_text().splitlines():
        stack, _, count_text = row.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        total += count
        frames = stack.split(";")
        thread = frames[0].split(": ", 1)[-1]
        threads[thread] = threads.get(thread, 0) + count
        names = [_frame_name(f) for f in frames[1:]]
        if names:
            own[names[-1]] = own.get(names[-1], 0) + count
        for name in set(names):
            inclusive[name] = inclusive.get(name, 0) + count
    if not total:
        return "  profile: no samples"
    lines = [f"  profile: {total} samples over {actions:.0f} actions; by thread: "
             + ", ".join(f"{t} {c / total:.0%}" for t, c in sorted(threads.items(), key=lambda i: -i[1]))]
    lines.append("  most samples on their own:")
    lines += [f"    {c / total:6.1%}  {name}" for name, c in sorted(own.items(), key=lambda i: -i[1])[:top]]
    lines.append("  most samples with their callees:")
    lines += [f"    {c / total:6.1%}  {name}" for name, c in sorted(inclusive.items(), key=lambda i: -i[1])[:top]]
    return "\n".join(lines)


def pause_text(pauses: dict[str, tuple[float, float]]) -> str:
    return ", ".join(f"generation {g}: {c:.0f} pauses, {s * 1e3:.0f} ms" for g, (c, s) in sorted(pauses.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--role", default="main", choices=["main", "server", "clients"])
    parser.add_argument("--kind", default="echo", choices=BASELINES, help="--role server: which baseline")
    parser.add_argument("--clients", default="1000,3000,5000",
                        help="seated clients, or several loads separated by commas, each measured in turn")
    parser.add_argument("--seconds", type=float, default=20,
                        help="each measuring window (the servers ping every 20 s: a shorter window holds a share)")
    parser.add_argument("--client-processes", type=int, default=2)
    parser.add_argument("--baselines", default="twice", choices=["twice", "after"],
                        help="twice: each baseline before ours and after, the mean of the two; after: once, after")
    parser.add_argument("--gc-step", default="",
                        help="seconds between the collector pacer's steps, several separated by commas: measures "
                             "only ours at each step (p99, CPU per action, pauses) instead of the baselines")
    parser.add_argument("--profile", default="",
                        help="a directory: py-spy records ours through each window there, and a summary is printed")
    parser.add_argument("--url", default="")
    parser.add_argument("--count", type=int, default=0)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--mode", default="room")
    parser.add_argument("--rate", type=float, default=0.0)
    parser.add_argument("--think", type=float, default=0.0)
    parser.add_argument("--target", type=float, default=2500,
                        help="actions/s the players aim at: each thinks (tables / target) seconds on average; 0: "
                             "no thinking, as fast as the server answers")
    args = parser.parse_args()
    if args.role == "server":
        from relays import serve

        return serve(args.kind)
    if args.role == "clients":
        from load_clients import clients

        return clients(args)

    loads = [int(n) for n in str(args.clients).split(",")]
    if args.profile:
        Path(args.profile).mkdir(parents=True, exist_ok=True)
    if args.gc_step:
        return compare_steps(loads, [float(s) for s in args.gc_step.split(",")], args)
    failed = 0
    for n in loads:
        failed += run_load(n, args)
    if len(loads) > 1:
        verdict = "every goal PASS" if not failed else f"{failed} FAIL"
        print(f"all loads ({', '.join(map(str, loads))} clients): goals {verdict}; the targets against the lean "
              "relay are listed at each load")


def compare_steps(loads: list[int], steps: list[float], args: argparse.Namespace) -> None:
    """The collector pacer's step: ours at every load and step, in one run (docs/operations.md)."""
    print(f"collector pacer steps {', '.join(f'{s:g} s' for s in steps)} at {', '.join(map(str, loads))} clients; "
          f"{args.seconds:g} s windows, players aiming at {args.target:g} actions/s; load average "
          f"{os.getloadavg()[0]:.2f}", flush=True)
    rows = []
    for n in loads:
        for step in steps:
            print(f"{n} clients, step {step:g} s", flush=True)
            ours = run_room(n, args, gc_step=step, resume=False)
            rows.append((n, step, ours))
            print(f"  {ours['per_second']:.0f} actions/s, p50 {ours['p50'] * 1e3:.2f} ms, p99 {ours['p99'] * 1e3:.2f} "
                  f"ms, {ours['cpu_per_action'] * 1e6:.0f} us CPU per action; {pause_text(ours['pauses'])}",
                  flush=True)
    print("| clients | step | actions/s | p99 | CPU per action | collector pauses in the window |")
    print("|---|---|---|---|---|---|")
    for n, step, ours in rows:
        print(f"| {n:,} | {step:g} s | {ours['per_second']:.0f} | {ours['p99'] * 1e3:.1f} ms | "
              f"{ours['cpu_per_action'] * 1e6:.0f} us | {pause_text(ours['pauses'])} |")


def run_load(n: int, args: argparse.Namespace) -> int:
    """One load: the baselines, ours, the baselines again; the ratio lines, the goals and targets. The failures."""
    print(f"load: {n} clients in {args.client_processes} processes, {args.seconds:g} s windows, players aiming at "
          f"{args.target:g} actions/s; load average {os.getloadavg()[0]:.2f}", flush=True)
    before: dict[str, dict] = {}
    if args.baselines == "twice":
        print("baselines before ours, at the players' target rate", flush=True)
        before = {kind: baseline(kind, n, args, args.target) for kind in BASELINES}
    print("ours", flush=True)
    ours = run_room(n, args)
    print("baselines after ours, at the rate ours reached", flush=True)
    after = {kind: baseline(kind, n, args, ours["per_second"]) for kind in BASELINES}
    # the baseline is the mean of the runs either side of ours: a slow spell of the shared machine during
    # one phase then weighs on both sides of the ratio
    base = {kind: {key: (before[kind][key] + after[kind][key]) / 2 if before else after[kind][key]
                   for key in ("per_second", "cpu_per_action", "p50", "p99", "rss")} for kind in BASELINES}

    def ratio(a: float, b: float) -> str:
        return f"{a / b:.2f}x" if b else "n/a"

    def line(title: str, key: str, scale: float, unit: str, digits: int) -> None:
        parts = [f"{NAMES[kind]} {base[kind][key] * scale:.{digits}f} {unit} ({ratio(ours[key], base[kind][key])})"
                 for kind in BASELINES]
        print(f"{title}: ours {ours[key] * scale:.{digits}f} {unit} | " + " | ".join(parts))

    print(f"actions/s: ours {ours['per_second']:.0f}; baselines' messages/s at the same per-client rate: "
          + ", ".join(f"{NAMES[kind]} {base[kind]['per_second']:.0f}" for kind in BASELINES))
    print("ratios are ours / baseline:")
    line("p50 round trip", "p50", 1e3, "ms", 2)
    line("p99 round trip", "p99", 1e3, "ms", 2)
    line("server CPU per action", "cpu_per_action", 1e6, "us", 0)
    line("memory per connection", "rss", 1 / 1024, "KiB", 1)
    print(f"hand-ending acts (answered after the hand's end is stored, issue #37): p50 "
          f"{ours['ending_p50'] * 1e3:.2f} ms, p99 {ours['ending_p99'] * 1e3:.2f} ms over {ours['ending_samples']}; "
          f"the other acts: p50 {ours['p50'] * 1e3:.2f} ms, p99 {ours['p99'] * 1e3:.2f} ms")
    print(f"garbage collector in our window: {pause_text(ours['pauses'])}")
    print(f"resume of all {n} clients: {ours['resume']:.2f} s")
    lean = base["lean"]
    wanted = min(2000.0, 0.8 * args.target) if args.target else 2000.0
    print(f"goals at {n} clients")
    checks = [(ours["per_second"] >= wanted, f">= {wanted:,.0f} actions/s: {ours['per_second']:.0f}"),
              (ours["resume"] <= 10, f"resume within 10 s: {ours['resume']:.2f} s")]
    for passed, text in checks:
        print(f"  {'PASS' if passed else 'FAIL'}  {text}", flush=True)
    print(f"targets against the lean relay at {n} clients (the room's own work is the gap; expected to FAIL today)")
    for limit, key, title in ((2.0, "cpu_per_action", "CPU per action"), (3.0, "p99", "p99"),
                              (2.0, "rss", "memory per connection")):
        held = ours[key] <= limit * lean[key]
        print(f"  {'PASS' if held else 'FAIL'}  {title} at most {limit:g}x the lean relay: "
              f"{ratio(ours[key], lean[key])}", flush=True)
    return sum(not passed for passed, _ in checks)


if __name__ == "__main__":
    main()
