"""Breaking and balancing tournament tables between hands (TR-PLAY-4), and the first random draw (TR-REG-3).

The director calls :func:`rebalance` whenever a table finishes a hand, with the
tables that are between hands (``idle``): a table in a hand neither gives nor
receives a player. The function is pure: it returns the moves, and the
director applies them.

- A table breaks as soon as the players left fit in one table fewer; tables
  break in an order drawn at the start (:func:`break_order`). Its players go,
  one by one, to the emptiest table (ties drawn), to a random empty seat there.
- Then, while the fullest and the emptiest table differ by more than one, the
  fullest moves the player due to be big blind next to the emptiest, into the
  empty seat nearest after that table's big blind: the same position relative
  to the blinds where possible.

Every random choice takes the tournament's seeded generator, so a test can
replay it.

These are the simple definitions: each choice lists every table. The director
makes the same draws from :mod:`tournament.floor` (tables kept by player
count), which costs what a draw changes rather than the field; a property test
compares the two on random fields.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field


@dataclass
class Table:
    id: str
    seats: int                                   # seats 1..seats
    players: dict[int, str] = field(default_factory=dict)   # seat -> player
    big_blind: int = 1                           # the seat of the last hand's big blind

    def empty_seats(self) -> list[int]:
        return [s for s in range(1, self.seats + 1) if s not in self.players]

    def after(self, seat: int) -> list[int]:
        """Seats clockwise after ``seat``, ending with ``seat`` itself."""
        return [(seat + i - 1) % self.seats + 1 for i in range(1, self.seats + 1)]

    def due_big_blind(self) -> int:
        """The seat of the player due to be big blind next: the first occupied seat after the last big blind."""
        return next(s for s in self.after(self.big_blind) if s in self.players)


@dataclass(frozen=True)
class Move:
    player: str
    from_table: str
    from_seat: int
    to_table: str
    to_seat: int
    reason: str                                  # "break" or "balance"


def draw_seats(players: Sequence[str], tables: Sequence[Table], rng: random.Random) -> list[Move]:
    """TR-REG-3: seats drawn at random, tables filled evenly (sizes differ by at most one)."""
    order = list(players)
    rng.shuffle(order)
    moves = []
    for player in order:
        table = _emptiest(tables, rng)
        if table is None:
            raise ValueError("more players than seats")
        seat = rng.choice(table.empty_seats())
        table.players[seat] = player
        moves.append(Move(player, "", 0, table.id, seat, "draw"))
    return moves


def break_order(table_ids: Iterable[str], rng: random.Random) -> list[str]:
    """The order tables will break in, drawn once at the start."""
    order = list(table_ids)
    rng.shuffle(order)
    return order


def rebalance(tables: Sequence[Table], order: Sequence[str], rng: random.Random,
              idle: set[str] | None = None) -> list[Move]:
    """Break and balance what can be, now, among ``idle`` tables (all when None); mutates ``tables``."""
    idle = {t.id for t in tables} if idle is None else idle
    moves: list[Move] = []
    live = [t for t in tables if t.players]
    breaking = _breaking(live, order, idle)
    if breaking:
        gone = {t.id for t in breaking}
        live = [t for t in live if t.id not in gone]
        receivers = [t for t in live if t.id in idle]
        for table in breaking:
            for seat in sorted(table.players):
                player = table.players.pop(seat)
                target = _emptiest(receivers, rng)
                to_seat = rng.choice(target.empty_seats())
                target.players[to_seat] = player
                moves.append(Move(player, table.id, seat, target.id, to_seat, "break"))
    while True:
        fullest = max(len(t.players) for t in live)
        emptiest = min(len(t.players) for t in live)
        if fullest - emptiest <= 1:
            break
        givers = [t for t in live if len(t.players) == fullest and t.id in idle]
        takers = [t for t in live if len(t.players) == emptiest and t.id in idle and t.empty_seats()]
        if not givers or not takers:
            break
        giver, taker = rng.choice(givers), rng.choice(takers)
        seat = giver.due_big_blind()
        player = giver.players.pop(seat)
        to_seat = next(s for s in taker.after(taker.big_blind) if s not in taker.players)
        taker.players[to_seat] = player
        moves.append(Move(player, giver.id, seat, taker.id, to_seat, "balance"))
    return moves


def _breaking(live: Sequence[Table], order: Sequence[str], idle: set[str]) -> list[Table]:
    """The tables that break now, in the drawn order: each next one while the players fit in the tables left
    and the idle ones among those have a seat for everyone leaving. All are chosen before anyone moves, so
    nobody is seated at a table that breaks in the same step (and moved twice)."""
    rank = {table_id: i for i, table_id in enumerate(order)}
    rest = sorted(live, key=lambda t: rank.get(t.id, len(rank)))
    players = sum(len(t.players) for t in live)
    seats = sum(t.seats for t in live)
    room = sum(t.seats - len(t.players) for t in live if t.id in idle)
    leaving = 0
    breaking: list[Table] = []
    for table in rest[:-1]:
        if table.id not in idle or players > seats - table.seats:
            break
        room -= table.seats - len(table.players)
        if room < leaving + len(table.players):
            break
        breaking.append(table)
        leaving += len(table.players)
        seats -= table.seats
    return breaking


def _emptiest(tables: Sequence[Table], rng: random.Random) -> Table | None:
    open_ = [t for t in tables if t.empty_seats()]
    if not open_:
        return None
    least = min(len(t.players) for t in open_)
    return rng.choice([t for t in open_ if len(t.players) == least])
