"""Registration, the start and late seats, rebuys and add-ons (TR-REG): a part of the director.

A mix-in of :class:`~tournament.director.Director`: entering and the start
change the director's own entries and tables, so this part keeps no state of
its own; it is split out so each part of the director is one module with one job.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import HOUSE_FEES, cash
from pokerroom.poker.variants import VARIANTS
from tournament import staking
from tournament.accounts import (
    bounty_account,
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

DRAW_WORK = 100             # draws a slice makes: a table opened, a swap of a shuffle, a seat; or a bust placed


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

    def register(self, player: str, funds: int, *, source: str = "", ticket: bool = False) -> list:
        """Enter ``player``; ``funds`` is what ``source`` (their cash by default) holds now (TR-REG-6)."""
        spec = self.spec
        self._approved()
        if self.state == REGISTERING:
            pass
        elif self.state == RUNNING and self.clock.late_open:
            pass
        else:
            raise RuleViolation("registration_closed", f"registration for {spec.name} is closed", "TR-REG-4")
        if player in self.entries:
            raise RuleViolation("already_registered", f"{player} is already in {spec.name}", "TR-REG-6")
        used = self.used_entries.get(player, 0)
        if used > spec.re_entries:
            raise RuleViolation("no_entries_left",
                                f"{player} has used all {spec.re_entries + 1} entries of {spec.name}",
                                "TR-REG-6")
        if len(self.entries) >= spec.max_players:
            raise RuleViolation("tournament_full", f"{spec.name} is full ({spec.max_players} players)", "TR-REG-4")
        source = source or cash(player)
        if funds < spec.entry_cost:
            raise RuleViolation("insufficient_funds", f"the entry costs {{need}}; {player} has {{have}}", "TR-REG-6",
                                amounts={"need": spec.entry_cost, "have": funds}).priced(spec.currency)
        entry = Entry(player, used + 1, spec.fee, spec.buy_in, spec.bounty, own_bounty=spec.bounty,
                      source=source, ticket=ticket, ordinal=self.registrations)
        self.registrations += 1
        self.entries[player] = entry
        self.changes.entry(entry)
        self.used_entries[player] = used + 1
        self.entries_total += 1
        self.collected += spec.buy_in
        self.emit(Registered(player, entry.number))
        self.pay(source, self.pool, spec.buy_in, "tournament buy-in")
        self.pay(source, bounty_account(spec.id), spec.bounty, "tournament bounty")
        self.pay(source, HOUSE_FEES, spec.fee, "tournament fee")
        if self.state == RUNNING:
            self._seat_late(entry)
        if len(self.entries) >= spec.max_players:
            if self.state == RUNNING:
                self.clock.close_late_registration("full")
                self.eliminations.fix_prizes_if_closed()
            elif spec.sit_and_go:
                self._start()
        if self.state == RUNNING:
            self.eliminations.check_money()                   # TR-REG-4: an entry can make the next bust paid
        return self.flush()

    def unregister(self, player: str, now: float) -> list:
        """TR-REG-5: before the stated time, unless forbidden or the seat was won; everything paid comes back."""
        spec = self.spec
        entry = self.entries.get(player)
        if self.state != REGISTERING or entry is None:
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
        return self.flush()

    def _withdraw(self, entry: Entry) -> None:
        """An entry taken back before the start: everything it paid returns, its backers' stakes too."""
        spec = self.spec
        player = entry.player
        del self.entries[player]
        self.changes.entry_withdrawn(entry)
        self.used_entries[player] -= 1
        self.entries_total -= 1
        self.collected -= entry.paid_pool
        self.emit(Unregistered(player))
        self.pay(self.pool, entry.source, entry.paid_pool, "tournament unregistered")
        self.pay(bounty_account(spec.id), entry.source, entry.paid_bounty, "tournament unregistered")
        self.pay(HOUSE_FEES, entry.source, entry.fee, "tournament unregistered")
        for stake in entry.stakes:                           # TR-STAKE-2: backers get it all back
            self.pay(stakes_account(spec.id), cash(stake.backer), stake.price, "stake returned: unregistered")

    def remove(self, player: str) -> list:
        """A director takes a registrant out before the start, whatever the unregistering rules: all paid back."""
        entry = self.entries.get(player)
        if self.state != REGISTERING or entry is None:
            raise RuleViolation("not_registered", f"{player} can be removed only while registering, and is not "
                                f"registered", "TR-REG-5")
        self._withdraw(entry)
        return self.flush()

    def sell_shares(self, seller: str, backer: str, percent: Fraction, markup: Fraction, funds: int) -> list:
        """TR-STAKE-1: after registering, before the start; the backer pays into the stakes escrow."""
        entry = self.entries.get(seller)
        if self.state != REGISTERING or entry is None:
            raise RuleViolation("not_registered", "shares are sold after registering and before the start",
                                "TR-STAKE-1")
        if backer == seller:
            raise RuleViolation("bad_backer", "a player cannot back themselves", "TR-STAKE-1")
        staking.verify_sale(entry.stakes, percent, markup)
        price = staking.price(self.spec.entry_cost, percent, markup)
        if funds < price:
            raise RuleViolation("insufficient_funds", f"the share costs {{need}}; {backer} has {{have}}", "TR-STAKE-1",
                                amounts={"need": price, "have": funds}).priced(self.spec.currency)
        entry.stakes.append(staking.Stake(backer, percent, price))
        self.changes.entry(entry)
        self.emit(SharesSold(seller, backer, int(percent), price))
        self.pay(cash(backer), stakes_account(self.spec.id), price, "stake bought")
        return self.flush()

    def start(self) -> list:
        """TR-REG-1: the scheduled time came (or a director said start now)."""
        if self.state != REGISTERING:
            raise RuleViolation("already_started", f"{self.spec.name} has already started", "TR-REG-1")
        self._approved()
        if len(self.entries) < self.spec.min_players:
            raise RuleViolation("too_few_players", f"{self.spec.name} needs {self.spec.min_players} players to start; "
                                f"{len(self.entries)} registered", "TR-REG-1")
        self._start()
        return self.flush()

    def _approved(self) -> None:
        if self.awaiting_approval:
            raise RuleViolation("awaiting_approval", f"{self.spec.name} guarantees {self.spec.guarantee}, above the "
                                "limit a director may set alone: it opens once an admin approves it", "STAFF-1")

    def approve(self) -> None:
        """STAFF-1: an admin approved the guarantee; registration opens."""
        if not self.awaiting_approval:
            raise RuleViolation("not_awaiting_approval", f"{self.spec.name} is not waiting for approval", "STAFF-1")
        self.awaiting_approval = False

    def _start(self) -> None:
        """Started on time (TR-REG-1): the clock runs from now, and the seat draw begins; a large field's draw
        goes on in slices (:meth:`catch_up`), no hand dealt until everyone is seated."""
        spec = self.spec
        self.state = RUNNING
        players = list(self.entries)
        count = -(-len(players) // spec.table_size)
        self.emit(Started(len(players), count))
        self.clock.start()
        self.drawing = Opening(players, count)
        self._draw(DRAW_WORK)

    @property
    def behind(self) -> bool:
        """Work a step left for the next reactor turns: the start's seat draw, or placing the entries busted
        during late registration once it closed."""
        return self.drawing is not None or (self.eliminations.prizes is not None and bool(self.eliminations.unplaced))

    def catch_up(self, work: int | None = None) -> list:
        """The next slice of that work: ``work`` (:data:`DRAW_WORK`) tables opened, swaps or seats of the
        draw, or busted entries placed (nothing once it is done)."""
        work = DRAW_WORK if work is None else work
        if self.drawing is not None:
            self._draw(work)
        elif self.eliminations.prizes is not None:
            self.eliminations.place_early_busts(work)
        return self.flush()

    def _draw(self, work: int) -> None:
        """The draws of the simple definitions, in their order: the tables, the break order, then the seats."""
        opening = self.drawing
        while opening.tables and work > 0:
            self._open_table()
            opening.tables -= 1
            work -= 1
        if opening.tables:
            return
        if opening.breaks is None:
            opening.breaks = Shuffle(list(self.tables), self.rng)
        work = opening.breaks.step(work)
        if not opening.breaks.done:
            return
        if opening.seats is None:
            self.balancing.order(opening.breaks.items)
            opening.seats = SeatDraw(opening.players, self.floor, self.rng)
        for move in opening.seats.step(work):
            self._place(move.player, move.to_table, self.spec.starting_stack, "draw", move.to_seat)
        if not opening.seats.done:
            return
        self.drawing = None
        for player in opening.late:                       # registered while the draw went on (TR-PLAY-7)
            self._seat_late(self.entries[player])
        self.eliminations.fix_prizes_if_closed()
        self.eliminations.check_money()

    def _open_table(self) -> TournamentTable:
        self.table_count += 1
        table_id = f"{self.spec.id}-t{self.table_count}"
        table = TournamentTable(table_id, self.spec.table_size, VARIANTS[self.spec.game], self.rng.choice)
        self.floor.add(table.layout)                   # (built first, if it was not, from the tables before)
        self.tables[table_id] = table
        self.touch(table_id)
        return table

    def _place(self, player: str, table_id: str, chips: int, reason: str, seat: int = 0) -> None:
        table = self.tables[table_id]
        seat = seat or table.seat_of(player)
        table.stacks[player] = chips
        self.entries[player].table = table_id
        self.touch(table_id)
        self.changes.entry(self.entries[player])
        self.emit(Seated(player, table_id, seat, chips, reason))

    def _seat_late(self, entry: Entry) -> None:
        """TR-PLAY-7: a late registrant sits at the emptiest table (a new one if all are full), dealt in at once."""
        if self.drawing is not None:
            self.drawing.late.append(entry.player)
            return
        floor = self.floor
        open_ = floor.emptiest() or floor.emptiest(idle=False)    # between hands if possible; else at the next
        if open_:
            table = self.tables[floor.by_ordinal[self.rng.choice(open_)].id]
            seat = self.rng.choice(table.layout.empty_seats())
        else:
            table = self._open_table()
            self.balancing.breaks_first(table.id)
            seat = self.rng.choice(table.layout.empty_seats())
        table.seats[seat] = entry.player
        self._place(entry.player, table.id, self.spec.starting_stack, "late")

    def rebuy(self, player: str, funds: int) -> list:
        spec = self.spec
        entry = self.live_entry(player)
        if not self.clock.rebuys_open or spec.rebuys == 0 or self.eliminations.prizes is not None:
            raise RuleViolation("rebuys_closed", f"rebuys in {spec.name} are closed", "TR-REG-6")
        if entry.rebuys >= spec.rebuys:
            raise RuleViolation("no_rebuys_left", f"{player} has used all {spec.rebuys} rebuys", "TR-REG-6")
        chips = self.chips(player)
        if chips > spec.starting_stack:
            raise RuleViolation("too_many_chips", f"a rebuy is allowed at or below the starting stack "
                                f"({{max}}); {player} has {{stack}}", "TR-REG-6",
                                amounts={"max": spec.starting_stack, "stack": chips}).priced("chips")
        self._buy_chips(entry, funds, spec.buy_in, spec.starting_stack, "rebuy")
        entry.rebuys += 1
        return self.flush()

    def add_on(self, player: str, funds: int) -> list:
        spec = self.spec
        entry = self.live_entry(player)
        open_ = self.clock.rebuys_open or (self.clock.on_break and self.clock.level == spec.rebuy_levels)
        if not spec.add_on_stack or not open_ or self.eliminations.prizes is not None:    # TR-PRIZE-1: prizes fixed
            raise RuleViolation("add_on_closed", f"the add-on of {spec.name} is not open", "TR-REG-6")
        if entry.add_on:
            raise RuleViolation("no_add_on_left", f"{player} has already taken the add-on", "TR-REG-6")
        self._buy_chips(entry, funds, spec.add_on_cost, spec.add_on_stack, "add_on")
        entry.add_on = True
        return self.flush()

    def _buy_chips(self, entry: Entry, funds: int, cost: int, chips: int, kind: str) -> None:
        if funds < cost:
            raise RuleViolation("insufficient_funds", f"the {kind.replace('_', '-')} costs {cost}; "
                                f"{entry.player} has {funds}", "TR-REG-6")
        table = self.tables[entry.table]
        if table.in_hand:                         # HR-STAKE-2: chips come between hands
            raise RuleViolation("hand_running", f"a {kind.replace('_', '-')} is bought between hands", "TR-REG-6")
        entry.paid_pool += cost
        self.collected += cost
        table.add_chips(entry.player, chips)
        self.touch(table.id)
        self.changes.entry(entry)
        self.emit(ChipsAdded(entry.player, chips, kind))
        self.pay(cash(entry.player), self.pool, cost, f"tournament {kind.replace('_', '-')}")

    def live_entry(self, player: str) -> Entry:
        entry = self.entries.get(player)
        if self.state != RUNNING or entry is None:
            raise RuleViolation("not_playing", f"{player} is not playing in {self.spec.name}", "TR-REG-6")
        return entry

    def chips(self, player: str) -> int:
        """The player's chips now (between hands) or at the start of the hand in play."""
        table = self.table_of(player)
        return table.stacks[player]
