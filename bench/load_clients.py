"""The load benchmark's clients: many lean WebSocket connections in one process, driven by ``bench/load.py``.

Three ways to load a server (``--mode``):

* ``room``: players of the room -- register, log in, sit at the table their
  number names, and act when the room says it is their turn, after thinking
  ``--think`` seconds on average;
* ``echo``: each connection sends a message the size of an action and, when it
  comes back, sends the next after ``1 / --rate`` seconds on average;
* ``relay``: six connections to a table (the path names it); on ``play`` the
  first seat acts, and each action names the next seat, which acts after
  thinking ``--think`` seconds on average: turns pass round the table, one
  sender at a time, as in the room.

Each process reports JSON lines on stdout and takes commands on stdin
(``play``, ``go``, ``report``, ``resume``, ``rejoin``, ``stop``). ``rejoin``
is for a table whose process died (bench/cluster.py's takeover): its seats are
gone, so every player asks to sit again, every 0.25 s until a process has
taken the table over and seats them; the process reports, once every player
is back and each of its tables has dealt a hand since, when each happened.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import random
import time


class LeanWebSocket:
    """The client side of RFC 6455 at the least cost, so that 5,000 clients fit beside the server on two cores.

    Only what a load client needs: the opening handshake with one subprotocol,
    unfragmented server frames, pings answered, and frames sent with a zero
    mask key (a masked frame whose key is zero carries its payload as it is;
    the server unmasks it like any other). The tests speak the protocol with
    the ``websockets`` library instead; the bots use Autobahn.
    """

    def __init__(self, path: bytes, subprotocol: bytes | None) -> None:
        self.path, self.subprotocol = path, subprotocol
        self.buffer = bytearray()
        self.open = False

    def handshake(self, host: bytes) -> bytes:
        key = base64.b64encode(os.urandom(16))
        lines = [b"GET " + self.path + b" HTTP/1.1", b"Host: " + host, b"Upgrade: websocket",
                 b"Connection: Upgrade", b"Sec-WebSocket-Key: " + key, b"Sec-WebSocket-Version: 13"]
        if self.subprotocol:
            lines.append(b"Sec-WebSocket-Protocol: " + self.subprotocol)
        return b"\r\n".join(lines) + b"\r\n\r\n"

    @staticmethod
    def frame(payload: bytes, opcode: int = 0x2) -> bytes:
        n = len(payload)
        if n < 126:
            header = bytes((0x80 | opcode, 0x80 | n))
        else:
            header = bytes((0x80 | opcode, 0x80 | 126)) + n.to_bytes(2, "big")
        return header + b"\0\0\0\0" + payload

    def receive(self, data: bytes) -> list[tuple[int, bytes]]:
        """(opcode, payload) of every whole frame received so far; raises if the handshake was refused."""
        buffer = self.buffer
        buffer += data
        if not self.open:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                return []
            if not buffer.startswith(b"HTTP/1.1 101"):
                raise ConnectionError(bytes(buffer[:end]).decode(errors="replace"))
            del buffer[:end + 4]
            self.open = True
        frames, at = [], 0
        while len(buffer) - at >= 2:
            opcode, n, head = buffer[at] & 0x0F, buffer[at + 1] & 0x7F, 2
            if n == 126:
                n, head = int.from_bytes(buffer[at + 2:at + 4], "big"), 4
            elif n == 127:
                n, head = int.from_bytes(buffer[at + 2:at + 10], "big"), 10
            if len(buffer) - at < head + n:
                break
            frames.append((opcode, bytes(buffer[at + head:at + head + n])))
            at += head + n
        del buffer[:at]
        return frames



def clients(args: argparse.Namespace) -> None:
    """Run ``--count`` clients; wait for commands on stdin; report JSON lines."""
    from urllib.parse import urlparse

    import msgpack
    from twisted.internet import reactor, stdio
    from twisted.internet.protocol import ClientFactory, Protocol
    from twisted.protocols.basic import LineReceiver

    rtts: list[float] = []
    ending_rtts: list[float] = []           # acts whose answer came after their hand's end (issue #37's wait)
    state = {"ready": 0, "resumed": 0, "measuring": False}
    tokens: dict[str, str] = {}
    first_seats: list = []                  # relay mode: who starts at each table
    seqs: dict[str, int] = {}
    players: list = []                      # room mode: every player, for ``rejoin``
    back: dict[str, float] = {}             # rejoin: when each player sat again (wall clock: the bench compares)
    dealt: dict[str, float] = {}            # rejoin: when each table first showed a back player a hand event
    moved: dict[str, float] = {}            # rejoin: when each table's table_moved push first came (its seats back)
    dealing: dict[str, float] = {}          # rejoin: when each table first showed anyone a hand event (back or not)
    refusals: dict[str, int] = {}           # rejoin: the refusals of the join asked again, by code
    url = urlparse(args.url)
    pack, unpack = msgpack.packb, msgpack.unpackb

    def report(**data) -> None:
        commands.transport.write((json.dumps(data) + "\n").encode())

    class Client(Protocol):
        def connectionMade(self):
            path = f"/t{self.factory.table}".encode() if args.mode == "relay" else url.path.encode() or b"/"
            self.ws = LeanWebSocket(path, b"pokerroom.v1.msgpack")
            self.transport.write(self.ws.handshake(url.netloc.encode()))

        def dataReceived(self, data):
            was_open = self.ws.open
            frames = self.ws.receive(data)
            if self.ws.open and not was_open:
                self.opened()
            for opcode, payload in frames:
                if opcode == 0x9:
                    self.transport.write(LeanWebSocket.frame(payload, 0xA))
                elif opcode == 0x8:
                    self.transport.loseConnection()
                elif opcode in (0x1, 0x2):
                    self.received(unpack(payload, raw=False, strict_map_key=False))

        def opened(self):
            self.rid = 0
            self.sent: dict[int, tuple[float, str]] = {}
            self.name = self.factory.name
            if args.mode in ("echo", "relay"):
                state["ready"] += 1
                if state["ready"] == args.count:
                    report(ready=args.count)
                if args.mode == "echo":
                    self.ping()
                elif self.factory.seat == 1:
                    first_seats.append(self)
            elif self.factory.resume:
                table = f"t{self.factory.table}"
                self.request("resume", token=tokens[self.name], tables={table: seqs.get(self.name, 0)})
            else:
                players.append(self)
                self.request("register", nickname=self.name, password="load-test-pass", birth_date="1990-01-01",
                             country="NL")

        def request(self, kind, **fields):
            if kind == "act":
                self.ending = False                 # did this act end its hand? (seen before its answer)
            self.rid += 1
            self.sent[self.rid] = (time.perf_counter(), kind)
            self.transport.write(LeanWebSocket.frame(pack({"type": kind, "rid": self.rid, **fields})))

        def ping(self):
            self.rid += 1
            self.sent[self.rid] = (time.perf_counter(), "echo")
            self.transport.write(LeanWebSocket.frame(pack({"type": "act", "rid": self.rid, "table": "t1",
                                                           "action": "call"})))

        def received(self, message):
            rid = message.get("rid")
            if rid in self.sent and ("ok" in message or args.mode == "echo"):
                started, kind = self.sent.pop(rid)
                self.answered(kind, message, time.perf_counter() - started)
            elif args.mode == "relay":
                if message.get("next") == self.factory.seat:          # another seat's action: is it my turn?
                    self.take_turn()
            elif message.get("type") == "table_moved" and state.get("rejoin"):
                moved.setdefault(message["table"], time.time())
            elif message.get("type") == "table_events":
                seqs[self.name] = message["seq"]
                if state.get("rejoin") and any(e.get("type") == "hand_event" for e in message.get("events", ())):
                    dealing.setdefault(f"t{self.factory.table}", time.time())
                if self.name in back and any(e.get("type") == "hand_event" for e in message.get("events", ())):
                    table = f"t{self.factory.table}"
                    if table not in dealt:
                        dealt[table] = time.time()
                        rejoin_done()
                if any(e.get("type") == "hand_event" and e.get("event", {}).get("type") == "hand_ended"
                       for e in message.get("events", ())):
                    self.ending = True
                if "legal" in message:
                    legal = message["legal"]
                    action = "check" if legal["can_check"] else "call"
                    if args.think:
                        reactor.callLater(random.uniform(0.5, 1.5) * args.think, self.act, action,
                                          legal["decision"])
                    else:
                        self.act(action, legal["decision"])

        def act(self, action, decision):
            if self.transport.connected:
                self.request("act", table=f"t{self.factory.table}", action=action, decision=decision)

        def take_turn(self):
            """Relay mode: act after thinking, naming the next seat round the table."""
            reactor.callLater(random.uniform(0.5, 1.5) * args.think, self.relay_act)

        def relay_act(self):
            if self.transport.connected:
                self.request("act", table=f"t{self.factory.table}", action="call",
                             next=self.factory.seat % 6 + 1)

        def answered(self, kind, message, rtt):
            if kind == "echo":
                if state["measuring"]:
                    rtts.append(rtt)
                reactor.callLater(random.expovariate(args.rate) if args.rate else 0, self.ping)
            elif kind == "act":
                if state["measuring"]:
                    (ending_rtts if getattr(self, "ending", False) else rtts).append(rtt)
            elif kind == "register":
                self.request("login", nickname=self.name, password="load-test-pass")
            elif kind == "login":
                tokens[self.name] = message["token"]
                self.request("join", table=f"t{self.factory.table}", buy_in=1_000,
                             seat=self.factory.seat)
            elif kind == "join" and state.get("rejoin"):
                seated_again = not message["ok"] and isinstance(message["error"], dict) \
                    and message["error"].get("code") == "already_seated"     # the new owner seated them again
                if message["ok"] or seated_again:
                    back[self.name] = time.time()
                    rejoin_done()
                else:
                    code = message["error"].get("code", "?") if isinstance(message["error"], dict) else "?"
                    refusals[code] = refusals.get(code, 0) + 1
                    reactor.callLater(0.25, self.rejoin)
            elif kind == "join":
                state["ready"] += 1
                if not message["ok"]:
                    report(error=message["error"], name=self.name)
                if state["ready"] == args.count:
                    report(ready=args.count)
            elif kind == "resume":
                state["resumed"] += 1
                if state["resumed"] == args.count:
                    report(resumed=args.count, at=time.time())

        def rejoin(self):
            if self.transport.connected and state.get("rejoin"):
                self.request("join", table=f"t{self.factory.table}", buy_in=1_000, seat=self.factory.seat)

    def rejoin_done(final: bool = False) -> None:
        """Report once: every player back and each of their tables dealing again (or, ``final``, what came)."""
        tables = {f"t{p.factory.table}" for p in players}
        if state.get("rejoin") and (final or (len(back) == len(players) and tables <= dealt.keys())):
            state["rejoin"] = False
            report(back=back, dealt=dealt, refusals=refusals, players=len(players), tables=len(tables),
                   moved=moved, dealing=dealing)

    connections: list = []

    class Retrying(ClientFactory):
        protocol = Client

        def clientConnectionFailed(self, connector, reason):      # noqa: N802 - Twisted's name
            reactor.callLater(random.uniform(0.2, 1.0), connector.connect)   # a full backlog: try again

    def open_all(resume: bool) -> None:
        for i in range(args.count):
            number = args.first + i
            factory = Retrying()
            factory.name = f"load{number:05d}"
            factory.table, factory.seat = number // 6 + 1, number % 6 + 1
            factory.resume = resume
            connections.append(reactor.connectTCP(url.hostname, url.port, factory, timeout=60))

    class Commands(LineReceiver):
        delimiter = b"\n"

        def lineReceived(self, line):
            command = line.decode().strip()
            if command == "play":                   # relay mode: the first seat of every table starts
                for client in first_seats:
                    client.take_turn()
            elif command == "go":
                rtts.clear()
                ending_rtts.clear()
                state["measuring"] = True
            elif command == "report":
                state["measuring"] = False
                report(rtts=rtts, ending=ending_rtts)
            elif command == "resume":
                for connector in connections:
                    connector.disconnect()
                connections.clear()
                state["resumed"] = 0
                reactor.callLater(0.5, open_all, True)
            elif command == "rejoin":
                state["rejoin"] = True
                back.clear()
                dealt.clear()
                moved.clear()
                dealing.clear()
                refusals.clear()
                for player in players:
                    player.rejoin()
                reactor.callLater(60, rejoin_done, True)
            elif command == "stop":
                reactor.stop()

    commands = Commands()
    stdio.StandardIO(commands)
    open_all(False)
    reactor.run()


