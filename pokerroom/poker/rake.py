"""Rake on cash pots (HR-RAKE-1, HR-RAKE-2).

The table passes a :class:`RakeSchedule` for its stake level. Each pot is
raked by the percentage, rounded down to whole chips; the hand's rake is
capped by a cap that depends on the number of players dealt in; pots are
raked main pot first, so the cap is used up there before any side pot pays.
No flop, no drop: a hand that ends before the flop pays nothing.
Tournaments pass no schedule (HR-RAKE-3).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class RakeSchedule:
    """``rate`` as an exact fraction (``Fraction(5, 100)`` is 5%) and caps by players dealt in.

    ``caps`` is ``((min_players, cap), ...)``: the cap of the entry with the
    largest ``min_players`` not above the number of players dealt in applies
    (below every entry, the first entry's cap). No entries means no cap.
    """

    rate: Fraction
    caps: tuple[tuple[int, int], ...] = ()
    no_flop_no_drop: bool = True

    def __post_init__(self) -> None:
        rate = Fraction(self.rate)
        if not 0 <= rate < 1:
            raise ValueError(f"a rake rate must be at least 0 and below 1, not {rate}")
        object.__setattr__(self, "rate", rate)
        caps = tuple(sorted((int(n), int(c)) for n, c in self.caps))
        if any(c < 0 for _, c in caps):
            raise ValueError("a rake cap cannot be negative")
        object.__setattr__(self, "caps", caps)

    def cap_for(self, players_dealt_in: int) -> int | None:
        """The hand's rake cap for this many players, or None when uncapped."""
        if not self.caps:
            return None
        cap = self.caps[0][1]
        for min_players, value in self.caps:
            if players_dealt_in >= min_players:
                cap = value
        return cap


def rake_pots(schedule: RakeSchedule | None, pots: Sequence[int], players_dealt_in: int,
              flop_dealt: bool) -> list[int]:
    """The rake of each pot (main pot first), in whole chips."""
    if schedule is None or (schedule.no_flop_no_drop and not flop_dealt):
        return [0] * len(pots)
    cap = schedule.cap_for(players_dealt_in)
    num, den = schedule.rate.numerator, schedule.rate.denominator
    out = []
    for amount in pots:
        rake = amount * num // den
        if cap is not None:
            rake = min(rake, cap)
            cap -= rake
        out.append(rake)
    return out
