"""``serve --proxy-protocol`` without sockets: what listens on the room's port, and the peer the site sees.

A Twisted ``MemoryReactor`` records each ``listenTCP`` (port, factory, backlog,
interface); a ``StringTransport`` stands for HAProxy's connection, from its own
address, carrying the PROXY header before the player's request.
"""

from __future__ import annotations

import ipaddress
import struct

import pytest
from twisted.internet.address import IPv4Address
from twisted.internet.error import CannotListenError
from twisted.internet.task import Clock
from twisted.internet.testing import MemoryReactor, StringTransport
from twisted.web.resource import Resource

from pokerroom.gateway.limits import ConnectionLimits
from pokerroom.gateway.proxy_protocol import BACKLOG, check_bots, listen, socket_transport
from pokerroom.gateway.server import RoomSite

HAPROXY = IPv4Address("TCP", "10.0.0.2", 40123)          # where every connection comes from, behind the balancer
REQUEST = b"GET / HTTP/1.1\r\nHost: pokerroom\r\n\r\n"
V2_SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"


class ClientAddress(Resource):
    """Answers with the address the request's connection is from, as every layer of the room reads it."""

    isLeaf = True

    def render_GET(self, request) -> bytes:  # noqa: ANN001, N802 - Twisted's name
        peer = request.getClientAddress()
        return f"{peer.host}:{peer.port}".encode()


def v2_header(source: str, source_port: int, destination: str = "10.0.0.11", destination_port: int = 8801) -> bytes:
    """A PROXY protocol v2 header, PROXY command over TCP/IPv4, as HAProxy's ``send-proxy-v2`` writes it."""
    addresses = (ipaddress.IPv4Address(source).packed + ipaddress.IPv4Address(destination).packed
                 + struct.pack("!HH", source_port, destination_port))
    return V2_SIGNATURE + b"\x21\x11" + struct.pack("!H", len(addresses)) + addresses


def listened(proxy_protocol: bool, clock: Clock | None = None) -> tuple[MemoryReactor, RoomSite]:
    """The room's site (its HTTP deadlines on ``clock``) listening on a memory reactor."""
    reactor, site = MemoryReactor(), RoomSite(ClientAddress(), ConnectionLimits(), reactor=clock or Clock())
    listen(reactor, "10.0.0.11", 8801, site, proxy_protocol=proxy_protocol)
    return reactor, site


def connect(reactor: MemoryReactor, data: bytes) -> StringTransport:
    """One connection from HAProxy's address to what listens, sending ``data``; its transport, what was answered."""
    factory = reactor.tcpServers[0][1]
    protocol = factory.buildProtocol(HAPROXY)
    transport = StringTransport(peerAddress=HAPROXY)
    protocol.makeConnection(transport)
    protocol.dataReceived(data)
    return transport


def test_off_the_site_itself_listens_as_before_and_sees_the_balancers_address():
    reactor, site = listened(False)
    assert reactor.tcpServers == [(8801, site, BACKLOG, "10.0.0.11")]
    answer = connect(reactor, REQUEST).value()
    assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"10.0.0.2:40123")


@pytest.mark.parametrize("header", [v2_header("203.0.113.7", 51234),
                                    b"PROXY TCP4 203.0.113.7 10.0.0.11 51234 8801\r\n"], ids=["v2", "v1"])
def test_on_the_same_port_and_backlog_and_the_site_sees_the_client_the_header_names(header):
    reactor, site = listened(True)
    ((port, factory, backlog, interface),) = reactor.tcpServers
    assert (port, backlog, interface) == (8801, BACKLOG, "10.0.0.11") and factory is not site
    answer = connect(reactor, header + REQUEST).value()
    assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"203.0.113.7:51234")


@pytest.mark.parametrize("data", [REQUEST, b"PROXY TCP4 203.0.113.7 nowhere\r\n" + REQUEST,
                                  V2_SIGNATURE + b"\x2f\x11\x00\x0c" + b"\x00" * 12], ids=["none", "bad v1", "bad v2"])
def test_on_a_connection_without_a_valid_header_is_closed_unanswered(data):
    reactor, _ = listened(True)
    transport = connect(reactor, data)
    assert transport.disconnecting and transport.value() == b""


def test_on_a_header_that_never_ends_is_closed_at_the_rooms_header_deadline():
    """A header is read whole before the site's channel sees a byte; the channel's deadline for a request's headers
    runs from connecting all the same, so a client that stops half-way holds its connection no longer."""
    clock = Clock()
    reactor, _ = listened(True, clock)
    transport = connect(reactor, b"PROXY TCP4 203.0.113.7 10.0.0.11 51")
    clock.advance(ConnectionLimits().header_seconds - 0.1)
    assert not transport.disconnecting
    clock.advance(0.2)
    assert transport.disconnecting and transport.value() == b""


def test_a_local_header_from_the_balancers_own_checks_leaves_its_address():
    reactor, _ = listened(True)
    answer = connect(reactor, V2_SIGNATURE + b"\x20\x00\x00\x00" + REQUEST).value()
    assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"10.0.0.2:40123")


def test_the_edge_writes_beneath_the_header_reader_to_the_connection_that_owns_the_socket():
    """The reader's writes pass straight through: the edge's direct writes skip its forwarded attribute reads."""
    reactor, _ = listened(True)
    reader = reactor.tcpServers[0][1].buildProtocol(HAPROXY)
    tcp = StringTransport(peerAddress=HAPROXY)
    reader.makeConnection(tcp)
    assert socket_transport(reader) is tcp and socket_transport(tcp) is tcp
    reader.write(b"frame")                                     # what the reader would have done with a write
    assert tcp.value() == b"frame"


class TakenPort(MemoryReactor):
    def listenTCP(self, port, factory, backlog=50, interface=""):  # noqa: ANN001, ANN201, N802 - Twisted's name
        raise CannotListenError(interface, port, OSError(98, "Address already in use"))


@pytest.mark.parametrize("proxy_protocol", [False, True], ids=["off", "on"])
def test_a_port_in_use_stops_serve_at_once_either_way(proxy_protocol):
    with pytest.raises(CannotListenError, match="Address already in use"):
        listen(TakenPort(), "10.0.0.11", 8801, RoomSite(ClientAddress(), ConnectionLimits(), reactor=Clock()),
               proxy_protocol=proxy_protocol)


def test_bots_started_by_serve_cannot_come_through_a_proxy_protocol_port():
    check_bots(6, False)
    check_bots(0, True)
    with pytest.raises(ValueError, match="--proxy-protocol closes every connection .*pokerroom bots --url"):
        check_bots(6, True)
