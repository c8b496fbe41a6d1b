"""Directors' invitations to paid tournaments: the player's own acceptance is what pays (STAFF-2).

A director may enter a player directly only into a free event; into a paid one
they invite, and only the player's answer moves their money. The book bounds
what a director can send -- one open invitation per player and event, none
again to an event the player declined, and a cap per event and per player -- so
invitations cannot be used to flood anyone. Pure and in memory: tournaments do
not outlive a restart (TR-REFUND), and neither do their invitations; the audit
log keeps who invited whom, why, and the answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pokerroom.errors import RuleViolation

OPEN_PER_EVENT = 200                    # open invitations to one event at most
OPEN_PER_PLAYER = 10                    # open invitations one player holds at most


@dataclass(frozen=True, slots=True)
class Invitation:
    tournament: str
    player: str
    by: str                             # the director who sent it
    reason: str
    at: float
    entry_cost: int                     # what accepting pays, as the player was told
    offer: Any = None                   # the whole event as offered (its spec: buy-in, fee, stack, structure)

    def to_wire(self, name: str) -> dict:
        offer = self.offer
        return {"tournament": self.tournament, "name": name, "player": self.player, "by": self.by,
                "reason": self.reason, "at": self.at, "entry_cost": self.entry_cost,
                "buy_in": getattr(offer, "buy_in", self.entry_cost), "fee": getattr(offer, "fee", 0),
                "starting_stack": getattr(offer, "starting_stack", 0)}

    def still_offered(self, offer: Any) -> bool:
        """Whether ``offer`` (the event now) is exactly what the player was invited to: price, stack, structure."""
        return offer == self.offer if self.offer is not None else getattr(offer, "entry_cost", None) == self.entry_cost


class InvitationBook:
    def __init__(self, per_event: int = OPEN_PER_EVENT, per_player: int = OPEN_PER_PLAYER) -> None:
        self.per_event = per_event
        self.per_player = per_player
        self.open: dict[tuple[str, str], Invitation] = {}         # (tournament, player) -> invitation
        self.declined: set[tuple[str, str]] = set()
        self.outdated: set[tuple[str, str]] = set()                # withdrawn by an edit, not yet answered

    def add(self, invitation: Invitation) -> None:
        key = (invitation.tournament, invitation.player)
        if key in self.open:
            raise RuleViolation("already_invited", f"{invitation.player} already has an invitation to "
                                f"{invitation.tournament}", "STAFF-2")
        if key in self.declined:
            raise RuleViolation("invitation_declined", f"{invitation.player} declined an invitation to "
                                f"{invitation.tournament}; it is not sent again", "STAFF-2")
        if sum(t == invitation.tournament for t, _ in self.open) >= self.per_event:
            raise RuleViolation("too_many_invitations", f"{invitation.tournament} has {self.per_event} open "
                                "invitations, the most it may have", "STAFF-2")
        if len(self.of(invitation.player)) >= self.per_player:
            raise RuleViolation("too_many_invitations", f"{invitation.player} holds {self.per_player} open "
                                "invitations, the most a player may hold", "STAFF-2")
        self.outdated.discard(key)
        self.open[key] = invitation

    def of(self, player: str) -> list[Invitation]:
        return [i for (_, p), i in self.open.items() if p == player]

    def get(self, tournament: str, player: str) -> Invitation:
        invitation = self.open.get((tournament, player))
        if invitation is None and (tournament, player) in self.outdated:
            self.outdated.discard((tournament, player))
            raise RuleViolation("invitation_outdated", f"{tournament} was changed after you were invited: the "
                                "invitation is withdrawn", "STAFF-2")
        if invitation is None:
            raise RuleViolation("no_invitation", f"you have no open invitation to {tournament}", "STAFF-2")
        return invitation

    def answered(self, invitation: Invitation, accepted: bool) -> None:
        """The player's answer closes it; a declined one is not sent again."""
        key = (invitation.tournament, invitation.player)
        del self.open[key]
        if not accepted:
            self.declined.add(key)

    def withdraw_one(self, invitation: Invitation) -> None:
        """Close it without an answer (it no longer says what accepting costs): it may be sent again."""
        self.drop(invitation.tournament, invitation.player)

    def drop(self, tournament: str, player: str) -> None:
        """Close ``player``'s invitation to ``tournament``, if any, without an answer."""
        self.open.pop((tournament, player), None)

    def withdraw(self, tournament: str) -> list[Invitation]:
        """Close every open invitation to ``tournament`` (it started, finished or was cancelled)."""
        gone = [i for (t, _), i in self.open.items() if t == tournament]
        for invitation in gone:
            del self.open[(tournament, invitation.player)]
        return gone

    def outdate(self, tournament: str) -> list[Invitation]:
        """The event changed (any of its offer): every open invitation to it is withdrawn, and an answer to one is
        refused as outdated rather than paid."""
        gone = self.withdraw(tournament)
        self.outdated |= {(i.tournament, i.player) for i in gone}
        return gone

    def forget(self, tournament: str) -> None:
        """A finished event's declined answers are no longer needed."""
        self.withdraw(tournament)
        self.declined = {k for k in self.declined if k[0] != tournament}
        self.outdated = {k for k in self.outdated if k[0] != tournament}
