"""Chat at a cash table (HR-CHAT): kept, moderated, and shown to everyone watching the table.

Every line is stored, shown or not (a muted player's too, one a second); a
line during one's own hand is flagged for review, and refused where the table
closes chat to players in the hand -- the checks every table's chat makes,
in :class:`~pokerroom.shell.chat_conduct.ChatConduct`. The table is asked what
a line needs of it; the line is kept by the table process's recorder (its
store write, the collusion signals' note of a line during a hand, the review
flag), asked as a :class:`~pokerroom.bus.records.ChatLine` record; and a line
shown goes out through the table's host as its events do -- on its public
stream and each seated player's seat stream -- in order with them.
"""

from __future__ import annotations

from typing import Any

from pokerroom.bus import Bus
from pokerroom.bus.records import Announce, ChatRead
from pokerroom.bus.subjects import table_announce, table_chat, table_keep_chat
from pokerroom.errors import RuleViolation
from pokerroom.gateway.sessions import Session
from pokerroom.protocol.schema import Request, ok
from pokerroom.shell.asked import answered
from pokerroom.shell.chat_conduct import ChatConduct


class TableChat:
    def __init__(self, bus: Bus, conduct: ChatConduct) -> None:
        self.bus = bus
        self.conduct = conduct                          # the checks of every table's chat, and its pace

    def _on_chat(self, session: Session, request: Request, table: str, text: str) -> Any:
        """The table is another process's: what the line needs of it is asked (``table.<id>.chat``), the line is
        kept by its recorder (``table.<id>.keep_chat``), and a line shown goes out through its host
        (``table.<id>.announce``), in order with the table's events."""
        player = session.player_id

        def read(at_table: dict) -> Any:
            if table not in session.tables:
                raise RuleViolation("not_at_table", f"watch or sit at {table} to chat there")
            taken = self.conduct.take(player, table, text, at_table, {"type": "chat", "table": table})

            def kept(_: Any) -> Any:
                if taken.refused is not None:
                    raise taken.refused
                return answered(self.bus.request(table_announce(table), Announce(taken.message)), table,
                                lambda _: ok(request))

            return answered(self.bus.request(table_keep_chat(table), taken.line), table, kept)

        return answered(self.bus.request(table_chat(table), ChatRead(player)), table, read)
