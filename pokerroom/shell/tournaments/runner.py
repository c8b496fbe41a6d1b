"""A tournament as the table pipeline runs it (:class:`~pokerroom.shell.runner.Runner`): one runner per
tournament, not per table, because a tournament's step spans tables -- a bust at one table breaks another, a
level's end reaches them all, and the step is stored (and its payments posted) whole.

The :class:`~tournament.director.Director` is pure; its runner applies a
command record to it (a player's refused action priced in chips, as a
tournament table counts them), names the tournament's own next deadline (its
start, the level clock's step, a deal's limit: :mod:`~pokerroom.shell.tournaments.timers`)
and carries it out on the room's one :class:`~pokerroom.shell.runner.Timer`,
whose events go through :meth:`~pokerroom.shell.tournaments.hall.TournamentHall.run`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from twisted.logger import Logger

from pokerroom.errors import RuleViolation
from pokerroom.shell.runner import Timer
from pokerroom.shell.tournaments.timers import Due
from tournament import commands as tc
from tournament import director as td

if TYPE_CHECKING:
    from pokerroom.shell.tournaments.hall import TournamentHall


class TournamentRunner:
    log = Logger()

    def __init__(self, hall: TournamentHall, director: td.Director) -> None:
        self.hall = hall
        self.director = director
        self.timer = Timer(self, hall.reactor, lambda events: hall.run(director, events), name=director.spec.id)

    @property
    def tournament_id(self) -> str:
        return self.director.spec.id

    # ------------------------------------------------------------------ the runner interface

    def apply(self, command: tc.TournamentCommand, now: float) -> list:
        """The director's events for ``command``; a refusal changes nothing and is raised, code, sentence and rule
        kept (a player's action priced in chips)."""
        try:
            return self.director.apply(command)
        except RuleViolation as refusal:
            if type(command) is tc.Act:
                raise refusal.priced("chips") from None
            raise

    def next_deadline(self) -> Due | None:
        return self.hall.timers.due(self.director.spec.id)

    def fire(self, deadline: Due, now: float) -> list:
        command = self.hall.timers.fire(self.director, deadline)
        if command is None:
            return []
        try:
            return self.apply(command, now)
        except RuleViolation as refusal:
            self.log.warn("tournament {id}: the {what}'s {command} was refused: {why}", id=self.tournament_id,
                          what=deadline.what, command=type(command).__name__, why=refusal.message)
            return []
