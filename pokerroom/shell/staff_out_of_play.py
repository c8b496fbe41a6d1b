"""Security and admin accounts do not play (SEC-2): a promotion waits until the player is out of play, and one
made anyway (``pokerroom role``, another process) takes them out of play safely.

Where a player is in play is asked: of the cash tables' host (``tables.where``: a seat, a waiting list), then on
each subject the root registered in :attr:`~pokerroom.shell.session_watch.SessionWatch.play_checks` (the casino
floor's open bets on ``casino.playing``, the tournament hall's entries on ``tournaments.playing``:
:mod:`pokerroom.shell.in_play`).
"""

from __future__ import annotations

from collections.abc import Mapping

from twisted.internet import defer
from twisted.logger import Logger
from twisted.python.failure import Failure

from pokerroom.bus import Bus, NoResponder
from pokerroom.bus.records import WhereRead
from pokerroom.bus.subjects import CASH_TABLES_WHERE, table_command
from pokerroom.errors import RuleViolation
from pokerroom.players import SECURITY_ROLES
from pokerroom.shell.every_node import AT_TABLES, ask_every_node
from pokerroom.shell.in_play import ask_in_play
from pokerroom.table.commands import Leave, LeaveWaitingList

log = Logger()


def where_playing(bus: Bus, elsewhere: Mapping[str, str], player: str) -> defer.Deferred:
    """Fires with where ``player`` is in play, in a few words, or None when nowhere: the cash tables' answer to
    ``tables.where`` first, then each other place in play (``elsewhere``: the words, and the subject answering an
    :class:`~pokerroom.bus.records.InPlayRead` there), asked in turn."""
    places = list(elsewhere.items())

    def at_tables(at: dict) -> str | defer.Deferred | None:
        if at["seated"]:
            return f"is seated at {at['seated'][0]}"
        if at["waiting"]:
            return f"is on the waiting list of {at['waiting'][0]}"
        return beyond(0)

    def beyond(index: int) -> defer.Deferred | None:
        if index == len(places):
            return None
        where, subject = places[index]
        return ask_in_play(bus, subject, player).addCallback(lambda playing: where if playing else beyond(index + 1))

    return ask_every_node(bus, CASH_TABLES_WHERE, WhereRead(player), AT_TABLES, whole=True).addCallback(at_tables)


def refuse_if_playing(bus: Bus, elsewhere: Mapping[str, str], player: str, role: str) -> defer.Deferred:
    """An admin may not make a player in play a security or admin account (SEC-2): fires once the player is out
    of play, fails ``player_busy`` if not. Every place in play is another process's, so each is asked: the cash
    tables' host (``tables.where``), then the subjects ``elsewhere`` names (the floor's, the hall's)."""
    if role not in SECURITY_ROLES:
        return defer.succeed(None)

    def refuse(where: str | None) -> None:
        if where is not None:
            raise RuleViolation("player_busy", f"{player} {where}: security and admin accounts do not play, so "
                                               f"give them the {role} role once they have left play", "SEC-2")

    return where_playing(bus, elsewhere, player).addCallback(refuse)


def leave_play(bus: Bus, player: str) -> defer.Deferred:
    """A player who became staff stands up from every cash table (after the hand, as a leave does) and leaves
    every waiting list. Tournament entries stay (the chips are the event's); no new seat or entry is allowed.

    The tables are another process's: where the player is is asked (``tables.where``), and each leave is a
    command sent as a request to the table (``table.<id>.command``)."""
    def where(at: dict) -> defer.Deferred:
        leaving = set(at["leaving"])
        asked = [(table_id, LeaveWaitingList(player)) for table_id in at["waiting"]] + \
            [(table_id, Leave(player)) for table_id in at["seated"] if table_id not in leaving]
        return defer.DeferredList([bus.request(table_command(table_id), command).addErrback(refused, table_id)
                                   for table_id, command in asked])

    def refused(failure: Failure, table_id: str) -> None:
        failure.trap(RuleViolation, NoResponder)
        log.warn("{player} became staff but could not leave {table}", player=player, table=table_id)

    return ask_every_node(bus, CASH_TABLES_WHERE, WhereRead(player), AT_TABLES).addCallback(where)
