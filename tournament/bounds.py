"""The money a director may put in an event alone (STAFF-1): buy-in, fee and guarantee bounds from the config.

A director runs events; the house decides what it pays. So an event's
buy-in, fee and guarantee stay within configured bounds, and a guarantee
above ``approval_above`` (house money at stake, paid from promotions) waits
for an admin's approval before anyone may register.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pokerroom.errors import RuleViolation
from tournament.structure import TournamentSpec


@dataclass(frozen=True, slots=True)
class EventBounds:
    """Minor units; read from ``[tournaments]`` in the room config."""

    max_buy_in: int = 10_000_000              # to the prize pool, per entry (the bounty counts with it)
    max_fee: int = 1_000_000                  # to the house, per entry
    max_guarantee: int = 100_000_000          # no event guarantees more, approved or not
    approval_above: int = 5_000_000           # a guarantee above this waits for an admin
    max_open_events: int = 200                # events not yet finished or cancelled: each holds timers and memory
    max_events_per_director: int = 20         # of those, one director's: nobody locks the others out
    max_creates_per_hour: int = 30            # one director's creations in any hour, cancelled ones too
    keep_ended_minutes: int = 60              # an ended event stays in the lobby this long, then only in the store
    max_house_deposit: int = 10_000_000       # one admin's house deposit into promotions
    max_house_deposits_per_admin_day: int = 20_000_000   # one admin's house deposits in any 24 hours
    max_house_deposits_per_day: int = 50_000_000         # every admin's together, in any 24 hours
    approver_cooling_hours: int = 168         # an admin made by an event's creator this recently may not approve it

    @classmethod
    def from_config(cls, data: Mapping[str, Any]) -> EventBounds:
        settings = data.get("tournaments", {})
        values = {}
        for name, key in (("max_buy_in", "max_buy_in"), ("max_fee", "max_fee"), ("max_guarantee", "max_guarantee"),
                          ("approval_above", "guarantee_approval_above"), ("max_open_events", "max_open_events"),
                          ("max_events_per_director", "max_events_per_director"),
                          ("max_creates_per_hour", "max_creates_per_director_hour"),
                          ("keep_ended_minutes", "keep_ended_minutes"), ("max_house_deposit", "max_house_deposit"),
                          ("max_house_deposits_per_admin_day", "max_house_deposits_per_admin_day"),
                          ("max_house_deposits_per_day", "max_house_deposits_per_day"),
                          ("approver_cooling_hours", "approver_cooling_hours")):
            if key in settings:
                value = settings[key]
                if type(value) is not int or value < 0:
                    raise ValueError(f"[tournaments] {key} is a whole number (minor units, events or minutes), "
                                     "0 or more")
                values[name] = value
        return cls(**values)

    def check(self, spec: TournamentSpec) -> bool:
        """Refuse an event outside the bounds; True when its guarantee needs an admin's approval."""
        for what, amount, bound in (("buy-in", spec.buy_in + spec.bounty, self.max_buy_in),
                                    ("fee", spec.fee, self.max_fee),
                                    ("guarantee", spec.guarantee, self.max_guarantee)):
            if amount > bound:
                raise RuleViolation("over_limit", f"the {what} of {amount} is above the room's limit of {bound}",
                                    "STAFF-1")
        return spec.guarantee > self.approval_above
