"""A cash table's commands as data: what a player, a desk or the table's own timer asks of it.

Each command is a frozen record with the fields it needs, so the same value
can be sent by the service beside the table, by a timer's deadline, or by a
process on the other side of a bus (``pokerroom/bus/records.py`` declares
them as bus records). :data:`APPLY` maps each command's type to the table
method that carries it out; :meth:`~pokerroom.table.CashTable.apply` is the
only dispatcher, and a command it does not know is refused, never guessed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pokerroom.errors import handler_for
from pokerroom.poker.actions import action_named
from pokerroom.poker.quick_init import quick_init


@dataclass(frozen=True, slots=True)
class Sit:
    player: str
    seat: int | None
    buy_in: int
    client_type: str = "desktop"
    wait_for_big_blind: bool = False


@dataclass(frozen=True, slots=True)
class Leave:
    player: str


@dataclass(frozen=True, slots=True)
class AddChips:
    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class SitOut:
    player: str


@dataclass(frozen=True, slots=True)
class SitIn:
    player: str
    wait_for_big_blind: bool = False


@dataclass(frozen=True, slots=True)
class SetOptions:
    """Each option None when the request leaves it as it is."""

    player: str
    auto_post_blinds: bool | None = None
    sit_out_next_hand: bool | None = None
    sit_out_next_big_blind: bool | None = None
    auto_muck: bool | None = None


@quick_init                                 # one a player's action: made as cheaply as an event
@dataclass(frozen=True, slots=True)
class Act:
    """An action in the client's words (``to`` for a bet or raise, ``agree`` to run it twice; ``decision`` None
    from the core's own callers): the table knows the seat it is for (BET-1)."""

    player: str
    action: str
    to: int | None
    agree: bool | None
    decision: str | None


@dataclass(frozen=True, slots=True)
class JoinWaitingList:
    player: str


@dataclass(frozen=True, slots=True)
class LeaveWaitingList:
    player: str


@dataclass(frozen=True, slots=True)
class Disconnect:
    player: str


@dataclass(frozen=True, slots=True)
class Reconnect:
    player: str


@dataclass(frozen=True, slots=True)
class Close:
    """A director closes the table: no new hand; everyone stands up once no hand runs."""


@dataclass(frozen=True, slots=True)
class Reseat:
    """The process that took the table over seats a player again, with the stack the void hand started with
    (TR-REFUND-1); the host's own, never a client's (no request makes one, and no bus record carries it)."""

    player: str
    seat: int | None
    stack: int


# The table's timer sends these when a deadline of :meth:`CashTable.next_deadline` comes up.

@quick_init
@dataclass(frozen=True, slots=True)
class StartHand:
    pass


@quick_init                                 # one a decision: the table's next deadline
@dataclass(frozen=True, slots=True)
class Timeout:
    """The decision (or reconnect) time of ``seat`` ran out (HR-TIME-2, HR-DC-1)."""

    seat: int


@quick_init
@dataclass(frozen=True, slots=True)
class TimeBankExpired:
    seat: int


@dataclass(frozen=True, slots=True)
class OfferExpired:
    player: str


@dataclass(frozen=True, slots=True)
class SitOutExpired:
    seat: int


TableCommand = (Sit | Leave | AddChips | SitOut | SitIn | SetOptions | Act | JoinWaitingList | LeaveWaitingList
                | Disconnect | Reconnect | Close | StartHand | Timeout | TimeBankExpired | OfferExpired
                | SitOutExpired)


def _act(table: Any, c: Act, now: float) -> list:
    return table.act(c.player, action_named(table.seat_of(c.player), c.action, c.to, c.agree), now, c.decision)


APPLY: dict[type, Callable[[Any, Any, float], list]] = {
    Sit: lambda t, c, now: t.sit(c.player, c.seat, c.buy_in, now, client_type=c.client_type,
                                 wait_for_big_blind=c.wait_for_big_blind),
    Leave: lambda t, c, now: t.leave(c.player, now),
    Reseat: lambda t, c, now: t.sit(c.player, c.seat, c.stack, now, restored=True),
    AddChips: lambda t, c, now: t.add_chips(c.player, c.amount, now),
    SitOut: lambda t, c, now: t.sit_out(c.player, now),
    SitIn: lambda t, c, now: t.sit_in(c.player, now, wait_for_big_blind=c.wait_for_big_blind),
    SetOptions: lambda t, c, now: t.set_options(c.player, now, auto_post_blinds=c.auto_post_blinds,
                                                sit_out_next_hand=c.sit_out_next_hand,
                                                sit_out_next_big_blind=c.sit_out_next_big_blind,
                                                auto_muck=c.auto_muck),
    Act: _act,
    JoinWaitingList: lambda t, c, now: t.join_waiting_list(c.player, now),
    LeaveWaitingList: lambda t, c, now: t.leave_waiting_list(c.player, now),
    Disconnect: lambda t, c, now: t.disconnect(c.player, now),
    Reconnect: lambda t, c, now: t.reconnect(c.player, now),
    Close: lambda t, c, now: t.close(now),
    StartHand: lambda t, c, now: t.start_hand(now),
    Timeout: lambda t, c, now: t.timeout(c.seat, now),
    TimeBankExpired: lambda t, c, now: t.time_bank_expired(c.seat, now),
    OfferExpired: lambda t, c, now: t.offer_expired(c.player, now),
    SitOutExpired: lambda t, c, now: t.sit_out_expired(c.seat, now),
}


def handler_of(command: object) -> Callable[[Any, Any, float], list]:
    """The table method that carries ``command`` out; ``unknown_command`` for anything else."""
    return handler_for(APPLY, command, "a table")
