"""Drive a :class:`~pokerroom.table.CashTable` with a reactor clock (HR-TIME-5).

The table never reads a clock. :class:`TableTimer` gives every command (a
record of :mod:`pokerroom.table.commands`) the reactor's ``seconds()`` and
keeps exactly one ``IReactorTime.callLater`` pending, for the table's
:meth:`~pokerroom.table.CashTable.next_deadline`; when it fires, the timer
applies the command the deadline carries, at the time
the deadline names (a reactor running a little late does not stretch anyone's
time bank). Tests pass
``twisted.internet.task.Clock`` and advance it; the server passes the reactor.

Events go to ``publish`` (the server fans them out and stores them). A
:class:`~pokerroom.errors.RuleViolation` from a player's command propagates to
the caller, who answers the client; from a timer (a deadline gone stale) it is
ignored. Anything else a timer raises is logged and that deadline is not
armed again, so one table's bug never stops or spins the reactor.

A hand is never dealt on top of an outcome nobody has seen: when the next
hand is due while the last one's end still waits for its commit
(:mod:`~pokerroom.shell.outcome_hold`), ``shown()`` gives a Deferred and the
hand starts once it fires, its clocks counting from then.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger

from pokerroom.errors import RuleViolation
from pokerroom.table.cash_table import CashTable, Deadline
from pokerroom.table.commands import StartHand, TableCommand
from pokerroom.table.events import TableEvent

Publish = Callable[[Sequence[TableEvent]], None]


class TableTimer:
    log = Logger()

    def __init__(self, table: CashTable, reactor: IReactorTime, publish: Publish,
                 shown: Callable[[], Any] | None = None) -> None:
        self.table = table
        self.reactor = reactor
        self.publish = publish
        self.shown = shown                  # None when every frame is out, else a Deferred of when it will be
        self._call: IDelayedCall | None = None
        self._armed: Deadline | None = None
        self._failed: Deadline | None = None
        self._waiting: Deadline | None = None   # a hand start waiting for the last hand's end to be shown

    def command(self, command: TableCommand) -> list[TableEvent]:
        """Apply ``command`` to the table now; publish its events; re-arm the timer."""
        try:
            events = self.table.apply(command, self.reactor.seconds())
        finally:
            self._arm()
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

    def _arm(self) -> None:
        deadline = self.table.next_deadline()
        call = self._call
        pending = call is not None and call.active()
        if deadline == self._armed and pending:
            return
        if deadline is not None and deadline == self._waiting:
            self._disarm()                  # that one fires when the last hand's end is shown
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
        waiting = self.shown() if self.shown is not None and type(deadline.command) is StartHand else None
        if waiting is not None:
            self._waiting = deadline
            waiting.addCallback(self._shown, deadline)
            return
        self._run(deadline, deadline.at)

    def _shown(self, _: Any, deadline: Deadline) -> None:
        if self._waiting != deadline:       # stopped meanwhile
            return
        self._waiting = None
        if self.table.next_deadline() == deadline:
            self._run(deadline, max(deadline.at, self.reactor.seconds()))
        else:
            self._arm()

    def _run(self, deadline: Deadline, now: float) -> None:
        try:
            events = self.table.fire(deadline, now)
        except RuleViolation:
            events = []
        except Exception:
            self.log.failure("table {table} failed on {deadline}", table=self.table.table_id,
                             deadline=deadline)
            self._failed = deadline         # never spin on a deadline that keeps failing
            events = []
        self._arm()
        if events:
            self.publish(events)
