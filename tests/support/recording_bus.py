"""The strict bus that also keeps what is published: a service built alone on it is tested by what it answers and
what it sends out.

Requests, answers and every payload travel as a broker would carry them
(:class:`~pokerroom.bus.strict.StrictBus`: packed, a later turn); each
payload is also kept in :attr:`RecordingBus.published` as it was published.
"""

from __future__ import annotations

from typing import Any

from twisted.internet import defer
from twisted.internet.task import Clock

from pokerroom.bus.strict import StrictBus


class RecordingBus(StrictBus):
    def __init__(self, clock: Clock) -> None:
        super().__init__(clock)
        self.clock = clock
        self.published: list[tuple[str, Any]] = []

    def publish(self, subject: str, payload: Any) -> None:
        self.published.append((subject, payload))
        super().publish(subject, payload)

    def on(self, subject: str) -> list[Any]:
        """What was published on ``subject``, oldest first."""
        return [payload for s, payload in self.published if s == subject]

    def answer(self, d: defer.Deferred) -> Any:
        """A request's answer once the turns it takes have passed (a refusal raised as itself)."""
        for _ in range(10):
            if d.called:
                break
            self.clock.advance(0)
        out: list[Any] = []
        d.addBoth(out.append)
        assert out, "no answer came"
        if hasattr(out[0], "raiseException"):
            out[0].raiseException()
        return out[0]
