"""PHH export and import: PokerKit reads our files and finishes with our stacks; replays reproduce them."""

from __future__ import annotations

import random
import time
import tomllib

import pokerkit
import pytest

from pokerroom.poker import NLHE, PLO, Bet, Call, Check, Fold, Hand, Post, Raise, Stakes
from pokerroom.poker.events import HandEnded, PotAwarded
from pokerroom.poker.history import replay_phh, to_phh
from tests.poker.engine_drivers import assert_same_stacks, random_action, setup, stacked_deck

HANDS_PER_VARIANT = 150


def _play(hand: Hand, rng: random.Random) -> Hand:
    while not hand.ended:
        hand.apply(random_action(hand.legal_actions(), rng, fold_when_free=False))
    return hand


def _stacks(events) -> list[int]:
    return [stack for _, stack in next(e for e in events if isinstance(e, HandEnded)).stacks]


def _pokerkit_stacks(text: str) -> list[int]:
    states = list(pokerkit.HandHistory.loads(text))
    return list(states[-1].stacks)


def test_scripted_hand_phh_fields():
    hand = Hand(setup([100, 100, 100], stakes=Stakes(1, 2), table_name="Alpha", max_seats=6),
                stacked_deck(["AsKd", "QhQd", "2c7h"], "2d3d4hJcQs"))
    for action in (Raise(3, 6), Call(1), Fold(2), Check(1), Bet(3, 8), Fold(1)):
        hand.apply(action)
    text = to_phh(hand.events)
    data = tomllib.loads(text)
    assert data["variant"] == "NT"
    assert data["blinds_or_straddles"] == [1, 2, 0]
    assert data["min_bet"] == 2
    assert data["starting_stacks"] == [100, 100, 100]
    assert data["actions"][:6] == ["d dh p1 AsKd", "d dh p2 QhQd", "d dh p3 2c7h",
                                   "p3 cbr 6", "p1 cc", "p2 f"]
    assert data["actions"][6:] == ["d db 2d3d4h", "p1 cc", "p3 cbr 8", "p1 f"]
    assert data["finishing_stacks"] == [94, 98, 108]
    assert data["table"] == "Alpha" and data["seat_count"] == 6 and data["players"] == ["p1", "p2", "p3"]
    assert _pokerkit_stacks(text) == [94, 98, 108]
    assert _stacks(replay_phh(text)) == [94, 98, 108]


def test_dead_post_becomes_an_ante_and_replays():
    hand = _play(Hand(setup([80, 120, 60, 200], owed_posts=(Post(3, "dead_small_blind", 1),)),
                      stacked_deck(["AsKd", "QhQd", "2c7h", "9s9c"], "2d3d4hJcQs")), random.Random(3))
    data = tomllib.loads(to_phh(hand.events))
    assert data["antes"] == [0, 0, 1, 0]
    assert _stacks(replay_phh(to_phh(hand.events))) == _stacks(hand.events)


def test_entry_blind_is_refused():
    hand = _play(Hand(setup([80, 120, 60, 200], owed_posts=(Post(4, "entry", 2),)), list(range(52))),
                 random.Random(4))
    with pytest.raises(ValueError, match="entry blind"):
        to_phh(hand.events)


def test_replay_rejects_wrong_finishing_stacks():
    hand = _play(Hand(setup([100, 100]), list(range(52))), random.Random(5))
    text = to_phh(hand.events).replace("finishing_stacks = [", "finishing_stacks = [1, ")
    with pytest.raises(ValueError, match="differ"):
        replay_phh(text)


@pytest.mark.parametrize("variant,seed", [(NLHE, 11), (PLO, 12)])
def test_round_trip_random_hands_through_pokerkit_and_our_replay(variant, seed):
    rng = random.Random(seed)
    started = time.monotonic()
    for i in range(HANDS_PER_VARIANT):
        n = rng.randint(2, 6)
        small = rng.choice((1, 2, 5))
        stakes = Stakes(small, 2 * small, ante=rng.choice((0, 0, small)))
        low = stakes.big_blind + stakes.ante + 1
        big = stakes.big_blind
        stacks = [rng.choice((rng.randint(low, 10 * big), rng.randint(low, 200 * big))) for _ in range(n)]
        deck = list(range(52))
        rng.shuffle(deck)
        hand = _play(Hand(setup(stacks, variant=variant, stakes=stakes), deck), rng)
        text = to_phh(hand.events)
        ours = _stacks(hand.events)
        splits = [e for e in hand.events if isinstance(e, PotAwarded) and len(e.seats) > 1]
        assert_same_stacks(ours, _pokerkit_stacks(text), splits, f"hand {i} (seed {seed})\n{text}")
        assert _stacks(replay_phh(text)) == ours
    assert time.monotonic() - started < 30
