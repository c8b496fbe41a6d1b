"""The tournament director: one event from registration to the last hand, as a pure state machine.

Theory of operation
-------------------
A :class:`Director` takes commands and returns events; it reads no clock and
does no I/O. Time arrives as commands (:meth:`level_up`, :meth:`start_break`,
:meth:`end_break`, :meth:`deal_expired`); :meth:`schedule` says when the shell
should send the next one. Every random choice (seat draw, table break order,
balancing) takes the director's seeded generator, so a test can replay an
event exactly (TR-PLAY-4). Decks come in with :meth:`deal`: the shell shuffles
them with the secure generator (HR-RNG-1).

States: ``registering`` -> ``running`` -> ``finished``; ``cancelled`` from
either of the first two. While running the director may also be paused (a
director's command), on a break, or waiting on a deal: then no table starts a
new hand, and hands already running finish (a synchronised break, TR-PLAY-2).

Where state lives: who sits where and with how many chips is in the
:class:`~tournament.table.TournamentTable` s; everything about entries, money
and places is here. Money never moves here: the director emits
:class:`Payment` s, which the shell posts to the ledger in order, so the
ledger is the one record of money (DESIGN.md idea 3). A command that breaks a
rule raises :class:`~pokerroom.errors.RuleViolation` naming it and changes
nothing.

Places (TR-PLAY-3): an entry busted while late registration is open gets its
place when registration closes, because only then is the field's size known;
those places are all below the money, since registration closes as soon as
the next player to bust would be paid (TR-REG-4). From then on, players busted
in one hand -- or in one round of hand-for-hand play across tables, which
starts on the bubble -- are placed together by :func:`~tournament.places.finishing_places`.
Prizes are fixed when registration and rebuys have both closed (TR-PRIZE-1).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from pokerroom.errors import RuleViolation
from pokerroom.money.ledger import HOUSE_FEES, cash
from pokerroom.poker.actions import Action
from pokerroom.poker.variants import VARIANTS
from tournament import deals, refunds, staking
from tournament.bounties import knockout
from tournament.changes import Changes
from tournament.events import (
    BountyWon,
    BreakEnded,
    BreakStarted,
    Broadcast,
    BubbleBurst,
    Busted,
    Cancelled,
    ChipsAdded,
    DealAnswered,
    DealAwaitingApproval,
    DealFailed,
    DealMade,
    DealOffered,
    DealProposed,
    Eliminated,
    Finished,
    HandDealt,
    HandForHand,
    HandPlayed,
    LevelStarted,
    PackageAwarded,
    Paused,
    Payment,
    PrizesFixed,
    PrizeSubstituted,
    RebuysClosed,
    Registered,
    RegistrationClosed,
    Resumed,
    Seated,
    SeatWon,
    SharesSold,
    Started,
    TableClosed,
    Unregistered,
)
from tournament.icm import ICMError
from tournament.places import Bust, Finish, awards, finishing_places
from tournament.prizes import PayoutTable, Prizes, prize_pool, prizes
from tournament.seating import Move, break_order, draw_seats, rebalance
from tournament.structure import TournamentSpec
from tournament.table import HandResult, TournamentTable

REGISTERING, RUNNING, FINISHED, CANCELLED = "registering", "running", "finished", "cancelled"
ROUNDING = "house:rounding"
PACKAGES = "house:packages"       # substituted prizes the room delivers (TR-PRIZE-4)


def pool_account(tournament: str) -> str:
    return f"tournament:{tournament}:pool"


def bounty_account(tournament: str) -> str:
    return f"tournament:{tournament}:bounties"


def guarantee_account(tournament: str) -> str:
    """House money held for this event (STAFF-1): its guarantee, reserved from promotions when it is created;
    overlays and prizes the house adds are paid from here, and what is left goes back to promotions."""
    return f"tournament:{tournament}:guarantee"


def stakes_account(tournament: str) -> str:
    return f"tournament:{tournament}:stakes"


def ticket_account(target: str, player: str) -> str:
    """A seat won to ``target`` (TR-PRIZE-5): its value waits here until the player enters."""
    return f"ticket:{target}:{player}"


def tournament_money(player: str) -> str:
    """T$: money only for tournament entries (TR-PRIZE-5)."""
    return f"tdollars:{player}"


# ---------------------------------------------------------------------- state


@dataclass
class Entry:
    player: str
    number: int = 1              # which entry of this player
    fee: int = 0                 # the fee of this entry (TR-REFUND-3)
    paid_pool: int = 0           # to the prize pool: buy-in, rebuys, add-on
    paid_bounty: int = 0
    rebuys: int = 0
    add_on: bool = False
    own_bounty: int = 0          # the bounty on this entry's head (TR-PLAY-6)
    held: int = 0                # bounties won, in escrow until the money
    source: str = ""             # the account the entry was paid from
    ticket: bool = False         # won through a satellite or giveaway: cannot unregister (TR-REG-5)
    stakes: list[staking.Stake] = field(default_factory=list)
    table: str = ""
    place: tuple[int, ...] = ()
    ordinal: int = 0             # registrations before it: live entries keep this order when restored


@dataclass
class Deal:
    kind: str
    left_to_play_for: int
    by: str
    offer: deals.DealOffer | None = None
    players: tuple[str, ...] = ()
    accepted: set[str] = field(default_factory=set)


def _holds_nothing(player: str) -> bool:
    return False


class Director:
    """One tournament. ``rng`` is the tournament's seeded generator for draws (TR-PLAY-4, TR-REG-3)."""

    awaiting_approval = False                    # STAFF-1: a guarantee above the limit waits for an admin

    def __init__(self, spec: TournamentSpec, payouts: PayoutTable, rng: random.Random, *,
                 holds_target_seat: Callable[[str], bool] | None = None) -> None:
        self.spec = spec
        self.payouts = payouts
        self.rng = rng
        self.holds_target_seat = holds_target_seat or _holds_nothing
        self.state = REGISTERING
        self.entries: dict[str, Entry] = {}          # live (and, before the start, registered) entries
        self.used_entries: dict[str, int] = {}       # player -> entries so far, busted ones included
        self.busted: list[Entry] = []                # finished entries, in the order they busted
        self.unplaced: list[tuple[list[Bust], dict[str, Entry]]] = []   # busted in late registration
        self.pool_balance = 0                        # what the prize pool account holds, by our own book
        self.prizes_paid = 0                         # places' prizes paid out of the pool so far
        self.substitutes: dict[int, tuple[str, int]] = {}   # place -> (description, value): TR-PRIZE-4
        self.deal_made = False
        self.entries_total = 0
        self.registrations = 0                       # entries ever made, withdrawn ones too
        self.collected = 0
        self.level = 0
        self.paused = False
        self.on_break = False
        self.late_open = False
        self.rebuys_open = False
        self.prizes: tuple[int, ...] | None = None
        self.paid_places = 0
        self.in_money = False
        self.protected: dict[tuple[str, str], int] = {}    # (table, player) -> hand given extra time (HR-DC-4)
        self.hand_for_hand = False
        self.round_played: set[str] = set()
        self.round_busts: list[Bust] = []
        self.tables: dict[str, TournamentTable] = {}
        self.break_order: list[str] = []
        self.pending_deal: Deal | None = None
        self.winner = ""
        self.table_count = 0
        self._events: list = []
        self._provisional: tuple[tuple[int, int], tuple[int, ...]] = ((-1, -1), ())
        self.changes = Changes()                     # what the next save stores (tournament.saved_state)

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        del state["holds_target_seat"]              # the shell's question; given again after a restore
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.holds_target_seat = _holds_nothing

    # ------------------------------------------------------------------ accounts and queries

    @property
    def pool(self) -> str:
        return pool_account(self.spec.id)

    @property
    def remaining(self) -> int:
        return len(self.entries) if self.state == RUNNING else 0

    def stacks(self) -> dict[str, int]:
        """Chips per remaining player now (between hands) or at the start of the hand in play."""
        stacks: dict[str, int] = {}
        for table in self.tables.values():
            stacks.update(table.stacks)                 # players seated after the hand began: as seated
            stacks.update(table.start_stacks())
        return stacks

    def table_of(self, player: str) -> TournamentTable:
        entry = self.entries.get(player)
        if entry is None or not entry.table:
            raise RuleViolation("not_playing", f"{player} is not playing in {self.spec.name}", "TR-PLAY-4")
        return self.tables[entry.table]

    def ready_tables(self) -> list[str]:
        """Tables that may deal a hand now (none while paused, on a break, on a deal or finished)."""
        if self.state != RUNNING or self.paused or self.on_break or self.pending_deal is not None:
            return []
        return [t for t in self.tables if self.can_deal(t)]

    def can_deal(self, table_id: str) -> bool:
        if self.state != RUNNING or self.paused or self.on_break or self.pending_deal is not None:
            return False
        table = self.tables.get(table_id)
        if table is None or table.in_hand or (self.hand_for_hand and table_id in self.round_played):
            return False
        if self._satellite_done():                # TR-PRIZE-6: it ends once the hands in play are over
            return False
        stacks = table.stacks
        return sum(1 for p in table.seats.values() if stacks[p] > 0) >= 2

    def schedule(self) -> tuple[str, int] | None:
        """The next clock command and the seconds until it: ``level_up``, ``start_break`` or ``end_break``."""
        if self.state != RUNNING:
            return None
        if self.on_break:
            brk = self.spec.break_after(self.level)
            return ("end_break", brk.seconds if brk else 0)
        kind = "start_break" if self.spec.break_after(self.level) else "level_up"
        return (kind, self.spec.level(self.level).seconds)

    def _places(self) -> int:
        """Places the entries so far would pay (TR-REG-4 asks at every bust and late entry)."""
        if self.spec.satellite_target:
            return len(self.provisional_prizes())
        return self.payouts.places_for(max(self.entries_total, len(self.entries), 2))

    def provisional_prizes(self) -> tuple[int, ...]:
        """The prizes for the entries so far (TR-PRIZE-1): the lobby shows them until they are fixed."""
        if self.prizes is not None:
            return self.prizes
        key = (max(self.entries_total, len(self.entries)), self.collected)
        if self._provisional[0] != key:                     # entries and money change far less often than hands
            self._provisional = (key, self._prizes_for(*key).amounts)
        return self._provisional[1]

    # ------------------------------------------------------------------ registration (TR-REG)

    def register(self, player: str, funds: int, *, source: str = "", ticket: bool = False) -> list:
        """Enter ``player``; ``funds`` is what ``source`` (their cash by default) holds now (TR-REG-6)."""
        spec = self.spec
        self._approved()
        if self.state == REGISTERING:
            pass
        elif self.state == RUNNING and self.late_open:
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
            raise RuleViolation("insufficient_funds", f"the entry costs {spec.entry_cost}; {player} has {funds}",
                                "TR-REG-6")
        entry = Entry(player, used + 1, spec.fee, spec.buy_in, spec.bounty, own_bounty=spec.bounty,
                      source=source, ticket=ticket, ordinal=self.registrations)
        self.registrations += 1
        self.entries[player] = entry
        self.changes.entry(entry)
        self.used_entries[player] = used + 1
        self.entries_total += 1
        self.collected += spec.buy_in
        self._emit(Registered(player, entry.number))
        self._pay(source, self.pool, spec.buy_in, "tournament buy-in")
        self._pay(source, bounty_account(spec.id), spec.bounty, "tournament bounty")
        self._pay(source, HOUSE_FEES, spec.fee, "tournament fee")
        if self.state == RUNNING:
            self._seat_late(entry)
        if len(self.entries) >= spec.max_players:
            if self.state == RUNNING:
                self._close_registration("full")
                self._fix_prizes_if_closed()
            elif spec.sit_and_go:
                self._start()
        if self.state == RUNNING:
            self._check_money()                   # TR-REG-4: an entry can make the next bust paid
        return self._flush()

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
        return self._flush()

    def _withdraw(self, entry: Entry) -> None:
        """An entry taken back before the start: everything it paid returns, its backers' stakes too."""
        spec = self.spec
        player = entry.player
        del self.entries[player]
        self.changes.entry_withdrawn(entry)
        self.used_entries[player] -= 1
        self.entries_total -= 1
        self.collected -= entry.paid_pool
        self._emit(Unregistered(player))
        self._pay(self.pool, entry.source, entry.paid_pool, "tournament unregistered")
        self._pay(bounty_account(spec.id), entry.source, entry.paid_bounty, "tournament unregistered")
        self._pay(HOUSE_FEES, entry.source, entry.fee, "tournament unregistered")
        for stake in entry.stakes:                           # TR-STAKE-2: backers get it all back
            self._pay(stakes_account(spec.id), cash(stake.backer), stake.price, "stake returned: unregistered")

    def remove(self, player: str) -> list:
        """A director takes a registrant out before the start, whatever the unregistering rules: all paid back."""
        entry = self.entries.get(player)
        if self.state != REGISTERING or entry is None:
            raise RuleViolation("not_registered", f"{player} can be removed only while registering, and is not "
                                f"registered", "TR-REG-5")
        self._withdraw(entry)
        return self._flush()

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
            raise RuleViolation("insufficient_funds", f"the share costs {price}; {backer} has {funds}", "TR-STAKE-1")
        entry.stakes.append(staking.Stake(backer, percent, price))
        self.changes.entry(entry)
        self._emit(SharesSold(seller, backer, percent, price))
        self._pay(cash(backer), stakes_account(self.spec.id), price, "stake bought")
        return self._flush()

    def start(self) -> list:
        """TR-REG-1: the scheduled time came (or a director said start now)."""
        if self.state != REGISTERING:
            raise RuleViolation("already_started", f"{self.spec.name} has already started", "TR-REG-1")
        self._approved()
        if len(self.entries) < self.spec.min_players:
            raise RuleViolation("too_few_players", f"{self.spec.name} needs {self.spec.min_players} players to start; "
                                f"{len(self.entries)} registered", "TR-REG-1")
        self._start()
        return self._flush()

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
        spec = self.spec
        self.state = RUNNING
        players = list(self.entries)
        count = -(-len(players) // spec.table_size)
        for _ in range(count):
            self._open_table()
        layouts = [t.layout for t in self.tables.values()]
        self.break_order = break_order(self.tables, self.rng)
        self.changes.terms = True
        self._emit(Started(len(players), count))
        for move in draw_seats(players, layouts, self.rng):
            self._place(move.player, move.to_table, spec.starting_stack, "draw")
        self.level = 1
        self._emit(self._level_event())
        self.late_open = spec.late_registration_levels > 0
        self.rebuys_open = spec.rebuy_levels > 0 and (spec.rebuys > 0 or spec.add_on_stack > 0)
        self._fix_prizes_if_closed()

    def _open_table(self) -> TournamentTable:
        self.table_count += 1
        table_id = f"{self.spec.id}-t{self.table_count}"
        table = TournamentTable(table_id, self.spec.table_size, VARIANTS[self.spec.game], self.rng.choice)
        self.tables[table_id] = table
        self.changes.table(table_id)
        return table

    def _place(self, player: str, table_id: str, chips: int, reason: str) -> None:
        table = self.tables[table_id]
        seat = table.seat_of(player)
        table.stacks[player] = chips
        self.entries[player].table = table_id
        self.changes.table(table_id)
        self.changes.entry(self.entries[player])
        self._emit(Seated(player, table_id, seat, chips, reason))

    def _seat_late(self, entry: Entry) -> None:
        """TR-PLAY-7: a late registrant sits at the emptiest table (a new one if all are full), dealt in at once."""
        open_tables = [t for t in self.tables.values() if len(t.seats) < t.size]
        idle = [t for t in open_tables if not t.in_hand]
        open_tables = idle or open_tables              # between hands if possible; else dealt in at the next
        if open_tables:
            least = min(len(t.seats) for t in open_tables)
            table = self.rng.choice([t for t in open_tables if len(t.seats) == least])
        else:
            table = self._open_table()
            self.break_order.insert(0, table.id)          # the newest table breaks first
            self.changes.terms = True
        seat = self.rng.choice(table.layout.empty_seats())
        table.seats[seat] = entry.player
        self._place(entry.player, table.id, self.spec.starting_stack, "late")

    # ------------------------------------------------------------------ rebuys and add-ons (TR-REG-6)

    def rebuy(self, player: str, funds: int) -> list:
        spec = self.spec
        entry = self._live_entry(player)
        if not self.rebuys_open or spec.rebuys == 0 or self.prizes is not None:
            raise RuleViolation("rebuys_closed", f"rebuys in {spec.name} are closed", "TR-REG-6")
        if entry.rebuys >= spec.rebuys:
            raise RuleViolation("no_rebuys_left", f"{player} has used all {spec.rebuys} rebuys", "TR-REG-6")
        chips = self.chips(player)
        if chips > spec.starting_stack:
            raise RuleViolation("too_many_chips", f"a rebuy is allowed at or below the starting stack "
                                f"({spec.starting_stack}); {player} has {chips}", "TR-REG-6")
        self._buy_chips(entry, funds, spec.buy_in, spec.starting_stack, "rebuy")
        entry.rebuys += 1
        return self._flush()

    def add_on(self, player: str, funds: int) -> list:
        spec = self.spec
        entry = self._live_entry(player)
        open_ = self.rebuys_open or (self.on_break and self.level == spec.rebuy_levels)
        if not spec.add_on_stack or not open_ or self.prizes is not None:      # TR-PRIZE-1: prizes are fixed
            raise RuleViolation("add_on_closed", f"the add-on of {spec.name} is not open", "TR-REG-6")
        if entry.add_on:
            raise RuleViolation("no_add_on_left", f"{player} has already taken the add-on", "TR-REG-6")
        self._buy_chips(entry, funds, spec.add_on_cost, spec.add_on_stack, "add_on")
        entry.add_on = True
        return self._flush()

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
        self.changes.table(table.id)
        self.changes.entry(entry)
        self._emit(ChipsAdded(entry.player, chips, kind))
        self._pay(cash(entry.player), self.pool, cost, f"tournament {kind.replace('_', '-')}")

    def _live_entry(self, player: str) -> Entry:
        entry = self.entries.get(player)
        if self.state != RUNNING or entry is None:
            raise RuleViolation("not_playing", f"{player} is not playing in {self.spec.name}", "TR-REG-6")
        return entry

    def chips(self, player: str) -> int:
        """The player's chips now (between hands) or at the start of the hand in play."""
        table = self.table_of(player)
        return table.stacks[player]

    # ------------------------------------------------------------------ the clock (TR-PLAY-1/2, TR-REG-4)

    def level_up(self) -> list:
        self._verify_running()
        if self.on_break:
            raise RuleViolation("on_break", "the break must end before the next level", "TR-PLAY-2")
        self._next_level()
        return self._flush()

    def start_break(self) -> list:
        """Synchronised break: no new hands; hands in play finish (TR-PLAY-2)."""
        self._verify_running()
        if self.on_break:
            raise RuleViolation("on_break", "the tournament is already on a break", "TR-PLAY-2")
        brk = self.spec.break_after(self.level)
        self.on_break = True
        self._emit(BreakStarted(brk.seconds if brk else 0))
        return self._flush()

    def end_break(self) -> list:
        self._verify_running()
        if not self.on_break:
            raise RuleViolation("not_on_break", "the tournament is not on a break", "TR-PLAY-2")
        self.on_break = False
        self._emit(BreakEnded())
        self._next_level()
        return self._flush()

    def _next_level(self) -> None:
        spec = self.spec
        self.level += 1
        self._emit(self._level_event())
        if self.late_open and self.level > spec.late_registration_levels:
            self._close_registration("levels")
        if self.rebuys_open and self.level > spec.rebuy_levels:
            self.rebuys_open = False
            self._emit(RebuysClosed())
        self._fix_prizes_if_closed()

    def _level_event(self) -> LevelStarted:
        lv = self.spec.level(self.level)
        return LevelStarted(self.level, lv.small_blind, lv.big_blind, lv.ante, lv.big_blind_ante, lv.seconds)

    def close_registration(self) -> list:
        """A director closes late registration now."""
        self._verify_running()
        if not self.late_open:
            raise RuleViolation("registration_closed", "late registration is already closed", "TR-REG-4")
        self._close_registration("director")
        self._fix_prizes_if_closed()
        return self._flush()

    def _close_registration(self, reason: str) -> None:
        self.late_open = False
        self._emit(RegistrationClosed(self.entries_total, reason))

    def pause(self, by: str, reason: str) -> list:
        self._verify_running()
        if self.paused:
            raise RuleViolation("paused", "the tournament is already paused", "TR-REG-1")
        self.paused = True
        self._emit(Paused(by, reason))
        return self._flush()

    def resume(self, by: str) -> list:
        self._verify_running()
        if not self.paused:
            raise RuleViolation("not_paused", "the tournament is not paused", "TR-REG-1")
        self.paused = False
        self._emit(Resumed(by))
        return self._flush()

    def _verify_running(self) -> None:
        if self.state != RUNNING:
            raise RuleViolation("not_running", f"{self.spec.name} is not running", "TR-REG-1")

    # ------------------------------------------------------------------ prizes (TR-PRIZE)

    def _prizes_for(self, entries: int, collected: int, guarantee: int | None = None) -> Prizes:
        """Prizes for ``entries`` paying ``collected`` (topped up to the guarantee unless told otherwise)."""
        spec = self.spec
        pool = prize_pool(collected, spec.guarantee if guarantee is None else guarantee)
        if spec.satellite_target:                       # TR-PRIZE-5: seats, and what is left in cash
            seats = pool.total // spec.satellite_seat_value
            left = pool.total - seats * spec.satellite_seat_value
            return Prizes(tuple([spec.satellite_seat_value] * seats + ([left] if left else [])), 0)
        return prizes(self.payouts.shares_for(max(entries, 2)), pool.total, remainder_to_top=spec.remainder_to_top)

    def substitute_prize(self, place: int, description: str, value: int, by: str) -> list:
        """TR-PRIZE-4: the room may replace a fixed prize not yet won by one of equal or greater value."""
        prizes_ = self.prizes
        if prizes_ is None or not 1 <= place <= len(prizes_):
            raise RuleViolation("bad_substitute", f"place {place} has no fixed prize to substitute", "TR-PRIZE-4")
        if place > len(self.entries) or place in self.substitutes:
            raise RuleViolation("bad_substitute", f"the prize of place {place} is already won or substituted",
                                "TR-PRIZE-4")
        if type(value) is not int or value < prizes_[place - 1]:
            raise RuleViolation("bad_substitute", f"a substitute is worth at least the prize it replaces "
                                f"({prizes_[place - 1]})", "TR-PRIZE-4")
        self.substitutes[place] = (description, value)
        self.changes.terms = True
        self._emit(PrizeSubstituted(place, description, value, by))
        return self._flush()

    def _fix_prizes_if_closed(self) -> None:
        if self.prizes is not None or self.late_open or self.rebuys_open or self.state != RUNNING:
            return
        pool = prize_pool(self.collected, self.spec.guarantee)
        fixed = self._prizes_for(self.entries_total, self.collected)
        self.prizes = fixed.amounts
        self.paid_places = len(fixed.amounts)
        self._emit(PrizesFixed(self.entries_total, pool.collected, pool.overlay, fixed.amounts, fixed.remainder))
        self._pay(guarantee_account(self.spec.id), self.pool, pool.overlay, "guarantee overlay")
        self._pay(self.pool, ROUNDING, fixed.remainder, "prize rounding")
        self._place_early_busts()
        self._check_money()

    def _place_early_busts(self) -> None:
        """Entries busted during late registration get their places now, below the money."""
        worst = self.entries_total
        for busts, entries in self.unplaced:
            self._award(finishing_places(busts, worst), entries)
            worst -= len(busts)
        self.unplaced = []

    def _check_money(self) -> None:
        """Close what must close when the next bust would be paid (TR-REG-4); burst the bubble when it has."""
        if self.prizes is None and len(self.entries) <= self._places():
            if self.late_open:
                self._close_registration("in the money")
            if self.rebuys_open:
                self.rebuys_open = False
                self._emit(RebuysClosed())
            self._fix_prizes_if_closed()
            return
        if self.prizes is not None and not self.in_money and len(self.entries) <= self.paid_places:
            self.in_money = True
            held = 0
            for entry in [*self.busted, *self.entries.values()]:
                if entry.held:
                    self.changes.entry(entry)
                    held += entry.held
                    self._pay_player(entry, bounty_account(self.spec.id), entry.held, "bounty (held to the money)")
                    entry.held = 0
            self._emit(BubbleBurst(held))
        self._set_hand_for_hand()

    def _set_hand_for_hand(self) -> None:
        live = sum(1 for t in self.tables.values() if t.seats)
        places = self.paid_places if self.prizes is not None else self._places()
        on = not self.in_money and live > 1 and len(self.entries) == places + 1
        if on != self.hand_for_hand:
            self.hand_for_hand = on
            self.round_played = set()
            self._emit(HandForHand(on))

    # ------------------------------------------------------------------ play

    def deal(self, table_id: str, deck: Sequence[int]) -> list:
        """Deal the next hand at ``table_id`` if it may (see :meth:`ready_tables`)."""
        if not self.can_deal(table_id):
            raise RuleViolation("table_waiting", f"table {table_id} may not deal now", "TR-PLAY-2")
        table = self.tables[table_id]
        stakes = self.spec.level(self.level).stakes()
        events = table.start_hand(stakes, deck, label=f"{self.spec.name} table {table_id}")
        self.changes.table(table_id)
        if self.hand_for_hand:
            self.round_played.add(table_id)
        self._emit(HandDealt(table_id, tuple(events)))
        self._after_action(table)
        return self._flush()

    def act(self, player: str, action: Action) -> list:
        table = self.table_of(player)
        events = table.act(player, action)
        self._emit(HandPlayed(table.id, tuple(events)))
        self._after_action(table)
        return self._flush()

    @property
    def in_late_stage(self) -> bool:
        """HR-DC-4: the structure's late stage, at its number of players left or else once in the money."""
        if self.state != RUNNING:
            return False
        if self.spec.late_stage_players:
            return len(self.entries) <= self.spec.late_stage_players
        return self.in_money

    def reconnect_time(self, player: str, connected: bool) -> int:
        """HR-DC-4: extra seconds on the player's decision, when it is theirs to have; asking spends it.

        Only a disconnected player in the late stage gets it, and once per hand: the clock asks when the
        decision's own time runs out.
        """
        seconds = self.spec.disconnect_protection
        if connected or not seconds or not self.in_late_stage:
            return 0
        table = self.table_of(player)
        if table.hand is None or self.protected.get((table.id, player)) == table.hand_number:
            return 0
        self.protected[(table.id, player)] = table.hand_number
        return seconds

    def timeout(self, player: str) -> list:
        """The player's time ran out, or they are away: they check or fold (HR-DC-1, TR-PLAY-5)."""
        table = self.table_of(player)
        events = table.timeout(player)
        self._emit(HandPlayed(table.id, tuple(events)))
        self._after_action(table)
        return self._flush()

    def _after_action(self, table: TournamentTable) -> None:
        if table.hand is not None and table.hand.ended:
            self.changes.table(table.id)
            self._hand_over(table.finish_hand())

    def _hand_over(self, result: HandResult) -> None:
        table = self.tables[result.table_id]
        busts = []
        for player in result.busted:
            entry = self.entries[player]
            busts.append(Bust(player, result.start[player], table.id, result.dealing_order.index(player)))
            self._knockout(entry, result.eliminated_by.get(player, ()))
            table.unseat(player)
            entry.table = ""
            self.changes.entry(entry)
        if self.hand_for_hand:
            self.round_busts += busts
            if any(t.in_hand for t in self.tables.values()) or self.ready_tables():
                return
            busts, self.round_busts, self.round_played = self.round_busts, [], set()
        elif self.round_busts:                      # hand-for-hand ended mid-round: settle what it left
            busts, self.round_busts = self.round_busts + busts, []
        if busts:
            self._eliminate(busts)
        if self.state == RUNNING and self._satellite_done() and not any(t.in_hand for t in self.tables.values()):
            self._finish()
        if self.state == RUNNING:
            self._balance()
            self._offer_deal_if_ready()

    def _eliminate(self, busts: list[Bust]) -> None:
        remaining_before = len(self.entries)
        entries = {b.player: self.entries.pop(b.player) for b in busts}
        for entry in entries.values():
            self.changes.entry(entry)
        self.busted += entries.values()
        for b in busts:
            can_re_enter = self.late_open and self.used_entries[b.player] <= self.spec.re_entries
            self._emit(Busted(b.player, b.table, can_re_enter))
        if self.prizes is None:
            self.unplaced.append((busts, entries))
        else:
            self._award(finishing_places(busts, remaining_before), entries)
        self._check_money()
        if len(self.entries) == 1:
            self._finish()

    def _award(self, finishes: Iterable[Finish], entries: dict[str, Entry]) -> None:
        for finish in finishes:
            amounts, remainder = awards(finish, self.prizes or ())
            for player in finish.players:
                entry = entries[player]
                entry.place = finish.places
                self.changes.entry(entry)
                self._award_prize(entry, amounts[player], finish.places)
            self._pay(self.pool, ROUNDING, remainder, "prize rounding (tied places)")
            self._emit(Eliminated(finish.players, finish.places, amounts[finish.players[0]]))

    def _award_prize(self, entry: Entry, amount: int, places: tuple[int, ...] = ()) -> None:
        spec = self.spec
        self.prizes_paid += amount
        if len(places) == 1 and places[0] in self.substitutes:      # TR-PRIZE-4: a package, not cash
            description, value = self.substitutes[places[0]]
            self._pay(self.pool, PACKAGES, amount, "prize substituted")
            self._pay(guarantee_account(spec.id), PACKAGES, value - amount, "substituted prize above the cash prize")
            self._emit(PackageAwarded(entry.player, places[0], description, value))
            self._release_stakes(entry)
            return
        if spec.satellite_target and amount == spec.satellite_seat_value:
            as_money = self.holds_target_seat(entry.player)
            self._emit(SeatWon(entry.player, spec.satellite_target, as_money))
            if as_money:                          # TR-PRIZE-5: T$ = the target's buy-in less its fee
                self._pay(self.pool, tournament_money(entry.player), amount - spec.satellite_seat_fee,
                          "satellite seat as T$")
                self._pay(self.pool, HOUSE_FEES, spec.satellite_seat_fee, "satellite seat fee")
            else:
                self._pay(self.pool, ticket_account(spec.satellite_target, entry.player), amount, "satellite seat")
            for stake in entry.stakes:            # TR-STAKE-3: a ticket, not cash: backers get their stake back
                self._pay(stakes_account(spec.id), cash(stake.backer), stake.price, "stake returned: ticket won")
            entry.stakes = []
            self.changes.entry(entry)
            return
        self._pay_player(entry, self.pool, amount, "tournament prize")
        self._release_stakes(entry)

    def _pay_player(self, entry: Entry, source: str, amount: int, reason: str) -> None:
        """Pay a player their winnings or refund, split with their backers (TR-STAKE-3, TR-REFUND-6)."""
        if amount <= 0:
            return
        mine, backers, remainder = staking.split(amount, entry.stakes)
        self._pay(source, cash(entry.player), mine, reason)
        for backer, part in backers.items():
            self._pay(source, cash(backer), part, f"{reason}: backer's share")
        self._pay(source, ROUNDING, remainder, f"{reason}: rounding")

    def _release_stakes(self, entry: Entry) -> None:
        """The entry's outcome is known: the backers' money goes to the seller (TR-STAKE-1)."""
        for stake in entry.stakes:
            self._pay(stakes_account(self.spec.id), cash(entry.player), stake.price, "stake price to the seller")
        if entry.stakes:
            entry.stakes = []
            self.changes.entry(entry)

    def _knockout(self, entry: Entry, winners: Sequence[str]) -> None:
        """TR-PLAY-6: the busted player's bounty goes to the winners of the pot that busted them."""
        spec = self.spec
        bounty, entry.own_bounty = entry.own_bounty, 0   # bounties they won stay held until the money
        self.changes.entry(entry)
        if not bounty:
            return
        ko = knockout(bounty, winners, spec.progressive_share)
        for winner in winners:
            won = self.entries[winner]
            self.changes.entry(won)
            won.own_bounty += ko.onto_head[winner]
            held = not self.in_money
            if held:
                won.held += ko.cash[winner]
            else:
                self._pay_player(won, bounty_account(spec.id), ko.cash[winner], "bounty")
            self._emit(BountyWon(entry.player, winner, ko.cash[winner], ko.onto_head[winner], held))
        self._pay(bounty_account(spec.id), ROUNDING, ko.remainder, "bounty rounding")

    def _satellite_done(self) -> bool:
        """TR-PRIZE-6: everyone left would win the same seat."""
        spec = self.spec
        if not spec.satellite_target or self.prizes is None:
            return False
        seats = sum(1 for p in self.prizes if p == spec.satellite_seat_value)
        return 0 < len(self.entries) <= seats

    def _finish(self) -> None:
        left = sorted(self.entries.values(), key=lambda e: -self.chips(e.player))
        for place, entry in enumerate(left, 1):
            table = self.tables.get(entry.table)
            if table is not None:
                table.unseat(entry.player)
            entry.place = (place,)
            prize = self.prizes[place - 1] if self.prizes and place <= len(self.prizes) else 0
            self._pay_player(entry, bounty_account(self.spec.id), entry.own_bounty + entry.held, "own bounty")
            entry.own_bounty = entry.held = 0
            self._award_prize(entry, prize, (place,))
            self.busted.append(entry)
            self._emit(Eliminated((entry.player,), (place,), prize))
        self.entries = {}
        self.winner = left[0].player
        self.state = FINISHED
        for table_id in list(self.tables):
            self._close_table(table_id)
        self._emit(Finished(self.winner))

    # ------------------------------------------------------------------ breaking and balancing (TR-PLAY-4)

    def _balance(self) -> None:
        if self.hand_for_hand and self.round_played:
            return
        idle = {t.id for t in self.tables.values() if not t.in_hand}
        layouts = []
        for t in self.tables.values():
            t.layout.big_blind = t.big_blind_seat
            layouts.append(t.layout)
        moves = rebalance(layouts, self.break_order, self.rng, idle)
        for move in moves:
            self._move(move)
        for table_id in [t.id for t in self.tables.values() if not t.seats and not t.in_hand]:
            self._close_table(table_id)
        if moves:
            self._set_hand_for_hand()

    def _move(self, move: Move) -> None:
        source, target = self.tables[move.from_table], self.tables[move.to_table]
        chips = source.stacks.pop(move.player)
        target.stacks[move.player] = chips
        self.entries[move.player].table = target.id
        self.changes.table(source.id)
        self.changes.table(target.id)
        self.changes.entry(self.entries[move.player])
        self._emit(Seated(move.player, target.id, move.to_seat, chips, move.reason, source.id))

    def _close_table(self, table_id: str) -> None:
        del self.tables[table_id]
        self.changes.table_closed(table_id)
        if table_id in self.break_order:
            self.break_order.remove(table_id)
            self.changes.terms = True
        self._emit(TableClosed(table_id))

    def balance_now(self) -> list:
        """A director balances the tables now (TR-PLAY-4), moving players from tables between hands."""
        if self.state != RUNNING:
            raise RuleViolation("not_running", f"{self.spec.name} is not running", "TR-PLAY-4")
        self._balance()
        return self._flush()

    def broadcast(self, text: str, by: str) -> list:
        self._emit(Broadcast(text, by))
        return self._flush()

    def prize_preview(self, entrants: int) -> tuple[int, ...]:
        """The prizes ``entrants`` single entries would pay (the director's payout preview)."""
        return self._prizes_for(entrants, entrants * self.spec.buy_in).amounts

    def move_player(self, player: str, table_id: str, by: str) -> list:
        """A director moves a player between hands to an empty seat at another table."""
        source = self.table_of(player)
        target = self.tables.get(table_id)
        if target is None or target is source or not target.layout.empty_seats():
            raise RuleViolation("bad_move", f"table {table_id} has no empty seat for {player}", "TR-PLAY-4")
        if source.in_hand or target.in_hand:
            raise RuleViolation("hand_running", "players move between hands", "TR-PLAY-4")
        seat = self.rng.choice(target.layout.empty_seats())
        source_seat = source.seat_of(player)
        del source.seats[source_seat]
        target.seats[seat] = player
        self._move(Move(player, source.id, source_seat, target.id, seat, "director"))
        return self._flush()

    def break_table(self, table_id: str) -> list:
        """A director breaks a table between hands: its players go to random empty seats at the emptiest tables."""
        table = self.tables.get(table_id)
        others = [t for t in self.tables.values() if t is not table]
        if table is None or not others:
            raise RuleViolation("bad_break", f"table {table_id} cannot be broken: it is not here or is the last",
                                "TR-PLAY-4")
        if table.in_hand or any(t.in_hand for t in others):
            raise RuleViolation("hand_running", "tables break between hands", "TR-PLAY-4")
        if sum(len(t.layout.empty_seats()) for t in others) < len(table.seats):
            raise RuleViolation("bad_break", f"the other tables have no room for the players of {table_id}",
                                "TR-PLAY-4")
        for seat in sorted(table.seats):
            player = table.seats.pop(seat)
            open_ = [t for t in others if t.layout.empty_seats()]
            least = min(len(t.seats) for t in open_)
            target = self.rng.choice([t for t in open_ if len(t.seats) == least])
            to_seat = self.rng.choice(target.layout.empty_seats())
            target.seats[to_seat] = player
            self._move(Move(player, table.id, seat, target.id, to_seat, "break"))
        self._close_table(table_id)
        self._balance()
        return self._flush()

    # ------------------------------------------------------------------ deals (TR-DEAL)

    def propose_deal(self, player: str, kind: str, left_to_play_for: int = 0) -> list:
        """TR-DEAL-1: any remaining player; play pauses; the offer goes out once every table is between hands."""
        if not self.spec.deals:
            raise RuleViolation("deals_not_allowed", f"{self.spec.name} does not allow deals", "TR-DEAL-1")
        self._live_entry(player)
        if self.pending_deal is not None:
            raise RuleViolation("deal_pending", "a deal is already on the table", "TR-DEAL-1")
        if not self.in_money:
            raise RuleViolation("deal_before_money", "deals are made in the money", "TR-DEAL-1")
        if any(place <= len(self.entries) for place in self.substitutes):
            raise RuleViolation("deal_with_package", "a substituted prize is still to be won: it cannot be shared in a "
                                "deal", "TR-PRIZE-4")
        if kind not in deals.KINDS:
            raise RuleViolation("bad_deal", f"a deal is {' or '.join(deals.KINDS)}, not {kind!r}", "TR-DEAL-1")
        self.pending_deal = Deal(kind, left_to_play_for, player)
        self._emit(DealProposed(player, kind, left_to_play_for))
        self._offer_deal_if_ready()
        return self._flush()

    def _offer_deal_if_ready(self) -> None:
        deal = self.pending_deal
        if deal is None or deal.offer is not None or any(t.in_hand for t in self.tables.values()):
            return
        players = tuple(self.entries)
        stacks = [self.chips(p) for p in players]
        unpaid = deals.remaining_prizes(self.prizes or (), len(players))
        try:
            deal.offer = deals.offer(deal.kind, stacks, unpaid, left_to_play_for=deal.left_to_play_for,
                                     remainder_to_top=self.spec.remainder_to_top)
        except (deals.DealError, ICMError) as e:
            self.pending_deal = None
            self._emit(DealFailed(str(e)))
            return
        deal.players = players
        amounts = dict(zip(players, deal.offer.amounts, strict=True))
        self._emit(DealOffered(deal.kind, amounts, deal.left_to_play_for, deal.offer.remainder,
                               self.spec.deal_seconds))

    def answer_deal(self, player: str, accept: bool) -> list:
        deal = self.pending_deal
        if self.state != RUNNING or deal is None or deal.offer is None or player not in deal.players:
            raise RuleViolation("no_deal", f"there is no deal offered to {player}", "TR-DEAL-1")
        if player in deal.accepted:
            raise RuleViolation("already_answered", f"{player} has already accepted this deal", "TR-DEAL-1")
        self._emit(DealAnswered(player, accept))
        if not accept:
            self.pending_deal = None
            self._emit(DealFailed(f"{player} declined"))
            return self._flush()
        deal.accepted.add(player)
        if len(deal.accepted) == len(deal.players):
            if self.spec.director_approves_deals:
                self._emit(DealAwaitingApproval(dict(zip(deal.players, deal.offer.amounts, strict=True)),
                                                deal.left_to_play_for))
            else:
                self._make_deal(deal)
        return self._flush()

    def decide_deal(self, approve: bool, by: str, reason: str) -> list:
        """The director approves a deal every player accepted, or cancels a deal at any point; play resumes."""
        deal = self.pending_deal
        if self.state != RUNNING or deal is None:
            raise RuleViolation("no_deal", "there is no deal to approve or cancel", "TR-DEAL-1")
        if not approve:
            self.pending_deal = None
            self._emit(DealFailed(f"cancelled by {by}: {reason}"))
        elif deal.offer is None or len(deal.accepted) < len(deal.players):
            raise RuleViolation("deal_not_agreed", "a deal is approved once every remaining player has accepted it",
                                "TR-DEAL-1")
        else:
            self._make_deal(deal)
        return self._flush()

    def deal_expired(self) -> list:
        """TR-DEAL-1: not everyone accepted in time; play resumes."""
        deal = self.pending_deal
        if self.state != RUNNING or deal is None or (deal.players and len(deal.accepted) == len(deal.players)):
            raise RuleViolation("no_deal", "there is no deal pending", "TR-DEAL-1")
        self.pending_deal = None
        self._emit(DealFailed("time ran out"))
        return self._flush()

    def _make_deal(self, deal: Deal) -> None:
        offer = deal.offer
        amounts = dict(zip(deal.players, offer.amounts, strict=True))
        self.pending_deal = None
        self._emit(DealMade(amounts, offer.left_to_play_for))
        for player, amount in amounts.items():
            self.prizes_paid += amount
            self._pay_player(self.entries[player], self.pool, amount, "tournament deal")
        self._pay(self.pool, ROUNDING, offer.remainder, "deal rounding")
        k = len(deal.players)
        self.prizes = (offer.left_to_play_for,) + (0,) * (k - 1) + (self.prizes or ())[k:]
        self.deal_made = True
        if not offer.left_to_play_for:
            self._finish()

    # ------------------------------------------------------------------ cancellation and refunds (TR-REFUND)

    def refund_preview(self) -> refunds.Refund:
        """What :meth:`cancel` would pay each player now, from the state at the start of the hands in play."""
        spec = self.spec
        if self.state == REGISTERING:
            return refunds.before_the_start({p: (e.paid_pool + e.paid_bounty, e.fee) for p, e in self.entries.items()})
        if self.state != RUNNING:
            raise RuleViolation("not_running", f"{spec.name} has nothing to refund", "TR-REFUND-7")
        stacks = self.stacks()
        remaining = [refunds.Remaining(p, stacks[p], e.fee, e.held, e.own_bounty)
                     for p, e in self.entries.items() if e.table]
        k = len(remaining)
        unpaid: tuple[int, ...] = ()
        # TR-REFUND-5: only money collected is shared -- what of it the pool still holds (a guarantee's
        # overlay is not paid, and what rounding already took is not in the pool)
        shareable = min(self.collected - self.prizes_paid, self.pool_balance)
        if self.prizes is not None and k <= self.paid_places:
            if self.deal_made or prize_pool(self.collected, spec.guarantee).overlay == 0:
                unpaid = tuple(self.prizes[:k])                       # the prizes as fixed (or as a deal left them)
            else:
                unpaid = self._prizes_for(self.entries_total, self.collected, guarantee=0).amounts[:k]
            shareable = max(shareable, sum(unpaid))
        return refunds.after_the_start(remaining, max(0, shareable), unpaid)

    def cancel(self, reason: str) -> list:
        """TR-REG-1, TR-REFUND-2..7: everyone still in is refunded through the ledger with the case as reason."""
        if self.state not in (REGISTERING, RUNNING):
            raise RuleViolation("not_running", f"{self.spec.name} cannot be cancelled now", "TR-REFUND-7")
        spec = self.spec
        refund = self.refund_preview()
        registering = self.state == REGISTERING
        self._emit(Cancelled(refund.case, reason, dict(refund.amounts)))
        bounties = bounty_account(spec.id)
        why = f"refund {refund.case}"
        for player, amount in refund.amounts.items():
            entry = self.entries[player]
            bounty = entry.paid_bounty if registering else entry.held + entry.own_bounty
            from_pool = amount - entry.fee - bounty
            if registering:
                self._pay(HOUSE_FEES, entry.source, entry.fee, why)
                self._pay(self.pool, entry.source, from_pool, why)
                self._pay(bounties, entry.source, bounty, why)
                for stake in entry.stakes:                   # nothing was played: backers get their money back
                    self._pay(stakes_account(spec.id), cash(stake.backer), stake.price, why)
            else:
                self._pay_player(entry, HOUSE_FEES, entry.fee, why)       # backers share the fee back too
                self._pay_player(entry, self.pool, from_pool, why)
                self._pay_player(entry, bounties, bounty, why)
                self._release_stakes(entry)
        out = [e for e in self.entries.values() if not e.table and not registering]   # busted, round unfinished
        for entry in self.busted + out:                      # TR-PLAY-6: held bounties go to their holders
            self._pay_player(entry, bounties, entry.held, f"{why}: bounty held")
            entry.held = 0
            self._release_stakes(entry)
        self._pay(self.pool, ROUNDING, refund.remainder, f"{why}: rounding")
        self._pay(self.pool, guarantee_account(spec.id), self.pool_balance,
                  "guarantee not met: the overlay goes back (TR-REFUND-5)")
        self.state = CANCELLED
        self.pending_deal = None
        self.entries = {}
        for table_id in list(self.tables):
            self._close_table(table_id)
        return self._flush()

    # ------------------------------------------------------------------ plumbing

    def _pay(self, source: str, target: str, amount: int, reason: str) -> None:
        if amount > 0:
            if source == self.pool:
                self.pool_balance -= amount
            elif target == self.pool:
                self.pool_balance += amount
            self._emit(Payment(source, target, amount, reason))

    def _emit(self, event: object) -> None:
        self._events.append(event)

    def _flush(self) -> list:
        events, self._events = self._events, []
        return events
