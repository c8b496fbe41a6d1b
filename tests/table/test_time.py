"""The decision clock (HR-TIME-1..5) and disconnection at cash tables (HR-DC-1), driven by a Twisted fake clock.

Late-stage protection in tournaments is tested with the tournament hall (tests/tournament).
"""

from __future__ import annotations

import pytest
from twisted.internet import defer

from pokerroom.errors import RuleViolation
from pokerroom.poker import Call, Check, Fold, Raise
from pokerroom.poker import events as he
from pokerroom.table import TimeBankRules
from pokerroom.table import commands as tc
from pokerroom.table import events as te
from tests.support.timed_table import TIMES, Timed
from tests.table.scenario import Scenario


def test_HR_TIME_5_the_next_hand_and_every_decision_run_on_the_reactor_clock():
    t = Timed()
    t.sit("A", "B", "C")
    assert t.to_act() is None
    t.advance(1.9)
    assert t.game.table.hand is None                # between-hands pause still running
    t.advance(0.1)
    assert t.to_act() == 1                          # A first to act three-handed
    started = [e for e in t.log if isinstance(e, te.DecisionStarted)]
    assert [(e.seat, e.seconds, e.time_bank) for e in started] == [(1, 10, 30)]
    assert t.timer.pending.command == tc.Timeout(1) and t.timer.pending.at == t.clock.seconds() + 10


def test_HR_TIME_1_the_limit_is_set_per_street():
    t = Timed()
    t.sit("A", "B", "C")
    t.advance(2)
    t.do("act", "A", Call(1))
    t.do("act", "B", Call(2))
    t.do("act", "C", Check(3))                      # the flop
    started = [e for e in t.log if isinstance(e, te.DecisionStarted)]
    assert [e.seconds for e in started] == [10, 10, 10, 15]


def test_HR_TIME_2_when_time_runs_out_the_time_bank_starts_and_everyone_sees_it():
    t = Timed()
    t.sit("A", "B", "C")
    t.advance(2)
    events = t.advance(10)
    assert [(e.seat, e.seconds) for e in events if isinstance(e, te.TimeBankStarted)] == [(1, 30)]
    assert t.to_act() == 1                          # still A's decision
    t.advance(12)
    events = t.do("act", "A", Call(1))              # 12 seconds of the bank used
    assert [(e.used, e.remaining) for e in events if isinstance(e, te.TimeBankUsed)] == [(12, 18)]
    assert t.game.table.players[1].time_bank == 18


def test_HR_TIME_3_out_of_time_bank_a_free_check_is_checked():
    t = Timed()
    t.sit("A", "B", "C")
    t.advance(2)
    t.do("act", "A", Call(1))
    t.do("act", "B", Call(2))
    events = t.advance(10 + 30)                     # C, the big blind, may check for free
    actions = [e.event for e in events if isinstance(e, te.HandEvent) and isinstance(e.event, he.ActionTaken)]
    assert [(a.seat, a.action, a.timed_out) for a in actions] == [(3, "check", True)]
    assert t.game.table.players[3].time_bank == 0


def test_HR_TIME_3_out_of_time_bank_facing_a_bet_the_hand_is_folded_and_its_chips_lost():
    t = Timed()
    t.sit("A", "B", "C")
    t.advance(2)
    t.do("act", "A", Raise(1, 6))
    t.do("act", "B", Call(2))                       # B has put 6 in
    events = t.advance(10 + 30)                     # C faces 4 more
    actions = [e.event for e in events if isinstance(e, te.HandEvent) and isinstance(e.event, he.ActionTaken)]
    assert [(a.seat, a.action, a.timed_out) for a in actions] == [(3, "fold", True)]
    assert t.game.table.stacks()[3] == 98


def test_HR_TIME_4_the_time_bank_is_per_player_per_table_and_refills_every_n_hands_up_to_the_cap():
    t = Timed()
    t.sit("A", "B", "C")
    t.advance(2)
    t.advance(10 + 30)                              # A burns the whole bank and folds
    players = t.game.table.players
    assert players[1].time_bank == 0 and players[2].time_bank == 30
    while t.game.table.hand is not None:
        t.do("act", t.game.table.players[t.to_act()].player_id,
             Check(t.to_act()) if t.game.table.hand.legal_actions().can_check else Call(t.to_act()))
    t.advance(2)                                    # hand 2
    refills = []
    while len(refills) < 3:
        hand = t.game.table.hand
        if hand is None:
            t.advance(2)
            continue
        legal = hand.legal_actions()
        events = t.do("act", players[legal.seat].player_id,
                      Check(legal.seat) if legal.can_check else Call(legal.seat))
        refills += [(e.seat, e.added, e.time_bank) for e in events if isinstance(e, te.TimeBankRefilled)]
    assert sorted(refills) == [(1, 5, 5), (2, 5, 35), (3, 5, 35)]   # after 2 hands each
    other = Scenario(table_id="t2", history=t.game.history)
    other.sit("A")
    assert other.table.players[1].time_bank == 30   # a fresh bank at another table


def test_HR_TIME_4_the_refill_stops_at_the_cap():
    game = Scenario(button="A", time_bank=TimeBankRules(initial=38, refill=5, every_hands=1, cap=40))
    game.sit("A", "B")
    events = game.play_hand()
    assert sorted((e.seat, e.added, e.time_bank) for e in game.of_type(te.TimeBankRefilled, events)) == [
        (1, 2, 40), (2, 2, 40)]
    assert game.of_type(te.TimeBankRefilled, game.play_hand()) == []


def test_HR_DC_1_a_disconnected_player_gets_reconnect_time_then_the_bank_then_check_or_fold():
    t = Timed(reconnect_seconds=20)
    t.sit("A", "B", "C")
    t.advance(2)
    t.do("disconnect", "A")
    events = t.advance(10)
    assert [(e.seat, e.seconds) for e in events if isinstance(e, te.ReconnectTimeStarted)] == [(1, 20)]
    events = t.advance(20)
    assert [(e.seat, e.seconds) for e in events if isinstance(e, te.TimeBankStarted)] == [(1, 30)]
    events = t.advance(30)
    actions = [e.event for e in events if isinstance(e, te.HandEvent) and isinstance(e.event, he.ActionTaken)]
    assert [(a.seat, a.action, a.timed_out) for a in actions] == [(1, "fold", True)]


def test_HR_DC_1_a_disconnected_player_sits_out_after_the_hand_and_keeps_seat_and_stack_on_return():
    t = Timed(reconnect_seconds=0)
    t.sit("A", "B", "C")
    t.advance(2)
    t.do("disconnect", "B")
    t.do("act", "A", Call(1))
    events = t.advance(10 + 30)                     # B, small blind, facing 1 more: folded
    actions = [e.event for e in events if isinstance(e, te.HandEvent) and isinstance(e.event, he.ActionTaken)]
    assert actions[0].seat == 2 and actions[0].action == "fold"
    t.do("act", "C", Check(3))
    while t.game.table.hand is not None:
        t.do("act", t.game.table.players[t.to_act()].player_id, Check(t.to_act()))
    sat_out = [e for e in t.log if isinstance(e, te.PlayerSatOut)]
    assert [(e.seat, e.reason) for e in sat_out] == [(2, te.DISCONNECTED)]
    t.do("reconnect", "B")
    assert t.game.table.seat_of("B") == 2 and t.game.table.players[2].stack == 99


def test_HR_DC_1_a_player_sitting_out_in_a_hand_gets_no_time_bank():
    t = Timed()
    t.sit("A", "B", "C")
    t.advance(2)
    t.do("sit_out", "A")
    events = t.advance(10)
    actions = [e.event for e in events if isinstance(e, te.HandEvent) and isinstance(e.event, he.ActionTaken)]
    assert [(a.seat, a.action) for a in actions] == [(1, "fold")]
    assert t.game.table.players[1].time_bank == 30


def test_HR_TIME_5_a_stale_or_early_timer_command_changes_nothing():
    game = Scenario(button="A", decision_times=TIMES)
    game.sit("A", "B", "C")
    game.deal()
    before = game.table.seq
    with pytest.raises(RuleViolation) as early:
        game.do("timeout", 1)                       # no time has passed
    with pytest.raises(RuleViolation):
        game.do("timeout", 2)                       # not B's decision
    with pytest.raises(RuleViolation):
        game.do("time_bank_expired", 1)             # A is not in the bank
    assert early.value.code == "not_due" and game.table.seq == before


def test_a_timer_that_raises_a_bug_is_logged_and_never_spins_the_reactor():
    t = Timed()
    t.sit("A", "B")
    calls = []

    def broken(now):
        calls.append(now)
        raise ZeroDivisionError("a bug")

    t.game.table.start_hand = broken
    t.advance(2)
    t.advance(60)
    assert len(calls) == 1 and t.timer.pending is None


def test_HR_DC_2_a_reconnecting_player_resumes_with_seat_stack_and_own_cards_only():
    from pokerroom.poker.redact import Viewer

    t = Timed()
    t.sit("A", "B", "C")
    t.advance(2)
    t.do("act", "A", Raise(1, 6))
    t.do("disconnect", "B")
    t.do("reconnect", "B")
    snap = t.game.table.snapshot(Viewer.player(2))
    assert snap.seq == t.game.table.seq
    assert [(s.seat, s.player, s.stack) for s in snap.seats] == [(1, "A", 94), (2, "B", 99), (3, "C", 98)]
    holes = {e.seat: e.cards for e in snap.hand_events if isinstance(e, he.HoleCardsDealt)}
    assert len(holes[2]) == 2 and holes[1] == () and holes[3] == ()
    assert snap.clock[:2] == (2, "thinking")
    assert not any(isinstance(e, he.DeckRevealed) for e in snap.hand_events)


def test_HR_TIME_5_a_moved_deadline_moves_the_one_pending_call_and_fires_on_time():
    t = Timed()
    t.sit("A", "B", "C")
    t.advance(2)
    t.advance(4)
    t.do("act", "A", Call(1))                       # B's clock starts 4 s after A's, and runs 10 s
    t.advance(3)
    t.do("act", "B", Call(2))                       # C's clock: 10 s from now
    assert len(t.clock.getDelayedCalls()) == 1      # the table keeps one call pending, moved, not a pile
    assert t.advance(9.9) == []                     # A's old deadline passed at +10 from A's start: nothing
    events = t.advance(0.1)
    assert [(e.seat, e.seconds) for e in events if isinstance(e, te.TimeBankStarted)] == [(3, 30)]
    assert len(t.clock.getDelayedCalls()) == 1


def test_HR_TIME_5_the_next_hand_waits_until_the_last_hands_end_is_shown_and_its_clocks_count_from_then():
    """The last hand's end waits for its commit (durable before visible): a hand dealt meanwhile would run its
    clocks on frames nobody sees, so the table deals once the end is shown, and the first decision gets its time."""
    pending: list[defer.Deferred] = []

    def shown():
        return pending[-1] if pending and not pending[-1].called else None

    t = Timed(shown=shown)
    t.sit("A", "B", "C")
    t.advance(2)                                    # hand 1 dealt: nothing held yet
    assert t.to_act() is not None
    t.do("act", "A", Fold(1))
    pending.append(defer.Deferred())                # hand 1's end: its write has not committed
    t.do("act", "B", Fold(2))
    assert t.game.table.hand is None
    assert t.advance(2) == [] and t.advance(5) == []    # the pause is over, but nothing is dealt on it
    assert t.game.table.hand is None
    started = len(t.log)
    pending[-1].callback(None)                      # shown: hand 2 is dealt now
    dealt = t.log[started:]
    assert any(isinstance(e, te.HandEvent) and isinstance(e.event, he.HandStarted) for e in dealt)
    (decision,) = [e for e in dealt if isinstance(e, te.DecisionStarted)]
    assert t.game.table.next_deadline().at == t.clock.seconds() + decision.seconds == t.clock.seconds() + 10
