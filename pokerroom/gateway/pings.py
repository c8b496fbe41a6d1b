"""Keep-alive pings spread over their interval instead of arriving in waves.

Autobahn pings a connection ``autoPingInterval`` seconds after it opened, then
every interval. Connections that opened together -- a crowd reconnecting after
a restart, or every client of a load test -- are then pinged in the same
second, interval after interval: a burst of writes, pongs and timeout timers
that stalls the tables once every interval. A room whose players sat down over
hours has its pings spread evenly; :func:`spread_first_ping` gives every
connection that spread from the start by moving its first ping to a random
point of the interval (the later ones follow every interval from there).
"""

from __future__ import annotations

import random
from typing import Any


def spread_first_ping(protocol: Any, draw: Any = random.random) -> None:
    """Move an open Autobahn connection's first automatic ping to ``draw()`` of its interval (0 < point <= 1).

    Autobahn internals: ``autoPingPendingCall`` (the scheduled ping), the factory's
    ``_batched_timer`` that schedules it, and ``_sendAutoPing``.
    """
    interval = getattr(protocol, "autoPingInterval", 0)         # none before Autobahn's handshake set them
    pending = getattr(protocol, "autoPingPendingCall", None)
    if not interval or pending is None:
        return
    pending.cancel()
    point = 1.0 - draw()                                   # random.random() is in [0, 1): the point is in (0, 1]
    # Autobahn internals: the factory's timer and the protocol's ping, as Autobahn itself schedules it
    timer, ping = protocol.factory._batched_timer, protocol._sendAutoPing
    protocol.autoPingPendingCall = timer.call_later(interval * point, ping)
