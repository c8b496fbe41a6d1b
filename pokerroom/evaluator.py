"""Poker hand evaluation: the Python face of the Cython extension.

Card ints follow :mod:`pokerroom.cards` (``rank * 4 + suit``). A hand's *value*
is an int from 1 (seven-five-four-three-two high) to 7462 (royal flush), one per
class of five-card hands; a bigger value wins and equal values tie exactly
(HR-TIE-1, HR-TIE-2: only the best five cards count).

The hot functions are the extension's own (``evaluate`` is ~tens of
nanoseconds, so it is not wrapped); this module adds the vocabulary around
them: categories, descriptions and equity results.
"""

from __future__ import annotations

from enum import IntEnum
from fractions import Fraction
from typing import NamedTuple

from pokerroom import _evaluator
from pokerroom.cards import RANK_NAMES, RANK_PLURALS

__all__ = [
    "HandCategory",
    "HandEquity",
    "NUM_CLASSES",
    "category",
    "describe",
    "enumerate_all",
    "equity",
    "evaluate",
    "evaluate_batch",
    "evaluate_omaha",
    "showdown",
]

NUM_CLASSES = 7462

evaluate = _evaluator.evaluate
evaluate_omaha = _evaluator.evaluate_omaha
showdown = _evaluator.showdown
evaluate_batch = _evaluator.evaluate_batch
enumerate_all = _evaluator.enumerate_all


class HandCategory(IntEnum):
    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        return self.name.replace("_", " ").title().replace("Of A", "of a")


_STRENGTHS = _evaluator.class_strengths()


def _check_value(value: int) -> int:
    if type(value) is not int or not 1 <= value <= NUM_CLASSES:
        raise ValueError(f"not a hand value: {value!r} (values are 1..{NUM_CLASSES})")
    return _STRENGTHS[value]


def _ranks(strength: int) -> tuple[int, ...]:
    return tuple(strength >> shift & 0xF for shift in (16, 12, 8, 4, 0))


def category(value: int) -> HandCategory:
    """The category of a hand value (pair, flush, ...)."""
    return HandCategory(_check_value(value) >> 20)


def describe(value: int) -> str:
    """A phrase for a hand value, e.g. ``"Full House, Kings full of Fours"``."""
    strength = _check_value(value)
    cat = HandCategory(strength >> 20)
    r = _ranks(strength)
    name = RANK_NAMES
    if cat is HandCategory.STRAIGHT_FLUSH:
        return "Royal Flush" if r[0] == 12 else f"Straight Flush, {name[r[0]]} high"
    if cat is HandCategory.FOUR_OF_A_KIND:
        return f"Four of a Kind, {RANK_PLURALS[r[0]]} with {name[r[1]]} kicker"
    if cat is HandCategory.FULL_HOUSE:
        return f"Full House, {RANK_PLURALS[r[0]]} full of {RANK_PLURALS[r[1]]}"
    if cat is HandCategory.FLUSH:
        return f"Flush, {name[r[0]]} high"
    if cat is HandCategory.STRAIGHT:
        return f"Straight, {name[r[0]]} high"
    if cat is HandCategory.THREE_OF_A_KIND:
        return f"Three of a Kind, {RANK_PLURALS[r[0]]}"
    if cat is HandCategory.TWO_PAIR:
        return f"Two Pair, {RANK_PLURALS[r[0]]} and {RANK_PLURALS[r[1]]} with {name[r[2]]} kicker"
    if cat is HandCategory.ONE_PAIR:
        return f"Pair of {RANK_PLURALS[r[0]]}"
    return f"High Card, {name[r[0]]}"


class HandEquity(NamedTuple):
    """One hand's exact share over every possible board.

    ``win`` is the fraction of boards won outright, ``tie`` the fraction of
    the pot won through split pots (a three-way tie adds 1/3 of that board).
    ``equity = win + tie``. Exact fractions are kept alongside the floats.
    """

    win: float
    tie: float
    equity: float
    exact: Fraction
    boards: int


_TIE_UNITS = 2520  # lcm(1..9), the extension's unit for a share of a tied board


def equity(holes, board=(), dead=()) -> list[HandEquity]:
    """Exact all-in equity of 2-9 Hold'em (2 cards) or Omaha (4-6 cards) hands.

    Every remaining board is dealt in C (all 1,712,304 for heads-up Hold'em
    pre-flop). ``board`` has 0, 3, 4 or 5 cards; ``dead`` cards are out of the
    deck (folded or burned cards someone saw).
    """
    boards, wins, tie_units = _evaluator.equity_counts(holes, board, dead)
    out = []
    for w, t in zip(wins, tie_units, strict=True):
        exact = Fraction(w * _TIE_UNITS + t, boards * _TIE_UNITS)
        out.append(HandEquity(win=w / boards, tie=t / (boards * _TIE_UNITS),
                              equity=float(exact), exact=exact, boards=boards))
    return out
