"""Independent Chip Model (Malmuth–Harville) equities, for deals (TR-DEAL-2).

The model: a player's chance to finish first is their share of the chips;
given who finished ahead of them, the chance to finish next is their share of
the chips still in play. A player's equity is the sum over places of the
chance to finish there times that place's prize.

:func:`equities` is exact. It walks the sets of players who could fill the
paid places ahead of the others (not the orderings): the chance that a given
set finished first, in any order, is one number, so 10 players with 10 prizes
take 1,023 sets instead of 3,628,800 orderings. With ``exact=True`` the
arithmetic is in fractions, which the tests compare with enumeration of every
finishing order.

For fields where the sets are too many (a deal among hundreds), :func:`sampled_equities`
draws finishing orders from the same model: it is the order in which
independent exponential clocks with rates proportional to the stacks ring.
Each equity comes with its standard error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations
from math import comb

import numpy as np

EXACT_LIMIT = 2_000_000        # sets of finishers the exact method walks before it refuses


class ICMError(ValueError):
    """Stacks or prizes the model cannot price."""


def _check(stacks: Sequence[int | float | Fraction], payouts: Sequence[int | float | Fraction]) -> None:
    if not stacks:
        raise ICMError("there are no stacks to price")
    if any(s < 0 for s in stacks) or not any(s > 0 for s in stacks):
        raise ICMError("stacks must be zero or more, and some chips must be in play")
    if any(p < 0 for p in payouts):
        raise ICMError("prizes must be zero or more")


def sets_walked(players: int, paid: int) -> int:
    """How many sets of finishers :func:`equities` walks for this many players and paid places."""
    return sum(comb(players, k) for k in range(min(paid, players)))


def equities(stacks: Sequence[int | float | Fraction], payouts: Sequence[int | float | Fraction], *,
             exact: bool = False) -> list:
    """Each player's expected prize under Malmuth–Harville: floats, or Fractions with ``exact=True``.

    ``payouts[k]`` is the prize for place ``k + 1``; places beyond the list pay
    nothing, prizes beyond the number of players are never reached. A player
    with no chips finishes below everyone with chips (and players with none
    share the places left equally, as the model gives them no order).
    """
    _check(stacks, payouts)
    n = len(stacks)
    if sum(1 for s in stacks if s > 0) < n:
        return _with_busted(stacks, payouts, exact)
    paid = min(len(payouts), n)
    if sets_walked(n, paid) > EXACT_LIMIT:
        raise ICMError(f"{n} players with {paid} paid places are too many to price exactly; "
                       "use sampled_equities")
    number = Fraction if exact else float
    chips = [number(s) for s in stacks]
    prizes = [number(p) for p in payouts[:paid]]
    zero = number(0)
    result = [zero] * n
    if paid == 0:
        return result
    total = sum(chips, zero)
    chance = {0: number(1)}                # set of finishers (bit mask) -> chance they took the top places
    left = {0: total}                      # set -> chips of the players not in it
    for k in range(paid):                  # the sets of k finishers, each extended by the player next
        prize = prizes[k]
        grown: dict[int, object] = {}
        grown_left: dict[int, object] = {}
        for finished, p in chance.items():
            rest = left[finished]
            for i in range(n):
                bit = 1 << i
                if finished & bit:
                    continue
                q = p * chips[i] / rest
                result[i] += q * prize
                if k + 1 < paid:
                    key = finished | bit
                    if key in grown:
                        grown[key] += q
                    else:
                        grown[key] = q
                        grown_left[key] = rest - chips[i]
        chance, left = grown, grown_left
    return result


def enumerated_equities(stacks: Sequence[int], payouts: Sequence[int], *, exact: bool = False) -> list:
    """The model by brute force, over every finishing order: the reference :func:`equities` is checked against."""
    number = Fraction if exact else float
    result = [number(0)] * len(stacks)
    for order in permutations(range(len(stacks))):
        chance, left = number(1), number(sum(stacks))
        for player in order:
            chance *= number(stacks[player]) / left
            left -= stacks[player]
        for place, player in enumerate(order[:len(payouts)]):
            result[player] += chance * payouts[place]
    return result


def _with_busted(stacks: Sequence, payouts: Sequence, exact: bool) -> list:
    """Players without chips take the lowest places among them, shared equally."""
    alive = [i for i, s in enumerate(stacks) if s > 0]
    out = [i for i, s in enumerate(stacks) if s <= 0]
    number = Fraction if exact else float
    top = equities([stacks[i] for i in alive], payouts[:len(alive)], exact=exact)
    rest = [number(p) for p in payouts[len(alive):len(alive) + len(out)]]
    share = sum(rest, number(0)) / len(out)
    result = [number(0)] * len(stacks)
    for i, value in zip(alive, top, strict=True):
        result[i] = value
    for i in out:
        result[i] = share
    return result


@dataclass(frozen=True)
class Estimate:
    equities: list[float]
    standard_errors: list[float]
    samples: int


def sampled_equities(stacks: Sequence[int | float], payouts: Sequence[int | float], *, samples: int = 20_000,
                     seed: int = 0, chunk: int = 2_000) -> Estimate:
    """Malmuth–Harville equities for any field, by sampling finishing orders; with each one's standard error.

    Player ``i``'s clock rings after an exponential time of rate ``stacks[i]``;
    the first to ring finishes first, and, clocks having no memory, the next
    among the rest finishes next with chance proportional to their stack:
    exactly the model's finishing order.
    """
    _check(stacks, payouts)
    rates = np.asarray(stacks, dtype=float)
    n = len(rates)
    paid = min(len(payouts), n)
    prizes = np.asarray(payouts[:paid], dtype=float)
    rng = np.random.default_rng(seed)
    total = np.zeros(n)
    squares = np.zeros(n)
    alive = rates > 0
    done = 0
    while done < samples:
        m = min(chunk, samples - done)
        times = np.full((m, n), np.inf)
        times[:, alive] = rng.exponential(size=(m, int(alive.sum()))) / rates[alive]
        won = np.zeros((m, n))
        if paid:
            if paid < n:
                first = np.argpartition(times, paid - 1, axis=1)[:, :paid]
            else:
                first = np.tile(np.arange(n), (m, 1))
            order = np.take_along_axis(first, np.argsort(np.take_along_axis(times, first, axis=1), axis=1), axis=1)
            np.put_along_axis(won, order, np.broadcast_to(prizes, order.shape), axis=1)
        total += won.sum(axis=0)
        squares += (won * won).sum(axis=0)
        done += m
    mean = total / samples
    variance = np.maximum(squares / samples - mean * mean, 0.0)
    return Estimate(mean.tolist(), np.sqrt(variance / samples).tolist(), samples)
