"""Registration, the start and late seats, rebuys and add-ons (TR-REG): a part of the director.

``director.registration``: it keeps the start's seat draw while it goes on in
slices (:class:`Opening`) -- the director and its other parts read it here, and
change it only through its methods. Entering, withdrawing and buying chips
change the director's own entries, tables and money (what every part reads), so
those stay the director's; the commands for them are here, and return the
director's events.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import HOUSE_FEES, cash
from pokerroom.poker.variants import VARIANTS
from tournament import staking
from tournament.accounts import (
    bounty_account,
    pool_account,
    stakes_account,
)
from tournament.entries import REGISTERING, RUNNING, Entry
from tournament.events import (
    ChipsAdded,
    Registered,
    Seated,
    SharesSold,
    Started,
    Unregistered,
)
from tournament.floor import SeatDraw, Shuffle
from tournament.table import TournamentTable

if TYPE_CHECKING:
    from tournament.director import Director
    from tournament.structure import TournamentSpec

DRAW_WORK = 100             # draws a slice makes: a table opened, a swap of a shuffle, a seat; or a bust placed


def entry_payments(spec: TournamentSpec) -> list[tuple[str, int, str]]:
    """What an entry pays from its source, in order, as ``(target, amount, reason)`` (none of no amount): the
    director pays them, and the hall has the wallet take them before the entry is made (several processes)."""
    legs = [(pool_account(spec.id), spec.buy_in, "tournament buy-in"),
            (bounty_account(spec.id), spec.bounty, "tournament bounty"),
            (HOUSE_FEES, spec.fee, "tournament fee")]
    return [leg for leg in legs if leg[1] > 0]


def chips_payment(spec: TournamentSpec, kind: str) -> tuple[str, int, str]:
    """What a rebuy or an add-on (``kind``) pays from the player's cash, as ``(target, amount, reason)``: the
    director pays it, and the hall has the wallet take it before the chips are bought (several processes)."""
    cost = spec.buy_in if kind == "rebuy" else spec.add_on_cost
    return pool_account(spec.id), cost, f"tournament {kind.replace('_', '-')}"


def share_payment(spec: TournamentSpec, percent: Fraction, markup: Fraction) -> tuple[str, int, str]:
    """What a backer pays for ``percent`` of an entry's action at ``markup`` (TR-STAKE-1), as ``(target, amount,
    reason)``: into the stakes escrow, taken by the wallet before the sale (several processes)."""
    return stakes_account(spec.id), staking.price(spec.entry_cost, percent, markup), "stake bought"


@dataclass
class Opening:
    """The start's work left, done a slice at a time (TR-REG-3): tables to open, the break order's shuffle,
    the seat draw; and the late registrants waiting for it to end."""

    players: list[str]
    tables: int                                         # tables still to open
    breaks: Shuffle | None = None
    seats: SeatDraw | None = None
    late: list[str] = field(default_factory=list)


class Registration:
    """Entering and withdrawing, the start and its seat draw (TR-REG-3), late seats (TR-PLAY-7), rebuys and add-ons."""

    def __init__(self, director: Director) -> None:
        self.director = director
        self.drawing: Opening | None = None          # the start's seat draw, while it goes on in slices

    def call_off(self) -> None:
        """The tournament is cancelled: a draw going on stops."""
        self.drawing = None

    def register(self, player: str, funds: int, *, source: str = "", ticket: bool = False) -> list:
        """Enter ``player``; ``funds`` is what ``source`` (their cash by default) holds now (TR-REG-6)."""
        d = self.director
        spec = d.spec
        self._approved()
        if d.state == REGISTERING:
            pass
        elif d.state == RUNNING and d.clock.late_open:
            pass
        else:
            raise RuleViolation("registration_closed", f"registration for {spec.name} is closed", "TR-REG-4")
        if player in d.entries:
            raise RuleViolation("already_registered", f"{player} is already in {spec.name}", "TR-REG-6")
        used = d.used_entries.get(player, 0)
        if used > spec.re_entries:
            raise RuleViolation("no_entries_left",
                                f"{player} has used all {spec.re_entries + 1} entries of {spec.name}",
                                "TR-REG-6")
        if len(d.entries) >= spec.max_players:
            raise RuleViolation("tournament_full", f"{spec.name} is full ({spec.max_players} players)", "TR-REG-4")
        source = source or cash(player)
        if funds < spec.entry_cost:
            raise RuleViolation("insufficient_funds", f"the entry costs {{need}}; {player} has {{have}}", "TR-REG-6",
                                amounts={"need": spec.entry_cost, "have": funds}).priced(spec.currency)
        entry = Entry(player, used + 1, spec.fee, spec.buy_in, spec.bounty, own_bounty=spec.bounty,
                      source=source, ticket=ticket, ordinal=d.registrations)
        d.registrations += 1
        d.entries[player] = entry
        d.changes.entry(entry)
        d.used_entries[player] = used + 1
        d.entries_total += 1
        d.collected += spec.buy_in
        d.emit(Registered(player, entry.number))
        for target, amount, reason in entry_payments(spec):
            d.pay(source, target, amount, reason)
        if d.state == RUNNING:
            self._seat_late(entry)
        if len(d.entries) >= spec.max_players:
            if d.state == RUNNING:
                d.clock.close_late_registration("full")
                d.eliminations.fix_prizes_if_closed()
            elif spec.sit_and_go:
                self._start()
        if d.state == RUNNING:
            d.eliminations.check_money()                   # TR-REG-4: an entry can make the next bust paid
        return d.flush()

    def unregister(self, player: str, now: float) -> list:
        """TR-REG-5: before the stated time, unless forbidden or the seat was won; everything paid comes back."""
        d = self.director
        spec = d.spec
        entry = d.entries.get(player)
        if d.state != REGISTERING or entry is None:
            raise RuleViolation("not_registered", f"{player} is not registered for {spec.name}", "TR-REG-5")
        if spec.unregister_until is None:
            raise RuleViolation("unregister_forbidden", f"{spec.name} does not allow unregistering", "TR-REG-5")
        if entry.ticket:
            raise RuleViolation("unregister_forbidden", "a seat won through a satellite or giveaway cannot be "
                                "unregistered", "TR-REG-5")
        if spec.start_at is not None and now > spec.start_at - spec.unregister_until:
            raise RuleViolation("unregister_closed", f"unregistering closed {spec.unregister_until} s before the start",
                                "TR-REG-5")
        self._withdraw(entry)
        return d.flush()

    def _withdraw(self, entry: Entry) -> None:
        """An entry taken back before the start: everything it paid returns, its backers' stakes too."""
        d = self.director
        spec = d.spec
        player = entry.player
        del d.entries[player]
        d.changes.entry_withdrawn(entry)
        d.used_entries[player] -= 1
        d.entries_total -= 1
        d.collected -= entry.paid_pool
        d.emit(Unregistered(player))
        d.pay(d.pool, entry.source, entry.paid_pool, "tournament unregistered")
        d.pay(bounty_account(spec.id), entry.source, entry.paid_bounty, "tournament unregistered")
        d.pay(HOUSE_FEES, entry.source, entry.fee, "tournament unregistered")
        for stake in entry.stakes:                           # TR-STAKE-2: backers get it all back
            d.pay(stakes_account(spec.id), cash(stake.backer), stake.price, "stake returned: unregistered")

    def remove(self, player: str) -> list:
        """A director takes a registrant out before the start, whatever the unregistering rules: all paid back."""
        d = self.director
        entry = d.entries.get(player)
        if d.state != REGISTERING or entry is None:
            raise RuleViolation("not_registered", f"{player} can be removed only while registering, and is not "
                                f"registered", "TR-REG-5")
        self._withdraw(entry)
        return d.flush()

    def sell_shares(self, seller: str, backer: str, percent: Fraction, markup: Fraction, funds: int) -> list:
        """TR-STAKE-1: after registering, before the start; the backer pays into the stakes escrow."""
        d = self.director
        entry = d.entries.get(seller)
        if d.state != REGISTERING or entry is None:
            raise RuleViolation("not_registered", "shares are sold after registering and before the start",
                                "TR-STAKE-1")
        if backer == seller:
            raise RuleViolation("bad_backer", "a player cannot back themselves", "TR-STAKE-1")
        staking.verify_sale(entry.stakes, percent, markup)
        target, price, reason = share_payment(d.spec, percent, markup)
        if funds < price:
            raise RuleViolation("insufficient_funds", f"the share costs {{need}}; {backer} has {{have}}", "TR-STAKE-1",
                                amounts={"need": price, "have": funds}).priced(d.spec.currency)
        entry.stakes.append(staking.Stake(backer, percent, price))
        d.changes.entry(entry)
        d.emit(SharesSold(seller, backer, int(percent), price))
        d.pay(cash(backer), target, price, reason)
        return d.flush()

    def start(self) -> list:
        """TR-REG-1: the scheduled time came (or a director said start now)."""
        d = self.director
        if d.state != REGISTERING:
            raise RuleViolation("already_started", f"{d.spec.name} has already started", "TR-REG-1")
        self._approved()
        if len(d.entries) < d.spec.min_players:
            raise RuleViolation("too_few_players", f"{d.spec.name} needs {d.spec.min_players} players to start; "
                                f"{len(d.entries)} registered", "TR-REG-1")
        self._start()
        return d.flush()

    def _approved(self) -> None:
        d = self.director
        if d.awaiting_approval:
            raise RuleViolation("awaiting_approval", f"{d.spec.name} guarantees {d.spec.guarantee}, above the "
                                "limit a director may set alone: it opens once an admin approves it", "STAFF-1")

    def edit(self, spec: TournamentSpec, pending: bool) -> None:
        """TR-REG-2: the structure edited before anyone registered; ``pending``: the new guarantee is above what a
        director may set alone (STAFF-1), so a raised one waits for an admin again, and a lowered one keeps waiting
        only if it already did."""
        d = self.director
        if d.state != REGISTERING or d.entries:
            raise RuleViolation("already_open", "a tournament is edited before anyone registers", "TR-REG-2")
        d.awaiting_approval = pending and (spec.guarantee > d.spec.guarantee or d.awaiting_approval)
        d.spec = spec

    def approve(self) -> None:
        """STAFF-1: an admin approved the guarantee; registration opens."""
        d = self.director
        if not d.awaiting_approval:
            raise RuleViolation("not_awaiting_approval", f"{d.spec.name} is not waiting for approval", "STAFF-1")
        d.awaiting_approval = False

    def _start(self) -> None:
        """Started on time (TR-REG-1): the clock runs from now, and the seat draw begins; a large field's draw
        goes on in slices (:meth:`catch_up`), no hand dealt until everyone is seated."""
        d = self.director
        spec = d.spec
        d.state = RUNNING
        players = list(d.entries)
        count = -(-len(players) // spec.table_size)
        d.emit(Started(len(players), count))
        d.clock.start()
        self.drawing = Opening(players, count)
        self._draw(DRAW_WORK)

    @property
    def behind(self) -> bool:
        """Work a step left for the next reactor turns: the start's seat draw, or placing the entries busted
        during late registration once it closed."""
        d = self.director
        return self.drawing is not None or (d.eliminations.prizes is not None and bool(d.eliminations.unplaced))

    def catch_up(self, work: int | None = None) -> list:
        """The next slice of that work: ``work`` (:data:`DRAW_WORK`) tables opened, swaps or seats of the
        draw, or busted entries placed (nothing once it is done)."""
        d = self.director
        work = DRAW_WORK if work is None else work
        if self.drawing is not None:
            self._draw(work)
        elif d.eliminations.prizes is not None:
            d.eliminations.place_early_busts(work)
        return d.flush()

    def _draw(self, work: int) -> None:
        """The draws of the simple definitions, in their order: the tables, the break order, then the seats."""
        d = self.director
        opening = self.drawing
        while opening.tables and work > 0:
            self._open_table()
            opening.tables -= 1
            work -= 1
        if opening.tables:
            return
        if opening.breaks is None:
            opening.breaks = Shuffle(list(d.tables), d.rng)
        work = opening.breaks.step(work)
        if not opening.breaks.done:
            return
        if opening.seats is None:
            d.balancing.order(opening.breaks.items)
            opening.seats = SeatDraw(opening.players, d.floor, d.rng)
        for move in opening.seats.step(work):
            self._place(move.player, move.to_table, d.spec.starting_stack, "draw", move.to_seat)
        if not opening.seats.done:
            return
        self.drawing = None
        for player in opening.late:                       # registered while the draw went on (TR-PLAY-7)
            self._seat_late(d.entries[player])
        d.eliminations.fix_prizes_if_closed()
        d.eliminations.check_money()

    def _open_table(self) -> TournamentTable:
        d = self.director
        d.table_count += 1
        table_id = f"{d.spec.id}-t{d.table_count}"
        table = TournamentTable(table_id, d.spec.table_size, VARIANTS[d.spec.game], d.rng.choice)
        d.floor.add(table.layout)                   # (built first, if it was not, from the tables before)
        d.tables[table_id] = table
        d.touch(table_id)
        return table

    def _place(self, player: str, table_id: str, chips: int, reason: str, seat: int = 0) -> None:
        d = self.director
        table = d.tables[table_id]
        seat = seat or table.seat_of(player)
        table.stacks[player] = chips
        d.entries[player].table = table_id
        d.touch(table_id)
        d.changes.entry(d.entries[player])
        d.emit(Seated(player, table_id, seat, chips, reason))

    def _seat_late(self, entry: Entry) -> None:
        """TR-PLAY-7: a late registrant sits at the emptiest table (a new one if all are full), dealt in at once."""
        d = self.director
        if self.drawing is not None:
            self.drawing.late.append(entry.player)
            return
        floor = d.floor
        open_ = floor.emptiest() or floor.emptiest(idle=False)    # between hands if possible; else at the next
        if open_:
            table = d.tables[floor.by_ordinal[d.rng.choice(open_)].id]
            seat = d.rng.choice(table.layout.empty_seats())
        else:
            table = self._open_table()
            d.balancing.breaks_first(table.id)
            seat = d.rng.choice(table.layout.empty_seats())
        table.seats[seat] = entry.player
        self._place(entry.player, table.id, d.spec.starting_stack, "late")

    def rebuy(self, player: str, funds: int) -> list:
        d = self.director
        spec = d.spec
        entry = d.live_entry(player)
        if not d.clock.rebuys_open or spec.rebuys == 0 or d.eliminations.prizes is not None:
            raise RuleViolation("rebuys_closed", f"rebuys in {spec.name} are closed", "TR-REG-6")
        if entry.rebuys >= spec.rebuys:
            raise RuleViolation("no_rebuys_left", f"{player} has used all {spec.rebuys} rebuys", "TR-REG-6")
        chips = d.chips(player)
        if chips > spec.starting_stack:
            raise RuleViolation("too_many_chips", f"a rebuy is allowed at or below the starting stack "
                                f"({{max}}); {player} has {{stack}}", "TR-REG-6",
                                amounts={"max": spec.starting_stack, "stack": chips}).priced("chips")
        self._buy_chips(entry, funds, chips_payment(spec, "rebuy")[1], spec.starting_stack, "rebuy")
        entry.rebuys += 1
        return d.flush()

    def add_on(self, player: str, funds: int) -> list:
        d = self.director
        spec = d.spec
        entry = d.live_entry(player)
        open_ = d.clock.rebuys_open or (d.clock.on_break and d.clock.level == spec.rebuy_levels)
        if not spec.add_on_stack or not open_ or d.eliminations.prizes is not None:    # TR-PRIZE-1: prizes fixed
            raise RuleViolation("add_on_closed", f"the add-on of {spec.name} is not open", "TR-REG-6")
        if entry.add_on:
            raise RuleViolation("no_add_on_left", f"{player} has already taken the add-on", "TR-REG-6")
        self._buy_chips(entry, funds, chips_payment(spec, "add_on")[1], spec.add_on_stack, "add_on")
        entry.add_on = True
        return d.flush()

    def _buy_chips(self, entry: Entry, funds: int, cost: int, chips: int, kind: str) -> None:
        d = self.director
        if funds < cost:
            raise RuleViolation("insufficient_funds", f"the {kind.replace('_', '-')} costs {cost}; "
                                f"{entry.player} has {funds}", "TR-REG-6")
        table = d.tables[entry.table]
        if table.in_hand:                         # HR-STAKE-2: chips come between hands
            raise RuleViolation("hand_running", f"a {kind.replace('_', '-')} is bought between hands", "TR-REG-6")
        entry.paid_pool += cost
        d.collected += cost
        table.add_chips(entry.player, chips)
        d.touch(table.id)
        d.changes.entry(entry)
        d.emit(ChipsAdded(entry.player, chips, kind))
        d.pay(cash(entry.player), *chips_payment(d.spec, kind))
