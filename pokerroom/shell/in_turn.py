"""A table's or an event's commands in the order they came, while one's money is in flight.

A funded command (a casino bet, a tournament entry) on a room with a money
thread answers a Deferred: its locked move is on that thread, and the command
runs on the reactor once the money is taken. Another command of the same table
or event arriving meanwhile must not overtake it (a decision before the stake
it follows, a second entry before the first), so it waits its turn; with
nothing in flight, or with a wallet that answers at once (one process), a
command runs at once, exactly as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twisted.internet import defer


class InTurn:
    """Each key's (a table's, an event's) calls one after another: one waits for a Deferred before it."""

    def __init__(self) -> None:
        self._last: dict[str, defer.Deferred] = {}   # key -> fired once its last call so far has its result

    def run(self, key: str, call: Callable[[], Any]) -> Any:
        """``call()`` now if nothing of ``key`` is in flight (its result, or its refusal raised), else once the
        one before it has its result (a Deferred of this one's)."""
        before = self._last.get(key)
        if before is None:
            answer = call()
            if not isinstance(answer, defer.Deferred):
                return answer
        else:
            answer = defer.Deferred()
            before.addCallback(lambda _: defer.maybeDeferred(call).chainDeferred(answer))
        done = defer.Deferred()
        self._last[key] = done
        out: defer.Deferred = defer.Deferred()

        def finished(result: Any) -> None:
            if self._last.get(key) is done:
                del self._last[key]
            out.callback(result)                        # this call's answer goes out first,
            done.callback(None)                         # then the next call of ``key``, if any, runs

        answer.addBoth(finished)
        return out

    def busy(self, key: str) -> bool:
        return key in self._last


def then(result: Any, after: Callable[[Any], Any]) -> Any:
    """``after(result)``, at once, or once a Deferred ``result`` has it (a funded command off the reactor)."""
    if isinstance(result, defer.Deferred):
        return result.addCallback(after)
    return after(result)
