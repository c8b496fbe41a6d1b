"""Helpers shared by the casino tests: cards written as text, a round's events
and the brute-force baccarat deal.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction

from pokerroom.cards import parse_card
from pokerroom.casino.baccarat import Coup, deal_coup
from pokerroom.casino.events import CardDealt, HoleCardRevealed, RoundSettled


def c(text: str) -> list[int]:
    """Cards in shoe order; unlike ``cards.parse`` a shoe may repeat a card (eight decks)."""
    return [parse_card(t) for t in text.split()]


def card(text: str) -> int:
    return parse_card(text)


# --- a round's events -------------------------------------------------------------------------------------------


def of(events: list, kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


def settled(events: list) -> RoundSettled:
    found = of(events, RoundSettled)
    assert len(found) == 1, events
    return found[0]


def paid(events: list) -> dict[tuple[str, str], tuple[int, int]]:
    """(player, market) -> (staked, returned) from the round's one RoundSettled."""
    return {(p.player, p.market): (p.staked, p.returned) for p in settled(events).payouts}


def dealer_draws(events: list) -> list[int]:
    """The dealer's cards turned after the hole card (BJ-10)."""
    i = next(i for i, e in enumerate(events) if isinstance(e, HoleCardRevealed))
    return [e.card for e in events[i:] if isinstance(e, CardDealt) and e.to == "dealer"]


# --- baccarat by brute force ------------------------------------------------------------------------------------


class _NeedCard(Exception):
    """The coup wants a card the sequence being tried does not have yet."""


def every_coup(pool: Mapping[int, int], shown: Sequence[int] = ()) -> Iterator[tuple[Coup, Fraction]]:
    """Deal every card sequence from ``pool`` (card -> copies left) after ``shown`` through :func:`deal_coup`.

    Yields each finished coup with its exact probability: the ways to draw its
    unknown cards over the ordered draws of as many cards from the pool.
    """
    left = Counter(pool)
    total = sum(left.values())

    def explore(seq: tuple[int, ...], ways: int) -> Iterator[tuple[Coup, Fraction]]:
        it = iter(seq)

        def draw() -> int:
            nxt = next(it, None)
            if nxt is None:
                raise _NeedCard
            return nxt

        try:
            coup = deal_coup(draw)
        except _NeedCard:
            coup = None
        if coup is not None:
            yield coup, Fraction(ways, math.perm(total, len(seq) - len(shown)))
            return
        for drawn, k in list(left.items()):
            if k:
                left[drawn] -= 1
                yield from explore(seq + (drawn,), ways * k)
                left[drawn] += 1

    yield from explore(tuple(shown), 1)
