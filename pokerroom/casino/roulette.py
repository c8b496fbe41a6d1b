"""European (single-zero) roulette: the layout, the legal bets, and what each returns (RULES.md RO, CR-1).

Pure: no I/O, no clock, no randomness. The table draws the pocket (HR-RNG) and
passes it in; this module only says which bets are legal and what they return.

Layout (RO-5): 0 sits above three columns of twelve rows; row ``r`` (1..12)
holds ``3r-2, 3r-1, 3r``, so column 1 is 1, 4, .., 34. A bet's legality is
checked here from that geometry (:func:`parse_bet`), while :func:`all_legal_bets`
builds the bets by construction: the tests hold the two against each other.

Money is integer minor units; :func:`returned` gives back stake plus winnings
on a win and nothing on a loss, and :func:`house_edge` is exact (a ``Fraction``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any, NoReturn

from pokerroom.errors import RuleViolation

RULE_LAYOUT = "RO-5"
ILLEGAL_BET = "illegal_bet"

POCKETS = range(37)
RED = frozenset({1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36})
BLACK = frozenset(POCKETS) - RED - {0}
MIN_REVOLUTIONS = 3

INSIDE_KINDS = ("straight", "split", "street", "corner", "four", "line")
CHOSEN_KINDS = ("column", "dozen")  # outside bets that name one of three with ``which``
EVEN_MONEY_KINDS = ("red", "black", "odd", "even", "low", "high")
KINDS = INSIDE_KINDS + CHOSEN_KINDS + EVEN_MONEY_KINDS

PAYS: dict[str, int] = {
    "straight": 35, "split": 17, "street": 11, "corner": 8, "four": 8, "line": 5,
    "column": 2, "dozen": 2, "red": 1, "black": 1, "odd": 1, "even": 1, "low": 1, "high": 1,
}
INSIDE_SIZE: dict[str, int] = {"straight": 1, "split": 2, "street": 3, "corner": 4, "four": 4, "line": 6}

EVEN_MONEY: dict[str, frozenset[int]] = {
    "red": RED,
    "black": BLACK,
    "odd": frozenset(range(1, 37, 2)),
    "even": frozenset(range(2, 37, 2)),
    "low": frozenset(range(1, 19)),
    "high": frozenset(range(19, 37)),
}
FOUR = frozenset({0, 1, 2, 3})
ZERO_STREETS = (frozenset({0, 1, 2}), frozenset({0, 2, 3}))


@dataclass(frozen=True)
class Bet:
    """One position on the layout: its kind, the pockets it covers and what it pays to one.

    Build it with :func:`parse_bet` (which checks RO-5); the constructor itself trusts its caller.
    """

    kind: str
    numbers: frozenset[int]
    pays: int


class Spin(Enum):
    """The marker :func:`settle_spin` returns for a spin that must not be settled (RO-4)."""

    RESPIN = "respin"


def colour(n: int) -> str:
    """``"red"``, ``"black"`` or ``"green"`` (zero) for a pocket (RO-1)."""
    _check_pocket(n)
    return "green" if n == 0 else "red" if n in RED else "black"


def column_numbers(which: int) -> frozenset[int]:
    """Column 1, 2 or 3: the twelve numbers down that column of the layout."""
    return frozenset(range(which, 37, 3))


def dozen_numbers(which: int) -> frozenset[int]:
    """Dozen 1, 2 or 3: 1–12, 13–24 or 25–36."""
    return frozenset(range(12 * which - 11, 12 * which + 1))


def parse_bet(kind: str, numbers: Sequence[int] | None, which: int | None) -> Bet:
    """The bet a player asked for, or ``RuleViolation("illegal_bet", ..., "RO-5")`` saying what is wrong.

    Inside bets name their numbers (in any order) and no ``which``; column and
    dozen name ``which`` (1..3) and no numbers; the even-money bets take neither.
    """
    if not isinstance(kind, str) or kind not in PAYS:
        _illegal(f"there is no {kind!r} bet on a roulette layout: the bets are {', '.join(KINDS)}")
    if kind in INSIDE_KINDS:
        if which is not None:
            _illegal(f"a {kind} bet is placed on its numbers and takes no column or dozen choice")
        covered = _inside_numbers(kind, numbers)
    else:
        if numbers:
            _illegal(f"a {kind} bet covers a fixed part of the layout and takes no numbers")
        covered = _outside_numbers(kind, which)
    return Bet(kind, covered, PAYS[kind])


def all_legal_bets() -> list[Bet]:
    """Every distinct legal bet on the layout, built by construction (157 in all)."""
    def row(r: int) -> list[int]:
        return [3 * r - 2, 3 * r - 1, 3 * r]

    inside: dict[str, list[set[int]]] = {
        "straight": [{n} for n in POCKETS],
        "split": [{0, 1}, {0, 2}, {0, 3}]
        + [{n, n + 1} for n in range(1, 37) if n % 3 != 0]
        + [{n, n + 3} for n in range(1, 34)],
        "street": [set(s) for s in ZERO_STREETS] + [set(row(r)) for r in range(1, 13)],
        "corner": [{n, n + 1, n + 3, n + 4} for n in range(1, 33) if n % 3 != 0],
        "four": [set(FOUR)],
        "line": [set(row(r) + row(r + 1)) for r in range(1, 12)],
    }
    bets = [Bet(kind, frozenset(s), PAYS[kind]) for kind, sets in inside.items() for s in sets]
    for which in (1, 2, 3):
        bets.append(Bet("column", column_numbers(which), PAYS["column"]))
        bets.append(Bet("dozen", dozen_numbers(which), PAYS["dozen"]))
    bets += [Bet(kind, EVEN_MONEY[kind], PAYS[kind]) for kind in EVEN_MONEY_KINDS]
    return bets


def returned(bet: Bet, stake: int, pocket: int) -> int:
    """What the bet hands back when the ball lands in ``pocket``: stake × (pays + 1) on a win, else 0.

    Zero is in no outside bet's numbers, so it loses every outside bet (RO-3).
    """
    _check_pocket(pocket)
    if type(stake) is not int or stake < 0:
        raise ValueError(f"a stake is a non-negative whole number of minor units, not {stake!r}")
    return stake * (bet.pays + 1) if pocket in bet.numbers else 0


def valid_spin(revolutions: int) -> bool:
    """A spin counts only if the ball went round at least three times (RO-4)."""
    return revolutions >= MIN_REVOLUTIONS


def settle_spin(revolutions: int, pocket: int) -> int | Spin:
    """The pocket to settle on, or ``Spin.RESPIN``: an invalid spin is re-spun and never settled (RO-4)."""
    _check_pocket(pocket)
    return pocket if valid_spin(revolutions) else Spin.RESPIN


def house_edge(bet: Bet) -> Fraction:
    """The house's exact share of each unit staked, averaged over the 37 equally likely pockets."""
    back = sum(returned(bet, 1, pocket) for pocket in POCKETS)
    return 1 - Fraction(back, len(POCKETS))


def rules_text() -> dict[str, Any]:
    """The rules and paytable as plain data, for the protocol to show the client (CR-1)."""
    return {
        "game": "roulette",
        "name": "European roulette (single zero)",
        "rules": [
            "The wheel has 37 pockets, 0 to 36: 18 red, 18 black and the green 0.",
            "Bets must form a legal position on the layout; anything else is refused when placed.",
            "Inside bets: a straight on one number (0 included), a split on two touching numbers, "
            "a street on a row of three (or 0-1-2, 0-2-3), a corner on a square of four, "
            "the four on 0-1-2-3, and a line on two neighbouring rows.",
            "Outside bets: a column, a dozen (1-12, 13-24, 25-36), red, black, odd, even, low (1-18), high (19-36).",
            "Zero loses every outside bet.",
            "A spin counts only if the ball makes at least three revolutions; otherwise it is spun again.",
            "Winning bets are paid at the odds below and keep their stake; losing bets are collected.",
        ],
        "paytable": [
            {"kind": kind, "covers": _covers(kind), "pays": PAYS[kind]} for kind in KINDS
        ],
    }


def _covers(kind: str) -> int:
    if kind in INSIDE_SIZE:
        return INSIDE_SIZE[kind]
    return 12 if kind in CHOSEN_KINDS else 18


def _illegal(message: str) -> NoReturn:
    raise RuleViolation(ILLEGAL_BET, message, RULE_LAYOUT)


def _check_pocket(n: int) -> None:
    if type(n) is not int or n not in POCKETS:
        raise ValueError(f"not a pocket on the wheel: {n!r} (pockets are 0 to 36)")


def _spoken(numbers: Sequence[int] | frozenset[int]) -> str:
    """``1, 2 and 4``: numbers as a sentence lists them."""
    words = [str(n) for n in sorted(numbers)]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _place(n: int) -> tuple[int, int]:
    """Row 1..12 and column 1..3 of a number 1..36 on the layout."""
    return (n - 1) // 3 + 1, (n - 1) % 3 + 1


def _span(values: set[int]) -> bool:
    """True when the values are exactly two neighbours, like {4, 5}."""
    return len(values) == 2 and max(values) - min(values) == 1


def _inside_numbers(kind: str, numbers: Sequence[int] | None) -> frozenset[int]:
    """Check an inside bet's numbers against the layout's geometry (RO-5)."""
    size = INSIDE_SIZE[kind]
    if numbers is None:
        _illegal(f"a {kind} bet needs the {'number' if size == 1 else f'{size} numbers'} it covers")
    for n in numbers:
        if type(n) is not int:
            _illegal(f"{n!r} is not a number on the layout: numbers are whole numbers from 0 to 36")
        if n not in POCKETS:
            _illegal(f"number {n} is not on the layout: numbers run from 0 to 36")
    covered = frozenset(numbers)
    if len(covered) != len(numbers):
        twice = sorted({n for n in numbers if list(numbers).count(n) > 1})
        repeated = f"number {twice[0]} appears" if len(twice) == 1 else f"numbers {_spoken(twice)} appear"
        _illegal(f"{repeated} more than once: a {kind} bet covers {size} different numbers")
    if len(covered) != size:
        _illegal(f"a {kind} bet covers exactly {size} number{'s' if size > 1 else ''}, got {len(covered)}")

    places = [_place(n) for n in covered if n != 0]
    rows = {r for r, _ in places}
    cols = {c for _, c in places}
    said = _spoken(covered)
    if kind == "split":
        if 0 in covered:
            ok = bool(covered & {1, 2, 3})
            hint = " (0 touches only 1, 2 and 3)"
        else:
            (r1, c1), (r2, c2) = places
            ok = abs(r1 - r2) + abs(c1 - c2) == 1
            hint = ""
        if not ok:
            _illegal(f"numbers {said} are not adjacent on the layout: a split covers two touching numbers{hint}")
    elif kind == "street":
        ok = covered in ZERO_STREETS if 0 in covered else len(rows) == 1
        if not ok:
            _illegal(f"numbers {said} do not form a street: a street is one row of three "
                     "(like 4, 5 and 6), or 0, 1 and 2, or 0, 2 and 3")
    elif kind == "corner":
        if 0 in covered:
            _illegal(f"numbers {said} do not form a corner: a corner is a square of four numbers from 1 to 36; "
                     "0, 1, 2 and 3 together are the 'four' bet")
        if not (_span(rows) and _span(cols)):
            _illegal(f"numbers {said} do not form a corner: a corner is four numbers meeting in a "
                     "square of two rows and two columns (like 1, 2, 4 and 5)")
    elif kind == "four":
        if covered != FOUR:
            _illegal(f"numbers {said} are not the four bet: it covers exactly 0, 1, 2 and 3")
    elif kind == "line":
        if 0 in covered or not _span(rows):
            _illegal(f"numbers {said} do not form a line: a line is two neighbouring rows of three "
                     "(like 1 to 6)")
    return covered


def _outside_numbers(kind: str, which: int | None) -> frozenset[int]:
    """The fixed numbers of an outside bet, checking ``which`` for a column or dozen (RO-3, RO-5)."""
    if kind in EVEN_MONEY:
        if which is not None:
            _illegal(f"a {kind} bet covers a fixed part of the layout and takes no column or dozen choice")
        return EVEN_MONEY[kind]
    if which is None:
        _illegal(f"a {kind} bet needs to say which {kind}: 1, 2 or 3")
    if type(which) is not int or which not in (1, 2, 3):
        _illegal(f"there is no {kind} {which!r}: a {kind} bet names {kind} 1, 2 or 3")
    return column_numbers(which) if kind == "column" else dozen_numbers(which)
