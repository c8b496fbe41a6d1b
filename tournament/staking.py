"""Selling shares of a tournament entry (TR-STAKE) and splitting what it brings back.

Before the start a registered player may sell percentages of their action at
a markup: a backer pays ``percent`` of the entry cost times the markup. Our
reading of when the seller gets that money: the price waits in the stakes
escrow until the entry's outcome is known, because two outcomes give it back
to the backer -- the player unregistering (TR-STAKE-2) and a ticket instead of
cash (TR-STAKE-3). Any other outcome releases it to the seller. Winnings and
refunds are split in proportion to the shares (TR-STAKE-3, TR-REFUND-6), each
part rounded down (TR-PRIZE-3); the remainder goes to the rounding account.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import floor

from pokerroom.errors import RuleViolation


@dataclass(frozen=True)
class Stake:
    backer: str
    percent: Fraction            # of the seller's action
    price: int                   # paid by the backer, in minor units


def price(entry_cost: int, percent: Fraction, markup: Fraction) -> int:
    """What ``percent`` of an entry costs at ``markup`` (1.1 = 10% above cost), rounded down."""
    return floor(entry_cost * percent / 100 * markup)


def verify_sale(stakes: Sequence[Stake], percent: Fraction, markup: Fraction) -> None:
    if not 0 < percent <= 100 or Fraction(percent).denominator != 1:
        raise RuleViolation("bad_share", "a share is a whole percent, more than 0% and at most 100% of the action",
                            "TR-STAKE-1")
    if not 1 <= markup <= 2:
        raise RuleViolation("bad_markup", "the markup is between 1 (at cost) and 2", "TR-STAKE-1")
    if sum(s.percent for s in stakes) + percent > 100:
        raise RuleViolation("sold_out", "no more than 100% of an entry can be sold", "TR-STAKE-1")


def split(amount: int, stakes: Sequence[Stake]) -> tuple[int, dict[str, int], int]:
    """(the player's part, each backer's part, remainder) of ``amount`` (TR-STAKE-3)."""
    percents: dict[str, Fraction] = {}
    for s in stakes:
        percents[s.backer] = percents.get(s.backer, Fraction(0)) + s.percent
    backers = {b: floor(amount * p / 100) for b, p in percents.items()}
    sold = sum(s.percent for s in stakes)
    player = floor(amount * (100 - sold) / 100)
    return player, backers, amount - player - sum(backers.values())
