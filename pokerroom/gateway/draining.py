"""Draining: a process on its way out for a deploy takes no new players while its own finish.

A load balancer in front of several processes (docs/operations.md, "Several
processes") sends new connections only to the processes whose ``/health``
answers 200. On SIGTERM the process starts draining: ``/health`` answers 503
``{"status": "draining"}``, so the balancer's check takes it out of rotation
within a few check intervals, and a new WebSocket handshake is refused with 503
(the balancer retries it on another process); every connection it has keeps
being served. It stops once its last connection has gone, or at the drain
deadline, whichever comes first. A second SIGTERM, or SIGINT (Ctrl-C), stops it
at once. What the process runs of its own that would hold it open -- a demo
room's bots, connected to its own port -- is told to leave when the drain
begins (:meth:`Drain.letting_go`), so a demo room stops at once, not after the
drain's deadline.

SIGTERM rather than an admin route: it is what a service manager and a deploy
script already send to stop a process, only the process's owner can send it,
and it needs no credential, port or client; HAProxy's own runtime API
(``set server … state drain``) is there for an operator who wants to drain a
process without stopping it.
"""

from __future__ import annotations

from collections.abc import Callable

from twisted.internet.interfaces import IDelayedCall, IReactorTime

DRAIN_SECONDS = 600.0       # at most this long from SIGTERM to the stop, with players still on
LOOK_EVERY = 1.0            # how often a draining process counts its connections


class Drain:
    """Whether this process drains, and its stop once its connections are gone or its time is up."""

    def __init__(self, reactor: IReactorTime, connections: Callable[[], int], stop: Callable[[], None], *,
                 seconds: float = DRAIN_SECONDS, every: float = LOOK_EVERY) -> None:
        if seconds < 0 or every <= 0:
            raise ValueError("the drain's seconds must be 0 or more, and its look interval more than 0")
        self.reactor = reactor
        self.connections = connections          # the connections still open (the gateway's sessions)
        self.stop = stop                        # the process's stop (the reactor's)
        self.seconds = seconds
        self.every = every
        self.began: float | None = None
        self.stopped = False
        self.leaving: list[Callable[[], None]] = []      # this process's own clients: told to go when it drains
        self._look: IDelayedCall | None = None

    @property
    def draining(self) -> bool:
        return self.began is not None

    def begin(self) -> None:
        """SIGTERM: drain (or, if draining already, stop now)."""
        if self.draining:
            self._stop()
            return
        self.began = self.reactor.seconds()
        for leave in self.leaving:
            leave()
        self._count()

    def letting_go(self, leave: Callable[[], None]) -> None:
        """``leave()`` when the drain begins (at once if it has): the process's own clients, its demo bots, close
        their connections, which would otherwise keep it serving until the deadline."""
        self.leaving.append(leave)
        if self.draining:
            leave()

    def left(self) -> float | None:
        """Seconds until the drain's deadline stops the process; None while not draining."""
        if self.began is None:
            return None
        return max(0.0, self.began + self.seconds - self.reactor.seconds())

    def cancel(self) -> None:
        """The process stops another way: no more counting."""
        if self._look is not None and self._look.active():
            self._look.cancel()
        self._look = None

    def _count(self) -> None:
        self._look = None
        if self.connections() == 0 or self.left() == 0:
            self._stop()
        else:
            self._look = self.reactor.callLater(min(self.every, self.left() or self.every), self._count)

    def _stop(self) -> None:
        self.cancel()
        if not self.stopped:
            self.stopped = True
            self.stop()
