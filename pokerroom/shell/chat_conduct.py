"""What every table's chat checks of a line, cash table or tournament table alike (HR-CHAT-1..4): one place.

A line is taken against what its table said of the moment (the hand running, whether the author is dealt
into it, whether the table closes chat to them then): a muted author's line is kept and never shown
(HR-CHAT-3), a line of links or abusive words is kept and refused (HR-CHAT-2), so is a line from a player
in the hand where the table closes chat to them (HR-CHAT-4); every author has one line a second, across
every table and kind of table (a muted author's kept lines too: a flood fills no store). What to do with
the line -- keep it, show it -- is the table's: :mod:`~pokerroom.shell.table_chat` for a cash table,
:mod:`~pokerroom.shell.tournaments.chat_requests` for a tournament table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from twisted.internet.interfaces import IReactorTime

from pokerroom import conduct, players
from pokerroom.bus.records import ChatLine
from pokerroom.errors import RuleViolation
from pokerroom.security.moderation import Moderation
from pokerroom.shell.display_names import DisplayNames


@dataclass(frozen=True, slots=True)
class Taken:
    """A line taken: what to keep (always), the refusal its author reads where it may not be shown, and the
    push to show where it may."""

    line: ChatLine
    refused: RuleViolation | None
    message: dict[str, Any] | None


class ChatConduct:
    def __init__(self, reactor: IReactorTime, moderation: Moderation, rules: players.AccountRules,
                 display_names: DisplayNames) -> None:
        self.reactor = reactor
        self.moderation = moderation
        self.rules = rules
        self.display_names = display_names
        self.paced = Pace()                             # a player's shown lines: one a second (HR-CHAT-2)
        self.paced_muted = Pace()                       # a muted player's lines, kept: one a second (HR-CHAT-1)

    def take(self, player: str, table: str, text: str, at_table: dict, head: dict[str, Any]) -> Taken:
        """The line ``player`` says at ``table`` given what the table said of the moment (``at_table``: ``hand``,
        ``in_hand``, ``closed_in_hand``), with the push to show (``head`` plus who said what, when); a line not
        even kept (a second line within the second) is refused here."""
        now = self.reactor.seconds()
        hand_id = at_table["hand"]
        in_hand = at_table["in_hand"]
        try:
            self.moderation.verify_chat(player, table, now)
        except RuleViolation as muted:                  # kept all the same, never shown (HR-CHAT-1): a line a second
            if not self.paced_muted.take(player, now):
                raise
            return Taken(ChatLine(player, text, now, hand_id, True, in_hand), muted, None)
        if not self.paced.take(player, now):
            raise RuleViolation("chat_too_fast", "one chat line a second, please", "HR-CHAT-2")
        abusive = conduct.chat_refusal(text, self.rules.banned_words) is not None
        blocked = abusive or (in_hand and at_table["closed_in_hand"])
        line = ChatLine(player, text, now, hand_id, blocked, in_hand)
        if abusive:
            return Taken(line, RuleViolation("chat_blocked", "links and abusive words are not allowed in chat",
                                             "HR-CHAT-2"), None)
        if blocked:
            return Taken(line, RuleViolation("chat_in_hand", "chat is closed to players in the hand until it ends "
                                                             "at this table", "HR-CHAT-4"), None)
        message = {**head, "player": player, "text": text, "at": now}
        name = self.display_names.get(player)
        if name is not None:
            message["name"] = name                      # AC-4
        return Taken(line, None, message)


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
