"""What a tournament director says happened: small frozen records, one per kind (see ``tournament.director``).

The hall pushes them to clients as ``tournament_event`` (the class name in
snake case, with the fields: :func:`event_to_wire`), except :class:`Payment`,
which it posts to the ledger, and the hand events inside :class:`HandDealt` /
:class:`HandPlayed`, which it redacts per seat. Every field is wire data as it
stands -- integers, strings, booleans, tuples and maps with string keys; a
share is whole percent, never a ``Fraction`` -- so no client needs a hook to
read one and no conversion can round.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any

from pokerroom.poker.events import wire_name


@dataclass(frozen=True)
class Payment:
    """Money the shell moves through the ledger, in order, with ``reason`` as the transfer's reason."""

    source: str
    target: str
    amount: int
    reason: str


@dataclass(frozen=True)
class Registered:
    player: str
    entry: int                   # 1 for the first entry, 2.. for re-entries


@dataclass(frozen=True)
class Unregistered:
    player: str


@dataclass(frozen=True)
class Started:
    players: int
    tables: int


@dataclass(frozen=True)
class Seated:
    """A player placed at a table: drawn at the start, registering late, or moved (``move``)."""

    player: str
    table: str
    seat: int
    chips: int
    reason: str                  # "draw", "late", "break", "balance", "director"
    source: str = ""             # the table a moved player came from


@dataclass(frozen=True)
class TableClosed:
    table: str


@dataclass(frozen=True)
class HandDealt:
    table: str
    events: tuple                # the hand engine's events; the shell redacts them per viewer


@dataclass(frozen=True)
class HandPlayed:
    table: str
    events: tuple


@dataclass(frozen=True)
class HandSent:
    """The table's next hand goes to another process to deal and play; its plan is the table's ``away``."""

    table: str
    hand_id: str


@dataclass(frozen=True)
class HandReturned:
    """A hand sent away ended; ``end`` is each dealt player's chips after it."""

    table: str
    hand_id: str
    end: dict[str, int]


@dataclass(frozen=True)
class HandVoided:
    """A hand sent away is void (the process playing it died): each player keeps the chips they began it with
    (TR-REFUND-1)."""

    table: str
    hand_id: str
    stacks: dict[str, int]


@dataclass(frozen=True)
class ChipsAdded:
    player: str
    chips: int
    kind: str                    # "rebuy" or "add_on"


@dataclass(frozen=True)
class LevelStarted:
    level: int
    small_blind: int
    big_blind: int
    ante: int
    big_blind_ante: bool
    seconds: int


@dataclass(frozen=True)
class BreakStarted:
    seconds: int


@dataclass(frozen=True)
class BreakEnded:
    pass


@dataclass(frozen=True)
class Paused:
    by: str
    reason: str


@dataclass(frozen=True)
class Resumed:
    by: str


@dataclass(frozen=True)
class RegistrationClosed:
    entries: int
    reason: str                  # "levels", "full", "in the money", "director"


@dataclass(frozen=True)
class RebuysClosed:
    pass


@dataclass(frozen=True)
class PrizesFixed:
    entries: int
    collected: int
    overlay: int
    prizes: tuple[int, ...]
    remainder: int


@dataclass(frozen=True)
class HandForHand:
    on: bool


@dataclass(frozen=True)
class Eliminated:
    players: tuple[str, ...]     # more than one: tied across tables (TR-PLAY-3)
    places: tuple[int, ...]
    prize: int                   # each


@dataclass(frozen=True)
class Busted:
    """A player is out of chips; their place follows at once, or when late registration closes."""

    player: str
    table: str
    can_re_enter: bool


@dataclass(frozen=True)
class BountyWon:
    busted: str
    winner: str
    cash: int
    onto_head: int
    held: bool                   # before the money: in escrow until the bubble bursts


@dataclass(frozen=True)
class BubbleBurst:
    held_bounties_paid: int


@dataclass(frozen=True)
class PrizeSubstituted:
    place: int
    description: str
    value: int
    by: str


@dataclass(frozen=True)
class PackageAwarded:
    """A substituted prize (TR-PRIZE-4) was won: the room delivers ``description`` worth ``value``."""

    player: str
    place: int
    description: str
    value: int


@dataclass(frozen=True)
class SeatWon:
    player: str
    target: str
    as_tournament_money: bool    # already registered or out of entries there (TR-PRIZE-5)


@dataclass(frozen=True)
class DealProposed:
    by: str
    kind: str
    left_to_play_for: int


@dataclass(frozen=True)
class DealOffered:
    kind: str
    amounts: dict[str, int]
    left_to_play_for: int
    remainder: int
    seconds: int


@dataclass(frozen=True)
class DealAnswered:
    player: str
    accept: bool


@dataclass(frozen=True)
class DealMade:
    amounts: dict[str, int]
    left_to_play_for: int


@dataclass(frozen=True)
class DealFailed:
    reason: str


@dataclass(frozen=True)
class DealAwaitingApproval:
    """Every player accepted; the tournament's director approves or cancels the deal before it is paid."""

    amounts: dict[str, int]
    left_to_play_for: int


@dataclass(frozen=True)
class Broadcast:
    """A director's message to everyone in and watching a tournament."""

    text: str
    by: str


@dataclass(frozen=True)
class SharesSold:
    seller: str
    backer: str
    percent: int                 # of the seller's action, whole (TR-STAKE-1)
    price: int


@dataclass(frozen=True)
class Finished:
    winner: str


@dataclass(frozen=True)
class Cancelled:
    case: str                    # the TR-REFUND rule the refunds follow
    reason: str
    refunds: dict[str, int]      # player -> what they got back, before backers' parts


def players_concerned(event: Any) -> tuple[str, ...] | None:
    """The players an event is about, when it is about them and not the field (a seat, a bust, a place, a
    bounty, chips bought, shares sold): entrants hear those of their own, subscribers all; None for the
    field's events (levels, breaks, prizes, hand-for-hand, deals, the end), which every entrant hears."""
    kind = type(event)
    if kind in (Registered, Unregistered, Seated, Busted, ChipsAdded, SeatWon, PackageAwarded):
        return (event.player,)
    if kind is Eliminated:
        return event.players
    if kind is BountyWon:
        return (event.busted, event.winner)
    if kind is SharesSold:
        return (event.seller, event.backer)
    if kind is HandSent:                # its hand's frames come from the process playing it
        return ()
    if kind is HandReturned:
        return tuple(event.end)
    if kind is HandVoided:
        return tuple(event.stacks)
    return None


_TABLE_EVENTS = frozenset((HandDealt, HandPlayed, HandSent, HandReturned, HandVoided, TableClosed))


def tables_named(events: Iterable[Any]) -> set[str]:
    """The tables a command's events name -- a hand's table, both ends of a move, a closed table: the only
    tables whose seats, stacks or hand it changed, so the shell looks at those and not at the whole field."""
    named: set[str] = set()
    for e in events:
        kind = type(e)
        if kind in _TABLE_EVENTS:
            named.add(e.table)
        elif kind is Seated:
            named.add(e.table)
            if e.source:
                named.add(e.source)
    return named


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def event_to_wire(event: Any) -> dict[str, Any]:
    """A tournament event as the ``event`` of a ``tournament_event`` push: its ``type`` and its fields."""
    return {"type": wire_name(type(event)), **{f.name: _plain(getattr(event, f.name)) for f in fields(event)}}
