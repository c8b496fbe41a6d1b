"""The tables' seating-history port: kept in memory, each new refusal, departure and arrival also stored.

Tables read it on the reactor thread without touching the database; the
store gets the same records through the recorder's queue, and a restart
reads them back (:meth:`StoredSeatingHistory.restore`).

The records are a player's history across tables, but each is made by one
table's play -- a leave, a hit-and-run refusal, a sit there -- so each table
records through its own view (:meth:`StoredSeatingHistory.at`), whose writes
are fenced by that table's lease on several processes, with the table's
other writes: a process that lost the table has them refused, nothing of
them stored (docs/architecture.md, "Table leases").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from twisted.internet import defer

from pokerroom.store.lease_records import Fence
from pokerroom.store.room_store import RoomStore
from pokerroom.table import Departure, InMemorySeatingHistory
from pokerroom.table.seating_history import Arrival


class FencedWrites(Protocol):
    """What the history uses of the recorder: a table's fence as held now, and a write run after it."""

    def fence_of(self, kind: str, table_id: str) -> tuple[Fence, ...]: ...

    def write_fenced(self, fences: tuple[Fence, ...], function: Callable, *args: Any,
                     quiet: bool = True) -> defer.Deferred: ...


class StoredSeatingHistory(InMemorySeatingHistory):
    def __init__(self, writes: FencedWrites, store: RoomStore) -> None:
        super().__init__()
        self._writes = writes
        self._store = store

    def at(self, table_id: str) -> TableSeating:
        """The history as the cash table ``table_id`` reads and records it: what it records is its play."""
        return TableSeating(self, table_id)

    def restore(self, refusals: list, departures: list, arrivals: list = ()) -> None:
        for player, level, at in refusals:
            super().record_refusal(player, level, at)
        for player, game, departure in departures:
            super().record_departure(player, game, departure)
        for player, game, arrival in arrivals:
            super().record_arrival(player, game, arrival)

    def record_refusal(self, player_id: str, blind_level: str, at: float, table_id: str = "") -> None:
        super().record_refusal(player_id, blind_level, at)
        self._stored(table_id, self._store.tables.record_refusal, player_id, blind_level, at)

    def record_departure(self, player_id: str, game_key: str, departure: Departure) -> None:
        super().record_departure(player_id, game_key, departure)
        self._stored(departure.table_id, self._store.tables.record_departure, player_id, game_key, departure)

    def record_arrival(self, player_id: str, game_key: str, arrival: Arrival) -> None:
        super().record_arrival(player_id, game_key, arrival)
        self._stored(arrival.table_id, self._store.tables.record_arrival, player_id, game_key, arrival)

    def _stored(self, table_id: str, function: Callable, *args: Any) -> None:
        """A record made at ``table_id``, stored fenced by its lease as held now (none on one process)."""
        self._writes.write_fenced(self._writes.fence_of("cash", table_id), function, *args)


class TableSeating:
    """One cash table's view of the room's seating history (a :class:`~pokerroom.table.SeatingHistory`): it reads
    every table's records, and a hit-and-run refusal it records -- which names a blind level, not a table -- is
    stored as this table's, fenced by its lease like its departures and sits."""

    def __init__(self, history: StoredSeatingHistory, table_id: str) -> None:
        self.history = history
        self.table_id = table_id

    def refusals(self, player_id: str, blind_level: str, since: float) -> list[float]:
        return self.history.refusals(player_id, blind_level, since)

    def record_refusal(self, player_id: str, blind_level: str, at: float) -> None:
        self.history.record_refusal(player_id, blind_level, at, self.table_id)

    def departures(self, player_id: str, game_key: str, since: float) -> list[Departure]:
        return self.history.departures(player_id, game_key, since)

    def record_departure(self, player_id: str, game_key: str, departure: Departure) -> None:
        self.history.record_departure(player_id, game_key, departure)

    def arrivals(self, player_id: str, game_key: str, since: float) -> list[Arrival]:
        return self.history.arrivals(player_id, game_key, since)

    def record_arrival(self, player_id: str, game_key: str, arrival: Arrival) -> None:
        self.history.record_arrival(player_id, game_key, arrival)

    def tables_seated(self, player_id: str) -> int:
        return self.history.tables_seated(player_id)

    def record_seated(self, player_id: str, table_id: str) -> None:
        self.history.record_seated(player_id, table_id)

    def record_unseated(self, player_id: str, table_id: str) -> None:
        self.history.record_unseated(player_id, table_id)
