"""A request to a table's process, answered where the gateway can use it: a dict when the answer came in the same
call (the in-process bus answers so), else a Deferred (the gateway makes the connection's later requests wait behind
it). Every request service that asks a table, a hall or a floor goes through :func:`answered`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twisted.internet import defer
from twisted.python.failure import Failure

from pokerroom.bus import NoResponder
from pokerroom.errors import Unanswered


def answered(asked: defer.Deferred, table: str, then: Callable[..., Any], *args: Any) -> Any:
    """``then(answer, *args)`` for a request to ``table``: at once when the answer came in the same call (the
    in-process bus answers so; the gateway sends a dict at once, as when the table was called directly), else a
    Deferred of it (the gateway makes the connection's later requests wait behind it). A refusal is raised, or
    fails the Deferred; a table nobody answers for is ``no_such_table``."""
    if not asked.called or asked.paused:
        return asked.addErrback(_no_table, table).addCallback(then, *args)
    result = asked.result
    if isinstance(result, Failure):
        asked.addErrback(lambda _: None)            # raised here instead
        _no_table(result, table).raiseException()
    return then(result, *args)


def _no_table(failure: Failure, table: str) -> Failure:
    """A request to a table nobody answers for: there is no such table (any more), or it is moving (the gateway)."""
    if failure.check(NoResponder):
        raise Unanswered("no_such_table", f"there is no table {table}", table)
    return failure
