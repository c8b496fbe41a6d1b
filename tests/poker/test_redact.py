"""Who sees what: hole cards to their owner, deck order to security after the hand (SEC-2, HR-RNG-2)."""

from __future__ import annotations

from pokerroom.poker import Call, Check, Hand, Viewer, redact
from pokerroom.poker.events import DeckRevealed, HandMucked, HandShown, HoleCardsDealt
from tests.poker.engine_drivers import setup, stacked_deck


def finished_hand() -> Hand:
    # Checked down: seat 1 shows first (aces) and wins; seats 2 and 3 are beaten and muck.
    deck = stacked_deck(["AcAd", "7h2s", "KcKd"], "3c5d9hTs4c")
    h = Hand(setup([100, 100, 100]), deck)
    for a in (Call(3), Call(1), Check(2)):
        h.apply(a)
    for _ in range(3):
        for seat in (1, 2, 3):
            h.apply(Check(seat))
    return h


def test_SEC_2_a_seated_player_sees_only_their_own_hole_cards():
    h = finished_hand()
    seen = [redact(e, Viewer.player(2)) for e in h.events]
    holes = {e.seat: e.cards for e in seen if isinstance(e, HoleCardsDealt)}
    assert holes[2] == h.hole_cards(2)
    assert holes[1] == () and holes[3] == ()


def test_SEC_2_observers_see_no_hole_cards_but_see_shown_hands():
    h = finished_hand()
    seen = [redact(e, Viewer.observer()) for e in h.events]
    assert all(e.cards == () for e in seen if isinstance(e, HoleCardsDealt | HandMucked))
    shown = [e for e in seen if isinstance(e, HandShown)]
    assert shown and all(e.cards == h.hole_cards(e.seat) for e in shown)


def test_SEC_2_a_mucked_hand_stays_private_to_its_owner():
    h = finished_hand()
    mucked = [e for e in h.events if isinstance(e, HandMucked)]
    assert [e.seat for e in mucked] == [2, 3]
    assert redact(mucked[0], Viewer.player(2)).cards == h.hole_cards(2)
    assert redact(mucked[0], Viewer.player(1)).cards == ()


def test_HR_RNG_2_the_deck_order_reaches_no_client():
    h = finished_hand()
    deck = h.events[-1]
    assert isinstance(deck, DeckRevealed)
    for viewer in (Viewer.player(1), Viewer.observer(), Viewer.security()):
        assert redact(deck, viewer) is None                  # never during a hand, never to a client
    assert redact(deck, Viewer.player(1), hand_ended=True) is None


def test_SEC_2_security_sees_everything_only_once_the_hand_has_ended():
    h = finished_hand()
    live = [redact(e, Viewer.security()) for e in h.events]
    assert all(e.cards == () for e in live if isinstance(e, HoleCardsDealt))
    after = [redact(e, Viewer.security(), hand_ended=True) for e in h.events]
    assert after == h.events


def test_SEC_2_public_events_pass_unchanged():
    h = finished_hand()
    for e in h.events:
        if not isinstance(e, HoleCardsDealt | HandMucked | DeckRevealed):
            assert redact(e, Viewer.observer()) is e
