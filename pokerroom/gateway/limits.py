"""What one client may hold of the room's connections, file descriptors and memory, and for how long.

The room's places are shared: a few hundred sockets that never log in, HTTP
requests sent a byte at a time, or a client that never reads its answers must
not lock out or slow down everyone else. The numbers come from the ``[connections]``
section of the room config (docs/operations.md, "Limits").
"""

from __future__ import annotations

import resource
from dataclasses import dataclass, fields
from typing import Any
from urllib.parse import urlsplit

from twisted.web.http import HTTPChannel

DEFAULT_PORTS = {"http": 80, "https": 443}


@dataclass(frozen=True)
class ConnectionLimits:
    per_address: int = 64               # open WebSocket connections from one IPv4 or IPv6 address
    per_network: int = 256              # ... from one IPv4 /24 or IPv6 /64 (at least per_address)
    per_ipv6_56: int = 1_024            # ... from one IPv6 /56 (at least per_network)
    anonymous_share: float = 0.8        # of all places, what connections not logged in may hold
    login_seconds: float = 120.0        # a WebSocket that has not logged in (or resumed) by then is closed (4010)
    handshake_seconds: float = 10.0     # Autobahn's opening handshake
    header_seconds: float = 10.0        # an HTTP request's line and headers, from connecting or the last answer
    idle_seconds: float = 60.0          # an HTTP connection with nothing to do
    queued_bytes: int = 1 << 20         # bytes waiting to go to one client; more: closed (4011)
    ping_seconds: float = 20.0          # a ping this often; no pong within as long again: dropped (any path alike)
    send_buffer: int | None = None      # the kernel's send buffer per WebSocket (SO_SNDBUF); None: its own tuning
    allowed_origins: tuple[str, ...] | None = None   # browser origins; None: the room's own address only

    @classmethod
    def from_config(cls, data: dict, *, demo: bool = False) -> ConnectionLimits:
        """The ``[connections]`` section (every key optional); ``ValueError`` names a bad key.

        A demo room's bots and browsers all come from this machine: unless the
        config says otherwise it lets one address hold many connections.
        """
        section = dict(data.get("connections", {}))
        unknown = set(section) - {f.name for f in fields(cls)}
        if unknown:
            raise ValueError(f"[connections] has no setting {sorted(unknown)[0]!r}")
        if "allowed_origins" in section:
            origins = [normal_origin(o) for o in section["allowed_origins"]]
            if None in origins:
                raise ValueError("[connections] allowed_origins: each is http:// or https://, a host and a port")
            section["allowed_origins"] = tuple(origins)
        if demo:
            section.setdefault("per_address", 1_000)
        return cls(**section)


def normal_origin(origin: str) -> str | None:
    """``scheme://host:port`` in one spelling, or None for anything but a plain http or https origin."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.username is not None \
            or parts.password is not None or parts.path not in ("", "/") or parts.query or parts.fragment:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{host}:{port or DEFAULT_PORTS[parts.scheme]}"


def own_origins(host: str, port: int) -> tuple[str, ...]:
    """The room's own pages' origins: ``http://HOST:PORT``; on loopback also ``localhost`` and ``127.0.0.1``."""
    if host in ("", "0.0.0.0", "::"):               # every interface: no one name is the room's own
        return ()
    names = {host}
    if host in ("127.0.0.1", "localhost", "::1"):
        names |= {"127.0.0.1", "localhost"}
    found = (normal_origin(f"{scheme}://{f'[{name}]' if ':' in name else name}:{port}")
             for name in sorted(names) for scheme in ("http", "https"))
    return tuple(o for o in found if o)


class TimedChannel(HTTPChannel):
    """An HTTP connection that must send each request's line and headers within ``header_seconds``.

    ``twisted.web``'s idle timeout starts again with every byte, so a request
    sent a byte at a time held a file descriptor for ever. The deadline runs
    from connecting, and again from each answer, until the headers are in.
    """

    header_seconds: float = 10.0
    _header_call: Any = None

    def connectionMade(self) -> None:                   # noqa: N802 - Twisted's name
        super().connectionMade()
        self._arm()

    def allHeadersReceived(self) -> None:               # noqa: N802
        self._disarm()
        super().allHeadersReceived()

    def requestDone(self, request: Any) -> None:        # noqa: N802
        super().requestDone(request)
        if self.transport is not None and not getattr(self.transport, "disconnecting", False):
            self._arm()

    def connectionLost(self, reason: Any) -> None:      # noqa: N802
        self._disarm()
        super().connectionLost(reason)

    def _arm(self) -> None:
        self._disarm()
        self._header_call = self.callLater(self.header_seconds, self._headers_late)

    def _disarm(self) -> None:
        if self._header_call is not None and self._header_call.active():
            self._header_call.cancel()
        self._header_call = None

    def _headers_late(self) -> None:
        self._header_call = None
        if self.transport is not None:
            self.timeoutConnection()


def raise_open_files() -> tuple[int, int]:
    """Raise this process's soft limit on open files to the hard limit: (before, after).

    Every connection is a file descriptor; a distribution's soft default
    (often 1024) would refuse connections, ``/health`` among them, long before
    the room's own limits apply.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            return soft, soft
        return soft, target
    return soft, soft
