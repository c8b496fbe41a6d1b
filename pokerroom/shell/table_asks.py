"""The requests a gateway has asked of each cash table and not had answered, ended at once when the table is taken
over (issue 21).

A request on its way to a table's process as that process is SIGKILLed never gets an answer: NATS had delivered it
to the dead connection, so the bus waits out its request timeout (10 s) -- and the connection's later requests wait
behind it (the gateway answers a connection's requests in order), a player's join asked again among them. When a
process wins the table's lease from its former owner it says so to the room (``tables.taken_over``, before it
opens the table); every gateway then ends what it still waits for of that table as unanswered, which the gateway
tells the client as ``table_moving`` (ask again), as it tells a request nobody answered at all.

An ask that reached the new owner in the instant between its subscribing and this gateway hearing it (before the
table's players are seated again, so a join asked again, not an act) is answered by that owner too, late, and the
answer is dropped: the player asks again and hears ``already_seated``. Nothing of the money depends on the answer.
"""

from __future__ import annotations

from typing import Any

from twisted.internet import defer
from twisted.python.failure import Failure

from pokerroom.bus import Bus, NoAnswer
from pokerroom.bus.subjects import TABLES_TAKEN_OVER


class TableAsks:
    """Each cash table's requests in flight from this gateway, ended when another process takes the table over."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self.waiting: dict[str, set[defer.Deferred]] = {}     # table -> the answers not come yet
        bus.subscribe(TABLES_TAKEN_OVER, self._taken_over)

    def request(self, table: str, subject: str, payload: Any) -> defer.Deferred:
        """``bus.request(subject, payload)`` of ``table``'s process, ended unanswered if the table is taken over
        before its answer comes (an answer in the same call is the bus's own Deferred, as it was)."""
        asked = self.bus.request(subject, payload)
        if asked.called:
            return asked
        out: defer.Deferred = defer.Deferred()
        waiting = self.waiting.setdefault(table, set())
        waiting.add(out)

        def came(result: Any) -> None:
            if out not in waiting:                  # ended at the takeover: this late answer goes nowhere
                return None
            waiting.discard(out)
            if not waiting and self.waiting.get(table) is waiting:
                del self.waiting[table]
            if isinstance(result, Failure):
                out.errback(result)
            else:
                out.callback(result)
            return None

        asked.addBoth(came)
        return out

    def _taken_over(self, subject: str, taken: list) -> None:
        kind, table = taken
        if kind != "cash":
            return
        waiting = self.waiting.pop(table, set())
        ended = list(waiting)
        waiting.clear()                             # their answers, if any come, go nowhere
        for out in ended:
            out.errback(NoAnswer(f"table {table} was taken over by another process before it answered"))
