"""The roster: how many nodes (processes) the room has now, for a read every node answers (``bus.gather``).

A gather waits for ``expected`` answers, or for its timeout: the asker must
know how many nodes there are, or every read of a room of three waits the
timeout for answers that will never come (too many expected) or returns before
the last node spoke (too few). Each node holds a lease on itself,
``node:<name>`` (:func:`~pokerroom.store.lease_records.node_resource`), in the
leases' table, renewed on the lease keeper's beat (``ttl / 3``); on the same
beat the roster reads how many such leases are live. A node that dies stops
renewing and leaves the count within ``ttl`` (6 s), the gathers meanwhile
ending at their timeout with the living nodes' answers (a decision's refused,
``node_unanswered``: :mod:`pokerroom.shell.every_node`). A clean stop deletes
the node's lease at once; between beats :meth:`Roster.recounted` reads the
count afresh (a decision's gather, and after any gather that came back
short). Node leases are never taken over (the keeper's candidates are
tables only).

A node that did not answer a gather in time is *suspect* (:meth:`Roster.silent`):
a plain read awaits only the nodes not suspected (:meth:`Roster.awaited`), so a
dead node costs one gather timeout, not one a read, while its lease runs out.
It is counted again when any answer of its comes (:meth:`Roster.answered`, a
late one too), and forgotten with its lease. A decision still waits for every
live node (:meth:`Roster.count`), suspect or not.

The count is of the nodes that *answer* gathered reads, the table sides: a
gateway-only process (``serve --role gateway``) reads the roster but holds no
lease of its own (``counted=False``). One process alone (the default room) has
no roster to keep: :class:`OneNode` counts 1.
"""

from __future__ import annotations

from typing import Protocol

from twisted.internet import defer
from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger
from twisted.python.failure import Failure

from pokerroom.shell.leases import TTL, StoreQueue
from pokerroom.store.lease_records import LeaseRecords, node_resource


class Nodes(Protocol):
    """What an asker uses of the roster: how many answers a gather waits for, and whose."""

    node: str

    def count(self) -> int: ...

    def live(self) -> set[str]: ...

    def awaited(self) -> set[str]: ...

    def answered(self, names: set[str]) -> None: ...

    def silent(self, names: set[str]) -> None: ...

    def counted(self) -> defer.Deferred: ...

    def recounted(self) -> defer.Deferred: ...


class OneNode:
    """The room in one process: one node answers every gather."""

    node = ""

    def count(self) -> int:
        return 1

    def live(self) -> set[str]:
        return {self.node}

    def awaited(self) -> set[str]:
        return {self.node}

    def answered(self, names: set[str]) -> None:
        pass

    def silent(self, names: set[str]) -> None:
        pass

    def counted(self) -> defer.Deferred:
        return defer.succeed(1)

    def recounted(self) -> defer.Deferred:
        return defer.succeed(1)

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass


class Roster:
    """This node's own lease kept live, and the live nodes counted, every ``ttl / 3``."""

    log = Logger()

    def __init__(self, reactor: IReactorTime, leases: LeaseRecords, writer: StoreQueue, node: str,
                 ttl: float = TTL, *, counted: bool = True) -> None:
        self.reactor = reactor
        self.leases = leases                # store.leases
        self.writer = writer                # the leases' own thread (LeaseThread): store calls off the reactor
        self.node = node
        self.resource = node_resource(node)
        self.ttl = ttl
        self.counted_in = counted           # this node answers gathers (a table side): it holds a lease of its own
        self.names: list[str] = [node] if counted else []   # the live nodes as last read
        self.suspects: set[str] = set()     # live nodes silent at their last gather: plain reads do not await them
        self.running = False
        self._beat: IDelayedCall | None = None
        self._busy = False
        self._counted: defer.Deferred | None = None        # the first beat's read, while it is on its way
        self._recounting: defer.Deferred | None = None     # a read asked between beats, while on its way

    def count(self) -> int:
        """The live nodes as of the last beat, this one among them if it answers (a gateway-only process does
        not: it only asks)."""
        return len(self.live())

    def live(self) -> set[str]:
        """The names of the live nodes as of the last read (this one among them if it answers)."""
        return set(self.names) | ({self.node} if self.counted_in else set())

    def awaited(self) -> set[str]:
        """The live nodes a plain read waits for: those not suspected of silence."""
        return self.live() - self.suspects

    def silent(self, names: set[str]) -> None:
        """``names`` did not answer a gather in time: suspects until they answer or their lease is gone."""
        new = (names & self.live()) - self.suspects
        if new:
            self.log.warn("nodes silent at a read, not awaited by plain reads until they answer: {names}",
                          names=", ".join(sorted(new)))
            self.suspects |= new

    def answered(self, names: set[str]) -> None:
        """``names`` answered a gather: awaited again."""
        back = self.suspects & names
        if back:
            self.log.info("nodes answering again: {names}", names=", ".join(sorted(back)))
            self.suspects -= back

    def start(self) -> defer.Deferred:
        """The :class:`~pokerroom.shell.lifecycle.Step` start: this node's lease claimed and the roster read at
        once, then again every beat."""
        self.running = True
        self._counted = self._on_beat()
        return self.counted()

    def counted(self) -> defer.Deferred:
        """Fires with the count once the first read has landed (at once after it): a gather made at the room's
        start waits for it rather than expect this node alone."""
        first = self._counted
        if first is None or first.called:
            return defer.succeed(self.count())
        out: defer.Deferred = defer.Deferred()
        first.addBoth(lambda result: (out.callback(self.count()), result)[1])
        return out

    def recounted(self) -> defer.Deferred:
        """Fires with the count read afresh from the leases, now: a decision's gather waits for a node started
        since the last beat, and a gather that came back short has a node that stopped counted out at once."""
        if self._recounting is None or self._recounting.called:     # one read at a time: asks meanwhile share it
            self._recounting = self.writer.write(self.leases.nodes, self.reactor.seconds(), quiet=False)
            self._recounting.addCallback(self._read)
        out: defer.Deferred = defer.Deferred()
        self._recounting.addBoth(lambda result: (out.callback(self.count()) if not isinstance(result, Failure)
                                                 else out.errback(result), None)[1])
        return out

    def stop(self) -> defer.Deferred:
        """A clean stop: this node leaves the roster at once (its lease deleted), not after the ttl."""
        self.running = False
        if self._beat is not None and self._beat.active():
            self._beat.cancel()
        self._beat = None
        if not self.counted_in:
            return defer.succeed(None)
        d = self.writer.write(self.leases.retire, self.node, self.resource, quiet=False)
        d.addErrback(lambda failure: self.log.failure("leaving the roster failed: the lease runs out instead",
                                                      failure))
        return d

    def _on_beat(self) -> defer.Deferred:
        self._beat = None
        if not self.running:
            return defer.succeed(None)
        self._beat = self.reactor.callLater(self.ttl / 3, self._on_beat)
        if self._busy:                                  # the last beat's calls have not landed: no pile-up
            return defer.succeed(None)
        self._busy = True
        now = self.reactor.seconds()
        if self.counted_in:
            d = self.writer.write(self.leases.claim, self.resource, self.node, self.ttl, now, quiet=False)
            d.addCallback(lambda _: self.writer.write(self.leases.nodes, now, quiet=False))
        else:
            d = self.writer.write(self.leases.nodes, now, quiet=False)
        d.addCallback(self._read)
        d.addErrback(lambda failure: self.log.failure("keeping the roster failed: the last count stands", failure))
        d.addBoth(self._done)
        return d

    def _read(self, names: list[str]) -> None:
        if names != self.names:
            self.log.info("the room's nodes: {names}", names=", ".join(names))
        self.names = names
        self.suspects &= set(names)         # a node whose lease is gone is no longer counted at all

    def _done(self, _: object) -> None:
        self._busy = False
