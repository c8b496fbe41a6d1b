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
