"""The edge's own write path: frames go straight to the socket, and what the kernel cannot take waits, in order."""

from __future__ import annotations

import socket
from collections import deque
from types import SimpleNamespace

import msgpack
from autobahn.twisted.websocket import WebSocketServerFactory
from twisted.internet.task import Clock

from pokerroom.gateway.limits import ConnectionLimits
from pokerroom.gateway.server import RoomProtocol
from pokerroom.gateway.throttle import TokenBucket
from pokerroom.protocol.codec import MSGPACK, Codec


class BufferingTransport:
    """The parts of a Twisted TCP transport the write path reads, over a real socket."""

    connected, disconnecting, dataBuffer, offset = True, False, b"", 0

    def __init__(self, sock: socket.socket) -> None:
        self.socket = sock
        self.queued: list[bytes] = []
        self._tempDataLen = 0

    def write(self, data: bytes) -> None:
        self.queued.append(data)
        self._tempDataLen += len(data)


def drain(sock: socket.socket) -> bytes:
    out = bytearray()
    while True:
        try:
            chunk = sock.recv(1 << 20)
        except BlockingIOError:
            return bytes(out)
        out += chunk


def test_frames_the_kernel_cannot_take_wait_behind_and_keep_their_order():
    ours, theirs = socket.socketpair()
    ours.setblocking(False)
    theirs.setblocking(False)
    ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    protocol = RoomProtocol()
    protocol.factory = SimpleNamespace(limits=ConnectionLimits(queued_bytes=1 << 30))    # ordering, not the cap
    protocol.transport = transport = BufferingTransport(ours)
    protocol.send_queue = deque()
    big = bytes(range(256)) * 8_000                         # 2 MB: more than the socket takes at once
    protocol._write_now(b"first")
    assert transport.queued == [] and drain(theirs) == b"first"      # straight to the socket
    protocol._write_now(big)
    assert transport.queued                                  # the rest waits in Twisted's buffer...
    protocol._write_now(b"last")
    assert transport.queued[-1] == b"last"                   # ...and so does everything after it
    assert drain(theirs) + b"".join(transport.queued) == big + b"last"
    ours.close()
    theirs.close()


def test_a_request_and_the_pushes_it_causes_leave_as_one_write():
    ours, theirs = socket.socketpair()
    ours.setblocking(False)
    theirs.setblocking(False)

    class Gateway:
        def handle(self, session, request):
            protocol.send({"type": "table_events", "table": "t1", "seq": 1, "events": []})   # a push, then...
            return {"type": request.type, "rid": request.rid, "ok": True}                  # ...the answer

    class Factory(WebSocketServerFactory):
        reactor, rate, gateway = Clock(), 100.0, Gateway()

    protocol = RoomProtocol()
    protocol.factory = Factory()
    protocol.transport = transport = BufferingTransport(ours)
    protocol.send_queue = deque()
    protocol.state = RoomProtocol.STATE_OPEN
    protocol.codec, protocol.session, protocol.bad = Codec(MSGPACK), object(), 0
    protocol.bucket = TokenBucket(100.0, 100.0, 0.0)
    sends = []
    real = protocol._write_now
    protocol._write_now = lambda frame: (sends.append(frame), real(frame))
    protocol.onMessage(msgpack.packb({"type": "lobby_list", "rid": 7}), True)
    assert len(sends) == 1 and transport.queued == []
    frames = drain(theirs)
    assert frames == sends[0] and frames.index(b"table_events") < frames.index(b"ok")
    protocol.send({"type": "chat", "table": "t1", "player": "ana", "text": "hi", "at": 1.0})
    assert len(sends) == 2                                   # outside a request: at once


def test_autobahns_per_connection_debug_line_is_formatted_only_if_written():
    from pprint import pformat

    from autobahn.websocket import protocol as autobahn_protocol
    from twisted.internet.testing import StringTransport

    from pokerroom.gateway.server import FormattedIfLogged

    lines = []

    class Log:
        def debug(self, text, **fields):
            lines.append(fields)

        def __getattr__(self, name):
            return lambda *args, **fields: None

    factory = WebSocketServerFactory()
    factory.protocol = RoomProtocol
    protocol = factory.buildProtocol(None)
    protocol.log = Log()
    protocol.makeConnection(StringTransport())
    options = [fields["attrs"] for fields in lines if "attrs" in fields]
    assert len(options) == 1 and isinstance(options[0], FormattedIfLogged)   # not formatted yet...
    assert "openHandshakeTimeout" in f"{options[0]}"                         # ...but whole when written
    assert f"{options[0]}" == pformat(options[0].value)
    assert autobahn_protocol.pformat is pformat                               # Autobahn's own, given back


def test_a_whole_message_reaches_on_message_and_the_message_signal_only_fires_for_listeners():
    protocol = RoomProtocol()
    received: list[tuple[bytes, bool]] = []
    protocol.onMessage = lambda payload, binary: received.append((payload, binary))
    protocol.failedByMe, protocol.trackedTimings = False, None
    protocol.message_data, protocol.message_is_binary = [b"ab", b"c"], True
    protocol.onMessageEnd()                                   # nobody listens: straight to onMessage
    assert received == [(b"abc", True)] and protocol.message_data is None
    signalled: list[bytes] = []
    protocol.on("message", lambda payload, is_binary: signalled.append(payload))
    protocol.message_data = [b"de"]
    protocol.onMessageEnd()                                   # a listener: Autobahn's own path, signal and all
    assert received == [(b"abc", True), (b"de", True)] and signalled == [b"de"]
    protocol.failedByMe, protocol.message_data = True, [b"x"]
    protocol.onMessageEnd()                                   # a connection failed by us hears nothing more
    assert len(received) == 2 and protocol.message_data is None
