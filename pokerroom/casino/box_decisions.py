"""A blackjack table's decision ids: which decision a move answers, so a late or repeated move does nothing.

``<round>.i`` names the insurance decision, ``<round>.p<moves made>`` a play
decision on the box's active hand. A round number is never reused at a table
(CR-7) and each move adds one to the count, so an id names one decision of the
player; the same for everyone at an infinite blackjack table when the round's
decisions open (one ``decision_needed`` for all). Not a secret: only the
player's own box is ever moved, whatever id they send. Kept beside the table,
not in it, so the tables stay small (issue #35).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pokerroom.casino import blackjack_rules as bj
from pokerroom.casino.table import DECIDING, WAITING
from pokerroom.errors import RuleViolation

if TYPE_CHECKING:
    from pokerroom.casino.blackjack import BlackjackTable
    from pokerroom.casino.dealer import Box, DealerTable
    from pokerroom.casino.infinite_blackjack import InfiniteBlackjackTable

INSURANCE = "insurance"


class BoxDecisions:
    """The ids of a dealer table's decisions, and who may insure (BJ-8): what ``decision_of`` answers."""

    def __init__(self, table: DealerTable) -> None:
        self.table = table

    def insurance(self) -> str:
        return f"{self.table.number}.i"

    def play(self, box: Box) -> str:
        return f"{self.table.number}.p{box.moves}"

    def may_insure(self, box: Box) -> bool:
        table = self.table
        return bool(box.hands) and bj.may_insure(box.hands[0], table.dealer.cards[0], table.house) \
            and bj.insurance_cost(box.main.amount) > 0

    def of(self, player: str | None) -> str | None:
        """The id of ``player``'s decision now, or None: no decision of theirs is open."""
        table = self.table
        box = table.dealer.boxes.get(player or "")
        if box is None or table.phase not in (DECIDING, WAITING) or not box.hands:
            return None
        if table.dealer.step == INSURANCE:
            return self.insurance() if not box.answered and self.may_insure(box) else None
        if box.done or not self.deciding(box):
            return None
        return self.play(box)

    def deciding(self, box: Box) -> bool:
        """Whether the box's player may move now (live: their turn; infinite: until they finish)."""
        raise NotImplementedError

    def verify(self, player: str, decision: str | None) -> None:
        """A move naming a decision that is not the player's open one is refused (``stale_decision``)."""
        if decision is not None and decision != self.of(player):
            raise RuleViolation("stale_decision", "that decision is over: the move did nothing; decide on the "
                                                  "newest decision you were sent", f"{self.table.rule}-4")


class LiveDecisions(BoxDecisions):
    """Live blackjack: a box decides on its seat's turn only (BJ-4)."""

    table: BlackjackTable

    def deciding(self, box: Box) -> bool:
        dealer = self.table.dealer
        return dealer.turn is not None and dealer.seats_in_round.get(dealer.turn[0]) == box.player


class InfiniteDecisions(BoxDecisions):
    """Infinite blackjack: every box decides at once, until it finishes (IB-4)."""

    table: InfiniteBlackjackTable

    def deciding(self, box: Box) -> bool:
        return box in self.table.dealer.playing
