"""A cash table's house-rule numbers as one frozen value (RULES.md "configurable" values).

Read from ``config/room.toml`` by :mod:`pokerroom.table.config`; tests build
them directly. Defaults are the ones RULES.md states.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pokerroom.poker.events import STREETS
from pokerroom.poker.rake import RakeSchedule
from pokerroom.poker.variants import Stakes, Variant

CLIENT_TYPES = ("desktop", "mobile", "browser")


@dataclass(frozen=True, slots=True)
class DecisionTimes:
    """Seconds to act, per street (HR-TIME-1)."""

    preflop: float = 15.0
    flop: float = 20.0
    turn: float = 20.0
    river: float = 20.0

    def __post_init__(self) -> None:
        for street in STREETS:
            if not getattr(self, street) > 0:
                raise ValueError(f"the {street} decision time must be positive")

    def for_street(self, street: str) -> float:
        return getattr(self, street)


@dataclass(frozen=True, slots=True)
class TimeBankRules:
    """A player's time bank at one table (HR-TIME-4).

    ``initial`` on sitting, then ``refill`` more every ``every_hands`` hands, up to ``cap``.
    """

    initial: float = 30.0
    refill: float = 10.0
    every_hands: int = 10
    cap: float = 60.0

    def __post_init__(self) -> None:
        if self.initial < 0 or self.refill < 0 or self.every_hands < 1 or self.cap < self.initial:
            raise ValueError("time bank: initial and refill at least 0, every_hands at least 1, "
                             "cap at least initial")


@dataclass(frozen=True, slots=True)
class HitAndRunRules:
    """Leaving after 1..min_hands-1 hands is a refusal; the n-th refusal in ``window`` seconds blocks the
    player from the blind level for ``blocks[n-1]`` seconds, the last entry for every later one (HR-HNR-2)."""

    min_hands: int = 10
    window: float = 12 * 3600.0
    blocks: tuple[float, ...] = (0.0, 300.0, 900.0, 1800.0, 3600.0)

    def __post_init__(self) -> None:
        if self.min_hands < 1 or self.window <= 0 or not self.blocks or min(self.blocks) < 0:
            raise ValueError("hit-and-run: min_hands at least 1, a positive window, blocks not negative")

    def block_for(self, refusal: int) -> float:
        """Seconds blocked by the ``refusal``-th refusal in the window (1-based)."""
        if refusal < 1:
            return 0.0
        return self.blocks[min(refusal, len(self.blocks)) - 1]


@dataclass(frozen=True, slots=True)
class TableRules:
    """Everything a cash table needs to know about itself. Times in seconds, money in chips."""

    table_id: str
    variant: Variant
    stakes: Stakes
    min_buy_in: int
    max_buy_in: int
    max_seats: int = 9
    name: str = ""
    currency: str = ""
    rake: RakeSchedule | None = None
    decision_times: DecisionTimes = field(default_factory=DecisionTimes)
    time_bank: TimeBankRules = field(default_factory=TimeBankRules)
    reconnect_seconds: float = 20.0         # extra time for a disconnected player (HR-DC-1)
    hit_and_run: HitAndRunRules = field(default_factory=HitAndRunRules)
    fast_fold: bool = False                 # exempt from hit-and-run (HR-HNR-4)
    all_in_or_fold: bool = False            # exempt from hit-and-run (HR-HNR-4)
    owed_posts_memory: float = 600.0        # HR-MB-5
    rat_hole_period: float = 3600.0         # HR-STAKE-3
    max_sit_out: float = 600.0              # then removed, when a waiting list exists
    seat_offer: float = 60.0                # how long a seat is kept for the first on the waiting list
    between_hands: float = 3.0
    run_it_twice: bool = False
    sit_out_disconnected: bool = True       # a player who lost connection sits out after the hand
    block_chat_in_hand: bool = False        # HR-CHAT-4: players dealt into the running hand may not chat
    max_tables: tuple[tuple[str, int], ...] = (("desktop", 16), ("mobile", 4), ("browser", 8))   # AC-8

    def __post_init__(self) -> None:
        if not 2 <= self.max_seats <= 10:
            raise ValueError(f"a cash table has 2 to 10 seats, not {self.max_seats}")
        if not 0 < self.min_buy_in <= self.max_buy_in:
            raise ValueError("buy-ins need 0 < minimum <= maximum")
        if self.min_buy_in < self.stakes.big_blind:
            raise ValueError("the minimum buy-in must cover at least one big blind")
        if self.stakes.third_blind and self.stakes.big_blind_ante:
            raise ValueError("a table with a third blind cannot use a big-blind ante")
        for name in ("reconnect_seconds", "owed_posts_memory", "rat_hole_period", "max_sit_out",
                     "seat_offer", "between_hands"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} cannot be negative")

    @property
    def blind_level(self) -> str:
        """Tables of one blind level share hit-and-run refusals (HR-HNR-2): "50/100 USD"."""
        s = self.stakes
        blinds = f"{s.small_blind}/{s.big_blind}" + (f"/{s.third_blind}" if s.third_blind else "")
        return f"{blinds} {self.currency}".strip()

    @property
    def game_key(self) -> str:
        """Tables of one game and stakes share rat-hole memory (HR-STAKE-3): "NLHE 50/100 USD"."""
        return f"{self.variant.code} {self.blind_level}"

    @property
    def hit_and_run_applies(self) -> bool:
        return not (self.fast_fold or self.all_in_or_fold)

    def table_limit(self, client_type: str) -> int | None:
        """The most tables a player may sit at from this client type (AC-8), None for an unknown type."""
        return dict(self.max_tables).get(client_type)
