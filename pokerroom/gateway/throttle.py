"""Token buckets: how often a connection may send, and how often an address may make the room hash a password.

Both limits protect the one reactor every player shares: a flood of messages,
or of log-in attempts (each an argon2id hash, tens of milliseconds of CPU),
from one place must not slow everyone else's game.
"""

from __future__ import annotations

import ipaddress


class TokenBucket:
    """``rate`` a second on average, ``burst`` at once."""

    __slots__ = ("rate", "burst", "tokens", "at")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst, self.tokens, self.at = rate, burst, burst, now

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def full(self, now: float) -> bool:
        return self.tokens + (now - self.at) * self.rate >= self.burst

    def give_back(self) -> None:
        self.tokens = min(self.burst, self.tokens + 1)


class BucketsByKey:
    """One bucket per key (an IP address), forgetting keys whose bucket has filled up again."""

    def __init__(self, rate: float, burst: float, most: int = 100_000) -> None:
        self.rate, self.burst, self.most = rate, burst, most
        self.buckets: dict[str, TokenBucket] = {}

    def take(self, key: str, now: float) -> bool:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self.most:
                self.buckets = {k: b for k, b in self.buckets.items() if not b.full(now)}
            bucket = self.buckets[key] = TokenBucket(self.rate, self.burst, now)
        return bucket.take(now)

    def give_back(self, key: str) -> None:
        """An attempt that did not happen after all (the room was busy) is not counted."""
        bucket = self.buckets.get(key)
        if bucket is not None:
            bucket.give_back()


def network_of(ip: str) -> str:
    """The network an address belongs to, as limits see it: IPv4 /24, IPv6 /64 (an IPv4-mapped IPv6 is IPv4).

    One machine or one home connection usually has a whole /64 (or a few
    addresses of a /24): a limit per exact address would be a limit per
    attacker's address choice.
    """
    try:
        address = ipaddress.ip_address(ip)
    except ValueError:
        return ip
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    prefix = 24 if address.version == 4 else 64
    return str(ipaddress.ip_network(f"{address}/{prefix}", strict=False))


class SlowLane:
    """``rate`` attempts a second per key, ``burst`` at once; beyond that an attempt waits its turn, up to ``wait``
    seconds, and only one that would wait longer is refused (a generic cell rate: one number per key).

    For a limit that others can reach: an account's attempts from every network together. Refusing there
    would let anyone lock a player out by guessing from many networks; making each attempt wait its turn
    bounds the guessing just the same, and a right password still gets in.
    """

    def __init__(self, rate: float, burst: float, wait: float, most: int = 100_000) -> None:
        self.interval, self.burst, self.wait, self.most = 1 / rate, burst, wait, most
        self.due: dict[object, float] = {}          # key -> when its queue of attempts has all had its turn

    def delay(self, key: object, now: float) -> float | None:
        """Seconds this attempt must wait (0: none), or None when it would wait longer than ``wait`` (not taken)."""
        due = max(self.due.get(key, now), now) + self.interval
        delay = max(0.0, due - now - self.burst * self.interval)
        if delay > self.wait:
            return None
        if key not in self.due and len(self.due) >= self.most:
            self.due = {k: d for k, d in self.due.items() if d > now}
        self.due[key] = due
        return delay

    def give_back(self, key: object) -> None:
        """An attempt that did not happen after all (the room was busy) is not counted."""
        if key in self.due:
            self.due[key] -= self.interval
