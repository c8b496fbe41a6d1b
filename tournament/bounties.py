"""Knockout bounties (TR-PLAY-6): who gets a busted player's bounty, and how much of it is cash.

The bounty on a busted player's head goes to the winners of the pot that
eliminated them, split equally and rounded down (the remainder to the
rounding account, TR-PRIZE-3). In a progressive knockout each winner gets
``share`` of their part as cash (rounded down) and the rest goes onto their
own head. Cash won before the money is held in the bounty escrow and paid
when the bubble bursts; the director keeps that book.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import floor


@dataclass(frozen=True)
class Knockout:
    cash: dict[str, int]         # winner -> paid (or held until the money)
    onto_head: dict[str, int]    # winner -> added to their own bounty (progressive knockout)
    remainder: int               # to the rounding account


def knockout(bounty: int, winners: Sequence[str], share: Fraction = Fraction(1)) -> Knockout:
    if not winners:
        return Knockout({}, {}, bounty)
    part = bounty // len(winners)
    cash = {w: floor(part * share) for w in winners}
    return Knockout(cash, {w: part - cash[w] for w in winners}, bounty - part * len(winners))
