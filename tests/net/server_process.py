"""Run ``pokerroom serve`` as a real subprocess on a free port, and talk to it with the ``websockets`` library.

The client side is deliberately not our own client library: the tests speak
the documented protocol with an independent implementation.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import msgpack
from websockets.sync.client import connect

from pokerroom.protocol.pushes import verify_message
from tests.support.wire_schema import check_answer_to, check_received, request_problem


def table_entry(table_id: str = "t1", name: str = "Test", variant: str = "NLHE", small_blind: int = 5,
                big_blind: int = 10, min_buy_in: int = 400, max_buy_in: int = 1000, seats: int = 6) -> str:
    """One ``[[tables]]`` entry of a test room's config."""
    return (f'[[tables]]\nid = "{table_id}"\nname = "{name}"\nvariant = "{variant}"\nsmall_blind = {small_blind}\n'
            f"big_blind = {big_blind}\nmin_buy_in = {min_buy_in}\nmax_buy_in = {max_buy_in}\nseats = {seats}\n"
            'currency = "USD"\n')


def room_config(*tables: str, between_hands: float = 0.2, decision: float = 3, time_bank: float = 0) -> str:
    """A test room: many password attempts from one address, no reconnect time, these clocks and ``tables``."""
    return f"""
[accounts]
password_attempts_per_minute = 600
password_attempts_burst = 100
[house_rules]
between_hands_seconds = {between_hands}
reconnect_seconds = 0
[house_rules.decision_seconds]
default = {{ preflop = {decision}, flop = {decision}, turn = {decision}, river = {decision} }}
[house_rules.time_bank]
initial_seconds = {time_bank}
""" + "".join(tables or (table_entry(),))


FAST_ROOM = room_config()
SUBSCRIBER_FAILED = "a subscriber of "          # how either bus logs a subscriber's exception

FAST_TOURNAMENTS = FAST_ROOM + """
[tournaments]
decision_seconds = 1
between_hands_seconds = 0.02
clock_scale = 0.0008
"""


class Server:
    def __init__(self, tmp: Path, *extra: str, demo: bool = True, bus: str | None = None) -> None:
        """``bus``: ``POKERROOM_BUS`` for the server ("" for the application's default); None: the suite's own."""
        self.tmp = tmp
        self.demo = demo
        self.bus = bus
        self.config = tmp / "room.toml"
        if not self.config.exists():
            self.config.write_text(FAST_ROOM)
        self.extra = extra
        self.process: subprocess.Popen | None = None
        self.url = ""
        self.preexec_fn = None                              # e.g. a lower open-files limit for the server

    def start(self) -> Server:
        env = dict(os.environ, POKERROOM_LOG_LEVEL="warn")
        if self.bus is not None:
            env["POKERROOM_BUS"] = self.bus
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pokerroom.cli", "serve", "--port", "0", "--data-dir", str(self.tmp / "data"),
             "--config", str(self.config), *(["--demo"] if self.demo else []), "--bots", "0", *self.extra],
            stdout=subprocess.PIPE, stderr=open(self.tmp / "server.log", "ab"), text=True, env=env,
            preexec_fn=self.preexec_fn)
        line = self.process.stdout.readline()
        if "serving on" not in line:
            raise RuntimeError(f"the server did not start: {line!r}; log: {(self.tmp / 'server.log').read_text()}")
        self.url = line.split()[4]
        # --demo narrates a table on stdout: keep reading it (a full pipe would stall the server), line by line
        self.output: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._drain, args=(self.process.stdout,), daemon=True).start()
        return self

    def _drain(self, stdout) -> None:                       # noqa: ANN001
        for line in stdout:
            self.output.put(line)

    def printed(self, count: int, timeout: float = 10) -> list[str]:
        """The next ``count`` lines the server printed after its first."""
        return [self.output.get(timeout=timeout) for _ in range(count)]

    def grant(self, nickname: str, role: str) -> subprocess.CompletedProcess:
        """``pokerroom role NICKNAME ROLE``: the operator's command, another process writing the room's database."""
        return subprocess.run([sys.executable, "-m", "pokerroom.cli", "role", nickname, role, "--data-dir",
                               str(Path(self.tmp) / "data")], check=True, capture_output=True, text=True, timeout=60)

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        """Stop the server; it must not have logged a bus subscriber's failure (either bus logs one, and goes on)."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.assert_no_subscriber_failed()

    def assert_no_subscriber_failed(self) -> None:
        log = (self.tmp / "server.log").read_text(errors="replace")
        at = log.find(SUBSCRIBER_FAILED)
        assert at < 0, f"a bus subscriber failed in the server: {log[at:at + 4000]}"


def start(tmp_path, accounts: str = "", connections: str = "", *extra: str) -> Server:
    """A test room with these ``[accounts]`` settings added and this ``[connections]`` section."""
    config = room_config().replace("[accounts]\n", "[accounts]\n" + accounts, 1)
    (tmp_path / "room.toml").write_text(config + ("\n[connections]\n" + connections if connections else ""))
    return Server(tmp_path, *extra).start()


@contextmanager
def serving(tmp: Path, config: str | None = None, *extra: str) -> Iterator[Server]:
    """A started server for a fixture to yield (``config`` the room.toml text; None: the fast room), then stopped."""
    if config is not None:
        (tmp / "room.toml").write_text(config)
    server = Server(tmp, *extra).start()
    try:
        yield server
    finally:
        server.stop()


def unbatch(message: dict) -> list[dict]:
    """A ``table_events`` push as one message per event (``legal`` goes with the decision it is for)."""
    if message.get("type") != "table_events":
        return [message]
    out = []
    for event in message["events"]:
        one = {"type": "table_event", "table": message["table"], "seq": event["seq"], "event": event}
        if "legal" in message and event["type"] == "decision_started" and event["seat"] == message["legal"]["seat"]:
            one["legal"] = message["legal"]
        out.append(one)
    return out


class Player:
    """One connection speaking msgpack (binary) or JSON (text)."""

    def __init__(self, url: str, subprotocol: str = "pokerroom.v1.msgpack", **options) -> None:
        """``options`` go to ``websockets``' ``connect``: e.g. ``sock``, a socket bound to another source address."""
        self.binary = subprotocol.endswith("msgpack")
        self._connection = connect(url, subprotocols=[subprotocol], max_size=2**20, open_timeout=10, **options)
        self.ws = self._connection.__enter__()
        self.rid = 0
        self.pushes: list[dict] = []
        self.frames: list[bytes | str] = []
        self.inbox: deque[dict] = deque()

    def send_raw(self, data: bytes | str) -> None:
        self.ws.send(data)

    def receive(self, timeout: float = 10) -> dict:
        """The next message, checked against the protocol's declarations; a ``table_events`` frame is taken apart
        into one ``table_event`` per event."""
        if not self.inbox:
            frame = self.ws.recv(timeout=timeout)
            self.frames.append(frame)
            message = msgpack.unpackb(frame, raw=False, strict_map_key=False) if self.binary else json.loads(frame)
            verify_message(message)                 # every message any socket test gets is declared and well-formed
            check_received(message)                 # ...and allowed by the published schema (docs/)
            self.inbox.extend(unbatch(message))
        return self.inbox.popleft()

    def request(self, kind: str, /, **fields) -> dict:
        self.rid += 1
        message = {"type": kind, "rid": self.rid, **fields}
        problem = request_problem(message)          # a request the schema refuses is one the room must refuse
        self.ws.send(msgpack.packb(message) if self.binary else json.dumps(message))
        while True:
            answer = self.receive()
            if answer.get("rid") == self.rid and "ok" in answer:
                check_answer_to(message, problem, answer)
                return answer
            self.pushes.append(answer)

    def wait_for(self, predicate, timeout: float = 20) -> dict:
        """The first push (already received or new) matching ``predicate``."""
        for i, push in enumerate(self.pushes):
            if predicate(push):
                del self.pushes[: i + 1]
                return push
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            push = self.receive(timeout=max(0.1, deadline - time.monotonic()))
            if predicate(push):
                return push
            self.pushes.append(push)
        raise TimeoutError("no such push")

    def close(self) -> None:
        self._connection.__exit__(None, None, None)
