"""What one seated connection holds: bytes per connection, by object type and by where it was made.

    PYTHONPATH=. .venv/bin/python bench/connection_memory.py [--players N] [--top K]

Builds the room in process (``bench/action_path.py``'s room: the real store in a
temporary directory, six-seat NLHE tables on a heap clock) and its real edge
(:func:`~pokerroom.gateway.server.build_site`), then opens ``--players``
connections through it -- each an HTTP upgrade to ``/ws`` (msgpack) over a
``StringTransport``, the WebSocket protocol Autobahn's, the session the
gateway's -- logs each player in, seats them (six a table) and plays a few
hands, the bytes written dropped as the kernel would take them. It then counts
what the connections hold: every new object the garbage collector tracks, by
type (``sys.getsizeof``, an instance's ``__dict__`` counted with it), and what
``tracemalloc`` saw allocated, by file and line, each divided by the number of
connections. The socket and the kernel's buffers are not here (a
``StringTransport`` stands for Twisted's TCP connection).
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from action_path import ThreadClock  # noqa: E402
from twisted.internet.address import IPv4Address  # noqa: E402
from twisted.internet.testing import StringTransport  # noqa: E402

from pokerroom.gateway.server import build_site  # noqa: E402
from pokerroom.players import AccountRules  # noqa: E402
from pokerroom.protocol.schema import parse_request  # noqa: E402
from pokerroom.shell.composition import RoomServices  # noqa: E402
from pokerroom.store.db import make_engine, migrate, sqlite_url  # noqa: E402
from pokerroom.store.room_store import RoomStore  # noqa: E402
from pokerroom.table.config import tables_from_config  # noqa: E402

UPGRADE = (b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:8765\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
           b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
           b"Sec-WebSocket-Protocol: pokerroom.v1.msgpack\r\n\r\n")


class Room:
    def __init__(self, players: int, directory: str) -> None:
        engine = make_engine(sqlite_url(directory))
        migrate(engine)
        self.clock = ThreadClock()
        self.clock.advance(1_700_000_000)
        tables = (players + 5) // 6
        config = {"tables": [{"id": f"t{i}", "variant": "NLHE", "small_blind": 5, "big_blind": 10,
                              "min_buy_in": 400, "max_buy_in": 1000, "seats": 6} for i in range(1, tables + 1)]}
        self.room = RoomServices(tables_from_config(config), RoomStore(engine), self.clock,
                                 account_rules=AccountRules())
        self.room.startService()
        self.site = build_site(self.room.gateway, self.clock, "ws://127.0.0.1:8765/ws")
        self.transports: list[StringTransport] = []
        self.rid = 0

    def connect(self, i: int) -> Any:
        address = IPv4Address("TCP", f"10.{i // 250 % 250}.{i % 250}.1", 40000 + i % 20000)
        transport = StringTransport(peerAddress=address)
        channel = self.site.buildProtocol(address)
        transport.protocol = channel              # as a TCP connection has it: Autobahn takes it over
        channel.makeConnection(transport)
        channel.dataReceived(UPGRADE)
        protocol = transport.protocol
        assert transport.value().startswith(b"HTTP/1.1 101"), transport.value()[:200]
        transport.clear()
        self.transports.append(transport)
        return protocol

    def seat(self, protocol: Any, i: int) -> None:
        session = protocol.session
        name = f"p{i:05d}"
        session.player_id, session.country = name, "NL"
        self.room.gateway.identify(session, name)
        self.room.wallet.deposit(name, 1_000_000, None)
        self.rid += 1
        answer = self.room.gateway.handle(session, parse_request(
            {"type": "join", "rid": self.rid, "table": f"t{i // 6 + 1}", "buy_in": 1_000, "seat": i % 6 + 1}))
        assert answer.get("ok"), answer

    def pass_time(self, seconds: float) -> None:
        """Let the tables play (every decision times out: checks and folds), the bytes taken by the 'kernel'."""
        for _ in range(int(seconds / 0.5)):
            self.clock.advance(0.5)
            for transport in self.transports:
                transport.clear()


def sizes_by_type() -> Counter:
    out: Counter = Counter()
    for obj in gc.get_objects():
        name = type(obj).__qualname__
        size = sys.getsizeof(obj)
        try:
            attributes = None if isinstance(obj, type) else object.__getattribute__(obj, "__dict__")
        except AttributeError:
            attributes = None
        if type(attributes) is dict:
            size += sys.getsizeof(attributes)
        out[name] += size
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=600)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        room = Room(args.players, directory)
        gc.collect()
        before = sizes_by_type()
        tracemalloc.start(1)
        start = tracemalloc.take_snapshot()
        protocols = [room.connect(i) for i in range(args.players)]
        for i, protocol in enumerate(protocols):
            room.seat(protocol, i)
        room.pass_time(args.seconds)
        gc.collect()
        end = tracemalloc.take_snapshot()
        after = sizes_by_type()
        tracemalloc.stop()
        n = args.players
        lines = end.compare_to(start, "lineno")
        total = sum(stat.size_diff for stat in lines)
        by_type = after.copy()
        by_type.subtract(before)
        print(f"{n} seated connections: {total / n / 1024:.1f} KiB per connection allocated (tracemalloc); "
              f"objects the collector tracks: {sum(by_type.values()) / n / 1024:.1f} KiB per connection")
        print(f"\nby type (bytes per connection; top {args.top}):")
        for name, size in by_type.most_common(args.top):
            print(f"  {name:44} {size / n:8.0f}")
        print(f"\nby where it was made (bytes per connection; top {args.top}):")
        for stat in lines[:args.top]:
            frame = stat.traceback[0]
            where = f"{'/'.join(Path(frame.filename).parts[-3:])}:{frame.lineno}"
            print(f"  {where:70} {stat.size_diff / n:8.0f}")
        del protocols


if __name__ == "__main__":
    main()
