"""The security team's standing decisions, as the room checks them on every chat line and every seat taken.

Pure and in memory: the shell loads the decisions from the store at start,
adds each new one as it is made (and stores it), and asks here -- on the
reactor thread, without touching the database -- whether a player may chat
(HR-CHAT-3), play (a frozen account, SEC-4) or sit beside someone (linked
accounts kept apart). Each refusal is a :class:`RuleViolation` with its rule.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from pokerroom.errors import RuleViolation


@dataclass(frozen=True, slots=True)
class Muted:
    table: str | None                   # None: room-wide
    until: float | None                 # None: permanently
    reason: str


@dataclass
class Moderation:
    mutes: dict[str, list[Muted]] = field(default_factory=dict)
    frozen: set[str] = field(default_factory=set)
    linked: dict[str, set[str]] = field(default_factory=dict)

    def mute(self, player: str, table: str | None, until: float | None, reason: str) -> None:
        self.mutes.setdefault(player, []).append(Muted(table, until, reason))

    def unmute(self, player: str) -> None:
        self.mutes.pop(player, None)

    def muted(self, player: str, table: str, now: float) -> Muted | None:
        """The mute that silences ``player`` at ``table`` now, if any (the longest, when several apply)."""
        live = [m for m in self.mutes.get(player, ()) if (m.until is None or m.until > now)
                and m.table in (None, table)]
        if not live:
            return None
        return max(live, key=lambda m: float("inf") if m.until is None else m.until)

    def verify_chat(self, player: str, table: str, now: float) -> None:
        mute = self.muted(player, table, now)
        if mute is not None:
            where = "in this room" if mute.table is None else "at this table"
            until = "permanently" if mute.until is None else "until " + time.strftime(
                "%Y-%m-%d %H:%M UTC", time.gmtime(mute.until))
            raise RuleViolation("muted", f"your chat is muted {where} {until}", "HR-CHAT-3")

    def link(self, a: str, b: str) -> None:
        self.linked.setdefault(a, set()).add(b)
        self.linked.setdefault(b, set()).add(a)

    def verify_seat(self, player: str, seated: Iterable[str]) -> None:
        """Refuse a seat at a table where an account linked to ``player`` sits (SEC-4)."""
        linked = self.linked.get(player)
        if linked and not linked.isdisjoint(seated):
            raise RuleViolation("linked_accounts", "you may not sit at the same table as an account linked to "
                                                   "yours", "SEC-4")

    def freeze(self, player: str) -> None:
        """SEC-4: no play until the security team unfreezes the account."""
        self.frozen.add(player)

    def unfreeze(self, player: str) -> None:
        self.frozen.discard(player)

    def restore_frozen(self, players: Iterable[str]) -> None:
        """At start: the accounts the store holds frozen (SEC-4), beside any frozen since."""
        self.frozen.update(players)

    def verify_play(self, player: str) -> None:
        if player in self.frozen:
            raise RuleViolation("account_frozen", "your account is frozen while the security team reviews it; "
                                                  "contact support", "SEC-4")

    def renamed(self, old: str, new: str) -> None:
        """AC-3: the decisions about ``old`` now concern ``new``."""
        if old in self.mutes:
            self.mutes[new] = self.mutes.pop(old)
        if old in self.frozen:
            self.frozen.discard(old)
            self.frozen.add(new)
        for other in self.linked.pop(old, set()):
            self.linked[other].discard(old)
            self.link(new, other)
