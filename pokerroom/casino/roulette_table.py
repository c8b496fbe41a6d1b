"""A European roulette table: bets by layout position, one valid spin, everything settled at once (RO).

A market is written ``kind`` or ``kind:numbers``: ``straight:17``,
``split:17-20``, ``street:13-14-15``, ``corner:1-2-4-5``, ``four``,
``line:1-6`` (any of the six numbers, or the first and last), ``column:2``,
``dozen:3``, ``red``, ``black``, ``odd``, ``even``, ``low``, ``high``. The
layout check is :func:`~pokerroom.casino.roulette.parse_bet` (RO-5); a bet is
kept under its canonical name, so chips on the same position join one bet.

The pocket comes from the ``spin`` source only after betting closes (RO-4);
the default draws it from the OS CSPRNG. A spin with fewer than three
revolutions is spun again and never settled.
"""

from __future__ import annotations

from collections.abc import Callable

from pokerroom.cards import RandomDraws
from pokerroom.casino import roulette
from pokerroom.casino.betting import Bet
from pokerroom.casino.events import BallLanded
from pokerroom.casino.table import CasinoRules, CasinoTable
from pokerroom.errors import RuleViolation

Spinner = Callable[[], tuple[int, int]]          # (pocket, revolutions)
MAX_RESPINS = 10


def secure_spin() -> tuple[int, int]:
    draws = RandomDraws()
    return draws.below(37), 3 + draws.below(6)


def _readable(number: str) -> bool:
    """ASCII digits only, and few of them: ``str.isdigit`` also passes ``'²'`` and ``int()`` refuses it
    (or any string past 4300 digits) with a ValueError rather than a refusal."""
    return number.isascii() and number.isdigit() and len(number) <= 3


def parse_market(market: str) -> roulette.Bet:
    kind, _, rest = market.partition(":")
    if kind in roulette.CHOSEN_KINDS:
        if not _readable(rest):
            raise RuleViolation("illegal_bet", f"a {kind} bet names which one: {kind}:1, {kind}:2 or {kind}:3",
                                "RO-5")
        return roulette.parse_bet(kind, None, int(rest))
    if kind in roulette.EVEN_MONEY_KINDS or kind == "four":
        if rest:
            raise RuleViolation("illegal_bet", f"a {kind} bet takes no numbers", "RO-5")
        return roulette.parse_bet(kind, list(roulette.FOUR) if kind == "four" else None, None)
    parts = rest.split("-") if rest else []
    if not all(_readable(p) for p in parts):
        raise RuleViolation("illegal_bet", f"cannot read the numbers of {market!r}: write them like split:17-20",
                            "RO-5")
    numbers = [int(p) for p in parts]
    if kind == "line" and len(numbers) == 2 and abs(numbers[1] - numbers[0]) == 5:
        numbers = list(range(min(numbers), max(numbers) + 1))     # line:1-6 and line:6-1 alike
    return roulette.parse_bet(kind, numbers, None)


def market_name(bet: roulette.Bet) -> str:
    if bet.kind in roulette.EVEN_MONEY_KINDS or bet.kind == "four":
        return bet.kind
    if bet.kind == "column":
        return f"column:{min(bet.numbers)}"
    if bet.kind == "dozen":
        return f"dozen:{(min(bet.numbers) - 1) // 12 + 1}"
    return f"{bet.kind}:{'-'.join(str(n) for n in sorted(bet.numbers))}"


class RouletteTable(CasinoTable):
    game = "roulette"
    rules_text = tuple(roulette.rules_text()["rules"])
    paytable = tuple((p["kind"], f"{p['pays']}:1") for p in roulette.rules_text()["paytable"])

    def __init__(self, rules: CasinoRules, spin: Spinner = secure_spin) -> None:
        super().__init__(rules)
        self.spin = spin
        self.pocket: int | None = None

    def _new_shoe(self) -> list:
        return []                                   # a wheel, not a shoe

    def _market(self, market: str, player: str, seat: int | None) -> str:
        return market_name(parse_market(market))

    def _deal(self) -> list:
        self._to_dealing()
        for _ in range(MAX_RESPINS):                # RO-4: an invalid spin is spun again, never settled
            pocket, revolutions = self.spin()
            landed = roulette.settle_spin(revolutions, pocket)
            if landed is not roulette.Spin.RESPIN:
                break
        else:
            return self._void_round(f"no valid spin in {MAX_RESPINS} tries")
        self.pocket = landed
        colour = roulette.colour(landed)
        return [BallLanded(self.table_id, self.number, landed, colour),
                self.settle_round(f"{landed} {colour}", str(landed))]

    def _returned(self, bet: Bet) -> tuple[int, str]:
        back = roulette.returned(parse_market(bet.market), bet.amount, self.pocket)
        return back, f"{self.pocket} {roulette.colour(self.pocket)}"
