"""Durable before visible: a table's frames that show an outcome wait for the commit that stores it.

An outcome -- a hand's end and its pots, a cash-out, a casino round's
settlement, a bust, a tournament's finish, its prizes, a deal -- is shown to
nobody before the transaction storing it has committed, so a crash can only
void what no client has been shown as settled. The writer keeps gathering
(group commit): each table that has an outcome in flight hands its frames to
its :class:`OutcomeHold` instead of the bus, and they go out, in their order,
when the batch holding the outcome's write returns. Every frame of the same
table made later waits behind them (a client never sees the next hand before
the last one's end); a table with nothing in flight publishes straight
through, so actions, cards and decisions cost what they did.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from twisted.internet import defer

from pokerroom.bus import Bus


class _Held:
    __slots__ = ("frames", "landed", "mark")

    def __init__(self, mark: Any) -> None:
        self.mark = mark                                    # what the caller knows the held part by (a seq)
        self.frames: list[tuple[str, Any]] = []
        self.landed = False


class OutcomeHold:
    """One table's (or one tournament's) way to the bus: straight through, or behind a pending commit."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self._held: deque[_Held] = deque()

    def publish(self, subject: str, payload: Any) -> None:
        """As :meth:`Bus.publish <pokerroom.bus.Bus.publish>`, but behind any outcome still waiting for its commit."""
        if self._held:
            self._held[-1].frames.append((subject, payload))
        else:
            self.bus.publish(subject, payload)

    def way(self) -> Bus | OutcomeHold:
        """Where a batch of frames goes now: the bus itself while nothing is held (a table's frames of one batch,
        one call each, without passing here), else this hold."""
        return self if self._held else self.bus

    def until(self, landed: defer.Deferred, mark: Any = None) -> None:
        """Everything published from now on waits until ``landed`` fires (the outcome's write committed), and
        until everything held before it went out. ``mark`` names where the held part starts (:meth:`first_held`)."""
        held = _Held(mark)
        self._held.append(held)
        landed.addBoth(self._landed, held)

    def after(self, answer: Any) -> Any:
        """``answer`` itself when nothing is held; else a Deferred of it that fires once everything held now has
        gone out -- the answer to a request comes after the frames the request caused, as it always has."""
        if not self._held:
            return answer
        out: defer.Deferred = defer.Deferred()
        self._held[-1].frames.append(("", (out, answer)))
        return out

    def first_held(self) -> Any:
        """The mark of the oldest part still held, or None when nothing is."""
        return self._held[0].mark if self._held else None

    def _landed(self, result: Any, held: _Held) -> Any:
        held.landed = True              # a failed write lets the frames go too: the table has moved on (logged)
        while self._held and self._held[0].landed:
            for subject, payload in self._held.popleft().frames:
                if subject:
                    self.bus.publish(subject, payload)
                else:                                       # an answer waiting for these frames
                    payload[0].callback(payload[1])
        return result
