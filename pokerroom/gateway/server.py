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
import socket
from collections import deque
from collections.abc import Callable
from pprint import pformat
from typing import Any

from autobahn.twisted.resource import WebSocketResource
from autobahn.twisted.websocket import WebSocketServerFactory, WebSocketServerProtocol
from autobahn.websocket import protocol as autobahn_protocol
from autobahn.websocket.types import ConnectionDeny
from prometheus_client import generate_latest
from twisted.internet import defer
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger
from twisted.web.resource import Resource
from twisted.web.server import Site

from lobby.site import add_pages
from pokerroom.bus.records import Frame
from pokerroom.gateway.closing import FreedOnClose
from pokerroom.gateway.draining import Drain
from pokerroom.gateway.frame_bytes import PreparedFrames, data_frame
from pokerroom.gateway.limits import ConnectionLimits, TimedChannel, normal_origin
from pokerroom.gateway.metrics import Metrics as RoomMetrics
from pokerroom.gateway.pings import spread_first_ping
from pokerroom.gateway.places import PlaceRules, Places, Refused
from pokerroom.gateway.proxy_protocol import socket_transport
from pokerroom.gateway.routes import Gateway
from pokerroom.gateway.sessions import Session
from pokerroom.gateway.throttle import TokenBucket
from pokerroom.gateway.unmasking import install as install_unmasking
from pokerroom.gateway.unmasking import unmask
from pokerroom.protocol.codec import MAX_FRAME, SUBPROTOCOLS, Codec
from pokerroom.protocol.schema import ProtocolError, error, parse_request

RATE = 20.0                 # messages a second, sustained
BURST = 40.0
MAX_BAD = 50                # malformed or refused-for-rate messages before the connection is closed
LOGIN_LATE = 4010           # close code: not logged in (or resumed) within the login deadline
NOT_READING = 4011          # close code: more bytes waiting for the client than the cap
PLACE_TAKEN = 4012          # close code: not logged in, and a newcomer needed the place (the room's anonymous share)
MAX_WAITING = 16            # requests of one connection waiting behind an answer not given yet (more: refused)
MAX_WAITING_BYTES = 32 * 1024


_OPEN = WebSocketServerProtocol.STATE_OPEN
_WHOLE_SMALL_MESSAGE = (0x81, 0x82)     # first byte of a final text or binary frame, no extension bits


def echoed(data: object) -> tuple[str, int | None]:
    """The ``type`` and ``rid`` a refusal echoes: what the frame said, when it said them readably."""
    if not isinstance(data, dict):
        return "error", None
    kind, rid = data.get("type"), data.get("rid")
    return (kind[:40] if isinstance(kind, str) else "error"), (rid if type(rid) is int else None)


def _is_utf8(payload: bytes) -> bool:
    try:
        payload.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


class FormattedIfLogged:
    """``pformat(value)``, made only if a log line that holds it is actually written."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __str__(self) -> str:
        return pformat(self.value)


CODECS = {subprotocol: Codec(subprotocol) for subprotocol in SUBPROTOCOLS}
_HANDSHAKE_ONLY = ("http_request_data", "http_status_line", "http_headers", "http_request_uri", "http_request_path",
                   "http_request_params", "http_request_host", "http_response_data", "websocket_protocols",
                   "websocket_extensions", "_wskey")


# Autobahn's per-connection flags and handles as they are while all is well: the class holds them (read the same),
# and a connection its own only once one changes.
_AT_REST: dict[str, Any] = {
    **dict.fromkeys(("wasMaxFramePayloadSizeExceeded", "wasMaxMessagePayloadSizeExceeded", "closedByMe", "failedByMe",
                     "droppedByMe", "wasClean", "wasServerConnectionDropTimeout", "wasOpenHandshakeTimeout",
                     "wasCloseHandshakeTimeout", "wasServingFlashSocketPolicyFile", "triggered", "autoPingPending",
                     "inside_message"), False),
    **dict.fromkeys(("wasNotCleanReason", "localCloseCode", "localCloseReason", "remoteCloseCode",
                     "remoteCloseReason", "openHandshakeTimeoutCall", "closeHandshakeTimeoutCall",
                     "autoPingTimeoutCall", "autoPingPendingSeq", "autoPingPendingSent", "_perMessageCompress",
                     "trackedTimings", "current_frame", "websocket_origin"), None),
}


class FromFactory:
    """One of Autobahn's options read from the connection's factory: Autobahn copies its thirty options into every
    connection it makes unless the connection already has them; this gives it them without a copy each (a value
    set on one connection is its own, in its instance dictionary)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, instance: Any, owner: type) -> Any:
        if instance is None:
            return self
        return getattr(instance.factory, self.name)


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
        self.send_queue = ()                        # made when a chopped or synced send needs one (:meth:`sendData`)

    def onConnect(self, request: Any) -> str:
        factory = self.factory
        if factory.drain is not None and factory.drain.draining:       # on its way out: the balancer retries elsewhere
            raise ConnectionDeny(503, "this process is draining for a deploy: connect again")
        chosen = next((p for p in request.protocols if p in SUBPROTOCOLS), None)
        if chosen is None:
            raise ConnectionDeny(400, f"ask for one of the subprotocols {', '.join(SUBPROTOCOLS)}")
        origin = request.headers.get("origin")           # browsers send it, whichever subprotocol they pick
        if origin and not factory.origin_allowed(origin, request.headers.get("host", "")):
            raise ConnectionDeny(403, f"origin {origin[:100]} may not use this room")
        try:                                            # counted from the handshake, so a burst cannot overshoot
            evicted = factory.places.admit(self, ip_of(request.peer))
        except Refused as refused:
            raise ConnectionDeny(refused.status, refused.reason) from None
        self.counted = True
        for other in evicted:                           # the oldest anonymous connection of the busiest network
            other.place_taken()
        self.codec = codec = CODECS[chosen]             # a codec holds nothing of a connection: one each, shared
        self.frame_bytes = factory.frames.of(codec)     # its subprotocol's bytes of shared frames
        self.peer_address = request.peer
        return chosen

    def onOpen(self) -> None:
        self._forget_handshake()
        spread_first_ping(self)                     # a crowd that connected together is not pinged together
        send_buffer = self.factory.limits.send_buffer
        handle = getattr(self.transport, "getHandle", None)
        if send_buffer is not None and handle is not None:      # what the kernel holds for a client, bounded too
            handle().setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
        self.bucket = TokenBucket(self.factory.rate, self.factory.burst, self.factory.reactor.seconds())
        self.bad = 0
        self.session: Session | None = self.factory.gateway.connected(self, ip_of(getattr(self, "peer_address", "")))
        self.login_deadline = self.factory.reactor.callLater(self.factory.limits.login_seconds, self._login_late)

    def _forget_handshake(self) -> None:
        """Autobahn keeps the opening handshake's request and answer (their text, the headers parsed, the key) for
        the connection's life; nothing reads them once it is open. They go, and the instance's attributes are
        moved into a dictionary of their size: with the options read from the factory (:class:`FromFactory`),
        a connection holds some 2 KiB less (bench/connection_memory.py)."""
        attributes = self.__dict__
        for name in _HANDSHAKE_ONLY:
            attributes.pop(name, None)
        for name, value in _AT_REST.items():          # a flag as it starts: the class's, until it is set
            if name in attributes and attributes[name] is value:
                del attributes[name]
        self.__dict__ = dict(attributes)

    def identity_began(self) -> None:
        """A player logged in or resumed on this socket: no longer anonymous (the gateway's hook, called in the
        login's or resume's own turn); its login deadline has nothing left to do (a logout starts it again)."""
        if self.counted:
            self.factory.places.logged_in(self)
        deadline = getattr(self, "login_deadline", None)
        if deadline is not None and deadline.active():
            deadline.cancel()
        self.login_deadline = None

    def identity_ended(self) -> None:
        """The player on this socket logged out or was ended on it: it must log in again by the deadline."""
        if self.state != WebSocketServerProtocol.STATE_OPEN:
            return
        if self.counted:
            self.factory.places.logged_out(self)            # anonymous again: its share of places is bounded
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
        """A read that is exactly one small whole message goes straight to :meth:`onMessage`; anything else to
        Autobahn's frame parser (without its debug line, whose arguments are worked out for every read even when
        nothing logs them).

        A client's request is one frame of some sixty bytes, and that is nearly
        every read: a final (FIN) text or binary frame, masked, with a 7-bit
        length, and nothing before or after it. For it the parser's work --
        a frame object, six callbacks, a masker, the message's pieces joined --
        costs more than the room's answer. Autobahn internals: its read buffer
        (``data``), the frame and message it is inside (``current_frame``,
        ``inside_message``) and ``failedByMe`` must show that it is between
        messages, so the shortcut cannot cut into one; a text payload that is not
        UTF-8, or anything unusual, takes Autobahn's path and its errors.
        """
        size = len(data) - 6
        if (0 <= size < 126 and data[1] == 0x80 | size and data[0] in _WHOLE_SMALL_MESSAGE
                and self.state == _OPEN and not self.data
                and self.current_frame is None and not self.inside_message and not self.failedByMe
                and not (self._listeners and self._listeners.get("message")) and not self.logOctets):
            payload = unmask(data[2:6], data[6:])
            binary = data[0] == 0x82
            if binary or _is_utf8(payload):
                self.trafficStats.incomingOctetsWireLevel += len(data)
                self.onMessage(payload, binary)
                return
        self._dataReceived(data)

    def sendData(self, data: bytes, sync: bool = False, chopsize: int | None = None) -> None:   # noqa: N802, FBT001, FBT002
        """Autobahn's own frames (its handshake answer, pings, a close) go out as the room's frames do: behind what
        the request being answered has corked (an error's answer before the close it leads to), and without
        Autobahn's debug line."""
        if sync or chopsize or self.send_queue or self.logOctets or self.transport is None:
            if type(self.send_queue) is not deque:
                self.send_queue = deque()           # Autobahn's queue for chopped and synced sends, made when needed
            super().sendData(data, sync, chopsize)
        else:
            self._write(data)

    def onMessageEnd(self) -> None:
        """A whole message: straight to :meth:`onMessage`, without Autobahn's ``message`` signal when nobody listens.

        Autobahn fires that signal for every message, building a Deferred and
        its callbacks each time; the room subscribes nobody to it.
        """
        if self._listeners and self._listeners.get("message"):
            super().onMessageEnd()
            return
        if not self.failedByMe:
            if self.trackedTimings:
                self.trackedTimings.track("onMessage")
            self._onMessage(b"".join(self.message_data), self.message_is_binary)
        self.message_data = None

    def onMessage(self, payload: bytes, isBinary: bool) -> None:        # noqa: N803 - Autobahn's name
        """One request, answered in the order the connection sent it.

        An answer may wait (the database, a password hash): until it goes out,
        later requests of the connection wait behind it (:meth:`_wait`) and are
        handled in order once it has, so a ``login`` sent right after its
        ``register`` finds the account. Pushes do not wait. The usual request
        is answered at once, and its path here is one more test of two class
        attributes.
        """
        if self.session is None or self.state != WebSocketServerProtocol.STATE_OPEN:
            return                                          # closing: nothing it says counts any more
        if self._pending or self._waiting:
            self._wait(payload, isBinary)
            return
        self._handle(payload, isBinary)

    def _handle(self, payload: bytes, isBinary: bool) -> None:         # noqa: N803
        if not self.bucket.take(self.factory.reactor.seconds()):
            self._bad(error("error", None, "rate_limited", f"at most {self.factory.rate:g} messages a second"))
            return
        data = None
        try:
            data = self.codec.decode(payload, isBinary)
            request = parse_request(data)
        except ProtocolError as e:
            kind, rid = echoed(data if data is not None else e.data)     # echoed whenever it can be read
            self._bad(error(kind, rid, e.code, e.message, e.rule))
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
            answer = self.factory.gateway.handle(self.session, request)
        except Exception:                               # a bug must not reach the reactor
            self.room_log.failure("handling {type}", type=request.type)
            answer = error(request.type, request.rid, "server_error", "the server could not do that")
        if isinstance(answer, defer.Deferred):
            self._pending = True                        # later requests wait for this answer (:meth:`_wait`)
            answer.addCallbacks(self._answered, self._answer_failed, errbackArgs=(request,))
        else:
            self.send(answer)

    def _answered(self, answer: dict) -> None:
        """A waited-for answer: out, then the requests that waited behind it, in order."""
        self.send(answer)
        self._pending = False
        if self._corked is None:                        # not inside a request's handling (it fired at once)
            self._go_on()

    def _answer_failed(self, failure: Any, request: Any) -> None:
        self.room_log.failure("answering {type}", failure, type=request.type)
        self._answered(error(request.type, request.rid, "server_error", "the server could not do that"))

    def _wait(self, payload: bytes, binary: bool) -> None:
        """A request sent while an earlier one's answer is not out: it waits its turn, within bounds.

        Beyond :data:`MAX_WAITING` requests (or :data:`MAX_WAITING_BYTES`) it is
        refused (``too_many_waiting``) -- in its place in the order, and counted
        as a bad message, so a client that keeps pipelining is closed (4008)
        and what waits for one connection stays small.
        """
        waiting = self._waiting
        if not waiting:
            waiting = self._waiting = deque()
            self._waiting_bytes = 0
        if len(waiting) >= MAX_WAITING or self._waiting_bytes + len(payload) > MAX_WAITING_BYTES:
            kind, rid = self._peek(payload, binary)
            waiting.append((None, error(kind, rid, "too_many_waiting", f"at most {MAX_WAITING} requests may wait "
                                                                       "for an earlier answer: wait for answers")))
            self.bad += 1
            if self.bad > MAX_BAD:
                self._waiting = None
                self.close(4008, "too many bad messages")
            return
        self._waiting_bytes += len(payload)
        waiting.append((payload, binary))

    def _peek(self, payload: bytes, binary: bool) -> tuple[str, int | None]:
        """A refused request's type and rid, when they can be read (for its refusal's envelope)."""
        try:
            return echoed(self.codec.decode(payload, binary))
        except ProtocolError:
            return "error", None

    def _go_on(self) -> None:
        """Handle the requests that waited, in order, until one must wait for its answer again."""
        waiting = self._waiting
        while waiting and not self._pending:
            if self.session is None or self.state != WebSocketServerProtocol.STATE_OPEN:
                self._waiting = None
                return
            payload, binary = waiting.popleft()
            if payload is None:
                self.send(binary)                       # a refusal made when it came: its place in the order
            else:
                self._waiting_bytes -= len(payload)
                self._handle(payload, binary)
        if not waiting:
            self._waiting = None

    def _bad(self, message: dict) -> None:
        self.bad += 1
        self.send(message)
        if self.bad > MAX_BAD:
            self.close(4008, "too many bad messages")

    def onClose(self, wasClean: bool, code: int | None, reason: str | None) -> None:   # noqa: N803
        self._waiting = None
        if self.counted:
            self.counted = False
            self.factory.places.release(self)
        deadline = getattr(self, "login_deadline", None)
        if deadline is not None and deadline.active():
            deadline.cancel()
        self.login_deadline = None
        session = getattr(self, "session", None)
        if session is not None:
            self.session = None
            self.factory.gateway.disconnected(session)

    # the room's view of a connection

    def send(self, message: dict[str, Any]) -> None:
        if self.state == WebSocketServerProtocol.STATE_OPEN:
            self._write(data_frame(self.codec.encode(message), self.codec.binary))

    def send_frame(self, frame: Frame) -> None:
        """Send a frame many connections get: encoded and framed once per subprotocol for all of them (the
        factory keeps the bytes, :mod:`pokerroom.gateway.frame_bytes`); ``extra``'s keys, this connection's own
        (the decision player's ``legal``), extend the shared encoding."""
        if self.state == _OPEN:
            self._write(self.frame_bytes.encoded(frame))

    _corked: list[bytes] | None = None
    _pending = False                            # an answer is on its way (a Deferred): later requests wait
    _waiting: deque | None = None               # those requests, oldest first: (payload, binary) or (None, refusal)
    _waiting_bytes = 0
    counted = False                             # holds one of the room's places (pokerroom/gateway/places.py)
    not_reading = False                         # the output cap closed this connection (4011), once

    def _write(self, frame: bytes) -> None:
        """Every byte the room sends on this connection passes here: its frames, and Autobahn's own."""
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
        transport = socket_transport(self.transport)      # beneath a PROXY header reader: its writes pass through
        sock = getattr(transport, "socket", None)
        # Twisted internals: ``_tempDataLen`` is what ``write`` has buffered but not joined yet; anything there
        # (or in ``dataBuffer``) must go out before this frame.
        if (sock is None or transport._tempDataLen or len(transport.dataBuffer) > transport.offset
                or not transport.connected or transport.disconnecting or self.send_queue):
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
        The close frame goes out through here too: it must not start another
        close (whether the frame that crossed the cap was an answer or a push).
        """
        if self.not_reading:                    # closing for it already: the close frame itself passes here
            return
        waiting = (len(getattr(transport, "dataBuffer", b"")) - getattr(transport, "offset", 0)
                   + getattr(transport, "_tempDataLen", 0) + sum(len(item[0]) for item in self.send_queue))
        cap = self.factory.limits.queued_bytes
        if waiting > cap and self.state == WebSocketServerProtocol.STATE_OPEN:
            self.not_reading = True             # Autobahn marks the state closing only after writing the frame
            self.room_log.warn("closed {peer}: it does not read ({waiting} bytes waiting; the cap is {cap})",
                               peer=getattr(self, "peer_address", ""), waiting=waiting, cap=cap)
            self.close(NOT_READING, "you are not reading: too much is waiting for you")

    def close(self, code: int, reason: str) -> None:
        if self.state == WebSocketServerProtocol.STATE_OPEN:
            self.sendClose(code, reason)

    def place_taken(self) -> None:
        """A newcomer took this anonymous connection's place (its share of the room was full): it goes now."""
        self.counted = False
        if self.state == WebSocketServerProtocol.STATE_OPEN:
            self.close(PLACE_TAKEN, "the room needed your place: log in sooner after connecting")
        elif self.transport is not None:
            self.transport.abortConnection()


for _option in WebSocketServerProtocol.CONFIG_ATTRS:
    setattr(RoomProtocol, _option, FromFactory(_option))
for _flag, _value in _AT_REST.items():
    if _flag not in vars(RoomProtocol):
        setattr(RoomProtocol, _flag, _value)


class RoomFactory(WebSocketServerFactory):
    protocol = RoomProtocol

    def __init__(self, gateway: Gateway, reactor: IReactorTime, url: str | None, *, max_connections: int = 10_000,
                 allowed_origins: tuple[str, ...] = (), rate: float = RATE, burst: float = BURST,
                 limits: ConnectionLimits | None = None, drain: Drain | None = None) -> None:
        super().__init__(url, protocols=list(SUBPROTOCOLS))
        self.gateway = gateway                      # a connection's arrival, its requests and its departure
        self.drain = drain                          # while it drains, no new connection
        self.reactor = reactor
        self.frames = PreparedFrames()             # the bytes of the frames on their way to many connections
        self.limits = limits = limits or ConnectionLimits()
        self.allowed_origins = allowed_origins
        self.places = Places(PlaceRules(total=max_connections, per_address=limits.per_address,
                                        per_network=limits.per_network, per_ipv6_56=limits.per_ipv6_56,
                                        anonymous_share=limits.anonymous_share))
        self.rate, self.burst = rate, burst
        self.setProtocolOptions(maxFramePayloadSize=MAX_FRAME, maxMessagePayloadSize=MAX_FRAME,
                                # only a pong answers a ping: Autobahn's parser would also take any frame as
                                # one, and the short path (dataReceived) none -- both paths must judge alike
                                autoPingInterval=self.limits.ping_seconds, autoPingTimeout=self.limits.ping_seconds,
                                autoPingRestartOnAnyTraffic=False,
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


class Health(Resource):
    """``/health``: this process's node name, the cash tables open, the tournament hands it plays for a director
    elsewhere, the connections, whether this is a demo room; 503 and ``"draining"`` once the process drains for a
    deploy (:mod:`pokerroom.gateway.draining`), which takes it out of a load balancer's rotation."""

    isLeaf = True

    def __init__(self, gateway: Gateway, tables: Callable[[], int], demo: bool, *, node: str = "main",
                 drain: Drain | None = None, hands: Callable[[], int] = lambda: 0) -> None:
        super().__init__()
        self.gateway = gateway
        self.tables = tables
        self.hands = hands
        self.demo = demo
        self.node = node
        self.drain = drain

    def render_GET(self, request: Any) -> bytes:                    # noqa: N802 - twisted.web's name
        request.setHeader(b"content-type", b"application/json")
        request.setHeader(b"cache-control", b"no-store")
        answer = {"status": "ok", "node": self.node, "tables": self.tables(), "tournament_hands": self.hands(),
                  "connections": len(self.gateway.connections), "demo": self.demo}
        if self.drain is not None and self.drain.draining:
            request.setResponseCode(503)
            answer |= {"status": "draining", "stops_within_seconds": round(self.drain.left() or 0.0, 1)}
        return json.dumps(answer).encode()


class Metrics(Resource):
    isLeaf = True

    def __init__(self, metrics: RoomMetrics) -> None:
        super().__init__()
        self.metrics = metrics

    def render_GET(self, request: Any) -> bytes:                    # noqa: N802
        request.setHeader(b"content-type", b"text/plain; version=0.0.4")
        return generate_latest(self.metrics.registry)


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


def ip_of(peer: str) -> str:
    """The address in a peer string (``tcp4:1.2.3.4:5678``, ``tcp6:[::1]:5678``)."""
    return (peer or "").split(":", 1)[-1].rsplit(":", 1)[0].strip("[]")


class RoomSite(Site):
    """The site, whose HTTP connections must send their headers in time (:class:`TimedChannel`)."""

    protocol = TimedChannel

    def __init__(self, root: Resource, limits: ConnectionLimits, reactor: IReactorTime | None = None) -> None:
        super().__init__(root, timeout=limits.idle_seconds, reactor=reactor)
        self.limits = limits

    def buildProtocol(self, addr: Any) -> Any:           # noqa: N802 - Twisted's name
        channel = super().buildProtocol(addr)
        channel.header_seconds = self.limits.header_seconds
        return channel


def build_site(gateway: Gateway, reactor: IReactorTime, url: str | None = None, *,
               tables: Callable[[], int] = lambda: 0, demo: bool = False, limits: ConnectionLimits | None = None,
               node: str = "main", drain: Drain | None = None, hands: Callable[[], int] = lambda: 0,
               **factory_options: Any) -> RoomSite:
    """The one port: the game protocol on ``/ws`` (to ``gateway``), ``/health`` (``node``, ``tables()`` open,
    ``demo``; 503 while ``drain`` drains), ``/metrics`` and the web pages. The edge takes the gateway: the room is
    composed above it (:mod:`pokerroom.shell.composition`)."""
    limits = limits or ConnectionLimits()
    install_unmasking()                             # small client frames: one XOR, not a native masker each
    factory = RoomFactory(gateway, reactor, url, limits=limits, drain=drain, **factory_options)
    root = Resource()
    root.putChild(b"ws", RoomResource(factory))
    root.putChild(b"health", Health(gateway, tables, demo, node=node, drain=drain, hands=hands))
    root.putChild(b"metrics", Metrics(gateway.metrics))
    add_pages(root)                                 # the web pages: /, /admin, /security; JSON over /ws
    site = RoomSite(root, limits, reactor=reactor)
    site.noisy = False
    site.room_factory = factory                     # the origins it allows are known once the port is
    return site
