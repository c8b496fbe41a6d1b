"""The tables' seating-history port: kept in memory, each new refusal, departure and arrival also stored.

Tables read it on the reactor thread without touching the database; the
store gets the same records through the recorder's queue, and a restart
reads them back (:meth:`StoredSeatingHistory.restore`).
"""

from __future__ import annotations

from collections.abc import Callable

from pokerroom.store.room_store import RoomStore
from pokerroom.table import Departure, InMemorySeatingHistory
from pokerroom.table.seating_history import Arrival


class StoredSeatingHistory(InMemorySeatingHistory):
    def __init__(self, write: Callable, store: RoomStore) -> None:
        super().__init__()
        self._write_through = write
        self._store = store

    def restore(self, refusals: list, departures: list, arrivals: list = ()) -> None:
        for player, level, at in refusals:
            super().record_refusal(player, level, at)
        for player, game, departure in departures:
            super().record_departure(player, game, departure)
        for player, game, arrival in arrivals:
            super().record_arrival(player, game, arrival)

    def record_refusal(self, player_id: str, blind_level: str, at: float) -> None:
        super().record_refusal(player_id, blind_level, at)
        self._write_through(self._store.tables.record_refusal, player_id, blind_level, at)

    def record_departure(self, player_id: str, game_key: str, departure: Departure) -> None:
        super().record_departure(player_id, game_key, departure)
        self._write_through(self._store.tables.record_departure, player_id, game_key, departure)

    def record_arrival(self, player_id: str, game_key: str, arrival: Arrival) -> None:
        super().record_arrival(player_id, game_key, arrival)
        self._write_through(self._store.tables.record_arrival, player_id, game_key, arrival)
