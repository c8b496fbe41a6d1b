"""A hand stored under protocol 1.0 reads as a 1.1 hand: renamed fields, and the drawing fields worked out."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.poker import Hand
from pokerroom.poker import events as ev
from tests.poker.engine_drivers import random_action, setup

_NEW = {"posted": ("to", "pot", "behind"), "action_taken": ("pot", "behind"), "bet_returned": ("to", "pot", "behind")}
_OLD_NAMES = {"seat_dealt_in": ("player", "player_id"), "posted": ("added", "amount"),
              "action_taken": ("added", "amount")}


def as_stored_by_1_0(d: dict) -> dict:
    old = {k: v for k, v in d.items() if k not in _NEW.get(d["type"], ())}
    if d["type"] in _OLD_NAMES:
        new, name = _OLD_NAMES[d["type"]]
        old[name] = old.pop(new)
    return old


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 400), min_size=2, max_size=6), st.integers(0, 2**32))
def test_a_1_0_hand_upgrades_to_exactly_the_events_1_1_stores(stacks, seed):
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    hand = Hand(setup(stacks), deck)
    while (legal := hand.legal_actions()) is not None:
        hand.apply(random_action(legal, rng))
    stored = [ev.event_to_dict(e) for e in hand.events]
    assert ev.upgrade_stored(stored) is stored                      # a 1.1 hand: as it is
    assert ev.upgrade_stored([as_stored_by_1_0(d) for d in stored]) == stored
    assert ev.events_from_stored([as_stored_by_1_0(d) for d in stored]) == hand.events
