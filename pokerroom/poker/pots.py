"""Main and side pots, and splitting a pot between tied winners.

Pots are built from what each player put into the pot over the whole hand as
bets and antes: one pot per distinct contribution level of the players still in
the hand, each holding every player's chips between the previous level and
this one, and open to the players who reached it. Folded players' chips stay in
the pots they reached but they cannot win them. Dead money (dead blinds,
HR-MB-1..3, and the big-blind ante) belongs to no level: it goes to the main
pot. Uncalled bets have been returned before pots are built, so the top level
is always matched by a player still in the hand.

Positions are indices in dealing order (0 = first seat left of the button),
which is also the order that decides odd chips (HR-TIE-3).
"""

from __future__ import annotations

from collections.abc import Sequence


def side_pots(contributions: Sequence[int], in_hand: Sequence[bool],
              dead_money: int = 0) -> list[tuple[int, tuple[int, ...]]]:
    """``[(amount, eligible positions), ...]``, main pot first."""
    levels = sorted({c for c, live in zip(contributions, in_hand, strict=True) if live})
    if len(levels) > 1 and levels[0] == 0 and not dead_money:
        del levels[0]                   # a player who put nothing in can win nothing
    if len(levels) <= 1:                # the usual case: one pot for everyone still in
        top = levels[0] if levels else 0
        eligible = tuple([p for p, c in enumerate(contributions) if in_hand[p] and c >= top])
        return [(sum(contributions) + dead_money, eligible)]
    pots: list[tuple[int, tuple[int, ...]]] = []
    previous = 0
    for level in levels:
        amount = 0
        for c in contributions:
            if c > previous:
                amount += (c if c < level else level) - previous
        eligible = tuple([p for p, c in enumerate(contributions) if in_hand[p] and c >= level])
        pots.append((amount, eligible))
        previous = level
    # Chips above the top level would be a folded player's unmatched bet; uncalled bets are returned
    # before pots are built, so this is a safety net that keeps every chip in play, not a rule.
    above = sum(c - previous for c in contributions if c > previous)
    amount, eligible = pots[-1]
    pots[-1] = (amount + above, eligible)
    amount, eligible = pots[0]
    pots[0] = (amount + dead_money, eligible)
    return pots


def split_pot(amount: int, winners: Sequence[int]) -> list[int]:
    """Equal shares for winners listed from the button; odd chips go one each, clockwise from the first (HR-TIE-3)."""
    share, odd = divmod(amount, len(winners))
    return [share + 1 if i < odd else share for i in range(len(winners))]
