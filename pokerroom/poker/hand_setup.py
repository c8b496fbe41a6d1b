"""What a table hands the engine to start a hand: seats, positions, posts, options.

The table owns seating, the moving button and missed blinds (HR-MB, HR-POST);
it tells the engine who sits where with what stack, where the button and the
blinds are, and which extra posts each seat owes. The engine checks that the
setup is coherent (``ValueError`` otherwise: a bad setup is a table bug, not a
player's doing) and plays the hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pokerroom.poker.events import LIVE_POSTS, POST_DEAD_BIG_BLIND, POST_DEAD_SMALL_BLIND, POST_ENTRY
from pokerroom.poker.rake import RakeSchedule
from pokerroom.poker.variants import Stakes, Variant

OWED_POST_KINDS = frozenset({POST_ENTRY, POST_DEAD_SMALL_BLIND, POST_DEAD_BIG_BLIND})


@dataclass(frozen=True, slots=True)
class Seat:
    """A player dealt into the hand: table seat number, player id, chips on the table."""

    seat: int
    player_id: str
    stack: int


@dataclass(frozen=True, slots=True)
class Post:
    """A post the table says a seat owes before the deal (HR-POST-1, HR-MB-1..3).

    ``kind`` is ``"entry"`` (live: an entry blind, or the live blind of a
    returning player), ``"dead_small_blind"`` or ``"dead_big_blind"`` (dead:
    into the pot, not toward the player's bet). Regular blinds and antes are
    not listed here; the engine posts them from :class:`BlindSeats` and the
    stakes.
    """

    seat: int
    kind: str
    amount: int

    @property
    def live(self) -> bool:
        return self.kind in LIVE_POSTS


@dataclass(frozen=True, slots=True)
class BlindSeats:
    """Who posts the blinds. ``small`` is None for a dead small blind (HR-MB-6).

    ``big`` may be None (a dead big blind) only at a table with a third blind,
    whose seat then opens the betting.
    """

    small: int | None
    big: int | None
    third: int | None = None


@dataclass(frozen=True, slots=True)
class HandSetup:
    """Everything about a hand except the deck, which is passed separately because it is secret.

    ``blinds`` None means the usual positions from the button (see
    :func:`standard_blind_seats`). ``rake`` None means no rake (tournaments).
    ``run_it_twice`` lets all-in players agree to two boards (cash tables).
    ``show_at_showdown`` are the seats whose players turned auto-muck off: they
    show at showdown even a hand that cannot win (the engine never shows one
    for them otherwise). ``table_name``, ``max_seats``, ``currency`` and ``started_at`` are labels
    copied into :class:`~pokerroom.poker.events.HandStarted` for hand
    histories.
    """

    hand_id: str
    variant: Variant
    stakes: Stakes
    seats: tuple[Seat, ...]
    button_seat: int
    blinds: BlindSeats | None = None
    owed_posts: tuple[Post, ...] = ()
    rake: RakeSchedule | None = None
    run_it_twice: bool = False
    table_name: str = ""
    max_seats: int = 0
    currency: str = ""
    started_at: str = ""
    show_at_showdown: frozenset[int] = frozenset()


def dealing_order(seats: Sequence[Seat], button_seat: int) -> list[Seat]:
    """Seats clockwise from the button: the first seat left of it first, the button (if seated) last."""
    return sorted(seats, key=lambda s: (s.seat <= button_seat, s.seat))


def standard_blind_seats(ordered_seats: Sequence[int], button_seat: int, third_blind: bool) -> BlindSeats:
    """The usual blinds for seats already in dealing order.

    Heads-up the button posts the small blind (HR-MB-6); otherwise the two
    seats after the button post small and big blind, and the next one the
    third blind when the table uses one.
    """
    if len(ordered_seats) < 2:
        raise ValueError("a hand needs at least two players")
    if len(ordered_seats) == 2:
        if ordered_seats[1] == button_seat:
            return BlindSeats(small=ordered_seats[1], big=ordered_seats[0])
        return BlindSeats(small=ordered_seats[0], big=ordered_seats[1])
    third = ordered_seats[2] if third_blind else None
    return BlindSeats(small=ordered_seats[0], big=ordered_seats[1], third=third)


def check_setup(setup: HandSetup, ordered_seats: Sequence[int], blinds: BlindSeats) -> None:
    """Raise ``ValueError`` naming the first incoherence in a hand's setup."""
    seats = setup.seats
    numbers = [s.seat for s in seats]
    if len(seats) < 2:
        raise ValueError("a hand needs at least two players")
    if len(set(numbers)) != len(numbers):
        raise ValueError("two players cannot share a seat")
    for s in seats:
        if type(s.stack) is not int or s.stack <= 0:
            raise ValueError(f"seat {s.seat} must start with a positive whole number of chips, "
                             f"not {s.stack!r}")
    seated = set(numbers)
    for name, seat in (("small", blinds.small), ("big", blinds.big), ("third", blinds.third)):
        if seat is not None and seat not in seated:
            raise ValueError(f"the {name} blind seat {seat} is not dealt in")
    posted = [b for b in (blinds.small, blinds.big, blinds.third) if b is not None]
    if len(set(posted)) != len(posted):
        raise ValueError("one seat cannot post two of the blinds")
    if blinds.big is None and blinds.third is None:
        raise ValueError("the big blind can be dead only when a third blind is posted")
    if blinds.big is None and setup.stakes.big_blind_ante:
        raise ValueError("a big-blind ante needs a live big blind")
    if blinds.third is not None and not setup.stakes.third_blind:
        raise ValueError("a third blind seat was given but the stakes have no third blind")
    for seat in setup.show_at_showdown:
        if seat not in seated:
            raise ValueError(f"seat {seat} chose to show at showdown but is not dealt in")
    live_posters = set(posted)
    for post in setup.owed_posts:
        if post.kind not in OWED_POST_KINDS:
            raise ValueError(f"unknown owed post kind {post.kind!r}; "
                             f"expected one of {sorted(OWED_POST_KINDS)}")
        if post.seat not in seated:
            raise ValueError(f"seat {post.seat} owes a post but is not dealt in")
        if type(post.amount) is not int or post.amount <= 0:
            raise ValueError(f"a post must be a positive whole number of chips, not {post.amount!r}")
        if post.live:
            if post.seat in live_posters:
                raise ValueError(f"seat {post.seat} cannot post two live blinds")
            live_posters.add(post.seat)
