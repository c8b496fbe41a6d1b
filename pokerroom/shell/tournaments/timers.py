"""A tournament's timers on the reactor: its start, the level clock, the next hand at each table, a deal's limit.

The director never reads a clock; after every command the hall calls
:meth:`TournamentTimers.set` with its events, and the timers send the commands
time brings -- records of :mod:`tournament.commands`: ``Start`` (or
``Cancel``), the :meth:`~tournament.clock.Clock.next_command` step, ``Deal``,
``DealExpired``, ``CatchUp`` -- back through the hall's one command path
(:meth:`~pokerroom.shell.tournaments.hall.TournamentHall.command`). A pending
level clock keeps the typed command it will send, never a method's name. The level
clock stops while play is paused or a deal is discussed (TR-DEAL-1) and goes on
with what was left. Each decision's own clock is
:class:`~pokerroom.shell.tournaments.decisions.TournamentDecisions`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from twisted.internet import defer
from twisted.logger import Logger

from pokerroom.errors import RuleViolation
from tournament import commands as tc
from tournament import director as td
from tournament.events import tables_named

if TYPE_CHECKING:
    from pokerroom.shell.tournaments.hall import TournamentHall

HELD_AT_MOST = 3600.0           # the next hand waits for the last one's end to be shown; a write fails or lands sooner
_CLOCK_MOVED = (td.LevelStarted, td.BreakStarted, td.BreakEnded, td.Started, td.Resumed)
SCAN_TABLES = 500           # tables looked at for their next hand in one reactor turn
_PLAY_OPENS = (td.BreakEnded, td.Resumed, td.DealMade, td.DealFailed, td.HandForHand)   # any table may deal again


def _cancel(call: Any) -> None:
    if call is not None and call.active():
        call.cancel()


class TournamentTimers:
    log = Logger()

    def __init__(self, hall: TournamentHall, between_hands: float, clock_scale: float) -> None:
        self.hall = hall
        self.reactor = hall.reactor
        self.between_hands = between_hands
        self.clock_scale = clock_scale              # a test room runs its levels faster; 1.0 in production
        self.clock: dict[str, tuple[tc.ClockCommand, Any]] = {}      # tournament -> (command, delayed call)
        self.paused_left: dict[str, tuple[tc.ClockCommand, float]] = {}
        self.next_hand: dict[tuple[str, str], Any] = {}
        self.deal_call: dict[str, Any] = {}
        self.start_call: dict[str, Any] = {}
        self.catch_up_call: dict[str, Any] = {}                      # tournament -> the next slice of its work
        self.scan_call: dict[str, Any] = {}                          # tournament -> the next tables to look at

    # ------------------------------------------------------------------ the start

    def start_at(self, tid: str, at: float) -> None:
        """A scheduled event starts at ``at`` (TR-REG-1), or is cancelled then if it cannot."""
        delay = max(0.0, at - self.reactor.seconds())
        self.start_call[tid] = self.reactor.callLater(delay, self._start_due, tid)

    def started_now(self, tid: str) -> None:
        """A director started it early: the scheduled start has nothing left to do."""
        _cancel(self.start_call.pop(tid, None))

    def _start_due(self, tid: str) -> None:
        self.start_call.pop(tid, None)
        d = self.hall.directors[tid]
        if d.state != td.REGISTERING:
            return
        if d.awaiting_approval:                                  # STAFF-1: never approved, never played
            self.hall.command(d, tc.Cancel("its guarantee was not approved by an admin before the start"))
        elif len(d.entries) < d.spec.min_players:                  # TR-REG-1: the room cancels it
            self.hall.command(d, tc.Cancel(f"fewer than {d.spec.min_players} players registered"))
        else:
            self.hall.command(d, tc.Start())

    # ------------------------------------------------------------------ after every command

    def set(self, d: td.Director, events: list) -> None:
        tid = d.spec.id
        if d.state in (td.FINISHED, td.CANCELLED):
            self.stop(tid)
            return
        self._set_clock(d, events)
        if d.registration.behind and tid not in self.catch_up_call:     # a large field's work, a slice per reactor turn
            self.catch_up_call[tid] = self.reactor.callLater(0, self._catch_up, tid)
        if d.registration.drawing is not None:                   # TR-REG-3: no hand until everyone is seated
            return
        if (d.hand_for_hand and not d.round_played) or any(
                isinstance(e, _PLAY_OPENS) or (type(e) is td.Seated and e.reason == "draw") for e in events):
            _cancel(self.scan_call.pop(tid, None))
            self._scan(tid, list(d.tables), 0)      # play opens again everywhere (a round of hand-for-hand too)
        else:
            self._next_hands(d, tables_named(events))   # else only where a hand ended or someone sat down
        if any(isinstance(e, td.DealOffered) for e in events):
            self.deal_call[tid] = self.reactor.callLater(d.spec.deal_seconds, self._deal_expired, tid)
        if any(isinstance(e, td.DealMade | td.DealFailed | td.DealAwaitingApproval) for e in events):
            _cancel(self.deal_call.pop(tid, None))   # decided, or waiting for the director: no more time limit

    def _next_hands(self, d: td.Director, table_ids: Iterable[str]) -> None:
        """The next hand at each of ``table_ids`` that may deal and has none coming."""
        tid = d.spec.id
        for table_id in table_ids:
            key = (tid, table_id)
            table = d.tables.get(table_id)
            if table is not None and table.hand is None and d.can_deal(table_id) and key not in self.next_hand:
                self.next_hand[key] = self._after_shown(tid, self.between_hands, self._deal, tid, table_id)

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

    def _after_shown(self, tid: str, seconds: float, *call: Any) -> Any:
        """A call ``seconds`` after the players have been shown what the tournament holds now (the hand's end waits
        for its commit, :mod:`~pokerroom.shell.outcome_hold`): the pause between hands is theirs in full."""
        later = self.reactor.callLater(seconds, *call)
        shown = self.hall.feed.hold(tid).after(None)
        if isinstance(shown, defer.Deferred):
            later.delay(HELD_AT_MOST)                       # moved back to ``seconds`` from when it is shown
            shown.addCallback(lambda _: later.reset(seconds) if later.active() else None)
        return later

    def stop(self, tid: str) -> None:
        calls = [self.clock.pop(tid, (None, None))[1], self.deal_call.pop(tid, None), self.start_call.pop(tid, None),
                 self.catch_up_call.pop(tid, None), self.scan_call.pop(tid, None)]
        calls += [self.next_hand.pop(k) for k in [k for k in self.next_hand if k[0] == tid]]
        self.paused_left.pop(tid, None)                 # a finished tournament's clock holds nothing
        for call in calls:
            _cancel(call)

    # ------------------------------------------------------------------ the level clock

    def hold_clock(self, tid: str) -> None:
        """Play stops (a pause, a deal discussed): the level clock keeps what was left of its step."""
        current = self.clock.pop(tid, None)
        if current is not None and current[1].active():
            self.paused_left[tid] = (current[0], current[1].getTime() - self.reactor.seconds())
            current[1].cancel()

    def clock_left(self, d: td.Director) -> float | None:
        """Seconds until the running clock's next step (a level's or a break's end); held while paused."""
        current = self.clock.get(d.spec.id)
        if current is not None and current[1].active():
            return current[1].getTime() - self.reactor.seconds()
        held = self.paused_left.get(d.spec.id)
        return None if held is None else held[1]

    def _set_clock(self, d: td.Director, events: list) -> None:
        tid = d.spec.id
        if any(isinstance(e, td.DealProposed) for e in events):
            self.hold_clock(tid)                          # TR-DEAL-1: play pauses, and so does the clock
        if d.clock.paused or d.deal_desk.pending_deal is not None:
            return
        if any(isinstance(e, td.DealMade | td.DealFailed) for e in events) and tid in self.paused_left:
            command, left = self.paused_left.pop(tid)
            self.clock[tid] = (command, self.reactor.callLater(left, self._tick, tid, command))
            return
        step = d.clock.next_command()
        current = self.clock.get(tid)
        moved = any(isinstance(e, _CLOCK_MOVED) for e in events)
        if step is None or (current is not None and not moved):
            return
        if current is not None:
            _cancel(current[1])
        command, seconds = step
        left = self.paused_left.pop(tid, (command, seconds * self.clock_scale))
        self.clock[tid] = (command, self.reactor.callLater(left[1], self._tick, tid, command))

    def _tick(self, tid: str, command: tc.ClockCommand) -> None:
        self.clock.pop(tid, None)
        d = self.hall.directors[tid]
        try:
            self.hall.command(d, command)
        except RuleViolation as refusal:
            self.log.warn("tournament {id}: the clock's {command} was refused: {why}", id=tid, command=command.name,
                          why=refusal.message)

    def _catch_up(self, tid: str) -> None:
        self.catch_up_call.pop(tid, None)
        d = self.hall.directors[tid]
        if d.registration.behind:
            self.hall.command(d, tc.CatchUp())

    # ------------------------------------------------------------------ hands and deals

    def _deal(self, tid: str, table_id: str) -> None:
        self.next_hand.pop((tid, table_id), None)
        d = self.hall.directors[tid]
        if d.can_deal(table_id):
            self.hall.command(d, tc.Deal(table_id, tuple(self.hall.shuffle())))

    def _deal_expired(self, tid: str) -> None:
        self.deal_call.pop(tid, None)
        d = self.hall.directors[tid]
        if d.deal_desk.pending_deal is not None:
            self.hall.command(d, tc.DealExpired())
