"""Deals between the finalists (TR-DEAL): a part of the director.

A mix-in of :class:`~tournament.director.Director`, which holds the state it reads and
writes; split out so each part of the director is one module with one job.
"""

from __future__ import annotations

from pokerroom.errors import RuleViolation
from tournament import deals
from tournament.accounts import (
    ROUNDING,
)
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


class DealDesk:
    """A deal proposed, offered once every table is between hands, answered, approved and made."""

    def propose_deal(self, player: str, kind: str, left_to_play_for: int = 0) -> list:
        """TR-DEAL-1: any remaining player; play pauses; the offer goes out once every table is between hands."""
        if not self.spec.deals:
            raise RuleViolation("deals_not_allowed", f"{self.spec.name} does not allow deals", "TR-DEAL-1")
        self._live_entry(player)
        if self.pending_deal is not None:
            raise RuleViolation("deal_pending", "a deal is already on the table", "TR-DEAL-1")
        if not self.in_money:
            raise RuleViolation("deal_before_money", "deals are made in the money", "TR-DEAL-1")
        if any(place <= len(self.entries) for place in self.substitutes):
            raise RuleViolation("deal_with_package", "a substituted prize is still to be won: it cannot be shared in a "
                                "deal", "TR-PRIZE-4")
        if kind not in deals.KINDS:
            raise RuleViolation("bad_deal", f"a deal is {' or '.join(deals.KINDS)}, not {kind!r}", "TR-DEAL-1")
        self.pending_deal = Deal(kind, left_to_play_for, player)
        self._emit(DealProposed(player, kind, left_to_play_for))
        self._offer_deal_if_ready()
        return self._flush()

    def _offer_deal_if_ready(self) -> None:
        deal = self.pending_deal
        if deal is None or deal.offer is not None or any(t.in_hand for t in self.tables.values()):
            return
        players = tuple(self.entries)
        stacks = [self.chips(p) for p in players]
        unpaid = deals.remaining_prizes(self.prizes or (), len(players))
        try:
            deal.offer = deals.offer(deal.kind, stacks, unpaid, left_to_play_for=deal.left_to_play_for,
                                     remainder_to_top=self.spec.remainder_to_top)
        except (deals.DealError, ICMError) as e:
            self.pending_deal = None
            self._emit(DealFailed(str(e)))
            return
        deal.players = players
        amounts = dict(zip(players, deal.offer.amounts, strict=True))
        self._emit(DealOffered(deal.kind, amounts, deal.left_to_play_for, deal.offer.remainder,
                               self.spec.deal_seconds))

    def answer_deal(self, player: str, accept: bool) -> list:
        deal = self.pending_deal
        if self.state != RUNNING or deal is None or deal.offer is None or player not in deal.players:
            raise RuleViolation("no_deal", f"there is no deal offered to {player}", "TR-DEAL-1")
        if player in deal.accepted:
            raise RuleViolation("already_answered", f"{player} has already accepted this deal", "TR-DEAL-1")
        self._emit(DealAnswered(player, accept))
        if not accept:
            self.pending_deal = None
            self._emit(DealFailed(f"{player} declined"))
            return self._flush()
        deal.accepted.add(player)
        if len(deal.accepted) == len(deal.players):
            if self.spec.director_approves_deals:
                self._emit(DealAwaitingApproval(dict(zip(deal.players, deal.offer.amounts, strict=True)),
                                                deal.left_to_play_for))
            else:
                self._make_deal(deal)
        return self._flush()

    def decide_deal(self, approve: bool, by: str, reason: str) -> list:
        """The director approves a deal every player accepted, or cancels a deal at any point; play resumes."""
        deal = self.pending_deal
        if self.state != RUNNING or deal is None:
            raise RuleViolation("no_deal", "there is no deal to approve or cancel", "TR-DEAL-1")
        if not approve:
            self.pending_deal = None
            self._emit(DealFailed(f"cancelled by {by}: {reason}"))
        elif deal.offer is None or len(deal.accepted) < len(deal.players):
            raise RuleViolation("deal_not_agreed", "a deal is approved once every remaining player has accepted it",
                                "TR-DEAL-1")
        else:
            self._make_deal(deal)
        return self._flush()

    def deal_expired(self) -> list:
        """TR-DEAL-1: not everyone accepted in time; play resumes."""
        deal = self.pending_deal
        if self.state != RUNNING or deal is None or (deal.players and len(deal.accepted) == len(deal.players)):
            raise RuleViolation("no_deal", "there is no deal pending", "TR-DEAL-1")
        self.pending_deal = None
        self._emit(DealFailed("time ran out"))
        return self._flush()

    def _make_deal(self, deal: Deal) -> None:
        offer = deal.offer
        amounts = dict(zip(deal.players, offer.amounts, strict=True))
        self.pending_deal = None
        self._emit(DealMade(amounts, offer.left_to_play_for))
        for player, amount in amounts.items():
            self.prizes_paid += amount
            self._pay_player(self.entries[player], self.pool, amount, "tournament deal")
        self._pay(self.pool, ROUNDING, offer.remainder, "deal rounding")
        k = len(deal.players)
        self.prizes = (offer.left_to_play_for,) + (0,) * (k - 1) + (self.prizes or ())[k:]
        self.deal_made = True
        if not offer.left_to_play_for:
            self._finish()
