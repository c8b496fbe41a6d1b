"""The port through which a table learns what happened at other tables.

Some rules need memory beyond one table: hit-and-run refusals count over every
table of a blind level (HR-HNR-2), rat-holing looks at the last table of the
same game and stakes the player left and sat at in the last hour (HR-STAKE-3), and the multi-tabling limit
counts every table the player sits at (AC-8). A table reads and writes that
memory only through :class:`SeatingHistory`; the server backs it with the
database, tests with :class:`InMemorySeatingHistory`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Departure:
    """A player left a table of ``game_key`` with ``stack`` chips at time ``at``."""

    table_id: str
    stack: int
    at: float


@dataclass(frozen=True, slots=True)
class Arrival:
    """A player sat at a table of ``game_key`` with a buy-in of ``stack`` chips at time ``at`` (HR-STAKE-3)."""

    table_id: str
    stack: int
    at: float


class SeatingHistory(Protocol):
    def refusals(self, player_id: str, blind_level: str, since: float) -> list[float]:
        """Times of the player's hit-and-run refusals at this blind level at or after ``since``."""

    def record_refusal(self, player_id: str, blind_level: str, at: float) -> None: ...

    def departures(self, player_id: str, game_key: str, since: float) -> list[Departure]:
        """The player's leaves from tables of this game and stakes at or after ``since``."""

    def record_departure(self, player_id: str, game_key: str, departure: Departure) -> None: ...

    def arrivals(self, player_id: str, game_key: str, since: float) -> list[Arrival]:
        """The player's sits at tables of this game and stakes at or after ``since``."""

    def record_arrival(self, player_id: str, game_key: str, arrival: Arrival) -> None: ...

    def tables_seated(self, player_id: str) -> int:
        """How many tables the player sits at now, at any game."""

    def record_seated(self, player_id: str, table_id: str) -> None: ...

    def record_unseated(self, player_id: str, table_id: str) -> None: ...


@dataclass
class InMemorySeatingHistory:
    """A :class:`SeatingHistory` in dictionaries: for tests and a single-process room without a database."""

    _refusals: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    _departures: dict[tuple[str, str], list[Departure]] = field(default_factory=dict)
    _arrivals: dict[tuple[str, str], list[Arrival]] = field(default_factory=dict)
    _seated: dict[str, set[str]] = field(default_factory=dict)

    def refusals(self, player_id: str, blind_level: str, since: float) -> list[float]:
        return [t for t in self._refusals.get((player_id, blind_level), ()) if t >= since]

    def record_refusal(self, player_id: str, blind_level: str, at: float) -> None:
        self._refusals.setdefault((player_id, blind_level), []).append(at)

    def departures(self, player_id: str, game_key: str, since: float) -> list[Departure]:
        return [d for d in self._departures.get((player_id, game_key), ()) if d.at >= since]

    def record_departure(self, player_id: str, game_key: str, departure: Departure) -> None:
        self._departures.setdefault((player_id, game_key), []).append(departure)

    def arrivals(self, player_id: str, game_key: str, since: float) -> list[Arrival]:
        return [a for a in self._arrivals.get((player_id, game_key), ()) if a.at >= since]

    def record_arrival(self, player_id: str, game_key: str, arrival: Arrival) -> None:
        self._arrivals.setdefault((player_id, game_key), []).append(arrival)

    def tables_seated(self, player_id: str) -> int:
        return len(self._seated.get(player_id, ()))

    def record_seated(self, player_id: str, table_id: str) -> None:
        self._seated.setdefault(player_id, set()).add(table_id)

    def record_unseated(self, player_id: str, table_id: str) -> None:
        self._seated.get(player_id, set()).discard(table_id)
