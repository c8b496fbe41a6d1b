"""Helpers shared by the engine tests: building setups from short text, and random players."""

from __future__ import annotations

import random
from collections.abc import Sequence

from pokerroom.cards import parse
from pokerroom.poker import NLHE, Bet, Call, Check, Fold, HandSetup, Raise, RunItTwice, Seat, Stakes, Variant
from pokerroom.poker.actions import Action, LegalActions
from pokerroom.poker.events import PotAwarded


def setup(stacks: Sequence[int], *, button: int | None = None, variant: Variant = NLHE,
          stakes: Stakes | None = None, **options) -> HandSetup:
    """Seats 1..n with players "p1".."pn"; the button defaults to the last seat."""
    seats = tuple(Seat(i + 1, f"p{i + 1}", s) for i, s in enumerate(stacks))
    return HandSetup("hand-1", variant, stakes or Stakes(1, 2), seats,
                     len(stacks) if button is None else button, **options)


def stacked_deck(holes: Sequence[str], board: str = "") -> list[int]:
    """A deck that deals ``holes`` (in dealing order, from the button) and then ``board``.

    ``board`` lists flop, turn and river; for a hand run twice from pre-flop,
    five more cards for the second board. Burn cards and the rest of the deck
    are the unused cards.
    """
    hands = [parse(h) for h in holes]
    count = len(hands[0])
    dealt = [hands[p][r] for r in range(count) for p in range(len(hands))]
    board_cards = list(parse(board)) if board else []
    rest = [c for c in range(52) if c not in set(dealt) | set(board_cards)]
    deck = dealt[:]
    # burn, flop(3), burn, turn, burn, river, then the second run the same way.
    for size in (3, 1, 1, 3, 1, 1):
        if not board_cards:
            break
        deck.append(rest.pop())
        take = min(size, len(board_cards))
        deck.extend(board_cards[:take])
        del board_cards[:take]
    deck.extend(rest)
    return deck


def random_action(legal: LegalActions, rng: random.Random, *, fold_when_free: bool = True) -> Action:
    """A legal action, chosen with rough human frequencies (some all-ins, many calls)."""
    seat = legal.seat
    if legal.run_it_twice:
        return RunItTwice(seat, rng.random() < 0.7)
    r = rng.random()
    if (legal.can_bet or legal.can_raise) and r < 0.3:
        if rng.random() < 0.3:
            to = legal.max_to
        elif rng.random() < 0.5:
            to = legal.min_to
        else:
            to = rng.randint(legal.min_to, legal.max_to)
        return Bet(seat, to) if legal.can_bet else Raise(seat, to)
    if r < 0.5 and (fold_when_free or not legal.can_check):
        return Fold(seat)
    return Check(seat) if legal.can_check else Call(seat)


def assert_same_stacks(ours: list[int], theirs: list[int], splits: list[PotAwarded], where: str) -> None:
    """Identical stacks, but for odd chips of tied pots.

    HR-TIE-3 splits each pot on its own, odd chip to the first tied winner
    left of the button. PokerKit first folds the losers' hands, then rebuilds
    the pots from the remaining players, merging pots they share, and splits
    the merged pot once; with two or more split pots the odd chips can fall
    differently. The tied winners' total must still match exactly, and each
    of them can be off by at most one chip per split pot.
    """
    if ours == theirs:
        return
    tied = {seat - 1 for e in splits for seat in e.seats}
    assert len(splits) >= 2, f"{where}: our stacks {ours} != PokerKit's {theirs}"
    for p, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        if p in tied:
            assert abs(a - b) < len(splits), f"{where}: seat {p + 1} off by more than odd chips"
        else:
            assert a == b, f"{where}: seat {p + 1} has {a}, PokerKit says {b}"
    assert sum(ours[p] for p in tied) == sum(theirs[p] for p in tied), f"{where}: tied winners' total differs"
