"""Poker variants and stakes as data, not subclasses.

A :class:`Variant` says how many hole cards are dealt, whether a hand uses
exactly two of them (Omaha), and the betting structure. Everything the engine
does differently per game reads these fields; adding a variant is adding a
constant here. :class:`Stakes` are the table's blinds, antes and fixed-limit
bet sizes.
"""

from __future__ import annotations

from dataclasses import dataclass

NO_LIMIT = "no_limit"
POT_LIMIT = "pot_limit"
FIXED_LIMIT = "fixed_limit"
HOLDEM = "holdem"
OMAHA = "omaha"


@dataclass(frozen=True, slots=True)
class Variant:
    """A game's rules as data.

    ``max_raises`` is the fixed-limit cap counted in bets and raises per round
    (1 bet + 3 raises = 4); ``uncapped_heads_up`` lifts the cap while only two
    players are left in the hand (a table choice).
    """

    code: str
    name: str
    game: str                   # HOLDEM | OMAHA
    betting: str                # NO_LIMIT | POT_LIMIT | FIXED_LIMIT
    hole_cards: int
    max_raises: int = 4
    uncapped_heads_up: bool = False

    @property
    def omaha(self) -> bool:
        """True when a hand is exactly two hole cards and three board cards."""
        return self.game == OMAHA


NLHE = Variant("NLHE", "Hold'em No Limit", HOLDEM, NO_LIMIT, 2)
PLO = Variant("PLO", "Omaha Pot Limit", OMAHA, POT_LIMIT, 4)
PLO5 = Variant("PLO5", "5 Card Omaha Pot Limit", OMAHA, POT_LIMIT, 5)
FLHE = Variant("FLHE", "Hold'em Limit", HOLDEM, FIXED_LIMIT, 2)
VARIANTS = {v.code: v for v in (NLHE, PLO, PLO5, FLHE)}


@dataclass(frozen=True, slots=True)
class Stakes:
    """Blinds, antes and bet sizes of a table, in chips.

    ``third_blind`` is the straddle-sized blind some tables use (HR-MB-3), 0
    for none. With ``big_blind_ante`` the big blind pays ``ante`` once for the
    whole table instead of every player paying it. ``small_bet`` and
    ``big_bet`` are the fixed-limit sizes (pre-flop and flop / turn and river);
    they default to the big blind and twice the big blind.
    """

    small_blind: int
    big_blind: int
    ante: int = 0
    big_blind_ante: bool = False
    third_blind: int = 0
    small_bet: int = 0
    big_bet: int = 0

    def __post_init__(self) -> None:
        for name in ("small_blind", "big_blind", "ante", "third_blind", "small_bet", "big_bet"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise ValueError(f"{name} must be a whole number of chips, not {value!r}")
        if self.big_blind <= 0:
            raise ValueError("the big blind must be at least one chip")
        if self.small_blind > self.big_blind:
            raise ValueError("the small blind cannot be larger than the big blind")
        if self.third_blind and self.third_blind < self.big_blind:
            raise ValueError("a third blind must be at least the big blind")
        if not self.small_bet:
            object.__setattr__(self, "small_bet", self.big_blind)
        if not self.big_bet:
            object.__setattr__(self, "big_bet", 2 * self.small_bet)
