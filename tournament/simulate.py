"""A whole multi-table tournament in one process with bots and no sockets, checked after every hand.

``pokerroom simulate-tournament --players N`` runs it. Bots register (some
late, some re-entering, some buying rebuys and the add-on when the structure
has them), play every hand through the director, and the finalists make a
deal when the structure allows one. A :class:`~pokerroom.money.ledger.Ledger`
posts every payment. After every command and hand the run checks what it
changed, so a field of 100,000 checks as fast as one of 1,000:

- chips are conserved: the chips at the tables equal the chips ever issued
  (counted again at each table a command named: the hand's, a move's ends);
- nobody is moved while their table, or the one they go to, is in a hand, nor
  to a table that broke in the same step;

after every round it checks the whole state: every table's chips counted
afresh, and table sizes differ by at most one (outside hand-for-hand);

and at the end:

- every place 1..entries is awarded exactly once;
- prizes + bounties + fees + rounding remainders = money in (entries, rebuys,
  add-ons and any guarantee overlay), and the tournament's accounts are empty;
- the ledger's own check passes.

A broken check raises :class:`SimulationError` naming the hand.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace

from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import HOUSE_FEES, PROMOTIONS, WORLD, cash, is_wallet
from pokerroom.money.ledger import Ledger
from pokerroom.poker.actions import Bet, Call, Check, Fold, LegalActions, Raise
from tournament import director as td
from tournament.events import tables_named
from tournament.hand_in_play import HandInPlay
from tournament.prizes import PayoutTable
from tournament.structure import PAYOUTS, STRUCTURES, TournamentSpec

ROUND_SECONDS = 60              # the tournament clock moves a minute for each round of hands


class SimulationError(AssertionError):
    pass


@dataclass
class Report:
    players: int
    entries: int
    hands: int
    rounds: int
    moves: int
    busts: int
    seconds: float
    winner: str
    deal: bool
    money_in: int
    prizes: int
    bounties: int
    fees: int
    remainders: int
    cpu_seconds: float = 0.0         # the process's CPU time: on a shared machine the wall clock also counts others

    def lines(self) -> list[str]:
        per_hand = self.seconds / self.hands * 1000 if self.hands else 0.0
        return [
            f"players {self.players}, entries {self.entries}, winner {self.winner}"
            f"{' (after a deal)' if self.deal else ''}",
            f"hands played: {self.hands} in {self.rounds} rounds",
            f"moves per bust: {self.moves / max(1, self.busts):.3f} ({self.moves} moves, {self.busts} busts)",
            f"time per hand: {per_hand:.3f} ms (CPU {self.cpu_seconds / max(1, self.hands) * 1000:.3f} ms); "
            f"total {self.seconds:.1f} s (CPU {self.cpu_seconds:.1f} s)",
            f"money in {self.money_in} = prizes {self.prizes} + bounties {self.bounties} + fees {self.fees}"
            f" + remainders {self.remainders}",
            "checks passed: chips conserved, nobody moved mid-hand, tables within one, every place once, money"
            " balanced, ledger balanced",
        ]


def bot_action(legal: LegalActions, rng: random.Random):
    """A loose bot: mostly checks or folds, sometimes calls, now and then moves all in (short tournaments)."""
    seat, r = legal.seat, rng.random()
    if legal.can_check:
        if legal.can_bet and r < 0.12:
            return Bet(seat, legal.max_to if r < 0.04 else legal.min_to)
        return Check(seat)
    if r < 0.45:
        return Fold(seat)
    if legal.can_raise and r > 0.9:
        return Raise(seat, legal.max_to)
    return Call(seat)


def default_spec(players: int) -> TournamentSpec:
    """The daily structure, sized for ``players``, with a short late registration and a re-entry."""
    spec = TournamentSpec.load(STRUCTURES / "daily.toml", id="sim", name=f"Simulated {players}")
    return replace(spec, max_players=max(players * 2, 2), min_players=2, guarantee=0)


def simulate(players: int, *, seed: int = 1, spec: TournamentSpec | None = None, late: float = 0.05,
             re_enter: float = 0.3, deal: bool = True, check: bool = True,
             observe: Callable[[td.Director], None] | None = None,
             on_events: Callable[[list], None] | None = None, elsewhere: bool = False, void: float = 0.0) -> Report:
    """Run a tournament of ``players`` bots (``late`` of them register after the start).

    ``observe`` sees the director after every command (a test saving and restoring it as the hall would);
    ``on_events`` sees every list of events the director returns, as the shell would get them.
    ``elsewhere`` sends every hand away (:meth:`Director.send_hand`) and plays it on a
    :class:`~tournament.hand_in_play.HandInPlay` as another process would, with the same deck; ``void`` is the
    chance that the process playing a hand sent away dies after its first action (the hand is void).
    """
    spec = spec or default_spec(players)
    rng = random.Random(seed)
    payouts = PayoutTable.load(PAYOUTS / f"{spec.payouts}.toml")
    director = td.Director(spec, payouts, random.Random(seed + 1))
    run = _Run(director, Ledger(keep=100), rng, check, observe, on_events, elsewhere, void)
    if spec.guarantee:                      # STAFF-1: the house deposits its guarantee and holds it for the event
        run.ledger.move(WORLD, PROMOTIONS, spec.guarantee, "deposit", "sim", 0.0)
        run.ledger.move(PROMOTIONS, td.guarantee_account(spec.id), spec.guarantee, "guarantee reserved", "sim", 0.0)
    names = [f"p{i:05d}" for i in range(players)]
    for name in names:
        run.ledger.move(WORLD, cash(name), spec.entry_cost * (spec.re_entries + 1) + 10 * spec.buy_in,
                        "deposit", "sim", 0.0)
    late_count = int(players * late) if spec.late_registration_levels else 0
    early, later = names[:players - late_count], names[players - late_count:]
    for name in early:
        run.apply(director.registration.register(name, run.funds(name)))
    run.apply(director.registration.start())
    while director.registration.behind:     # a large field is seated in slices, as the hall does between turns
        run.apply(director.registration.catch_up())
    started, cpu = time.perf_counter(), time.process_time()
    clock, next_at = 0, _next(director, 0)
    while director.state == td.RUNNING:
        run.round(rng)
        clock += ROUND_SECONDS
        while next_at is not None and clock >= next_at[1] and director.state == td.RUNNING:
            run.apply(getattr(director.clock, next_at[0])())
            next_at = _next(director, next_at[1])
        while later and director.clock.late_open:
            name = later.pop()
            run.apply(director.registration.register(name, run.funds(name)))
        if director.clock.late_open:
            for name in [p for p in run.busted_now if rng.random() < re_enter]:
                if director.clock.late_open:            # an entry can put the field in the money and close it
                    run.apply(director.registration.register(name, run.funds(name)))
        run.busted_now = []
        while director.registration.behind:                # places of late registration's busts, a slice a turn
            run.apply(director.registration.catch_up())
        if director.clock.rebuys_open:
            run.rebuys(rng)
        if deal and spec.deals and director.eliminations.in_money and len(director.entries) == 3 and not run.dealt:
            run.make_deal()
    report = run.report(players, time.perf_counter() - started)
    return replace(report, cpu_seconds=time.process_time() - cpu)


def _next(director: td.Director, now: int) -> tuple[str, int] | None:
    step = director.clock.schedule()
    return None if step is None else (step[0], now + step[1])


class _Run:
    def __init__(self, director: td.Director, ledger: Ledger, rng: random.Random, check: bool,
                 observe: Callable[[td.Director], None] | None = None,
                 on_events: Callable[[list], None] | None = None, elsewhere: bool = False, void: float = 0.0) -> None:
        self.director = director
        self.elsewhere = elsewhere
        self.void = void
        self.voided = 0
        self.observe = observe
        self.on_events = on_events
        self.ledger = ledger
        self.check = check
        self.table_chips: dict[str, int] = {}          # each table's chips as last counted
        self.chips_seen = 0                            # their sum
        self.deck = list(range(52))
        self.chips_issued = 0
        self.hands = 0
        self.rounds = 0
        self.moves = 0
        self.places: Counter[int] = Counter()
        self.busted_now: list[str] = []
        self.dealt = False
        self.money = Counter()
        self.rng = rng

    def funds(self, player: str) -> int:
        return self.ledger.balance(cash(player))

    def apply(self, events: list) -> None:
        if self.on_events is not None:
            self.on_events(events)
        if self.check:
            self._recount(events)
        for e in events:
            kind = type(e)
            if kind is td.Payment:
                self.ledger.move(e.source, e.target, e.amount, e.reason, self.director.spec.id, 0.0)
                self._count(e)
            elif kind is td.Seated:
                if e.reason in ("draw", "late"):
                    self.chips_issued += e.chips
                else:
                    self.moves += 1
                    if self.check:
                        self._check_move(e)
            elif kind is td.ChipsAdded:
                self.chips_issued += e.chips
            elif kind is td.Eliminated:
                for place in e.places:
                    self.places[place] += 1
            elif kind is td.Busted and e.can_re_enter:
                self.busted_now.append(e.player)
            elif kind is td.DealMade:
                self.dealt = True
        if self.observe is not None:
            self.observe(self.director)

    def _count(self, e: td.Payment) -> None:
        tid = self.director.spec.id
        accounts = (td.pool_account(tid), td.bounty_account(tid))
        if is_wallet(e.source) and (e.target in accounts or e.target == HOUSE_FEES):
            self.money["in"] += e.amount
            if e.target == HOUSE_FEES:
                self.money["fees"] += e.amount
        elif e.source == td.guarantee_account(tid):
            self.money["in"] += e.amount                     # the guarantee overlay, from the house's promotions
        elif e.target == td.ROUNDING:
            self.money["remainders"] += e.amount
        elif e.target == HOUSE_FEES:
            self.money["fees"] += e.amount                   # a satellite seat's fee
        elif e.source == td.pool_account(tid):
            self.money["prizes"] += e.amount
        elif e.source == td.bounty_account(tid):
            self.money["bounties"] += e.amount

    def _check_move(self, e: td.Seated) -> None:
        """Read after the command: a table in a hand now was in it all along (a hand neither ends and starts
        again within one command), and the table a player was moved to must still be there."""
        tables = self.director.tables
        table, source = tables.get(e.table), tables.get(e.source)
        if table is None and self.director.state == td.RUNNING:
            raise SimulationError(f"{e.player} was moved to {e.table}, which broke in the same step (TR-PLAY-4)")
        if (table is not None and table.in_hand) or (source is not None and source.in_hand):
            raise SimulationError(f"{e.player} was moved to {e.table} during a hand (TR-PLAY-4)")

    def round(self, rng: random.Random) -> None:
        """Every table that may deal plays one hand; tables finish in a random order."""
        d = self.director
        ready = d.ready_tables()
        if not ready:
            if d.clock.paused or d.clock.on_break or d.deal_desk.pending_deal is not None:
                return
            raise SimulationError("no table can deal, yet the tournament is running")
        self.rounds += 1
        rng.shuffle(ready)
        for table_id in ready:
            if not d.can_deal(table_id):
                continue
            rng.shuffle(self.deck)
            if self.elsewhere:
                self.apply(d.send_hand(table_id))
                self.hands += 1
                self._play_away(table_id, rng)
            else:
                self.apply(d.deal(table_id, self.deck))
                self.hands += 1
                self._play(table_id, rng)
            if self.check:
                self._check_chips(table_id)
            if d.state != td.RUNNING:
                return
        if self.check:
            self._check_whole()

    def _play(self, table_id: str, rng: random.Random) -> None:
        d = self.director
        table = d.tables.get(table_id)
        while table is not None and table.hand is not None:
            turn = table.to_act()
            if turn is None:
                break
            player, legal = turn
            self.apply(d.act(player, bot_action(legal, rng)))

    def _play_away(self, table_id: str, rng: random.Random) -> None:
        """The hand the director sent, dealt and played as another process would, and its result given back (or,
        by the ``void`` chance, the process dies after the first action and the hand is void)."""
        d = self.director
        setup = d.tables[table_id].away
        if setup is None:
            return
        away = HandInPlay(table_id, setup, self.deck)
        while (turn := away.to_act()) is not None:
            player, legal = turn
            away.act(player, bot_action(legal, rng), legal.decision)
            if self.void and rng.random() < self.void:
                self.voided += 1
                self.apply(d.hand_voided(table_id, setup.hand_id))
                return
        self.apply(d.hand_returned(away.result()))

    def _recount(self, events: list) -> None:
        """Count again the chips of the tables a command named: what a hand or a move can have changed."""
        named = tables_named(events)
        named.update(self.director.entries[e.player].table for e in events if type(e) is td.ChipsAdded)
        tables = self.director.tables
        for table_id in named:
            table = tables.get(table_id)
            chips = sum(table.stacks.values()) if table is not None else 0
            self.chips_seen += chips - self.table_chips.pop(table_id, 0)
            if table is not None:
                self.table_chips[table_id] = chips

    def _check_chips(self, table_id: str) -> None:
        """After each hand: the chips counted as hands and moves changed them (a table's stacks change only when
        a hand ends: during one they are the stacks it began with)."""
        if self.director.state == td.RUNNING and self.chips_seen != self.chips_issued:
            raise SimulationError(f"after hand {self.hands} at {table_id} the tables hold {self.chips_seen} chips; "
                                  f"{self.chips_issued} were issued")

    def _check_whole(self) -> None:
        """After each round: every table counted afresh, so a change no event named cannot hide."""
        d = self.director
        if d.state != td.RUNNING:
            return
        counted = {t.id: sum(t.stacks.values()) for t in d.tables.values()}
        if counted != self.table_chips or sum(counted.values()) != self.chips_issued:
            raise SimulationError(f"after round {self.rounds} the tables hold {sum(counted.values())} chips; "
                                  f"{self.chips_issued} were issued")
        sizes = [len(t.seats) for t in d.tables.values() if t.seats]
        if not d.hand_for_hand and sizes and max(sizes) - min(sizes) > 1:
            raise SimulationError(f"after round {self.rounds} table sizes are {sorted(sizes)} (TR-PLAY-4)")

    def rebuys(self, rng: random.Random) -> None:
        d = self.director
        spec = d.spec
        for player, entry in list(d.entries.items()):
            if entry.table and rng.random() < 0.2:
                try:
                    if entry.rebuys < spec.rebuys and d.chips(player) <= spec.starting_stack:
                        self.apply(d.registration.rebuy(player, self.funds(player)))
                    elif spec.add_on_stack and not entry.add_on:
                        self.apply(d.registration.add_on(player, self.funds(player)))
                except RuleViolation:
                    pass

    def make_deal(self) -> None:
        d = self.director
        first = next(iter(d.entries))
        self.apply(d.deal_desk.propose_deal(first, "icm"))
        self.dealt = True
        if d.deal_desk.pending_deal is not None and d.deal_desk.pending_deal.offer is not None:
            for player in d.deal_desk.pending_deal.players:
                self.apply(d.deal_desk.answer_deal(player, True))

    def report(self, players: int, seconds: float) -> Report:
        d = self.director
        tid = d.spec.id
        if d.state != td.FINISHED:
            raise SimulationError(f"the tournament ended {d.state}")
        expected = Counter(range(1, d.entries_total + 1))
        if self.places != expected:
            wrong = sorted((+(self.places - expected)) | (+(expected - self.places)))
            raise SimulationError(f"places not awarded exactly once: {wrong[:10]}")
        for account in (td.pool_account(tid), td.bounty_account(tid), td.stakes_account(tid)):
            if self.ledger.balance(account):
                raise SimulationError(f"{account} holds {self.ledger.balance(account)} at the end")
        m = self.money
        if m["in"] != m["prizes"] + m["bounties"] + m["fees"] + m["remainders"]:
            raise SimulationError(f"money in {m['in']} != prizes {m['prizes']} + bounties {m['bounties']} + "
                                  f"fees {m['fees']} + remainders {m['remainders']}")
        if not self.ledger.check():
            raise SimulationError("the ledger does not balance")
        busts = d.entries_total - 1
        return Report(players, d.entries_total, self.hands, self.rounds, self.moves, busts, seconds,
                      d.eliminations.winner, self.dealt, m["in"], m["prizes"], m["bounties"], m["fees"],
                      m["remainders"])


def main(players: int, seed: int = 1, structure: str = "") -> int:
    spec = None
    if structure:
        spec = replace(TournamentSpec.load(STRUCTURES / f"{structure}.toml"), max_players=max(players * 2, 2),
                       min_players=2)
    report = simulate(players, seed=seed, spec=spec)
    for line in report.lines():
        print(line)
    return 0


