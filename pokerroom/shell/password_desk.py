"""Password hashing on threads of its own, behind a short queue, taken in turn by network.

Every log-in and registration costs an argon2id hash: tens of milliseconds of
CPU and tens of MiB of memory. On the reactor's shared thread pool a crowd of
attempts queued without bound, and a real player's log-in waited behind all of
them. Here the hashes run ``threads`` at a time on a pool of their own; at most
``threads + queue`` are running or waiting, one network (IPv4 /24, IPv6 /64)
may hold at most ``per_network`` of those places, and the waiting ones are
taken one network at a time, in turn, so a crowd from one network delays
another network's log-in by about one hash. An attempt that finds no place is
refused at once with ``busy``: it costs the room nothing, and the player may
simply try again.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from twisted.internet import defer, threads
from twisted.internet.interfaces import IReactorThreads

from pokerroom.errors import RuleViolation
from pokerroom.shell.own_threads import OwnThreads


class PasswordDesk:
    """Runs ``players.hash_password`` and ``players.password_matches`` for the room, a bounded number at once.

    ``own`` is the desk's own threads (:meth:`own_pool`; the composition starts and
    stops them with the room); without them the desk borrows the reactor's default
    pool, as a room built in a test does.
    """

    def __init__(self, reactor: IReactorThreads | None = None, *, threads: int = 2, queue: int = 16,
                 per_network: int = 4, own: OwnThreads | None = None) -> None:
        if reactor is None:
            from twisted.internet import reactor as default_reactor
            reactor = default_reactor
        self.reactor = reactor
        self.own = own
        self.threads = threads
        self.capacity = threads + queue
        self.per_network = per_network
        self.taken = 0                                  # hashes running or waiting
        self.running = 0
        self.by_network: dict[str, int] = {}           # places each network holds
        self.waiting: dict[str, deque] = {}             # network -> its waiting jobs
        self.served: dict[str, int] = {}                # network -> the turn its last hash started in
        self.turn = 0

    @classmethod
    def own_pool(cls, reactor: IReactorThreads, *, threads: int = 2, queue: int = 16,
                 per_network: int = 4) -> PasswordDesk:
        own = OwnThreads(reactor, "passwords", threads)
        return cls(reactor, threads=threads, queue=queue, per_network=per_network, own=own)

    def run(self, network: str, work: Callable[..., Any], *args: Any) -> defer.Deferred:
        """``work(*args)`` on the desk's threads; ``busy`` at once when there is no place for it."""
        held = self.by_network.get(network, 0)
        if self.taken >= self.capacity or held >= self.per_network:
            raise RuleViolation("busy", "the room is busy checking passwords; try again in a few seconds")
        self.taken += 1
        self.by_network[network] = held + 1
        answer: defer.Deferred = defer.Deferred()
        self.waiting.setdefault(network, deque()).append((work, args, answer))
        self._next()
        return answer

    def _next(self) -> None:
        while self.running < self.threads and self.waiting:
            # the network with the fewest hashes running goes next; among equals, the one served least recently
            network = min(self.waiting, key=lambda n: (self.by_network[n] - len(self.waiting[n]),
                                                       self.served.get(n, -1)))
            jobs = self.waiting[network]
            work, args, answer = jobs.popleft()
            if not jobs:
                del self.waiting[network]
            self.turn += 1
            self.served[network] = self.turn
            self.running += 1
            ran = (self.own.run(work, *args) if self.own is not None
                   else threads.deferToThreadPool(self.reactor, self.reactor.getThreadPool(), work, *args))
            ran.addBoth(self._done, network, answer)

    def _done(self, result: Any, network: str, answer: defer.Deferred) -> None:
        self.running -= 1
        self.taken -= 1
        left = self.by_network[network] - 1
        if left:
            self.by_network[network] = left
        else:
            del self.by_network[network]
            self.served.pop(network, None)
        self._next()
        answer.callback(result)                         # a Failure goes down the errback chain
