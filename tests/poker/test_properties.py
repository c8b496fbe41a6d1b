"""Hypothesis properties over random hands with random legal and illegal commands.

For every hand and after every command: chips are conserved (stacks + chips in
the middle + rake never change), no stack is negative, an illegal command
raises RuleViolation and changes nothing, the hand ends within a bounded
number of commands, the same setup, deck and commands give the same events,
and the events alone account for every chip (they are a complete history) --
down to what a client draws after each of them: a seat's bet (``to``), its
stack ``behind`` and the ``pot``, whose sum with every stack never changes.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerroom.errors import RuleViolation
from pokerroom.poker import (
    FLHE,
    NLHE,
    PLO,
    PLO5,
    Bet,
    Call,
    Check,
    Fold,
    Hand,
    HandSetup,
    Post,
    Raise,
    RakeSchedule,
    RunItTwice,
    Seat,
    Stakes,
    Variant,
)
from pokerroom.poker import events as ev
from tests.poker.engine_drivers import random_action

FLHE_UNCAPPED = Variant("FLHE", "Hold'em Limit", "holdem", "fixed_limit", 2, uncapped_heads_up=True)
MAX_COMMANDS = 400


@st.composite
def hand_setups(draw) -> HandSetup:
    variant = draw(st.sampled_from([NLHE, PLO, PLO5, FLHE, FLHE_UNCAPPED]))
    n = draw(st.integers(2, 6))
    seat_numbers = sorted(draw(st.lists(st.integers(1, 9), min_size=n, max_size=n, unique=True)))
    small = draw(st.integers(1, 5))
    big = draw(st.integers(small, 2 * small))
    stakes = Stakes(small, big, ante=draw(st.sampled_from([0, 0, 1, big])),
                    big_blind_ante=draw(st.booleans()),
                    third_blind=draw(st.sampled_from([0, 0, 2 * big])) if n >= 3 else 0)
    stacks = draw(st.lists(st.one_of(st.integers(1, 3 * big), st.integers(1, 400)), min_size=n, max_size=n))
    seats = tuple(Seat(s, f"player{s}", stack) for s, stack in zip(seat_numbers, stacks, strict=True))
    button = draw(st.sampled_from(seat_numbers) | st.integers(1, 9))
    owed = []
    for s in draw(st.lists(st.sampled_from(seat_numbers), max_size=2, unique=True)):
        kind = draw(st.sampled_from(["entry", "dead_small_blind", "dead_big_blind"]))
        owed.append(Post(s, kind, {"entry": big, "dead_small_blind": small, "dead_big_blind": big}[kind]))
    rake = draw(st.none() | st.just(RakeSchedule(Fraction(5, 100), caps=((2, 3), (4, 6)))))
    return HandSetup("prop", variant, stakes, seats, button, owed_posts=tuple(owed), rake=rake,
                     run_it_twice=draw(st.booleans()))


def build(setup: HandSetup, deck) -> Hand | None:
    """The hand, or None when the drawn owed posts clash with the blinds (a table bug, ValueError)."""
    try:
        return Hand(setup, deck)
    except ValueError:
        return None


def snapshot(hand: Hand) -> tuple:
    return tuple(list(v) if isinstance(v, list) else v for v in (getattr(hand, s) for s in Hand.__slots__))


def chips(hand: Hand) -> int:
    return sum(hand.stacks) + hand.pot_total + hand.rake_total


def odd_command(data, hand: Hand):
    """A command that may well be illegal: any type, any seat, any amount."""
    seat = data.draw(st.sampled_from([*hand.seats, 0, 99]))
    kind = data.draw(st.sampled_from(["fold", "check", "call", "bet", "raise", "rit"]))
    to = data.draw(st.integers(-5, 600))
    return {"fold": Fold(seat), "check": Check(seat), "call": Call(seat), "bet": Bet(seat, to),
            "raise": Raise(seat, to), "rit": RunItTwice(seat, True)}[kind]


def attempt(hand: Hand, command) -> None:
    if isinstance(command, tuple):
        hand.timeout(command[1])
    else:
        hand.apply(command)


def assert_drawing_matches_the_hand(hand: Hand) -> None:
    """What the events say a client draws -- each seat's bet and stack behind, the pot -- is the engine's own
    state after every command, and the pots a snapshot shows plus the bets are the pot."""
    behind = {e.seat: e.stack for e in hand.events if isinstance(e, ev.SeatDealtIn)}
    bets = dict.fromkeys(behind, 0)
    pot = 0
    for e in hand.events:
        if isinstance(e, ev.Posted | ev.ActionTaken | ev.BetReturned):
            behind[e.seat], bets[e.seat], pot = e.behind, e.to, e.pot
        elif isinstance(e, ev.BoardDealt):
            bets = dict.fromkeys(behind, 0)
    if hand.ended:
        assert hand.pots() == []
        return
    assert pot == hand.pot_total
    assert behind == hand.stacks_by_seat()
    assert bets == hand.bets_by_seat()
    assert sum(amount for amount, _ in hand.pots()) + sum(bets.values()) == hand.pot_total
    assert all(set(seats) <= set(hand.seats) for _, seats in hand.pots())


def play(data, hand: Hand) -> list:
    """Drive the hand with legal commands, each maybe preceded by an odd one; check invariants after each."""
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    total = chips(hand)
    commands = []
    for _ in range(MAX_COMMANDS):
        legal = hand.legal_actions()
        if legal is None:
            return commands
        if data.draw(st.booleans()):
            command = odd_command(data, hand)
            before = snapshot(hand)
            legal_now = hand.can_apply(command)
            assert snapshot(hand) == before, "can_apply changed the hand"
            try:
                attempt(hand, command)
            except RuleViolation as refusal:
                assert refusal.code and refusal.message and refusal.rule_id
                assert snapshot(hand) == before, f"{command} was refused but changed the hand"
                assert not legal_now, f"can_apply said {command} was legal"
            else:
                assert legal_now, f"can_apply said {command} was illegal"
            commands.append(command)
            assert chips(hand) == total, "chips were created or destroyed"
            legal = hand.legal_actions()
            if legal is None:
                return commands
        command = ("timeout", legal.seat) if data.draw(st.integers(0, 9)) == 9 else random_action(legal, rng)
        attempt(hand, command)
        commands.append(command)
        assert chips(hand) == total, "chips were created or destroyed"
        assert_drawing_matches_the_hand(hand)
        assert min(hand.stacks) >= 0
    raise AssertionError("the hand did not end")


def replay(setup: HandSetup, deck, commands) -> list:
    hand = Hand(setup, deck)
    for command in commands:
        try:
            attempt(hand, command)
        except RuleViolation:
            pass
    return hand.events


def assert_events_account_for_every_chip(events: list) -> None:
    stacks = {e.seat: e.stack for e in events if isinstance(e, ev.SeatDealtIn)}
    chips = sum(stacks.values())
    bets = dict.fromkeys(stacks, 0)
    into_pot = 0
    for e in events:
        if isinstance(e, ev.Posted | ev.ActionTaken):
            stacks[e.seat] -= e.added
            into_pot += e.added
            bets[e.seat] += e.added if isinstance(e, ev.ActionTaken) or e.live else 0
        elif isinstance(e, ev.BetReturned):
            stacks[e.seat] += e.amount
            into_pot -= e.amount
            bets[e.seat] -= e.amount
        elif isinstance(e, ev.BoardDealt):
            bets = dict.fromkeys(stacks, 0)
        if isinstance(e, ev.Posted | ev.ActionTaken | ev.BetReturned):
            # What a client draws comes with the event, and it is the chips' own account: the pot plus
            # every stack behind is the chips dealt in (none made, none lost), seat by seat.
            assert (e.pot, e.behind, e.to) == (into_pot, stacks[e.seat], bets[e.seat]), e
            assert e.pot + sum(stacks.values()) == chips
        elif isinstance(e, ev.PotAwarded):
            for seat, share in zip(e.seats, e.shares, strict=True):
                stacks[seat] += share
    formed = [e for e in events if isinstance(e, ev.PotFormed)]
    ended = next(e for e in events if isinstance(e, ev.HandEnded))
    assert sum(p.amount for p in formed) == into_pot
    assert sum(p.rake for p in formed) == ended.rake
    for pot in formed:
        awarded = sum(a.amount for a in events if isinstance(a, ev.PotAwarded) and a.pot == pot.pot)
        assert awarded == pot.amount - pot.rake
    assert dict(ended.stacks) == stacks


def assert_plain_data(value) -> None:
    if isinstance(value, tuple):
        for v in value:
            assert_plain_data(v)
    else:
        assert value is None or type(value) in (int, str, bool), f"{value!r} is not plain data"


SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(hand_setups(), st.permutations(range(52)), st.data())
def test_HR_STAKE_1_random_hands_keep_every_invariant(setup, deck, data):
    hand = build(setup, deck)
    if hand is None:
        return
    commands = play(data, hand)
    assert hand.ended
    events = hand.events
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert isinstance(events[0], ev.HandStarted) and isinstance(events[-1], ev.DeckRevealed)
    assert replay(setup, deck, commands) == events, "same deck and commands gave different events"
    assert_events_account_for_every_chip(events)
    for e in events:
        data_dict = ev.event_to_dict(e)
        for name, value in data_dict.items():
            assert_plain_data(value), name
        assert ev.event_from_dict(json.loads(json.dumps(data_dict))) == e


@SETTINGS
@given(hand_setups(), st.permutations(range(52)), st.data())
def test_BET_3_BET_5_legal_actions_are_accepted_and_their_bounds_are_tight(setup, deck, data):
    """Every amount inside [min_to, max_to] is accepted; one chip outside is refused."""
    hand = build(setup, deck)
    if hand is None:
        return
    while (legal := hand.legal_actions()) is not None:
        if legal.run_it_twice:
            hand.apply(RunItTwice(legal.seat, data.draw(st.booleans())))
            continue
        wager = Bet if legal.can_bet else Raise
        if legal.can_bet or legal.can_raise:
            for bad in (legal.min_to - 1, legal.max_to + 1):
                before = snapshot(hand)
                try:
                    hand.apply(wager(legal.seat, bad))
                except RuleViolation:
                    assert snapshot(hand) == before
                else:
                    raise AssertionError(f"{wager.__name__} to {bad} outside {legal} was accepted")
        choice = data.draw(st.integers(0, 3))
        if choice == 0 and (legal.can_bet or legal.can_raise):
            hand.apply(wager(legal.seat, data.draw(st.integers(legal.min_to, legal.max_to))))
        elif choice == 1 and not legal.can_check:
            hand.apply(Fold(legal.seat))
        else:
            hand.apply(Check(legal.seat) if legal.can_check else Call(legal.seat))
    assert_events_account_for_every_chip(hand.events)
