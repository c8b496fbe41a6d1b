"""Which earlier leave a player's buy-in must match (HR-STAKE-3, no rat-holing).

A leave with ``stack`` chips obliges the player to sit again at that game and
stakes with at least ``stack``, for the rule's period. The obligation ends once
the player has sat again with at least that stack: chips lost in play after
that are not owed, so what binds is the most recent leave (or the larger of
leaves made while seated at several such tables at once, none of which a later
sit has matched).
"""

from __future__ import annotations

from collections.abc import Iterable

from pokerroom.table.seating_history import Arrival, Departure


def binding_departure(departures: Iterable[Departure], arrivals: Iterable[Arrival]) -> Departure | None:
    """The leave whose stack a buy-in must match now, or ``None`` when every leave is settled."""
    arrivals = list(arrivals)
    open_leaves = [d for d in departures
                   if not any(a.at > d.at and a.stack >= d.stack for a in arrivals)]
    return max(open_leaves, key=lambda d: (d.stack, d.at), default=None)
