"""A tournament's deadlines on the room's one :class:`~pokerroom.shell.runner.Timer`: its start, the level clock, a
deal's limit, and the next hand at each table.

The director never reads a clock; after every command the hall calls
:meth:`TournamentTimers.set` with its events, and the timers keep what time
brings next as deadlines -- records of :mod:`tournament.commands`: ``Start``
(or ``Cancel``), the :meth:`~tournament.clock.Clock.next_command` step,
``DealExpired`` for the tournament's own runner
(:class:`~pokerroom.shell.tournaments.runner.TournamentRunner`), and ``Deal``
for each table's (:class:`HandRunner`). Each runner's timer sends them back
through the hall's one pipeline (:meth:`~pokerroom.shell.tournaments.hall.TournamentHall.run`).
A pending level clock keeps the typed command it will send, never a method's
name. The level clock stops while play is paused or a deal is discussed
(TR-DEAL-1) and goes on with what was left.

The next hand waits ``between_hands`` from when the players were shown the
last one's end (its commit, :mod:`~pokerroom.shell.outcome_hold`): the table's
first deadline deals (``Deadline.deals``), so the timer holds it until the last
outcome is shown, as it holds a cash table's; carried out, it names the hand's
own deadline ``between_hands`` later.

Two things stay plain ``callLater(0)`` s, being no runner's deadline but a
large field's work cut into reactor turns: a registration's catch-up and the
look at every table for its next hand (:data:`SCAN_TABLES` a turn). Each
decision's own clock is :class:`~pokerroom.shell.tournaments.decisions.TournamentDecisions`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from twisted.logger import Logger

from pokerroom.shell.runner import Timer
from tournament import commands as tc
from tournament import director as td
from tournament.events import tables_named

if TYPE_CHECKING:
    from pokerroom.shell.tournaments.hall import TournamentHall

_CLOCK_MOVED = (td.LevelStarted, td.BreakStarted, td.BreakEnded, td.Started, td.Resumed)
SCAN_TABLES = 500           # tables looked at for their next hand in one reactor turn
_PLAY_OPENS = (td.BreakEnded, td.Resumed, td.DealMade, td.DealFailed, td.HandForHand)   # any table may deal again
START, CLOCK, DEAL_LIMIT = "start", "clock", "deal limit"


def _cancel(call: Any) -> None:
    if call is not None and call.active():
        call.cancel()


@dataclass(frozen=True, slots=True)
class Due:
    """A deadline of the tournament's own (its start, the level clock's next step, a deal's limit); equal ones are
    the same deadline to the timer."""

    at: float
    what: str                                       # START, CLOCK or DEAL_LIMIT
    command: tc.ClockCommand | None = None          # the level clock's typed command

    @property
    def deals(self) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class NextHand:
    """A table's next hand: first the wait for the last outcome to be shown (``deals``), then the deal."""

    at: float
    deals: bool


class HandRunner:
    """A tournament table's next hand as the one :class:`~pokerroom.shell.runner.Timer` runs it."""

    def __init__(self, timers: TournamentTimers, key: tuple[str, str]) -> None:
        self.timers = timers
        self.key = key

    def apply(self, command: tc.TournamentCommand, now: float) -> list:
        return self.timers.hall.runner(self.key[0]).apply(command, now)

    def next_deadline(self) -> NextHand | None:
        return self.timers.next_hand.get(self.key)

    def fire(self, deadline: NextHand, now: float) -> list:
        return self.timers.hand_due(self.key, deadline, now)

    def published(self, events: list) -> None:
        """The deal's events, through the hall's one pipeline."""
        hall = self.timers.hall
        hall.run(hall.directors[self.key[0]], events)

    def shown(self) -> Any:
        """None when the players have seen everything of the tournament, else a Deferred of when they will have."""
        return self.timers.hall.feed.hold(self.key[0]).after(None)


class TournamentTimers:
    log = Logger()

    def __init__(self, hall: TournamentHall, between_hands: float, clock_scale: float) -> None:
        self.hall = hall
        self.reactor = hall.reactor
        self.between_hands = between_hands
        self.clock_scale = clock_scale              # a test room runs its levels faster; 1.0 in production
        self.clock: dict[str, tuple[tc.ClockCommand, float]] = {}    # tournament -> (command, when it is due)
        self.paused_left: dict[str, tuple[tc.ClockCommand, float]] = {}
        self.next_hand: dict[tuple[str, str], NextHand] = {}
        self.hand_timers: dict[tuple[str, str], Timer] = {}          # (tournament, table) -> its next hand's timer
        self.deal_at: dict[str, float] = {}
        self.starts: dict[str, float] = {}                           # tournament -> its scheduled start
        self.catch_up_call: dict[str, Any] = {}                      # tournament -> the next slice of its work
        self.scan_call: dict[str, Any] = {}                          # tournament -> the next tables to look at

    # ------------------------------------------------------------------ the tournament's own deadlines

    def due(self, tid: str) -> Due | None:
        """The tournament's next deadline of its own: the earliest of its start, level clock and deal limit."""
        due = []
        if tid in self.starts:
            due.append(Due(self.starts[tid], START))
        if tid in self.clock:
            command, at = self.clock[tid]
            due.append(Due(at, CLOCK, command))
        if tid in self.deal_at:
            due.append(Due(self.deal_at[tid], DEAL_LIMIT))
        return min(due, key=lambda d: d.at, default=None)

    def fire(self, d: td.Director, due: Due) -> tc.TournamentCommand | None:
        """The command ``due`` sends now (None: nothing left to do); the deadline is spent."""
        tid = d.spec.id
        if due.what == START:
            self.starts.pop(tid, None)
            if d.state != td.REGISTERING:
                return None
            if d.awaiting_approval:                                  # STAFF-1: never approved, never played
                return tc.Cancel("its guarantee was not approved by an admin before the start")
            if len(d.entries) < d.spec.min_players:                  # TR-REG-1: the room cancels it
                return tc.Cancel(f"fewer than {d.spec.min_players} players registered")
            return tc.Start()
        if due.what == CLOCK:
            self.clock.pop(tid, None)
            return due.command
        self.deal_at.pop(tid, None)
        return tc.DealExpired() if d.deal_desk.pending_deal is not None else None

    def _arm(self, tid: str) -> None:
        self.hall.runner(tid).timer.arm()

    # ------------------------------------------------------------------ the start

    def start_at(self, tid: str, at: float) -> None:
        """A scheduled event starts at ``at`` (TR-REG-1), or is cancelled then if it cannot."""
        self.starts[tid] = max(at, self.reactor.seconds())
        self._arm(tid)

    def started_now(self, tid: str) -> None:
        """A director started it early: the scheduled start has nothing left to do."""
        if self.starts.pop(tid, None) is not None:
            self._arm(tid)

    # ------------------------------------------------------------------ after every command

    def set(self, d: td.Director, events: list) -> None:
        tid = d.spec.id
        if d.state in (td.FINISHED, td.CANCELLED):
            self.stop(tid)
            return
        self._set_clock(d, events)
        if d.registration.behind and tid not in self.catch_up_call:     # a large field's work, a slice per reactor turn
            self.catch_up_call[tid] = self.reactor.callLater(0, self._catch_up, tid)
        if d.registration.drawing is None:                       # TR-REG-3: no hand until everyone is seated
            self._set_hands(d, events)
        if any(isinstance(e, td.DealOffered) for e in events):
            self.deal_at[tid] = self.reactor.seconds() + d.spec.deal_seconds
        if any(isinstance(e, td.DealMade | td.DealFailed | td.DealAwaitingApproval) for e in events):
            self.deal_at.pop(tid, None)     # decided, or waiting for the director: no more time limit
        self._arm(tid)

    def _set_hands(self, d: td.Director, events: list) -> None:
        tid = d.spec.id
        if (d.hand_for_hand and not d.round_played) or any(
                isinstance(e, _PLAY_OPENS) or (type(e) is td.Seated and e.reason == "draw") for e in events):
            _cancel(self.scan_call.pop(tid, None))
            self._scan(tid, list(d.tables), 0)      # play opens again everywhere (a round of hand-for-hand too)
        else:
            self._next_hands(d, tables_named(events))   # else only where a hand ended or someone sat down

    def _next_hands(self, d: td.Director, table_ids: Iterable[str]) -> None:
        """The next hand at each of ``table_ids`` that may deal and has none coming: first the wait for the last
        outcome to be shown (the pause between hands is the players' in full)."""
        tid = d.spec.id
        now = self.reactor.seconds()
        for table_id in table_ids:
            key = (tid, table_id)
            table = d.tables.get(table_id)
            if table is not None and table.hand is None and d.can_deal(table_id) and key not in self.next_hand:
                self.next_hand[key] = NextHand(now, deals=True)
                timer = self.hand_timers.get(key)
                if timer is None:
                    runner = HandRunner(self, key)
                    timer = self.hand_timers[key] = Timer(runner, self.reactor, runner.published, runner.shown,
                                                          name=key)
                timer.arm()

    def hand_due(self, key: tuple[str, str], deadline: NextHand, now: float) -> list:
        """The last outcome is shown: the hand comes ``between_hands`` from ``now``; or its time is up: deal it."""
        if deadline.deals:
            self.next_hand[key] = NextHand(now + self.between_hands, deals=False)
            return []
        self.next_hand.pop(key, None)
        self.hand_timers.pop(key, None)
        tid, table_id = key
        d = self.hall.directors[tid]
        if not d.can_deal(table_id):
            return []
        away = self.hall.away
        if away is not None and away.sends_now():   # played by a table process (:mod:`.hands_away`)
            return self.hall.runner(tid).apply(tc.SendHand(table_id), now)
        return self.hall.runner(tid).apply(tc.Deal(table_id, tuple(self.hall.shuffle())), now)

    def _scan(self, tid: str, table_ids: list[str], start: int) -> None:
        """Every table looked at for its next hand, :data:`SCAN_TABLES` a reactor turn (11,000 tables at once
        would hold the room for tens of ms)."""
        self.scan_call.pop(tid, None)
        d = self.hall.directors.get(tid)
        if d is None or d.state != td.RUNNING:
            return
        self._next_hands(d, table_ids[start:start + SCAN_TABLES])
        if start + SCAN_TABLES < len(table_ids):
            self.scan_call[tid] = self.reactor.callLater(0, self._scan, tid, table_ids, start + SCAN_TABLES)

    def stop(self, tid: str) -> None:
        """Nothing of ``tid`` is due any more (it ended, or the hall stops)."""
        for keyed in (self.clock, self.paused_left, self.deal_at, self.starts):
            keyed.pop(tid, None)                    # a finished tournament's clock holds nothing
        for call in (self.catch_up_call.pop(tid, None), self.scan_call.pop(tid, None)):
            _cancel(call)
        for key in [k for k in self.hand_timers if k[0] == tid]:
            self.next_hand.pop(key, None)
            self.hand_timers.pop(key).stop()
        runner = self.hall.runners.get(tid)
        if runner is not None:
            runner.timer.stop()

    # ------------------------------------------------------------------ the level clock

    def hold_clock(self, tid: str) -> None:
        """Play stops (a pause, a deal discussed): the level clock keeps what was left of its step."""
        current = self.clock.pop(tid, None)
        if current is not None:
            self.paused_left[tid] = (current[0], current[1] - self.reactor.seconds())
            self._arm(tid)

    def clock_left(self, d: td.Director) -> float | None:
        """Seconds until the running clock's next step (a level's or a break's end); held while paused."""
        current = self.clock.get(d.spec.id)
        if current is not None:
            return current[1] - self.reactor.seconds()
        held = self.paused_left.get(d.spec.id)
        return None if held is None else held[1]

    def _set_clock(self, d: td.Director, events: list) -> None:
        tid = d.spec.id
        if any(isinstance(e, td.DealProposed) for e in events):
            self.hold_clock(tid)                          # TR-DEAL-1: play pauses, and so does the clock
        if d.clock.paused or d.deal_desk.pending_deal is not None:
            return
        now = self.reactor.seconds()
        if any(isinstance(e, td.DealMade | td.DealFailed) for e in events) and tid in self.paused_left:
            command, left = self.paused_left.pop(tid)
            self.clock[tid] = (command, now + left)
            return
        step = d.clock.next_command()
        current = self.clock.get(tid)
        moved = any(isinstance(e, _CLOCK_MOVED) for e in events)
        if step is None or (current is not None and not moved):
            return
        command, seconds = step
        left = self.paused_left.pop(tid, (command, seconds * self.clock_scale))
        self.clock[tid] = (command, now + left[1])

    def _catch_up(self, tid: str) -> None:
        self.catch_up_call.pop(tid, None)
        d = self.hall.directors[tid]
        if d.registration.behind:
            self.hall.command(d, tc.CatchUp())
