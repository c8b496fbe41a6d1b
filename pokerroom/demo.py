"""``pokerroom demo``: bots play a table of the room's config, narrated line by line.

Until the server lands this is what a newcomer runs to see the room play. It
is the real table (:class:`~pokerroom.table.CashTable`) on the real timer
(:class:`~pokerroom.shell.runner.Timer`), driven by a Twisted
``Clock`` so a hundred hands take a second; the bots act at random, and a
short script makes the house rules show: a player sits out and comes back
owing blinds, a newcomer posts an entry blind, a player thinks into the time
bank, another leaves after a few hands (a hit-and-run refusal).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from twisted.internet.task import Clock

from pokerroom import cards
from pokerroom.errors import RuleViolation
from pokerroom.evaluator import describe
from pokerroom.poker import Bet, Call, Check, Fold, Raise, RunItTwice
from pokerroom.poker import events as he
from pokerroom.poker.actions import Action, LegalActions, action_words
from pokerroom.shell.runner import Timer
from pokerroom.table import CashTable, InMemorySeatingHistory, TableRules
from pokerroom.table import commands as tc
from pokerroom.table import events as te

BOTS = ("Ana", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy")

_POSTS = {
    he.POST_SMALL_BLIND: "posts the small blind", he.POST_BIG_BLIND: "posts the big blind",
    he.POST_THIRD_BLIND: "posts the third blind", he.POST_ANTE: "posts an ante",
    he.POST_BIG_BLIND_ANTE: "posts the table's ante", he.POST_ENTRY: "posts a live blind to be dealt in",
    he.POST_DEAD_SMALL_BLIND: "posts a dead small blind (missed blinds)",
    he.POST_DEAD_BIG_BLIND: "posts a dead big blind (missed blinds)",
}


def money(amount: float, currency: str) -> str:
    """Chips as a player reads them: minor units as ``$1.25`` when the table has a currency."""
    if not currency:
        return f"{amount:g}"
    amount = int(amount)
    return f"{'$' if currency == 'USD' else currency + ' '}{amount // 100}.{amount % 100:02d}"


class Narrator:
    """Turns table events into sentences, using the players' names."""

    def __init__(self, currency: str) -> None:
        self.currency = currency
        self.names: dict[int, str] = {}

    def line(self, event: te.TableEvent) -> str | None:
        m = self.money
        if isinstance(event, te.PlayerSeated):
            self.names[event.seat] = event.player
            how = ", waiting for the big blind" if event.wait_for_big_blind else ""
            return f"{event.player} sits at seat {event.seat} with {m(event.stack)}{how}"
        name = self.names.get(getattr(event, "seat", 0), "?")
        if isinstance(event, te.PlayerLeft):
            extra = ""
            if event.refusal:
                extra = f" -- hit-and-run refusal #{event.refusal} at this blind level"
                if event.blocked_seconds:
                    extra += f", blocked for {event.blocked_seconds / 60:g} minutes"
            return f"{event.player} leaves with {m(event.stack)}{extra}"
        if isinstance(event, te.PlayerSatOut):
            return f"{name} sits out ({event.reason.replace('_', ' ')})"
        if isinstance(event, te.PlayerSatIn):
            owes = f", owing the missed {event.owes} blind" if event.owes else ""
            return f"{name} is back{owes}"
        if isinstance(event, te.BlindMissed):
            return f"{name} misses the {event.blind} blind while sitting out"
        if isinstance(event, te.WaitingToPlay):
            return f"{name} waits: {event.reason.replace('_', ' ')}"
        if isinstance(event, te.TimeBankStarted):
            return f"{name} is out of time: time bank running, {event.seconds:g} s"
        if isinstance(event, te.HandEvent):
            return self.hand_line(event.event)
        return None

    def hand_line(self, e: he.Event) -> str | None:
        m, names = self.money, self.names
        if isinstance(e, he.HandStarted):
            return (f"\n*** Hand {e.hand_id}: {e.variant} {m(e.small_blind)}/{m(e.big_blind)}, "
                    f"button seat {e.button_seat} ***")
        if isinstance(e, he.Posted):
            return f"{names[e.seat]} {_POSTS[e.kind]} {m(e.added)}"
        if isinstance(e, he.ActionTaken):
            timed = " (out of time)" if e.timed_out else ""
            amount = f" {m(e.to)}" if e.action in (he.BET, he.RAISE) else ""
            amount = f" {m(e.added)}" if e.action == he.CALL else amount
            return f"{names[e.seat]} {e.action}s{amount}{timed}"
        if isinstance(e, he.BoardDealt):
            return f"  {e.street}: [{cards.format(e.board, ' ')}]"
        if isinstance(e, he.HandShown):
            return f"{names[e.seat]} shows [{cards.format(e.cards, ' ')}] ({describe(e.rank)})"
        if isinstance(e, he.PotAwarded):
            if len(e.seats) == 1:
                return f"{names[e.seats[0]]} wins {m(e.amount)}"
            return f"{' and '.join(names[s] for s in e.seats)} split {m(e.amount)}"
        if isinstance(e, he.PotFormed) and e.rake:
            return f"  rake {m(e.rake)}"
        return None

    def money(self, amount: float) -> str:
        return money(amount, self.currency)


def bot_action(legal: LegalActions, rng: random.Random) -> Action:
    """A loose, harmless bot: mostly checks and calls, sometimes bets, raises or folds."""
    seat = legal.seat
    if legal.run_it_twice:
        return RunItTwice(seat, rng.random() < 0.5)
    r = rng.random()
    if legal.can_bet and r < 0.25:
        return Bet(seat, legal.min_to)
    if legal.can_raise and r < 0.08:
        return Raise(seat, legal.min_to)
    if legal.can_check:
        return Check(seat)
    return Call(seat) if r < 0.65 else Fold(seat)


def run_demo(rules: TableRules, hands: int, seed: int | None, say: Callable[[str], None]) -> CashTable:
    """Play ``hands`` hands with bots at a table built from ``rules``, saying each event."""
    rng = random.Random(seed)
    clock = Clock()
    clock.advance(1_700_000_000)
    narrator = Narrator(rules.currency)

    def publish(events) -> None:
        for event in events:
            text = narrator.line(event)
            if text is not None:
                say(text)

    table = CashTable(rules, InMemorySeatingHistory(), shuffle=lambda: rng.sample(range(52), 52),
                      draw=lambda seats: rng.choice(list(seats)))
    timer = Timer(table, clock, publish, name=rules.table_id)
    seats = min(rules.max_seats, 6)
    stack = (rules.min_buy_in + rules.max_buy_in) // 2
    for seat, name in enumerate(BOTS[:seats - 1], start=1):
        timer.command(tc.Sit(name, seat, stack))
    sit_again = max(stack, rules.min_buy_in)
    script = {3: tc.SitOut(BOTS[1]), 6: tc.SitIn(BOTS[1]), 4: tc.Sit(BOTS[seats - 1], None, sit_again),
              8: tc.Leave(BOTS[2]), 10: tc.Sit(BOTS[2], None, sit_again)}
    done: set[int] = set()
    while table.hand_number < hands or table.hand is not None:
        number = table.hand_number
        if number in script and number not in done and table.hand is None:
            done.add(number)
            command = script[number]
            try:
                timer.command(command)
            except RuleViolation as refusal:
                say(f"{command.player} is refused: {refusal}")
        legal = table.hand.legal_actions() if table.hand is not None else None
        if legal is not None and rng.random() > 0.03:
            timer.command(tc.Act(table.players[legal.seat].player_id, *action_words(bot_action(legal, rng)), None))
        elif timer.pending is not None:
            clock.advance(max(0.0, timer.pending.at - clock.seconds()))
        else:
            break
    return table
