"""Breaking and balancing tables, and a director's moves (TR-PLAY-4): a part of the director.

A mix-in of :class:`~tournament.director.Director`, which holds the state it reads and
writes; split out so each part of the director is one module with one job.
"""

from __future__ import annotations

from pokerroom.errors import RuleViolation
from tournament.entries import RUNNING
from tournament.events import (
    Seated,
    TableClosed,
)
from tournament.seating import Move


class Balancing:
    """Moves between hands: the pure :mod:`tournament.seating` decides, this applies them."""

    def _balance(self) -> None:
        if self.hand_for_hand and self.round_played:
            return
        floor = self.floor
        moves = floor.rebalance(self.break_order, self.rng)
        for move in moves:
            self._move(move)
        for table_id in [floor.by_ordinal[o].id for o in floor.idle.get(0, ())]:
            self._close_table(table_id)
        if moves:
            self._set_hand_for_hand()

    def _move(self, move: Move) -> None:
        source, target = self.tables[move.from_table], self.tables[move.to_table]
        chips = source.stacks.pop(move.player)
        target.stacks[move.player] = chips
        self.entries[move.player].table = target.id
        self._touch(source.id)
        self._touch(target.id)
        self.changes.entry(self.entries[move.player])
        self._emit(Seated(move.player, target.id, move.to_seat, chips, move.reason, source.id))

    def _close_table(self, table_id: str) -> None:
        del self.tables[table_id]
        self.floor.discard(table_id)
        self._unranked.add(table_id)
        if self._unplayed is not None:
            self._unplayed.pop(table_id, None)
        self.changes.table_closed(table_id)
        if table_id in self.break_order:
            self.break_order.remove(table_id)
            self.changes.terms = True
        self._emit(TableClosed(table_id))

    def balance_now(self) -> list:
        """A director balances the tables now (TR-PLAY-4), moving players from tables between hands."""
        if self.state != RUNNING:
            raise RuleViolation("not_running", f"{self.spec.name} is not running", "TR-PLAY-4")
        self._verify_drawn()
        self._balance()
        return self._flush()

    def move_player(self, player: str, table_id: str, by: str) -> list:
        """A director moves a player between hands to an empty seat at another table."""
        source = self.table_of(player)
        target = self.tables.get(table_id)
        if target is None or target is source or not target.layout.empty_seats():
            raise RuleViolation("bad_move", f"table {table_id} has no empty seat for {player}", "TR-PLAY-4")
        if source.in_hand or target.in_hand:
            raise RuleViolation("hand_running", "players move between hands", "TR-PLAY-4")
        seat = self.rng.choice(target.layout.empty_seats())
        source_seat = source.seat_of(player)
        del source.seats[source_seat]
        target.seats[seat] = player
        self._move(Move(player, source.id, source_seat, target.id, seat, "director"))
        return self._flush()

    def break_table(self, table_id: str) -> list:
        """A director breaks a table between hands: its players go to random empty seats at the emptiest tables."""
        self._verify_drawn()
        table = self.tables.get(table_id)
        others = len(self.tables) - 1
        if table is None or not others:
            raise RuleViolation("bad_break", f"table {table_id} cannot be broken: it is not here or is the last",
                                "TR-PLAY-4")
        floor = self.floor
        if floor.in_hand:
            raise RuleViolation("hand_running", "tables break between hands", "TR-PLAY-4")
        room = others * table.size - (floor.players - len(table.seats))
        if room < len(table.seats):
            raise RuleViolation("bad_break", f"the other tables have no room for the players of {table_id}",
                                "TR-PLAY-4")
        floor.discard(table_id)
        for seat in sorted(table.seats):
            player = table.seats.pop(seat)
            target, to_seat = floor.seat(player, floor.emptiest(), self.rng)
            self._move(Move(player, table.id, seat, target.id, to_seat, "break"))
        self._close_table(table_id)
        self._balance()
        return self._flush()
