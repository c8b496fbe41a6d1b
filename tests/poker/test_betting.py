"""Betting rules: turn order, sizes, reopening, limits, caps, uncalled bets.

BET-1..8 (docs/engine.md), HR-MB-6, HR-STAKE-1, HR-TIME-3, HR-DC-1.
"""

from __future__ import annotations

from functools import partial

import pytest

from pokerroom.errors import RuleViolation
from pokerroom.poker import FLHE, PLO, Bet, Call, Check, Fold, Hand, Raise, Stakes
from pokerroom.poker.events import ActionTaken, BetReturned, BoardDealt, HandEnded, Posted
from pokerroom.poker.variants import Variant
from tests.poker.engine_drivers import setup
from tests.support.refusals import refused

DECK = list(range(52))


def hand(stacks, **kw) -> Hand:
    return Hand(setup(stacks, **kw), DECK)


def state_of(h: Hand) -> tuple:
    """Everything a command could change (lists copied)."""
    return tuple(list(v) if isinstance(v, list) else v for v in (getattr(h, s) for s in Hand.__slots__))


def test_BET_1_first_to_act_preflop_is_left_of_the_big_blind():
    h = hand([100, 100, 100, 100])             # seats 1..4, button 4: SB 1, BB 2, UTG 3
    assert h.to_act() == 3
    refused(h.apply, Call(1), code="not_your_turn", rule="BET-1", keeps=partial(state_of, h))
    refused(h.apply, Call(9), code="unknown_seat", rule="BET-1", keeps=partial(state_of, h))


def test_BET_1_first_to_act_after_the_flop_is_first_active_left_of_the_button():
    h = hand([100, 100, 100, 100])
    h.apply(Fold(3))
    h.apply(Call(4))
    h.apply(Fold(1))
    h.apply(Check(2))
    assert h.street_name == "flop"
    assert h.to_act() == 2                    # seat 1 folded: seat 2 is first left of the button


def test_HR_MB_6_heads_up_button_posts_small_blind_and_acts_first_preflop_last_after():
    h = hand([100, 100], button=2)
    posts = [(e.seat, e.kind) for e in h.events if isinstance(e, Posted)]
    assert posts == [(2, "small_blind"), (1, "big_blind")]
    assert h.to_act() == 2
    h.apply(Call(2))
    h.apply(Check(1))
    assert h.street_name == "flop" and h.to_act() == 1


def test_BET_2_cannot_check_facing_a_bet_and_cannot_call_nothing():
    h = hand([100, 100, 100])
    refused(h.apply, Check(3), code="cannot_check", rule="BET-2", keeps=partial(state_of, h))
    h.apply(Call(3))
    h.apply(Call(1))
    refused(h.apply, Call(2), code="nothing_to_call", rule="BET-2", keeps=partial(state_of, h))


def test_HR_POST_2_big_blind_may_check_an_unraised_pot():
    h = hand([100, 100, 100])
    h.apply(Call(3))
    h.apply(Call(1))
    legal = h.legal_actions()
    assert legal.seat == 2 and legal.can_check and legal.call_added == 0 and legal.can_raise
    h.apply(Check(2))
    assert h.street_name == "flop"


def test_BET_3_minimum_bet_is_the_big_blind_unless_all_in():
    h = hand([100, 100, 100])
    for a in (Call(3), Call(1), Check(2)):
        h.apply(a)
    legal = h.legal_actions()
    assert (legal.can_bet, legal.min_to, legal.max_to) == (True, 2, 98)
    refused(h.apply, Bet(1, 1), code="bet_too_small", rule="BET-3", keeps=partial(state_of, h))
    refused(h.apply, Raise(1, 4), code="no_bet_to_raise", rule="BET-3", keeps=partial(state_of, h))
    refused(h.apply, Bet(1, 99), code="not_enough_chips", rule="HR-STAKE-1", keeps=partial(state_of, h))
    h.apply(Bet(1, 2))
    refused(h.apply, Bet(2, 4), code="bet_already_made", rule="BET-3", keeps=partial(state_of, h))


def test_BET_3_an_all_in_bet_below_the_big_blind_is_allowed():
    h = hand([3, 100, 100], stakes=Stakes(1, 2))
    for a in (Call(3), Call(1), Check(2)):
        h.apply(a)
    legal = h.legal_actions()
    assert (legal.min_to, legal.max_to) == (1, 1)
    events = h.apply(Bet(1, 1))
    assert events[0].all_in


def test_BET_3_a_raise_is_at_least_the_largest_bet_or_raise_of_the_round():
    h = hand([1000, 1000, 1000, 1000])
    assert h.legal_actions().min_to == 4                # the big blind is the bet: raise by 2
    h.apply(Raise(3, 10))                               # raise by 8
    assert h.legal_actions().min_to == 18
    refused(h.apply, Raise(4, 17), code="raise_too_small", rule="BET-3", keeps=partial(state_of, h))
    h.apply(Raise(4, 18))
    h.apply(Raise(1, 40))                               # raise by 22
    assert h.legal_actions().min_to == 62


def test_HR_STAKE_1_no_limit_maximum_is_the_stack():
    h = hand([50, 100, 100])
    h.apply(Call(3))
    legal = h.legal_actions()
    assert legal.seat == 1 and legal.max_to == 50
    refused(h.apply, Raise(1, 51), code="not_enough_chips", rule="HR-STAKE-1", keeps=partial(state_of, h))
    events = h.apply(Raise(1, 50))
    assert events[0].all_in and events[0].to == 50 and h.stack(1) == 0


def test_BET_4_short_all_in_does_not_reopen_the_betting_to_players_who_acted():
    # Post-flop: seat 1 bets 100, seat 2 calls, seat 3 is all-in for 150 (a raise of 50 < 100).
    h = hand([1000, 1000, 152], stakes=Stakes(1, 2))
    for a in (Call(3), Call(1), Check(2)):
        h.apply(a)
    h.apply(Bet(1, 100))
    h.apply(Call(2))
    h.apply(Raise(3, 150))
    legal = h.legal_actions()
    assert (legal.seat, legal.call_added, legal.can_raise) == (1, 50, False)
    refused(h.apply, Raise(1, 250), code="betting_not_reopened", rule="BET-4", keeps=partial(state_of, h))
    h.apply(Call(1))
    assert not h.legal_actions().can_raise
    refused(h.apply, Raise(2, 300), code="betting_not_reopened", rule="BET-4", keeps=partial(state_of, h))


def test_BET_4_two_short_all_ins_that_add_up_to_a_full_raise_reopen_the_betting():
    # TDA 47 example: A bets 100, B all-in 125, C calls, D all-in 200, E calls: A faces a full raise.
    h = hand([1000, 127, 1000, 202, 1000], stakes=Stakes(1, 2))   # seats 1..5, button 5
    for a in (Call(3), Call(4), Call(5), Call(1), Check(2)):
        h.apply(a)
    h.apply(Bet(1, 100))            # A
    h.apply(Raise(2, 125))          # B, all-in, short
    h.apply(Call(3))                # C
    h.apply(Raise(4, 200))          # D, all-in, short again; together 100 = a full raise
    h.apply(Call(5))                # E
    legal = h.legal_actions()
    assert legal.seat == 1 and legal.can_raise
    assert legal.min_to == 300      # the minimum raise is still the last full bet (100)
    h.apply(Call(1))
    legal = h.legal_actions()
    assert legal.seat == 3 and not legal.can_raise    # C faces only 75 since acting


def test_BET_4_a_short_all_in_may_be_raised_by_a_player_yet_to_act():
    h = hand([1000, 1000, 152, 1000], stakes=Stakes(1, 2))        # seats 1..4, button 4
    for a in (Call(3), Call(4), Call(1), Check(2)):
        h.apply(a)
    h.apply(Bet(1, 100))
    h.apply(Call(2))
    h.apply(Raise(3, 150))
    legal = h.legal_actions()
    assert legal.seat == 4 and legal.can_raise and legal.min_to == 250


def test_BET_4_a_limper_may_not_reraise_a_short_all_in_preflop():
    h = hand([1000, 1000, 1000, 3], stakes=Stakes(1, 2))          # seat 4 (button) has 3 chips
    h.apply(Call(3))                # limps for 2
    h.apply(Raise(4, 3))            # all-in for 3: a raise of 1, less than the big blind
    h.apply(Call(1))
    h.apply(Call(2))
    legal = h.legal_actions()
    assert legal.seat == 3 and legal.call_added == 1 and not legal.can_raise


def test_BET_7_no_raise_when_nobody_left_could_call_it():
    h = hand([1000, 40, 1000])
    h.apply(Fold(3))
    h.apply(Raise(1, 40))
    legal = h.legal_actions()
    assert legal.seat == 2 and legal.call_added == 38 and not legal.can_raise
    refused(h.apply, Raise(2, 40), code="not_enough_chips", rule="HR-STAKE-1", keeps=partial(state_of, h))
    h2 = hand([1000, 1000, 40])
    h2.apply(Raise(3, 40))
    h2.apply(Fold(1))
    legal = h2.legal_actions()
    assert legal.seat == 2 and not legal.can_raise
    refused(h2.apply, Raise(2, 100), code="no_one_to_raise", rule="BET-7", keeps=partial(state_of, h2))


def test_BET_8_an_uncalled_bet_is_returned():
    h = hand([1000, 300, 1000])
    h.apply(Raise(3, 500))
    h.apply(Fold(1))
    events = h.apply(Call(2))                        # all-in for 300
    returned = [e for e in events if isinstance(e, BetReturned)]
    assert [(e.seat, e.amount) for e in returned] == [(3, 200)]
    assert h.ended
    final = next(e for e in h.events if isinstance(e, HandEnded))
    assert sum(s for _, s in final.stacks) == 2300


def test_BET_8_walk_returns_the_big_blinds_unmatched_part():
    h = hand([100, 100, 100])
    h.apply(Fold(3))
    events = h.apply(Fold(1))
    assert [(e.seat, e.amount) for e in events if isinstance(e, BetReturned)] == [(2, 1)]
    assert h.stacks_by_seat() == {1: 99, 2: 101, 3: 100}


def test_BET_5_pot_limit_raise_is_the_pot_after_calling():
    h = Hand(setup([1000] * 4, variant=PLO, stakes=Stakes(1, 2)), DECK)
    # UTG: call 2, pot is then 1 + 2 + 2 = 5, so the pot raise is to 2 + 5 = 7.
    assert h.legal_actions().max_to == 7
    refused(h.apply, Raise(3, 8), code="over_pot_limit", rule="BET-5", keeps=partial(state_of, h))
    h.apply(Raise(3, 7))
    # Button: call 7 makes the pot 1 + 2 + 7 + 7 = 17, so the raise is to 7 + 17 = 24.
    assert h.legal_actions().max_to == 24
    h.apply(Raise(4, 24))
    # Small blind: owes 23; pot after calling = 1 + 2 + 7 + 24 + 23 = 57: raise to 24 + 57 = 81.
    assert h.legal_actions().max_to == 81
    for a in (Fold(1), Fold(2), Call(3)):
        h.apply(a)
    # Flop: the pot is 3 + 24 + 24 = 51; a pot bet is 51.
    assert h.street_name == "flop"
    legal = h.legal_actions()
    assert (legal.can_bet, legal.min_to, legal.max_to) == (True, 2, 51)
    h.apply(Bet(3, 51))
    # Calling 51 makes the pot 153; the pot raise is to 51 + 153 = 204.
    assert h.legal_actions().max_to == 204


def test_BET_5_plo_preflop_pot_counts_a_missing_small_blind_as_posted():
    from pokerroom.poker import BlindSeats
    h = Hand(setup([1000] * 4, variant=PLO, stakes=Stakes(1, 2), blinds=BlindSeats(None, 2)), DECK)
    assert [e.kind for e in h.events if isinstance(e, Posted)] == ["big_blind"]
    assert h.legal_actions().max_to == 7         # as if 1/2 were posted, not 2 + 2 + 2 = 6


def fl_hand(stacks, **kw) -> Hand:
    return Hand(setup(stacks, variant=FLHE, stakes=Stakes(1, 2), **kw), DECK)


def test_BET_5_fixed_limit_bets_are_the_small_bet_then_the_big_bet():
    h = fl_hand([100, 100, 100])
    legal = h.legal_actions()
    assert (legal.min_to, legal.max_to) == (4, 4)
    refused(h.apply, Raise(3, 6), code="fixed_limit_size", rule="BET-5", keeps=partial(state_of, h))
    for a in (Call(3), Call(1), Check(2)):
        h.apply(a)
    assert (h.legal_actions().min_to, h.legal_actions().max_to) == (2, 2)      # flop: small bet
    for a in (Check(1), Check(2), Check(3)):
        h.apply(a)
    assert h.street_name == "turn"
    assert (h.legal_actions().min_to, h.legal_actions().max_to) == (4, 4)      # turn: big bet


def test_BET_6_fixed_limit_cap_is_a_bet_and_three_raises():
    h = fl_hand([100, 100, 100])
    h.apply(Raise(3, 4))                 # the big blind was the bet; raises 1..3
    h.apply(Raise(1, 6))
    h.apply(Raise(2, 8))
    legal = h.legal_actions()
    assert legal.seat == 3 and not legal.can_raise and legal.call_added == 4
    refused(h.apply, Raise(3, 10), code="raise_cap_reached", rule="BET-6", keeps=partial(state_of, h))


def test_BET_6_no_cap_heads_up_when_the_table_says_so():
    uncapped = Variant("FLHE", "Hold'em Limit", "holdem", "fixed_limit", 2, uncapped_heads_up=True)
    h = Hand(setup([100, 100], variant=uncapped, stakes=Stakes(1, 2)), DECK)
    for to in (4, 6, 8, 10, 12):
        h.apply(Raise(h.to_act(), to))
    assert h.legal_actions().can_raise
    capped = fl_hand([100, 100])
    for to in (4, 6, 8):
        capped.apply(Raise(capped.to_act(), to))
    assert not capped.legal_actions().can_raise


def test_BET_6_cap_reached_multiway_stays_when_it_becomes_heads_up():
    uncapped = Variant("FLHE", "Hold'em Limit", "holdem", "fixed_limit", 2, uncapped_heads_up=True)
    h = Hand(setup([100, 100, 100], variant=uncapped, stakes=Stakes(1, 2)), DECK)
    h.apply(Raise(3, 4))
    h.apply(Raise(1, 6))
    h.apply(Raise(2, 8))
    h.apply(Fold(3))
    assert not h.legal_actions().can_raise


def test_HR_TIME_3_timeout_checks_when_checking_is_free_else_folds():
    h = hand([100, 100, 100])
    events = h.timeout(3)                        # facing the big blind: fold
    assert (events[0].action, events[0].timed_out) == ("fold", True)
    h.apply(Call(1))
    events = h.timeout(2)                        # big blind, unraised: check
    assert (events[0].action, events[0].timed_out) == ("check", True)
    with pytest.raises(RuleViolation) as caught:
        h.timeout(2)
    assert caught.value.code == "not_your_turn"


def test_HR_DC_1_disconnected_player_is_folded_facing_a_bet_and_checked_when_not():
    h = hand([100, 100])
    h.apply(Call(2))
    h.apply(Check(1))
    h.apply(Bet(1, 10))
    events = h.timeout(2)
    assert events[0].action == "fold" and h.ended


def test_BET_2_fold_is_allowed_when_checking_is_free():
    h = hand([100, 100, 100])
    h.apply(Call(3))
    h.apply(Call(1))
    events = h.apply(Fold(2))
    assert events[0].action == "fold"


def test_BET_3_action_events_carry_amount_street_total_and_the_bet_faced():
    h = hand([1000, 1000, 1000])
    e = h.apply(Raise(3, 10))[0]
    assert (e.action, e.added, e.to, e.facing, e.street) == ("raise", 10, 10, 2, "preflop")
    e = h.apply(Call(1))[0]
    assert (e.action, e.added, e.to, e.facing) == ("call", 9, 10, 10)


def test_BET_1_a_hand_that_ended_refuses_every_command():
    h = hand([100, 100])
    h.apply(Fold(2))
    assert h.ended and h.legal_actions() is None and h.to_act() is None
    refused(h.apply, Check(1), code="hand_over", rule="BET-1", keeps=partial(state_of, h))
    with pytest.raises(RuleViolation):
        h.timeout(1)


def test_BET_1_BET_3_unknown_commands_and_bad_amounts_are_refused():
    h = hand([100, 100, 100])
    refused(h.apply, "fold", code="unknown_command", rule="BET-1", keeps=partial(state_of, h))
    refused(h.apply, Raise(3, 4.0), code="bad_amount", rule="BET-3", keeps=partial(state_of, h))


def test_BET_1_next_street_resets_the_bets():
    h = hand([100, 100, 100])
    for a in (Raise(3, 6), Call(1), Call(2)):
        h.apply(a)
    assert isinstance(h.events[-1], BoardDealt)
    assert h.legal_actions().call_added == 0 and h.pot_total == 18
    assert [e for e in h.events if isinstance(e, ActionTaken)][-1].to == 6


def test_BET_2_verify_and_can_apply_check_a_command_without_playing_it():
    h = hand([100, 100, 100])
    before = state_of(h)
    assert h.can_apply(Call(3)) and not h.can_apply(Check(3)) and not h.can_apply(Call(1))
    with pytest.raises(RuleViolation) as caught:
        h.verify(Raise(3, 3))
    assert caught.value.code == "raise_too_small"
    h.verify(Raise(3, 4))
    assert state_of(h) == before
