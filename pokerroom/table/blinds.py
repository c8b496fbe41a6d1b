"""Who is dealt in next, where the button and blinds go, and what each seat must post.

Theory of operation
-------------------
Blind *positions* are seat numbers kept from hand to hand (:class:`Positions`).
They move by the dead-button rule (HR-MB-6):

* the last blind -- the big blind, or the third blind at a table that has one
  -- moves clockwise to the next player *due* to post it, passing over anyone
  sitting out (who then owes it: HR-MB-2, HR-MB-3);
* every earlier blind takes the position the blind after it had last hand, and
  the button takes the small blind's old position. A position whose player is
  not dealt in is *dead*: no small blind (or, before a third blind, no big
  blind) is posted, and the button may rest on an empty seat. A sitting-out
  player at a dead position owes it (HR-MB-1);
* heads-up, the player who is not the big blind posts the small blind on the
  button and acts first before the flop.

So nobody posts the big blind twice in a row and nobody skips it because
others left: the big blind only ever moves forward, to the first player due.

A player is *regular* when they owe nothing and have been dealt in since
taking their seat. Everyone else -- a new player (HR-POST-1) or one who owes
missed blinds (HR-MB-1..3) -- is dealt in by posting what they owe, or by
waiting until the big blind reaches them, which settles everything
(HR-MB-4). Neither may be dealt in at a seat the blinds have just passed: from
last hand's small-blind position to its last-blind position (HR-POST-3); they
wait there until the button has passed.

A new table starts with the button drawn at random and no entry posts
(HR-POST-4). A table that cannot deal two players by the dead-button rule
restarts the same way, except that the last blind goes to the first player
after its last poster and missed blinds are still collected.

:func:`plan_hand` is pure: the table applies a :class:`HandPlan` only when the
hand really starts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from pokerroom.poker.events import POST_DEAD_BIG_BLIND, POST_DEAD_SMALL_BLIND, POST_ENTRY
from pokerroom.poker.hand_setup import BlindSeats, Post
from pokerroom.poker.variants import Stakes

SMALL = "small"
BIG = "big"
THIRD = "third"
_COST = {None: 0, SMALL: 1, BIG: 2, THIRD: 3}       # which missed blind is the more expensive to owe


def worse(owed: str | None, missed: str | None) -> str | None:
    """The more expensive of two owed blinds: what a player owes after missing another one."""
    return owed if _COST[owed] >= _COST[missed] else missed


@dataclass(frozen=True, slots=True)
class SeatView:
    """What the planner needs to know about one occupied seat."""

    seat: int
    stack: int
    sitting_out: bool = False
    new: bool = False                   # not dealt in since taking the seat (HR-POST-1)
    owes: str | None = None             # the most expensive blind missed (HR-MB-1..3)
    wait_for_big_blind: bool = False    # deal me in only with the big blind (HR-POST-1, HR-MB-4)
    skip_big_blind: bool = False        # sit out rather than post the big (or third) blind
    skip_small_blind: bool = False      # sit out rather than post the small (or big) blind

    @property
    def regular(self) -> bool:
        return not self.new and self.owes is None


@dataclass(frozen=True, slots=True)
class Positions:
    """Where the button and each blind were: seat numbers, even when dead or empty.

    ``blinds`` is (small, big) or (small, big, third); its last entry is always
    a player who posted.
    """

    button: int
    blinds: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandPlan:
    """The next hand: who is dealt in, positions, posts, and what it means for those left out."""

    dealt: tuple[int, ...]                  # seats dealt in, ascending
    button: int
    blinds: BlindSeats
    posts: tuple[Post, ...]                 # entry and owed posts (HR-POST-1, HR-MB-1..3)
    missed: tuple[tuple[int, str], ...]     # (seat, blind) passed while sitting out
    sat_out: tuple[int, ...]                # players sat out now rather than post a blind
    blocked: tuple[int, ...]                # new or owing players held back until the button passes
    positions: Positions
    fresh: bool                             # a new or restarted game: no entry posts (HR-POST-4)


@dataclass(frozen=True, slots=True)
class NoHand:
    """Fewer than two players can be dealt in; ``sat_out`` chose to sit out rather than post a blind."""

    sat_out: tuple[int, ...]


def owed_posts(seat: int, owes: str | None, new: bool, stakes: Stakes) -> list[Post]:
    """What a player dealt in out of position posts: entry blind, or missed blinds (HR-MB-1..3).

    A new player who also owes a small blind (they left owing it, HR-MB-5) owes the entry blind on top:
    a live big blind and a dead small blind.
    """
    if new and owes == SMALL:
        owes = BIG
    if owes is None:
        return [Post(seat, POST_ENTRY, stakes.big_blind)] if new else []
    posts = [Post(seat, POST_DEAD_SMALL_BLIND, stakes.small_blind)]
    if owes == BIG:
        posts.append(Post(seat, POST_ENTRY, stakes.big_blind))
    elif owes == THIRD:
        posts.append(Post(seat, POST_DEAD_BIG_BLIND, stakes.big_blind))
        posts.append(Post(seat, POST_ENTRY, stakes.third_blind))
    return posts


def clockwise(start: int, max_seats: int) -> Iterator[int]:
    """Seats 1..max_seats clockwise after ``start``, ending with ``start`` itself."""
    for i in range(1, max_seats + 1):
        yield (start - 1 + i) % max_seats + 1


def in_arc(seat: int, first: int, last: int, max_seats: int) -> bool:
    """Whether ``seat`` lies clockwise from ``first`` to ``last``, both included."""
    return (seat - first) % max_seats <= (last - first) % max_seats


def plan_hand(seats: Sequence[SeatView], *, max_seats: int, stakes: Stakes, previous: Positions | None,
              draw: Callable[[Sequence[int]], int]) -> HandPlan | NoHand:
    """The next hand, or :class:`NoHand` when fewer than two players can be dealt in.

    ``draw`` picks the button of a new table from the seats dealt in.
    """
    three = stakes.third_blind > 0
    if previous is not None and len(previous.blinds) == (3 if three else 2):
        plan = _next(seats, max_seats, stakes, previous, three)
        if plan is not None:
            return plan
    else:
        previous = None
    return _restart(seats, max_seats, stakes, previous, three, draw)


def _restart(seats: Sequence[SeatView], max_seats: int, stakes: Stakes, previous: Positions | None,
             three: bool, draw: Callable[[Sequence[int]], int]) -> HandPlan | NoHand:
    """Start (or restart) the game: everyone who can play is dealt in, blinds in a row.

    A new table draws the button (HR-POST-4). A table that stopped -- the
    dead-button rule could not deal two players, say because the only other
    player sat in a seat the blinds had just passed -- starts again with the
    last blind on the first player after the last one to post it, so nobody
    posts it twice in a row (HR-MB-6). Nobody pays an entry blind to a game
    that was not running; missed blinds are still collected, except where a
    player's blind is their live post (and the big blind settles them).
    """
    by_seat = {v.seat: v for v in seats}
    playing = {v.seat for v in seats if not v.sitting_out and v.stack > 0}
    missed: list[tuple[int, str]] = []
    sat_out: list[int] = []

    def drop(seat: int, blind: str) -> None:
        playing.discard(seat)
        sat_out.append(seat)
        if not by_seat[seat].new:
            missed.append((seat, blind))

    while True:
        if len(playing) < 2:
            return NoHand(tuple(sat_out))
        ring = sorted(playing)
        if previous is None:
            button = draw(ring)
            if button not in playing:
                raise ValueError(f"the button draw chose seat {button}, which is not dealt in")
            after = sorted(ring, key=lambda s: (s <= button, s))
            last = after[0] if len(ring) == 2 else after[(3 if three else 2) - 1]
        else:
            last = next(s for s in clockwise(previous.blinds[-1], max_seats) if s in playing)
        if by_seat[last].skip_big_blind:
            drop(last, THIRD if three else BIG)
            continue
        i = ring.index(last)
        before = [ring[(i - j) % len(ring)] for j in range(1, len(ring))]     # counter-clockwise from last
        if len(ring) == 2:
            blinds_before = before[:1]
            button = before[0]
        else:
            blinds_before = before[:(2 if three else 1)][::-1]
            rest = before[len(blinds_before):]
            button = rest[0] if rest else last
        skipping = [seat for seat in blinds_before if by_seat[seat].skip_small_blind]
        if skipping:
            drop(skipping[0], SMALL if skipping[0] == blinds_before[0] else BIG)
            continue
        break
    if len(ring) == 2:
        blinds = BlindSeats(blinds_before[0], last)
        tokens = (blinds_before[0], last, last) if three else (blinds_before[0], last)
    else:
        blinds = BlindSeats(*blinds_before, last)
        tokens = (*blinds_before, last)
    posts: list[Post] = []
    for seat in ring:
        if seat != last:
            for post in owed_posts(seat, by_seat[seat].owes, False, stakes):
                if not (post.live and seat in blinds_before):      # their blind is their live post
                    posts.append(post)
    return HandPlan(tuple(ring), button, blinds, tuple(posts), tuple(missed), tuple(sat_out), (),
                    Positions(button, tokens), True)


def _next(seats: Sequence[SeatView], max_seats: int, stakes: Stakes, previous: Positions,
          three: bool) -> HandPlan | None:
    by_seat = {v.seat: v for v in seats}
    prev = previous.blinds
    last_kind = THIRD if three else BIG
    missed: list[tuple[int, str]] = []
    sat_out: list[int] = []

    def can_play(v: SeatView) -> bool:
        return not v.sitting_out and v.stack > 0

    def blocked(v: SeatView) -> bool:              # HR-POST-3
        return not v.regular and in_arc(v.seat, prev[0], prev[-1], max_seats)

    def miss(v: SeatView, blind: str) -> None:
        if not v.new:
            missed.append((v.seat, blind))

    # The last blind moves to the next player due (HR-MB-6); those it passes while out owe it.
    last = None
    for seat in clockwise(prev[-1], max_seats):
        v = by_seat.get(seat)
        if v is None:
            continue
        if can_play(v) and not blocked(v):
            if v.skip_big_blind:
                sat_out.append(seat)
                miss(v, last_kind)
                continue
            last = seat
            break
        if v.sitting_out:
            miss(v, last_kind)
    if last is None or last == prev[-1]:
        return None
    dealt = {v.seat for v in seats
             if can_play(v) and not blocked(v) and v.seat not in sat_out
             and (v.regular or not v.wait_for_big_blind or v.seat == last)}
    # Earlier blinds take the positions the later ones had; a seat holds one blind at most.
    position_kinds = (SMALL, BIG)[:len(prev) - 1]
    positions = [prev[i + 1] for i in range(len(prev) - 1)]
    live: list[int | None] = []
    for kind, seat in zip(position_kinds, positions, strict=True):
        v = by_seat.get(seat)
        taken = seat == last or seat in live
        if v is not None and seat in dealt and not taken and v.skip_small_blind:
            dealt.discard(seat)
            sat_out.append(seat)
            miss(v, kind)
        elif v is not None and not taken and (v.sitting_out or seat in sat_out):
            miss(v, kind)
        live.append(seat if seat in dealt and not taken else None)
    if len(dealt) < 2:
        return None
    posts: list[Post] = []
    if len(dealt) == 2:
        small = next(s for s in dealt if s != last)
        blinds = BlindSeats(small, last)
        button = small
        tokens = (small, last, last) if three else (small, last)
        for post in owed_posts(small, by_seat[small].owes, by_seat[small].new, stakes):
            if not post.live:                       # the small blind is their live post
                posts.append(post)
    else:
        blinds = BlindSeats(live[0], live[1], last) if three else BlindSeats(live[0], last)
        tokens = (*positions, last)
        button = _button(prev[0], tokens, dealt, max_seats)
        for seat in sorted(dealt):
            v = by_seat[seat]
            if seat != last:
                posts.extend(owed_posts(seat, v.owes, v.new, stakes))
    held_back = tuple(sorted(v.seat for v in seats if can_play(v) and blocked(v)))
    return HandPlan(tuple(sorted(dealt)), button, blinds, tuple(posts), tuple(missed), tuple(sat_out),
                    held_back, Positions(button, tokens), False)


def _button(previous_small: int, tokens: tuple[int, ...], dealt: set[int], max_seats: int) -> int:
    """The small blind's old position; if a blind sits there now, the first player before the blinds."""
    if previous_small not in tokens:
        return previous_small
    first = tokens[0]
    for seat in clockwise(first, max_seats):
        seat = (2 * first - seat - 1) % max_seats + 1       # walk counter-clockwise from the small blind
        if seat in dealt and seat not in tokens:
            return seat
    return tokens[-1]               # three-handed with a third blind: the button posts it
