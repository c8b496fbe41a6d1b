"""The tournament clock: levels, breaks, pauses, closing registration (TR-PLAY-1/2, TR-REG-4): part of the director.

A mix-in of :class:`~tournament.director.Director`, which holds the state it reads and
writes; split out so each part of the director is one module with one job.
"""

from __future__ import annotations

from pokerroom.errors import RuleViolation
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


class Clock:
    """Time arrives as commands; :meth:`schedule` says which and when."""

    def schedule(self) -> tuple[str, int] | None:
        """The next clock command and the seconds until it: ``level_up``, ``start_break`` or ``end_break``."""
        if self.state != RUNNING:
            return None
        if self.on_break:
            brk = self.spec.break_after(self.level)
            return ("end_break", brk.seconds if brk else 0)
        kind = "start_break" if self.spec.break_after(self.level) else "level_up"
        return (kind, self.spec.level(self.level).seconds)

    def level_up(self) -> list:
        self._verify_running()
        if self.on_break:
            raise RuleViolation("on_break", "the break must end before the next level", "TR-PLAY-2")
        self._next_level()
        return self._flush()

    def start_break(self) -> list:
        """Synchronised break: no new hands; hands in play finish (TR-PLAY-2)."""
        self._verify_running()
        if self.on_break:
            raise RuleViolation("on_break", "the tournament is already on a break", "TR-PLAY-2")
        brk = self.spec.break_after(self.level)
        self.on_break = True
        self._emit(BreakStarted(brk.seconds if brk else 0))
        return self._flush()

    def end_break(self) -> list:
        self._verify_running()
        if not self.on_break:
            raise RuleViolation("not_on_break", "the tournament is not on a break", "TR-PLAY-2")
        self.on_break = False
        self._emit(BreakEnded())
        self._next_level()
        return self._flush()

    def _next_level(self) -> None:
        spec = self.spec
        self.level += 1
        self._emit(self._level_event())
        if self.late_open and self.level > spec.late_registration_levels:
            self._close_registration("levels")
        if self.rebuys_open and self.level > spec.rebuy_levels:
            self.rebuys_open = False
            self._emit(RebuysClosed())
        self._fix_prizes_if_closed()

    def _level_event(self) -> LevelStarted:
        lv = self.spec.level(self.level)
        return LevelStarted(self.level, lv.small_blind, lv.big_blind, lv.ante, lv.big_blind_ante, lv.seconds)

    def close_registration(self) -> list:
        """A director closes late registration now."""
        self._verify_running()
        if not self.late_open:
            raise RuleViolation("registration_closed", "late registration is already closed", "TR-REG-4")
        self._close_registration("director")
        self._fix_prizes_if_closed()
        return self._flush()

    def _close_registration(self, reason: str) -> None:
        self.late_open = False
        self._emit(RegistrationClosed(self.entries_total, reason))

    def pause(self, by: str, reason: str) -> list:
        self._verify_running()
        if self.paused:
            raise RuleViolation("paused", "the tournament is already paused", "TR-REG-1")
        self.paused = True
        self._emit(Paused(by, reason))
        return self._flush()

    def resume(self, by: str) -> list:
        self._verify_running()
        if not self.paused:
            raise RuleViolation("not_paused", "the tournament is not paused", "TR-REG-1")
        self.paused = False
        self._emit(Resumed(by))
        return self._flush()

    def _verify_running(self) -> None:
        if self.state != RUNNING:
            raise RuleViolation("not_running", f"{self.spec.name} is not running", "TR-REG-1")
