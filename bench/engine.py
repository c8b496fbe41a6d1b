"""Hands per second of the pokerroom hand engine against PokerKit, on the same hands.

Random 6-max No-Limit Hold'em hands (blinds 1/2, stacks 40 to 250 big
blinds) are first played once by random players to fix each hand's deck and
action list. Then both engines replay exactly those hands: build the hand,
deal the same cards, and at every decision ask for the legal actions (a table
does, to tell the client) and apply the recorded action. Both engines run the
whole hand to the end: posts, betting, uncalled bets, showdown and pot
awarding.

    .venv/bin/python bench/engine.py [--hands 500] [--chunk 50] [--seed 1]

Prints hands/s for each engine and the ratio (goal: at least 30x PokerKit).
Never run by the test suite.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from pokerkit import Automation, NoLimitTexasHoldem

from pokerroom.cards import format_card
from pokerroom.poker import NLHE, Bet, Call, Check, Fold, Hand, HandSetup, Raise, Seat, Stakes

STAKES = Stakes(1, 2)
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


def setup_for(stacks: list[int]) -> HandSetup:
    seats = tuple(Seat(i + 1, f"player{i + 1}", s) for i, s in enumerate(stacks))
    return HandSetup("bench", NLHE, STAKES, seats, button_seat=len(stacks))


def random_hands(count: int, rng: random.Random) -> list[tuple[list[int], list[int], list]]:
    """``(stacks, deck, actions)`` of random hands played by loose random players."""
    hands = []
    for _ in range(count):
        stacks = [rng.randint(80, 500) for _ in range(6)]
        deck = list(range(52))
        rng.shuffle(deck)
        hand = Hand(setup_for(stacks), deck)
        actions = []
        while (legal := hand.legal_actions()) is not None:
            r = rng.random()
            if (legal.can_bet or legal.can_raise) and r < 0.2:
                to = legal.max_to if rng.random() < 0.15 else rng.randint(legal.min_to, min(
                    legal.max_to, legal.min_to + 3 * (hand.pot_total + 1)))
                action = (Bet if legal.can_bet else Raise)(legal.seat, to)
            elif r < 0.45 and not legal.can_check:
                action = Fold(legal.seat)
            else:
                action = Check(legal.seat) if legal.can_check else Call(legal.seat)
            hand.apply(action)
            actions.append(action)
        hands.append((stacks, deck, actions))
    return hands


def play_pokerroom(hands) -> None:
    for stacks, deck, actions in hands:
        hand = Hand(setup_for(stacks), deck)
        for action in actions:
            hand.legal_actions()
            hand.apply(action)
        assert hand.ended


def pokerkit_deals(hands) -> list[tuple[list[str], list[tuple[str, str]]]]:
    """Card text per hand for PokerKit: hole cards per player, then (burn, cards) for flop, turn, river."""
    out = []
    for _stacks, deck, _actions in hands:
        holes = [format_card(deck[p]) + format_card(deck[p + 6]) for p in range(6)]
        streets = [(deck[12], deck[13:16]), (deck[16], deck[17:18]), (deck[18], deck[19:20])]
        out.append((holes, [(format_card(burn), "".join(format_card(c) for c in cards))
                            for burn, cards in streets]))
    return out


def play_pokerkit(hands, deals) -> None:
    for (stacks, _deck, actions), (holes, board) in zip(hands, deals, strict=True):
        state = NoLimitTexasHoldem.create_state(AUTOMATIONS, True, 0, (1, 2), 2, stacks, 6)
        for cards in holes:
            state.deal_hole(cards)
        street = 0
        pending = iter(actions)
        while state.status:
            if state.actor_index is None:
                burn, cards = board[street]
                state.burn_card(burn)
                state.deal_board(cards)
                street += 1
                continue
            legal = (state.checking_or_calling_amount, state.min_completion_betting_or_raising_to_amount,
                     state.max_completion_betting_or_raising_to_amount)
            assert legal
            action = next(pending)
            if isinstance(action, Fold):
                state.fold()
            elif isinstance(action, Check | Call):
                state.check_or_call()
            else:
                state.complete_bet_or_raise_to(action.to)


def seconds_per_hand(play, hands, *args, repeat: int = 1) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        play(hands, *args)
    return (time.perf_counter() - start) / (repeat * len(hands))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500, help="distinct random hands (default 500)")
    parser.add_argument("--chunk", type=int, default=50, help="hands per timed round (default 50)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    hands = random_hands(args.hands, random.Random(args.seed))
    deals = pokerkit_deals(hands)
    actions = sum(len(a) for _, _, a in hands) / len(hands)
    # Each round times both engines on the same chunk of hands, one right after the other, so a
    # slow spell of a shared machine hits both; the medians over all rounds are reported.
    ours, theirs, ratios = [], [], []
    for start in range(0, len(hands), args.chunk):
        chunk = slice(start, start + args.chunk)
        mine = seconds_per_hand(play_pokerroom, hands[chunk], repeat=10)
        other = seconds_per_hand(play_pokerkit, hands[chunk], deals[chunk])
        ours.append(1 / mine)
        theirs.append(1 / other)
        ratios.append(other / mine)
    print(f"random 6-max NLHE hands: {len(hands)} distinct, {actions:.1f} actions per hand, "
          f"medians of {len(ratios)} rounds")
    print(f"pokerroom  {statistics.median(ours):10.0f} hands/s")
    print(f"pokerkit   {statistics.median(theirs):10.0f} hands/s")
    print(f"ratio      {statistics.median(ratios):10.1f}x  (goal >= 30x)")


if __name__ == "__main__":
    main()
