"""A finished hand read back from its events: the common ground of every exporter.

The exporters never look at a :class:`~pokerroom.poker.hand.Hand`; the event
list is the hand history (``events.py``). :class:`HandRecord` indexes it once
-- who sat where, the boards per run, what each seat won -- and
:class:`Money` prints integer chips in a currency's units.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from pokerroom.poker import events as ev

CURRENCY_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "CAD": "C$", "AUD": "A$"}


@dataclass(frozen=True, slots=True)
class Money:
    """Chips as money: ``minor_units_per_unit`` chips make one unit (100 for cents)."""

    minor_units_per_unit: int = 1
    symbol: str = ""

    def __post_init__(self) -> None:
        if type(self.minor_units_per_unit) is not int or self.minor_units_per_unit <= 0:
            raise ValueError("minor_units_per_unit must be a positive whole number")

    @property
    def places(self) -> int:
        """Decimal places shown: 2 for cents, 0 for whole chips."""
        return len(str(self.minor_units_per_unit - 1)) if self.minor_units_per_unit > 1 else 0

    def value(self, chips: int) -> Decimal:
        return (Decimal(chips) / self.minor_units_per_unit).quantize(Decimal(1).scaleb(-self.places))

    def number(self, chips: int) -> int | float:
        """A JSON number: an int for whole chips, else a float rounded to the minor unit."""
        return chips if self.minor_units_per_unit == 1 else float(self.value(chips))

    def __call__(self, chips: int) -> str:
        return f"{self.symbol}{self.value(chips)}"


def money_for(started: ev.HandStarted, minor_units_per_unit: int, symbol: str | None) -> Money:
    """The table's currency symbol unless the caller names one ("" for tournament chips)."""
    if symbol is None:
        symbol = CURRENCY_SYMBOLS.get(started.currency, "")
    return Money(minor_units_per_unit, symbol)


class HandRecord:
    """The events of one finished hand, indexed for the exporters."""

    def __init__(self, events: Sequence[ev.Event]) -> None:
        self.events = tuple(events)
        if not self.events or not isinstance(self.events[0], ev.HandStarted):
            raise ValueError("a hand history starts with HandStarted")
        ended = [e for e in self.events if isinstance(e, ev.HandEnded)]
        if not ended:
            raise ValueError("the hand has not ended: export a finished hand only")
        self.started: ev.HandStarted = self.events[0]
        self.ended: ev.HandEnded = ended[0]
        self.seats: tuple[ev.SeatDealtIn, ...] = self.of(ev.SeatDealtIn)
        self.order = tuple(s.seat for s in self.seats)          # dealing order, from the button
        self.names = {s.seat: s.player for s in self.seats}
        self.holes = {e.seat: e.cards for e in self.of(ev.HoleCardsDealt)}
        for e in self.of(ev.HandShown) + self.of(ev.HandMucked) + self.of(ev.CardsExposed):
            if e.cards and not self.holes.get(e.seat):
                self.holes[e.seat] = e.cards
        decided = self.of(ev.RunItTwiceDecided)
        self.runs = decided[0].runs if decided else 1
        self.pots: tuple[ev.PotFormed, ...] = self.of(ev.PotFormed)
        self.awards: tuple[ev.PotAwarded, ...] = self.of(ev.PotAwarded)
        self.won: dict[int, int] = {}
        for award in self.awards:
            for seat, share in zip(award.seats, award.shares, strict=True):
                self.won[seat] = self.won.get(seat, 0) + share
        self.final_stacks = dict(self.ended.stacks)

    def of(self, kind: type) -> tuple:
        return tuple(e for e in self.events if isinstance(e, kind))

    def board(self, run: int = 1) -> tuple[int, ...]:
        boards = [e.board for e in self.of(ev.BoardDealt) if e.run == run]
        return boards[-1] if boards else ()

    def folded_on(self) -> dict[int, str]:
        """The street each folding seat folded on."""
        return {e.seat: e.street for e in self.of(ev.ActionTaken) if e.action == ev.FOLD}

    def position(self, seat: int) -> int:
        return self.order.index(seat)
