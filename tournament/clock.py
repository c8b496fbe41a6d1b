"""The tournament clock: levels, breaks, pauses, closing registration (TR-PLAY-1/2, TR-REG-4): part of the director.

``director.clock``: it keeps the level, the break and the pause, and which of
late registration and rebuys are open -- the director and its other parts read
them here and change them only through its methods. Its commands return the
director's events; it reads the rest of the tournament through the director.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pokerroom.errors import RuleViolation
from tournament.commands import ClockCommand, EndBreak, LevelUp, StartBreak
from tournament.entries import RUNNING
from tournament.events import (
    BreakEnded,
    BreakStarted,
    LevelStarted,
    Paused,
    RebuysClosed,
    RegistrationClosed,
    Resumed,
)

if TYPE_CHECKING:
    from tournament.director import Director


class Clock:
    """Time arrives as command records (:mod:`tournament.commands`); :meth:`next_command` says which and when."""

    def __init__(self, director: Director) -> None:
        self.director = director
        self.level = 0
        self.paused = False
        self.on_break = False
        self.late_open = False
        self.rebuys_open = False

    def start(self) -> None:
        """The tournament started (TR-REG-1): the first level, with late registration and rebuys as the spec says."""
        d = self.director
        spec = d.spec
        self.level = 1
        d.emit(self._level_event())
        self.late_open = spec.late_registration_levels > 0
        self.rebuys_open = spec.rebuy_levels > 0 and (spec.rebuys > 0 or spec.add_on_stack > 0)

    def next_command(self) -> tuple[ClockCommand, int] | None:
        """The next clock command (a record of :mod:`tournament.commands`) and the seconds until it."""
        d = self.director
        if d.state != RUNNING:
            return None
        if self.on_break:
            brk = d.spec.break_after(self.level)
            return (EndBreak(), brk.seconds if brk else 0)
        return (StartBreak() if d.spec.break_after(self.level) else LevelUp(), d.spec.level(self.level).seconds)

    def schedule(self) -> tuple[str, int] | None:
        """:meth:`next_command` as the lobby shows it: ``level_up``, ``start_break`` or ``end_break``, seconds."""
        step = self.next_command()
        return None if step is None else (step[0].name, step[1])

    def level_up(self) -> list:
        self._verify_running()
        if self.on_break:
            raise RuleViolation("on_break", "the break must end before the next level", "TR-PLAY-2")
        self._next_level()
        return self.director.flush()

    def start_break(self) -> list:
        """Synchronised break: no new hands; hands in play finish (TR-PLAY-2)."""
        d = self.director
        self._verify_running()
        if self.on_break:
            raise RuleViolation("on_break", "the tournament is already on a break", "TR-PLAY-2")
        brk = d.spec.break_after(self.level)
        self.on_break = True
        d.emit(BreakStarted(brk.seconds if brk else 0))
        return d.flush()

    def end_break(self) -> list:
        d = self.director
        self._verify_running()
        if not self.on_break:
            raise RuleViolation("not_on_break", "the tournament is not on a break", "TR-PLAY-2")
        self.on_break = False
        d.emit(BreakEnded())
        self._next_level()
        return d.flush()

    def _next_level(self) -> None:
        d = self.director
        spec = d.spec
        self.level += 1
        d.emit(self._level_event())
        if self.late_open and self.level > spec.late_registration_levels:
            self.close_late_registration("levels")
        if self.rebuys_open and self.level > spec.rebuy_levels:
            self.close_rebuys()
        d.eliminations.fix_prizes_if_closed()

    def _level_event(self) -> LevelStarted:
        lv = self.director.spec.level(self.level)
        return LevelStarted(self.level, lv.small_blind, lv.big_blind, lv.ante, lv.big_blind_ante, lv.seconds)

    def close_registration(self) -> list:
        """A director closes late registration now."""
        d = self.director
        self._verify_running()
        if not self.late_open:
            raise RuleViolation("registration_closed", "late registration is already closed", "TR-REG-4")
        self.close_late_registration("director")
        d.eliminations.fix_prizes_if_closed()
        return d.flush()

    def close_late_registration(self, reason: str) -> None:
        d = self.director
        self.late_open = False
        d.emit(RegistrationClosed(d.entries_total, reason))

    def close_rebuys(self) -> None:
        self.rebuys_open = False
        self.director.emit(RebuysClosed())

    def pause(self, by: str, reason: str) -> list:
        d = self.director
        self._verify_running()
        if self.paused:
            raise RuleViolation("paused", "the tournament is already paused", "TR-REG-1")
        self.paused = True
        d.emit(Paused(by, reason))
        return d.flush()

    def resume(self, by: str) -> list:
        d = self.director
        self._verify_running()
        if not self.paused:
            raise RuleViolation("not_paused", "the tournament is not paused", "TR-REG-1")
        self.paused = False
        d.emit(Resumed(by))
        return d.flush()

    def _verify_running(self) -> None:
        d = self.director
        if d.state != RUNNING:
            raise RuleViolation("not_running", f"{d.spec.name} is not running", "TR-REG-1")
