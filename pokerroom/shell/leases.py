"""The lease keeper: the tables this process (node) owns, kept owned, and the tables of dead processes taken over.

Theory of operation
-------------------
Each table is owned by one process at a time through its lease in the database
(:mod:`pokerroom.store.lease_records`). One :class:`LeaseKeeper` per process:

* :meth:`LeaseKeeper.hold` claims a table's lease (the host opening a table);
* every ``ttl / 3`` it renews every lease it holds in one statement, and a
  lease the renewal finds gone (run out, and taken by another node) is handed
  to ``lost``: the table must stop serving at once;
* it gives a lease up on its own (``lost`` again) ``skew`` seconds before the
  lease runs out on its clock if no renewal has landed by then -- the database
  unreachable, the writer stuck -- so it stops serving before any other node can
  take the table, even with the machines' clocks that far apart;
* on the same beat it looks for leases that ran out (a process died or hung) or
  were released (of a kind this process serves: ``wants``), claims each, and hands those it won to ``takeover`` with the
  new epoch -- and, as each look also reads when the next of the other nodes' leases runs out, it looks again at
  that moment if it comes before the next beat, so a dead process's tables are claimed as its leases run out, not
  up to a beat later; which fences out anything the former owner still does: every write
  of a table carries the epoch it was asked at (:meth:`LeaseKeeper.fence`, through
  the recorder), and one refused (:meth:`LeaseKeeper.refused`) stops the table
  here as a lost lease does; a lease lost is remembered with its epoch, so a
  write still asked of the lost table (the rest of the very call whose write
  was refused) is fenced by it and refused too, not written unfenced;
* :meth:`LeaseKeeper.release_all`, at a clean stop (a deploy), lets every lease
  go at once, so another node takes the tables on its next beat instead of
  after the ttl.

Timings: with the default ttl of 6 s a lease is renewed every 2 s, and a dead
process's last renewal runs out 6 s later (4 to 6 s after its death); the other
nodes look again as it runs out, so its tables are claimed within moments of
that, leaving 4 s or more of the issue's 10 s to restore them (bench/cluster.py
prints each phase of a takeover). The ttl, the beat and the skew are the
keeper's arguments, not the room's configuration.

The store calls go through a queue with the recorder's shape
(:class:`StoreQueue`): in a server, :class:`LeaseThread`, a thread of the
leases' own -- off the reactor thread, and never behind the tables' writes,
which under load are seconds long; in a test's room, the recorder inline. A
queued call carries the time it was asked at, so a late renewal is shorter,
never longer, than its holder believes (and the fence above covers a queue
stuck for longer than the lease).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from twisted.internet import defer
from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger
from twisted.python.failure import Failure

from pokerroom.shell.own_threads import OwnThreads
from pokerroom.store.lease_records import Fence, LeaseLost, LeaseRecords

TTL = 6.0                           # seconds a lease lives unrenewed: a dead process's tables move within 10 s
SKEW = 1.0                          # seconds before its lease runs out that a node unable to renew stops serving
LOOK_AFTER = 0.01                   # seconds after another node's lease's end that the keeper looks for it


class StoreQueue(Protocol):
    """What the keeper uses of the recorder: a store call run off the reactor thread, in the writer's order."""

    def write(self, function: Callable[..., Any], *args: Any, quiet: bool = True) -> defer.Deferred: ...


@dataclass(frozen=True, slots=True)
class _Held:
    epoch: int
    serve_until: float              # the lease's end by this node's clock, less the skew margin


class LeaseKeeper:
    log = Logger()

    def __init__(self, reactor: IReactorTime, leases: LeaseRecords, writer: StoreQueue, node: str,
                 lost: Callable[[str], None], takeover: Callable[[str, int], None],
                 ttl: float = TTL, skew: float = SKEW, wants: Callable[[str], bool] | None = None) -> None:
        if not 0 <= skew < ttl / 3 * 2:
            raise ValueError("the skew margin must leave time for a renewal to land")
        self.reactor = reactor
        self.leases = leases                # store.leases
        self.writer = writer                # the recorder: store calls off the reactor thread
        self.node = node
        self.lost = lost                    # a table this node no longer owns: stop serving it now
        self.takeover = takeover            # a table this node just took over, with its new epoch
        self.wants = wants                  # which leases that ran out this node takes over (None: every one)
        self.ttl = ttl
        self.skew = skew
        self.held: dict[str, _Held] = {}
        self.lost_at: dict[str, int] = {}   # the epoch of each lease lost here: its late writes stay fenced by it
        self._claiming: set[str] = set()    # claims on their way: the watch does not claim them a second time
        self.running = False
        self._beat: IDelayedCall | None = None
        self._fence: IDelayedCall | None = None
        self._look: IDelayedCall | None = None     # the next look, at another node's lease's end before the beat
        self._renewing = False
        self._watching = False

    @property
    def every(self) -> float:
        """Seconds between two renewals (and two looks for leases that ran out)."""
        return self.ttl / 3

    def epoch(self, resource: str) -> int | None:
        """The epoch this node holds ``resource`` at, or None if it does not hold it."""
        held = self.held.get(resource)
        return None if held is None else held.epoch

    def fence(self, resource: str) -> Fence | None:
        """What a write of ``resource`` asked now is fenced by: this node and the epoch it holds it at, or the one
        it held when it lost it -- a write the lost table's own call still makes (a refused write stops the table
        in the middle of its command) is refused too, never written unfenced. None: never held, as a tournament
        being made before its claim lands (nothing to fence it by), or let go at a clean stop or retired."""
        held = self.held.get(resource)
        if held is not None:
            return (resource, self.node, held.epoch)
        epoch = self.lost_at.get(resource)
        return None if epoch is None else (resource, self.node, epoch)

    def refused(self, lost: LeaseLost) -> None:
        """A write fenced by a lease this node held was refused: another node holds the table now. The table
        stops here at once, as a lost lease does -- unless it stopped already, or this node holds it afresh."""
        held = self.held.get(lost.resource)
        if held is None or held.epoch != lost.epoch:            # stopped here already (lost, let go, or afresh)
            self.log.info("a late write of {resource} (epoch {epoch}) was refused: nothing of it was stored",
                          resource=lost.resource, epoch=lost.epoch)
            return
        self.log.warn("a write of {resource} was refused: another process took it over (this one held epoch "
                      "{epoch}); nothing of the write was stored, and the table stops here", resource=lost.resource,
                      epoch=lost.epoch)
        self._lose(lost.resource)

    # ------------------------------------------------------------------ holding

    def hold(self, resource: str) -> defer.Deferred:
        """Claim ``resource``: fires True if this node holds it now (its epoch in :meth:`epoch`), False if another
        node's lease is live."""
        now = self.reactor.seconds()
        self._claiming.add(resource)
        d = self.writer.write(self.leases.claim, resource, self.node, self.ttl, now, quiet=False)
        d.addBoth(self._claim_done, resource)
        d.addCallback(lambda epoch: self._claimed(resource, epoch, now))
        return d

    def _claim_done(self, result: object, resource: str) -> object:
        self._claiming.discard(resource)
        return result

    def _claimed(self, resource: str, epoch: int | None, now: float) -> bool:
        if epoch is None:
            return False
        self.lost_at.pop(resource, None)
        self.held[resource] = _Held(epoch, now + self.ttl - self.skew)
        self._fence_later()
        return True

    def retire(self, resource: str) -> defer.Deferred:
        """A table this node closed for good: its lease goes, so no node takes it over."""
        self.lost_at.pop(resource, None)
        if self.held.pop(resource, None) is not None:
            self._fence_later()
        return self.writer.write(self.leases.retire, self.node, resource)

    def _lose(self, resource: str) -> None:
        self.lost_at[resource] = self.held.pop(resource).epoch
        try:
            self.lost(resource)
        except Exception:                                       # noqa: BLE001 - one table's failure, logged
            self.log.failure("stopping the lost table {resource} failed", resource=resource)

    # ------------------------------------------------------------------ the beat

    def start(self) -> None:
        """Renew and watch from now on; the first look for leases that ran out is at once (a room starting after
        another process died takes its tables without waiting a beat)."""
        if not self.running:
            self.running = True
            self._on_beat()

    def stop(self) -> defer.Deferred:
        """The :class:`~pokerroom.shell.lifecycle.Step` stop: a clean stop releases every lease."""
        return self.release_all()

    def release_all(self) -> defer.Deferred:
        """Stop renewing and taking over, and let every lease go at once, for another node to take on its next
        beat (a deploy, a drain): called once this node's tables have stopped. Fires once released."""
        self.running = False
        for call in (self._beat, self._fence, self._look):
            if call is not None and call.active():
                call.cancel()
        self._beat = self._fence = self._look = None
        names, self.held = sorted(self.held), {}
        if not names:
            return defer.succeed(None)
        d = self.writer.write(self.leases.release, self.node, names, quiet=False)
        d.addErrback(lambda failure: self.log.failure("releasing the leases failed: they run out instead",
                                                      failure))
        return d

    def _on_beat(self) -> None:
        self._beat = None
        if not self.running:
            return
        self._renew()
        self._watch()
        self._beat = self.reactor.callLater(self.every, self._on_beat)

    def _renew(self) -> None:
        if self._renewing or not self.held:                    # the last renewal has not landed: the fence waits
            return
        now = self.reactor.seconds()
        asked = {name: held.epoch for name, held in self.held.items()}
        self._renewing = True
        d = self.writer.write(self.leases.renew, self.node, sorted(asked), self.ttl, now, quiet=False)
        d.addCallback(self._renewed, asked, now)
        d.addErrback(lambda failure: self.log.failure("renewing the leases failed", failure))
        d.addBoth(self._renew_done)

    def _renew_done(self, _: object) -> None:
        self._renewing = False

    def _renewed(self, still: set[str], asked: dict[str, int], now: float) -> None:
        for name, epoch in asked.items():
            held = self.held.get(name)
            if held is None or held.epoch != epoch:             # let go or claimed afresh meanwhile
                continue
            if name in still:
                self.held[name] = _Held(epoch, now + self.ttl - self.skew)
            else:
                self._lose(name)
        self._fence_later()

    def _fence_later(self) -> None:
        """Wake at the earliest moment a held lease must stop serving unless a renewal lands first."""
        if self._fence is not None and self._fence.active():
            self._fence.cancel()
        self._fence = None
        if self.held:
            due = min(held.serve_until for held in self.held.values())
            self._fence = self.reactor.callLater(max(0.0, due - self.reactor.seconds()), self._on_fence)

    def _on_fence(self) -> None:
        self._fence = None
        now = self.reactor.seconds()
        for name in [name for name, held in self.held.items() if held.serve_until <= now]:
            self.log.warn("no renewal of the lease of {resource} landed in time: stopped serving it",
                          resource=name)
            self._lose(name)
        self._fence_later()

    # ------------------------------------------------------------------ taking over

    def _watch(self) -> None:
        if self._watching:
            return
        self._watching = True
        d = self.writer.write(self.leases.watch, self.reactor.seconds(), self.node, quiet=False)
        d.addCallback(self._seen)
        d.addErrback(lambda failure: self.log.failure("looking for leases that ran out failed", failure))
        d.addBoth(self._watch_done)

    def _watch_done(self, _: object) -> None:
        self._watching = False

    def _seen(self, seen: tuple[list[str], float | None]) -> defer.Deferred:
        names, soonest = seen
        self._look_at(soonest)
        return self._candidates(names)

    def _look_at(self, soonest: float | None) -> None:
        """Look again when another node's lease runs out, if that is before the next beat (its process may be
        dead: its tables are claimed then, not up to a beat later); a renewal meanwhile only makes it a look that
        finds nothing."""
        if soonest is None or not self.running:
            return
        due = soonest + LOOK_AFTER
        if self._beat is not None and self._beat.active() and self._beat.getTime() <= due:
            return                                              # the beat looks first
        if self._look is not None and self._look.active():
            if self._look.getTime() <= due:
                return
            self._look.cancel()
        self._look = self.reactor.callLater(max(0.0, due - self.reactor.seconds()), self._on_look)

    def _on_look(self) -> None:
        self._look = None
        if not self.running:
            return
        if self._watching:                                      # a look on its way: this one right after it
            self._look = self.reactor.callLater(LOOK_AFTER, self._on_look)
            return
        self._watch()

    def _candidates(self, names: list[str]) -> defer.Deferred:
        """Claim every lease that ran out, this node's own too (one it gave up in a stall is a table nobody
        serves), in one transaction (a dead process's tables are won together, not one by one behind each other's
        openings): the claim decides, so of several nodes looking at once exactly one takes each table."""
        wanted = [name for name in names
                  if name not in self.held and name not in self._claiming and self.running
                  and (self.wants is None or self.wants(name))]    # a kind nothing here serves: not claimed
        if not wanted:
            return defer.succeed(None)
        now = self.reactor.seconds()
        self._claiming.update(wanted)
        d = self.writer.write(self.leases.claim_all, wanted, self.node, self.ttl, now, quiet=False)

        def claimed(won: dict[str, int]) -> None:
            self._claiming.difference_update(wanted)
            for name in wanted:
                self._taken(won.get(name), name, now)

        def failed(failure: Failure) -> Failure:
            self._claiming.difference_update(wanted)
            return failure

        return d.addCallbacks(claimed, failed)

    def _taken(self, epoch: int | None, name: str, now: float) -> None:
        if epoch is None:
            return                                              # another node was first
        if not self.running:                                    # stopped while the claim was on its way
            self.writer.write(self.leases.release, self.node, [name])
            return
        self._claimed(name, epoch, now)
        try:
            self.takeover(name, epoch)
        except Exception:                                       # noqa: BLE001 - one table's failure, logged
            self.log.failure("taking over {resource} failed", resource=name)


class LeaseThread:
    """The leases' own thread to the store: a renewal never waits behind the tables' writes.

    Under load the writer's queue holds seconds of hands and seats (bench/cluster.py saw renewals land after
    their lease had run out at 1,000 clients): queued there, a lease would be lost by the very process playing
    the table. The keeper and the roster write here instead, on a thread of their own (``threads``, started and
    stopped with the room), in their own order. A test's room (no threads) runs them inline on its recorder."""

    log = Logger()

    def __init__(self, inline: StoreQueue, threads: OwnThreads | None) -> None:
        self.inline = inline
        self.threads = threads

    def write(self, function: Callable[..., Any], *args: Any, quiet: bool = True) -> defer.Deferred:
        if self.threads is None:
            return self.inline.write(function, *args, quiet=quiet)
        d = self.threads.run(function, *args)
        if quiet:
            d.addErrback(lambda failure: self.log.failure("a lease write failed", failure))
        return d
