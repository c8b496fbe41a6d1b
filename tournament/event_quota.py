"""How many events one director may hold open and create (STAFF-1).

The room-wide cap on open events keeps the memory bounded; alone, it lets one
director take every slot and lock the others out, and a create-cancel loop
never hits it. So each director also has a cap of their own on open events
and a number of creations in any hour, cancelled ones counted. Pure: the hall
passes the time.
"""

from __future__ import annotations

from collections import deque

from pokerroom.errors import RuleViolation
from tournament.bounds import EventBounds

HOUR = 3600.0


class DirectorQuota:
    def __init__(self) -> None:
        self.recent: dict[str, deque[float]] = {}      # director -> when their last creations were (within the hour)

    def check(self, bounds: EventBounds, by: str, open_total: int, open_own: int, now: float) -> None:
        """Refuse a creation past the room's cap, the director's own cap, or the director's hourly rate."""
        if open_total >= bounds.max_open_events:
            raise RuleViolation("too_many_events", f"the room runs at most {bounds.max_open_events} events at "
                                "once; finish or cancel one first", "STAFF-1")
        if open_own >= bounds.max_events_per_director:
            raise RuleViolation("too_many_events", f"a director runs at most {bounds.max_events_per_director} "
                                "events at once; finish or cancel one of yours first", "STAFF-1")
        recent = self._recent(by, now)
        if len(recent) >= bounds.max_creates_per_hour:
            wait = int(recent[0] + HOUR - now) + 1
            raise RuleViolation("too_many_events", f"a director creates at most {bounds.max_creates_per_hour} "
                                f"events an hour; try again in {wait} seconds", "STAFF-1")

    def created(self, by: str, now: float) -> None:
        self._recent(by, now).append(now)

    def _recent(self, by: str, now: float) -> deque[float]:
        recent = self.recent.setdefault(by, deque())
        while recent and recent[0] <= now - HOUR:
            recent.popleft()
        return recent

    def forget_idle(self, now: float) -> None:
        """Directors with no creation in the hour take no memory."""
        for by in [b for b, recent in self.recent.items() if not self._recent(b, now)]:
            del self.recent[by]
