"""Breaking and balancing tables, and a director's moves (TR-PLAY-4): a part of the director.

``director.balancing``: it keeps the order in which tables break, and moves
players between the director's tables as :mod:`tournament.seating` decides;
the tables, the floor and the entries it moves them in are the director's.

Players move between hands only: a director's move asked while either table
is in a hand (dealt here or away) is queued (:attr:`Balancing.queued`) and
made at the first hand end that leaves both tables between hands (in
hand-for-hand play: when the round ends, as balancing waits for it), before the
tables are balanced; a queued player who busts meanwhile, or whose target
closed or filled up, is not moved.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pokerroom.errors import RuleViolation
from tournament.entries import RUNNING
from tournament.events import (
    Seated,
)
from tournament.seating import Move

if TYPE_CHECKING:
    from tournament.director import Director


@dataclass(frozen=True)
class QueuedMove:
    """A director's move asked during a hand: made when the hand ends (TR-PLAY-4)."""

    player: str
    table: str                                  # the table they go to
    by: str


class Balancing:
    """Moves between hands: the pure :mod:`tournament.seating` decides, this applies them."""

    def __init__(self, director: Director) -> None:
        self.director = director
        self.break_order: list[str] = []            # the tables in the order they break, first first
        self.queued: list[QueuedMove] = []          # a director's moves waiting for a hand's end, oldest first

    def order(self, tables: Iterable[str]) -> None:
        """The tables break in this order (the start's shuffle: TR-PLAY-4); nothing breaks after a cancel."""
        self.break_order = list(tables)
        self.director.changes.terms = True

    def breaks_first(self, table_id: str) -> None:
        """A table opened for a late registrant breaks first."""
        self.break_order.insert(0, table_id)
        self.director.changes.terms = True

    def forget(self, table_id: str) -> None:
        """The table closed: it is no longer looked for when tables break."""
        if table_id in self.break_order:
            self.break_order.remove(table_id)
            self.director.changes.terms = True

    def balance(self) -> None:
        d = self.director
        if d.hand_for_hand and d.round_played:
            return
        floor = d.floor
        moves = floor.rebalance(self.break_order, d.rng)
        for move in moves:
            self._move(move)
        for table_id in [floor.by_ordinal[o].id for o in floor.idle.get(0, ())]:
            d.close_table(table_id)
        if moves:
            d.set_hand_for_hand()

    def _move(self, move: Move) -> None:
        d = self.director
        source, target = d.tables[move.from_table], d.tables[move.to_table]
        chips = source.stacks.pop(move.player)
        target.stacks[move.player] = chips
        d.entries[move.player].table = target.id
        d.touch(source.id)
        d.touch(target.id)
        d.changes.entry(d.entries[move.player])
        d.emit(Seated(move.player, target.id, move.to_seat, chips, move.reason, source.id))

    def balance_now(self) -> list:
        """A director balances the tables now (TR-PLAY-4), moving players from tables between hands."""
        d = self.director
        if d.state != RUNNING:
            raise RuleViolation("not_running", f"{d.spec.name} is not running", "TR-PLAY-4")
        d.verify_drawn()
        self.balance()
        return d.flush()

    def move_player(self, player: str, table_id: str, by: str) -> list:
        """A director moves a player to an empty seat at another table: now between hands, or, while either
        table is in a hand, queued for its end (:meth:`waiting_for` says which hand; a newer move of the same
        player replaces a queued one)."""
        d = self.director
        source = d.table_of(player)
        target = d.tables.get(table_id)
        if target is None or target is source or not target.layout.empty_seats():
            raise RuleViolation("bad_move", f"table {table_id} has no empty seat for {player}", "TR-PLAY-4")
        self.queued = [m for m in self.queued if m.player != player]
        if source.in_hand or target.in_hand:
            self.queued.append(QueuedMove(player, table_id, by))
            d.changes.terms = True
        else:
            self._seat_elsewhere(player, source.id, table_id)
        return d.flush()

    def waiting_for(self, player: str) -> str:
        """The table whose hand a queued move of ``player`` waits for; "" when none is queued."""
        d = self.director
        for move in self.queued:
            if move.player == player:
                entry = d.entries.get(player)
                source = d.tables.get(entry.table) if entry is not None else None
                return source.id if source is not None and source.in_hand else move.table
        return ""

    def make_queued(self) -> None:
        """A hand ended: the queued moves whose tables are both between hands now are made, oldest first; one
        whose player busted or left, or whose target closed, filled up or is now their own table, is dropped."""
        if not self.queued:
            return
        d = self.director
        waiting = []
        for move in self.queued:
            entry = d.entries.get(move.player)
            source = d.tables.get(entry.table) if entry is not None and entry.table else None
            target = d.tables.get(move.table)
            if source is None or target is None or target is source or not target.layout.empty_seats():
                continue
            if source.in_hand or target.in_hand:
                waiting.append(move)
            else:
                self._seat_elsewhere(move.player, source.id, target.id)
        self.queued = waiting
        d.changes.terms = True

    def _seat_elsewhere(self, player: str, source_id: str, target_id: str) -> None:
        d = self.director
        source, target = d.tables[source_id], d.tables[target_id]
        seat = d.rng.choice(target.layout.empty_seats())
        source_seat = source.seat_of(player)
        del source.seats[source_seat]
        target.seats[seat] = player
        self._move(Move(player, source.id, source_seat, target.id, seat, "director"))

    def break_table(self, table_id: str) -> list:
        """A director breaks a table between hands: its players go to random empty seats at the emptiest tables."""
        d = self.director
        d.verify_drawn()
        table = d.tables.get(table_id)
        others = len(d.tables) - 1
        if table is None or not others:
            raise RuleViolation("bad_break", f"table {table_id} cannot be broken: it is not here or is the last",
                                "TR-PLAY-4")
        floor = d.floor
        if floor.in_hand:
            raise RuleViolation("hand_running", "tables break between hands", "TR-PLAY-4")
        room = others * table.size - (floor.players - len(table.seats))
        if room < len(table.seats):
            raise RuleViolation("bad_break", f"the other tables have no room for the players of {table_id}",
                                "TR-PLAY-4")
        floor.discard(table_id)
        for seat in sorted(table.seats):
            player = table.seats.pop(seat)
            target, to_seat = floor.seat(player, floor.emptiest(), d.rng)
            self._move(Move(player, table.id, seat, target.id, to_seat, "break"))
        d.close_table(table_id)
        self.balance()
        return d.flush()
