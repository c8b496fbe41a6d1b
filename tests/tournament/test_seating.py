"""Random seats, table breaking and balancing between hands (TR-REG-3, TR-PLAY-4)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.seating import Table, break_order, draw_seats, rebalance


def tables(n: int, seats: int = 6) -> list[Table]:
    return [Table(f"t{i}", seats) for i in range(1, n + 1)]


def sizes(ts: list[Table]) -> list[int]:
    return sorted((len(t.players) for t in ts if t.players), reverse=True)


def test_TR_REG_3_seats_are_drawn_at_random_evenly_and_the_draw_replays_from_its_seed():
    first, second, other = tables(3, 9), tables(3, 9), tables(3, 9)
    players = [f"p{i}" for i in range(20)]
    draw_seats(players, first, random.Random(5))
    draw_seats(players, second, random.Random(5))
    draw_seats(players, other, random.Random(6))
    assert sizes(first) == [7, 7, 6]
    assert sorted(p for t in first for p in t.players.values()) == sorted(players)
    assert [t.players for t in first] == [t.players for t in second]
    assert [t.players for t in first] != [t.players for t in other]


def test_TR_PLAY_4_a_table_breaks_as_soon_as_the_players_fit_in_one_table_fewer_in_the_drawn_order():
    ts = tables(4)
    draw_seats([f"p{i}" for i in range(19)], ts, random.Random(1))
    order = break_order([t.id for t in ts], random.Random(2))
    assert rebalance(ts, order, random.Random(3)) == []          # 19 players do not fit in 3 tables of 6
    victim = next(t for t in ts if t.id != order[0] and len(t.players) > 4)
    victim.players.pop(min(victim.players))                     # a bust: 18 now fit in 3 tables
    moved_from = dict(next(t for t in ts if t.id == order[0]).players)
    moves = rebalance(ts, order, random.Random(3))
    assert {m.player for m in moves if m.reason == "break"} == set(moved_from.values())
    assert all(m.from_table == order[0] for m in moves if m.reason == "break")
    assert not next(t for t in ts if t.id == order[0]).players
    assert sizes(ts) == [6, 6, 6]


def test_TR_PLAY_4_balancing_moves_the_player_due_the_big_blind_to_the_same_place_relative_to_the_blinds():
    full = Table("a", 9, {1: "a1", 2: "a2", 3: "a3", 4: "a4", 5: "a5", 6: "a6", 7: "a7"}, big_blind=3)
    short = Table("b", 9, {2: "b2", 5: "b5", 6: "b6", 8: "b8", 9: "b9"}, big_blind=5)
    moves = rebalance([full, short], ["a", "b"], random.Random(0))
    assert len(moves) == 1
    move = moves[0]
    assert (move.player, move.from_seat) == ("a4", 4)           # seat 4 is big blind next at table a
    assert (move.to_table, move.to_seat) == ("b", 7)            # first empty seat after b's big blind (5)
    assert short.due_big_blind() == 6 and short.after(6)[0] == 7   # ...so a4 is big blind right after b6
    assert sizes([full, short]) == [6, 6]


def test_TR_PLAY_4_nobody_is_moved_from_or_to_a_table_in_a_hand():
    full = Table("a", 9, {s: f"a{s}" for s in range(1, 9)})
    short = Table("b", 9, {1: "b1", 2: "b2", 3: "b3"})
    assert rebalance([full, short], ["a", "b"], random.Random(0), idle={"a"}) == []
    assert rebalance([full, short], ["a", "b"], random.Random(0), idle={"b"}) == []
    assert len(rebalance([full, short], ["a", "b"], random.Random(0), idle={"a", "b"})) == 2


@settings(max_examples=40)
@given(st.integers(7, 60), st.integers(0, 10_000), st.sampled_from([6, 9]))
def test_TR_PLAY_4_after_every_bust_tables_are_as_few_as_possible_and_differ_by_at_most_one(n, seed, seats):
    rng = random.Random(seed)
    ts = tables(-(-n // seats), seats)
    players = [f"p{i}" for i in range(n)]
    draw_seats(players, ts, rng)
    order = break_order([t.id for t in ts], rng)
    left = set(players)
    while len(left) > 2:
        table = rng.choice([t for t in ts if t.players])
        left.discard(table.players.pop(rng.choice(sorted(table.players))))
        rebalance(ts, order, rng)
        live = [t for t in ts if t.players]
        assert max(sizes(ts)) - min(sizes(ts)) <= 1
        assert len(left) > sum(t.seats for t in live) - seats        # no table could break any more
        seated = [p for t in live for p in t.players.values()]
        assert sorted(seated) == sorted(left)                       # nobody lost, nobody twice


def test_TR_PLAY_4_when_several_tables_break_at_once_nobody_is_seated_at_one_of_them():
    # 16 players fit in three tables of six: a and b, first in the drawn order, break in the same step;
    # b, the emptiest, must not take a's players only to break under them
    ts = [Table("a", 6, {s: f"a{s}" for s in range(1, 6)}), Table("b", 6, {1: "b1", 4: "b4"}),
          *(Table(t, 6, {s: f"{t}{s}" for s in (2, 3, 5)}) for t in "cde")]
    order = ["a", "b", "c", "d", "e"]
    moves = rebalance(ts, order, random.Random(3))
    assert [(m.player, m.from_table) for m in moves] == [(f"a{s}", "a") for s in range(1, 6)] + [
        ("b1", "b"), ("b4", "b")]                              # in the drawn order, each once
    assert all(m.to_table in "cde" and m.reason == "break" for m in moves)
    assert sizes(ts) == [6, 5, 5]
