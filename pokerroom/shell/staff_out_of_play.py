"""Security and admin accounts do not play (SEC-2): a promotion waits until the player is out of play, and one
made anyway (``pokerroom role``, another process) takes them out of play safely.

Where a player is in play is asked of the room's cash tables (a seat, a waiting list) and of whatever the
composed services registered in :attr:`~pokerroom.shell.session_watch.SessionWatch.play_checks` (the casino
floor's open bets, the tournament hall's entries).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from twisted.logger import Logger

from pokerroom.errors import RuleViolation
from pokerroom.players import SECURITY_ROLES
from pokerroom.table.commands import Leave, LeaveWaitingList

if TYPE_CHECKING:
    from pokerroom.shell.table_host import TableRunner

log = Logger()


class CashTables(Protocol):
    """What is asked of the room's cash tables: each one's runner, and a command to one (the table host's)."""

    runners: dict[str, TableRunner]

    def command(self, runner: TableRunner, name: str, *args: Any, **kwargs: Any) -> list: ...


def where_playing(room: CashTables, elsewhere: Mapping[str, Callable[[str], bool]], player: str) -> str | None:
    """Where ``player`` is in play, in a few words; None when nowhere."""
    for table_id, runner in sorted(room.runners.items()):
        if runner.table.seat_of(player) is not None:
            return f"is seated at {table_id}"
        if player in runner.table.waiting_list:
            return f"is on the waiting list of {table_id}"
    for where, playing in elsewhere.items():
        if playing(player):
            return where
    return None


def refuse_if_playing(room: CashTables, elsewhere: Mapping[str, Callable[[str], bool]], player: str,
                      role: str) -> None:
    """An admin may not make a player in play a security or admin account (SEC-2)."""
    if role not in SECURITY_ROLES:
        return
    where = where_playing(room, elsewhere, player)
    if where is not None:
        raise RuleViolation("player_busy", f"{player} {where}: security and admin accounts do not play, so give "
                                           f"them the {role} role once they have left play", "SEC-2")


def leave_play(room: CashTables, player: str) -> None:
    """A player who became staff stands up from every cash table (after the hand, as a leave does) and leaves
    every waiting list. Tournament entries stay (the chips are the event's); no new seat or entry is allowed."""
    for runner in list(room.runners.values()):
        table = runner.table
        try:
            if player in table.waiting_list:
                room.command(runner, LeaveWaitingList(player))
            seated = table.player(player) if table.seat_of(player) is not None else None
            if seated is not None and not seated.leaving:
                room.command(runner, Leave(player))
        except RuleViolation:
            log.warn("{player} became staff but could not leave {table}", player=player,
                                        table=table.rules.table_id)
