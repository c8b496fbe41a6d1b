"""Prize pool and payouts of a tournament (TR-PRIZE-1..3), in minor units.

A payout table has brackets by number of entries, each a list of percentages
of the pool for places 1.. (``config/payouts/*.toml``). The director looks the
bracket up once registration and rebuys have closed (TR-PRIZE-1): until then
the prizes shown are provisional. The pool is what entries paid in; a
guarantee only tops it up when it is not reached (TR-PRIZE-2). Every prize is
rounded down to the minor unit once; what rounding leaves goes to the rounding
account or, if the tournament says so, onto the first prize (TR-PRIZE-3).
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import floor
from pathlib import Path


def descending(values: Sequence) -> bool:
    """Never growing with the place: what every prize list, share list and deal must be."""
    return all(a >= b for a, b in zip(values, values[1:], strict=False))


def round_down(exact: Sequence, owed: int) -> tuple[list[int], int]:
    """TR-PRIZE-3: each award rounded down to the minor unit, once; the remainder is what is owed beyond them."""
    amounts = [floor(x) for x in exact]
    return amounts, owed - sum(amounts)


class PayoutError(ValueError):
    """A payout table or a request of it that does not make sense, in a sentence."""

    rule = "TR-PRIZE-1"


@dataclass(frozen=True)
class Bracket:
    """Entries ``least..most`` pay ``shares`` (percent for places 1..), or a curve over ``paid`` percent of the field.

    A curve (large fields) pays place ``k`` in proportion to ``1 / (k + flatness)``, in whole millionths so
    the shares stay exact fractions adding up to 100.
    """

    least: int
    most: int
    shares: tuple[Fraction, ...] = ()
    paid: Fraction = Fraction(0)
    flatness: int = 0

    def places_for(self, entries: int) -> int:
        if self.shares:
            return len(self.shares)
        return max(1, -(-entries * self.paid.numerator // (100 * self.paid.denominator)))

    def shares_for(self, entries: int) -> tuple[Fraction, ...]:
        if self.shares:
            return self.shares
        weights, total = self.weights_for(entries)
        return tuple(Fraction(100 * w, total) for w in weights)

    def weights_for(self, entries: int) -> tuple[list[int], int]:
        """A curve's weights for ``entries`` and their sum: place k's share is 100 * weight / sum percent."""
        weights = [1_000_000 // (k + self.flatness) for k in range(1, self.places_for(entries) + 1)]
        return weights, sum(weights)


@dataclass(frozen=True)
class PayoutTable:
    name: str
    brackets: tuple[Bracket, ...]

    @classmethod
    def from_dict(cls, data: dict) -> PayoutTable:
        brackets = []
        for raw in data.get("brackets", []):
            least, most = raw["entries"]
            if "paid_percent" in raw:
                paid = Fraction(str(raw["paid_percent"]))
                if not 0 < paid <= 50 or least < 1:
                    raise PayoutError(f"a curve for {least}..{most} entries pays more than 0 and at most 50% "
                                      f"of the field")
                brackets.append(Bracket(least, most, paid=paid, flatness=int(raw.get("flatness", 0))))
                continue
            shares = tuple(Fraction(str(p)) for p in raw["percent"])
            if not 1 <= least <= most:
                raise PayoutError(f"a bracket's entries run from at least 1 upwards, not {least}..{most}")
            if sum(shares) != 100 or any(s <= 0 for s in shares):
                raise PayoutError(f"the shares for {least}..{most} entries must be positive and add up to 100")
            if not descending(shares):
                raise PayoutError(f"the shares for {least}..{most} entries must not grow with the place")
            if len(shares) > least:
                raise PayoutError(f"{len(shares)} paid places cannot be filled by {least} entries")
            brackets.append(Bracket(least, most, shares))
        brackets.sort(key=lambda b: b.least)
        for a, b in zip(brackets, brackets[1:], strict=False):
            if b.least != a.most + 1:
                raise PayoutError(f"the brackets leave a gap or overlap between {a.most} and {b.least} entries")
        if not brackets:
            raise PayoutError("a payout table needs at least one bracket")
        return cls(str(data.get("name", "")), tuple(brackets))

    @classmethod
    def load(cls, path: str | Path) -> PayoutTable:
        with open(path, "rb") as f:
            return cls.from_dict(tomllib.load(f))

    def places_for(self, entries: int) -> int:
        """How many places ``entries`` pay, without working out the shares."""
        for bracket in self.brackets:
            if bracket.least <= entries <= bracket.most:
                return bracket.places_for(entries)
        raise PayoutError(f"the payout table {self.name!r} has no prizes for {entries} entries")

    def shares_for(self, entries: int) -> tuple[Fraction, ...]:
        return self._bracket(entries).shares_for(entries)

    def prizes_for(self, entries: int, pool: int, *, remainder_to_top: bool = False) -> Prizes:
        """:func:`prizes` of :meth:`shares_for` -- for a curve straight from its weights, each place's
        ``pool * weight // sum`` (the same floor as its share of the pool), with no Fraction per place:
        a field of 100,000 pays 15,000 places."""
        bracket = self._bracket(entries)
        if bracket.shares:
            return prizes(bracket.shares, pool, remainder_to_top=remainder_to_top)
        weights, total = bracket.weights_for(entries)
        return _with_remainder([pool * w // total for w in weights], pool, remainder_to_top)

    def _bracket(self, entries: int) -> Bracket:
        for bracket in self.brackets:
            if bracket.least <= entries <= bracket.most:
                return bracket
        raise PayoutError(f"the payout table {self.name!r} has no prizes for {entries} entries")


@dataclass(frozen=True)
class PrizePool:
    collected: int                # from entries, re-entries, rebuys and add-ons
    overlay: int                  # what the room adds to reach the guarantee

    @property
    def total(self) -> int:
        return self.collected + self.overlay


def prize_pool(collected: int, guarantee: int = 0) -> PrizePool:
    """TR-PRIZE-2: the guarantee tops the pool up only when entries did not reach it."""
    if collected < 0 or guarantee < 0:
        raise PayoutError("money collected and guaranteed is zero or more")
    return PrizePool(collected, max(0, guarantee - collected))


@dataclass(frozen=True)
class Prizes:
    amounts: tuple[int, ...]      # places 1..
    remainder: int                # to the rounding account (0 if it went onto the first prize)


def prizes(shares: Sequence[Fraction], pool: int, *, remainder_to_top: bool = False) -> Prizes:
    """TR-PRIZE-3: each place's share of ``pool`` rounded down once; the rest recorded or onto the first."""
    # each floor(pool * share / 100) in whole numbers: the same amounts, without a Fraction per place
    return _with_remainder([pool * share.numerator // (100 * share.denominator) for share in shares], pool,
                           remainder_to_top)


def _with_remainder(amounts: list[int], pool: int, remainder_to_top: bool) -> Prizes:
    remainder = pool - sum(amounts)
    if remainder_to_top and amounts:
        amounts[0] += remainder
        remainder = 0
    return Prizes(tuple(amounts), remainder)
