"""What one viewer may see of a cash table at one moment: the snapshot a client draws the table from."""

from __future__ import annotations

from dataclasses import dataclass

from pokerroom.table.blinds import Positions


@dataclass(frozen=True, slots=True)
class SeatState:
    """One seat as everyone may see it: ``stack`` is behind the seat's ``bet`` on this street."""

    seat: int
    player: str
    stack: int
    sitting_out: bool
    connected: bool
    owes: str | None
    time_bank: float
    bet: int


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """The whole table for one viewer at table event ``seq``; ``clock`` is (seat, phase, deadline).

    ``board`` (and ``second_board`` when the hand runs twice) and ``pots`` (``(amount, eligible seats)``, main
    pot first, without this street's bets) are the running hand's, empty between hands.
    """

    seq: int
    table_id: str
    seats: tuple[SeatState, ...]
    positions: Positions | None
    hand_events: tuple
    clock: tuple[int, str, float] | None
    waiting_list: tuple[str, ...]
    board: tuple[int, ...]
    second_board: tuple[int, ...]
    pots: tuple[tuple[int, tuple[int, ...]], ...]
