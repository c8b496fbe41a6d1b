"""A long randomized simulation of a cash table, with the house rules checked after every hand.

Players join, sit out, disconnect, leave and come back at random, act at random
or let their clock run out, while the table's timers fire when due. After every
hand the invariants of the issue are checked against a model that re-derives
what each player owes from the hand headers alone (not from the table's own
bookkeeping):

* chips are conserved (stacks + chips taken away + rake = chips brought);
* no hand starts with fewer than two players dealt in;
* the big blind never skips a player who is dealt in, and nobody posts it twice
  in a row (HR-MB-6), so a player who stays in posts one big and one small
  blind per orbit;
* a returning player's owed dead posts are collected before they are dealt
  in, unless they come back on the big blind (HR-MB-1..4); a newcomer posts an
  entry blind or takes the big blind (HR-POST-1);
* a refused command changes nothing.
"""

from __future__ import annotations

import random

import pytest

from pokerroom.errors import RuleViolation
from pokerroom.poker import NLHE, PLO, Stakes
from pokerroom.poker import events as he
from pokerroom.table import CashTable, DecisionTimes, InMemorySeatingHistory, TableRules
from pokerroom.table import commands as tc
from pokerroom.table import events as te
from tests.poker.engine_drivers import random_action
from tests.table.scenario import fingerprint

PLAYERS = [f"p{i}" for i in range(10)]
MOVES, WEIGHTS = zip(("sit", 3), ("sit_in", 4), ("add_chips", 3), ("leave", 1), ("sit_out", 1.5),
                     ("disconnect", 0.7), ("reconnect", 1), ("options", 0.5), ("waiting_list", 0.5),
                     strict=True)


def clockwise_between(seat: int, start: int, end: int, max_seats: int) -> bool:
    """``seat`` strictly between ``start`` and ``end`` going clockwise."""
    return 0 < (seat - start) % max_seats < (end - start) % max_seats


class Model:
    """What each seat owes, re-derived from hand headers and seat events only."""

    def __init__(self, max_seats: int) -> None:
        self.max_seats = max_seats
        self.owes: dict[int, str | None] = {}
        self.new: dict[int, bool] = {}
        self.previous_big: int | None = None
        self.previous_big_player: str | None = None

    def left(self, e: te.PlayerLeft) -> None:
        if e.player == self.previous_big_player:
            self.previous_big_player = None             # back later, they are a newcomer

    def seated(self, e: te.PlayerSeated) -> None:
        self.owes[e.seat] = e.owes
        self.new[e.seat] = True

    def check_hand(self, table: CashTable, sitting_out: set[int], events: list[he.Event]) -> None:
        started = events[0]
        dealt = {e.seat: e.player for e in events if isinstance(e, he.SeatDealtIn)}
        posts: dict[int, list[str]] = {}
        for e in events:
            if isinstance(e, he.Posted):
                posts.setdefault(e.seat, []).append(e.kind)
        big = started.third_blind_seat or started.big_blind_seat      # the blind that moves on
        assert len(dealt) >= 2, "a hand started with fewer than two players"
        if len(dealt) == 2:
            assert started.small_blind_seat == started.button_seat, "heads-up, the button posts the small"
        restarted = table.plan.fresh
        if self.previous_big is not None:
            prev, prev_player = self.previous_big, self.previous_big_player
            if prev_player is not None:                 # they stayed seated since their big blind
                assert dealt[big] != prev_player, f"{prev_player} posted the big blind twice in a row"
            if prev_player in dealt.values() and not started.third_blind_seat:
                small = started.small_blind_seat
                assert small is not None and dealt[small] == prev_player, \
                    f"{prev_player} posted the big blind and then not the small blind"
            if not restarted:
                skipped = [s for s in dealt if clockwise_between(s, prev, big, self.max_seats)]
                assert not skipped, f"the big blind moved from {prev} to {big} past {skipped}, dealt in"
                for seat in sitting_out:
                    if clockwise_between(seat, prev, big, self.max_seats) and not self.new[seat]:
                        self.owes[seat] = "big"
                    elif seat == prev and not self.new[seat] and self.owes[seat] is None:
                        self.owes[seat] = "small"
        for seat in dealt:
            kinds = posts.get(seat, [])
            owes, new = self.owes[seat], self.new[seat]
            all_in = any(e.all_in for e in events if isinstance(e, he.Posted) and e.seat == seat)
            if seat != big and owes is not None and not all_in:
                assert "dead_small_blind" in kinds, f"seat {seat} owed {owes} and posted only {kinds}"
            blind = seat in (started.small_blind_seat, started.big_blind_seat, started.third_blind_seat)
            if (seat != big and not restarted and not blind and len(dealt) > 2 and (new or owes == "big")
                    and not all_in):
                assert "entry" in kinds, f"seat {seat} (owes {owes}, new {new}) posted {kinds}"
            self.owes[seat] = None
            self.new[seat] = False
        self.previous_big, self.previous_big_player = big, dealt[big]


def likely_players(table: CashTable, move: str) -> list[str]:
    """Players for whom ``move`` makes sense, so that the table stays busy; others get refusals."""
    seated = table.players.values()
    if move in ("sit", "waiting_list"):
        here = {p.player_id for p in seated}
        return [p for p in PLAYERS if p not in here]
    if move == "sit_in":
        return [p.player_id for p in seated if p.sitting_out and p.stack > 0]
    if move == "add_chips":
        return [p.player_id for p in seated if p.stack < table.rules.min_buy_in]
    if move == "reconnect":
        return [p.player_id for p in seated if not p.connected]
    return [p.player_id for p in seated]


def run(seed: int, hands: int, rules: TableRules) -> CashTable:
    rng = random.Random(seed)
    history = InMemorySeatingHistory()
    table = CashTable(rules, history, shuffle=lambda: rng.sample(range(52), 52),
                      draw=lambda seats: rng.choice(list(seats)))
    model = Model(rules.max_seats)
    now = 1_000_000.0
    brought = taken = 0
    refused = 0

    def command(name: str, *args, **kwargs) -> list[te.TableEvent]:
        nonlocal refused
        before = fingerprint(table)
        try:
            return getattr(table, name)(*args, now, **kwargs)
        except RuleViolation as e:
            assert e.code and e.message, "every refusal has a code and a sentence"
            assert fingerprint(table) == before, f"{name}{args} was refused ({e.code}) but changed the table"
            refused += 1
            return []

    while table.hand_number < hands:
        now += rng.choice((0.5, 1, 2, 5))
        roll = rng.random()
        deadline = table.next_deadline()
        if table.hand is not None and table.clock is not None and roll < 0.6:
            legal = table.hand.legal_actions()
            events = command("act", table.players[legal.seat].player_id, random_action(legal, rng))
        elif deadline is not None and roll < 0.8:
            now = max(now, deadline.at)
            if isinstance(deadline.command, tc.StartHand):
                sitting_out = {s for s, p in table.players.items() if p.sitting_out or p.stack == 0}
            events = command("apply", deadline.command)
        else:
            what = rng.choices(MOVES, WEIGHTS)[0]
            player = rng.choice(likely_players(table, what) or PLAYERS) if rng.random() < 0.9 else \
                rng.choice(PLAYERS)
            if what == "sit":
                recent = history.departures(player, rules.game_key, now - rules.rat_hole_period)
                low = max([rules.min_buy_in] + [d.stack for d in recent])
                amount = rng.randint(low, max(low, rules.max_buy_in))
                events = command("sit", player, rng.choice([None, rng.randint(1, rules.max_seats)]), amount,
                                 wait_for_big_blind=rng.random() < 0.3)
            elif what == "sit_in":
                events = command("sit_in", player, wait_for_big_blind=rng.random() < 0.3)
            elif what == "add_chips":
                seat = table.seat_of(player)
                room = rules.max_buy_in - (table.players[seat].stack if seat else 0)
                events = command("add_chips", player, rng.randint(1, max(1, room)))
            elif what == "options":
                events = command("set_options", player, auto_post_blinds=rng.random() < 0.9,
                                 sit_out_next_hand=rng.random() < 0.1,
                                 sit_out_next_big_blind=rng.random() < 0.1)
            elif what == "waiting_list":
                events = command("join_waiting_list", player)
            else:
                events = command(what, player)
        for e in events:
            if isinstance(e, te.PlayerSeated):
                brought += e.stack
                model.seated(e)
            elif isinstance(e, te.ChipsAdded):
                brought += e.added
            elif isinstance(e, te.PlayerLeft):
                taken += e.stack
                model.left(e)
            elif isinstance(e, te.HandEvent) and isinstance(e.event, he.HandStarted):
                hand_events = [x.event for x in events if isinstance(x, te.HandEvent)
                               and x.hand_id == e.hand_id]
                model.check_hand(table, sitting_out, hand_events)
        if table.hand is None:
            on_table = sum(p.stack for p in table.players.values())
            assert on_table + taken + table.rake == brought, f"chips were created or lost: {events}"
            assert (table.chips_in, table.chips_out) == (brought, taken)
    assert refused > 0
    return table


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_HR_MB_6_HR_MB_1_HR_POST_1_random_six_max_no_limit_table_keeps_every_invariant(seed):
    rules = TableRules("sim", NLHE, Stakes(1, 2), 40, 200, max_seats=6,
                       decision_times=DecisionTimes(5, 5, 5, 5))
    table = run(seed, 1000, rules)
    assert table.hand_number == 1000


def test_HR_MB_6_random_heads_up_and_three_handed_table_keeps_every_invariant():
    rules = TableRules("sim3", PLO, Stakes(1, 2), 40, 200, max_seats=3)
    run(7, 1000, rules)


def test_HR_MB_3_random_table_with_a_third_blind_keeps_the_chips_and_deals_validly():
    rules = TableRules("sim-third", NLHE, Stakes(1, 2, third_blind=4), 40, 200, max_seats=9)
    run(11, 500, rules)
