"""Messages from nats-py straight to the bus, without nats-py's per-message ``Msg``, queue and task.

nats-py hands each message to its subscription through an ``asyncio.Queue`` that a task of that subscription
drains into an ``async`` callback: per message a ``Msg`` object, a header parse, a queue put, a task's wake-up and a
coroutine -- on a table's traffic (a command, its answer, a frame per seat) more of the bus thread's time than the
socket. The bus wants three byte strings, in the loop's thread, in the order the server sent them.

:class:`Direct` wraps the client's ``_process_msg`` (nats-py internals, 2.x: its parser awaits it once for each
MSG, in order) and calls a registered subscription's function with ``(subject, reply, data)`` in the parser's own
call. Anything else goes nats-py's way: a message with headers (a request's "no responders" status) and a
subscription not registered here. The bus keeps its ``cb`` on every subscription, so a nats-py without the hook
still delivers everything, the slow way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

DirectCall = Callable[[bytes, bytes, bytes], None]     # (subject, reply, data), on the loop's thread


class Direct:
    """The client's MSG handler, short-circuited for the subscriptions :meth:`add` names."""

    def __init__(self, client: Any) -> None:
        self.calls: dict[int, DirectCall] = {}
        self.original = getattr(client, "_process_msg", None)
        if self.original is not None:
            client._process_msg = self._process_msg

    def add(self, subscription: Any, call: DirectCall) -> None:
        """``call`` gets ``subscription``'s messages from now on (call it before the next await: the parser may
        deliver one as soon as the loop runs)."""
        if self.original is not None:       # nats-py internals: a subscription's sid, as MSG names it
            self.calls[subscription._id] = call

    def remove(self, subscription: Any) -> None:
        self.calls.pop(subscription._id, None)      # nats-py internals: its sid

    async def _process_msg(self, sid: int, subject: bytes, reply: bytes, data: bytes, headers: Any) -> None:
        call = self.calls.get(sid)
        if call is None or headers:
            await self.original(sid, subject, reply, data, headers)
        else:
            call(subject, reply, data)
