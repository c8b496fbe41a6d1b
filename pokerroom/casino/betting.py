"""One round's bets, from the first chip to the last payout: the life cycle every casino game shares.

Theory of operation
-------------------
A :class:`BettingRound` moves through the states of :data:`TRANSITIONS`::

    OPEN -> CLOSED -> DEALING -> SETTLED
      \\        \\          \\-> OPEN     (another betting window: Bet on Baccarat, BOB-2)
       \\        \\-> VOID    \\-> VOID
        \\-> VOID

Bets are taken only while OPEN (CR-2). :meth:`BettingRound.place` checks the
market is open, the limits and the player's funds before anything changes
(CR-3) and raises :class:`~pokerroom.errors.RuleViolation` with the reason
otherwise. Chips added to a market already bet in the same window join that
bet (one bet per market per window: BA-5). Every accepted chip produces a
:class:`~pokerroom.casino.events.Staked` for the shell to move through the
ledger, so the money on the table always equals the stakes in the book.

The round ends exactly once: :meth:`settle` asks the game what each bet hands
back and emits one :class:`RoundSettled` for all of them (CR-4);
:meth:`void` refunds every stake and pays nothing (CR-5).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from pokerroom.casino.events import BetPlaced, BettingClosed, Payout, RoundSettled, RoundVoided, Staked
from pokerroom.errors import RuleViolation

OPEN, CLOSED, DEALING, SETTLED, VOID = "open", "closed", "dealing", "settled", "void"
TRANSITIONS: dict[str, frozenset[str]] = {
    OPEN: frozenset({CLOSED, VOID}),
    CLOSED: frozenset({DEALING, VOID}),
    DEALING: frozenset({OPEN, SETTLED, VOID}),
    SETTLED: frozenset(),
    VOID: frozenset(),
}


@dataclass(frozen=True, slots=True)
class Limits:
    """The smallest and largest bet on a market, minor units (CR-3)."""
    minimum: int
    maximum: int

    def __post_init__(self) -> None:
        if not 0 < self.minimum <= self.maximum:
            raise ValueError(f"bet limits need 0 < minimum <= maximum, not {self.minimum}..{self.maximum}")


@dataclass(slots=True)
class Bet:
    player: str
    market: str
    amount: int
    window: int = 1
    odds: int | None = None             # BOB: decimal odds in hundredths when placed
    seat: int | None = None
    extra: int = 0                      # blackjack: doubles and splits staked on top, after betting closed


class BettingRound:
    __slots__ = ("table", "number", "state", "window", "bets", "_index", "staked")

    def __init__(self, table: str, number: int) -> None:
        self.table = table
        self.number = number
        self.state = OPEN
        self.window = 1
        self.bets: list[Bet] = []
        self._index: dict[tuple[str, str, int, int | None], Bet] = {}
        self.staked: dict[str, int] = {}         # player -> all their money on this round

    # ------------------------------------------------------------------ life cycle

    def _move(self, to: str) -> None:
        if to not in TRANSITIONS[self.state]:
            raise RuleViolation("round_state", f"round {self.number} is {self.state}; it cannot become {to}", "CR-2")
        self.state = to

    def close(self) -> list:
        """No more bets (CR-2)."""
        self._move(CLOSED)
        return [BettingClosed(self.table, self.number, self.window)]

    def dealing(self) -> None:
        self._move(DEALING)

    def reopen(self) -> None:
        """The next betting window of the same draw (BOB-2)."""
        self._move(OPEN)
        self.window += 1

    # ------------------------------------------------------------------ bets

    def check(self, player: str, market: str, amount: int, limits: Limits, funds: int, seat: int | None = None,
              ) -> Bet | None:
        """Why the bet would be refused, raised; else the bet it would join (or None for a new one)."""
        if self.state != OPEN:
            raise RuleViolation("betting_closed", f"no more bets: betting on round {self.number} has closed", "CR-2")
        if type(amount) is not int or amount <= 0:
            raise RuleViolation("bad_amount", "a bet is a positive whole number of minor units", "CR-3")
        existing = self._index.get((player, market, self.window, seat))
        total = amount + (existing.amount if existing else 0)
        if total < limits.minimum:
            raise RuleViolation("below_minimum", f"the minimum bet on {market} is {{min}}; {{given}} is below it",
                                "CR-3", amounts={"min": limits.minimum, "given": total})
        if total > limits.maximum:
            raise RuleViolation("above_maximum", f"the maximum bet on {market} is {{max}}; {{given}} is above it",
                                "CR-3", amounts={"max": limits.maximum, "given": total})
        if amount > funds:
            raise RuleViolation("insufficient_funds", "you have {have} in your wallet; the bet needs {need}", "CR-3",
                                amounts={"have": funds, "need": amount})
        return existing

    def place(self, player: str, market: str, amount: int, limits: Limits, funds: int, *,
              odds: int | None = None, seat: int | None = None) -> list:
        existing = self.check(player, market, amount, limits, funds, seat)
        if existing is None:
            existing = Bet(player, market, 0, self.window, odds, seat)
            self.bets.append(existing)
            self._index[(player, market, self.window, seat)] = existing
        existing.amount += amount
        self.staked[player] = self.staked.get(player, 0) + amount
        return [BetPlaced(self.table, self.number, player, market, existing.amount, existing.odds, seat),
                Staked(self.table, self.number, player, amount, "bet")]

    def stake_more(self, bet: Bet, amount: int, why: str) -> Staked:
        """A double, a split or insurance after betting closed: more money on a bet already made."""
        bet.extra += amount
        self.staked[bet.player] = self.staked.get(bet.player, 0) + amount
        return Staked(self.table, self.number, bet.player, amount, why)

    def add_bet(self, bet: Bet) -> Staked:
        """A bet the game opens after betting closed (insurance): its whole stake is taken now."""
        self.bets.append(bet)
        self.staked[bet.player] = self.staked.get(bet.player, 0) + bet.amount
        return Staked(self.table, self.number, bet.player, bet.amount, bet.market)

    def of(self, player: str) -> list[Bet]:
        return [b for b in self.bets if b.player == player]

    # ------------------------------------------------------------------ the end

    def settle(self, returned: Callable[[Bet], tuple[int, str]], result: str) -> RoundSettled:
        """Every bet at once (CR-4): ``returned(bet)`` is what it hands back (stake included) and why."""
        if self.state != DEALING:
            self._move(DEALING)
        payouts = []
        for bet in self.bets:                       # first: a fault here leaves the round to be voided (CR-5)
            back, detail = returned(bet)
            payouts.append(Payout(bet.player, bet.market, bet.amount + bet.extra, back, detail))
        self._move(SETTLED)
        return RoundSettled(self.table, self.number, result, tuple(payouts))

    def void(self, reason: str) -> RoundVoided:
        """A malfunction: every stake back, nothing paid (CR-5)."""
        self._move(VOID)
        return RoundVoided(self.table, self.number, reason, tuple(sorted(self.staked.items())))


def limits_for(limits: Mapping[str, Limits], default: Limits, market: str) -> Limits:
    return limits.get(market.split(":", 1)[0], default)
