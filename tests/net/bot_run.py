"""A real room on a real port with bots playing, run in its own process by the leak and fuzz tests.

    python -m tests.net.bot_run DIR --hands 500 [--fuzzers 4]

Writes ``DIR/frames.jsonl`` (every frame the server sent, with the player it
went to) and ``DIR/summary.json`` (hands played, what the fuzzers sent and got
back), then exits. The store is SQLite in ``DIR``; nothing here is mocked.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import msgpack
from autobahn.twisted.websocket import WebSocketClientFactory, WebSocketClientProtocol, connectWS
from twisted.internet import reactor, task
from twisted.python.threadpool import ThreadPool

from pokerroom.app import demo_password_limits
from pokerroom.client import start_bots
from pokerroom.gateway.server import RoomProtocol, build_site
from pokerroom.players import AccountRules
from pokerroom.shell.composition import RoomServices
from pokerroom.store.db import make_engine, migrate, sqlite_url
from pokerroom.store.room_store import RoomStore
from pokerroom.table.config import tables_from_config
from tests.support.ws_frames import split_frame

TABLES = {
    "house_rules": {"between_hands_seconds": 0.02, "reconnect_seconds": 0, "time_bank": {"initial_seconds": 0},
                    "decision_seconds": {"default": {"preflop": 2, "flop": 2, "turn": 2, "river": 2}}},
    "tables": [{"id": f"t{i}", "variant": variant, "small_blind": 5, "big_blind": 10, "min_buy_in": 400,
                "max_buy_in": 1000, "seats": 6, "currency": "USD"}
               for i, variant in enumerate(("NLHE", "PLO", "FLHE"), start=1)],
}


class RecordingProtocol(RoomProtocol):
    """Records every frame's payload as sent, decoded back from the bytes that went out."""

    record = None

    def _write(self, frame):
        session = getattr(self, "session", None)
        # a data frame (not the handshake, a ping, a close)
        if frame[0] in (0x81, 0x82) and self.state == RoomProtocol.STATE_OPEN and not RecordingProtocol.record.closed:
            _, payload, _ = split_frame(frame)
            RecordingProtocol.record.write(json.dumps({"to": session.player_id if session else None,
                                                       "message": self.codec.decode_from_server(payload)}) + "\n")
        super()._write(frame)


class Fuzzer(WebSocketClientProtocol):
    """Sends garbage and near-miss requests; counts what comes back."""

    def onOpen(self):
        self.rng = random.Random(self.factory.seed)
        self.loop = task.LoopingCall(self.send_garbage)
        self.loop.start(0.04, now=False)

    def send_garbage(self):
        stats = self.factory.stats
        r = self.rng.random()
        tables = ["t1", "t2", "t3", "nope", "", "t1" * 40]
        if r < 0.15:
            frame = bytes(self.rng.randrange(256) for _ in range(self.rng.randrange(1, 40)))
        elif r < 0.2:
            frame = b"\x91" * 3000                                  # nested too deep
        elif r < 0.25:
            frame = msgpack.packb({"type": "chat", "rid": 1, "table": "t1", "text": "x" * 40_000})  # oversized
        else:
            kind = self.rng.choice(["join", "act", "leave", "add_chips", "login", "register", "resume", "teleport",
                                    "observe", "chat", "sit_in", "options"])
            message = {"type": kind, "rid": self.rng.choice([1, -1, True, 2**40, "x"]),
                       "table": self.rng.choice(tables),
                       "buy_in": self.rng.choice([-5, 0, 10**15, 1.5, "100", None, 500]),
                       "amount": self.rng.choice([-1, 0, 10**18, 3]),
                       "action": self.rng.choice(["fold", "raise", "steal", 7]),
                       "seat": self.rng.choice([0, 3, 99, None, "1"])}
            for key in list(message)[2:]:
                if self.rng.random() < 0.5:
                    del message[key]
            frame = msgpack.packb(message)
        stats["sent"] += 1
        if self.state == WebSocketClientProtocol.STATE_OPEN:
            self.sendMessage(frame, isBinary=True)

    def onMessage(self, payload, isBinary):
        message = msgpack.unpackb(payload, raw=False, strict_map_key=False)
        stats = self.factory.stats
        if message.get("ok") is False:
            stats["errors"] += 1
        elif message.get("ok") is True:
            stats["ok"] += 1

    def onClose(self, wasClean, code, reason):
        self.factory.stats["closed"] += 1
        self.factory.stats.setdefault("reasons", {})
        key = f"{code} {reason}"[:80]
        self.factory.stats["reasons"][key] = self.factory.stats["reasons"].get(key, 0) + 1
        if hasattr(self, "loop") and self.loop.running:
            self.loop.stop()
        self.factory.seed += 1000
        reactor.callLater(0.05, connectWS, self.factory)          # and again, on a new connection


def serve_room(data: Path, protocol: type[RoomProtocol]) -> tuple[RoomServices, ThreadPool, str]:
    """A room on SQLite in ``data`` with ``TABLES``, listening on a free local port with ``protocol``."""
    engine = make_engine(sqlite_url(data))
    migrate(engine)
    writer = ThreadPool(minthreads=1, maxthreads=1)
    writer.start()
    rules = AccountRules(welcome_balance=1_000_000, aml_threshold=10**12, password_attempts_per_minute=6000,
                         password_attempts_burst=1000, **demo_password_limits({}))   # nine bots log in at once
    room = RoomServices(tables_from_config(TABLES), RoomStore(engine), reactor, account_rules=rules, writer=writer)
    room.startService()
    # bots that never think act faster than people
    site = build_site(room.gateway, reactor, tables=lambda: len(room.tables.runners), rate=1000, burst=1000)
    site.resource.children[b"ws"]._factory.protocol = protocol
    port = reactor.listenTCP(0, site, interface="127.0.0.1")
    return room, writer, f"ws://127.0.0.1:{port.getHost().port}/ws"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--fuzzers", type=int, default=0)
    parser.add_argument("--fuzz-frames", type=int, default=0, help="keep playing until the fuzzers sent this many")
    args = parser.parse_args()
    out = Path(args.dir)
    out.mkdir(parents=True, exist_ok=True)
    RecordingProtocol.record = open(out / "frames.jsonl", "w")
    room, writer, url = serve_room(out, RecordingProtocol)
    bots = start_bots(reactor, url, 9, list(room.tables.runners), think=(0.0, 0.0))
    stats = {"sent": 0, "errors": 0, "ok": 0, "closed": 0}
    for i in range(args.fuzzers):
        factory = WebSocketClientFactory(url, protocols=["pokerroom.v1.msgpack"])
        factory.protocol, factory.seed, factory.stats = Fuzzer, i, stats
        connectWS(factory)

    def check() -> None:
        if room.metrics.hands.value >= args.hands and stats["sent"] >= args.fuzz_frames:
            poll.stop()
            room.recorder.flushed().addBoth(finish)

    def finish(_):
        RecordingProtocol.record.close()
        (out / "summary.json").write_text(json.dumps({
            "hands": room.metrics.hands.value, "fuzz": stats,
            "bot_actions": sum(b.actions for b in bots), "ledger_ok": room.wallet.books.check(),
            "players": sorted(room.gateway.by_player)}))
        writer.stop()
        reactor.stop()

    poll = task.LoopingCall(check)
    poll.start(0.2)
    reactor.callLater(200, lambda: poll.running and (poll.stop(), finish(None)))   # a stuck run still reports
    reactor.run()


if __name__ == "__main__":
    main()
