"""The floor's fast draw and balancing make exactly the simple definitions' draws (TR-REG-3, TR-PLAY-4)."""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.floor import Floor, SeatDraw
from tournament.seating import Table, draw_seats, rebalance


@st.composite
def fields(draw) -> tuple[list[Table], list[str], set[str]]:
    """Tables of one size with random players and big blinds, some in a hand, and a drawn break order."""
    seats = draw(st.sampled_from([2, 6, 9, 10]))
    count = draw(st.integers(1, 25))
    tables = []
    for i in range(1, count + 1):
        taken = draw(st.lists(st.integers(1, seats), unique=True, max_size=seats))
        tables.append(Table(f"t{i}", seats, {s: f"p{i}-{s}" for s in taken}, big_blind=draw(st.integers(1, seats))))
    if not any(t.players for t in tables):
        tables[0].players[1] = "p1-1"
    idle = {t.id for t in tables if draw(st.integers(0, 5))}       # mostly between hands
    order = draw(st.permutations([t.id for t in tables]))
    return tables, list(order), idle


@settings(max_examples=120)
@given(fields(), st.integers(0, 2**32))
def test_TR_PLAY_4_the_floor_breaks_and_balances_exactly_as_the_simple_definition(field, seed):
    tables, order, idle = field
    simple, fast = copy.deepcopy(tables), copy.deepcopy(tables)
    expected = rebalance(simple, order, random.Random(seed), idle)
    floor = Floor(fast, idle)
    assert floor.rebalance(order, random.Random(seed)) == expected
    assert [t.players for t in fast] == [t.players for t in simple]
    assert floor.players == sum(len(t.players) for t in fast)                 # the index is still true
    assert Floor(fast, idle).indexed == floor.indexed


@settings(max_examples=50)
@given(st.integers(1, 300), st.sampled_from([2, 6, 9, 10]), st.integers(0, 3), st.integers(0, 2**32),
       st.lists(st.integers(1, 300), min_size=1, max_size=8))
def test_TR_REG_3_the_sliced_draw_seats_everyone_exactly_as_the_simple_draw(players, seats, spare, seed, slices):
    names = [f"p{i}" for i in range(players)]
    count = -(-players // seats) + spare
    simple = [Table(f"t{i}", seats) for i in range(count)]
    fast = [Table(f"t{i}", seats) for i in range(count)]
    expected = draw_seats(names, simple, random.Random(seed))
    drawing = SeatDraw(names, Floor(fast), random.Random(seed))
    moves, turn = [], 0
    while not drawing.done:                                     # slices of any size, as the reactor's turns give
        moves += drawing.step(slices[turn % len(slices)])
        turn += 1
    assert moves == expected
    assert [t.players for t in fast] == [t.players for t in simple]
