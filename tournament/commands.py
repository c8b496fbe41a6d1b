"""A tournament's commands as data: what a player, a director or the hall's timers ask of the director.

Each command is a frozen record with the fields it needs in plain data, so
the same value can come from the desk beside the director, from a timer's
deadline, or from a process on the other side of a bus
(``pokerroom/bus/records.py`` declares them as bus records; this package
imports nothing of the bus). :data:`APPLY` maps each command's type to the
part of the director that carries it out; :meth:`Director.apply
<tournament.director.Director.apply>` is the only dispatcher, and a command it
does not know is refused (``unknown_command``), never guessed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, ClassVar

from pokerroom.errors import handler_for
from pokerroom.poker.actions import action_named
from tournament.hand_in_play import HandResult

if TYPE_CHECKING:
    from tournament.director import Director

# ---------------------------------------------------------------------- the hall's timers


@dataclass(frozen=True, slots=True)
class LevelUp:
    """The level's time is up: the next level (TR-PLAY-1). ``name`` is the step as the lobby shows it."""

    name: ClassVar[str] = "level_up"


@dataclass(frozen=True, slots=True)
class StartBreak:
    """The level before a break is over: a synchronised break (TR-PLAY-2)."""

    name: ClassVar[str] = "start_break"


@dataclass(frozen=True, slots=True)
class EndBreak:
    name: ClassVar[str] = "end_break"


ClockCommand = LevelUp | StartBreak | EndBreak      # what the level clock's deadline carries


@dataclass(frozen=True, slots=True)
class Start:
    """The scheduled start came, or a director starts it now (TR-REG-1)."""


@dataclass(frozen=True, slots=True)
class CatchUp:
    """The next slice of a large field's work (the start's seat draw, late registration's places)."""


@dataclass(frozen=True, slots=True)
class Deal:
    """The next hand at ``table``, with a deck the shell shuffled (HR-RNG-1)."""

    table: str
    deck: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SendHand:
    """The next hand at ``table``, planned here and dealt (with its own deck, HR-RNG-1) and played on another
    process."""

    table: str


@dataclass(frozen=True, slots=True)
class ReturnHand:
    """A hand sent away ended: its :class:`~tournament.hand_in_play.HandResult` as plain data."""

    table: str
    hand_id: str
    start: dict[str, int]
    end: dict[str, int]
    dealing_order: tuple[str, ...]
    eliminated_by: dict[str, tuple[str, ...]]

    @classmethod
    def of(cls, result: HandResult) -> ReturnHand:
        return cls(result.table_id, result.hand_id, dict(result.start), dict(result.end), tuple(result.dealing_order),
                   {p: tuple(w) for p, w in result.eliminated_by.items()})

    def result(self) -> HandResult:
        return HandResult(self.table, self.hand_id, dict(self.start), dict(self.end), tuple(self.dealing_order),
                          {p: tuple(w) for p, w in self.eliminated_by.items()})


@dataclass(frozen=True, slots=True)
class VoidHand:
    """The process playing a hand sent away died: the hand is void (TR-REFUND-1)."""

    table: str
    hand_id: str


@dataclass(frozen=True, slots=True)
class DealExpired:
    """The time to agree a deal ran out (TR-DEAL-1)."""


@dataclass(frozen=True, slots=True)
class Timeout:
    """The player's decision, reconnect time and time bank ran out: check, else fold (HR-DC-1, TR-PLAY-5)."""

    player: str


# ---------------------------------------------------------------------- a player's


@dataclass(frozen=True, slots=True)
class Act:
    """An action in the client's words (``to`` for a bet or raise); ``decision`` names the decision it answers."""

    player: str
    action: str
    to: int | None
    decision: str | None


@dataclass(frozen=True, slots=True)
class MuckChoice:
    """The player's auto-muck choice: off shows their beaten hand at showdown (SD-2)."""

    player: str
    auto_muck: bool


@dataclass(frozen=True, slots=True)
class Register:
    """An entry paid from ``source`` (a ticket, T$ or, when empty, the player's cash) holding ``funds``."""

    player: str
    funds: int
    source: str = ""
    ticket: bool = False


@dataclass(frozen=True, slots=True)
class Unregister:
    player: str
    at: float                   # when: the refund's rules depend on how close to the start it is


@dataclass(frozen=True, slots=True)
class Rebuy:
    player: str
    funds: int


@dataclass(frozen=True, slots=True)
class AddOn:
    player: str
    funds: int


@dataclass(frozen=True, slots=True)
class SellShares:
    """``buyer`` buys ``percent`` of ``seller``'s action at ``markup_percent`` markup (TR-STAKE-1)."""

    seller: str
    buyer: str
    percent: int
    markup_percent: int
    funds: int


@dataclass(frozen=True, slots=True)
class ProposeDeal:
    player: str
    kind: str
    left_to_play_for: int = 0


@dataclass(frozen=True, slots=True)
class AnswerDeal:
    player: str
    accept: bool


# ---------------------------------------------------------------------- a director's (``by`` is who gave it)


@dataclass(frozen=True, slots=True)
class Pause:
    by: str
    reason: str


@dataclass(frozen=True, slots=True)
class Resume:
    by: str


@dataclass(frozen=True, slots=True)
class Cancel:
    """Cancelled and refunded (TR-REG-1, TR-REFUND): by a director, or by the room when it cannot start."""

    reason: str


@dataclass(frozen=True, slots=True)
class RemovePlayer:
    player: str


@dataclass(frozen=True, slots=True)
class MovePlayer:
    player: str
    table: str
    by: str


@dataclass(frozen=True, slots=True)
class BreakTable:
    table: str


@dataclass(frozen=True, slots=True)
class BalanceNow:
    pass


@dataclass(frozen=True, slots=True)
class DecideDeal:
    approve: bool
    by: str
    reason: str


@dataclass(frozen=True, slots=True)
class Broadcast:
    text: str
    by: str


TournamentCommand = (LevelUp | StartBreak | EndBreak | Start | CatchUp | Deal | SendHand | ReturnHand | VoidHand
                     | DealExpired | Timeout | Act | MuckChoice
                     | Register | Unregister | Rebuy | AddOn | SellShares | ProposeDeal | AnswerDeal | Pause
                     | Resume | Cancel | RemovePlayer | MovePlayer | BreakTable | BalanceNow | DecideDeal
                     | Broadcast)


def _act(d: Director, c: Act) -> list:
    seat = d.table_of(c.player).seat_of(c.player)
    return d.act(c.player, action_named(seat, c.action, c.to), c.decision)


APPLY: dict[type, Callable[[Director, object], list]] = {
    LevelUp: lambda d, c: d.clock.level_up(),
    StartBreak: lambda d, c: d.clock.start_break(),
    EndBreak: lambda d, c: d.clock.end_break(),
    Start: lambda d, c: d.registration.start(),
    CatchUp: lambda d, c: d.registration.catch_up(),
    Deal: lambda d, c: d.deal(c.table, c.deck),
    SendHand: lambda d, c: d.send_hand(c.table),
    ReturnHand: lambda d, c: d.hand_returned(c.result()),
    VoidHand: lambda d, c: d.hand_voided(c.table, c.hand_id),
    DealExpired: lambda d, c: d.deal_desk.deal_expired(),
    Timeout: lambda d, c: d.timeout(c.player),
    Act: _act,
    MuckChoice: lambda d, c: d.set_auto_muck(c.player, c.auto_muck),
    Register: lambda d, c: d.registration.register(c.player, c.funds, source=c.source, ticket=c.ticket),
    Unregister: lambda d, c: d.registration.unregister(c.player, c.at),
    Rebuy: lambda d, c: d.registration.rebuy(c.player, c.funds),
    AddOn: lambda d, c: d.registration.add_on(c.player, c.funds),
    SellShares: lambda d, c: d.registration.sell_shares(c.seller, c.buyer, Fraction(c.percent),
                                                        Fraction(c.markup_percent, 100), c.funds),
    ProposeDeal: lambda d, c: d.deal_desk.propose_deal(c.player, c.kind, c.left_to_play_for),
    AnswerDeal: lambda d, c: d.deal_desk.answer_deal(c.player, c.accept),
    Pause: lambda d, c: d.clock.pause(c.by, c.reason),
    Resume: lambda d, c: d.clock.resume(c.by),
    Cancel: lambda d, c: d.cancel(c.reason),
    RemovePlayer: lambda d, c: d.registration.remove(c.player),
    MovePlayer: lambda d, c: d.balancing.move_player(c.player, c.table, c.by),
    BreakTable: lambda d, c: d.balancing.break_table(c.table),
    BalanceNow: lambda d, c: d.balancing.balance_now(),
    DecideDeal: lambda d, c: d.deal_desk.decide_deal(c.approve, c.by, c.reason),
    Broadcast: lambda d, c: d.broadcast(c.text, c.by),
}


def handler_of(command: object) -> Callable[[Director, object], list]:
    """The director's part that carries ``command`` out; ``unknown_command`` for anything else."""
    return handler_for(APPLY, command, "a tournament")
