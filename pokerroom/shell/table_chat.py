"""Chat at a cash table (HR-CHAT): kept, moderated, and shown to everyone watching the table.

Every line is stored, shown or not (a muted player's too, one a second); a
line during one's own hand is flagged for review, and refused where the table
closes chat to players in the hand. The table is asked what a line needs of
it; the line is kept by the table process's recorder (its store write, the
collusion signals' note of a line during a hand, the review flag), asked as
a :class:`~pokerroom.bus.records.ChatLine` record; and a line shown goes out
through the table's host as its events do -- on its public stream and each
seated player's seat stream -- in order with them.
"""

from __future__ import annotations

from typing import Any

from twisted.internet.interfaces import IReactorTime

from pokerroom import conduct, players
from pokerroom.bus import Bus
from pokerroom.bus.records import Announce, ChatLine, ChatRead
from pokerroom.bus.subjects import table_announce, table_chat, table_keep_chat
from pokerroom.errors import RuleViolation
from pokerroom.gateway.sessions import Session
from pokerroom.protocol.schema import Request, ok
from pokerroom.security.moderation import Moderation
from pokerroom.shell.asked import answered
from pokerroom.shell.display_names import DisplayNames


class TableChat:
    def __init__(self, bus: Bus, reactor: IReactorTime, moderation: Moderation, rules: players.AccountRules,
                 display_names: DisplayNames) -> None:
        self.bus = bus
        self.reactor = reactor
        self.moderation = moderation
        self.rules = rules
        self.display_names = display_names
        self.paced = Pace()                             # a player's shown lines: one a second (HR-CHAT-2)
        self.paced_muted = Pace()                       # a muted player's lines, kept: one a second (HR-CHAT-1)

    def _on_chat(self, session: Session, request: Request, table: str, text: str) -> Any:
        """The table is another process's: what the line needs of it is asked (``table.<id>.chat``), the line is
        kept by its recorder (``table.<id>.keep_chat``), and a line shown goes out through its host
        (``table.<id>.announce``), in order with the table's events."""
        player = session.player_id

        def read(at_table: dict) -> Any:
            if table not in session.tables:
                raise RuleViolation("not_at_table", f"watch or sit at {table} to chat there")
            line, refused, message = self._take(player, table, text, at_table)

            def kept(_: Any) -> Any:
                if refused is not None:
                    raise refused
                return answered(self.bus.request(table_announce(table), Announce(message)), table,
                                lambda _: ok(request))

            return answered(self.bus.request(table_keep_chat(table), line), table, kept)

        return answered(self.bus.request(table_chat(table), ChatRead(player)), table, read)

    def _take(self, player: str, table: str, text: str,
              at_table: dict) -> tuple[ChatLine, RuleViolation | None, dict | None]:
        """The line to keep (every one: HR-CHAT-1, paced), the refusal it gets where it may not be shown, and the
        message to show if it may; a line not even kept (a second line within the second) is refused here."""
        now = self.reactor.seconds()
        hand_id = at_table["hand"]
        in_hand = at_table["in_hand"]
        try:
            self.moderation.verify_chat(player, table, now)
        except RuleViolation as muted:                  # kept all the same, never shown (HR-CHAT-1): a line a second
            if not self.paced_muted.take(player, now):
                raise
            return ChatLine(player, text, now, hand_id, True, in_hand), muted, None
        if not self.paced.take(player, now):
            raise RuleViolation("chat_too_fast", "one chat line a second, please", "HR-CHAT-2")
        abusive = conduct.chat_refusal(text, self.rules.banned_words) is not None
        blocked = abusive or (in_hand and at_table["closed_in_hand"])
        line = ChatLine(player, text, now, hand_id, blocked, in_hand)
        if abusive:
            return line, RuleViolation("chat_blocked", "links and abusive words are not allowed in chat",
                                       "HR-CHAT-2"), None
        if blocked:
            return line, RuleViolation("chat_in_hand", "chat is closed to players in the hand until it ends at this "
                                                       "table", "HR-CHAT-4"), None
        message = {"type": "chat", "table": table, "player": player, "text": text, "at": now}
        name = self.display_names.get(player)
        if name is not None:
            message["name"] = name                      # AC-4
        return line, None, message


class Pace:
    """One line a second per player, across their sessions: when each player's last line was taken."""

    KEEP = 4096                                         # players remembered before those past their second go

    def __init__(self) -> None:
        self.last: dict[str, float] = {}

    def take(self, player: str, now: float) -> bool:
        """Whether ``player`` may have a line now (taken if so)."""
        if now - self.last.get(player, float("-inf")) < 1.0:
            return False
        if len(self.last) >= self.KEEP:
            self.last = {p: at for p, at in self.last.items() if now - at < 1.0}
        self.last[player] = now
        return True
