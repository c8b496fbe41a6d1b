"""Waiting on the wall clock, for what no ``Clock`` can drive: another process (a server, the operator's command)
or a bot's thread writing what the test then reads.

In-process tests drive time with :class:`twisted.internet.task.Clock` instead and never wait.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(condition: Callable[[], T], timeout: float, every: float = 0.05) -> T:
    """``condition()``'s first truthy value, or its last (falsy) one once ``timeout`` seconds have passed.

    It returns rather than raises so that a test asserts with its own sentence (``assert wait_until(...), why``),
    or goes on where the wait only gives another process time to write what the test reads next.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(every)
