"""Building small tournaments for tests and steering their hands with stacked decks."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from pokerroom.money.ledger import PROMOTIONS, WORLD, Ledger, cash
from pokerroom.poker.actions import Call, Check, Fold, Raise
from pokerroom.table.blinds import SeatView, plan_hand
from tests.poker.engine_drivers import stacked_deck
from tournament import director as td
from tournament.prizes import PayoutTable
from tournament.structure import Level, TournamentSpec

PAYOUTS = PayoutTable.load(Path(__file__).resolve().parents[2] / "config" / "payouts" / "standard.toml")
LEVELS = (Level(50, 100, seconds=600), Level(100, 200, seconds=600), Level(200, 400, seconds=600),
          Level(400, 800, seconds=600))


def spec(**fields) -> TournamentSpec:
    base = dict(id="t", name="Test", buy_in=900, fee=100, starting_stack=1000, levels=LEVELS, table_size=6,
                min_players=2, max_players=100)
    base.update(fields)
    return TournamentSpec(**base)


class Room:
    """A director and a ledger that posts its payments, as the shell does."""

    def __init__(self, tournament: TournamentSpec, seed: int = 7, money: int = 100_000, **options) -> None:
        self.director = td.Director(tournament, PAYOUTS, random.Random(seed), **options)
        self.ledger = Ledger()
        self.money = money
        self.events: list = []
        if tournament.guarantee:                # STAFF-1: the house's deposit, held for the event as the hall does
            self.ledger.move(WORLD, PROMOTIONS, tournament.guarantee, "deposit", "house", 0.0)
            self.ledger.move(PROMOTIONS, td.guarantee_account(tournament.id), tournament.guarantee,
                             "guarantee reserved", tournament.id, 0.0)

    def house_adds(self, amount: int) -> None:
        """House money for the event beyond its guarantee (a substitute's top-up), held as the shell must."""
        self.ledger.move(WORLD, PROMOTIONS, amount, "deposit", "house", 0.0)
        self.ledger.move(PROMOTIONS, td.guarantee_account(self.director.spec.id), amount, "held", "house", 0.0)

    def fund(self, player: str, amount: int | None = None) -> None:
        self.ledger.move(WORLD, cash(player), self.money if amount is None else amount, "deposit", "test", 0.0)

    def apply(self, events: list) -> list:
        """Post and keep ``events``; then, as the hall's next reactor turns would, the work the step left."""
        for e in events:
            if isinstance(e, td.Payment):
                self.ledger.move(e.source, e.target, e.amount, e.reason, self.director.spec.id, 0.0)
        self.events += events
        if self.director.registration.behind:
            return events + self.apply(self.director.registration.catch_up())
        return events

    def register(self, *players: str, **options) -> list:
        out = []
        for p in players:
            if self.ledger.balance(cash(p)) == 0 and not options.get("source"):
                self.fund(p)
            funds = self.ledger.balance(options.get("source") or cash(p))
            out += self.apply(self.director.registration.register(p, funds, **options))
        return out

    def cash(self, player: str) -> int:
        return self.ledger.balance(cash(player))

    def of(self, kind: type) -> list:
        return [e for e in self.events if isinstance(e, kind)]

    def dealing_order(self, table_id: str) -> list[str]:
        """Who the next hand at ``table_id`` deals to, first left of the button first (the draw replayed)."""
        d = self.director
        table = d.tables[table_id]
        state = d.rng.getstate()
        views = [SeatView(s, table.stacks[p]) for s, p in sorted(table.seats.items()) if table.stacks[p] > 0]
        plan = plan_hand(views, max_seats=table.size, stakes=d.spec.level(d.clock.level).stakes(),
                         previous=table.positions, draw=table.draw)
        d.rng.setstate(state)
        return [table.seats[s] for s in sorted(plan.dealt, key=lambda s: (s <= plan.button, s))]

    def deal(self, table_id: str, holes: dict[str, str] | None = None, board: str = "AhKdQs8c3d") -> list:
        """Deal the next hand; ``holes`` gives named players their cards (others get low ones)."""
        order = self.dealing_order(table_id)
        spare = iter(["2s4h", "2h5c", "4c6d", "5d7s", "6h7c", "2d4s", "5s6c", "4d7h", "6s9c"])
        given = holes or {}
        cards = [given.get(p) or next(spare) for p in order]
        return self.apply(self.director.deal(table_id, stacked_deck(cards, board)))

    def shove_all(self, table_id: str, only: Sequence[str] | None = None) -> None:
        """Everyone to act (or everyone in ``only``) goes all in or calls; the others fold. Until the hand ends."""
        d = self.director
        while (table := d.tables.get(table_id)) is not None and (turn := table.to_act()) is not None:
            player, legal = turn
            if only is not None and player not in only:
                action = Check(legal.seat) if legal.can_check else Fold(legal.seat)
            else:
                action = (Raise(legal.seat, legal.max_to) if legal.can_raise else
                          Call(legal.seat) if legal.call_added else Check(legal.seat))
            self.apply(d.act(player, action))

    def check_down(self, table_id: str) -> None:
        """Everyone calls or checks until the hand ends."""
        d = self.director
        while (table := d.tables.get(table_id)) is not None and (turn := table.to_act()) is not None:
            player, legal = turn
            self.apply(d.act(player, Call(legal.seat) if legal.call_added else Check(legal.seat)))

    def only_table(self) -> str:
        (table_id,) = self.director.tables
        return table_id


def started(players: Sequence[str], seed: int = 7, **fields) -> Room:
    """A tournament of ``spec(**fields)`` with ``players`` registered and started."""
    room = Room(spec(**fields), seed=seed)
    room.register(*players)
    room.apply(room.director.registration.start())
    return room


def bust_one(room: Room, winner: str | None = None) -> list[str]:
    """A hand in which two players go all in (``winner`` with the best cards, if named) and the others fold,
    at ``winner``'s table or the first that may deal; the dealing order it had."""
    d = room.director
    table = d.table_of(winner).id if winner else d.ready_tables()[0]
    order = room.dealing_order(table)
    shovers = [winner, next(p for p in order if p != winner)] if winner else order[:2]
    room.deal(table, winning(shovers))
    room.shove_all(table, only=shovers)
    return order


def winning(players: Sequence[str]) -> dict[str, str]:
    """Hole cards making ``players`` win in that order (on the default board: trips A, K, Q, then JJ, TT)."""
    strong = ["AcAd", "KcKh", "QcQh", "JcJd", "TcTd"]
    return dict(zip(players, strong, strict=False))


def observable(d: td.Director) -> dict:
    """Everything a director's commands and queries read, apart from hands in play (never saved)."""
    running = d.state == td.RUNNING
    return {
        **{name: getattr(d, name) for name in (
            "state", "awaiting_approval", "hand_for_hand", "entries_total", "collected", "pool_balance",
            "table_count", "registrations", "round_played", "round_busts", "protected", "used_entries", "spec",
            "payouts")},
        **{name: getattr(d.clock, name) for name in ("level", "paused", "on_break", "late_open", "rebuys_open")},
        **{name: getattr(d.eliminations, name) for name in (
            "paid_places", "in_money", "prizes_paid", "winner", "prizes", "substitutes")},
        "deal_made": d.deal_desk.deal_made,
        "break_order": d.balancing.break_order,
        "rng": d.rng.getstate(),
        "deal": None if d.deal_desk.pending_deal is None else asdict(d.deal_desk.pending_deal),
        "entries": [asdict(e) for e in d.entries.values()],
        "busted": [asdict(e) for e in d.eliminations.busted],
        "unplaced": [(busts, [asdict(e) for e in group.values()]) for busts, group in d.eliminations.unplaced],
        "tables": [(t.id, t.size, dict(t.seats), dict(t.stacks), t.positions, t.hand_number, t.layout.seats)
                   for t in d.tables.values()],
        "stacks": d.stacks() if running else None,
        "refund": d.refund_preview() if d.state == td.REGISTERING or (running and d.entries) else None,
        "schedule": d.clock.schedule(),
        "prizes_shown": d.eliminations.provisional_prizes(),
    }
