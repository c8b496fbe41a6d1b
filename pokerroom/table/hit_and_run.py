"""Hit-and-run: leaving a cash table soon after sitting, counted and blocked per blind level (HR-HNR).

Pure functions over the rule numbers (:class:`~pokerroom.table.rules.HitAndRunRules`)
and the refusal times the :class:`~pokerroom.table.seating_history.SeatingHistory`
keeps. A leave is a *refusal* when the player was dealt 1..min_hands-1 hands at
the table (HR-HNR-1), unless nobody else there was playing: every other player
sitting out, or nobody else seated (HR-HNR-3). The n-th refusal within the
window blocks the player from every table of that blind level for the n-th
block length, counted from that refusal (HR-HNR-2).
"""

from __future__ import annotations

from collections.abc import Sequence

from pokerroom.table.rules import HitAndRunRules


def is_refusal(rules: HitAndRunRules, hands_played: int, others_seated: int, others_sitting_out: int) -> bool:
    """Whether leaving now refuses to play (HR-HNR-1, HR-HNR-3)."""
    if not 1 <= hands_played < rules.min_hands:
        return False
    return others_seated > others_sitting_out


def refusal_number(rules: HitAndRunRules, refusals: Sequence[float], at: float) -> int:
    """The number of the refusal recorded at ``at``: refusals in the window up to it, itself included."""
    return sum(1 for t in refusals if at - rules.window < t <= at)


def seconds_blocked(rules: HitAndRunRules, refusals: Sequence[float], now: float) -> float:
    """How much longer the player is blocked at this blind level (0: free to join)."""
    left = 0.0
    for t in refusals:
        if now - rules.window < t <= now:
            until = t + rules.block_for(refusal_number(rules, refusals, t))
            left = max(left, until - now)
    return left
