"""A real room on a real port; clients log in, sit, and hang up; report whether reference counting freed them.

    python -m tests.net.closed_run --clients 12

Run in its own process because it switches the garbage collector off: prints
one JSON line with how many server-side connection objects outlived their
connection without a collection, and how many a collection then found.
"""

from __future__ import annotations

import argparse
import gc
import json
import tempfile
import weakref
from pathlib import Path

from twisted.internet import defer, reactor, task

from pokerroom.client import connect
from pokerroom.gateway.server import RoomProtocol
from tests.net.bot_run import serve_room


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=12)
    args = parser.parse_args()
    server_side: list[weakref.ref] = []

    class Watched(RoomProtocol):
        def onOpen(self) -> None:
            server_side.append(weakref.ref(self))
            super().onOpen()

    room, writer, url = serve_room(Path(tempfile.mkdtemp(prefix="pokerroom-closed-")), Watched)
    report: dict = {}

    @defer.inlineCallbacks
    def run():
        try:
            clients = []
            for i in range(args.clients):
                client = yield connect(reactor, url)
                yield client.request("register", nickname=f"gone{i}", password="long enough pw",
                                     birth_date="1990-01-01", country="NL")
                yield client.request("login", nickname=f"gone{i}", password="long enough pw")
                yield client.request("observe", table="t1")
                if i < 6:
                    answer = yield client.request("join", table="t1", seat=i + 1, buy_in=500)
                    report.setdefault("joined", []).append(answer.get("ok"))
                clients.append(client)
            yield task.deferLater(reactor, 0.5, lambda: None)      # hands start; events reach the watchers
            gc.collect()
            gc.disable()
            for client in clients:
                client.transport.loseConnection()
            del clients, client
            for _ in range(100):                                   # until the server has seen every close
                yield task.deferLater(reactor, 0.02, lambda: None)
                if room.metrics.connections.value == 0:
                    break
            report["open"] = room.metrics.connections.value
            report["connections"] = len(server_side)
            report["alive_without_collection"] = sum(ref() is not None for ref in server_side)
            gc.set_debug(gc.DEBUG_SAVEALL)
            gc.collect()
            report["protocols_in_cycles"] = sum(isinstance(o, RoomProtocol) for o in gc.garbage)
        finally:
            print(json.dumps(report), flush=True)
            reactor.stop()

    reactor.callWhenRunning(run)
    reactor.run()
    writer.stop()


if __name__ == "__main__":
    main()
