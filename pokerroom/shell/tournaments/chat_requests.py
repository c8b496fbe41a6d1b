"""``tournament_chat``: a line at a tournament table, on the gateway's side of the process line (HR-CHAT-1..4).

A tournament request names its event, and the hall directing it answers for its tables; so a line names the
event and the table (``{"tournament", "table", "text"}``), and the hall -- not the process playing the hand,
which may be another (``play_hands = "anywhere"``) -- is asked what the line needs of the table
(:class:`~pokerroom.bus.records.ChatRead`: seated there, the hand running, whether the author is dealt
in), then given the line to keep and, if it may be shown, to show the table's players and watchers
(:class:`~pokerroom.bus.records.TableChatSaid`: :mod:`~pokerroom.shell.tournaments.table_talk`). Between the
two the line gets the checks every table's chat makes, cash table or tournament table: one
:class:`~pokerroom.shell.chat_conduct.ChatConduct` (mutes, the filter, one line a second across every table).
"""

from __future__ import annotations

from typing import Any

from pokerroom.bus.records import ChatRead, TableChatSaid
from pokerroom.gateway.sessions import Session
from pokerroom.protocol.schema import Request, ok
from pokerroom.shell.asked import answered
from pokerroom.shell.chat_conduct import ChatConduct
from pokerroom.shell.tournaments.hall_line import HallLine


class TournamentChat:
    def __init__(self, line: HallLine, conduct: ChatConduct) -> None:
        self.line = line                        # the hall's reads and commands: requests
        self.conduct = conduct                  # the checks of every table's chat, and its pace

    def _on_tournament_chat(self, session: Session, request: Request, tournament: str, table: str, text: str) -> Any:
        player = session.player_id

        def read(at_table: dict) -> Any:
            head = {"type": "tournament_chat", "tournament": tournament, "table": table}
            taken = self.conduct.take(player, table, text, at_table, head)

            def kept(_: Any) -> Any:
                if taken.refused is not None:
                    raise taken.refused
                return ok(request)

            return answered(self.line.command(tournament, TableChatSaid(table, taken.line, taken.message)),
                            tournament, kept)

        return answered(self.line.read(tournament, ChatRead(player, table)), tournament, read)
