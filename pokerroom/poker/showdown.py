"""Showdown: who shows first, who must show, who may muck, and who wins each pot.

Order (TDA): the last player to bet or raise on the final betting round shows
first; with no bet on that round, the first player still in the hand left of
the button. Then clockwise. A player shows when they must (the first to show,
anyone who turned auto-muck off,
and anyone all-in or already face up) or when their hand can still win or tie
a contested pot they are in, on any board; otherwise they muck. Only shown
hands win, so a mucked hand never takes chips. Pots with a single eligible
player are not contested and need no show.

Hands are ranked by :mod:`pokerroom.evaluator` (HR-TIE-1, HR-TIE-2: bigger
rank wins, kickers within the best five cards); Omaha uses exactly two hole
and three board cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from pokerroom import evaluator
from pokerroom.poker.variants import Variant


def showdown_order(in_hand: Sequence[int], last_aggressor: int) -> list[int]:
    """Positions still in the hand in showing order (positions count from the button)."""
    first = in_hand.index(last_aggressor) if last_aggressor in in_hand else 0
    return [*in_hand[first:], *in_hand[:first]]


def rank_hands(variant: Variant, holes: Sequence[Sequence[int]], board: Sequence[int]) -> list[int]:
    """One evaluator rank per hole-card holding on this board."""
    return evaluator.showdown(board, holes, omaha=variant.omaha)


@cache
def describe_rank(rank: int) -> tuple[str, str]:
    """``(category name, description)``, e.g. ``("FULL_HOUSE", "Full House, Kings full of Fours")``."""
    return evaluator.category(rank).name, evaluator.describe(rank)


def choose_shows(order: Sequence[int], must_show: set[int], contested: Sequence[tuple[int, ...]],
                 ranks_by_run: Sequence[dict[int, int]]) -> list[bool]:
    """For each position in ``order``, whether it shows (True) or mucks (False)."""
    best: list[list[int]] = [[-1] * len(contested) for _ in ranks_by_run]
    shows = []
    for i, p in enumerate(order):
        show = i == 0 or p in must_show
        if not show:
            for run, ranks in enumerate(ranks_by_run):
                rank = ranks[p]
                for k, eligible in enumerate(contested):
                    if p in eligible and rank >= best[run][k]:
                        show = True
                        break
                if show:
                    break
        if show:
            for run, ranks in enumerate(ranks_by_run):
                rank = ranks[p]
                for k, eligible in enumerate(contested):
                    if p in eligible and rank > best[run][k]:
                        best[run][k] = rank
        shows.append(show)
    return shows


def pot_winners(eligible: Sequence[int], shown: set[int], ranks: dict[int, int]) -> list[int]:
    """The shown hands with the best rank among ``eligible`` (kept in button order)."""
    top = max(ranks[p] for p in eligible if p in shown)
    return [p for p in eligible if p in shown and ranks[p] == top]
