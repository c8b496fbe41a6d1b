"""A casino table: one game's rounds, one after another, as a pure state machine.

Theory of operation
-------------------
A table is always in one *phase* (:data:`PHASES`). Commands are records of
:mod:`pokerroom.casino.commands`, carried out by :meth:`CasinoTable.apply`;
they come from players
(:meth:`CasinoTable.bet`, :meth:`~CasinoTable.decide`), from the shell's
timers (:meth:`~CasinoTable.expire`: the current phase's time ran out) and
from the operator (:meth:`~CasinoTable.void`: a malfunction). Each returns
events (:mod:`pokerroom.casino.events`); an illegal command raises
:class:`~pokerroom.errors.RuleViolation` and changes nothing.

The table has no clock. :meth:`~CasinoTable.due` says which timer the shell
should run next and for how long; when it fires the shell calls ``expire``.
Phases, and what ``expire`` does in each::

    idle      -> betting          open a round (shuffling first when the shoe says so)
    betting   -> dealing ...      no more bets (CR-2), then the game deals (and may reopen betting, BOB-2)
    deciding  -> deciding/...     a decision ran out: the game plays it for the player (BJ-4, IB-6)
    waiting   -> settled(void)    a disconnected player's round was not finished in 24 hours (CR-6)
    settled   -> betting          the pause after a result is over: the next round

Per-game subclasses supply the cards: ``_markets``/``_market`` (what may be
bet on), ``_deal`` (what happens once betting closes) and ``_returned`` (what a
bet hands back). Results history and statistics (CR-7) are kept here.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from pokerroom.casino.betting import DEALING, OPEN, Bet, BettingRound, Limits
from pokerroom.casino.commands import CasinoCommand, handler_of
from pokerroom.casino.events import LastRound, RoundOpened, RoundSettled, RoundVoided, ShoeShuffled
from pokerroom.casino.shoe import Shoe, ShoeEmpty, ShoeSource, secure_shoe
from pokerroom.errors import RuleViolation

IDLE, BETTING, DECIDING, WAITING, SETTLED = "idle", "betting", "deciding", "waiting", "settled"
PHASES = (IDLE, BETTING, DECIDING, WAITING, SETTLED)
DAY = 86_400.0
HISTORY = 100                           # results kept for the history (CR-7)


@dataclass(frozen=True)
class CasinoRules:
    """One casino table's settings, from ``[[casino]]`` in ``config/room.toml``."""
    table_id: str
    name: str
    game: str
    limits: Limits
    market_limits: Mapping[str, Limits] = field(default_factory=dict)
    currency: str = "EUR"
    decks: int = 8
    behind_cut: int = 7                 # cards behind the cut card (BA-1: seven; blackjack: the penetration)
    betting_seconds: float = 15.0
    decision_seconds: float = 10.0
    pause_seconds: float = 4.0          # the result stays on the table this long before the next round
    seats: int = 7                      # live blackjack
    margin: Fraction = Fraction(5, 100)  # Bet on Baccarat's house margin on every market (BOB-2)
    lose_all_on_dealer_blackjack: bool = True       # BJ-9
    double_after_split: bool = False                # BJ-6

    def limits_for(self, market: str) -> Limits:
        return self.market_limits.get(market.split(":", 1)[0], self.limits)


@dataclass(frozen=True, slots=True)
class Due:
    """The timer the shell should run: ``after`` seconds from now, or at the absolute time ``at``.

    ``key`` names what the timer is for (round, phase, whose turn): while it
    stays the same the shell keeps the timer it has, so one player's decision
    does not restart everyone's clock.
    """
    phase: str
    after: float | None = None
    at: float | None = None
    key: tuple = ()


class CasinoTable:
    game = ""
    rules_text: tuple[str, ...] = ()
    paytable: tuple[tuple[str, str], ...] = ()
    deals_without_bets = True           # baccarat deals and the wheel spins for the history; blackjack waits
    decisions: Any = None               # a game with player decisions: their ids (blackjack's BoxDecisions)

    def __init__(self, rules: CasinoRules, source: ShoeSource | None = None) -> None:
        if rules.game != self.game:
            raise ValueError(f"table {rules.table_id} is configured for {rules.game}, not {self.game}")
        self.rules = rules
        self.table_id = rules.table_id
        self.source = source or secure_shoe
        self.shoe: Shoe | None = None
        self.number = 0
        self.round: BettingRound | None = None
        self.phase = IDLE
        self.results: deque[tuple[int, str]] = deque(maxlen=HISTORY)
        self.stats: Counter[str] = Counter()
        self.away: dict[str, float] = {}            # disconnected player -> when (CR-6)
        self.wait_until: float | None = None        # CR-6: when the round waited on an absent player is cancelled
        self.round_away: dict[str, float] = {}      # first disconnection of each player during the round in play
        self.last_round = False
        self.dealt: list[int] = []                  # the round's cards in the order drawn (stored at its end)
        self.announced: list = []                   # events of the step in play that go out before its own

    # ------------------------------------------------------------------ commands

    def apply(self, command: CasinoCommand) -> list:
        """Carry out one command record (:mod:`pokerroom.casino.commands`): its method, by its type."""
        return handler_of(command)(self, command)

    def open_round(self) -> list:
        if self.phase not in (IDLE, SETTLED):
            raise RuleViolation("round_in_play", f"round {self.number} is still in play", "CR-2")
        events: list = []
        if self.shoe is None or self._shuffle_due():
            events += self._new_shoe()
        self.number += 1
        self.round = BettingRound(self.table_id, self.number)
        self.round_away = {}
        self.phase = BETTING
        self.last_round = False
        self.dealt = []
        events.append(RoundOpened(self.table_id, self.number, self.rules.betting_seconds,
                                  closed_markets=self.closed_markets()))
        return events

    def bet(self, player: str, market: str, amount: int, funds: int, seat: int | None = None) -> list:
        if self.round is None or self.phase != BETTING:
            number = self.number if self.round else 0
            raise RuleViolation("betting_closed", f"no more bets: round {number} is not taking bets", "CR-2")
        market = self._market(market, player, seat)
        if market in self.closed_markets():
            raise RuleViolation("market_closed", f"{market} takes no bets this round", self._closed_rule(market))
        return self._place(player, market, amount, funds, seat)

    def _place(self, player: str, market: str, amount: int, funds: int, seat: int | None) -> list:
        self._no_seat(seat)
        return self.round.place(player, market, amount, self.rules.limits_for(market), funds)

    def _no_seat(self, seat: int | None) -> None:
        """A seat at a seatless game would key a second bet on the same market (BA-5) or reach a settlement
        with no seats to settle it by: refused, as :meth:`join` refuses it (live blackjack overrides ``_place``)."""
        if seat is not None:
            raise RuleViolation("no_seats", f"{self.game.replace('_', ' ')} has no seats to choose: bet without one",
                                "CR-3")

    def expire(self) -> list:
        """The current phase's time ran out."""
        if self.phase in (IDLE, SETTLED):
            return self.open_round()
        if self.phase == BETTING:
            events = self.round.close()
            if not self.round.bets and not self.deals_without_bets:
                self.phase = SETTLED                                # nothing dealt: not in the history (CR-7)
                return events + [self.round.settle(self._returned, "no bets")]
            return events + self._dealt(self._deal)
        if self.phase == WAITING:
            return self._void_round("the round was not completed within 24 hours of a disconnection; "
                                    "every bet refunded (CR-6)")
        if self.phase == DECIDING:
            return self._dealt(self._timed_out)
        raise AssertionError(self.phase)

    def join(self, player: str, seat: int | None) -> list:
        """A player comes to the table (live blackjack: takes a seat)."""
        if seat is not None:
            raise RuleViolation("no_seats", f"{self.game.replace('_', ' ')} has no seats to choose")
        self.away.pop(player, None)
        return []

    def leave(self, player: str) -> list:
        return []

    def decide(self, player: str, move: str, hand: int, funds: int, decision: str | None = None) -> list:
        raise RuleViolation("no_decisions", f"{self.game.replace('_', ' ')} has no player decisions")

    def decision_of(self, player: str | None) -> str | None:
        """The id of the decision ``player`` has to make now, or None (games without decisions: always)."""
        return None if self.decisions is None else self.decisions.of(player)

    def disconnect(self, player: str, at: float) -> list:
        self.away.setdefault(player, at)
        self.round_away.setdefault(player, at)      # a reconnect does not restart the 24 hours of this round
        return self._waiting_check()

    def reconnect(self, player: str) -> list:
        self.away.pop(player, None)
        if self.phase == WAITING:
            self.phase = DECIDING
        return []

    def void(self, reason: str) -> list:
        """A malfunction (CR-5, BOB-5, IB-12): the round in play is cancelled and every bet refunded."""
        if self.round is None or self.phase in (IDLE, SETTLED):
            raise RuleViolation("no_round", "no round is in play to void", "CR-5")
        return self._void_round(reason)

    # ------------------------------------------------------------------ what the shell asks

    def due(self) -> Due:
        key = (self.number, self.phase, self.round.window if self.round is not None else 0)
        if self.phase in (IDLE, SETTLED):
            return Due(self.phase, after=0.0 if self.phase == IDLE else self.rules.pause_seconds, key=key)
        if self.phase == BETTING:
            return Due(BETTING, after=self.rules.betting_seconds, key=key)
        if self.phase == WAITING:
            return Due(WAITING, at=self.wait_until, key=key)
        return Due(DECIDING, after=self.rules.decision_seconds, key=key + self._turn())

    def _turn(self) -> tuple:
        """Whose decision the deciding phase's clock is running for (live blackjack: one hand at a time)."""
        return ()

    def closed_markets(self) -> tuple[str, ...]:
        return ()

    def describe(self) -> dict:
        """The game's rules and paytable as data (CR-1)."""
        r = self.rules
        limits = {"default": [r.limits.minimum, r.limits.maximum],
                  **{m: [lim.minimum, lim.maximum] for m, lim in r.market_limits.items()}}
        return {"game": self.game, "rules": list(self.rules_text), "paytable": [list(p) for p in self.paytable],
                "limits": limits, "currency": r.currency, "betting_seconds": r.betting_seconds,
                "decision_seconds": r.decision_seconds}

    def statistics(self) -> dict:
        """Round statistics (CR-7): how often each result came up since the table opened."""
        return dict(self.stats)

    def summary(self) -> dict:
        r = self.rules
        return {"table": self.table_id, "name": r.name, "game": self.game, "currency": r.currency,
                "min_bet": r.limits.minimum, "max_bet": r.limits.maximum, "round": self.number,
                "phase": self.phase, "players": len(self.players())}

    def players(self) -> set[str]:
        return {b.player for b in self.round.bets} if self.round is not None else set()

    def view(self, player: str | None) -> dict:
        """What a (re)joining player sees: the round in play and their own bets (CR-6: resume where they left)."""
        out = {"table": self.table_id, "game": self.game, "round": self.number, "phase": self.phase,
               "results": [list(r) for r in list(self.results)[-20:]]}
        if self.round is not None and player is not None:
            out["bets"] = [{"market": b.market, "amount": b.amount + b.extra, "odds": b.odds, "seat": b.seat}
                           for b in self.round.of(player)]
        return out

    # ------------------------------------------------------------------ for the games

    def _shuffle_due(self) -> bool:
        return self.shoe.cut_card_out

    def _new_shoe(self) -> list:
        self.shoe = Shoe.fresh(self.source, self.rules.decks, self.rules.behind_cut)
        return [ShoeShuffled(self.table_id, self.rules.decks, 0)]

    def draw(self) -> int:
        """The next card from the shoe, kept in the round's cards; the cut card coming out announces the last
        round."""
        card = self.shoe.draw()
        self.dealt.append(card)
        if self.shoe.cut_card_out and not self.last_round:
            self.last_round = True
            self.announced.append(LastRound(self.table_id, self.number))
        return card

    def _dealt(self, step) -> list:                 # noqa: ANN001 - a bound method of the game
        """Run a dealing step; an empty shoe (a malfunction) voids the round (CR-5). After it, a round that cannot
        go on without a disconnected player waits for them (CR-6)."""
        self.announced: list = []
        try:
            events = step()
        except ShoeEmpty:
            self.shoe = None                        # the next round starts from a new shoe, not the empty one
            return self._void_round("the shoe ran out during the round")
        return self.announced + events + self._waiting_check()

    def _market(self, market: str, player: str, seat: int | None) -> str:
        raise NotImplementedError

    def _closed_rule(self, market: str) -> str:
        return "CR-3"

    def _deal(self) -> list:
        raise NotImplementedError

    def _timed_out(self) -> list:
        raise NotImplementedError

    def _returned(self, bet: Bet) -> tuple[int, str]:
        raise NotImplementedError

    def settle_round(self, result: str, tally: str) -> RoundSettled:
        """Every bet of the round at once (CR-4), its result kept in the history and statistics (CR-7)."""
        settled = self.round.settle(self._returned, result)
        self.results.append((self.number, result))
        self.stats[tally] += 1
        self.phase = SETTLED
        return settled

    def _void_round(self, reason: str) -> list:
        voided: RoundVoided = self.round.void(reason)
        self.results.append((self.number, "void"))
        self.stats["void"] += 1
        self.phase = SETTLED
        return [voided]

    def _waiting_check(self) -> list:
        """CR-6: a round that cannot go on without a disconnected player waits for them."""
        return []

    def _to_dealing(self) -> None:
        if self.round.state == OPEN:
            self.round.close()
        if self.round.state != DEALING:
            self.round.dealing()


__all__ = ["CasinoRules", "CasinoTable", "Due", "PHASES"]
