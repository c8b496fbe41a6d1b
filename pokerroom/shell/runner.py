"""One table pipeline: what the shell asks of every table it runs, and the one timer that drives them (HR-TIME-5).

Cash tables (:class:`~pokerroom.shell.cash_runner.TableRunner`), casino tables
(:class:`~pokerroom.shell.casino_runner.CasinoRunner`) and tournaments
(:class:`~pokerroom.shell.tournaments.runner.TournamentRunner`) are each a
:class:`Runner`; a tournament table's decisions and next hand are each a
:class:`Clocked` of the same :class:`Timer`
(:class:`~pokerroom.shell.tournaments.decisions.DecisionRunner`,
:class:`~pokerroom.shell.tournaments.timers.HandRunner`). To a runner, a
command record applied gives the events; it names its next deadline and
carries it out when it comes; a batch of its events gives the money it moves (through the wallet, the one money path),
the record the recorder stores of it (through the one port,
:class:`~pokerroom.shell.recorder.TableRecording`) and its frames, each
redacted once per audience (:mod:`pokerroom.shell.audiences`).

The tables never read a clock. :class:`Timer` gives every command the
reactor's ``seconds()`` and keeps exactly one ``IReactorTime.callLater``
pending, for the runner's next deadline; when it fires, the timer has the
runner carry out that deadline at the time the deadline names (a reactor
running a little late does not stretch anyone's time bank). Tests pass
``twisted.internet.task.Clock`` and advance it; the server passes the reactor.

Events go to ``publish``. A :class:`~pokerroom.errors.RuleViolation` from a
player's command propagates to the caller, who answers the client; from a
deadline (gone stale) it is ignored. Anything else a deadline raises is logged
and that deadline is not armed again, so one table's bug never stops or spins
the reactor.

A hand is never dealt on top of an outcome nobody has seen: when a deadline
that deals is due while the last outcome still waits for its commit
(:mod:`~pokerroom.shell.outcome_hold`), ``shown()`` gives a Deferred and the
deadline is carried out once it fires, its clocks counting from then.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, Protocol

from twisted.internet import defer
from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger

from pokerroom.errors import RuleViolation
from pokerroom.shell.audiences import Audiences, Told


class Deadline(Protocol):
    """When a table next wants a command of its own, compared by value: an equal deadline is the same one."""

    @property
    def at(self) -> float: ...          # the reactor time it is due

    @property
    def deals(self) -> bool: ...        # it starts a hand: it waits until the last outcome is shown


class Clocked(Protocol):
    """What :class:`Timer` runs: a table that applies commands, names its next deadline and carries it out."""

    def apply(self, command: Any, now: float) -> list: ...

    def next_deadline(self) -> Deadline | None: ...

    def fire(self, deadline: Any, now: float) -> list: ...


class Runner(Clocked, Protocol):
    """A table as the shell runs it -- cash, casino, or a tournament (one runner for all its tables: its step
    spans them): the one interface of the table pipeline.

    ``transfers`` moves the money a batch of events names through the wallet (once per batch, in order: it may
    track what a hand's settlement needs); ``full`` is what the recorder stores of the batch, with those
    transfers; ``audiences`` are the batch's frames, each with its head, as each audience may see them -- a
    table's batch redacted per audience, or a message :class:`~pokerroom.shell.audiences.Told` whole (a
    tournament's level, bust or prize)."""

    def transfers(self, events: list) -> dict[int, Any]: ...

    def full(self, events: list, transfers: dict[int, Any], now: float) -> Any: ...

    def audiences(self, events: list) -> list[tuple[dict, Audiences | Told]]: ...


Publish = Callable[[Sequence[Any]], None]


class Timer:
    """One runner's one pending deadline on the reactor."""

    log = Logger()

    def __init__(self, runner: Clocked, reactor: IReactorTime, publish: Publish,
                 shown: Callable[[], defer.Deferred | None] | None = None, name: Hashable = "") -> None:
        self.runner = runner
        self.reactor = reactor
        self.publish = publish
        self.shown = shown                  # None when every frame is out, else a Deferred of when it will be
        self.name = name or getattr(runner, "table_id", "")
        self._call: IDelayedCall | None = None
        self._armed: Deadline | None = None
        self._failed: Deadline | None = None
        self._waiting: Deadline | None = None   # a deadline that deals, waiting for the last outcome to be shown

    def command(self, command: Any) -> list:
        """Apply ``command`` to the runner now; publish its events; re-arm the timer."""
        try:
            events = self.runner.apply(command, self.reactor.seconds())
        finally:
            self.arm()
        self.publish(events)
        return events

    @property
    def pending(self) -> Deadline | None:
        """The deadline the timer waits for, if any."""
        return self._armed

    def stop(self) -> None:
        self._disarm()
        self._waiting = None

    def _disarm(self) -> None:
        if self._call is not None and self._call.active():
            self._call.cancel()
        self._call = None
        self._armed = None

    def arm(self) -> None:
        """Wait for the runner's next deadline (after a command that did not come through :meth:`command`)."""
        deadline = self.runner.next_deadline()
        call = self._call
        pending = call is not None and call.active()
        if deadline == self._armed and pending:
            return
        if deadline is not None and deadline == self._waiting:
            self._disarm()                  # that one fires when the last outcome is shown
            return
        if deadline is None or deadline == self._failed:
            self.stop()
            return
        delay = max(0.0, deadline.at - self.reactor.seconds())
        self._armed = deadline
        if pending and deadline.at >= call.getTime():
            # Every action moves a table's deadline, nearly always later: ``reset`` then moves the one pending
            # call instead of cancelling it and scheduling another, and costs the reactor nothing until the old
            # time comes up. (An earlier time would make the reactor search its whole heap for the call.)
            call.reset(delay)
        else:
            if pending:
                call.cancel()
            self._call = self.reactor.callLater(delay, self._fire)

    def _fire(self) -> None:
        deadline = self._armed              # the call is only ever pending with a deadline armed
        self._call = None
        self._armed = None
        waiting = self.shown() if self.shown is not None and deadline.deals else None
        if waiting is not None:
            self._waiting = deadline
            waiting.addCallback(self._shown, deadline)
            return
        self._run(deadline, deadline.at)

    def _shown(self, _: Any, deadline: Deadline) -> None:
        if self._waiting != deadline:       # stopped meanwhile
            return
        self._waiting = None
        if self.runner.next_deadline() == deadline:
            self._run(deadline, max(deadline.at, self.reactor.seconds()))
        else:
            self.arm()

    def _run(self, deadline: Deadline, now: float) -> None:
        try:
            events = self.runner.fire(deadline, now)
        except RuleViolation:
            events = []
        except Exception:
            self.log.failure("table {table} failed on {deadline}", table=self.name, deadline=deadline)
            self._failed = deadline         # never spin on a deadline that keeps failing
            events = []
        self.arm()
        if events:
            self.publish(events)
