"""The tournament director: one event from registration to the last hand, as a pure state machine.

Theory of operation
-------------------
A :class:`Director` takes commands and returns events; it reads no clock and
does no I/O. Every command is a record of :mod:`tournament.commands`
applied by :meth:`Director.apply`; time arrives as such records too
(``LevelUp``, ``StartBreak``, ``EndBreak``, ``DealExpired``):
:meth:`Clock.next_command <tournament.clock.Clock.next_command>` says which
the shell should send next, and when. Every random choice (seat draw, table break order,
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

Where the code lives: this module keeps the entries, the tables, play and
cancellation, and the payments every part makes. The parts are objects the
director composes, each in its own module with the state only it changes, and
the director's commands for it: ``director.registration``
(:mod:`~tournament.registration`: entering and withdrawing, the start and its
seat draw, late seats, rebuys and add-ons, over the director's entries),
``director.clock``
(:mod:`~tournament.clock`: level, breaks, pauses, what is open),
``director.eliminations`` (:mod:`~tournament.eliminations`: the busted, places,
prizes, bounties, the winner), ``director.balancing`` (:mod:`~tournament.balancing`:
the break order and moves) and ``director.deal_desk`` (:mod:`~tournament.deal_desk`:
a deal between the finalists). They read the rest of the tournament through
the director. The records are those of :mod:`~tournament.entries`, the
account names those of :mod:`~tournament.accounts`, all re-exported here; the tables by player count
(:mod:`~tournament.floor`) and the lobby's chip order (:mod:`~tournament.standings`) are kept as tables
change, so no step lists the field. Every change is
marked in :attr:`Director.changes`, so :mod:`tournament.saved_state` saves a step's
changed records only.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import HOUSE_FEES, cash
from pokerroom.poker.actions import Action
from pokerroom.poker.variants import Stakes
from tournament import refunds
from tournament.accounts import (
    PACKAGES,
    ROUNDING,
    bounty_account,
    guarantee_account,
    pool_account,
    stakes_account,
    ticket_account,
    tournament_money,
)
from tournament.balancing import Balancing
from tournament.changes import Changes
from tournament.clock import Clock
from tournament.commands import TournamentCommand, handler_of
from tournament.deal_desk import DealDesk
from tournament.eliminations import Eliminations
from tournament.entries import CANCELLED, FINISHED, REGISTERING, RUNNING, Deal, Entry
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
    HandReturned,
    HandSent,
    HandVoided,
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
from tournament.floor import Floor
from tournament.places import Bust
from tournament.prizes import PayoutTable, prize_pool
from tournament.registration import Registration
from tournament.standings import Standings
from tournament.structure import TournamentSpec
from tournament.table import HandResult, TournamentTable

# What other modules read as ``td.<name>``: the director, its records, the account names and every event.
__all__ = [
    "Director", "Entry", "Deal", "REGISTERING", "RUNNING", "FINISHED", "CANCELLED", "ROUNDING", "PACKAGES",
    "pool_account", "bounty_account", "guarantee_account", "stakes_account", "ticket_account", "tournament_money",
    "BountyWon", "BreakEnded", "BreakStarted", "Broadcast", "BubbleBurst", "Busted", "Cancelled", "ChipsAdded",
    "DealAnswered", "DealAwaitingApproval", "DealFailed", "DealMade", "DealOffered", "DealProposed", "Eliminated",
    "Finished", "HandDealt", "HandForHand", "HandPlayed", "HandReturned", "HandSent", "HandVoided",
    "LevelStarted", "PackageAwarded", "Paused", "Payment",
    "PrizesFixed", "PrizeSubstituted", "RebuysClosed", "Registered", "RegistrationClosed", "Resumed", "Seated",
    "SeatWon", "SharesSold", "Started", "TableClosed", "Unregistered",
]


def _holds_nothing(player: str) -> bool:
    return False


class Director:
    """One tournament. ``rng`` is the tournament's seeded generator for draws (TR-PLAY-4, TR-REG-3)."""

    awaiting_approval = False                    # STAFF-1: a guarantee above the limit waits for an admin

    def __init__(self, spec: TournamentSpec, payouts: PayoutTable, rng: random.Random, *,
                 holds_target_seat: Callable[[str], bool] | None = None, awaiting_approval: bool = False) -> None:
        self.spec = spec
        self.awaiting_approval = awaiting_approval
        self.payouts = payouts
        self.rng = rng
        self.holds_target_seat = holds_target_seat or _holds_nothing
        self.state = REGISTERING
        self.entries: dict[str, Entry] = {}          # live (and, before the start, registered) entries
        self.used_entries: dict[str, int] = {}       # player -> entries so far, busted ones included
        self.pool_balance = 0                        # what the prize pool account holds, by our own book
        self.entries_total = 0
        self.registrations = 0                       # entries ever made, withdrawn ones too
        self.collected = 0
        self.protected: dict[tuple[str, str], int] = {}    # (table, player) -> hand given extra time (HR-DC-4)
        self.hand_for_hand = False
        self.showing: set[str] = set()               # players who turned auto-muck off: they show at showdown (SD-2)
        self.round_played: set[str] = set()
        self.round_busts: list[Bust] = []
        self.tables: dict[str, TournamentTable] = {}
        self.table_count = 0
        self._events: list = []
        self.changes = Changes()                     # what the next save stores (tournament.saved_state)
        self._floor: Floor | None = None             # the tables by player count (built when first asked)
        self._touched: set[str] = set()              # tables changed since the floor last looked
        self._standings: Standings | None = None     # the lobby's chip order (built when first asked)
        self._unranked: set[str] = set()             # tables changed since the standings last looked
        self._unplayed: dict[str, None] | None = None  # hand-for-hand: tables yet to play the round (when asked)
        self.registration = Registration(self)       # entering, the start and its seat draw, rebuys and add-ons
        self.clock = Clock(self)                     # the level, breaks, pauses; late registration and rebuys open
        self.eliminations = Eliminations(self)       # the busted, their places, prizes and bounties; the winner
        self.balancing = Balancing(self)             # the break order, and moves between tables
        self.deal_desk = DealDesk(self)              # a deal between the finalists

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        del state["holds_target_seat"]              # the shell's question; given again after a restore
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.__dict__.setdefault("showing", set())   # saved before the choice was kept
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

    @property
    def floor(self) -> Floor:
        """The tables indexed by player count, brought up to date with the tables touched since last asked."""
        floor = self._floor
        if floor is None:
            tables = self.tables.values()
            floor = self._floor = Floor((t.layout for t in tables), [t.id for t in tables if not t.in_hand])
        else:
            tables = self.tables
            for table_id in self._touched:
                table = tables.get(table_id)
                if table is not None:
                    floor.update(table_id, not table.in_hand)
        self._touched.clear()
        return floor

    def touch(self, table_id: str) -> None:
        """A table's seats, stacks or hand changed: the next save stores it; the floor and standings read it."""
        self.changes.table(table_id)
        self._touched.add(table_id)
        self._unranked.add(table_id)

    @property
    def standings(self) -> Standings:
        """Players left by chips (at the start of the hands in play), the average stack and each one's rank,
        brought up to date with the tables touched since last asked: the lobby's view of the field."""
        kept = self._standings
        touched = self._unranked if kept is not None else set(self.tables)
        if kept is None:
            kept = self._standings = Standings()
        tables = self.tables
        kept.read({t: tables[t].stacks for t in touched if t in tables}, touched)
        self._unranked = set()
        return kept

    def verify_drawn(self) -> None:
        if self.registration.drawing is not None:
            raise RuleViolation("seats_being_drawn", f"the seats of {self.spec.name} are being drawn: play begins "
                                "in a moment", "TR-REG-3")

    def table_of(self, player: str) -> TournamentTable:
        self.verify_drawn()
        entry = self.entries.get(player)
        if entry is None or not entry.table:
            raise RuleViolation("not_playing", f"{player} is not playing in {self.spec.name}", "TR-PLAY-4")
        return self.tables[entry.table]

    def ready_tables(self) -> list[str]:
        """Tables that may deal a hand now (none while paused, on a break, on a deal or finished)."""
        if (self.state != RUNNING or self.clock.paused or self.clock.on_break or self.deal_desk.pending_deal is not None
                or self.registration.drawing is not None):
            return []
        return [t for t in self.tables if self.can_deal(t)]

    def can_deal(self, table_id: str) -> bool:
        if (self.state != RUNNING or self.clock.paused or self.clock.on_break or self.deal_desk.pending_deal is not None
                or self.registration.drawing is not None):
            return False
        table = self.tables.get(table_id)
        if table is None or table.in_hand or (self.hand_for_hand and table_id in self.round_played):
            return False
        if self.eliminations.satellite_done():                # TR-PRIZE-6: it ends once the hands in play are over
            return False
        stacks = table.stacks
        return sum(1 for p in table.seats.values() if stacks[p] > 0) >= 2

    def live_entry(self, player: str) -> Entry:
        entry = self.entries.get(player)
        if self.state != RUNNING or entry is None:
            raise RuleViolation("not_playing", f"{player} is not playing in {self.spec.name}", "TR-REG-6")
        return entry

    def chips(self, player: str) -> int:
        """The player's chips now (between hands) or at the start of the hand in play."""
        table = self.table_of(player)
        return table.stacks[player]

    # ------------------------------------------------------------------ play

    def apply(self, command: TournamentCommand) -> list:
        """Carry out one command record (:mod:`tournament.commands`): its part's method, by its type; a record
        of no known type is refused (``unknown_command``) and changes nothing."""
        return handler_of(command)(self, command)

    def deal(self, table_id: str, deck: Sequence[int]) -> list:
        """Deal the next hand at ``table_id`` here, if it may (see :meth:`ready_tables`)."""
        table = self._dealing(table_id)
        events = table.start_hand(self._stakes(), deck, label=self._label(table_id), showing=self.showing)
        self._dealt(table_id)
        self.emit(HandDealt(table_id, tuple(events)))
        self._after_action(table)
        return self.flush()

    def send_hand(self, table_id: str) -> list:
        """Plan the next hand at ``table_id`` for another process to deal and play, if it may: the table is in
        that hand (no seat changes, TR-PLAY-4) until :meth:`hand_returned` or :meth:`hand_voided`. The plan is
        ``tables[table_id].away``; nothing is sent when fewer than two can play."""
        table = self._dealing(table_id)
        setup = table.send_hand(self._stakes(), label=self._label(table_id), showing=self.showing)
        self._dealt(table_id)
        if setup is not None:
            self.emit(HandSent(table_id, setup.hand_id))
        return self.flush()

    def hand_returned(self, result: HandResult) -> list:
        """A hand sent away ended: its stacks, busts and places as if it had been dealt here (TR-PLAY-3/6). A
        result for no hand away, or not matching the hand sent, is refused and changes nothing."""
        table = self.tables.get(result.table_id)
        if table is None:
            raise RuleViolation("no_hand_away", f"table {result.table_id} has no hand {result.hand_id} away",
                                "TR-PLAY-4")
        table.hand_returned(result)
        self.emit(HandReturned(table.id, result.hand_id, dict(result.end)))
        self.touch(table.id)
        self._hand_over(result)
        return self.flush()

    def hand_voided(self, table_id: str, hand_id: str) -> list:
        """The process playing a hand sent away died: the hand is void and every stack stays as it began
        (TR-REFUND-1); play goes on as after a hand nobody busted in."""
        table = self.tables.get(table_id)
        if table is None:
            raise RuleViolation("no_hand_away", f"table {table_id} has no hand {hand_id} away", "TR-PLAY-4")
        stacks = table.hand_voided(hand_id)
        self.emit(HandVoided(table_id, hand_id, stacks))
        self.touch(table_id)
        order = tuple(stacks)
        self._hand_over(HandResult(table_id, hand_id, stacks, dict(stacks), order, {}))
        return self.flush()

    def _dealing(self, table_id: str) -> TournamentTable:
        if not self.can_deal(table_id):
            raise RuleViolation("table_waiting", f"table {table_id} may not deal now", "TR-PLAY-2")
        return self.tables[table_id]

    def _stakes(self) -> Stakes:
        return self.spec.level(self.clock.level).stakes()

    def _label(self, table_id: str) -> str:
        return f"{self.spec.name} table {table_id}"

    def _dealt(self, table_id: str) -> None:
        self.touch(table_id)
        if self.hand_for_hand:
            self.round_played.add(table_id)
            if self._unplayed is not None:
                self._unplayed.pop(table_id, None)

    def act(self, player: str, action: Action, decision: str | None = None) -> list:
        table = self.table_of(player)
        events = table.act(player, action, decision)
        self.emit(HandPlayed(table.id, tuple(events)))
        self._after_action(table)
        return self.flush()

    def set_auto_muck(self, player: str, auto_muck: bool) -> list:
        """The player's choice for the rest of the event: off shows their beaten hand at showdown (SD-2), their own
        cards only (SEC-2); from the hand in play when it is dealt here, else from the next."""
        table = self.table_of(player)
        if type(auto_muck) is not bool:
            raise RuleViolation("bad_option", f"an option is true or false, not {auto_muck!r}")
        if auto_muck:
            self.showing.discard(player)
        else:
            self.showing.add(player)
        hand = table.hand
        if hand is not None and not hand.ended and player in hand.player_ids:
            hand.choose_show(hand.seats[hand.player_ids.index(player)], not auto_muck)
        return self.flush()

    @property
    def in_late_stage(self) -> bool:
        """HR-DC-4: the structure's late stage, at its number of players left or else once in the money."""
        if self.state != RUNNING:
            return False
        if self.spec.late_stage_players:
            return len(self.entries) <= self.spec.late_stage_players
        return self.eliminations.in_money

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
        self.emit(HandPlayed(table.id, tuple(events)))
        self._after_action(table)
        return self.flush()

    def _after_action(self, table: TournamentTable) -> None:
        if table.hand is not None and table.hand.ended:
            self.touch(table.id)
            self._hand_over(table.finish_hand())

    def _hand_over(self, result: HandResult) -> None:
        table = self.tables[result.table_id]
        busts = []
        for player in result.busted:
            entry = self.entries[player]
            busts.append(Bust(player, result.start[player], table.id, result.dealing_order.index(player)))
            self.eliminations.knockout(entry, result.eliminated_by.get(player, ()))
            table.unseat(player)
            entry.table = ""
            self.changes.entry(entry)
        if self.hand_for_hand:
            self.round_busts += busts
            if self._round_goes_on():
                return
            busts, self.round_busts, self.round_played = self.round_busts, [], set()
            self._unplayed = None
        elif self.round_busts:                      # hand-for-hand ended mid-round: settle what it left
            busts, self.round_busts = self.round_busts + busts, []
        if busts:
            self.eliminations.eliminate(busts)
        if self.state == RUNNING and self.eliminations.satellite_done() and not self.floor.in_hand:
            self.eliminations.finish()
        if self.state == RUNNING:
            self.balancing.make_queued()            # a director's moves asked during a hand (TR-PLAY-4)
            self.balancing.balance()
            self.deal_desk.offer_if_ready()

    def _round_goes_on(self) -> bool:
        """Hand-for-hand: a table is in a hand, or one that has not played the round may deal (what
        :meth:`ready_tables` says, without listing the field: tables yet to play are kept, and one found
        unable to deal while every table is between hands is dropped -- with no moves in a round, it stays so)."""
        if self.floor.in_hand:
            return True
        if (self.state != RUNNING or self.clock.paused or self.clock.on_break or self.deal_desk.pending_deal is not None
                or self.registration.drawing is not None or self.eliminations.satellite_done()):
            return False
        unplayed = self._unplayed
        if unplayed is None:
            played = self.round_played
            unplayed = self._unplayed = {t: None for t in self.tables if t not in played}
        while unplayed:
            table_id = next(iter(unplayed))
            if self.can_deal(table_id):
                return True
            del unplayed[table_id]
        return False

    # ------------------------------------------------------------------ a director's word

    def broadcast(self, text: str, by: str) -> list:
        self.emit(Broadcast(text, by))
        return self.flush()

    # ------------------------------------------------------------------ cancellation and refunds (TR-REFUND)

    def refund_preview(self) -> refunds.Refund:
        """What :meth:`cancel` would pay each player now, from the state at the start of the hands in play."""
        spec = self.spec
        if self.state == REGISTERING:
            return refunds.before_the_start({p: (e.paid_pool + e.paid_bounty, e.fee) for p, e in self.entries.items()})
        if self.state != RUNNING:
            raise RuleViolation("not_running", f"{spec.name} has nothing to refund", "TR-REFUND-7")
        stacks = self.stacks()
        out = {b.player for b in self.round_busts}            # busted in the round in play: not remaining
        waiting = self.spec.starting_stack                    # not seated yet: the start's draw goes on
        remaining = [refunds.Remaining(p, stacks[p] if e.table else waiting, e.fee, e.held, e.own_bounty)
                     for p, e in self.entries.items() if e.table or p not in out]
        k = len(remaining)
        unpaid: tuple[int, ...] = ()
        # TR-REFUND-5: only money collected is shared -- what of it the pool still holds (a guarantee's
        # overlay is not paid, and what rounding already took is not in the pool)
        shareable = min(self.collected - self.eliminations.prizes_paid, self.pool_balance)
        if self.eliminations.prizes is not None and k <= self.eliminations.paid_places:
            if self.deal_desk.deal_made or prize_pool(self.collected, spec.guarantee).overlay == 0:
                unpaid = tuple(self.eliminations.prizes[:k])         # the prizes as fixed (or as a deal left them)
            else:
                unpaid = self.eliminations.prizes_for(self.entries_total, self.collected, guarantee=0).amounts[:k]
            shareable = max(shareable, sum(unpaid))
        return refunds.after_the_start(remaining, max(0, shareable), unpaid)

    def cancel(self, reason: str) -> list:
        """TR-REG-1, TR-REFUND-2..7: everyone still in is refunded through the ledger with the case as reason."""
        if self.state not in (REGISTERING, RUNNING):
            raise RuleViolation("not_running", f"{self.spec.name} cannot be cancelled now", "TR-REFUND-7")
        spec = self.spec
        refund = self.refund_preview()
        registering = self.state == REGISTERING
        self.emit(Cancelled(refund.case, reason, dict(refund.amounts)))
        bounties = bounty_account(spec.id)
        why = f"refund {refund.case}"
        for player, amount in refund.amounts.items():
            entry = self.entries[player]
            bounty = entry.paid_bounty if registering else entry.held + entry.own_bounty
            from_pool = amount - entry.fee - bounty
            if registering:
                self.pay(HOUSE_FEES, entry.source, entry.fee, why)
                self.pay(self.pool, entry.source, from_pool, why)
                self.pay(bounties, entry.source, bounty, why)
                for stake in entry.stakes:                   # nothing was played: backers get their money back
                    self.pay(stakes_account(spec.id), cash(stake.backer), stake.price, why)
            else:
                self.eliminations.pay_player(entry, HOUSE_FEES, entry.fee, why)       # backers share the fee back too
                self.eliminations.pay_player(entry, self.pool, from_pool, why)
                self.eliminations.pay_player(entry, bounties, bounty, why)
                self.eliminations.release_stakes(entry)
        out = [e for e in self.entries.values() if not e.table and not registering]   # busted, round unfinished
        for entry in self.eliminations.busted + out:                      # TR-PLAY-6: held bounties go to their holders
            self.eliminations.pay_player(entry, bounties, entry.held, f"{why}: bounty held")
            entry.held = 0
            self.eliminations.release_stakes(entry)
        self.pay(self.pool, ROUNDING, refund.remainder, f"{why}: rounding")
        self.pay(self.pool, guarantee_account(spec.id), self.pool_balance,
                 "guarantee not met: the overlay goes back (TR-REFUND-5)")
        self.deal_desk.call_off()
        self.registration.call_off()
        self.balancing.order([])                             # every table closes: none is looked for in it
        self.end(CANCELLED)
        return self.flush()

    def end(self, state: str) -> None:
        """Finished or cancelled: no entry is live any more, and every table closes."""
        self.state = state
        self.entries = {}
        self.balancing.queued = []
        for table_id in list(self.tables):
            self.close_table(table_id)

    def close_table(self, table_id: str) -> None:
        del self.tables[table_id]
        self.floor.discard(table_id)
        self._unranked.add(table_id)
        if self._unplayed is not None:
            self._unplayed.pop(table_id, None)
        self.changes.table_closed(table_id)
        self.balancing.forget(table_id)
        self.emit(TableClosed(table_id))

    def set_hand_for_hand(self) -> None:
        """Hand-for-hand play (TR-PLAY-3) on the bubble: one player more than the places paid, at several tables."""
        live = self.floor.live_tables
        eliminations = self.eliminations
        places = eliminations.paid_places if eliminations.prizes is not None else eliminations.places()
        on = not eliminations.in_money and live > 1 and len(self.entries) == places + 1
        if on != self.hand_for_hand:
            self.hand_for_hand = on
            self.round_played = set()
            self._unplayed = None
            self.emit(HandForHand(on))

    # ------------------------------------------------------------------ plumbing

    def pay(self, source: str, target: str, amount: int, reason: str) -> None:
        if amount > 0:
            if source == self.pool:
                self.pool_balance -= amount
            elif target == self.pool:
                self.pool_balance += amount
            self.emit(Payment(source, target, amount, reason))

    def emit(self, event: object) -> None:
        self._events.append(event)

    def flush(self) -> list:
        events, self._events = self._events, []
        return events
