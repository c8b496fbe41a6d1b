"""The strict bus that also keeps what is published: a service built alone on it is tested by what it answers and
what it sends out.

Requests, answers and every plain payload travel as a broker would carry them
(:class:`~pokerroom.bus.strict.StrictBus`: packed, a later turn). A frame
(``Delivery``) or a table's ``FullBatch`` is not a bus record yet (issue #35's
frames and recorder steps): it is kept in :attr:`RecordingBus.published` as
it came and delivered to nobody, so these tests see it without the strict bus
refusing it.
"""

from __future__ import annotations

from typing import Any

from twisted.internet import defer
from twisted.internet.task import Clock

from pokerroom.bus.records import NotPlainData, packb
from pokerroom.bus.strict import StrictBus


class RecordingBus(StrictBus):
    def __init__(self, clock: Clock) -> None:
        super().__init__(clock)
        self.clock = clock
        self.published: list[tuple[str, Any]] = []

    def publish(self, subject: str, payload: Any) -> None:
        self.published.append((subject, payload))
        try:
            packb(payload)
        except NotPlainData:
            return                          # a frame or a full batch: kept above, not carried
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
