"""The WebSocket edge: Autobahn protocol and factory, and the ``twisted.web`` site around them.

One port serves ``/ws`` (the game protocol), ``/health``, ``/metrics``
(Prometheus text) and the web lobbies (``/``, ``/admin`` and ``/security``, :mod:`lobby.site`).
Each connection picks its encoding by subprotocol
(``pokerroom.v1.msgpack`` binary frames, ``pokerroom.v1.json`` text frames)
and gets the same messages. Everything a client sends passes the frame limits,
the codec's limits, a per-connection rate limit and the schema before the room
sees it; whatever is wrong is answered with an error (code and sentence), and
a connection that keeps sending garbage or floods is closed with a reason.
Nothing a client sends can raise into the reactor.
"""

from __future__ import annotations

import json
from pprint import pformat
from typing import Any

from autobahn.twisted.resource import WebSocketResource
from autobahn.twisted.websocket import WebSocketServerFactory, WebSocketServerProtocol
from autobahn.websocket import protocol as autobahn_protocol
from autobahn.websocket.types import ConnectionDeny
from prometheus_client import generate_latest
from twisted.internet import defer
from twisted.logger import Logger
from twisted.web.resource import Resource
from twisted.web.server import Site

from lobby.site import add_pages
from pokerroom.gateway.closing import FreedOnClose
from pokerroom.gateway.limits import ConnectionLimits, TimedChannel, normal_origin
from pokerroom.gateway.sessions import Session
from pokerroom.gateway.throttle import TokenBucket, network_of
from pokerroom.gateway.unmasking import install as install_unmasking
from pokerroom.protocol.codec import MAX_FRAME, SUBPROTOCOLS, Codec
from pokerroom.protocol.schema import ProtocolError, error, parse_request

# What the edge needs of the room (:class:`pokerroom.shell.room.Room`): ``connected``, ``handle``,
# ``disconnected``, ``metrics``, ``runners``, ``connections``, ``demo`` and ``reactor``. The edge does not
# import the shell: the room is composed above both, in :mod:`pokerroom.app`.
RoomLike = Any

RATE = 20.0                 # messages a second, sustained
BURST = 40.0
MAX_BAD = 50                # malformed or refused-for-rate messages before the connection is closed
LOGIN_LATE = 4010           # close code: not logged in (or resumed) within the login deadline
NOT_READING = 4011          # close code: more bytes waiting for the client than the cap


class FormattedIfLogged:
    """``pformat(value)``, made only if a log line that holds it is actually written."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __str__(self) -> str:
        return pformat(self.value)


class RoomProtocol(FreedOnClose, WebSocketServerProtocol):
    # Not ``log``: that is Autobahn's own txaio logger, whose debug calls cost nothing unless enabled.
    room_log = Logger()
    factory: RoomFactory

    def _connectionMade(self) -> None:
        # Autobahn pretty-prints its thirty options for a debug line on every new connection, whether or not
        # debug lines are kept: a tenth of the work of a crowd reconnecting. Formatting only a line that is
        # written keeps the line.
        autobahn_protocol.pformat = FormattedIfLogged
        try:
            super()._connectionMade()
        finally:
            autobahn_protocol.pformat = pformat

    def onConnect(self, request: Any) -> str:
        factory = self.factory
        if factory.open_connections >= factory.max_connections:     # counted from the handshake, so a
            raise ConnectionDeny(503, "the room is full; try again soon")   # burst of them cannot overshoot
        address = address_of(request.peer)
        if factory.by_address.get(address, 0) >= factory.limits.per_address:
            raise ConnectionDeny(429, "too many connections from your address")
        chosen = next((p for p in request.protocols if p in SUBPROTOCOLS), None)
        if chosen is None:
            raise ConnectionDeny(400, f"ask for one of the subprotocols {', '.join(SUBPROTOCOLS)}")
        origin = request.headers.get("origin")           # browsers send it, whichever subprotocol they pick
        if origin and not factory.origin_allowed(origin, request.headers.get("host", "")):
            raise ConnectionDeny(403, f"origin {origin[:100]} may not use this room")
        self.codec = Codec(chosen)
        self.peer_address = request.peer
        factory.open_connections += 1
        self.address = address
        factory.by_address[address] = factory.by_address.get(address, 0) + 1
        self.counted = True
        return chosen

    def onOpen(self) -> None:
        self.bucket = TokenBucket(self.factory.rate, self.factory.burst, self.factory.reactor.seconds())
        self.bad = 0
        peer = getattr(self, "peer_address", "") or ""          # "tcp4:1.2.3.4:5678", "tcp6:[::1]:5678"
        ip = peer.split(":", 1)[-1].rsplit(":", 1)[0].strip("[]")
        self.session: Session | None = self.factory.room.connected(self, ip)
        self.login_deadline = self.factory.reactor.callLater(self.factory.limits.login_seconds, self._login_late)

    def identity_ended(self) -> None:
        """The player on this socket logged out or was ended on it: it must log in again by the deadline."""
        if self.state != WebSocketServerProtocol.STATE_OPEN:
            return
        deadline = getattr(self, "login_deadline", None)
        if deadline is not None and deadline.active():
            deadline.cancel()
        self.login_deadline = self.factory.reactor.callLater(self.factory.limits.login_seconds, self._login_late)

    def _login_late(self) -> None:
        """A socket that has not logged in or resumed by the deadline gives its place back."""
        self.login_deadline = None
        session = self.session
        if session is not None and session.player_id is None:
            self.close(LOGIN_LATE, f"log in within {self.factory.limits.login_seconds:g} seconds of connecting")

    def dataReceived(self, data: bytes) -> None:                      # noqa: N802 - Twisted's name
        """Straight to Autobahn's frame parser, without its debug line: the line's arguments are worked out for
        every read even when nothing logs them, and cost about what parsing a small frame does."""
        self._dataReceived(data)

    def onMessageEnd(self) -> None:
        """A whole message: straight to :meth:`onMessage`, without Autobahn's ``message`` signal when nobody listens.

        Autobahn fires that signal for every message, building a Deferred and
        its callbacks each time; the room subscribes nobody to it.
        """
        listeners = self._listeners
        if listeners is not None and listeners.get("message"):
            super().onMessageEnd()
            return
        if not self.failedByMe:
            if self.trackedTimings:
                self.trackedTimings.track("onMessage")
            self._onMessage(b"".join(self.message_data), self.message_is_binary)
        self.message_data = None

    def onMessage(self, payload: bytes, isBinary: bool) -> None:        # noqa: N803 - Autobahn's name
        if self.session is None or self.state != WebSocketServerProtocol.STATE_OPEN:
            return                                          # closing: nothing it says counts any more
        if not self.bucket.take(self.factory.reactor.seconds()):
            self._bad(error("error", None, "rate_limited", f"at most {self.factory.rate:g} messages a second"))
            return
        kind, rid = "error", None
        try:
            data = self.codec.decode(payload, isBinary)
            if isinstance(data, dict):
                kind = data.get("type") if isinstance(data.get("type"), str) else "error"
                rid = data.get("rid") if type(data.get("rid")) is int else None
            request = parse_request(data)
        except ProtocolError as e:
            self._bad(error(kind[:40], rid, e.code, e.message))
            return
        self._corked = []                               # what the request makes us send to this client...
        try:
            self._answer(request)
        finally:
            corked, self._corked = self._corked, None   # ...goes out in one write with its answer
            if corked:
                self._write_now(b"".join(corked))

    def _answer(self, request: Any) -> None:
        try:
            answer = self.factory.room.handle(self.session, request)
        except Exception:                               # a bug must not reach the reactor
            self.room_log.failure("handling {type}", type=request.type)
            answer = error(request.type, request.rid, "server_error", "the server could not do that")
        if isinstance(answer, defer.Deferred):
            answer.addCallback(self.send)
            answer.addErrback(lambda failure: self.room_log.failure("answering", failure))
        else:
            self.send(answer)

    def _bad(self, message: dict) -> None:
        self.bad += 1
        self.send(message)
        if self.bad > MAX_BAD:
            self.close(4008, "too many bad messages")

    def onClose(self, wasClean: bool, code: int | None, reason: str | None) -> None:   # noqa: N803
        if getattr(self, "counted", False):
            self.counted = False
            self.factory.open_connections -= 1
            self.factory.released(self.address)
        deadline = getattr(self, "login_deadline", None)
        if deadline is not None and deadline.active():
            deadline.cancel()
        self.login_deadline = None
        session = getattr(self, "session", None)
        if session is not None:
            self.session = None
            self.factory.room.disconnected(session)

    # the room's view of a connection

    def send(self, message: dict[str, Any]) -> None:
        if self.state == WebSocketServerProtocol.STATE_OPEN:
            payload = self.codec.encode(message)
            self._write(payload, self.factory.prepareMessage(payload, self.codec.binary).payloadHybi)

    def send_shared(self, shared: dict[str, Any], extra: dict[str, Any] | None = None) -> None:
        """Send a message many connections get: encoded and framed once per subprotocol (cached in ``shared``).

        A server's frames are not masked, so the same bytes serve every
        connection of the subprotocol. ``extra`` are keys of this connection's
        own (the decision player's ``legal``): the shared encoding, extended.
        """
        if self.state == WebSocketServerProtocol.STATE_OPEN:
            prepared = self._prepared(shared)
            if extra:
                payload = self.codec.extend(prepared.payload, extra)
                self._write(payload, self.factory.prepareMessage(payload, self.codec.binary).payloadHybi)
            else:
                self._write(prepared.payload, prepared.payloadHybi)

    def _prepared(self, shared: dict[str, Any]) -> Any:
        key = self.codec.subprotocol
        prepared = shared.get(key)
        if prepared is None:
            payload = shared.get("encoded", {}).get(key)          # bytes the room built already, if any
            if payload is None:
                payload = self.codec.encode(shared["message"])
            prepared = shared[key] = self.factory.prepareMessage(payload, self.codec.binary)
        return prepared

    _corked: list[bytes] | None = None

    def _write(self, payload: bytes, frame: bytes) -> None:
        if self._corked is not None:
            self._corked.append(frame)
        else:
            self._write_now(frame)

    def _write_now(self, frame: bytes) -> None:
        """Put frames on the socket now when nothing waits before them; else queue them behind the rest.

        Twisted's ``write`` always buffers and asks the reactor to watch the
        socket for writability, which costs two ``epoll_ctl`` calls and a
        reactor turn per frame; a table event goes to every watcher, so the
        room sends straight away when the connection's buffer is empty (the
        usual case) and hands Twisted only what the kernel did not take.
        """
        transport = self.transport
        sock = getattr(transport, "socket", None)
        # Twisted internals: ``_tempDataLen`` is what ``write`` has buffered but not joined yet; anything there
        # (or in ``dataBuffer``) must go out before this frame.
        if (sock is None or not transport.connected or transport.disconnecting or transport._tempDataLen
                or len(transport.dataBuffer) > transport.offset or self.send_queue):
            transport.write(frame)
            self._mind_backlog(transport)
            return
        try:
            sent = sock.send(frame)
        except BlockingIOError:
            sent = 0
        except OSError:
            transport.write(frame)                  # Twisted notices the broken connection and closes it
            return
        if sent < len(frame):
            transport.write(frame[sent:])
            self._mind_backlog(transport)

    def _mind_backlog(self, transport: Any) -> None:
        """Close a connection whose client does not read once more than the cap waits for it.

        Only the slow path looks: nothing waits while the kernel takes each frame.
        The close frame waits behind the rest, and Autobahn drops the socket when
        the close handshake times out, so what the room holds for it stays bounded.
        """
        waiting = (len(getattr(transport, "dataBuffer", b"")) - getattr(transport, "offset", 0)
                   + getattr(transport, "_tempDataLen", 0) + sum(len(item[0]) for item in self.send_queue))
        cap = self.factory.limits.queued_bytes
        if waiting > cap and self.state == WebSocketServerProtocol.STATE_OPEN:
            self.room_log.warn("closed {peer}: it does not read ({waiting} bytes waiting; the cap is {cap})",
                               peer=getattr(self, "peer_address", ""), waiting=waiting, cap=cap)
            self.close(NOT_READING, "you are not reading: too much is waiting for you")

    def close(self, code: int, reason: str) -> None:
        if self.state == WebSocketServerProtocol.STATE_OPEN:
            self.sendClose(code, reason)


class RoomFactory(WebSocketServerFactory):
    protocol = RoomProtocol

    def __init__(self, room: RoomLike, url: str | None, *, max_connections: int = 10_000,
                 allowed_origins: tuple[str, ...] = (), rate: float = RATE, burst: float = BURST,
                 limits: ConnectionLimits | None = None) -> None:
        super().__init__(url, protocols=list(SUBPROTOCOLS))
        self.room = room
        self.reactor = room.reactor
        self.max_connections = max_connections
        self.limits = limits or ConnectionLimits()
        self.allowed_origins = allowed_origins
        self.open_connections = 0
        self.by_address: dict[str, int] = {}           # open connections per address (IPv6: per /64)
        self.rate, self.burst = rate, burst
        self.setProtocolOptions(maxFramePayloadSize=MAX_FRAME, maxMessagePayloadSize=MAX_FRAME,
                                autoPingInterval=20, autoPingTimeout=20,
                                openHandshakeTimeout=self.limits.handshake_seconds,
                                closeHandshakeTimeout=5, failByDrop=False)   # too big: close 1009 with a reason

    @property
    def allowed_origins(self) -> frozenset[str]:
        return self._allowed_origins

    @allowed_origins.setter
    def allowed_origins(self, origins: tuple[str, ...] | frozenset[str]) -> None:
        self._allowed_origins = frozenset(o for o in map(normal_origin, origins) if o)

    def origin_allowed(self, origin: str, host: str = "") -> bool:
        """Browsers may connect from the origins on the room's list only: http or https, exactly.

        The request's own ``Host`` proves nothing -- a page on a domain that
        now resolves to the room (DNS rebinding) sends a matching one.
        """
        return normal_origin(origin) in self._allowed_origins

    def released(self, address: str) -> None:
        left = self.by_address.get(address, 0) - 1
        if left > 0:
            self.by_address[address] = left
        else:
            self.by_address.pop(address, None)


class Health(Resource):
    isLeaf = True

    def __init__(self, room: RoomLike) -> None:
        super().__init__()
        self.room = room

    def render_GET(self, request: Any) -> bytes:                    # noqa: N802 - twisted.web's name
        request.setHeader(b"content-type", b"application/json")
        return json.dumps({"status": "ok", "tables": len(self.room.runners),
                           "connections": len(self.room.connections), "demo": self.room.demo}).encode()


class Metrics(Resource):
    isLeaf = True

    def __init__(self, room: RoomLike) -> None:
        super().__init__()
        self.room = room

    def render_GET(self, request: Any) -> bytes:                    # noqa: N802
        request.setHeader(b"content-type", b"text/plain; version=0.0.4")
        return generate_latest(self.room.metrics.registry)


class RoomResource(WebSocketResource):
    """``/ws``: Autobahn takes the connection over from ``twisted.web``.

    The HTTP channel it leaves behind still has its idle timer running (12
    hours) and is still the transport's producer, which would keep the
    channel, its request and their headers alive for every connection;
    letting go of both lets them go.
    """

    def render(self, request: Any) -> Any:
        channel, transport = request.channel, request.channel.transport
        answer = super().render(request)
        if channel.transport is None:                   # taken over
            channel.setTimeout(None)
            if getattr(transport, "producer", None) is channel:
                transport.unregisterProducer()          # nor does the transport need it as its producer
        return answer


def address_of(peer: str) -> str:
    """The address a connection limit counts: the IPv4 address, or the IPv6 /64 (``tcp6:[::1]:5678``)."""
    ip = (peer or "").split(":", 1)[-1].rsplit(":", 1)[0].strip("[]")
    return network_of(ip) if ":" in ip else ip


class RoomSite(Site):
    """The site, whose HTTP connections must send their headers in time (:class:`TimedChannel`)."""

    protocol = TimedChannel

    def __init__(self, root: Resource, limits: ConnectionLimits, reactor: Any = None) -> None:
        super().__init__(root, timeout=limits.idle_seconds, reactor=reactor)
        self.limits = limits

    def buildProtocol(self, addr: Any) -> Any:           # noqa: N802 - Twisted's name
        channel = super().buildProtocol(addr)
        channel.header_seconds = self.limits.header_seconds
        return channel


def build_site(room: RoomLike, url: str | None = None, *, limits: ConnectionLimits | None = None,
               **factory_options: Any) -> RoomSite:
    limits = limits or ConnectionLimits()
    install_unmasking()                             # small client frames: one XOR, not a native masker each
    factory = RoomFactory(room, url, limits=limits, **factory_options)
    root = Resource()
    root.putChild(b"ws", RoomResource(factory))
    root.putChild(b"health", Health(room))
    root.putChild(b"metrics", Metrics(room))
    add_pages(root)                                 # the web pages: /, /admin, /security; JSON over /ws
    site = RoomSite(root, limits, reactor=room.reactor)
    site.noisy = False
    site.room_factory = factory                     # the origins it allows are known once the port is
    return site
