"""Stored hands as PokerStars text for the trackers: a player's own export and the security team's.

Each hand is numbered by its stored row's id (unique and increasing, the hand
history's page cursor too), since the trackers read only digits there; a
tournament hand gets PokerStars' tournament header, its buy-in and level read
from the store (:meth:`~pokerroom.store.tournament_records.TournamentRecords.entry_price`,
on the store's writer thread: :func:`tournament_prices`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from pokerroom.poker import events as he
from pokerroom.poker.history.pokerstars import TournamentHeader, to_pokerstars, tournament_number
from pokerroom.store.models import HandRecord

_LEGS = {"tournament buy-in": "buy_in", "tournament bounty": "bounty", "tournament fee": "fee"}


def tournament_prices(store: Any, tournaments: Iterable[str | None]) -> dict[str, dict | None]:
    """Each tournament's entry price and levels as the store has them (once per tournament)."""
    return {t: store.tournaments.entry_price(t) for t in set(tournaments) if t}


def tournament_header(tournament: str, table: str, started: he.HandStarted, price: dict | None,
                      minor_units_per_unit: int) -> TournamentHeader:
    """The header of one tournament hand: buy-in from the terms or the ledger, the level whose blinds the hand
    was dealt at (left out when the levels are no longer stored), the table by its number (``cup-t2`` -> 2)."""
    spec, level = (price or {}).get("spec"), None
    if spec is not None:
        amounts = {name: int(spec.get(name, 0)) for name in _LEGS.values()}
        currency = spec.get("currency", "USD")
        blinds = (started.small_blind, started.big_blind, started.ante)
        level = next((i for i, lv in enumerate(spec.get("levels", ()), 1)
                      if (lv["small_blind"], lv["big_blind"], lv.get("ante", 0)) == blinds), None)
    else:
        legs = (price or {}).get("legs", {})
        amounts = {name: int(legs.get(reason, 0)) for reason, name in _LEGS.items()}
        currency = "USD"
    return TournamentHeader(tournament_number(tournament), currency=currency, level=level,
                            minor_units_per_unit=minor_units_per_unit, table=table.removeprefix(f"{tournament}-t"),
                            **amounts)


def pokerstars_text(hand: HandRecord, events: Sequence[he.Event], prices: dict[str, dict | None], *,
                    hero: str | None = None, minor_units_per_unit: int = 100) -> str | None:
    """One stored hand as PokerStars text (None: not ended, or void); ``events`` as the reader may see them."""
    if hand.ended_at is None or hand.void or not events or not isinstance(events[0], he.HandStarted):
        return None
    tournament = None
    if hand.tournament:
        tournament = tournament_header(hand.tournament, hand.table_id, events[0], prices.get(hand.tournament),
                                       minor_units_per_unit)
    when = datetime.fromtimestamp(hand.started_at, UTC).isoformat(timespec="seconds")   # events without a time
    return to_pokerstars(events, hero=hero, minor_units_per_unit=minor_units_per_unit, number=hand.id,
                         tournament=tournament, started_at=when)
