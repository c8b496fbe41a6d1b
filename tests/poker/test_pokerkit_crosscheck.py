"""Cross-check against PokerKit: the same deck and actions must end with the same stacks.

Both engines play each random hand (2 to 6 players, NLHE or PLO, antes or not,
stacks from a few blinds to 200) in lockstep. At every decision they must
agree on who acts and what a call costs; where both allow a bet or raise they
must agree on its range. They may differ only in two places, both where
PokerKit departs from the house rules:

* short all-ins (BET-4, TDA 47): PokerKit lets a player who limped or checked
  re-raise an all-in for less than a full raise, and stops a player from
  re-raising after a third short all-in even when the all-ins together already
  reached a full raise. A disagreement on raising is allowed only after a short
  all-in in that betting round, and the random player then picks an action both
  engines allow;
* odd chips of tied pots (HR-TIE-3): see :func:`assert_same_stacks`.
"""

from __future__ import annotations

import random

import pytest
from pokerkit import Automation, HandHistory, NoLimitTexasHoldem, PotLimitOmahaHoldem
from pokerkit.hands import Hand as PokerKitHand
from pokerkit.hands import OmahaHoldemHand, StandardHighHand

from pokerroom.cards import format_card
from pokerroom.poker import NLHE, PLO, Bet, Call, Check, Fold, Hand, Raise, Stakes
from pokerroom.poker.events import BoardDealt, HandEnded, PotAwarded
from pokerroom.poker.history import to_phh
from tests.poker.engine_drivers import assert_same_stacks, setup

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
# 8,000 hands in all; PokerKit's Omaha ranking is the slow part, so Hold'em gets the larger share.
NLHE_HANDS = 6_000
PLO_HANDS = 2_000


_HANDS: dict = {}


def _remembering(hand_type):
    """PokerKit ranks the same holding on the same board many times per hand; remember it.

    ``from_game`` is a pure function of the hand type and the cards, so this
    changes PokerKit's speed, not its answers. The memo is emptied every hand.
    """
    original = hand_type.from_game

    def from_game(cls, hole_cards, board_cards=()):
        key = (cls, tuple(hole_cards), tuple(board_cards))
        found = _HANDS.get(key)
        if found is None:
            found = _HANDS[key] = original(key[1], key[2])
        return found

    return classmethod(from_game)


def _entry_once(original):
    """A PokerKit hand looks its entry up on every comparison; look it up once per hand object."""

    def entry(self):
        found = self.__dict__.get("_crosscheck_entry")
        if found is None:
            found = self.__dict__["_crosscheck_entry"] = original.fget(self)
        return found

    return property(entry)


@pytest.fixture
def fast_pokerkit(monkeypatch):
    """Speed PokerKit's hand ranking up without changing any of its answers."""
    for hand_type in (StandardHighHand, OmahaHoldemHand):
        monkeypatch.setattr(hand_type, "from_game", _remembering(hand_type))
    monkeypatch.setattr(PokerKitHand, "entry", _entry_once(PokerKitHand.entry))
    yield
    _HANDS.clear()


def _pokerkit_state(variant, stakes: Stakes, stacks: list[int]):
    game = NoLimitTexasHoldem if variant is NLHE else PotLimitOmahaHoldem
    return game.create_state(AUTOMATIONS, True, stakes.ante, (stakes.small_blind, stakes.big_blind),
                             stakes.big_blind, stacks, len(stacks))


def _random_stacks(rng: random.Random, n: int, big_blind: int, ante: int) -> list[int]:
    low = big_blind + ante + 1
    return [rng.choice((rng.randint(low, 10 * big_blind), rng.randint(low, 200 * big_blind)))
            for _ in range(n)]


def _choose(rng: random.Random, ours, theirs, short_all_in_seen: bool):
    """A random action legal in both engines; checks that they agree where they must."""
    assert ours.call_added == (theirs.checking_or_calling_amount or 0)
    we_raise = ours.can_bet or ours.can_raise
    they_raise = theirs.can_complete_bet_or_raise_to()
    if we_raise and they_raise:
        assert (ours.min_to, ours.max_to) == (theirs.min_completion_betting_or_raising_to_amount,
                                              theirs.max_completion_betting_or_raising_to_amount)
    elif we_raise != they_raise:
        assert short_all_in_seen, "the engines disagree on raising outside a short all-in spot"
    r = rng.random()
    if we_raise and they_raise and r < 0.3:
        pick = rng.random()
        if pick < 0.3:
            to = ours.max_to
        elif pick < 0.65:
            to = ours.min_to
        else:
            to = rng.randint(ours.min_to, ours.max_to)
        return (Bet if ours.can_bet else Raise)(ours.seat, to)
    if r < 0.45 and not ours.can_check:
        return Fold(ours.seat)
    return Check(ours.seat) if ours.can_check else Call(ours.seat)


Crosscheck = tuple[list[int], list[int], list[PotAwarded], Hand, list[int]]


def crosscheck_hand(rng: random.Random, variant) -> Crosscheck:
    """One random hand through both engines.

    Returns our final stacks, PokerKit's, our split pots, our hand and the starting stacks.
    """
    n = rng.randint(2, 6)
    small = rng.choice((1, 2, 5))
    stakes = Stakes(small, 2 * small, ante=rng.choice((0, 0, small)))
    stacks = _random_stacks(rng, n, stakes.big_blind, stakes.ante)
    deck = list(range(52))
    rng.shuffle(deck)
    hand = Hand(setup(stacks, variant=variant, stakes=stakes), deck)
    state = _pokerkit_state(variant, stakes, stacks)
    cards_per = variant.hole_cards
    for p in range(n):
        state.deal_hole("".join(format_card(deck[p + r * n]) for r in range(cards_per)))
    short_all_in = False
    dealt = 0
    while state.status:
        if state.actor_index is None:
            if state.can_burn_card():
                state.burn_card("??")
            elif state.can_deal_board():
                size = 3 if dealt == 0 else 1
                assert len(hand.board) >= dealt + size, "PokerKit deals a street our hand did not"
                state.deal_board("".join(format_card(c) for c in hand.board[dealt:dealt + size]))
                dealt += size
            else:
                raise AssertionError("PokerKit waits for something the cross-check does not drive")
            continue
        ours = hand.legal_actions()
        assert ours is not None, "our hand ended while PokerKit still waits for a player"
        assert hand.seats.index(ours.seat) == state.actor_index
        action = _choose(rng, ours, state, short_all_in)
        if isinstance(action, Bet | Raise) and action.to - hand.current_bet < hand.min_raise:
            short_all_in = True
        new = hand.apply(action)
        if isinstance(action, Fold):
            state.fold()
        elif isinstance(action, Check | Call):
            state.check_or_call()
        else:
            state.complete_bet_or_raise_to(action.to)
        if any(isinstance(e, BoardDealt) for e in new):
            short_all_in = False
    assert hand.ended
    final = hand.events[-2]
    assert isinstance(final, HandEnded)
    splits = [e for e in hand.events if isinstance(e, PotAwarded) and len(e.seats) > 1]
    return [stack for _, stack in final.stacks], list(state.stacks), splits, hand, list(state.starting_stacks)


def _run(variant, seed: int, hands: int) -> None:
    rng = random.Random(seed)
    for i in range(hands):
        _HANDS.clear()
        ours, theirs, splits, hand, starting = crosscheck_hand(rng, variant)
        where = f"hand {i} (seed {seed})"
        assert_same_stacks(ours, theirs, splits, where)
        # the same hand, exported as PHH, loads in PokerKit with the stacks both engines agree on
        exported = HandHistory.loads(to_phh(hand.events))
        assert list(exported.starting_stacks) == starting, where
        assert list(exported.finishing_stacks) == ours, where


def test_BET_POT_SD_crosscheck_nlhe_6000_hands_match_pokerkit_stacks(fast_pokerkit):
    _run(NLHE, 20240601, NLHE_HANDS)


def test_BET_POT_SD_crosscheck_plo_2000_hands_match_pokerkit_stacks(fast_pokerkit):
    _run(PLO, 20240602, PLO_HANDS)
