"""A Hypothesis machine over a cash table's whole life, hostile commands included: the properties'
(tests/table/test_properties.py) and the decision ids' (tests/table/test_decisions.py) shared driver."""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from pokerroom.errors import RuleViolation
from pokerroom.poker import NLHE, Bet, Call, Check, Fold, Raise, RunItTwice, Stakes
from pokerroom.table import CashTable, InMemorySeatingHistory, TableRules
from tests.table.scenario import fingerprint

PLAYERS = st.sampled_from(["A", "B", "C", "D", "E"])
ODD = st.one_of(st.none(), st.booleans(), st.floats(allow_nan=True), st.text(max_size=3),
                st.integers(-10**12, 10**12), st.lists(st.integers(), max_size=2))
SEATS = st.one_of(st.integers(0, 5), ODD)
AMOUNTS = st.one_of(st.integers(-5, 400), ODD)


class TableMachine(RuleBasedStateMachine):
    @initialize(seed=st.integers(0, 2**32))
    def open_table(self, seed):
        import random

        rng = random.Random(seed)
        rules = TableRules("prop", NLHE, Stakes(1, 2), 40, 200, max_seats=4, between_hands=1, seat_offer=5)
        self.table = CashTable(rules, InMemorySeatingHistory(), shuffle=lambda: rng.sample(range(52), 52),
                               draw=lambda seats: rng.choice(list(seats)))
        self.now = 1000.0

    def command(self, name, *args, **kwargs):
        before = fingerprint(self.table)
        try:
            getattr(self.table, name)(*args, self.now, **kwargs)
        except RuleViolation as refusal:
            assert refusal.code and refusal.message
            assert fingerprint(self.table) == before, f"refused {name}{args} changed the table"

    @rule(player=PLAYERS, seat=SEATS, buy_in=AMOUNTS, wait=st.booleans(),
          client=st.sampled_from(["desktop", "mobile", "phone"]))
    def sit(self, player, seat, buy_in, wait, client):
        self.command("sit", player, seat, buy_in, client_type=client, wait_for_big_blind=wait)

    @rule(player=PLAYERS, amount=AMOUNTS)
    def add_chips(self, player, amount):
        self.command("add_chips", player, amount)

    @rule(player=PLAYERS, what=st.sampled_from(["leave", "sit_out", "sit_in", "disconnect", "reconnect",
                                               "join_waiting_list", "leave_waiting_list"]))
    def simple(self, player, what):
        self.command(what, player)

    @rule(player=PLAYERS, flags=st.tuples(st.booleans(), st.booleans(), st.booleans()))
    def options(self, player, flags):
        self.command("set_options", player, auto_post_blinds=flags[0], sit_out_next_hand=flags[1],
                     sit_out_next_big_blind=flags[2])

    @rule(player=PLAYERS, kind=st.sampled_from([Fold, Check, Call, Bet, Raise, RunItTwice]), seat=SEATS,
          amount=AMOUNTS, legal=st.booleans())
    def act(self, player, kind, seat, amount, legal):
        hand = self.table.hand
        if legal and hand is not None and hand.legal_actions() is not None:
            la = hand.legal_actions()
            player = self.table.players[la.seat].player_id
            seat = la.seat
            amount = la.min_to if la.min_to else amount
        action = kind(seat) if kind in (Fold, Check, Call) else kind(seat, amount)
        self.command("act", player, action)

    @rule(seconds=st.sampled_from([0.5, 5, 30, 700]))
    def time_passes(self, seconds):
        self.now += seconds
        deadline = self.table.next_deadline()
        if deadline is not None and deadline.at <= self.now:
            self.table.fire(deadline, deadline.at)

    @rule(command=st.sampled_from(["timeout", "time_bank_expired", "sit_out_expired", "offer_expired"]),
          who=st.one_of(SEATS, PLAYERS))
    def stale_timer(self, command, who):
        self.command(command, who)

    @rule()
    def start_hand_early(self):
        self.command("start_hand")

    @invariant()
    def chips_are_conserved(self):
        t = self.table
        if t.hand is None:
            assert sum(p.stack for p in t.players.values()) + t.chips_out + t.rake == t.chips_in
        else:
            stacks = sum(t.stacks().values()) + t.hand.pot_total
            gone = sum(p.stack for s, p in t.players.items() if not t.dealt_in(s))
            assert stacks <= t.chips_in - t.chips_out - t.rake + gone

    @invariant()
    def each_player_is_found_at_their_seat_and_nobody_else_is(self):
        """``seat_of`` answers from an index of its own: whatever was refused, taken or left, it names the seats."""
        seats = {p.player_id: s for s, p in self.table.players.items()}
        for player in ("A", "B", "C", "D", "E"):
            assert self.table.seat_of(player) == seats.get(player)

    @invariant()
    def the_clock_runs_whenever_a_player_must_act(self):
        t = self.table
        if t.hand is not None:
            assert t.clock is not None and t.clock.seat == t.hand.to_act()
            assert t.next_deadline() is not None
