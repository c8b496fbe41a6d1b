"""A director as typed records and back: what the store keeps of a tournament between steps (TR-REFUND).

Theory of operation
-------------------
The store keeps one :class:`StateRecord` per tournament (its scalars, written
every step: a few dozen fields), one :class:`TermsRecord` (spec, payout table,
prizes, break order, substitutes: bulky and rarely changed, written when they
change), one :class:`TableRecord` per table and one :class:`EntryRecord` per
entry, live or busted. :func:`step` builds only what the director marked as
changed since the last save (:class:`~tournament.changes.Changes`), so a hand
ending at one table of a thousand costs that table, its players and the
scalars. :func:`whole` builds everything; :func:`restore` gives the director
back from a whole set.

A saved table never holds a hand: its stacks are those at the start of the
hand in play (a table's stacks change only when a hand ends), which is what
TR-REFUND refunds from, and no deck is kept (HR-RNG-2). A restored director
is between hands everywhere, as a pickled one was; a director's move queued for
the end of a hand (TR-PLAY-4) is kept and made at the next hand's end.

Every field is plain data (int, str, bool, None, and tuples or lists of
them), so the store can write it as typed columns and JSON without knowing
poker; fractions travel as their ``str``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, fields
from fractions import Fraction
from typing import Any

from pokerroom.poker.variants import VARIANTS
from pokerroom.table.blinds import Positions
from tournament import deals, staking
from tournament import director as td
from tournament.balancing import QueuedMove
from tournament.places import Bust
from tournament.prizes import Bracket, PayoutTable
from tournament.structure import TournamentSpec
from tournament.table import TournamentTable

ENDED = (td.FINISHED, td.CANCELLED)


@dataclass(frozen=True)
class StateRecord:
    """The director's scalars and small collections: rewritten at every step."""

    tournament: str
    state: str
    awaiting_approval: bool
    level: int
    paused: bool
    on_break: bool
    late_open: bool
    rebuys_open: bool
    paid_places: int
    in_money: bool
    hand_for_hand: bool
    deal_made: bool
    entries_total: int
    collected: int
    pool_balance: int
    prizes_paid: int
    table_count: int
    registrations: int
    winner: str
    round_played: tuple[str, ...]
    round_busts: tuple[tuple[str, int, str, int], ...]       # (player, start stack, table, dealing order)
    protected: tuple[tuple[str, str, int], ...]              # (table, player, hand number): HR-DC-4
    pending_deal: dict[str, Any] | None
    rng: tuple[int, tuple[int, ...], float | None]            # the seeded generator's state (TR-PLAY-4)


@dataclass(frozen=True)
class TermsRecord:
    """What changes rarely: written when the director marks it or replaces the spec or prizes."""

    tournament: str
    spec: dict[str, Any]
    payouts: dict[str, Any]
    prizes: tuple[int, ...] | None
    substitutes: tuple[tuple[int, str, int], ...]            # (place, description, value): TR-PRIZE-4
    break_order: tuple[str, ...]
    queued_moves: tuple[tuple[str, str, str], ...] = ()      # (player, to table, by): moves asked in a hand


@dataclass(frozen=True)
class TableRecord:
    tournament: str
    table: str
    size: int
    hand_number: int
    button: int | None                                        # None before the first hand
    blinds: tuple[int, ...]
    seats: tuple[tuple[int, str, int], ...]                   # (seat, player, chips at the start of the hand)


@dataclass(frozen=True)
class EntryRecord:
    tournament: str
    player: str
    number: int
    fee: int
    paid_pool: int
    paid_bounty: int
    rebuys: int
    add_on: bool
    own_bounty: int
    held: int
    source: str
    ticket: bool
    table: str
    place: tuple[int, ...]
    stakes: tuple[tuple[str, str, int], ...]                  # (backer, percent, price): TR-STAKE
    ordinal: int                                              # live entries are listed in this order
    out: int | None                                           # its index among the busted; None while live
    unplaced: tuple[int, int, int, str, int] | None           # (group, index, start stack, table, order)


@dataclass(frozen=True)
class Saved:
    """One step's records (or, from :func:`whole` and the store, a tournament's every record)."""

    tournament: str
    state: StateRecord
    terms: TermsRecord | None = None
    tables: tuple[TableRecord, ...] = ()
    entries: tuple[EntryRecord, ...] = ()
    closed_tables: tuple[str, ...] = ()
    withdrawn: tuple[tuple[str, int], ...] = ()
    ended: bool = False                                       # finished or cancelled: nothing is kept


# ---------------------------------------------------------------------- director -> records


def step(d: td.Director) -> Saved:
    """What changed since the last save (everything the first time); the director starts counting afresh."""
    changes = d.changes
    if changes.everything:
        saved = whole(d)
    elif d.state in ENDED:
        saved = Saved(d.spec.id, _state(d), ended=True)
    else:
        terms = (changes.terms or changes.saved_spec is not d.spec
                 or changes.saved_prizes is not d.eliminations.prizes)
        tables = [d.tables[t] for t in changes.tables if t in d.tables]
        saved = Saved(d.spec.id, _state(d), _terms(d) if terms else None, tuple(_table(d, t) for t in tables),
                      _entries(d, changes.entries.values()), tuple(changes.closed), tuple(changes.withdrawn))
    changes.taken()
    changes.saved_spec, changes.saved_prizes = d.spec, d.eliminations.prizes
    return saved


def whole(d: td.Director) -> Saved:
    """Every record of ``d``."""
    if d.state in ENDED:
        return Saved(d.spec.id, _state(d), ended=True)
    everyone = [*d.entries.values(), *d.eliminations.busted]
    return Saved(d.spec.id, _state(d), _terms(d), tuple(_table(d, t) for t in d.tables.values()),
                 _entries(d, everyone))


def _state(d: td.Director) -> StateRecord:
    version, internal, gauss = d.rng.getstate()
    clock, eliminations = d.clock, d.eliminations
    return StateRecord(
        d.spec.id, d.state, d.awaiting_approval, clock.level, clock.paused, clock.on_break, clock.late_open,
        clock.rebuys_open, eliminations.paid_places, eliminations.in_money, d.hand_for_hand, d.deal_desk.deal_made,
        d.entries_total, d.collected, d.pool_balance, eliminations.prizes_paid, d.table_count, d.registrations,
        eliminations.winner, tuple(sorted(d.round_played)),
        tuple((b.player, b.start_stack, b.table, b.order) for b in d.round_busts),
        tuple((table, player, hand) for (table, player), hand in d.protected.items()),
        _deal(d.deal_desk.pending_deal), (version, internal, gauss))


def _terms(d: td.Director) -> TermsRecord:
    return TermsRecord(d.spec.id, spec_data(d.spec), payouts_data(d.payouts), d.eliminations.prizes,
                       tuple((place, what, value) for place, (what, value) in d.eliminations.substitutes.items()),
                       tuple(d.balancing.break_order),
                       tuple((m.player, m.table, m.by) for m in d.balancing.queued))


def _table(d: td.Director, table: TournamentTable) -> TableRecord:
    stacks = table.stacks              # during a hand: still the stacks it began with
    positions = table.positions
    return TableRecord(d.spec.id, table.id, table.size, table.hand_number,
                       positions.button if positions else None, positions.blinds if positions else (),
                       tuple((seat, player, stacks[player]) for seat, player in sorted(table.seats.items())))


def _entries(d: td.Director, entries: Iterable[td.Entry]) -> tuple[EntryRecord, ...]:
    live = d.entries
    out = [e for e in entries if live.get(e.player) is not e]
    position = _positions(d.eliminations.busted, out)
    spots = _unplaced_spots(d.eliminations.unplaced, [e for e in out if not e.place])
    records = []
    for e in entries:
        spot = spots.get(id(e))
        records.append(EntryRecord(
            d.spec.id, e.player, e.number, e.fee, e.paid_pool, e.paid_bounty, e.rebuys, e.add_on, e.own_bounty,
            e.held, e.source, e.ticket, e.table, e.place,
            tuple((s.backer, str(s.percent), s.price) for s in e.stakes), e.ordinal, position.get(id(e)),
            (spot[0], spot[1], spot[2].start_stack, spot[2].table, spot[2].order) if spot else None))
    return tuple(records)


def _positions(busted: Sequence[td.Entry], wanted: Sequence[td.Entry]) -> dict[int, int]:
    """Where each of ``wanted`` stands among the busted: each entry keeps its index when it busts."""
    return {id(e): e.out for e in wanted if e.out is not None}


def _unplaced_spots(unplaced: Sequence[tuple[list[Bust], dict[str, td.Entry]]],
                    wanted: Sequence[td.Entry]) -> dict[int, tuple[int, int, Bust]]:
    """(group, index, bust) of each of ``wanted`` among those busted in late registration, newest groups first."""
    ids = {id(e) for e in wanted}
    found: dict[int, tuple[int, int, Bust]] = {}
    for g in range(len(unplaced) - 1, -1, -1):
        if len(found) == len(ids):
            break
        busts, group = unplaced[g]
        for i, bust in enumerate(busts):
            key = id(group[bust.player])
            if key in ids:
                found[key] = (g, i, bust)
    return found


def _deal(deal: td.Deal | None) -> dict[str, Any] | None:
    if deal is None:
        return None
    offer = deal.offer
    return {"kind": deal.kind, "left_to_play_for": deal.left_to_play_for, "by": deal.by,
            "offer": None if offer is None else [offer.kind, list(offer.amounts), offer.left_to_play_for,
                                                 offer.remainder],
            "players": list(deal.players), "accepted": sorted(deal.accepted)}


def spec_data(spec: TournamentSpec) -> dict[str, Any]:
    """The spec as :meth:`TournamentSpec.from_dict` reads it."""
    data = {f.name: getattr(spec, f.name) for f in fields(spec)}
    data["levels"] = [asdict(level) for level in spec.levels]
    data["breaks"] = [asdict(b) for b in spec.breaks]
    data["progressive_share"] = str(spec.progressive_share)
    return data


def payouts_data(payouts: PayoutTable) -> dict[str, Any]:
    return {"name": payouts.name,
            "brackets": [[b.least, b.most, [str(s) for s in b.shares], str(b.paid), b.flatness]
                         for b in payouts.brackets]}


def from_rows(rows: dict[str, Any]) -> Saved:
    """The records of a store's rows: ``{"state": {...}, "terms": {...}, "tables": [...], "entries": [...]}``,
    each a mapping of field to value (the store's columns are the records' fields)."""
    state = _record(StateRecord, rows["state"])
    return Saved(state.tournament, state, _record(TermsRecord, rows["terms"]) if rows["terms"] else None,
                 tuple(_record(TableRecord, r) for r in rows["tables"]),
                 tuple(_record(EntryRecord, r) for r in rows["entries"]))


def _record(kind: type, row: dict[str, Any]) -> Any:
    return kind(**{f.name: row[f.name] for f in fields(kind) if f.name in row})   # an older row: the defaults


# ---------------------------------------------------------------------- records -> director


def restore(saved: Saved) -> td.Director:
    """The director a whole set of records describes, between hands everywhere; nothing is marked changed."""
    if saved.terms is None:
        raise ValueError(f"tournament {saved.tournament} has no terms record: it cannot be restored")
    terms, s = saved.terms, saved.state
    spec = TournamentSpec.from_dict(terms.spec)
    payouts = PayoutTable(terms.payouts["name"], tuple(
        Bracket(least, most, tuple(Fraction(x) for x in shares), Fraction(paid), flatness)
        for least, most, shares, paid, flatness in terms.payouts["brackets"]))
    rng = random.Random()
    version, internal, gauss = s.rng
    rng.setstate((version, tuple(internal), gauss))
    d = td.Director(spec, payouts, rng)
    clock, eliminations = d.clock, d.eliminations
    for part, names in ((d, ("state", "awaiting_approval", "hand_for_hand", "entries_total", "collected",
                             "pool_balance", "table_count", "registrations")),
                        (clock, ("level", "paused", "on_break", "late_open", "rebuys_open")),
                        (eliminations, ("paid_places", "in_money", "prizes_paid", "winner")),
                        (d.deal_desk, ("deal_made",))):
        for name in names:
            setattr(part, name, getattr(s, name))
    d.round_played = set(s.round_played)
    d.round_busts = [Bust(*b) for b in s.round_busts]
    d.protected = {(table, player): hand for table, player, hand in s.protected}
    d.deal_desk.pending_deal = _deal_from(s.pending_deal)
    d.eliminations.prizes = None if terms.prizes is None else tuple(terms.prizes)
    d.eliminations.substitutes = {place: (what, value) for place, what, value in terms.substitutes}
    d.balancing.break_order = list(terms.break_order)
    d.balancing.queued = [QueuedMove(*move) for move in terms.queued_moves]
    for record in sorted(saved.tables, key=lambda r: _opened(r.table)):
        d.tables[record.table] = _table_from(record, spec, rng)
    _entries_from(d, saved.entries)
    d.changes.taken()
    d.changes.saved_spec, d.changes.saved_prizes = d.spec, d.eliminations.prizes
    return d


def _opened(table_id: str) -> int:
    """The director names its tables ``<tournament>-t<n>`` in the order it opens them; it keeps that order."""
    return int(table_id.rsplit("-t", 1)[1])


def _table_from(record: TableRecord, spec: TournamentSpec, rng: random.Random) -> TournamentTable:
    table = TournamentTable(record.table, record.size, VARIANTS[spec.game], rng.choice)
    table.hand_number = record.hand_number
    if record.button is not None:
        table.positions = Positions(record.button, tuple(record.blinds))
    for seat, player, chips in record.seats:
        table.seats[seat] = player
        table.stacks[player] = chips
    table.layout.big_blind = table.big_blind_seat
    return table


def _entries_from(d: td.Director, records: Iterable[EntryRecord]) -> None:
    busted: list[tuple[int, td.Entry]] = []
    live: list[td.Entry] = []
    groups: dict[int, list[tuple[int, Bust, td.Entry]]] = {}
    for r in records:
        entry = td.Entry(r.player, r.number, r.fee, r.paid_pool, r.paid_bounty, r.rebuys, r.add_on, r.own_bounty,
                         r.held, r.source, r.ticket,
                         [staking.Stake(backer, Fraction(percent), price) for backer, percent, price in r.stakes],
                         r.table, tuple(r.place), r.ordinal, r.out)
        d.used_entries[r.player] = max(d.used_entries.get(r.player, 0), r.number)
        if r.out is None:
            live.append(entry)
        else:
            busted.append((r.out, entry))
        if r.unplaced is not None:
            group, index, stack, table, order = r.unplaced
            groups.setdefault(group, []).append((index, Bust(r.player, stack, table, order), entry))
    d.entries = {e.player: e for e in sorted(live, key=lambda e: e.ordinal)}
    d.eliminations.busted = [entry for _, entry in sorted(busted, key=lambda pair: pair[0])]
    unplaced = d.eliminations.unplaced = []
    for group in sorted(groups):
        members = sorted(groups[group], key=lambda m: m[0])
        unplaced.append(([bust for _, bust, _ in members], {bust.player: entry for _, bust, entry in members}))


def _deal_from(data: dict[str, Any] | None) -> td.Deal | None:
    if data is None:
        return None
    offer = data["offer"]
    return td.Deal(data["kind"], data["left_to_play_for"], data["by"],
                   None if offer is None else deals.DealOffer(offer[0], tuple(offer[1]), offer[2], offer[3]),
                   tuple(data["players"]), set(data["accepted"]))
