"""The directors' one role check and one audited record, for every director's command (tournaments and cash
tables alike, SEC-1)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pokerroom import players
from pokerroom.errors import RuleViolation

if TYPE_CHECKING:
    from pokerroom.gateway.sessions import Session
    from pokerroom.shell.recorder import Recorder


def verify_director(session: Session) -> None:
    """Refuse anyone without a director's role."""
    if session.role not in players.DIRECTOR_ROLES:
        raise RuleViolation("forbidden", "only a tournament director can do that")


def directed(recorder: Recorder, session: Session, command: str, tournament: str = "", **details: Any) -> str:
    """Refuse anyone without the role; record the command in the audit log with who, when and why (SEC-1)."""
    verify_director(session)
    recorder.audit("director_command", command=command, tournament=tournament, by=session.player_id, **details)
    return session.player_id
