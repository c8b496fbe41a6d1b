"""The house promotions account and the admin's say over house money in tournaments (STAFF-1).

Guarantees, overlays and freerolls are paid from ``house:promotions``, never
from ``world``. Only an admin fills it, by moving the house's own earnings
(rake, fees) or a house deposit into it, and only an admin approves an event
whose guarantee is above the limit a director may set alone -- never their
own event -- and one house deposit is bounded. Each action is
a chained audit record with who, how much and why (SEC-4); a director is
refused like any player.
"""

from __future__ import annotations

from typing import Any

from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import HOUSE_FEES, HOUSE_RAKE, PROMOTIONS, WORLD, tournament_guarantee
from pokerroom.money.ledger import Transfer
from pokerroom.protocol.schema import Request, ok

SOURCES = {HOUSE_RAKE: HOUSE_RAKE, HOUSE_FEES: HOUSE_FEES, "deposit": WORLD}   # earnings by account name
ADMIN = "admin"


def fund_promotions(room: Any, source: str, amount: int, by: str, reason: str) -> Transfer:
    """Move house money into promotions: earnings (``house:rake``, ``house:fees``) or a house ``deposit``."""
    account = SOURCES[source]
    why = "deposit" if account == WORLD else "promotions funded"   # world moves only for deposits (STAFF-1)
    t = room.ledger.move(account, PROMOTIONS, amount, why, f"promotions by {by}", room.reactor.seconds())
    room.record_transfers(t)
    room.audit("promotions_funded", by=by, source=source, amount=amount, reason=reason, transfer=t.number,
               balance=room.ledger.balance(PROMOTIONS))
    return t


class PromotionsDesk:
    """The admin's requests: fund promotions, approve a large guarantee, see both."""

    def __init__(self, room: Any, hall: Any) -> None:
        self.room = room
        self.hall = hall

    @staticmethod
    def _verify_admin(session: Any, what: str) -> None:
        if session.role != ADMIN:
            raise RuleViolation("forbidden", f"only an admin can {what}", "STAFF-1")

    def _on_admin_fund_promotions(self, session: Any, request: Request, source: str, amount: int,
                                  reason: str) -> dict:
        self._verify_admin(session, "move house money into promotions")
        have = self.room.ledger.balance(SOURCES[source])
        bound = self.hall.bounds.max_house_deposit
        if source == "deposit" and amount > bound:             # world moves; an admin is trusted only this far
            raise RuleViolation("over_limit", f"one house deposit is at most {bound}, not {amount}: fund in parts, "
                                "each audited", "STAFF-1")
        if source != "deposit" and have < amount:
            raise RuleViolation("insufficient_funds", f"{source} holds {have}, not {amount}", "STAFF-1")
        t = fund_promotions(self.room, source, amount, session.player_id, reason)
        return ok(request, transfer=t.number, balance=self.room.ledger.balance(PROMOTIONS))

    def _on_admin_approve_tournament(self, session: Any, request: Request, tournament: str, reason: str) -> dict:
        self._verify_admin(session, "approve a tournament's guarantee")
        self.hall.director(tournament)
        if self.hall.created_by.get(tournament) == session.player_id:     # no one approves their own house money
            raise RuleViolation("own_event", "an admin does not approve an event they created: another admin "
                                "approves it", "STAFF-1")
        d = self.hall.approve(tournament, session.player_id, reason)
        return ok(request, tournament=self.hall.summary(d))

    def _on_admin_promotions(self, session: Any, request: Request) -> dict:
        """The promotions balance, what each open event holds of it, and the events awaiting approval."""
        self._verify_admin(session, "see the promotions account")
        ledger = self.room.ledger
        held = {tid: ledger.balance(tournament_guarantee(tid)) for tid in self.hall.directors}
        return ok(request, balance=ledger.balance(PROMOTIONS), held={t: v for t, v in held.items() if v},
                  awaiting_approval=sorted(t for t, d in self.hall.directors.items() if d.awaiting_approval))
