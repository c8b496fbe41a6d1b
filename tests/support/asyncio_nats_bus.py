"""The NATS bus on Twisted's asyncio reactor, run as a child process (the reactor is chosen before anything uses
one, so not in the test's own process): ``python -m tests.support.asyncio_nats_bus NATS_URL ROOM``.

It checks that the bus shares the reactor's loop, hears what it publishes in order, answers a request and carries
a refusal, then prints one line: ``ok`` and what it heard, or the failure.
"""

from __future__ import annotations

import sys

from twisted.internet import asyncioreactor

asyncioreactor.install()

from twisted.internet import defer, reactor  # noqa: E402

from pokerroom.bus.nats_bus import NatsBus, SharedLoop  # noqa: E402
from pokerroom.errors import RuleViolation  # noqa: E402


def refuse(_):
    raise RuleViolation("table_full", "the table is full", "CASH-1")


@defer.inlineCallbacks
def play(url: str, room: str):
    bus = NatsBus(reactor, url, room=room)
    assert isinstance(bus.bridge, SharedLoop), bus.bridge
    yield bus.connect()
    heard: list = []
    bus.subscribe("table.t1.seat.*", lambda subject, payload: heard.append(payload))
    bus.respond("table.t1.command", lambda command: {"seat": command})
    bus.respond("table.t2.command", refuse)
    for n in range(5):
        bus.publish("table.t1.seat.alice", n)
    yield bus.flushed()
    answer = yield bus.request("table.t1.command", 3)
    try:
        yield bus.request("table.t2.command", 1)
        refused = None
    except RuleViolation as e:
        refused = e.code
    yield bus.close()
    return f"ok heard={heard} answer={answer} refused={refused}"


def main() -> None:
    out: list = []
    d = play(sys.argv[1], sys.argv[2])
    d.addCallback(out.append)
    d.addErrback(lambda f: out.append(f"failed: {f.getErrorMessage()}"))
    d.addBoth(lambda _: reactor.stop())
    reactor.run()
    print(out[0] if out else "failed: the reactor stopped first")


if __name__ == "__main__":
    main()
