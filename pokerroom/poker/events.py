"""Events of one hand of poker: the single truth about what happened in it.

Theory of operation
-------------------
A :class:`~pokerroom.poker.hand.Hand` takes commands and returns events. Every
event is a small frozen dataclass of plain data only -- ``int``, ``str``,
``bool``, ``None`` and tuples of those -- so it serialises to msgpack or JSON
without hooks (:func:`event_to_dict` adds the ``type`` key the protocol uses,
:func:`event_from_dict` reverses it). Each event carries ``seq``: 1 for the
first event of a hand, then +1 per event, no gaps.

The event list of a hand, from :class:`HandStarted` to :class:`DeckRevealed`,
is a complete hand history: client updates, the hand-history exporters
(PokerStars text, OHH, PHH), the security team's records and crash recovery are
all views of it. Nothing else about a hand needs to be stored.

Conventions: a card is an ``int`` 0..51 (``pokerroom.cards``; ``rank*4+suit``);
a seat is the table's seat number; money is integer chips; streets are named
``"preflop"``, ``"flop"``, ``"turn"``, ``"river"``; a seat order "from the
button" means clockwise starting with the first seat left of the button.

What may be seen by whom is decided in one place, ``redact.redact`` (hole
cards reach only their owner until shown; the deck order reaches nobody but the
security team, and only once the hand has ended -- HR-RNG-2, SEC-2).

Order of events in a hand::

    HandStarted
    SeatDealtIn          one per seat dealt in, from the button
    Posted               antes, small/big/third blind, owed posts (big-blind ante: BB, its ante, SB)
    HoleCardsDealt       one per seat, from the button
    ActionTaken ...      pre-flop betting
    BetReturned          an uncalled bet, at the end of any betting round
    BoardDealt           flop / turn / river, each followed by its betting
    CardsExposed         all-in and no more action: every hand turned face up
    RunItTwiceOffered, RunItTwiceAnswered..., RunItTwiceDecided
    BoardDealt ...       the run-out (run 1, then run 2 when run twice)
    HandShown / HandMucked   showdown, in showdown order, per run
    PotFormed            one per pot, main pot first, with its rake
    PotAwarded           one per pot and run
    HandEnded            final stacks
    DeckRevealed         the deck order, for the security team only
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any

from pokerroom.poker.quick_dict import dict_maker
from pokerroom.poker.quick_init import quick_init

# Streets, in order.
PREFLOP = "preflop"
FLOP = "flop"
TURN = "turn"
RIVER = "river"
STREETS = (PREFLOP, FLOP, TURN, RIVER)

# Kinds of post (Posted.kind). Live posts count toward the poster's pre-flop
# bet; dead posts go straight to the pot (HR-MB-1..3, HR-POST-1..2).
POST_SMALL_BLIND = "small_blind"          # live
POST_BIG_BLIND = "big_blind"              # live
POST_THIRD_BLIND = "third_blind"          # live, straddle-sized (HR-MB-3)
POST_ENTRY = "entry"                      # live, out of position: entry blind or returning live blind
POST_ANTE = "ante"                        # dead, every player dealt in
POST_BIG_BLIND_ANTE = "big_blind_ante"    # dead, the big blind pays the table's ante
POST_DEAD_SMALL_BLIND = "dead_small_blind"  # dead (HR-MB-1..3)
POST_DEAD_BIG_BLIND = "dead_big_blind"      # dead (HR-MB-3)
LIVE_POSTS = frozenset({POST_SMALL_BLIND, POST_BIG_BLIND, POST_THIRD_BLIND, POST_ENTRY})
POST_KINDS = LIVE_POSTS | {POST_ANTE, POST_BIG_BLIND_ANTE, POST_DEAD_SMALL_BLIND, POST_DEAD_BIG_BLIND}

# Actions (ActionTaken.action).
FOLD = "fold"
CHECK = "check"
CALL = "call"
BET = "bet"
RAISE = "raise"


@quick_init
@dataclass(frozen=True, slots=True)
class HandStarted:
    """The hand's header: game, stakes, positions and table labels.

    ``small_bet``/``big_bet`` are the fixed-limit sizes (pre-flop and flop /
    turn and river); for no-limit and pot-limit they equal the big blind and
    are informational. ``small_blind_seat``, ``big_blind_seat`` and
    ``third_blind_seat`` are None when that blind is not posted (a dead small
    blind under HR-MB-6, a dead big blind at a third-blind table, or no third
    blind at this table). ``button_seat`` may be an empty seat (dead
    button). ``started_at`` is whatever timestamp text the table passed in
    (the engine reads no clock); ``currency`` is "" for tournament chips.
    """

    seq: int
    hand_id: str
    variant: str            # "NLHE", "PLO", "PLO5", "FLHE", ...
    game: str               # "holdem" | "omaha"
    betting: str            # "no_limit" | "pot_limit" | "fixed_limit"
    hole_card_count: int
    small_blind: int
    big_blind: int
    third_blind: int        # 0 when the table has none
    ante: int               # 0 when none
    big_blind_ante: bool    # True: the big blind pays one ante for the table
    small_bet: int
    big_bet: int
    button_seat: int
    small_blind_seat: int | None
    big_blind_seat: int | None
    third_blind_seat: int | None
    run_it_twice: bool      # the table offers run it twice on all-ins
    table_name: str
    max_seats: int
    currency: str
    started_at: str


@quick_init
@dataclass(frozen=True, slots=True)
class SeatDealtIn:
    """A player dealt into the hand, with the stack they start it with (HR-STAKE-1)."""

    seq: int
    seat: int
    player: str
    stack: int


@quick_init
@dataclass(frozen=True, slots=True)
class Posted:
    """A forced bet. ``live`` posts count toward the poster's pre-flop bet.

    ``added`` may be less than the scheduled size when the stack is short;
    then ``all_in`` is True. What a client draws after it: ``to``, the seat's
    bet on the street (a dead post adds to the pot, not to the bet), ``pot``,
    every chip in the middle (pots and bets), and ``behind``, the seat's stack.
    """

    seq: int
    seat: int
    kind: str               # one of POST_KINDS
    added: int
    live: bool
    all_in: bool
    to: int
    pot: int
    behind: int


@quick_init
@dataclass(frozen=True, slots=True)
class HoleCardsDealt:
    """A seat's hole cards, in dealing order. Redacted to ``()`` for everyone but the owner."""

    seq: int
    seat: int
    cards: tuple[int, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class ActionTaken:
    """A player's decision in a betting round.

    ``added`` is the chips this action put in; ``to`` is the player's total
    bet on this street afterwards (live posts included); ``facing`` is the
    street's highest bet before the action, so a raise is "by ``to - facing``
    to ``to``". ``timed_out`` marks a check or fold made for the player when
    their time ran out (HR-TIME-3, HR-DC-1). ``pot`` is every chip in the
    middle afterwards (pots and this street's bets, before rake) and
    ``behind`` the seat's stack: with ``to`` all a client draws for the seat,
    without replaying the hand.
    """

    seq: int
    seat: int
    street: str
    action: str             # "fold" | "check" | "call" | "bet" | "raise"
    added: int
    to: int
    facing: int
    all_in: bool
    timed_out: bool
    pot: int
    behind: int


@quick_init
@dataclass(frozen=True, slots=True)
class BetReturned:
    """The part of a bet nobody called, given back at the end of the betting round.

    Afterwards the seat's bet on the street is ``to``, the middle holds ``pot`` and the seat ``behind``.
    """

    seq: int
    seat: int
    amount: int
    street: str
    to: int
    pot: int
    behind: int


@quick_init
@dataclass(frozen=True, slots=True)
class BoardDealt:
    """Community cards for a street: ``cards`` are new, ``board`` the whole board of this run.

    ``run`` is 1, or 2 for the second board when the hand is run twice. One
    card is burned before each street; burned cards appear only in
    :class:`DeckRevealed`.
    """

    seq: int
    street: str
    cards: tuple[int, ...]
    board: tuple[int, ...]
    run: int


@quick_init
@dataclass(frozen=True, slots=True)
class CardsExposed:
    """A hand turned face up because a player is all-in and action is complete."""

    seq: int
    seat: int
    cards: tuple[int, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class RunItTwiceOffered:
    """Every player still in the hand (listed from the button) is asked to agree to two boards."""

    seq: int
    seats: tuple[int, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class RunItTwiceAnswered:
    seq: int
    seat: int
    agree: bool
    timed_out: bool


@quick_init
@dataclass(frozen=True, slots=True)
class RunItTwiceDecided:
    """``runs`` is 2 when everyone agreed, else 1."""

    seq: int
    runs: int


@quick_init
@dataclass(frozen=True, slots=True)
class HandShown:
    """A hand shown at showdown, ranked on the board of ``run``.

    ``rank`` is the evaluator's value (bigger wins), ``category`` its
    ``HandCategory`` name (e.g. "FULL_HOUSE") and ``description`` the
    evaluator's text ("Full House, Kings full of Fours").
    """

    seq: int
    seat: int
    cards: tuple[int, ...]
    run: int
    rank: int
    category: str
    description: str


@quick_init
@dataclass(frozen=True, slots=True)
class HandMucked:
    """A losing hand not shown. ``cards`` reach only the owner (and security after the hand)."""

    seq: int
    seat: int
    cards: tuple[int, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class PotFormed:
    """A pot (index 0 is the main pot) before it is awarded: size, rake and who may win it.

    ``amount`` is before rake; ``seats`` are the players eligible to win it.
    """

    seq: int
    pot: int
    amount: int
    rake: int
    seats: tuple[int, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class PotAwarded:
    """One pot's (or, run twice, one half-pot's) chips after rake, and who got them.

    ``seats`` and ``shares`` are parallel; with a tie the odd chips go one each, clockwise from the
    first winner left of the button (HR-TIE-3). ``rank`` is the winning hand's rank, 0 when the pot was
    not contested at showdown.
    """

    seq: int
    pot: int
    run: int
    amount: int
    seats: tuple[int, ...]
    shares: tuple[int, ...]
    rank: int


@quick_init
@dataclass(frozen=True, slots=True)
class HandEnded:
    """Final stacks as ``((seat, stack), ...)`` from the button; ``rake`` is the hand's total."""

    seq: int
    stacks: tuple[tuple[int, int], ...]
    rake: int


@quick_init
@dataclass(frozen=True, slots=True)
class DeckRevealed:
    """The full deck order used for the hand. Security team only, after the hand (HR-RNG-2)."""

    seq: int
    deck: tuple[int, ...]


Event = (HandStarted | SeatDealtIn | Posted | HoleCardsDealt | ActionTaken | BetReturned | BoardDealt
         | CardsExposed | RunItTwiceOffered | RunItTwiceAnswered | RunItTwiceDecided | HandShown
         | HandMucked | PotFormed | PotAwarded | HandEnded | DeckRevealed)


def wire_name(cls: type) -> str:
    """A class name as the protocol's ``type``: ``ActionTaken`` -> ``"action_taken"``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()


EVENT_TYPES: dict[str, type] = {
    wire_name(cls): cls
    for cls in (HandStarted, SeatDealtIn, Posted, HoleCardsDealt, ActionTaken, BetReturned, BoardDealt,
                CardsExposed, RunItTwiceOffered, RunItTwiceAnswered, RunItTwiceDecided, HandShown,
                HandMucked, PotFormed, PotAwarded, HandEnded, DeckRevealed)
}
_TYPE_NAMES = {cls: name for name, cls in EVENT_TYPES.items()}


def event_type(event: Event) -> str:
    """The wire name of an event's type, e.g. ``"action_taken"``."""
    return _TYPE_NAMES[type(event)]


def field_names(cls: type) -> tuple[str, ...]:
    return tuple(field.name for field in dataclasses.fields(cls))


TO_DICT = {cls: dict_maker(cls, name) for name, cls in EVENT_TYPES.items()}   # every event on every table


def event_to_dict(event: Event) -> dict[str, Any]:
    """``{"type": "action_taken", "seq": 7, ...}``: ready for msgpack or JSON."""
    return TO_DICT[type(event)](event)


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def event_from_dict(data: dict[str, Any]) -> Event:
    """Rebuild an event from :func:`event_to_dict` output (JSON lists become tuples again)."""
    fields = dict(data)
    cls = EVENT_TYPES[fields.pop("type")]
    return cls(**{k: _tuples(v) for k, v in fields.items()})


# ---------------------------------------------------------------------- hands stored by protocol 1.0

_RENAMED_1_0 = {"seat_dealt_in": (("player_id", "player"),), "posted": (("amount", "added"),),
                "action_taken": (("amount", "added"),)}


def upgrade_stored(dicts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A stored hand's event maps in today's words: a hand stored before protocol 1.1 gets its renamed fields
    (``player_id`` -> ``player``, ``amount`` -> ``added``) and the drawing fields (``to``, ``pot``,
    ``behind``) replayed from its chips. A hand stored since is returned as it is, at the cost of one look."""
    if not any(d.get("type") in _RENAMED_1_0 and not d.keys().isdisjoint(("player_id", "amount")) for d in dicts):
        return dicts
    stacks: dict[int, int] = {}
    bets: dict[int, int] = {}
    pot = 0
    out = []
    for d in dicts:
        d = dict(d)
        kind = d.get("type")
        for old, new in _RENAMED_1_0.get(kind, ()):
            if old in d:
                d[new] = d.pop(old)
        if kind == "seat_dealt_in":
            stacks[d["seat"]] = d["stack"]
        elif kind == "posted":
            seat = d["seat"]
            stacks[seat] -= d["added"]
            pot += d["added"]
            if d["live"]:
                bets[seat] = bets.get(seat, 0) + d["added"]
            d.setdefault("to", bets.get(seat, 0))
        elif kind == "action_taken":
            seat = d["seat"]
            stacks[seat] -= d["added"]
            pot += d["added"]
            bets[seat] = d["to"]
        elif kind == "bet_returned":
            seat = d["seat"]
            stacks[seat] += d["amount"]
            pot -= d["amount"]
            bets[seat] = bets.get(seat, 0) - d["amount"]
            d.setdefault("to", bets[seat])
        elif kind == "board_dealt":
            bets.clear()
        if kind in ("posted", "action_taken", "bet_returned"):
            d.setdefault("pot", pot)
            d.setdefault("behind", stacks[d["seat"]])
        out.append(d)
    return out


def events_from_stored(dicts: list[dict[str, Any]] | None) -> list[Event]:
    """A stored hand's events (:func:`upgrade_stored`, then :func:`event_from_dict`)."""
    return [event_from_dict(d) for d in upgrade_stored(dicts or [])]
