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
makes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from twisted.internet import defer
from twisted.internet.interfaces import IReactorTime
from twisted.python.failure import Failure

from pokerroom import players
from pokerroom.bus.records import FundPromotions, HeldRead
from pokerroom.bus.subjects import WALLET_HELD, WALLET_PROMOTIONS
from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import HOUSE_FEES, HOUSE_RAKE, PROMOTIONS, WORLD, tournament_guarantee
from pokerroom.money.ledger import Transfer
from pokerroom.protocol.schema import Request, ok

if TYPE_CHECKING:
    from pokerroom.bus import Bus
    from pokerroom.shell.recorder import Recorder
    from pokerroom.shell.wallet import Wallet
    from pokerroom.store.room_store import RoomStore
    from tournament.bounds import EventBounds
    from tournament.director import Director

SOURCES = {HOUSE_RAKE: HOUSE_RAKE, HOUSE_FEES: HOUSE_FEES, "deposit": WORLD}   # earnings by account name
ADMIN = "admin"


class Guarantees(Protocol):
    """What the admin's approval asks of the tournament hall: its events, who made each, the STAFF-1 bounds,
    and the approval itself."""

    bounds: EventBounds
    directors: dict[str, Director]
    created_by: dict[str, str]

    def director(self, tournament: str) -> Director: ...

    def approve(self, tid: str, by: str, reason: str) -> Director: ...

    def summary(self, d: Director) -> dict: ...


def fund_promotions(wallet: Wallet, recorder: Recorder, source: str, amount: int, by: str, reason: str) -> Transfer:
    """Move house money into promotions: earnings (``house:rake``, ``house:fees``) or a house ``deposit``."""
    account = SOURCES[source]
    why = "deposit" if account == WORLD else "promotions funded"   # world moves only for deposits (STAFF-1)
    t = wallet.move(account, PROMOTIONS, amount, why, f"promotions by {by}")      # stored and flagged
    recorder.audit("promotions_funded", by=by, source=source, amount=amount, reason=reason, transfer=t.number,
                   balance=wallet.held(PROMOTIONS))
    return t


class PromotionsDesk:
    """The admin's requests: fund promotions, approve a large guarantee, see both."""

    def __init__(self, reactor: IReactorTime, store: RoomStore, bus: Bus, recorder: Recorder,
                 hall: Guarantees) -> None:
        self.reactor = reactor
        self.store = store
        self.bus = bus                              # the house's money moves and the balances shown: the wallet desk
        self.recorder = recorder                    # the audit log, and the role grants read through the writer
        self.hall = hall

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

    def _on_admin_approve_tournament(self, session: Any, request: Request, tournament: str, reason: str) -> Any:
        self._verify_admin(session, "approve a tournament's guarantee")
        self.hall.director(tournament)
        creator = self.hall.created_by.get(tournament)
        if creator == session.player_id:                  # no one approves their own house money
            raise self._audited(session, "admin_approve_tournament", RuleViolation(
                "own_event", "an admin does not approve an event they created: another admin approves it",
                "STAFF-1"), tournament=tournament)
        d = self.recorder.write(self.store.audit_log.audit_records, "role_granted", quiet=False)
        return d.addCallback(lambda grants: self._approve(session, request, tournament, reason, creator, grants))

    def _approve(self, session: Any, request: Request, tournament: str, reason: str, creator: str | None,
                 grants: list) -> dict:
        """Approved by an admin whose role the event's creator did not give within the cooling period, directly
        or through admins the creator made (creator -> A -> B): a role change cannot make a new approver for the
        creator's own event."""
        me, since = players.nickname_key(session.player_id), self.reactor.seconds()
        since -= self.hall.bounds.approver_cooling_hours * 3600
        recent = [(players.nickname_key(str(g.data.get("by", ""))), players.nickname_key(str(g.data.get("nickname",
                  "")))) for g in grants if g.at > since]
        made = {players.nickname_key(creator)} if creator is not None else set()
        grown = True
        while grown:                                        # everyone the creator's grants reach, in the window
            before = len(made)
            made |= {granted for by, granted in recent if by in made}
            grown = len(made) > before
        if me in made:
            raise self._audited(session, "admin_approve_tournament", RuleViolation(
                "granted_by_creator", f"{creator}, who created the event, gave you your role (or gave it to whoever "
                f"did) less than {self.hall.bounds.approver_cooling_hours} hours ago: another admin approves it",
                "STAFF-1"),
                tournament=tournament)
        d = self.hall.approve(tournament, session.player_id, reason)
        return ok(request, tournament=self.hall.summary(d))

    def _on_admin_promotions(self, session: Any, request: Request) -> defer.Deferred:
        """The promotions balance, what each open event holds of it, and the events awaiting approval."""
        self._verify_admin(session, "see the promotions account")
        events = sorted(self.hall.directors)
        waiting = sorted(t for t, d in self.hall.directors.items() if d.awaiting_approval)
        d = self.bus.request(WALLET_HELD, HeldRead((PROMOTIONS, *(tournament_guarantee(t) for t in events))))

        def shown(read: dict) -> dict:
            held = read["held"]
            by_event = {t: held[tournament_guarantee(t)] for t in events}
            return ok(request, balance=held[PROMOTIONS], held={t: v for t, v in by_event.items() if v},
                      awaiting_approval=waiting)

        return d.addCallback(shown)
