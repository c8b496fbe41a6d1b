"""Planted collusion: bots play the real cash tables and the signals must find the guilty pair (SEC-3).

``pokerroom simulate-collusion --hands N --seed S`` runs it (:func:`run_cli`).

Four six-seat No-Limit Hold'em tables at 1/2 (buy-in 200, 5% rake capped at
4) are played through :class:`~pokerroom.table.CashTable` -- the class the
room runs -- one hand at a time in turn. Twenty-eight players share the 24
seats: now and then a player who has played ten hands stands up (no
hit-and-run) and someone from the rail takes a free seat; a short stack tops
up between hands. Every finished hand's events go through
:func:`~pokerroom.security.facts.hand_facts` into one
:class:`~pokerroom.security.signals.PairSignals`, exactly as the room does.

Who plays how:

* 24 honest players (``p01`` .. ``p24``) and a household (``roommate1``,
  ``roommate2``: one IP address, honest play) use a randomised strategy on
  hand strength -- a pre-flop score of the hole cards, and after the flop the
  share of random opponent hands beaten on the board (the evaluator) -- each
  with their own thresholds. They chat now and then during a hand.
* The guilty pair (``colluder1`` gives, ``colluder2`` receives; one IP address
  and one device) sit at the same table whenever a seat lets them, never bet or
  raise after the flop while the other is live, and dump chips: before the
  flop the giver raises to 12 big blinds, the receiver re-raises, the giver
  folds whatever they hold (strong hands too); heads-up after the flop the
  receiver bets and the giver folds.

Randomness: one :class:`random.Random` seeded with ``seed`` shuffles the
deck passed to every table (a seeded deck, acceptable in a simulation only:
HR-RNG-1 governs the room, whose tables shuffle with the OS CSPRNG), draws the
button and makes every bot decision, so a run repeats exactly.

The report gives the top pairs with their leading signals, the guilty pair's
rank, the household's rank and the false-positive rate: the share of honest
pairs (every scored pair but the guilty one) whose combined score reaches
:data:`~pokerroom.security.signals.FLAG_THRESHOLD`.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from pokerroom.errors import RuleViolation
from pokerroom.evaluator import evaluate
from pokerroom.poker import NLHE, Bet, Call, Check, Fold, Raise, RakeSchedule, RunItTwice, Stakes
from pokerroom.poker import events as he
from pokerroom.poker.actions import Action, LegalActions
from pokerroom.security.facts import hand_facts
from pokerroom.security.signals import FLAG_THRESHOLD, PairEntry, PairSignals, Ring
from pokerroom.table import CashTable, InMemorySeatingHistory, TableRules
from pokerroom.table import commands as tc
from pokerroom.table import events as te

GIVER, RECEIVER = "colluder1", "colluder2"
GUILTY = (GIVER, RECEIVER)
HOUSEHOLD = ("roommate1", "roommate2")
HONEST = tuple(f"p{i:02d}" for i in range(1, 25))
TABLES = 4
SEATS = 6
BUY_IN = 200
TOP_UP_BELOW = 100
STAKES = Stakes(1, 2)
RAKE = RakeSchedule(Fraction(5, 100), ((2, 4),))
MOVE_RATE = 0.01            # chance a player who may leave does so after a hand
CHAT_RATE = 0.01            # chance an honest seated player chats during a hand
TIMEOUT_RATE = 0.003        # chance a decision is left to the clock
DUMP_RATE = 0.2            # chance the giver starts a dump when both colluders are dealt in
DUMP_RAISE_BB = 12
OPPONENT_SAMPLES = 50       # random opponent hands behind the strength estimate after the flop
SECONDS_PER_ACTION = 2.0
DEFAULT_HANDS = 3000
DEFAULT_SEED = 1


@dataclass(frozen=True, slots=True)
class Style:
    """An honest player's thresholds on hand strength (0..1)."""

    open_at: float          # raise first in before the flop
    call_at: float          # call a raise before the flop
    bet_at: float           # bet or raise after the flop
    call_post: float        # call a bet after the flop
    bluff: float            # chance of a bet with nothing


def preflop_strength(holes: Sequence[int]) -> float:
    """A rough 0..1 score of two hole cards: pairs by rank, then high cards, suited and connected."""
    r1, r2 = sorted((holes[0] >> 2, holes[1] >> 2), reverse=True)
    if r1 == r2:
        return 0.5 + r1 / 24
    score = (r1 + r2) / 24 * 0.6
    if holes[0] & 3 == holes[1] & 3:
        score += 0.06
    gap = r1 - r2
    return score + (0.04 if gap == 1 else 0.02 if gap == 2 else 0.0)


def postflop_strength(holes: Sequence[int], board: Sequence[int], rng: random.Random) -> float:
    """Share of random opponent hands this hand beats on ``board`` (ties count half), by sampling."""
    mine = evaluate(tuple(holes) + tuple(board))
    dead = set(holes) | set(board)
    rest = [c for c in range(52) if c not in dead]
    board = tuple(board)
    won = 0.0
    for _ in range(OPPONENT_SAMPLES):
        a, b = rng.sample(rest, 2)
        theirs = evaluate((a, b) + board)
        won += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return won / OPPONENT_SAMPLES


class HandView:
    """What a bot at one table knows of the running hand, from its events (its own cards included)."""

    def __init__(self) -> None:
        self.events: list[he.Event] = []
        self.player_at: dict[int, str] = {}
        self.holes: dict[int, tuple[int, ...]] = {}
        self.folded: set[int] = set()
        self.all_in: set[int] = set()
        self.board: tuple[int, ...] = ()
        self.street = he.PREFLOP
        self.aggressor: int | None = None           # last bet or raise of this street
        self.raised: set[int] = set()               # seats that bet or raised in this hand

    def see(self, e: he.Event) -> None:
        self.events.append(e)
        kind = type(e)
        if kind is he.SeatDealtIn:
            self.player_at[e.seat] = e.player
        elif kind is he.HoleCardsDealt:
            self.holes[e.seat] = e.cards
        elif kind is he.BoardDealt and e.run == 1:
            self.board, self.street, self.aggressor = e.board, e.street, None
        elif kind is he.Posted and e.all_in:
            self.all_in.add(e.seat)
        elif kind is he.ActionTaken:
            if e.action == he.FOLD:
                self.folded.add(e.seat)
            elif e.action in (he.BET, he.RAISE):
                self.aggressor = e.seat
                self.raised.add(e.seat)
            if e.all_in:
                self.all_in.add(e.seat)

    def seat_of(self, player: str) -> int | None:
        for seat, p in self.player_at.items():
            if p == player:
                return seat
        return None

    def live(self, seat: int | None) -> bool:
        return seat is not None and seat not in self.folded and seat not in self.all_in

    def in_hand(self) -> list[int]:
        return [s for s in self.player_at if s not in self.folded]


def _bet_size(legal: LegalActions, pot: int, fraction: float) -> int:
    return max(legal.min_to, min(legal.max_to, int(pot * fraction) + legal.call_added))


def honest_action(legal: LegalActions, view: HandView, pot: int, style: Style, rng: random.Random,
                  *, may_raise: bool = True) -> Action:
    """A strength-based decision with noise; ``may_raise`` False: check, call or fold only."""
    seat = legal.seat
    if legal.run_it_twice:
        return RunItTwice(seat, rng.random() < 0.5)
    holes = view.holes[seat]
    noise = rng.uniform(-0.08, 0.08)
    can_wager = may_raise and (legal.can_bet or legal.can_raise)
    wager = Bet if legal.can_bet else Raise
    if view.street == he.PREFLOP:
        strength = preflop_strength(holes) + noise
        if can_wager and strength >= (style.open_at if view.aggressor is None else style.call_at + 0.12):
            return wager(seat, max(legal.min_to, min(legal.max_to, 3 * max(legal.min_to // 2, STAKES.big_blind))))
        if legal.can_check:
            return Check(seat)
        threshold = style.open_at - 0.1 if view.aggressor is None else style.call_at
        return Call(seat) if strength >= threshold else Fold(seat)
    strength = postflop_strength(holes, view.board, rng) + noise
    if can_wager and (strength >= style.bet_at or (legal.can_check and rng.random() < style.bluff)):
        return wager(seat, _bet_size(legal, pot, 0.66))
    if legal.can_check:
        return Check(seat)
    odds = legal.call_added / (pot + legal.call_added)
    return Call(seat) if strength >= max(style.call_post, odds + 0.2) else Fold(seat)


def colluder_action(player: str, legal: LegalActions, view: HandView, pot: int, style: Style,
                    rng: random.Random) -> Action:
    """The guilty pair: soft play after the flop, chip dumps from the giver to the receiver."""
    partner = RECEIVER if player == GIVER else GIVER
    seat, partner_seat = legal.seat, view.seat_of(partner)
    if legal.run_it_twice or not view.live(partner_seat):
        return honest_action(legal, view, pot, style, rng)
    facing_partner = view.aggressor == partner_seat and not legal.can_check
    if view.street == he.PREFLOP:
        if player == GIVER:
            if facing_partner:
                return Fold(seat)                           # the dump, whatever the cards
            if (seat not in view.raised and legal.can_raise and legal.max_to >= DUMP_RAISE_BB * STAKES.big_blind
                    and rng.random() < DUMP_RATE):
                return Raise(seat, max(legal.min_to, DUMP_RAISE_BB * STAKES.big_blind))
            return honest_action(legal, view, pot, style, rng)
        if facing_partner and legal.can_raise:
            return Raise(seat, max(legal.min_to, min(legal.max_to, 2 * view_bet(view, partner_seat))))
        if not legal.can_check and legal.call_added <= 3 * STAKES.big_blind:
            return Call(seat)                               # stay in to receive
        return honest_action(legal, view, pot, style, rng)
    if facing_partner:
        return Fold(seat)
    heads_up = len(view.in_hand()) == 2
    if player == RECEIVER and heads_up and legal.can_bet:
        return Bet(seat, _bet_size(legal, pot, 0.66))
    return honest_action(legal, view, pot, style, rng, may_raise=False)


def view_bet(view: HandView, seat: int) -> int:
    """The ``to`` of ``seat``'s last action on this street."""
    for e in reversed(view.events):
        if type(e) is he.ActionTaken and e.seat == seat and e.street == view.street:
            return e.to
    return STAKES.big_blind


@dataclass
class SimulationReport:
    """How the pairs ranked after a run; ``top`` is the first ten, ``rings`` every ring found."""

    hands: int
    seed: int
    tables: int
    players: int
    seconds: float
    top: list[PairEntry]
    guilty: PairEntry
    guilty_rank: int
    household: PairEntry
    household_rank: int
    honest_pairs: int
    flagged_honest: list[tuple[str, str, float]]
    threshold: float
    rings: list[Ring]

    @property
    def false_positive_rate(self) -> float:
        """Share of honest pairs (every scored pair but the guilty one) at or above the flag threshold."""
        return len(self.flagged_honest) / self.honest_pairs if self.honest_pairs else 0.0


class _Room:
    def __init__(self, seed: int) -> None:
        self.rng = rng = random.Random(seed)
        self.history = InMemorySeatingHistory()
        self.now = 1_700_000_000.0
        self.tables = [
            CashTable(TableRules(f"sim-{i}", NLHE, STAKES, 40, BUY_IN, max_seats=SEATS, rake=RAKE,
                                 name=f"Simulation {i}"),
                      self.history, shuffle=lambda: rng.sample(range(52), 52),
                      draw=lambda seats: rng.choice(list(seats)))
            for i in range(1, TABLES + 1)]
        self.players = (*HONEST, *HOUSEHOLD, *GUILTY)
        self.styles = {p: Style(rng.uniform(0.42, 0.52), rng.uniform(0.47, 0.57), rng.uniform(0.72, 0.85),
                                rng.uniform(0.45, 0.6), rng.uniform(0.03, 0.1)) for p in self.players}
        self.where: dict[str, CashTable] = {}
        self.rail: list[str] = []                           # standing, first come first seated
        self.signals = PairSignals()
        for n, p in enumerate(self.players):
            self.signals.add_identities(p, (f"192.0.2.{n + 1}", f"device-{n + 1:04d}"))
        for p in HOUSEHOLD:
            self.signals.add_identities(p, ("203.0.113.7",))
        for p in GUILTY:
            self.signals.add_identities(p, ("198.51.100.23", "device-c0ff"))
        order = list(self.players)
        rng.shuffle(order)
        order.sort(key=lambda p: p not in GUILTY)           # the colluders sit down first, together
        self.rail = order
        self.seat_the_rail()

    def command(self, table: CashTable, command: tc.TableCommand) -> list[te.TableEvent]:
        return table.apply(command, self.now)

    def seat_the_rail(self) -> None:
        """Free seats go to the rail in turn, except that a colluder jumps the queue for the partner's table."""
        for player in GUILTY:
            partner = self.where.get(RECEIVER if player == GIVER else GIVER)
            if player in self.rail and partner is not None and partner.free_seats():
                self.sit(player, partner)
        while self.rail:
            free = [t for t in self.tables if t.free_seats()]
            if not free:
                return
            player = self.rail[0]
            partner = self.where.get(RECEIVER if player == GIVER else GIVER) if player in GUILTY else None
            self.sit(player, partner if partner in free else self.rng.choice(free))

    def sit(self, player: str, table: CashTable) -> None:
        recent = self.history.departures(player, table.rules.game_key, self.now - table.rules.rat_hole_period)
        buy_in = max([BUY_IN] + [d.stack for d in recent])
        self.command(table, tc.Sit(player, None, buy_in))
        self.where[player] = table
        self.rail.remove(player)

    def between_hands(self, table: CashTable) -> None:
        rng = self.rng
        for p in list(table.players.values()):
            leave = p.hands_played >= 10 and rng.random() < MOVE_RATE
            if p.player_id in GUILTY:
                partner = self.where.get(RECEIVER if p.player_id == GIVER else GIVER)
                apart = partner is not table and partner is not None and partner.free_seats()
                leave = p.hands_played >= 10 and (apart or (leave and partner is not table))
            if leave:
                self.command(table, tc.Leave(p.player_id))
                del self.where[p.player_id]
                self.rail.append(p.player_id)
                continue
            if p.stack < TOP_UP_BELOW:
                self.command(table, tc.AddChips(p.player_id, BUY_IN - p.stack))
            if p.sitting_out:
                self.command(table, tc.SitIn(p.player_id))
        self.seat_the_rail()

    def play_hand(self, table: CashTable) -> list[he.Event] | None:
        """One hand at ``table`` from deal to end; its events, or None when no hand could be dealt."""
        rng = self.rng
        if table.next_hand_at is None:
            return None
        self.now = max(self.now, table.next_hand_at)
        view = HandView()
        self._see(view, self.command(table, tc.StartHand()))
        if table.hand is None:
            return None
        while table.hand is not None:
            legal = table.hand.legal_actions()
            player = table.players[legal.seat].player_id
            self.now += SECONDS_PER_ACTION
            if rng.random() < TIMEOUT_RATE:
                self._let_clock_run(table, view, legal.seat)
                continue
            pot = table.hand.pot_total
            if player in GUILTY:
                action = colluder_action(player, legal, view, pot, self.styles[player], rng)
            else:
                action = honest_action(legal, view, pot, self.styles[player], rng)
            self._see(view, table.act(player, action, self.now))
        return view.events

    def _let_clock_run(self, table: CashTable, view: HandView, seat: int) -> None:
        before = len(view.events)
        while table.hand is not None and len(view.events) == before:
            deadline = table.next_deadline()
            self.now = max(self.now, deadline.at)
            self._see(view, table.fire(deadline, self.now))

    @staticmethod
    def _see(view: HandView, events: list[te.TableEvent]) -> None:
        for e in events:
            if type(e) is te.HandEvent:
                view.see(e.event)


def run(hands: int = DEFAULT_HANDS, seed: int = DEFAULT_SEED) -> SimulationReport:
    """Play ``hands`` hands in all, feed every one to the signals, and report how the pairs rank."""
    if hands < 1:
        raise ValueError("a simulation needs at least one hand")
    started = time.perf_counter()
    room = _Room(seed)
    played = 0
    while played < hands:
        dealt = False
        for table in room.tables:
            if played >= hands:
                break
            events = room.play_hand(table)
            if events is None:
                continue
            dealt = True
            played += 1
            chatted = [p.player_id for p in table.players.values()
                       if p.player_id not in GUILTY and room.rng.random() < CHAT_RATE]
            room.signals.add(hand_facts(events, table_id=table.table_id, game_key=table.rules.game_key,
                                        at=room.now, chatted=chatted))
            try:
                room.between_hands(table)
            except RuleViolation as refusal:                # a bot asked for something the table refuses
                raise AssertionError(f"the simulation broke a house rule: {refusal}") from refusal
        if not dealt:
            raise AssertionError("no table could deal a hand")
    return report(room.signals, hands, seed, time.perf_counter() - started, len(room.players))


def report(signals: PairSignals, hands: int, seed: int, seconds: float, players: int) -> SimulationReport:
    """Rank every pair and measure the guilty pair, the household and the honest pairs against the threshold."""
    ranked = signals.rank(limit=None)
    position = {e.players: n for n, e in enumerate(ranked, start=1)}
    guilty_key, household_key = tuple(sorted(GUILTY)), tuple(sorted(HOUSEHOLD))
    honest = [e for e in ranked if e.players != guilty_key]
    flagged = [(*e.players, e.score) for e in honest if e.score >= FLAG_THRESHOLD]
    return SimulationReport(
        hands, seed, TABLES, players, seconds, ranked[:10],
        ranked[position[guilty_key] - 1], position[guilty_key],
        ranked[position[household_key] - 1], position[household_key],
        len(honest), flagged, FLAG_THRESHOLD, signals.rings())


def format_report(r: SimulationReport) -> str:
    """The report as the command prints it: top pairs, the two planted pairs with their sentences, false positives."""
    lines = [
        f"planted collusion: {r.hands:,} hands at {r.tables} six-seat NLHE 1/2 tables, {r.players} players, "
        f"seeded deck (seed {r.seed}), {r.seconds:.1f} s",
        "top pairs (score 0..1; leading signals):",
    ]
    for n, e in enumerate(r.top, start=1):
        leading = ", ".join(f"{name} {e.signals[name].score:.2f}" for name in e.leading()
                            if e.signals[name].score >= 0.005) or "nothing"
        lines.append(f"  {n:>2}. {e.players[0]} + {e.players[1]}  {e.score:.3f}  ({leading})")
    for label, e, rank in (("guilty pair", r.guilty, r.guilty_rank), ("household (shared IP, honest)",
                                                                     r.household, r.household_rank)):
        lines.append(f"{label} {e.players[0]} + {e.players[1]}: rank {rank} of {r.honest_pairs + 1}, "
                     f"score {e.score:.3f}")
        for name in e.leading(4):
            lines.append(f"    {name}: {e.signals[name].why}")
    lines.append(f"false positives: {len(r.flagged_honest)} of {r.honest_pairs} honest pairs at or above the flag "
                 f"threshold {r.threshold:.2f} ({r.false_positive_rate:.1%})")
    for ring in r.rings:
        lines.append(f"ring: {', '.join(ring.players)} (mean pair score {ring.score:.3f})")
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``pokerroom simulate-collusion``."""
    parser.add_argument("--hands", type=int, default=DEFAULT_HANDS, help=f"hands to play (default {DEFAULT_HANDS})")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of the deck and the bots")


def run_cli(args: argparse.Namespace) -> int:
    print(format_report(run(args.hands, args.seed)))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pokerroom simulate-collusion", description=__doc__.splitlines()[0])
    add_arguments(parser)
    return run_cli(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
