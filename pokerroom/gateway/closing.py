"""Closed connections that reference counting alone can free.

Autobahn resolves a protocol's ``is_closed`` future with the protocol itself,
a reference cycle: without help every closed connection would stay in memory
until a full garbage collection, and the room freezes long-lived objects out of
those (``pokerroom/shell/collector.py``), so it would stay until a sweep.
"""

from __future__ import annotations

from twisted.internet.protocol import connectionDone
from twisted.python.failure import Failure


class FreedOnClose:
    """Mixin for Autobahn protocols: drop the futures that point back at the protocol once it is closed."""

    def connectionLost(self, reason: Failure = connectionDone) -> None:   # noqa: N802 - Twisted's name
        super().connectionLost(reason)          # type: ignore[misc]  - Autobahn's, next in the MRO
        self.is_closed = self.is_open = None
