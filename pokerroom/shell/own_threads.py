"""Threads of one job's own, named for it, started and stopped with the room as one step of its lifecycle.

A job that must not wait behind another runs on threads of its own: the leases' renewals behind the tables'
writes (:class:`~pokerroom.shell.leases.LeaseThread`), a log-in's hash behind a crowd's
(:class:`~pokerroom.shell.password_desk.PasswordDesk`), the reactor behind a locked money move waiting on a row
(the composition's money threads). The pool's name says whose a thread is (in a thread dump, a profile). A room
built in a test has none of them: each job then runs where that job says (inline, or on the reactor's pool).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twisted.internet import defer, threads
from twisted.internet.interfaces import IReactorThreads
from twisted.python.threadpool import ThreadPool

from pokerroom.shell.lifecycle import Step


class OwnThreads(Step):
    """``threads`` threads for ``job``: started when the room starts, stopped when it stops (where the composition
    adds it to the lifecycle); ``pool`` a test's stand-in for the thread pool."""

    def __init__(self, reactor: IReactorThreads, job: str, threads: int = 1, pool: ThreadPool | None = None) -> None:
        self.reactor = reactor
        self.pool = pool if pool is not None else ThreadPool(minthreads=1, maxthreads=threads,
                                                               name=f"pokerroom-{job}")
        super().__init__(f"{job} threads", self.pool.start, self._stop)
        self.users: list[Step] = []

    def used_at_stop_by(self, *steps: Step) -> None:
        """``steps`` still run jobs here as they stop (a lease let go, a node leaving the roster): the threads stop
        once those stops have landed. The room's services stop together (Twisted's ``MultiService``), not one after
        another: a pool stopped first would never run the job, and the room would never stop."""
        self.users.extend(steps)

    def run(self, function: Callable[..., Any], *args: Any) -> defer.Deferred:
        """``function(*args)`` on these threads; a Deferred of its result, fired on the reactor's thread."""
        return threads.deferToThreadPool(self.reactor, self.pool, function, *args)

    def _stop(self) -> defer.Deferred:
        landing = [_outcome(step.stopping) for step in self.users if step.stopping is not None]
        return defer.gatherResults(landing).addCallback(lambda _: self.pool.stop())


def _outcome(d: defer.Deferred) -> defer.Deferred:
    """A Deferred that fires (with None) when ``d`` does, leaving ``d``'s own result to its callers."""
    out: defer.Deferred = defer.Deferred()

    def landed(result: object) -> object:
        out.callback(None)
        return result

    d.addBoth(landed)
    return out
