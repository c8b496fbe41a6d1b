"""Deals between the finalists (TR-DEAL): a part of the director.

``director.deal_desk``: it keeps the deal on the table (proposed, offered,
answered) and whether one was made; a deal pauses play, so the director asks
it before any table deals. The prizes a deal pays are the eliminations'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pokerroom.errors import RuleViolation
from tournament import deals
from tournament.entries import RUNNING, Deal
from tournament.events import (
    DealAnswered,
    DealAwaitingApproval,
    DealFailed,
    DealMade,
    DealOffered,
    DealProposed,
)
from tournament.icm import ICMError

if TYPE_CHECKING:
    from tournament.director import Director


class DealDesk:
    """A deal proposed, offered once every table is between hands, answered, approved and made."""

    def __init__(self, director: Director) -> None:
        self.director = director
        self.pending_deal: Deal | None = None
        self.deal_made = False

    def call_off(self) -> None:
        """The tournament was cancelled: no deal is pending."""
        self.pending_deal = None

    def propose_deal(self, player: str, kind: str, left_to_play_for: int = 0) -> list:
        """TR-DEAL-1: any remaining player; play pauses; the offer goes out once every table is between hands."""
        d = self.director
        if not d.spec.deals:
            raise RuleViolation("deals_not_allowed", f"{d.spec.name} does not allow deals", "TR-DEAL-1")
        d.live_entry(player)
        if self.pending_deal is not None:
            raise RuleViolation("deal_pending", "a deal is already on the table", "TR-DEAL-1")
        if not d.eliminations.in_money:
            raise RuleViolation("deal_before_money", "deals are made in the money", "TR-DEAL-1")
        if any(place <= len(d.entries) for place in d.eliminations.substitutes):
            raise RuleViolation("deal_with_package", "a substituted prize is still to be won: it cannot be shared in a "
                                "deal", "TR-PRIZE-4")
        if kind not in deals.KINDS:
            raise RuleViolation("bad_deal", f"a deal is {' or '.join(deals.KINDS)}, not {kind!r}", "TR-DEAL-1")
        self.pending_deal = Deal(kind, left_to_play_for, player)
        d.emit(DealProposed(player, kind, left_to_play_for))
        self.offer_if_ready()
        return d.flush()

    def offer_if_ready(self) -> None:
        d = self.director
        deal = self.pending_deal
        if deal is None or deal.offer is not None or any(t.in_hand for t in d.tables.values()):
            return
        players = tuple(d.entries)
        stacks = [d.chips(p) for p in players]
        unpaid = deals.remaining_prizes(d.eliminations.prizes or (), len(players))
        try:
            deal.offer = deals.offer(deal.kind, stacks, unpaid, left_to_play_for=deal.left_to_play_for,
                                     remainder_to_top=d.spec.remainder_to_top)
        except (deals.DealError, ICMError) as e:
            self.pending_deal = None
            d.emit(DealFailed(str(e)))
            return
        deal.players = players
        amounts = dict(zip(players, deal.offer.amounts, strict=True))
        d.emit(DealOffered(deal.kind, amounts, deal.left_to_play_for, deal.offer.remainder,
                           d.spec.deal_seconds))

    def answer_deal(self, player: str, accept: bool) -> list:
        d = self.director
        deal = self.pending_deal
        if d.state != RUNNING or deal is None or deal.offer is None or player not in deal.players:
            raise RuleViolation("no_deal", f"there is no deal offered to {player}", "TR-DEAL-1")
        if player in deal.accepted:
            raise RuleViolation("already_answered", f"{player} has already accepted this deal", "TR-DEAL-1")
        d.emit(DealAnswered(player, accept))
        if not accept:
            self.pending_deal = None
            d.emit(DealFailed(f"{player} declined"))
            return d.flush()
        deal.accepted.add(player)
        if len(deal.accepted) == len(deal.players):
            if d.spec.director_approves_deals:
                d.emit(DealAwaitingApproval(dict(zip(deal.players, deal.offer.amounts, strict=True)),
                                            deal.left_to_play_for))
            else:
                self._make_deal(deal)
        return d.flush()

    def decide_deal(self, approve: bool, by: str, reason: str) -> list:
        """The director approves a deal every player accepted, or cancels a deal at any point; play resumes."""
        d = self.director
        deal = self.pending_deal
        if d.state != RUNNING or deal is None:
            raise RuleViolation("no_deal", "there is no deal to approve or cancel", "TR-DEAL-1")
        if not approve:
            self.pending_deal = None
            d.emit(DealFailed(f"cancelled by {by}: {reason}"))
        elif deal.offer is None or len(deal.accepted) < len(deal.players):
            raise RuleViolation("deal_not_agreed", "a deal is approved once every remaining player has accepted it",
                                "TR-DEAL-1")
        else:
            self._make_deal(deal)
        return d.flush()

    def deal_expired(self) -> list:
        """TR-DEAL-1: not everyone accepted in time; play resumes."""
        d = self.director
        deal = self.pending_deal
        if d.state != RUNNING or deal is None or (deal.players and len(deal.accepted) == len(deal.players)):
            raise RuleViolation("no_deal", "there is no deal pending", "TR-DEAL-1")
        self.pending_deal = None
        d.emit(DealFailed("time ran out"))
        return d.flush()

    def _make_deal(self, deal: Deal) -> None:
        d = self.director
        offer = deal.offer
        amounts = dict(zip(deal.players, offer.amounts, strict=True))
        self.pending_deal = None
        d.emit(DealMade(amounts, offer.left_to_play_for))
        d.eliminations.pay_deal(amounts, offer.remainder, offer.left_to_play_for)
        self.deal_made = True
        if not offer.left_to_play_for:
            d.eliminations.finish()
