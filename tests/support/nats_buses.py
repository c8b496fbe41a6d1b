"""NATS buses for the tests, on the machine's NATS (``POKERROOM_TEST_NATS``, default ``nats://127.0.0.1:4222``).

Without a NATS server the test skips -- except under ``CI=true``, where it must run. Each bus is connected on its
own connection under a room prefix of its own, so no two tests hear each other; :func:`close_all` lets every bus
a test made go. ``settle`` runs the real reactor (the default one, not started: ``iterate``) until a Deferred
has fired, for at most :data:`WAIT` seconds.
"""

from __future__ import annotations

import os
import socket
import time
import uuid
from typing import Any
from urllib.parse import urlparse

import pytest
from twisted.internet import defer
from twisted.python.failure import Failure

from pokerroom.bus.nats_bus import NatsBus

NATS = os.environ.get("POKERROOM_TEST_NATS", "nats://127.0.0.1:4222")
WAIT = 10.0                                 # seconds: a NATS on loopback answers in milliseconds
MADE: list[NatsBus] = []


def require_nats() -> None:
    """A skip when no NATS server listens (a failure under CI)."""
    where = urlparse(NATS)
    try:
        socket.create_connection((where.hostname, where.port or 4222), timeout=2).close()
    except OSError as e:
        if os.environ.get("CI") == "true":
            pytest.fail(f"NATS is required under CI=true: {NATS}: {e}")
        pytest.skip(f"no NATS at {NATS}: {e}")


def reactor() -> Any:
    from twisted.internet import reactor as default

    return default


def settle(d: defer.Deferred, wait: float = WAIT) -> Any:
    """``d``'s result (or its failure raised), the reactor run until it fires."""
    out: list[Any] = []
    d.addBoth(out.append)
    deadline = time.monotonic() + wait
    while not out and time.monotonic() < deadline:
        reactor().iterate(0.01)
    assert out, f"the NATS bus gave no answer within {wait:g} s"
    if isinstance(out[0], Failure):
        out[0].raiseException()
    return out[0]


def nats_bus(room: str | None = None, **options: Any) -> NatsBus:
    """A connected bus on its own connection; ``room`` shared by buses that stand for processes of one room."""
    require_nats()
    bus = NatsBus(reactor(), NATS, room=room or f"t{uuid.uuid4().hex[:12]}", **options)
    MADE.append(bus)
    settle(bus.connect())
    return bus


def close_all() -> None:
    while MADE:
        settle(MADE.pop().close())
