"""Who may hold the room's connection places: limits per address and per network, and a bounded share for
connections that have not logged in.

A limit per exact address is a limit per attacker's choice of address: one
machine usually has a whole IPv4 /24's worth of neighbours or an IPv6 /64 (and
a customer often a /56). So a connection counts against its address, its
network (IPv4 /24, IPv6 /64) and, over IPv6, its /56; each has its own cap, and
each cap is at least the one inside it. Connections that have not logged in
(anonymous) may hold only a share of all places; when that share or the room is
full, a newcomer takes the place of the oldest anonymous connection of the
network that holds the most of them -- unless the newcomer's own network holds
as many -- so a crowd from many addresses cannot keep out a player or a new
client from anywhere else, and logged-in players always find a place. Pure: no
socket, no clock; the edge tells it who connected, logged in, logged out and left.
"""

from __future__ import annotations

import ipaddress
import math
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PlaceRules:
    total: int = 10_000                 # the room's places
    per_address: int = 64               # one IPv4 or IPv6 address
    per_network: int = 256              # one IPv4 /24 or IPv6 /64 (never fewer than per_address)
    per_ipv6_56: int = 1_024            # one IPv6 /56 (never fewer than per_network)
    anonymous_share: float = 0.8        # of all places, what connections not logged in may hold

    @property
    def anonymous(self) -> int:
        return max(1, math.ceil(self.total * self.anonymous_share))     # a room of 2 may have 2 clients logging in


def keys_of(ip: str) -> tuple[str, ...]:
    """What a connection from ``ip`` counts against: its address, its /24 or /64, and over IPv6 its /56."""
    try:
        address = ipaddress.ip_address(ip)
    except ValueError:
        return (ip,)
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address.version == 4:
        return (str(address), str(ipaddress.ip_network(f"{address}/24", strict=False)))
    return (str(address), str(ipaddress.ip_network(f"{address}/64", strict=False)),
            str(ipaddress.ip_network(f"{address}/56", strict=False)))


class Refused(Exception):
    """No place: ``status`` (429 for the caller's own address or network, 503 for the room) and a sentence."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status, self.reason = status, reason


class Places:
    def __init__(self, rules: PlaceRules) -> None:
        self.rules = rules
        caps = [rules.per_address, max(rules.per_network, rules.per_address)]
        caps.append(max(rules.per_ipv6_56, caps[1]))
        self.caps = tuple(caps)                             # by the depth of a key: address, network, /56
        self.held: dict[str, int] = {}                      # key -> places held
        self.keys: dict[Any, tuple[str, ...]] = {}          # connection -> its keys
        self.anonymous: dict[str, dict[Any, None]] = {}     # widest key -> its anonymous connections, oldest first
        self.anonymous_count = 0
        self.sizes: dict[int, dict[str, None]] = {}         # n -> the networks holding n anonymous connections
        self.top = 0                                        # the most any network holds: the busiest is found at once

    def __len__(self) -> int:
        return len(self.keys)

    def admit(self, connection: Any, ip: str) -> list[Any]:
        """Give ``connection`` a place, anonymous; the connections it takes the place of (close them), or
        :class:`Refused`."""
        keys = keys_of(ip)
        for depth, key in enumerate(keys):
            if self.held.get(key, 0) >= self.caps[depth]:
                where = "address" if depth == 0 else "network"
                raise Refused(429, f"too many connections from your {where}")
        evicted = []
        if len(self.keys) >= self.rules.total or self.anonymous_count >= self.rules.anonymous:
            if self.top <= len(self.anonymous.get(keys[-1], ())):
                raise Refused(503, "the room is full; try again soon")
            group = next(iter(self.sizes[self.top]))
            evicted.append(next(iter(self.anonymous[group])))
            self.release(evicted[0])
        self.keys[connection] = keys
        for key in keys:
            self.held[key] = self.held.get(key, 0) + 1
        self._anonymous(connection)
        return evicted

    def logged_in(self, connection: Any) -> None:
        """A player on it now: it no longer counts among the anonymous, and is never taken for a newcomer."""
        keys = self.keys.get(connection)
        group = self.anonymous.get(keys[-1]) if keys else None
        if group is not None and connection in group:
            self._resize(keys[-1], len(group), len(group) - 1)
            del group[connection]
            self.anonymous_count -= 1
            if not group:
                del self.anonymous[keys[-1]]

    def logged_out(self, connection: Any) -> None:
        if connection in self.keys:
            self._anonymous(connection)

    def release(self, connection: Any) -> None:
        """The connection left (or was taken for a newcomer): its place is free now."""
        self.logged_in(connection)
        keys = self.keys.pop(connection, ())
        for key in keys:
            left = self.held[key] - 1
            if left:
                self.held[key] = left
            else:
                del self.held[key]

    def _anonymous(self, connection: Any) -> None:
        name = self.keys[connection][-1]
        group = self.anonymous.setdefault(name, {})
        if connection not in group:
            self._resize(name, len(group), len(group) + 1)
            group[connection] = None
            self.anonymous_count += 1

    def _resize(self, name: str, was: int, now: int) -> None:
        if was:
            networks = self.sizes[was]
            del networks[name]
            if not networks:
                del self.sizes[was]
        if now:
            self.sizes.setdefault(now, {})[name] = None
        self.top = max(self.top, now)
        while self.top and self.top not in self.sizes:
            self.top -= 1
