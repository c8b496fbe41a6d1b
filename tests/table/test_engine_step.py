"""The short cuts of a table's step per action (issue 36) change nothing a table says or keeps.

An act is verified once -- in the time bank before the bank's use is told, so a refused act
still changes nothing (BET-1); a player's seat comes from a checked index that follows every
seat taken and left; the clock's deadline is kept per clock and the full search runs whenever
anything else may be due.
"""

from __future__ import annotations

import pytest

from pokerroom.errors import RuleViolation
from pokerroom.poker import Bet, Check, Raise
from pokerroom.table import commands as tc
from pokerroom.table.decision_clock import TIME_BANK
from tests.support.timed_table import Timed
from tests.table.scenario import SEAT, Scenario, fingerprint


@pytest.mark.parametrize("action", [Check(1), Raise(1, 3), Bet(1, 10)])
def test_BET_1_an_illegal_act_in_the_time_bank_changes_nothing_and_tells_no_bank_used(action):
    t = Timed()
    t.sit("A", "B", "C")
    t.advance(2)
    t.advance(10)                                   # A's time ran out: the bank runs
    table = t.game.table
    assert table.clock.phase == TIME_BANK and t.to_act() == 1
    t.advance(5)
    before = fingerprint(table)
    with pytest.raises(RuleViolation):
        t.do("act", "A", action)
    assert fingerprint(table) == before             # no TimeBankUsed emitted, the bank and the clock as they were
    assert table.players[1].time_bank == 30


def test_BET_1_an_illegal_act_while_thinking_keeps_the_clock():
    s = Scenario()
    s.sit("A", "B", "C")
    s.deal()
    before = fingerprint(s.table)
    with pytest.raises(RuleViolation):
        s.act("A", Check)                           # A owes the big blind: no check
    assert fingerprint(s.table) == before and s.table.clock is not None


def test_a_players_seat_follows_them_after_leaving_and_sitting_elsewhere():
    s = Scenario()
    s.sit("A", "B")
    assert s.table.seat_of("A") == SEAT["A"]
    s.do("leave", "A")
    assert s.table.seat_of("A") is None
    s.do("sit", "A", 5, 100)
    assert s.table.seat_of("A") == 5
    s.do("sit", "C", SEAT["A"], 100)                # A's old seat, someone else's now
    assert s.table.seat_of("C") == SEAT["A"] and s.table.seat_of("A") == 5
    assert s.table.seat_of(None) is None and s.table.seat_of(["A"]) is None      # nothing a seat is asked for


def test_HR_TIME_5_the_deadline_kept_for_a_clock_is_the_one_a_full_search_finds():
    s = Scenario(max_sit_out=5)
    s.sit("A", "B", "C", "D", "E", "F")
    s.do("sit_out", "F")
    s.deal()
    first = s.table.next_deadline()
    assert first.command == tc.Timeout(s.table.clock.seat) and first.at == s.table.clock.deadline
    assert s.table.next_deadline() is first         # the same clock: the same deadline, made once
    s.do("join_waiting_list", "G")                  # a waiting list: F's sit-out time comes first now
    due = s.table.next_deadline()
    assert due.command == tc.SitOutExpired(SEAT["F"]) and due.at < first.at
