"""Claims about casino results (BOB-6): one open claim per player and round, and a pace per player.

Every claim is a record in the chained audit log that the security team reads.
A player who files the same claim a hundred times grows that chain and buries
other players' claims; one claim per round says all a player has to say, and
the pace bounds how many rounds one player can raise in an hour.
"""

from __future__ import annotations

from collections.abc import Iterable

from pokerroom.errors import RuleViolation
from pokerroom.gateway.throttle import BucketsByKey

CLAIMS_PER_HOUR = 20.0
CLAIMS_BURST = 5.0

ClaimKey = tuple[str, str, int]          # (player, table, round)


class ClaimBook:
    """The claims filed (or being written) per player and round, and each player's pace."""

    def __init__(self, per_hour: float = CLAIMS_PER_HOUR, burst: float = CLAIMS_BURST) -> None:
        self.filed: set[ClaimKey] = set()
        self.pace = BucketsByKey(per_hour / 3600, burst)

    def restore(self, keys: Iterable[ClaimKey]) -> None:
        """Claims stored before a restart stay open."""
        self.filed.update(keys)

    def take(self, player: str, table: str, round_number: int, now: float) -> ClaimKey:
        """Reserve the player's claim about this round, or refuse a second one or one too many."""
        key = (player, table, round_number)
        if key in self.filed:
            raise RuleViolation("claim_already_open",
                                f"you already have an open claim about round {round_number} at {table}; "
                                f"the security team will answer it", "BOB-6")
        if not self.pace.take(player, now):
            raise RuleViolation("claims_too_fast",
                                f"you may file at most {CLAIMS_PER_HOUR:g} claims an hour; wait before the next")
        self.filed.add(key)
        return key

    def release(self, key: ClaimKey) -> None:
        """The claim was refused or could not be written: the player may file it again."""
        self.filed.discard(key)
