"""A real HAProxy (Debian's ``haproxy``, which the README's test set-up installs) in front of room processes.

It runs the repository's own ``config/haproxy.cfg`` -- every directive of it -- with only the addresses made this
test's: the players' port, the runtime API socket and the backend's servers (each keeping the config's server
options). The config sends the PROXY protocol to every process, so the room processes behind it run with
:data:`ROOM_FLAGS`. Without ``haproxy`` the tests that use it skip, except under ``CI=true``, where they fail (as
the browser tests treat ``chromium``).
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import socket
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.support.waiting import wait_until

HAPROXY = os.environ.get("POKERROOM_HAPROXY") or shutil.which("haproxy") or (
    "/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None)
CONFIG = Path(__file__).resolve().parents[2] / "config" / "haproxy.cfg"
BACKEND = "room"
ROOM_FLAGS = ("--proxy-protocol",)      # what config/haproxy.cfg's send-proxy-v2 asks of each `pokerroom serve`


def require_haproxy() -> str:
    """The ``haproxy`` binary; a skip without one (a failure under ``CI=true``)."""
    if HAPROXY is None:
        if os.environ.get("CI") == "true":
            pytest.fail("haproxy is not installed: run the README's test set-up")
        pytest.skip("haproxy is not installed (the README's test set-up installs it)")
    return HAPROXY


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def configured(text: str, front: int, api: Path, servers: dict[str, int]) -> str:
    """``config/haproxy.cfg`` with this test's players' port, runtime API socket and servers (name: port), each
    with the options of the config's first server line."""
    lines, placed = [], False
    for line in text.splitlines():
        bare = line.strip()
        indent = line[: len(line) - len(line.lstrip())]
        if bare.startswith("bind "):
            line = f"{indent}bind 127.0.0.1:{front}"
        elif bare.startswith("stats socket "):
            line = re.sub(r"stats socket \S+", f"stats socket {api}", line)
        elif bare.startswith("server "):
            if placed:
                continue
            placed = True
            options = " ".join(bare.split()[3:])
            lines += [f"{indent}server {name} 127.0.0.1:{port} {options}".rstrip() for name, port in servers.items()]
            continue
        lines.append(line)
    assert placed, "config/haproxy.cfg has no server lines"
    return "\n".join(lines) + "\n"


class Balancer:
    """``haproxy -db`` on ``config/haproxy.cfg`` made this test's, its runtime API, and HTTP through its port."""

    def __init__(self, tmp: Path, servers: dict[str, int]) -> None:
        self.tmp = tmp
        self.front = free_port()
        self.api = tmp / "haproxy.sock"
        self.config = tmp / "haproxy.cfg"
        self.config.write_text(configured(CONFIG.read_text(), self.front, self.api, servers))
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.front}/ws"

    def start(self) -> Balancer:
        checked = subprocess.run([require_haproxy(), "-c", "-f", str(self.config)], capture_output=True, text=True,
                                 timeout=30)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        self.process = subprocess.Popen([require_haproxy(), "-db", "-f", str(self.config)],
                                        stdout=open(self.tmp / "haproxy.log", "ab"), stderr=subprocess.STDOUT)
        assert wait_until(self._answers, 10), f"haproxy did not start: {(self.tmp / 'haproxy.log').read_text()}"
        return self

    def _answers(self) -> bool:
        if self.process.poll() is not None:
            raise RuntimeError(f"haproxy stopped: {(self.tmp / 'haproxy.log').read_text()}")
        try:
            return "pxname" in self.runtime("show stat")
        except OSError:
            return False

    def runtime(self, command: str) -> str:
        """One command on the runtime API socket, and its whole answer."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(5)
            s.connect(str(self.api))
            s.sendall(command.encode() + b"\n")
            chunks = []
            while chunk := s.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks).decode()

    def servers(self) -> dict[str, dict[str, str]]:
        """``show stat`` for the backend's servers: name to its row (``status``: UP, DOWN, DRAIN, MAINT, "UP 1/2"
        while going down...; ``scur``: its connections now; ``stot``: all it has had)."""
        text = self.runtime("show stat").lstrip("# ")
        rows = csv.DictReader(text.splitlines())
        return {row["svname"]: row for row in rows
                if row["pxname"] == BACKEND and row["svname"] not in ("BACKEND", "FRONTEND")}

    def status(self) -> dict[str, str]:
        return {name: row["status"] for name, row in self.servers().items()}

    def health(self) -> tuple[int, dict]:
        """``GET /health`` through the balancer's port: a new connection, to whichever process it picks."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.front}/health", timeout=10) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read() or b"{}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


def health_of(port: int, *, header: bytes = b"") -> tuple[int, dict]:
    """``GET /health`` of one room process, straight to its port; ``header``: a PROXY protocol header sent first, as
    HAProxy does to a ``--proxy-protocol`` process (``PROXY_LOCAL``: its health checks' own, naming no address)."""
    if header:
        answer = exchange(port, header + b"GET /health HTTP/1.1\r\nHost: pokerroom\r\nConnection: close\r\n\r\n")
        head, _, body = answer.partition(b"\r\n\r\n")
        if not head:
            raise ConnectionError(f"127.0.0.1:{port} closed the connection unanswered")
        return int(head.split()[1]), json.loads(body or b"{}")
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read() or b"{}")


# PROXY protocol v2, the LOCAL command: a connection of HAProxy's own (a health check), naming no client address
PROXY_LOCAL = b"\r\n\r\n\x00\r\nQUIT\n" + b"\x20\x00\x00\x00"


def exchange(port: int, data: bytes) -> bytes:
    """Send ``data`` straight to a room process's port; everything it answers until it closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(data)
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)
