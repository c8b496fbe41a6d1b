"""Threads run inline, for a composed room in a test: a thread pool whose jobs run on the test's thread (at once, or
held while it is ``slow``, as a busy writer's), and a Clock that takes their results back at once."""

from __future__ import annotations

from twisted.internet.task import Clock


class InlineClock(Clock):
    """A Clock that takes a thread's result back at once (``callFromThread``), for a pool that runs inline."""

    def callFromThread(self, f, *args, **kwargs):                    # noqa: N802 - Twisted's name
        f(*args, **kwargs)


class InlinePool:
    """A thread pool that runs each job at once -- or, while ``slow``, holds it until :meth:`catch_up` -- and says
    whether it is started (a job given to it stopped is a test's failure) and how many jobs it ran."""

    def __init__(self) -> None:
        self.started = False
        self.slow = False
        self.ran = 0
        self.waiting: list = []

    def start(self) -> None:
        self.started = True

    def stop(self) -> None:
        self.started = False

    def callInThreadWithCallback(self, on_result, work, *args, **kwargs):   # noqa: N802 - Twisted's name
        assert self.started, "a job was given to a pool that is not started"
        self.waiting.append((on_result, work, args, kwargs))
        if not self.slow:
            self.catch_up()

    def catch_up(self) -> None:
        """Every job held so far run, in order."""
        while self.waiting:
            on_result, work, args, kwargs = self.waiting.pop(0)
            self.ran += 1
            on_result(True, work(*args, **kwargs))
