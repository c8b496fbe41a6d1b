"""Bots at one live casino table for many rounds, every chip through a ledger, checked after every round.

``pokerroom simulate-casino --game G --rounds N [--players K] [--seed S]`` runs it (:func:`main`).

The bots play a fixed strategy through the real table class the room uses
(:func:`pokerroom.casino.config.build_table`), one round after another, each
phase ended by the table's own ``expire`` (as the shell's timer would):

* ``baccarat`` -- Banker, Player and Tie every round;
* ``bet_on_baccarat`` -- every open market in the first betting window, at the
  odds offered; nothing in windows two and three;
* ``roulette`` -- one bet of each kind (:data:`ROULETTE_BETS`);
* ``blackjack`` (one seat a bot, so at most seven) and ``infinite_blackjack``
  -- hit below 17, stand on 17 or more, double on 11, split aces and eights,
  never insure (:func:`basic_move`); at Infinite Blackjack also each of the
  four side bets while it is open (IB-10).

Every bet is :data:`STAKE`, so every payout is exact in minor units (the
Banker's 5% commission, 3:2, Bet on Baccarat's odds in hundredths).

Money: each bot's wallet is filled from ``world`` with more than it can stake
in the whole run, and every event's money moves through
:func:`pokerroom.casino.money.casino_transfers`, the casino's one money path.
After every round the run checks that :meth:`~pokerroom.money.ledger.Ledger.check`
passes, that every ``casino:`` stake account is empty, that ``world`` is minus
the deposits, and that ``house:casino`` holds exactly the stakes less the
returns of every payout settled so far. A broken check raises
:class:`SimulationError` naming the round.

The report gives, per bet type (a market; a roulette bet *kind*; each side
bet), the measured return to player -- returned / staked -- with a 95%
confidence interval, next to the exact value from the engine's own rule
functions (:func:`exact_values`), and whether the exact value lies inside the
interval. Bets in one round share its cards (several bots on Banker, a
blackjack hand and its split), so the round is the sampling unit: the interval
is the normal approximation for a ratio estimator, with variance
``sum over rounds (returned - RTP * staked)^2 / (n (n - 1)) / mean_staked^2``
-- for one bet a round of a fixed stake that is the per-bet return variance
over ``n``.

Randomness: without ``seed`` the tables draw exactly as in the room, from the
OS CSPRNG (the secure shoe, the secure spin, Bet on Baccarat's secure burn
count: HR-RNG-1). With ``seed`` the shoe, the spin and the burn come from one
seeded :class:`random.Random`, so a run repeats exactly. That is acceptable in
this simulation only: HR-RNG-1 governs the room, whose tables are never given
a seeded source.
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from pokerroom.cards import DECK_SIZE
from pokerroom.casino import baccarat, roulette, side_bets
from pokerroom.casino import blackjack_rules as bj
from pokerroom.casino.blackjack import INSURANCE
from pokerroom.casino.config import GAMES, build_table, casino_rules
from pokerroom.casino.events import RoundOpened, RoundSettled, RoundVoided
from pokerroom.casino.money import casino_transfers
from pokerroom.casino.roulette_table import parse_market
from pokerroom.casino.table import BETTING, DECIDING, SETTLED, CasinoTable
from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import HOUSE_CASINO, WORLD, Kind, cash, kind_of
from pokerroom.money.ledger import Ledger

STAKE = 100                     # minor units, every bet
MOST_A_ROUND = 16 * STAKE       # more than any strategy here stakes in a round (roulette: 14 bets)
Z95 = 1.959963984540054         # the standard normal's 97.5th percentile
PUBLISHED_IB = "published 99.46% with optimal play"
ROULETTE_BETS = ("straight:17", "split:17-20", "street:13-14-15", "corner:17-18-20-21", "four", "line:13-18",
                 "column:2", "dozen:1", "red", "black", "odd", "even", "low", "high")
SIDE_BETS = tuple(side_bets.ROUND_LIMITS)
STEPS_A_ROUND = 50              # a round taking more commands than this per bot is stuck
SPLIT_VALUES = (1, 8)           # aces and eights (an ace's blackjack value is 1)


class SimulationError(AssertionError):
    pass


# --------------------------------------------------------------------------- strategy and sources

def basic_move(hand: bj.PlayerHand, moves: frozenset[str] | set[str]) -> str:
    """The bots' blackjack: split aces and eights, double on 11, hit below 17, stand on 17 or more."""
    values = [bj.card_value(c) for c in hand.cards]
    if "split" in moves and len(values) == 2 and values[0] == values[1] and values[0] in SPLIT_VALUES:
        return "split"
    total = hand.total
    if "double" in moves and total == 11:
        return "double"
    return "hit" if total < 17 else "stand"


def seeded_sources(game: str, rng: random.Random) -> dict[str, Callable]:
    """The table's random sources from one seeded generator: the simulation's repeatable runs only (not HR-RNG-1)."""
    if game == "roulette":
        return {"spin": lambda: (rng.randrange(37), 3 + rng.randrange(6))}

    def shoe(decks: int) -> list[int]:
        cards = list(range(DECK_SIZE)) * decks
        rng.shuffle(cards)
        return cards

    sources: dict[str, Callable] = {"source": shoe}
    if game == "bet_on_baccarat":
        sources["burn"] = lambda: 3 + rng.randrange(4)
    return sources


# --------------------------------------------------------------------------- exact values

@dataclass(frozen=True)
class Exact:
    value: Fraction | None          # None: no exact value to hold the measurement against
    text: str


@functools.cache
def _side_bet_rtps(decks: int) -> dict[str, Fraction]:
    frequencies = side_bets.exact_frequencies(decks)
    return {bet: side_bets.rtp(bet, frequencies[bet]) for bet in SIDE_BETS}


def exact_values(table: CasinoTable) -> dict[str, Exact]:
    """The exact return to player of each bet type the bots make, from the engine's own rule functions."""
    rules = table.rules
    if table.game == "baccarat":
        probs = baccarat.exact_outcomes(baccarat.value_counts(rules.decks))
        return {m: Exact(1 - baccarat.house_edge(m, probs), f"exact ({rules.decks} decks)") for m in baccarat.MARKETS}
    if table.game == "roulette":
        return {market.split(":")[0]: Exact(1 - roulette.house_edge(parse_market(market)), "exact")
                for market in ROULETTE_BETS}
    if table.game == "bet_on_baccarat":
        from pokerroom.casino import bet_on_baccarat as bob

        return {m: Exact(1 - rules.margin, f"exact target 1 - margin ({float(rules.margin):.0%})")
                for m in bob.MARKETS}
    if table.game == "infinite_blackjack":
        out = {"main": Exact(None, f"exact n/a (strategy-dependent; {PUBLISHED_IB})")}
        out.update({bet: Exact(rtp, f"exact ({rules.decks} decks)") for bet, rtp in
                    _side_bet_rtps(rules.decks).items()})
        return out
    return {"main": Exact(None, "exact n/a (strategy-dependent)")}


# --------------------------------------------------------------------------- the measurement

@dataclass
class Tally:
    """One bet type's money, summed per round (the sampling unit) for the ratio estimator's variance."""
    rounds: int = 0
    bets: int = 0
    staked: int = 0
    returned: int = 0
    staked2: int = 0
    returned2: int = 0
    cross: int = 0

    def add(self, bets: int, staked: int, returned: int) -> None:
        self.rounds += 1
        self.bets += bets
        self.staked += staked
        self.returned += returned
        self.staked2 += staked * staked
        self.returned2 += returned * returned
        self.cross += staked * returned

    @property
    def rtp(self) -> float:
        return self.returned / self.staked

    def half_width(self) -> float | None:
        """The 95% interval's half width, or None with fewer than two rounds."""
        n = self.rounds
        if n < 2:
            return None
        r = Fraction(self.returned, self.staked)
        spread = self.returned2 - 2 * r * self.cross + r * r * self.staked2    # sum (returned - r staked)^2
        mean = Fraction(self.staked, n)
        return Z95 * math.sqrt(spread / (n * (n - 1)) / (mean * mean))


@dataclass(frozen=True)
class MarketReport:
    market: str
    tally: Tally
    exact: Exact

    @property
    def inside(self) -> bool | None:
        half = self.tally.half_width()
        if self.exact.value is None or half is None:
            return None
        return abs(float(self.exact.value) - self.tally.rtp) <= half

    def line(self) -> str:
        t, half = self.tally, self.tally.half_width()
        if half is None:
            measured = f"RTP {t.rtp:8.3%}   95% CI n/a (one round)"
        else:
            measured = f"RTP {t.rtp:8.3%} ± {half:6.3%}  95% CI [{t.rtp - half:8.3%}, {t.rtp + half:8.3%}]"
        exact = self.exact.text if self.exact.value is None else f"{self.exact.text} {float(self.exact.value):.3%}"
        inside = {None: "", True: "  inside CI: yes", False: "  inside CI: NO"}[self.inside]
        return f"  {self.market:<12} {t.bets:>9,} bets  {measured}  {exact}{inside}"


@dataclass
class Report:
    game: str
    table: str
    rounds: int
    voided: int
    players: int
    seed: int | None
    transfers: int
    house: int
    seconds: float
    markets: list[MarketReport]
    misannounced: list[tuple[int, tuple[str, ...], tuple[str, ...]]]

    def warnings(self) -> list[str]:
        if not self.misannounced:
            return []
        number, announced, refused = self.misannounced[0]
        return [f"WARNING: in {len(self.misannounced)} rounds the round's announced closed markets were not the ones "
                f"the table refused (first: round {number}, announced {list(announced)}, refused {list(refused)}); "
                "the bots bet what the table takes"]

    def lines(self) -> list[str]:
        source = "secure RNG"
        if self.seed is not None:
            source = f"seed {self.seed} (seeded {'wheel' if self.game == 'roulette' else 'shoe'}, simulation only)"
        bets = sum(m.tally.bets for m in self.markets)
        per_round = self.seconds / self.rounds * 1000
        return [
            f"{self.game} at {self.table}: {self.rounds:,} rounds ({self.voided} void), {self.players} bot"
            f"{'s' if self.players != 1 else ''}, {source}",
            f"{bets:,} bets, {self.transfers:,} ledger transfers, house result {self.house:+,}; "
            f"{self.seconds:.2f} s ({per_round:.3f} ms a round)",
            *(m.line() for m in self.markets),
            *self.warnings(),
            "checks passed after every round: ledger balanced, casino stake accounts empty, world = -deposits, "
            "house = stakes - returns",
        ]


# --------------------------------------------------------------------------- the run

def table_for(game: str, seats: int = 7, **sources: Callable) -> CasinoTable:
    rules = casino_rules({"id": f"sim-{game.replace('_', '-')}", "name": f"Simulated {game}", "game": game,
                          "min_bet": STAKE, "max_bet": 1000 * STAKE, "seats": seats})
    return build_table(rules, **sources)


class _Run:
    def __init__(self, game: str, rounds: int, players: int, seed: int | None) -> None:
        sources = seeded_sources(game, random.Random(seed)) if seed is not None else {}
        self.table = table_for(game, **sources)
        self.game = game
        # the ledger keeps more transfers than a round can make, so each round's check replays every one of them
        self.ledger = Ledger(keep=(MOST_A_ROUND // STAKE + 1) * players + 2)
        self.names = [f"bot{i:03d}" for i in range(1, players + 1)]
        self.deposited = 0
        for name in self.names:
            amount = MOST_A_ROUND * rounds + STAKE
            self.ledger.move(WORLD, cash(name), amount, "deposit", "simulation", 0.0)
            self.deposited += amount
        if game == "blackjack":
            for seat, name in enumerate(self.names, start=1):
                self.table.join(name, seat)
        self.tallies: dict[str, Tally] = {}
        self.house = 0                  # stakes less returns of every payout settled
        self.transfers = 0
        self.voided = 0
        self.opened: RoundOpened | None = None
        self.settled: RoundSettled | None = None
        self.misannounced: list[tuple[int, tuple[str, ...], tuple[str, ...]]] = []

    def post(self, events: list) -> None:
        self.transfers += len(casino_transfers(self.ledger, events, float(self.table.number)))
        for e in events:
            kind = type(e)
            if kind is RoundOpened and e.window == 1:
                self.opened = e
            elif kind is RoundSettled:
                self._tally(e)
            elif kind is RoundVoided:
                self.voided += 1

    def _tally(self, settled: RoundSettled) -> None:
        self.settled = settled
        per: dict[str, list[int]] = {}
        for p in settled.payouts:
            key = p.market.split(":", 1)[0] if self.game == "roulette" else p.market
            money = per.setdefault(key, [0, 0, 0])
            money[0] += 1
            money[1] += p.staked
            money[2] += p.returned
            self.house += p.staked - p.returned
        for key, (bets, staked, returned) in per.items():
            tally = self.tallies.get(key)
            if tally is None:
                tally = self.tallies[key] = Tally()
            tally.add(bets, staked, returned)

    def funds(self, player: str) -> int:
        return self.ledger.balance(cash(player))

    def play_round(self) -> None:
        t = self.table
        self.opened = self.settled = None
        self.post(t.open_round())
        announced, refused = set(self.opened.closed_markets), set(t.closed_markets())
        if announced != refused:                    # told the players one thing, takes bets by another
            self.misannounced.append((t.number, tuple(sorted(announced)), tuple(sorted(refused))))
        for name in self.names:
            for market in self.markets():
                self.post(t.bet(name, market, STAKE, self.funds(name)))
        steps = 0
        while t.phase != SETTLED:
            steps += 1
            if steps > STEPS_A_ROUND * len(self.names):
                raise SimulationError(f"round {t.number} did not end after {steps - 1} steps (phase {t.phase})")
            if t.phase == BETTING:
                self.post(t.expire())               # the betting clock runs out (later windows: no bets)
            elif t.phase == DECIDING:
                if not self.decide():
                    self.post(t.expire())           # nobody has a decision to make: the clock runs out
            else:
                raise SimulationError(f"round {t.number} is stuck in phase {t.phase}")
        self.check()

    def markets(self) -> tuple[str, ...]:
        game, opened = self.game, self.opened
        if game == "baccarat":
            return ("banker", "player", "tie")
        if game == "roulette":
            return ROULETTE_BETS
        if game == "bet_on_baccarat":
            return tuple(m for m, odds in opened.odds if odds is not None and m not in opened.closed_markets)
        if game == "infinite_blackjack":
            closed = self.table.closed_markets()
            return ("main", *(m for m in SIDE_BETS if m not in closed))
        return ("main",)

    def decide(self) -> bool:
        """Every decision the bots have now; False when none had one."""
        t = self.table
        if t.dealer.step == INSURANCE:              # never insure
            answered = False
            for name in list(t.dealer.boxes):
                if t.phase != DECIDING or t.dealer.step != INSURANCE:
                    break
                try:
                    self.post(t.decide(name, "no_insurance", 0, self.funds(name)))
                    answered = True
                except RuleViolation as e:
                    if e.code != "no_insurance_now":
                        raise
            return answered
        if self.game == "blackjack":                # one hand at a time, in seat order
            box = t.dealer.to_act()
            if box is None:
                return False
            self._move(box)
            return True
        boxes = [b for b in t.dealer.playing if not b.done]  # infinite: everyone at once
        for box in boxes:
            while not box.done and t.phase == DECIDING:
                self._move(box)
        return bool(boxes)

    def _move(self, box) -> None:                  # noqa: ANN001 - a blackjack Box
        t = self.table
        hand = box.hands[box.active]
        moves = bj.legal_moves(hand, t.dealer.cards[0], t.house, not box.moved, len(box.hands))
        self.post(t.decide(box.player, basic_move(hand, moves), box.active, self.funds(box.player)))

    def check(self) -> None:
        ledger, n = self.ledger, self.table.number
        if not ledger.check():
            raise SimulationError(f"after round {n} the ledger does not balance")
        left = {a: v for a, v in ledger.balances.items() if v and kind_of(a) is Kind.CASINO}
        if left:
            raise SimulationError(f"after round {n} casino stake accounts are not empty: {left}")
        if ledger.balance(WORLD) != -self.deposited:
            raise SimulationError(f"after round {n} world holds {ledger.balance(WORLD)}, not -{self.deposited}")
        if ledger.balance(HOUSE_CASINO) != self.house:
            raise SimulationError(f"after round {n} {HOUSE_CASINO} holds {ledger.balance(HOUSE_CASINO)}; the payouts "
                                  f"settled say {self.house}")
        if self.settled is None and self.voided == 0:
            raise SimulationError(f"round {n} ended neither settled nor void")


def simulate(game: str, rounds: int, players: int = 1, seed: int | None = None) -> Report:
    """Play ``rounds`` rounds of ``game`` with ``players`` bots, checking the money after each; the report."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}: one of {', '.join(sorted(GAMES))}")
    if rounds < 1 or players < 1:
        raise ValueError("a simulation needs at least one round and one player")
    if game == "blackjack" and players > 7:
        raise ValueError("live blackjack seats seven: at most 7 players")
    run = _Run(game, rounds, players, seed)
    exact = exact_values(run.table)
    started = time.perf_counter()
    for _ in range(rounds):
        run.play_round()
    seconds = time.perf_counter() - started
    order = list(exact) + sorted(set(run.tallies) - set(exact))
    markets = [MarketReport(m, run.tallies[m], exact.get(m, Exact(None, "exact n/a"))) for m in order
               if m in run.tallies]
    return Report(game, run.table.table_id, rounds, run.voided, players, seed, run.transfers, run.house, seconds,
                  markets, run.misannounced)


def main(game: str, rounds: int, players: int = 1, seed: int | None = None) -> int:
    for line in simulate(game, rounds, players, seed).lines():
        print(line)
    return 0
