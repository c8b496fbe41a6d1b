"""Finishing places of players busted together, and what the places pay (TR-PLAY-3).

Players busted in the same hand -- or, during hand-for-hand play, in the same
round of hands across tables -- finish in order of their stacks at the start
of that hand: more chips finishes higher. Equal starting stacks at one table
finish in dealing order: the first seat left of the button finishes ahead.
Equal starting stacks at different tables cannot be ordered by seat, so they
tie: our reading is that every player of that stack tied across tables
shares the places the group spans, each getting an equal share of those
places' prizes rounded down (TR-PRIZE-3), the remainder recorded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby


@dataclass(frozen=True)
class Bust:
    player: str
    start_stack: int
    table: str
    order: int              # dealing position at their table: 0 is the first seat left of the button


@dataclass(frozen=True)
class Finish:
    players: tuple[str, ...]            # more than one: a tie across tables, sharing the places
    places: tuple[int, ...]             # best first


def finishing_places(busts: Sequence[Bust], remaining_before: int) -> list[Finish]:
    """The places of ``busts`` (one hand or one hand-for-hand round), best first.

    ``remaining_before`` counts the players in before these busted: the worst
    place given is that number.
    """
    if len({b.player for b in busts}) != len(busts):
        raise ValueError("a player busts once")
    if len(busts) > remaining_before:
        raise ValueError("more players busted than were left")
    best = remaining_before - len(busts) + 1
    ranked = sorted(busts, key=lambda b: (-b.start_stack, b.table, b.order))
    finishes = []
    for _, same in groupby(ranked, key=lambda b: b.start_stack):
        group = list(same)
        if len({b.table for b in group}) > 1:
            finishes.append(Finish(tuple(b.player for b in group), tuple(range(best, best + len(group)))))
        else:
            finishes += [Finish((b.player,), (best + i,)) for i, b in enumerate(group)]
        best += len(group)
    return finishes


def awards(finish: Finish, prizes: Sequence[int]) -> tuple[dict[str, int], int]:
    """Each player's prize for ``finish`` and the rounding remainder; places past the prizes pay 0."""
    total = sum(prizes[p - 1] for p in finish.places if p <= len(prizes))
    each = total // len(finish.players)
    return {p: each for p in finish.players}, total - each * len(finish.players)
