"""The house promotions account and the admin's say over house money in tournaments (STAFF-1).

Guarantees, overlays and freerolls are paid from ``house:promotions``, never
from ``world``. Only an admin fills it, by moving the house's own earnings
(rake, fees) or a house deposit into it, and only an admin approves an event
whose guarantee is above the limit a director may set alone -- never their
own event, nor one whose creator gave them a role within the cooling period
(``approver_cooling_hours``), so a role change cannot make a new approver --
and house deposits are bounded each, per admin per day and in total per day.
Each action, and each refusal of an admin's, is a chained audit record with
who, how much and why (SEC-4); a director is refused like any player.

The money is the table process's: a funding and the balances shown are asked
of the wallet desk (:mod:`pokerroom.shell.wallet_desk`), which repeats the
admin's role, the source's funds and the house deposits' bounds where the
money is; :func:`fund_promotions` is the move it (and a demo room's start)
makes. The events are the tournament hall's, also in the table process: an
approval is asked of it on ``tournament.<id>.command`` (an
:class:`~pokerroom.bus.records.ApproveGuarantee`, every STAFF-1 check made
again there) and the events awaiting one read from its lobby lines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from twisted.internet import defer
from twisted.python.failure import Failure

from pokerroom.bus.records import ApproveGuarantee, FundPromotions, HeldRead
from pokerroom.bus.subjects import WALLET_HELD, WALLET_PROMOTIONS
from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import HOUSE_FEES, HOUSE_RAKE, PROMOTIONS, WORLD, tournament_guarantee
from pokerroom.money.ledger import Transfer
from pokerroom.protocol.schema import Request, ok

if TYPE_CHECKING:
    from pokerroom.bus import Bus
    from pokerroom.shell.recorder import Recorder
    from pokerroom.shell.tournaments.hall_line import HallLine
    from pokerroom.shell.wallet import Wallet

SOURCES = {HOUSE_RAKE: HOUSE_RAKE, HOUSE_FEES: HOUSE_FEES, "deposit": WORLD}   # earnings by account name
ADMIN = "admin"


def fund_promotions(wallet: Wallet, recorder: Recorder, source: str, amount: int, by: str, reason: str, *,
                    at_once: bool = False) -> Transfer | defer.Deferred:
    """Move house money into promotions: earnings (``house:rake``, ``house:fees``) or a house ``deposit``; audited
    once it moved (with a money thread: a Deferred of the transfer, the locked move off the reactor; ``at_once``:
    on the calling thread, moved when this returns -- a demo room's start, before anything reads promotions)."""
    account = SOURCES[source]
    why = "deposit" if account == WORLD else "promotions funded"   # world moves only for deposits (STAFF-1)

    def audited(t: Transfer) -> Transfer:
        recorder.audit("promotions_funded", by=by, source=source, amount=amount, reason=reason, transfer=t.number,
                       balance=wallet.held(PROMOTIONS))
        return t

    moved = (wallet.move if at_once else wallet.moved)(account, PROMOTIONS, amount, why, f"promotions by {by}")
    return moved.addCallback(audited) if isinstance(moved, defer.Deferred) else audited(moved)


class PromotionsDesk:
    """The admin's requests: fund promotions, approve a large guarantee, see both."""

    def __init__(self, bus: Bus, recorder: Recorder, line: HallLine) -> None:
        self.bus = bus                              # the house's money moves and the balances shown: the wallet desk
        self.recorder = recorder                    # the audit log of the refusals
        self.line = line                            # the events and their approval: the tournament hall

    @staticmethod
    def _verify_admin(session: Any, what: str) -> None:
        if session.role != ADMIN:
            raise RuleViolation("forbidden", f"only an admin can {what}", "STAFF-1")

    def _audited(self, session: Any, command: str, refusal: RuleViolation, **details: Any) -> RuleViolation:
        """An admin's request refused: the refusal is audited too (who tried what), then answered."""
        self.recorder.audit("staff_refused", by=session.player_id, command=command, code=refusal.code,
                            reason=refusal.message, **details)
        return refusal

    def _on_admin_fund_promotions(self, session: Any, request: Request, source: str, amount: int,
                                  reason: str) -> defer.Deferred:
        """Asked of the wallet desk, which reads the admin's role, the source's funds and the house deposits' bounds
        again where the money is; a refusal is audited here, with who tried what."""
        self._verify_admin(session, "move house money into promotions")
        d = self.bus.request(WALLET_PROMOTIONS, FundPromotions(source, amount, session.player_id, reason))

        def refused(failure: Failure) -> Failure:
            if failure.check(RuleViolation):
                raise self._audited(session, "admin_fund_promotions", failure.value, source=source, amount=amount)
            return failure

        return d.addCallbacks(lambda funded: ok(request, **funded), refused)

    def _on_admin_approve_tournament(self, session: Any, request: Request, tournament: str,
                                     reason: str) -> defer.Deferred:
        """Asked of the hall, which reads the admin's role, the event's creator and the role grants again where the
        events are (:mod:`pokerroom.shell.tournaments.approvals`); a refusal is audited here, with who tried what."""
        self._verify_admin(session, "approve a tournament's guarantee")
        d = self.line.command(tournament, ApproveGuarantee(session.player_id, reason))

        def refused(failure: Failure) -> Failure:
            if failure.check(RuleViolation):
                raise self._audited(session, "admin_approve_tournament", failure.value, tournament=tournament)
            return failure

        return d.addCallbacks(lambda approved: ok(request, **approved), refused)

    def _on_admin_promotions(self, session: Any, request: Request) -> defer.Deferred:
        """The promotions balance, what each open event holds of it, and the events awaiting approval: the events
        are the hall's lobby lines (``tournaments.list``), the balances the wallet desk's."""
        self._verify_admin(session, "see the promotions account")
        d = self.line.listed(None)

        def ask_held(listed: dict) -> defer.Deferred:
            lines = sorted(listed["tournaments"], key=lambda line: line["id"])
            events = [line["id"] for line in lines]
            waiting = [line["id"] for line in lines if line["awaiting_approval"]]
            asked = self.bus.request(WALLET_HELD, HeldRead((PROMOTIONS, *(tournament_guarantee(t) for t in events))))
            return asked.addCallback(shown, events, waiting)

        def shown(read: dict, events: list[str], waiting: list[str]) -> dict:
            held = read["held"]
            by_event = {t: held[tournament_guarantee(t)] for t in events}
            return ok(request, balance=held[PROMOTIONS], held={t: v for t, v in by_event.items() if v},
                      awaiting_approval=waiting)

        return d.addCallback(ask_held)
