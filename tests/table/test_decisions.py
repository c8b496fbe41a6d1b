"""Decision ids at a cash table (BET-1): each decision of a player has its own, and an action sent for any other
is refused with ``stale_decision`` and changes nothing (a Hypothesis machine over the table's whole life)."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import invariant, rule

from pokerroom.poker import NLHE, Call, Check, Fold, Stakes
from pokerroom.table import CashTable, InMemorySeatingHistory, TableRules
from tests.support.refusals import refused
from tests.table.scenario import fingerprint
from tests.table.table_machine import TableMachine


class DecisionMachine(TableMachine):
    """The table machine, acting also with decision ids: the current one, and every one handed out before."""

    def _legal(self):
        t = self.table
        legal = t.hand.legal_actions() if t.hand is not None and t.clock is not None else None
        return legal, (t.players[legal.seat].player_id if legal is not None else None)

    @invariant()
    def every_decision_has_an_id_never_handed_out_before(self):
        issued = self.__dict__.setdefault("issued", [])
        legal, _ = self._legal()
        if legal is not None and (not issued or issued[-1] != legal.decision):
            assert legal.decision not in issued, f"decision id {legal.decision} handed out twice"
            issued.append(legal.decision)

    @rule(pick=st.integers(0, 10**6), name=st.sampled_from(["A", "B", "C", "D", "E"]))
    def BET_1_an_action_on_an_earlier_decision_changes_nothing(self, pick, name):
        legal, player = self._legal()
        old = [d for d in self.__dict__.get("issued", []) if legal is None or d != legal.decision]
        if not old:
            return
        player = player or name
        seat = self.table.seat_of(player)
        if seat is None:
            return
        refused(self.table.act, player, Fold(seat), self.now, decision=old[pick % len(old)], code="stale_decision",
                rule="BET-1", keeps=lambda: fingerprint(self.table))

    @rule(name=st.sampled_from(["A", "B", "C", "D", "E"]))
    def BET_1_a_player_not_to_act_cannot_use_the_current_decision(self, name):
        legal, player = self._legal()
        seat = self.table.seat_of(name)
        if legal is None or seat is None or name == player:
            return
        refused(self.table.act, name, Fold(seat), self.now, decision=legal.decision, code="stale_decision",
                rule="BET-1", keeps=lambda: fingerprint(self.table))

    @rule()
    def acting_on_the_current_decision_plays_it(self):
        legal, player = self._legal()
        if legal is None or legal.run_it_twice:
            return
        seq = self.table.seq
        action = Check(legal.seat) if legal.can_check else Call(legal.seat)
        assert self.table.act(player, action, self.now, decision=legal.decision)
        assert self.table.seq > seq


DecisionMachine.TestCase.settings = settings(max_examples=60, stateful_step_count=60, deadline=None,
                                             suppress_health_check=[HealthCheck.too_slow])
test_BET_1_stale_decisions_are_refused_and_change_nothing = DecisionMachine.TestCase


def test_BET_1_the_same_legal_twice_acts_once():
    """A double click: the second action for one decision is refused, and the next decision is untouched."""
    rules = TableRules("dc", NLHE, Stakes(1, 2), 40, 200, max_seats=4, between_hands=1)
    table = CashTable(rules, InMemorySeatingHistory(), shuffle=lambda: list(range(52)),
                      draw=lambda seats: min(seats))
    table.sit("A", 1, 100, 0.0)
    table.sit("B", 2, 100, 0.0)
    table.start_hand(5.0)
    first = table.hand.legal_actions()
    player = table.players[first.seat].player_id
    table.act(player, Call(first.seat), 6.0, decision=first.decision)
    after = table.hand.legal_actions()
    assert after.decision != first.decision
    before = fingerprint(table)
    refused(table.act, player, Call(first.seat), 6.0, decision=first.decision, code="stale_decision", rule="BET-1")
    assert fingerprint(table) == before and table.hand.legal_actions() == after
