"""What a deal pays each remaining player (TR-DEAL-3), in minor units, before anyone accepts it.

A deal shares out the prizes still unpaid, less an optional amount left to
play for (which goes to whoever then wins; it comes off the first prize). Two
kinds are offered:

- **ICM** (TR-DEAL-2): each player's Malmuth–Harville equity, in exact
  fractions, over the prizes of the remaining places, for up to ten players;
  beyond that by the integral method (float, precise to about 1e-12 of the
  pool), each equity shaded by a millionth of a unit so rounding down never
  pays more than the prizes hold.
- **Chip-chop**: everyone gets the lowest prize still unpaid and the rest is
  shared by chips; what that would pay a player above the first prize goes to
  the others, again by chips, until nobody is above it.

Every amount is then rounded down to the minor unit, once per player
(TR-PRIZE-3); what rounding leaves is the remainder, recorded for the
rounding account or, if the tournament says so, added to the top amount. The
invariant the tests hold every offer to: amounts + left to play for +
remainder = the prizes still unpaid, and no amount is below the lowest of
those prizes or above the first (less what is left to play for).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from tournament.icm import equities, integral_equities
from tournament.prizes import descending, round_down

KINDS = ("icm", "chip_chop")
EXACT_PLAYERS = 10      # TR-DEAL-2: exact fractions up to here; beyond, exact subsets would stall the room


class DealError(ValueError):
    """A deal that cannot be offered, with the sentence that says why."""

    def __init__(self, message: str, rule: str = "TR-DEAL-3") -> None:
        super().__init__(message)
        self.rule = rule


@dataclass(frozen=True)
class DealOffer:
    kind: str
    amounts: tuple[int, ...]          # per remaining player, in the order of the stacks given
    left_to_play_for: int
    remainder: int                    # to the rounding account (0 when it went to the top amount)

    @property
    def total(self) -> int:
        return sum(self.amounts) + self.left_to_play_for + self.remainder


def remaining_prizes(payouts: Sequence[int], players: int) -> list[int]:
    """The prizes of places 1..players (places beyond the paid ones pay nothing), best first."""
    prizes = list(payouts[:players]) + [0] * max(0, players - len(payouts))
    if not descending(prizes):
        raise DealError("prizes must not grow with the place", "TR-PRIZE-1")
    return prizes


def offer(kind: str, stacks: Sequence[int], payouts: Sequence[int], *, left_to_play_for: int = 0,
          remainder_to_top: bool = False) -> DealOffer:
    """The offer of ``kind`` for players with ``stacks`` when places 1.. still pay ``payouts`` (minor units)."""
    if kind not in KINDS:
        raise DealError(f"a deal is {' or '.join(KINDS)}, not {kind!r}", "TR-DEAL-1")
    if len(stacks) < 2:
        raise DealError("a deal needs at least two remaining players", "TR-DEAL-1")
    if any(type(s) is not int or s <= 0 for s in stacks):
        raise DealError("every remaining player has a whole, positive number of chips", "TR-DEAL-1")
    prizes = remaining_prizes(payouts, len(stacks))
    if any(type(p) is not int or p < 0 for p in prizes):
        raise DealError("prizes are whole minor units, zero or more", "TR-PRIZE-3")
    if type(left_to_play_for) is not int or not 0 <= left_to_play_for <= prizes[0] - prizes[1]:
        raise DealError("the amount left to play for comes off the first prize and may not take it below "
                        f"the second: between 0 and {prizes[0] - prizes[1]}")
    prizes[0] -= left_to_play_for
    if kind == "chip_chop":
        exact = _chip_chop(stacks, prizes)
    elif len(stacks) <= EXACT_PLAYERS:
        exact = equities(stacks, prizes, exact=True)
    else:                                       # past 10 players: the integral method, precise to ~1e-12
        exact = [max(Fraction(prizes[-1]), Fraction(x) - Fraction(1, 10**6))
                 for x in integral_equities(stacks, prizes)]
    amounts, remainder = round_down(exact, sum(prizes))
    if remainder_to_top and remainder:
        top = max(range(len(amounts)), key=lambda i: (stacks[i], -i))
        given = min(remainder, prizes[0] - amounts[top])   # never above the first prize: the rest stays
        amounts[top] += given
        remainder -= given
    return DealOffer(kind, tuple(amounts), left_to_play_for, remainder)


def _chip_chop(stacks: Sequence[int], prizes: Sequence[int]) -> list[Fraction]:
    lowest, first = prizes[-1], prizes[0]
    share = [Fraction(lowest)] * len(stacks)
    to_share = Fraction(sum(prizes) - lowest * len(stacks))
    open_ = set(range(len(stacks)))                     # players still below the first prize
    while to_share and open_:
        chips = sum(stacks[i] for i in open_)
        for i in open_:
            share[i] += to_share * stacks[i] / chips
        to_share = Fraction(0)
        for i in list(open_):
            if share[i] >= first:                        # capped: the excess goes to the others by chips
                to_share += share[i] - first
                share[i] = Fraction(first)
                open_.discard(i)
    return share
