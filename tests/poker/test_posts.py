"""Forced bets: blinds, antes, third blind, entry and dead posts (HR-POST, HR-MB, HR-STAKE-1)."""

from __future__ import annotations

import pytest

from pokerroom.poker import BlindSeats, Call, Check, Fold, Hand, Post, Raise, Stakes
from pokerroom.poker.events import BetReturned, HandEnded, Posted
from tests.poker.engine_drivers import setup

DECK = list(range(52))


def posts(h: Hand) -> list[tuple[int, str, int, bool]]:
    return [(e.seat, e.kind, e.added, e.live) for e in h.events if isinstance(e, Posted)]


def test_POST_1_antes_are_dead_and_posted_by_everyone_before_the_blinds():
    h = Hand(setup([100, 100, 100], stakes=Stakes(1, 2, ante=1)), DECK)
    assert posts(h) == [(1, "ante", 1, False), (2, "ante", 1, False), (3, "ante", 1, False),
                        (1, "small_blind", 1, True), (2, "big_blind", 2, True)]
    assert h.pot_total == 6
    assert h.legal_actions().call_added == 2          # antes do not count toward the bet


def test_POST_1_big_blind_ante_is_paid_by_the_big_blind_after_the_blind():
    h = Hand(setup([100, 3, 100], stakes=Stakes(1, 2, ante=2, big_blind_ante=True)), DECK)
    assert posts(h) == [(2, "big_blind", 2, True), (2, "big_blind_ante", 1, False),
                        (1, "small_blind", 1, True)]
    assert h.pot_total == 4


def test_HR_STAKE_1_a_short_big_blind_posts_all_in_and_the_others_still_owe_a_full_blind():
    h = Hand(setup([100, 1], button=1), DECK)          # heads-up: seat 1 button/SB, seat 2 BB with 1 chip
    assert posts(h) == [(1, "small_blind", 1, True), (2, "big_blind", 1, True)]
    legal = h.legal_actions()
    assert legal.seat == 1 and legal.call_added == 1 and not legal.can_raise
    events = h.apply(Call(1))
    assert [(e.seat, e.amount) for e in events if isinstance(e, BetReturned)] == [(1, 1)]
    assert h.ended


def test_HR_POST_1_HR_POST_2_an_entry_blind_is_live_and_may_check_when_unraised():
    s = setup([100, 100, 100, 100], owed_posts=(Post(4, "entry", 2),))
    h = Hand(s, DECK)
    assert (4, "entry", 2, True) in posts(h)
    h.apply(Call(3))
    legal = h.legal_actions()
    assert legal.seat == 4 and legal.can_check and legal.call_added == 0
    h.apply(Check(4))
    h.apply(Call(1))
    h.apply(Check(2))
    assert h.street_name == "flop" and h.pot_total == 8


def test_HR_MB_1_a_dead_small_blind_goes_to_the_pot_and_does_not_count_toward_the_bet():
    h = Hand(setup([100, 100, 100, 100], owed_posts=(Post(3, "dead_small_blind", 1),)), DECK)
    assert (3, "dead_small_blind", 1, False) in posts(h)
    assert h.pot_total == 4
    legal = h.legal_actions()
    assert legal.seat == 3 and legal.call_added == 2 and not legal.can_check


def test_HR_MB_2_live_big_blind_plus_dead_small_blind():
    owed = (Post(3, "entry", 2), Post(3, "dead_small_blind", 1))
    h = Hand(setup([100, 100, 100, 100], owed_posts=owed), DECK)
    assert [p for p in posts(h) if p[0] == 3] == [(3, "entry", 2, True), (3, "dead_small_blind", 1, False)]
    assert h.stack(3) == 97 and h.pot_total == 6
    legal = h.legal_actions()
    assert legal.seat == 3 and legal.can_check


def test_HR_MB_3_third_blind_is_live_straddle_sized_and_sets_the_minimum_raise():
    h = Hand(setup([100, 100, 100, 100], stakes=Stakes(1, 2, third_blind=4)), DECK)
    assert posts(h)[-1] == (3, "third_blind", 4, True)
    legal = h.legal_actions()
    assert legal.seat == 4 and legal.call_added == 4 and legal.min_to == 8
    for a in (Call(4), Call(1), Call(2)):
        h.apply(a)
    legal = h.legal_actions()
    assert legal.seat == 3 and legal.can_check                 # the third blind has the option


def test_HR_MB_3_returning_player_posts_live_third_plus_dead_small_and_big():
    owed = (Post(5, "entry", 4), Post(5, "dead_small_blind", 1), Post(5, "dead_big_blind", 2))
    h = Hand(setup([100] * 5, stakes=Stakes(1, 2, third_blind=4), owed_posts=owed), DECK)
    assert h.stack(5) == 93 and h.pot_total == 1 + 2 + 4 + 4 + 1 + 2
    h.apply(Call(4))
    legal = h.legal_actions()
    assert legal.seat == 5 and legal.can_check


def test_HR_MB_1_dead_money_stays_in_the_pot_when_the_poster_folds():
    h = Hand(setup([100, 100, 100, 100], owed_posts=(Post(3, "dead_small_blind", 1),)), DECK)
    h.apply(Fold(3))
    h.apply(Fold(4))
    h.apply(Fold(1))
    final = next(e for e in h.events if isinstance(e, HandEnded))
    assert dict(final.stacks) == {1: 99, 2: 102, 3: 99, 4: 100}


def test_HR_MB_6_dead_small_blind_under_the_dead_button_rule():
    # HR-MB-6: the small blind seat is empty this hand; only the big blind posts.
    h = Hand(setup([100, 100, 100], blinds=BlindSeats(None, 1), button=3), DECK)
    assert posts(h) == [(1, "big_blind", 2, True)]
    assert h.to_act() == 2


def test_POST_1_a_bad_setup_is_a_table_bug_and_raises_value_error():
    with pytest.raises(ValueError):
        Hand(setup([100]), DECK)
    with pytest.raises(ValueError):
        Hand(setup([100, 0]), DECK)
    with pytest.raises(ValueError):
        Hand(setup([100, 100, 100], owed_posts=(Post(2, "entry", 2),)), DECK)   # two live blinds
    with pytest.raises(ValueError):
        Hand(setup([100, 100, 100], owed_posts=(Post(3, "ante", 2),)), DECK)
    with pytest.raises(ValueError):
        Hand(setup([100, 100]), DECK[:10])
    with pytest.raises(ValueError):
        Hand(setup([100, 100]), [0] * 52)


def test_HR_POST_2_a_raise_over_the_entry_blind_is_called_in_turn():
    h = Hand(setup([100, 100, 100, 100], owed_posts=(Post(4, "entry", 2),)), DECK)
    h.apply(Raise(3, 6))
    legal = h.legal_actions()
    assert legal.seat == 4 and legal.call_added == 4


def test_HR_MB_6_HR_MB_3_a_third_blind_table_may_deal_with_a_dead_big_blind():
    s = setup([100, 100, 100, 100], stakes=Stakes(1, 2, third_blind=4), button=4,
              blinds=BlindSeats(small=1, big=None, third=3))
    h = Hand(s, DECK)
    assert posts(h) == [(1, "small_blind", 1, True), (3, "third_blind", 4, True)]
    assert h.events[0].big_blind_seat is None
    legal = h.legal_actions()
    assert legal.seat == 4 and legal.call_added == 4       # the third blind opens; seat 2 acts in turn
    h.apply(Fold(4))
    assert h.legal_actions().seat == 1


def test_a_dead_big_blind_needs_a_third_blind():
    with pytest.raises(ValueError, match="only when a third blind"):
        Hand(setup([100, 100, 100], button=3, blinds=BlindSeats(small=1, big=None)), DECK)
