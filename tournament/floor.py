"""A tournament's tables indexed by how many sit at each, so a draw, a break or a balance costs what it changes.

:mod:`tournament.seating` states the rules (TR-REG-3, TR-PLAY-4) as "an
emptiest table at random" and "a fullest table at random"; listing the tables
to find them costs the whole field for every player seated. The floor keeps,
for each player count, the tables with that count -- between hands and in a
hand apart -- in opening order, as sorted lists of the tables' ordinals (a
table enters or leaves one with a binary search and one ``memmove``: a
microsecond at 11,000 tables). A choice is then the same draw, from the same
list in the same order, as the simple definition makes, so a seeded event
replays exactly as it did; tests compare the two on random fields.

It also keeps what the break test reads: players seated, the seats and the
empty seats between hands of the tables that have players, and how many
tables are in a hand. Every table of one floor has the same number of seats.

Who sits where stays in each table's :class:`~tournament.seating.Table`; the
floor is told when a table changed (:meth:`Floor.update`) and reads its
count and its seats from there.
"""

from __future__ import annotations

import random
from bisect import bisect_left, insort
from collections.abc import Iterable, Sequence

from tournament.seating import Move, Table


class Floor:
    """Tables by player count (see the module's docstring); ``idle`` says which are between hands."""

    __slots__ = ("by_id", "by_ordinal", "indexed", "idle", "busy", "live", "players", "live_seats", "idle_room",
                 "in_hand", "size", "opened")

    def __init__(self, tables: Iterable[Table] = (), idle: Iterable[str] | None = None) -> None:
        self.by_id: dict[str, int] = {}                     # table -> its ordinal (opening order)
        self.by_ordinal: dict[int, Table] = {}
        self.indexed: dict[int, tuple[int, bool]] = {}      # ordinal -> (players, between hands) as indexed
        self.idle: dict[int, list[int]] = {}                # players -> ordinals between hands, sorted
        self.busy: dict[int, list[int]] = {}                # players -> ordinals in a hand, sorted
        self.live: dict[int, int] = {}                      # players (1 or more) -> tables with that many
        self.players = 0                                    # seated
        self.live_seats = 0                                 # seats of the tables with players
        self.idle_room = 0                                  # empty seats of those between hands
        self.in_hand = 0                                    # tables in a hand
        self.size = 0                                       # seats per table
        self.opened = 0
        tables = list(tables)
        between = None if idle is None else set(idle)
        for table in tables:
            self.add(table, between is None or table.id in between)

    # ------------------------------------------------------------------ keeping it true

    def add(self, table: Table, idle: bool = True) -> None:
        """A table opened (it gets the next ordinal: tables are listed in the order they opened)."""
        if self.size and table.seats != self.size:
            raise ValueError("every table of a floor has the same number of seats")
        self.size = table.seats
        ordinal = self.opened
        self.opened += 1
        self.by_id[table.id] = ordinal
        self.by_ordinal[ordinal] = table
        self._index(ordinal, len(table.players), idle)

    def discard(self, table_id: str) -> None:
        """A table closed, or is breaking: it is no longer drawn from."""
        ordinal = self.by_id.pop(table_id, None)
        if ordinal is not None:
            self._unindex(ordinal)
            del self.by_ordinal[ordinal]

    def update(self, table_id: str, idle: bool) -> None:
        """The table's players changed, or it started or ended a hand."""
        ordinal = self.by_id[table_id]
        count = len(self.by_ordinal[ordinal].players)
        if self.indexed[ordinal] != (count, idle):
            self._unindex(ordinal)
            self._index(ordinal, count, idle)

    def _index(self, ordinal: int, count: int, idle: bool) -> None:
        self.indexed[ordinal] = (count, idle)
        insort((self.idle if idle else self.busy).setdefault(count, []), ordinal)
        self.players += count
        if not idle:
            self.in_hand += 1
        if count:
            self.live[count] = self.live.get(count, 0) + 1
            self.live_seats += self.size
            if idle:
                self.idle_room += self.size - count

    def _unindex(self, ordinal: int) -> None:
        count, idle = self.indexed.pop(ordinal)
        bucket = (self.idle if idle else self.busy)[count]
        del bucket[bisect_left(bucket, ordinal)]
        self.players -= count
        if not idle:
            self.in_hand -= 1
        if count:
            self.live[count] -= 1
            if not self.live[count]:
                del self.live[count]
            self.live_seats -= self.size
            if idle:
                self.idle_room -= self.size - count

    # ------------------------------------------------------------------ queries

    def table(self, table_id: str) -> Table:
        return self.by_ordinal[self.by_id[table_id]]

    def is_idle(self, table_id: str) -> bool:
        return self.indexed[self.by_id[table_id]][1]

    @property
    def live_tables(self) -> int:
        return sum(self.live.values())

    def emptiest(self, idle: bool = True, least: int = 0) -> list[int] | None:
        """The ordinals of the tables with the fewest players (at least ``least``) and an empty seat, between
        hands or in one: the list an emptiest table is drawn from."""
        buckets = self.idle if idle else self.busy
        counts = [c for c, b in buckets.items() if b and least <= c < self.size]
        return buckets[min(counts)] if counts else None

    # ------------------------------------------------------------------ the draws

    def seat(self, player: str, ordinals: list[int], rng: random.Random) -> tuple[Table, int]:
        """Seat ``player`` at a table drawn from ``ordinals`` (a bucket of this floor), in an empty seat drawn
        there; the same two draws as the simple definition."""
        table = self.by_ordinal[rng.choice(ordinals)]
        seat = rng.choice(table.empty_seats())
        table.players[seat] = player
        self.update(table.id, True)
        return table, seat

    def rebalance(self, order: Sequence[str], rng: random.Random) -> list[Move]:
        """:func:`tournament.seating.rebalance` over the tables between hands, each draw made from the same
        list; mutates the tables and keeps the index true. Every table must be in ``order``."""
        moves: list[Move] = []
        breaking = self._breaking(order)
        for table in breaking:
            self._unindex(self.by_id[table.id])             # out of the floor's lists while their players leave
        for table in breaking:
            for seat in sorted(table.players):
                player = table.players.pop(seat)
                target, to_seat = self.seat(player, self.emptiest(least=1), rng)
                moves.append(Move(player, table.id, seat, target.id, to_seat, "break"))
        for table in breaking:
            self._index(self.by_id[table.id], 0, True)
        while self.live:
            fullest, emptiest = max(self.live), min(self.live)
            givers = self.idle.get(fullest)
            takers = self.idle.get(emptiest) if emptiest < self.size else None
            if fullest - emptiest <= 1 or not givers or not takers:
                break
            giver, taker = self.by_ordinal[rng.choice(givers)], self.by_ordinal[rng.choice(takers)]
            seat = giver.due_big_blind()
            player = giver.players.pop(seat)
            to_seat = next(s for s in taker.after(taker.big_blind) if s not in taker.players)
            taker.players[to_seat] = player
            self.update(giver.id, True)
            self.update(taker.id, True)
            moves.append(Move(player, giver.id, seat, taker.id, to_seat, "balance"))
        return moves

    def _breaking(self, order: Sequence[str]) -> list[Table]:
        """:func:`tournament.seating._breaking`, from the floor's sums: the first tables of the drawn order."""
        live, players, seats, room = self.live_tables, self.players, self.live_seats, self.idle_room
        leaving = 0
        breaking: list[Table] = []
        for table_id in order:
            ordinal = self.by_id.get(table_id)
            if ordinal is None or not self.indexed[ordinal][0]:
                continue                                      # closed, or no players: not among the live
            if live - len(breaking) <= 1:
                break
            count, idle = self.indexed[ordinal]
            if not idle or players > seats - self.size:
                break
            room -= self.size - count
            if room < leaving + count:
                break
            breaking.append(self.by_ordinal[ordinal])
            leaving += count
            seats -= self.size
        return breaking


class Shuffle:
    """:meth:`random.Random.shuffle` a few swaps at a time: the same draws in the same order, so the list ends
    as the one call would leave it."""

    def __init__(self, items: Sequence[str], rng: random.Random) -> None:
        self.items = list(items)
        self.rng = rng
        self.left = len(self.items) - 1                     # positions above this are final

    @property
    def done(self) -> bool:
        return self.left <= 0

    def step(self, work: int) -> int:
        """Up to ``work`` swaps; the work left over."""
        items, rng = self.items, self.rng
        while self.left > 0 and work > 0:
            i = self.left
            j = rng.randrange(i + 1)
            items[i], items[j] = items[j], items[i]
            self.left -= 1
            work -= 1
        return work


class SeatDraw:
    """TR-REG-3 in slices: the shuffle of :func:`random.Random.shuffle`, then each player at an emptiest table
    at random and a random empty seat there -- the draws of the simple definition, made a few at a time so a
    field of 100,000 is seated between the reactor's turns."""

    def __init__(self, players: Sequence[str], floor: Floor, rng: random.Random) -> None:
        self.shuffle = Shuffle(players, rng)
        self.floor = floor
        self.rng = rng
        self.seated = 0

    @property
    def done(self) -> bool:
        return self.shuffle.done and self.seated == len(self.shuffle.items)

    def step(self, work: int) -> list[Move]:
        """Up to ``work`` draws (a swap of the shuffle or a player seated); the moves of the players seated."""
        work = self.shuffle.step(work)
        order, rng = self.shuffle.items, self.rng
        moves = []
        floor = self.floor
        while self.shuffle.done and work > 0 and self.seated < len(order):
            player = order[self.seated]
            open_ = floor.emptiest()
            if open_ is None:
                raise ValueError("more players than seats")
            table, seat = floor.seat(player, open_, rng)
            moves.append(Move(player, "", 0, table.id, seat, "draw"))
            self.seated += 1
            work -= 1
        return moves
