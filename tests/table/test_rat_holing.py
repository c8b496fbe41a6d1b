"""HR-STAKE-3's reading: the most recent unsettled leave binds; a sit with at least a leave's stack settles it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pokerroom.table.rat_holing import binding_departure
from pokerroom.table.seating_history import Arrival, Departure


def test_HR_STAKE_3_the_issues_case_binds_the_last_leave_not_the_first():
    leaves = [Departure("A", 1010, 10.0), Departure("B", 510, 30.0)]
    sits = [Arrival("B", 1010, 20.0)]
    assert binding_departure(leaves, sits) == Departure("B", 510, 30.0)
    assert binding_departure(leaves, []) == Departure("A", 1010, 10.0)          # no sit between: the larger
    assert binding_departure(leaves, [Arrival("B", 1009, 20.0)]).stack == 1010   # a smaller sit settles nothing
    assert binding_departure([Departure("A", 1010, 10.0)], [Arrival("B", 1010, 10.0)]) is not None  # not before


moves = st.lists(st.tuples(st.booleans(), st.integers(1, 5_000)), max_size=12)


@given(moves)
def test_HR_STAKE_3_what_binds_is_the_largest_leave_no_later_sit_has_matched(history):
    leaves, sits, owed = [], [], []             # owed: the leaves still open, kept step by step as play goes on
    for at, (is_leave, stack) in enumerate(history):
        if is_leave:
            leaves.append(Departure("t", stack, float(at)))
            owed.append(stack)
        else:
            sits.append(Arrival("t", stack, float(at)))
            owed = [o for o in owed if o > stack]              # sitting with at least a leave's stack settles it
    binding = binding_departure(leaves, sits)
    assert (binding.stack if binding else None) == (max(owed) if owed else None)
