"""The requests' line to the tournament hall: every command and read of a tournament as a bus request.

The players' and directors' requests are on the gateway's side of the
process line, the hall on the tables' (docs/architecture.md); they reach it
only through here, with the records of :mod:`pokerroom.bus.records` answered
by :mod:`~pokerroom.shell.tournaments.answers`. A tournament nobody answers
for is ``unknown_tournament``, the sentence a client reads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twisted.internet import defer
from twisted.python.failure import Failure

from pokerroom.bus import Bus, NoResponder, Subscription
from pokerroom.bus.records import CreateEvent, InvitationsRead, TournamentsRead
from pokerroom.bus.subjects import (
    TOURNAMENTS_CREATE,
    TOURNAMENTS_INVITATIONS,
    TOURNAMENTS_LIST,
    TOURNAMENTS_RETIRED,
    tournament_command,
    tournament_read,
)
from pokerroom.errors import RuleViolation
from pokerroom.shell.every_node import ask_every_node, by_id, by_tournament, lists_by_key


class HallLine:
    def __init__(self, bus: Bus, keep_ended_minutes: int) -> None:
        self.bus = bus
        self.keep_ended_minutes = keep_ended_minutes        # how long an ended event stays: the sentence says so

    def command(self, tournament: str, command: Any) -> defer.Deferred:
        """``command`` (a record) on ``tournament.<id>.command``: the hall's answer, or its refusal."""
        return self.bus.request(tournament_command(tournament), command).addErrback(self._unknown, tournament)

    def read(self, tournament: str, read: Any) -> defer.Deferred:
        """``read`` (a record) on ``tournament.<id>.read``: plain data."""
        return self.bus.request(tournament_read(tournament), read).addErrback(self._unknown, tournament)

    def create(self, event: CreateEvent) -> defer.Deferred:
        """A new event on ``tournaments.create``: its lobby summary, or the refusal (structure, bounds, quota)."""
        return self.bus.request(TOURNAMENTS_CREATE, event)

    def listed(self, player: str | None) -> defer.Deferred:
        """Every tournament's lobby line, ``registered`` as ``player`` sees it; none while no hall answers."""
        return ask_every_node(self.bus, TOURNAMENTS_LIST, TournamentsRead(player),      # each node: its events
                              lists_by_key("tournaments", order=by_id)).addErrback(self._none)

    def invitations(self, read: InvitationsRead) -> defer.Deferred:
        """A player's open invitations on ``tournaments.invitations``; none while no hall answers."""
        return ask_every_node(self.bus, TOURNAMENTS_INVITATIONS, read,
                              lists_by_key("invitations", order=by_tournament)).addErrback(self._no_invitations)

    def on_retired(self, retired: Callable[[str], None]) -> Subscription:
        """``retired(tournament)`` whenever an event leaves the hall's memory: nothing of it is published again."""
        return self.bus.subscribe(TOURNAMENTS_RETIRED, lambda _, tournament: retired(tournament))

    def _unknown(self, failure: Failure, tournament: str) -> Any:
        if failure.check(NoResponder):
            raise RuleViolation("unknown_tournament", f"there is no tournament {tournament!r} in the lobby (an event "
                                f"leaves it {self.keep_ended_minutes} minutes after it ends; its hands and results "
                                "stay in the room's history)")
        return failure

    @staticmethod
    def _none(failure: Failure) -> Any:
        failure.trap(NoResponder)
        return {"tournaments": []}

    @staticmethod
    def _no_invitations(failure: Failure) -> Any:
        failure.trap(NoResponder)
        return {"invitations": []}
