"""A casino table's commands as data: what a player, the floor's timer or an operator asks of the table.

Each command is a frozen record with the fields it needs in plain data, so
the same value can be sent by the floor beside the table or by a process on
the other side of a bus (``pokerroom/bus/records.py`` declares them as bus
records; this package imports nothing of the bus). What the table cannot know
comes in the record: ``funds``, what the player's wallet holds now (the shell
reads it), and ``at``, the time. :data:`APPLY` maps each command's type to the
table method that carries it out; :meth:`CasinoTable.apply
<pokerroom.casino.table.CasinoTable.apply>` is the only dispatcher, and a
command it does not know is refused (``unknown_command``), never guessed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pokerroom.errors import handler_for


@dataclass(frozen=True, slots=True)
class Join:
    """A player comes to the table (live blackjack: takes ``seat``, or the first free one)."""

    player: str
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Leave:
    player: str


@dataclass(frozen=True, slots=True)
class Bet:
    player: str
    market: str
    amount: int
    funds: int
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Decide:
    """A blackjack move on the decision ``decision`` names (``hand``: which of a split box's hands)."""

    player: str
    move: str
    hand: int
    funds: int
    decision: str | None = None


@dataclass(frozen=True, slots=True)
class Disconnect:
    player: str
    at: float


@dataclass(frozen=True, slots=True)
class Reconnect:
    player: str


@dataclass(frozen=True, slots=True)
class Expire:
    """The floor's timer: the table's current phase ran out of time (:meth:`CasinoTable.due` said when)."""


@dataclass(frozen=True, slots=True)
class Void:
    """A malfunction: the round in play is cancelled and every bet refunded (CR-5, BOB-5, IB-12)."""

    reason: str


CasinoCommand = Join | Leave | Bet | Decide | Disconnect | Reconnect | Expire | Void
PLAYERS = frozenset({Join, Leave, Bet, Decide})     # what a player's request sends (the rest is the floor's own)

APPLY: dict[type, Callable[[Any, Any], list]] = {
    Join: lambda t, c: t.join(c.player, c.seat),
    Leave: lambda t, c: t.leave(c.player),
    Bet: lambda t, c: t.bet(c.player, c.market, c.amount, c.funds, c.seat),
    Decide: lambda t, c: t.decide(c.player, c.move, c.hand, c.funds, c.decision),
    Disconnect: lambda t, c: t.disconnect(c.player, c.at),
    Reconnect: lambda t, c: t.reconnect(c.player),
    Expire: lambda t, c: t.expire(),
    Void: lambda t, c: t.void(c.reason),
}


def handler_of(command: object) -> Callable[[Any, Any], list]:
    """The table method that carries ``command`` out; ``unknown_command`` for anything else."""
    return handler_for(APPLY, command, "a casino table")
