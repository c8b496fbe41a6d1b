"""The PROXY protocol on the room's port (``pokerroom serve --proxy-protocol``): the players' own addresses behind
HAProxy.

Behind a load balancer every connection comes from the balancer's address, so
the places per address and network, the password limits, the security team's
shared-address signals and the stored connection records would all see one
address. HAProxy's ``send-proxy-v2`` puts a header naming the client's address
before each connection's first byte; with the flag on, the room's listening
factory reads it (Twisted's :mod:`twisted.protocols.haproxy`, v1 or v2) and
``transport.getPeer()`` -- which Autobahn's ``request.peer`` and so the gateway
read -- is the client's. A connection whose first bytes are not a valid header
is closed unanswered: a client that reached the port around the balancer must
not name its own address, which is also why the port must be reachable only
from the balancer. A header that names no address (HAProxy's own health checks,
``LOCAL``) leaves the balancer's.
"""

from __future__ import annotations

from twisted.internet.endpoints import TCP4ServerEndpoint
from twisted.internet.interfaces import IListeningPort, IProtocolFactory, IReactorTCP, ITransport
from twisted.protocols.haproxy import proxyEndpoint
from twisted.protocols.haproxy._wrapper import HAProxyProtocolWrapper  # Twisted internals (socket_transport)
from twisted.python.failure import Failure

FLAG = "--proxy-protocol"
BACKLOG = 1024                  # a crowd reconnecting at once (after a restart, or HAProxy's) queues in the kernel


def listen(reactor: IReactorTCP, host: str, port: int, site: IProtocolFactory, *,
           proxy_protocol: bool) -> IListeningPort:
    """Listen on ``host:port`` for ``site``, at once (before the reactor runs; a port in use raises here), with
    the PROXY header's reader in front when ``proxy_protocol`` (Twisted's public :func:`proxyEndpoint`, around the
    same ``listenTCP`` and backlog as without it)."""
    if not proxy_protocol:
        return reactor.listenTCP(port, site, interface=host, backlog=BACKLOG)
    # the TCP endpoint's listen is listenTCP itself, called now: its Deferred has fired before it is returned
    listened = proxyEndpoint(TCP4ServerEndpoint(reactor, port, backlog=BACKLOG, interface=host)).listen(site)
    outcome: list = []
    listened.addBoth(outcome.append)
    if not outcome:
        raise RuntimeError("the PROXY-protocol endpoint did not listen at once")
    if isinstance(outcome[0], Failure):
        outcome[0].raiseException()
    return outcome[0]


def socket_transport(transport: ITransport) -> ITransport:
    """The transport that owns the connection's socket: beneath a PROXY header reader, whose writes pass straight
    through to it, the TCP connection itself; any other transport, itself.

    The edge writes frames to the socket directly and reads the transport's
    buffers to do so (``RoomProtocol._write_now``); through the reader each of
    those reads is forwarded by ``__getattr__``: some 2 µs a frame against
    0.1 µs, paid for every frame of every table event. The header's work is
    done before the WebSocket exists, so nothing is lost by going beneath it.
    """
    return transport.transport if isinstance(transport, HAProxyProtocolWrapper) else transport


def check_bots(bots: int, proxy_protocol: bool) -> None:
    """``serve --bots`` connects its bots straight to the port, which a PROXY-protocol port closes: refused with a
    sentence before the room starts (run ``pokerroom bots --url`` against the balancer instead)."""
    if proxy_protocol and bots > 0:
        raise ValueError(f"{FLAG} closes every connection that does not come through HAProxy, and --bots {bots} "
                         "would connect straight to the port: start bots with `pokerroom bots --url "
                         "ws://BALANCER/ws` instead")
