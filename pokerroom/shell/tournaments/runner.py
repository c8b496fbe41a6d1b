"""A tournament as the table pipeline runs it (:class:`~pokerroom.shell.runner.Runner`): one runner per
tournament, not per table, because a tournament's step spans tables -- a bust at one table breaks another, a
level's end reaches them all, and the step is stored (and its payments posted) whole.

The :class:`~tournament.director.Director` is pure; its runner applies a
command record to it (a player's refused action priced in chips, as a
tournament table counts them), names the tournament's own next deadline (its
start, the level clock's step, a deal's limit: :mod:`~pokerroom.shell.tournaments.timers`)
and carries it out on the room's one :class:`~pokerroom.shell.runner.Timer`,
whose events go through :meth:`~pokerroom.shell.tournaments.hall.TournamentHall.run`.
A step's events give its payments posted through the wallet (:meth:`TournamentRunner.transfers`),
what the recorder stores of it -- the hands it ended and the director's saved
step, in one transaction (:meth:`TournamentRunner.full`) -- and its frames, as
each audience may hear them (:meth:`TournamentRunner.audiences`, made by the
:mod:`~pokerroom.shell.tournaments.feed`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from twisted.logger import Logger

from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import PROMOTIONS
from pokerroom.poker import events as he
from pokerroom.shell.audiences import Audiences, Told
from pokerroom.shell.recorder import TournamentStep
from pokerroom.shell.runner import Timer
from pokerroom.shell.tournaments.timers import Due
from tournament import commands as tc
from tournament import director as td
from tournament import saved_state

if TYPE_CHECKING:
    from pokerroom.shell.tournaments.hall import TournamentHall

_QUIET = (td.HandDealt, td.HandPlayed)          # events that change nothing a snapshot keeps


def _ends_hand(events: list) -> bool:
    """A hand ends in these events (its deck is revealed last)."""
    return any(isinstance(x, he.DeckRevealed) for e in events if isinstance(e, td.HandPlayed) for x in e.events)


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

    def transfers(self, events: list) -> dict[int, Any]:
        """Post the step's payments to the ledger, in order (position in ``events`` -> the transfer, flagged at
        once: AC-6; stored with the step); when the event is over, the guarantee it did not use goes back to
        promotions (STAFF-1), after the last event."""
        d = self.director
        wallet = self.hall.wallet
        transfers = {i: wallet.move(e.source, e.target, e.amount, e.reason, d.spec.id, store=False)
                     for i, e in enumerate(events) if isinstance(e, td.Payment)}
        held = td.guarantee_account(d.spec.id)
        if d.state in (td.FINISHED, td.CANCELLED) and wallet.held(held) > 0:
            transfers[len(events)] = wallet.move(held, PROMOTIONS, wallet.held(held), "guarantee unused: back to "
                                                 "promotions", d.spec.id, store=False)
        return transfers

    def full(self, events: list, transfers: dict[int, Any], now: float) -> TournamentStep | None:
        """What the recorder stores of the step, in one transaction: the hands it ended, all cards and their facts
        (SEC-1), and what changed in the director with the transfers (None: nothing a snapshot keeps changed);
        None when there is nothing to store. Once per step: the director's saved rows are what changed since."""
        d = self.director
        self.hall.feed.keep_hands(d, events)
        hands = tuple(self.hall.feed.ended_hands(d.spec.id))
        step = None if self._mid_hand(events) else (
            d.spec.id, d.spec.name, d.state, saved_state.step(d), self.hall.created_by.get(d.spec.id, ""),
            list(transfers.values()), now)
        if step is None and not _ends_hand(events):
            return None
        return TournamentStep(hands, step, d.spec.id)

    def _mid_hand(self, events: list) -> bool:
        """Only hands' events, each table still in its hand: nothing a snapshot keeps has changed."""
        if not events or not all(isinstance(e, _QUIET) for e in events):
            return False
        tables = [self.director.tables.get(table_id) for table_id in {e.table for e in events}]
        return all(t is not None and t.hand is not None for t in tables)

    def audiences(self, events: list) -> list[tuple[dict, Audiences | Told]]:
        """The step's frames, each with its head, as each audience may hear them (:mod:`~.feed`)."""
        return self.hall.feed.audiences(self.director, events)
