"""Chat at a tournament table, the hall's side: what a line needs of the table, and the line kept and shown.

The director knows the table's seats and its hand in play -- dealt here or sent to another process
(``play_hands = "anywhere"``: the hand's id and who is dealt in travel with the plan kept as the table's
``away``) -- so a line is read and kept here, whichever process plays the hand: the process playing it
never sees chat. The checks every table's chat makes (mutes, the filter, the pace) are the gateway's side's
(:mod:`~pokerroom.shell.tournaments.chat_requests`, through :class:`~pokerroom.shell.chat_conduct.ChatConduct`).

A line shown goes out through the event's hold, as its frames do: on the table's public stream for its
watchers, and on each seated player's own stream (a tournament's players hear their table there) -- nobody
at another table of the event, nobody who only follows the event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pokerroom.bus.records import ChatRead, TableChatSaid
from pokerroom.bus.subjects import player_stream, tournament_table
from pokerroom.errors import RuleViolation
from pokerroom.shell.audiences import announce
from tournament import director as td
from tournament.table import TournamentTable

if TYPE_CHECKING:
    from pokerroom.shell.tournaments.hall import TournamentHall


def hand_at(table: TournamentTable) -> tuple[str | None, frozenset[str]]:
    """The hand in play at ``table`` -- dealt here or away -- and who is dealt into it; ``(None, {})`` between
    hands."""
    if table.play is not None:
        return table.play.hand.hand_id, frozenset(table.play.seats.values())
    if table.away is not None:
        return table.away.hand_id, frozenset(s.player_id for s in table.away.seats)
    return None, frozenset()


class TableTalk:
    def __init__(self, hall: TournamentHall) -> None:
        self.hall = hall

    def read(self, d: td.Director, read: ChatRead) -> dict:
        """``ChatRead``: the hand running at the table, whether the author is dealt into it, and whether the
        event closes chat to players in the hand (HR-CHAT-4); refused to anyone not seated there now."""
        table = d.tables.get(read.table)
        if table is None or read.player not in table.seats.values():
            raise RuleViolation("not_at_table", f"sit at {read.table} in this tournament to chat there")
        hand, dealt = hand_at(table)
        return {"hand": hand, "in_hand": read.player in dealt, "closed_in_hand": d.spec.block_chat_in_hand}

    def said(self, d: td.Director, said: TableChatSaid) -> dict:
        """``TableChatSaid``: kept (HR-CHAT-1, flagged when said in one's own hand: HR-CHAT-4), then, if shown,
        sent to the table's watchers and each player seated there now, behind the event's frames."""
        tid = d.spec.id
        self.hall.recording.chat_kept(said.table, said.line, tid)
        self.hall.feed.chatted(tid, said.table, said.line)
        table = d.tables.get(said.table)
        if said.message is not None and table is not None:
            seated = tuple(table.seats.values())
            announce(self.hall.feed.hold(tid), tournament_table(tid, said.table), said.message, seated,
                     tuple((player, player_stream(player)) for player in seated))
        return {}
