"""The lobby's standings kept as tables change agree with sorting every stack afresh."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.standings import Standings


@settings(max_examples=60)
@given(st.lists(st.tuples(st.integers(0, 7), st.dictionaries(st.sampled_from([f"p{i}" for i in range(60)]),
                                                             st.integers(1, 50), max_size=9)),
                min_size=1, max_size=40))
def test_ranks_average_and_top_match_a_fresh_sort_after_any_changes(steps):
    tables: dict[str, dict[str, int]] = {}
    kept = Standings(block=2)                                 # many blocks, so splits and empty blocks happen
    for table, stacks in steps:                               # a table's players and stacks change; others leave it
        name = f"t{table}"
        touched = {name}
        for other, seated in tables.items():
            for player in stacks:
                if seated.pop(player, None) is not None:
                    touched.add(other)                          # moved from there: that table is read too
        tables[name] = dict(stacks)
        if not stacks:
            del tables[name]
        kept.read(tables, touched)
    field = {p: c for stacks in tables.values() for p, c in stacks.items()}
    ordered = sorted(field, key=lambda p: (-field[p], p))
    assert [kept.rank(p) for p in ordered] == list(range(1, len(ordered) + 1))
    assert kept.top(5) == [(p, field[p]) for p in ordered[:5]]
    assert len(kept) == len(field) and kept.average == (sum(field.values()) // len(field) if field else 0)
