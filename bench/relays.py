"""The load benchmark's three baseline servers: what the room is measured against (docs/operations.md).

* **echo**: a bare Autobahn server that sends every message back. One read and
  one write per message: a sixth of the writes of a poker action.
* **relay**: a bare Autobahn table relay. Connections sit six to a table (the
  path they connect to names it); a message gets a small answer with its
  ``rid``, and its payload goes unchanged to the other five with one
  ``sendMessage`` each -- the fan-out of an action, with Autobahn's own write
  path.
* **lean**: the same relay writing the way the room writes, with the room's own
  edge (:class:`pokerroom.gateway.server.RoomProtocol`): small whole frames read
  without Autobahn's parser, the relayed frame built once
  (:func:`pokerroom.gateway.server.data_frame`), one ``send`` when nothing is
  buffered. It does everything the room's transport does for an action and
  nothing of the room's own work, so it is the floor the room is held to.

All three ping every 20 s as the room does, each connection's first ping at a
random point of the interval (:func:`pokerroom.gateway.pings.spread_first_ping`),
as on a server whose players sat down over time.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import msgpack  # noqa: E402
from autobahn.twisted.websocket import WebSocketServerFactory, WebSocketServerProtocol  # noqa: E402

from pokerroom.gateway.limits import ConnectionLimits  # noqa: E402
from pokerroom.gateway.pings import spread_first_ping  # noqa: E402
from pokerroom.gateway.server import RoomProtocol, data_frame  # noqa: E402
from pokerroom.gateway.unmasking import install as install_unmasking  # noqa: E402

PING_SECONDS = 20            # the room's autoPingInterval and autoPingTimeout (pokerroom/gateway/server.py)
SEATS = 6


def answer(payload: bytes) -> bytes:
    """The sender's small answer: its request's ``rid`` and ``ok``."""
    return msgpack.packb({"type": "act", "rid": msgpack.unpackb(payload)["rid"], "ok": True})


class Seated:
    """A connection at the table its path names, six to a table: a message is answered and relayed to the others.

    How the answer and the relay are written is the subclass's: that is the difference measured.
    """

    table: list

    def onConnect(self, request):                       # noqa: N802 - Autobahn's names
        self.table = self.factory.tables.setdefault(request.path, [])
        return request.protocols[0] if request.protocols else None

    def onOpen(self):                                   # noqa: N802
        spread_first_ping(self)
        self.table.append(self)

    def onClose(self, wasClean, code, reason):          # noqa: N802, N803
        if self in getattr(self, "table", ()):
            self.table.remove(self)

    def onMessage(self, payload, isBinary):             # noqa: N802, N803
        self.answer_sender(answer(payload))
        self.relay(payload, isBinary, [other for other in self.table if other is not self])


class Echo(WebSocketServerProtocol):
    def onConnect(self, request):                       # noqa: N802
        return request.protocols[0] if request.protocols else None

    def onOpen(self):                                   # noqa: N802
        spread_first_ping(self)

    def onMessage(self, payload, isBinary):             # noqa: N802, N803
        self.sendMessage(payload, isBinary)


class Relay(Seated, WebSocketServerProtocol):
    """The fan-out of an action on Autobahn's own path: one ``sendMessage`` per message per seat."""

    def answer_sender(self, message: bytes) -> None:
        self.sendMessage(message, True)

    def relay(self, payload: bytes, binary: bool, others: list) -> None:
        for other in others:
            other.sendMessage(payload, binary)


class LeanRelay(Seated, RoomProtocol):
    """The fan-out of an action on the room's own edge: its reads, its frames and its writes, without the room."""

    def answer_sender(self, message: bytes) -> None:
        self._write(data_frame(message, True))

    def relay(self, payload: bytes, binary: bool, others: list) -> None:
        frame = data_frame(payload, binary)                # built once, written to every other seat
        for other in others:
            other._write(frame)


def serve(kind: str) -> None:
    """Run the baseline ``kind`` on a free port; print its URL; serve until killed."""
    from twisted.internet import reactor

    factory = WebSocketServerFactory()
    factory.protocol = {"echo": Echo, "relay": Relay, "lean": LeanRelay}[kind]
    factory.tables = {}
    factory.limits = ConnectionLimits()                    # the room edge's write path reads its cap
    factory.setProtocolOptions(autoPingInterval=PING_SECONDS, autoPingTimeout=PING_SECONDS)
    if kind == "lean":
        install_unmasking()                                # as the room's site does
    port = reactor.listenTCP(0, factory, backlog=4096, interface="127.0.0.1")
    print(f"{kind} on ws://127.0.0.1:{port.getHost().port}/", flush=True)
    reactor.run()
