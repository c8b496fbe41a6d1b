"""What an open connection keeps (issue 36): Autobahn's options are read from the factory, not copied into each
connection, and the opening handshake's request and answer are let go once the connection is open."""

from __future__ import annotations

from twisted.internet.address import IPv4Address
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport

from pokerroom.bus.in_process import InProcessBus
from pokerroom.gateway.routes import Gateway
from pokerroom.gateway.server import build_site

UPGRADE = (b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:8765\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
           b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
           b"Sec-WebSocket-Protocol: pokerroom.v1.msgpack\r\n\r\n")


def opened(site, n: int):   # noqa: ANN001, ANN201
    address = IPv4Address("TCP", f"10.0.0.{n}", 40000 + n)
    transport = StringTransport(peerAddress=address)
    channel = site.buildProtocol(address)
    transport.protocol = channel                    # as a TCP connection has it: Autobahn takes it over
    channel.makeConnection(transport)
    channel.dataReceived(UPGRADE)
    assert transport.value().startswith(b"HTTP/1.1 101")
    return transport.protocol


def test_an_open_connection_reads_its_options_from_the_factory_and_keeps_no_handshake():
    gateway = Gateway(InProcessBus())
    site = build_site(gateway, Clock(), "ws://127.0.0.1:8765/ws")
    one, two = opened(site, 1), opened(site, 2)
    factory = site.room_factory
    kept = vars(one)
    assert one.session in gateway.connections and one.websocket_protocol_in_use == "pokerroom.v1.msgpack"
    for option in ("autoPingInterval", "maxFramePayloadSize", "allowedOrigins", "failByDrop"):
        assert option not in kept and getattr(one, option) == getattr(factory, option)
    for handshake in ("http_headers", "http_request_data", "http_response_data", "_wskey"):
        assert handshake not in kept
    assert not one.wasClean and one.current_frame is None and "wasClean" not in kept   # the class's, at rest
    assert one.codec is two.codec and one.send_queue == ()                          # made when a send needs it
    one.sendClose(1000, "bye")                      # Autobahn's own flags and queue, each connection's own
    assert one.closedByMe and not two.closedByMe
