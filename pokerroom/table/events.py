"""Events of a cash table: everything a table does, as plain data with a table sequence number.

A :class:`~pokerroom.table.cash_table.CashTable` command returns a list of
these. ``seq`` counts every event of the table, 1, 2, 3 ... with no gaps, so a
reconnecting client can ask for what it missed after the last ``seq`` it saw.
The engine's own events travel inside :class:`HandEvent`, untouched (their
``seq`` counts within the hand); :func:`redact` applies the engine's one
redaction rule to them, and everything else a table says is public.

Times are seconds on the clock the table is driven with (the reactor's);
money is whole chips.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pokerroom.poker import events as hand_events
from pokerroom.poker.quick_dict import dict_maker
from pokerroom.poker.quick_init import quick_init
from pokerroom.poker.redact import PUBLIC, Viewer
from pokerroom.poker.redact import redact as redact_hand_event

# Why a player sits out (PlayerSatOut.reason).
BY_PLAYER = "player"                    # asked to
NEXT_HAND = "sit_out_next_hand"         # their option for the next hand
SKIPPED_BLIND = "skipped_blind"         # "sit out next big blind", or auto-post off
DISCONNECTED = "disconnected"           # lost connection during a hand (HR-DC-1)
NO_CHIPS = "no_chips"                   # busted; add chips to play on

# Why a player leaves (PlayerLeft.reason).
LEFT = "left"
SAT_OUT_TOO_LONG = "sat_out_too_long"   # removed for a waiting list
TABLE_CLOSED = "table_closed"           # the room closed the table: not the player's choice (no HR-HNR departure)

# Why a seated, sitting-in player is not dealt in (WaitingToPlay.reason).
WAITING_FOR_BIG_BLIND = "waiting_for_big_blind"     # HR-POST-1, HR-MB-4
BUTTON_MUST_PASS = "button_must_pass"               # HR-POST-3


@quick_init
@dataclass(frozen=True, slots=True)
class PlayerSeated:
    """``player`` took ``seat`` with ``stack`` chips (HR-STAKE-4).

    ``owes`` is a blind still owed from a recent leave of this table (HR-MB-5).
    """

    seq: int
    seat: int
    player: str
    stack: int
    wait_for_big_blind: bool
    owes: str | None


@quick_init
@dataclass(frozen=True, slots=True)
class ChipsAdded:
    """``added`` chips came from the player's wallet; the seat now has ``stack``."""

    seq: int
    seat: int
    added: int
    stack: int


@quick_init
@dataclass(frozen=True, slots=True)
class PlayerSatOut:
    seq: int
    seat: int
    reason: str


@quick_init
@dataclass(frozen=True, slots=True)
class PlayerSatIn:
    """Back in: ``owes`` is the blind still owed (posted next hand unless waiting for the big blind)."""

    seq: int
    seat: int
    owes: str | None
    wait_for_big_blind: bool


@quick_init
@dataclass(frozen=True, slots=True)
class BlindMissed:
    """The ``blind`` ("small", "big", "third") passed a sitting-out player; ``owes`` is what they now owe."""

    seq: int
    seat: int
    blind: str
    owes: str


@quick_init
@dataclass(frozen=True, slots=True)
class WaitingToPlay:
    """A seated player who is not sitting out is not dealt in this hand, and why."""

    seq: int
    seat: int
    reason: str


@quick_init
@dataclass(frozen=True, slots=True)
class HandEvent:
    """One event of the hand engine, in table order; ``hand_id`` names the hand."""

    seq: int
    hand_id: str
    event: hand_events.Event


@quick_init
@dataclass(frozen=True, slots=True)
class DecisionStarted:
    """``seat`` must act within ``seconds``, that is by ``deadline`` (the table's clock: epoch seconds on a
    live server); ``time_bank`` is what they have after that (HR-TIME-1)."""

    seq: int
    seat: int
    seconds: float
    time_bank: float
    deadline: float


@quick_init
@dataclass(frozen=True, slots=True)
class ReconnectTimeStarted:
    """A disconnected player's decision time ran out: extra time to come back, until ``deadline`` (HR-DC-1)."""

    seq: int
    seat: int
    seconds: float
    deadline: float


@quick_init
@dataclass(frozen=True, slots=True)
class TimeBankStarted:
    """The decision time ran out; the time bank counts down to ``deadline``, shown to everyone (HR-TIME-2)."""

    seq: int
    seat: int
    seconds: float
    deadline: float


@quick_init
@dataclass(frozen=True, slots=True)
class TimeBankUsed:
    """The player acted during their time bank: ``used`` seconds gone, ``remaining`` left."""

    seq: int
    seat: int
    used: float
    remaining: float


@quick_init
@dataclass(frozen=True, slots=True)
class TimeBankRefilled:
    seq: int
    seat: int
    added: float
    time_bank: float


@quick_init
@dataclass(frozen=True, slots=True)
class PlayerDisconnected:
    seq: int
    seat: int


@quick_init
@dataclass(frozen=True, slots=True)
class PlayerReconnected:
    seq: int
    seat: int


@quick_init
@dataclass(frozen=True, slots=True)
class PlayerLeft:
    """The player left with ``stack`` (HR-HNR).

    ``refusal`` counts their hit-and-run refusals at this blind level in the
    window (0: this leave was none); ``blocked_seconds`` is how long they may
    not join that level.
    """

    seq: int
    seat: int
    player: str
    stack: int
    reason: str
    refusal: int
    blocked_seconds: float


@quick_init
@dataclass(frozen=True, slots=True)
class WaitingListChanged:
    seq: int
    players: tuple[str, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class SeatOffered:
    """The first on the waiting list may take ``seat`` until ``expires_at``; it is kept for them till then."""

    seq: int
    seat: int
    player: str
    expires_at: float


@quick_init
@dataclass(frozen=True, slots=True)
class SeatOfferExpired:
    seq: int
    seat: int
    player: str


TableEvent = (PlayerSeated | ChipsAdded | PlayerSatOut | PlayerSatIn | BlindMissed | WaitingToPlay | HandEvent
              | DecisionStarted | ReconnectTimeStarted | TimeBankStarted | TimeBankUsed | TimeBankRefilled
              | PlayerDisconnected | PlayerReconnected | PlayerLeft | WaitingListChanged | SeatOffered
              | SeatOfferExpired)

TABLE_EVENT_TYPES: dict[str, type] = {
    hand_events.wire_name(cls): cls
    for cls in (PlayerSeated, ChipsAdded, PlayerSatOut, PlayerSatIn, BlindMissed, WaitingToPlay, HandEvent,
                DecisionStarted, ReconnectTimeStarted, TimeBankStarted, TimeBankUsed, TimeBankRefilled,
                PlayerDisconnected, PlayerReconnected, PlayerLeft, WaitingListChanged, SeatOffered,
                SeatOfferExpired)
}


_TO_DICT = {cls: dict_maker(cls, name) for name, cls in TABLE_EVENT_TYPES.items() if cls is not HandEvent}
_HAND_TO_DICT = hand_events.TO_DICT


def table_event_to_dict(event: TableEvent) -> dict[str, Any]:
    """``{"type": "player_seated", "seq": 3, ...}``; a hand event nests as ``event``."""
    cls = type(event)
    if cls is HandEvent:
        inner = event.event
        return {"type": "hand_event", "seq": event.seq, "hand_id": event.hand_id,
                "event": _HAND_TO_DICT[type(inner)](inner)}
    return _TO_DICT[cls](event)


def table_event_from_dict(data: dict[str, Any]) -> TableEvent:
    fields = dict(data)
    cls = TABLE_EVENT_TYPES[fields.pop("type")]
    if cls is HandEvent:
        fields["event"] = hand_events.event_from_dict(fields["event"])
    elif cls is WaitingListChanged:
        fields["players"] = tuple(fields["players"])
    return cls(**fields)


def redact(event: TableEvent, viewer: Viewer, *, hand_ended: bool = False) -> TableEvent | None:
    """The event as ``viewer`` may see it (see :func:`pokerroom.poker.redact.redact`), or None."""
    cls = type(event)
    if cls is HandEvent and type(event.event) in PUBLIC:     # the usual case: nothing to hide
        return event
    if cls in PUBLIC_AS_IS:
        return event
    if isinstance(event, HandEvent):
        inner = redact_hand_event(event.event, viewer, hand_ended=hand_ended)
        if inner is None:
            return None
        return event if inner is event.event else HandEvent(event.seq, event.hand_id, inner)
    if isinstance(event, _ENGINE_EVENTS):           # an engine event on its own (a stored hand history)
        return redact_hand_event(event, viewer, hand_ended=hand_ended)
    return event


_ENGINE_EVENTS = tuple(hand_events.EVENT_TYPES.values())
PUBLIC_AS_IS = frozenset(TABLE_EVENT_TYPES.values()) - {HandEvent}     # a table's own events: everyone's, whole
