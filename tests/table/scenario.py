"""Readable table scenarios: players A-F at seats 1-6, a fake clock, deck and button draw set by the test."""

from __future__ import annotations

from collections.abc import Sequence

from pokerroom.poker import NLHE, Check, Fold, Stakes, Variant
from pokerroom.poker import events as he
from pokerroom.table import CashTable, InMemorySeatingHistory, TableRules
from pokerroom.table import events as te

SEAT = {name: i + 1 for i, name in enumerate("ABCDEFGHIJ")}


class Scenario:
    """A table and its clock. ``now`` only moves when the test moves it."""

    def __init__(self, *, seats: int = 6, stakes: Stakes | None = None, variant: Variant = NLHE,
                 history: InMemorySeatingHistory | None = None, table_id: str = "t1", button: str = "A",
                 **rules) -> None:
        stakes = stakes or Stakes(1, 2)
        rules.setdefault("min_buy_in", 40)
        rules.setdefault("max_buy_in", 200)
        self.rules = TableRules(table_id, variant, stakes, max_seats=seats, **rules)
        self.history = history if history is not None else InMemorySeatingHistory()
        self.button = button
        self.now = 1_000_000.0
        self.table = CashTable(self.rules, self.history, shuffle=lambda: list(range(52)), draw=self._draw)
        self.log: list[te.TableEvent] = []

    def _draw(self, seats: Sequence[int]) -> int:
        return SEAT[self.button] if SEAT[self.button] in seats else seats[0]

    # commands ---------------------------------------------------------------

    def do(self, command: str, *args, **kwargs) -> list[te.TableEvent]:
        events = getattr(self.table, command)(*args, self.now, **kwargs)
        self.log.extend(events)
        return events

    def sit(self, *names: str, stack: int = 100, **kwargs) -> list[te.TableEvent]:
        out = []
        for name in names:
            out += self.do("sit", name, SEAT[name], stack, **kwargs)
        return out

    def wait(self, seconds: float) -> None:
        self.now += seconds

    def deal(self) -> list[te.TableEvent]:
        return self.do("start_hand")

    def act(self, name: str, action_type, *args) -> list[te.TableEvent]:
        return self.do("act", name, action_type(SEAT[name], *args))

    def finish_hand(self) -> list[te.TableEvent]:
        """Everyone checks when free and folds otherwise until the hand ends."""
        out = []
        while self.table.hand is not None:
            legal = self.table.hand.legal_actions()
            player = self.table.players[legal.seat].player_id
            action = Check(legal.seat) if legal.can_check else Fold(legal.seat)
            out += self.do("act", player, action)
        return out

    def play_hand(self) -> list[te.TableEvent]:
        events = self.deal()
        assert self.table.hand is not None, "no hand was dealt"
        return events + self.finish_hand()

    # reading what happened --------------------------------------------------

    def last_hand(self) -> list[he.Event]:
        """The engine events of the most recent hand."""
        hand_ids = [e.hand_id for e in self.log if isinstance(e, te.HandEvent)]
        return [e.event for e in self.log if isinstance(e, te.HandEvent) and e.hand_id == hand_ids[-1]]

    def started(self) -> he.HandStarted:
        return self.last_hand()[0]

    def dealt(self) -> str:
        """Names dealt into the last hand, e.g. "ABC"."""
        return "".join(name_of(e.seat) for e in self.last_hand() if isinstance(e, he.SeatDealtIn))

    def posts(self) -> list[tuple[str, str, int]]:
        return [(name_of(e.seat), e.kind, e.added) for e in self.last_hand() if isinstance(e, he.Posted)]

    def positions(self) -> tuple[str, str, str]:
        """(button, small blind, big blind) of the last hand as names; "-" for a dead or empty position."""
        s = self.started()
        return (self.name_at(s.button_seat), self.name_at(s.small_blind_seat), self.name_at(s.big_blind_seat))

    def name_at(self, seat: int | None) -> str:
        """The letter of a seat; in brackets when nobody there was dealt in (a dead position)."""
        if seat is None:
            return "-"
        dealt = {e.seat for e in self.last_hand() if isinstance(e, he.SeatDealtIn)}
        return name_of(seat) if seat in dealt else f"({name_of(seat)})"

    def of_type(self, cls: type, events: Sequence[te.TableEvent] | None = None) -> list:
        return [e for e in (self.log if events is None else events) if isinstance(e, cls)]


def name_of(seat: int) -> str:
    return "ABCDEFGHIJ"[seat - 1]


def fingerprint(table: CashTable) -> tuple:
    """Everything a table holds, to compare before and after: equal fingerprints, an unchanged table."""
    hand = table.hand
    return (table.seq, repr(table.players), table.positions, tuple(table.waiting_list), repr(table.offers),
            repr(table.departed), table.next_hand_at, table.chips_in, table.chips_out, table.rake,
            table.clock, None if hand is None else (len(hand.events), tuple(hand.stacks)),
            repr(table.history))
