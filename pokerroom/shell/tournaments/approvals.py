"""An admin's approval of a guarantee above the limit, checked where the events are (STAFF-1).

The promotions desk asks it on ``tournament.<id>.command`` with an
:class:`~pokerroom.bus.records.ApproveGuarantee` naming the admin; the desk
checked the session's role, but a record on the bus may come from any
service, so every check that decides the approval is made again here, from
what the hall and the store hold: ``by``'s stored account is an open admin
one, ``by`` did not create the event, and the event's creator did not give
``by`` the role -- directly or through admins they made (creator -> A -> B)
-- within ``approver_cooling_hours``: a role change cannot make a new
approver for the creator's own event. A forged record approves no more than
the same admin's request through the gateway.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from twisted.internet import defer

from pokerroom import players
from pokerroom.bus.records import ApproveGuarantee
from pokerroom.errors import RuleViolation
from pokerroom.shell.promotions_desk import ADMIN
from tournament import director as td

if TYPE_CHECKING:
    from pokerroom.shell.tournaments.hall import TournamentHall


def made_by(creator: str | None, grants: list, since: float) -> set[str]:
    """Everyone ``creator``'s role grants after ``since`` reach, the creator too, as nickname keys."""
    recent = [(players.nickname_key(str(g.data.get("by", ""))), players.nickname_key(str(g.data.get("nickname",
              "")))) for g in grants if g.at > since]
    made = {players.nickname_key(creator)} if creator is not None else set()
    grown = True
    while grown:
        before = len(made)
        made |= {granted for by, granted in recent if by in made}
        grown = len(made) > before
    return made


def approved(hall: TournamentHall, d: td.Director, asked: ApproveGuarantee) -> defer.Deferred:
    """The approval, once ``asked.by``'s stored role and the role grants are read through the writer (it sees
    every write asked before); answered ``{"tournament": <its lobby summary>}``."""
    store, tid = hall.store, d.spec.id

    def gather() -> tuple[Any, list]:
        return (store.accounts.find_account(players.nickname_key(asked.by)),
                store.audit_log.audit_records("role_granted"))

    def checked(read: tuple[Any, list]) -> Any:
        account, grants = read
        if account is None or account.closed or account.role != ADMIN:
            raise RuleViolation("forbidden", "only an admin can approve a tournament's guarantee", "STAFF-1")
        creator, me = hall.created_by.get(tid), players.nickname_key(account.nickname)
        if creator is not None and players.nickname_key(creator) == me:     # no one approves their own house money
            raise RuleViolation("own_event", "an admin does not approve an event they created: another admin "
                                "approves it", "STAFF-1")
        hours = hall.bounds.approver_cooling_hours
        if me in made_by(creator, grants, hall.reactor.seconds() - hours * 3600):
            raise RuleViolation("granted_by_creator", f"{creator}, who created the event, gave you your role (or "
                                f"gave it to whoever did) less than {hours} hours ago: another admin approves it",
                                "STAFF-1")
        return hall.answered_here(d, {"tournament": hall.summary(hall.approve(tid, account.nickname, asked.reason))})

    return hall.recorder.write(gather, quiet=False).addCallback(checked)
