"""Chat at a cash table (HR-CHAT): kept, moderated, and shown to everyone watching the table.

Every line is stored, shown or not (a muted player's too, one a second); a
line during one's own hand is flagged for review, and refused where the table
closes chat to players in the hand. Lines go out as the table's events do --
on its public stream and each seated player's seat stream -- in order with
them.
"""

from __future__ import annotations

from pokerroom import conduct, players
from pokerroom.bus import Bus
from pokerroom.errors import RuleViolation
from pokerroom.gateway.sessions import Session
from pokerroom.protocol.schema import Request, ok
from pokerroom.security.moderation import Moderation
from pokerroom.shell.display_names import DisplayNames
from pokerroom.shell.recorder import Recorder
from pokerroom.shell.table_host import TableHost


class TableChat:
    def __init__(self, bus: Bus, tables: TableHost, recorder: Recorder, moderation: Moderation,
                 rules: players.AccountRules, display_names: DisplayNames) -> None:
        self.bus = bus
        self.tables = tables
        self.recorder = recorder
        self.moderation = moderation
        self.rules = rules
        self.display_names = display_names
        self.paced = Pace()                             # a player's shown lines: one a second (HR-CHAT-2)
        self.paced_muted = Pace()                       # a muted player's lines, kept: one a second (HR-CHAT-1)

    def _on_chat(self, session: Session, request: Request, table: str, text: str) -> dict:
        runner = self.tables.runner(table)
        player = session.player_id
        if table not in session.tables:
            raise RuleViolation("not_at_table", f"watch or sit at {table} to chat there")
        now = self.recorder.reactor.seconds()
        hand = runner.table.hand
        hand_id = hand.hand_id if hand else None
        save_chat = self.recorder.store.tables.save_chat
        try:
            self.moderation.verify_chat(player, table, now)
        except RuleViolation:                           # kept all the same, never shown (HR-CHAT-1): a line a second
            if self.paced_muted.take(player, now):
                self.recorder.write(save_chat, table, hand_id, player, text, now, True)
            raise
        if not self.paced.take(player, now):
            raise RuleViolation("chat_too_fast", "one chat line a second, please", "HR-CHAT-2")
        abusive = conduct.chat_refusal(text, self.rules.banned_words) is not None
        in_hand = hand is not None and player in runner.players
        blocked = abusive or (in_hand and runner.table.rules.block_chat_in_hand)
        self.recorder.write(save_chat, table, hand_id, player, text, now, blocked)
        if hand is not None:
            self.recorder.chatted(table, player)        # railbirds too: the collusion signals read it (HR-CHAT-4)
        if in_hand:                                     # chat during one's own hand is flagged for review
            self.recorder.audit("chat_in_hand", player=player, table=table, hand_id=hand_id, text=text,
                                blocked=blocked)
        if abusive:
            raise RuleViolation("chat_blocked", "links and abusive words are not allowed in chat", "HR-CHAT-2")
        if blocked:
            raise RuleViolation("chat_in_hand", "chat is closed to players in the hand until it ends at this table",
                                "HR-CHAT-4")
        message = {"type": "chat", "table": table, "player": player, "text": text, "at": now}
        name = self.display_names.get(player)
        if name is not None:
            message["name"] = name                      # AC-4
        self.tables.announce(runner, message)          # observers, and each seated player on their seat's stream
        return ok(request)


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
