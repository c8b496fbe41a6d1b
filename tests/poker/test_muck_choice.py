"""Auto-muck off: a player who chose to show turns up a beaten hand at showdown (SD-2), only their own (SEC-2),
and the choice never changes who wins or the chips."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.errors import RuleViolation
from pokerroom.poker import Bet, Call, Check, Hand
from pokerroom.poker.events import HandEnded, HandMucked, HandShown, PotAwarded
from pokerroom.poker.history.pokerstars import to_pokerstars
from pokerroom.poker.redact import Viewer, redact
from tests.poker.engine_drivers import random_action, setup, stacked_deck

BEATEN = stacked_deck(["AcAd", "KcKd", "7h2s"], "2c5d9hTs3c")     # seat 3's 7-2 is beaten by both


def of(h: Hand, kind) -> list:
    return [e for e in h.events if isinstance(e, kind)]


def river_bet(h: Hand) -> None:
    """Seat 2 bets the river and both others call: seat 2 shows first, seat 3 is beaten by then."""
    for a in (Call(3), Call(1), Check(2)):
        h.apply(a)
    for _ in range(2):
        for seat in (1, 2, 3):
            h.apply(Check(seat))
    for a in (Check(1), Bet(2, 10), Call(3), Call(1)):
        h.apply(a)


def test_SD_2_a_player_who_turned_auto_muck_off_shows_a_beaten_hand():
    h = Hand(setup([100, 100, 100], show_at_showdown=frozenset({3})), BEATEN)
    river_bet(h)
    assert [e.seat for e in of(h, HandShown)] == [2, 3, 1]
    assert of(h, HandMucked) == []
    assert of(h, PotAwarded)[0].seats == (1,)


def test_SD_2_the_choice_can_change_during_the_hand_and_back():
    h = Hand(setup([100, 100, 100]), BEATEN)
    h.choose_show(3, True)
    h.choose_show(3, False)
    h.choose_show(2, True)          # seat 2 shows first anyway
    river_bet(h)
    assert [e.seat for e in of(h, HandMucked)] == [3]
    h2 = Hand(setup([100, 100, 100]), BEATEN)
    h2.choose_show(3, True)
    river_bet(h2)
    assert 3 in [e.seat for e in of(h2, HandShown)]


def test_SD_2_a_choice_for_a_seat_not_dealt_in_or_after_the_hand_is_refused():
    with pytest.raises(ValueError, match="seat 7"):
        Hand(setup([100, 100, 100], show_at_showdown=frozenset({7})), BEATEN)
    h = Hand(setup([100, 100, 100]), BEATEN)
    with pytest.raises(RuleViolation) as refused:
        h.choose_show(7, True)
    assert refused.value.code == "unknown_seat"
    with pytest.raises(RuleViolation) as refused:
        h.choose_show(3, "yes")
    assert refused.value.code == "bad_option"
    river_bet(h)
    with pytest.raises(RuleViolation) as refused:
        h.choose_show(3, True)
    assert refused.value.code == "hand_over"


def test_SEC_2_showing_one_hand_reveals_no_other_mucked_hand():
    # Four players checked down: seat 1's aces show first; seats 2 and 3 keep auto-muck and muck, seat 4 chose to
    # show its beaten hand.
    deck = stacked_deck(["AcAd", "KcKd", "7h2s", "8h3s"], "2c5d9hTs4c")
    h = Hand(setup([100, 100, 100, 100], show_at_showdown=frozenset({4})), deck)
    for a in (Call(3), Call(4), Call(1), Check(2)):
        h.apply(a)
    while not h.ended:
        h.apply(Check(h.legal_actions().seat))
    mucked = of(h, HandMucked)
    assert [e.seat for e in mucked] == [2, 3]
    assert {e.seat for e in of(h, HandShown)} == {1, 4}
    for muck in mucked:
        for viewer in (Viewer.player(4), Viewer.player(1), Viewer.observer()):
            assert redact(muck, viewer, hand_ended=True).cards == ()
        assert redact(muck, Viewer.player(muck.seat), hand_ended=True).cards == muck.cards


def test_SD_2_the_pokerstars_history_shows_the_cards_of_a_player_who_showed():
    h = Hand(setup([100, 100, 100], show_at_showdown=frozenset({3})), BEATEN)
    river_bet(h)
    text = to_pokerstars(h.events)
    assert "p3: shows [7h 2s]" in text
    assert "mucks" not in text


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6), st.permutations(range(52)), st.sets(st.integers(1, 6)), st.randoms(use_true_random=False))
def test_SD_2_a_showing_choice_never_changes_who_wins_or_the_chips(n, deck, chosen, rng):
    """The same hand played with and without the choices: the same pots, winners and stacks; every chooser who
    reached the showdown shows, and a mucked hand is never one that chose to show."""
    base = setup([rng.randint(5, 300) for _ in range(n)])
    actions = []
    h = Hand(base, deck)
    while not h.ended:
        action = random_action(h.legal_actions(), rng)
        actions.append(action)
        h.apply(action)
    chosen = frozenset(s for s in chosen if s <= n)
    h2 = Hand(replace(base, show_at_showdown=chosen), deck)
    for action in actions:
        h2.apply(action)
    assert of(h2, PotAwarded) == of(h, PotAwarded)
    assert of(h2, HandEnded) == of(h, HandEnded)
    assert not chosen & {e.seat for e in of(h2, HandMucked)}
    assert {e.seat for e in of(h, HandShown)} <= {e.seat for e in of(h2, HandShown)}
