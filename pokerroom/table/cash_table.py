"""A cash table: seats, button, posting, the clock of each decision, who may join or leave.

Theory of operation
-------------------
A :class:`CashTable` is pure logic around the hand engine. It takes commands
-- from players (``sit``, ``act``, ``sit_out``, ``leave`` ...) and from the
shell's timers (``start_hand``, ``timeout``, ``time_bank_expired``,
``offer_expired``, ``sit_out_expired``) -- and returns :mod:`events
<pokerroom.table.events>`. Every command takes ``now``, the time on the
clock that drives the table; the table reads no clock and no random source of
its own (the shuffle and the button draw are passed in). After every command
:meth:`CashTable.next_deadline` says which timer command is due next and when;
the shell keeps exactly one ``callLater`` for it.

An illegal command raises :class:`~pokerroom.errors.RuleViolation` (a code, a
sentence, the rule ID) and changes nothing: every check runs before the first
change.

Where state lives: seats in ``players`` (by seat number); the blind positions
of the last hand in ``positions`` (None: the next hand starts fresh,
HR-POST-4); the running :class:`~pokerroom.poker.hand.Hand` in ``hand`` and its
:class:`~pokerroom.table.decision_clock.DecisionClock` in ``clock``; memory of
other tables only behind the :class:`~pokerroom.table.seating_history.SeatingHistory`
port. Chips enter by ``sit``/``add_chips`` and leave by ``leave``; the
counters ``chips_in``, ``chips_out`` and ``rake`` let anyone check that none
are lost (the server moves the same amounts through the ledger).
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from pokerroom.cards import shuffled_deck
from pokerroom.errors import RuleViolation
from pokerroom.poker.actions import Action, Fold, LegalActions, verify_decision
from pokerroom.poker.hand import Hand
from pokerroom.poker.hand_setup import HandSetup, Seat
from pokerroom.poker.quick_init import quick_init
from pokerroom.poker.redact import Viewer
from pokerroom.poker.redact import redact as redact_hand_event
from pokerroom.table import events as ev
from pokerroom.table.blinds import HandPlan, NoHand, Positions, plan_hand, worse
from pokerroom.table.commands import (
    OfferExpired,
    SitOutExpired,
    StartHand,
    TableCommand,
    TimeBankExpired,
    Timeout,
    handler_of,
)
from pokerroom.table.decision_clock import (
    EXPECTS,
    RECONNECT,
    THINKING,
    TIME_BANK,
    TIME_BANK_EXPIRED,
    TIMEOUT,
    DecisionClock,
)
from pokerroom.table.hit_and_run import is_refusal, refusal_number, seconds_blocked
from pokerroom.table.rat_holing import binding_departure
from pokerroom.table.rules import TableRules
from pokerroom.table.seated_player import SeatedPlayer
from pokerroom.table.seating_history import Arrival, Departure, SeatingHistory
from pokerroom.table.snapshot import SeatState, TableSnapshot  # noqa: F401 - the snapshot's records, named here too

_CLOCK_COMMANDS = {TIMEOUT: Timeout, TIME_BANK_EXPIRED: TimeBankExpired}   # what a decision clock's phase expects


def _check_player_id(player_id: object) -> None:
    if type(player_id) is not str or not player_id:
        raise RuleViolation("bad_player_id", "a player id is a non-empty string")


def secure_draw(seats: Sequence[int]) -> int:
    """The button's seat for a fresh start, drawn with the system's secure generator (HR-POST-4, HR-RNG-1)."""
    return seats[secrets.randbelow(len(seats))]


@quick_init
@dataclass(frozen=True, slots=True)
class Deadline:
    """The next timer command: apply ``command`` at time ``at``."""

    at: float
    command: TableCommand

    @property
    def deals(self) -> bool:
        """A hand starts on it: the shell's timer holds it until the last hand's end is shown."""
        return type(self.command) is StartHand


class CashTable:
    """One cash table. Construct it with its rules and the seating-history port; then send it commands."""

    def __init__(self, rules: TableRules, history: SeatingHistory, *,
                 shuffle: Callable[[], list[int]] = shuffled_deck,
                 draw: Callable[[Sequence[int]], int] = secure_draw) -> None:
        self.rules = rules
        self.history = history
        self._shuffle = shuffle
        self._draw = draw
        self.players: dict[int, SeatedPlayer] = {}
        self._seat_index: dict[str, int] = {}      # player -> seat: kept wherever ``players`` changes
        self.positions: Positions | None = None
        self.plan: HandPlan | None = None       # how the running (or last) hand was dealt
        self._dealt: dict[int, SeatedPlayer] = {}   # who was dealt in, even if they have left since
        self.hand: Hand | None = None
        self.hand_number = 0
        self.clock: DecisionClock | None = None
        self._clock_due: tuple[DecisionClock | None, Deadline | None] = (None, None)    # the clock's deadline
        self.next_hand_at: float | None = None
        self.waiting_list: list[str] = []
        self.offers: dict[str, tuple[int, float]] = {}          # player -> (seat, expires_at)
        self.departed: dict[str, tuple[str | None, float, float]] = {}  # (owes, time bank, left at): HR-MB-5
        self._refusals_on_leave: dict[str, tuple[int, float]] = {}   # decided at the leave, told at removal
        self.seq = 0
        self.chips_in = 0
        self.chips_out = 0
        self.closing = False            # the room is closing the table: no new hand, everyone stands up
        self.rake = 0
        self._out: list[ev.TableEvent] = []

    # ------------------------------------------------------------------ queries

    @property
    def table_id(self) -> str:
        return self.rules.table_id

    def seat_of(self, player_id: str) -> int | None:
        """The player's seat, or None: from the index every seating and leaving keeps (asked several times an act,
        and of every table for each resume: a scan of the seats for each table a player is not at was a room's
        whole resume of 5,000 players)."""
        seat = self._seat_index.get(player_id) if type(player_id) is str else None
        if seat is None:
            return None
        p = self.players.get(seat)
        return seat if p is not None and p.player_id == player_id else None

    def player(self, player_id: str) -> SeatedPlayer:
        _check_player_id(player_id)
        seat = self.seat_of(player_id)
        if seat is None:
            raise RuleViolation("not_seated", f"{player_id} is not seated at this table")
        return self.players[seat]

    def free_seats(self) -> list[int]:
        return [s for s in range(1, self.rules.max_seats + 1) if s not in self.players]

    def in_hand(self, seat: int) -> bool:
        """Whether the player at ``seat`` holds live cards in the running hand."""
        if not self.dealt_in(seat):
            return False
        hand = self.hand
        return not hand.folded[hand.position[seat]]

    def dealt_in(self, seat: int) -> bool:
        """Whether the player now at ``seat`` was dealt into the running hand (folded or not).

        A seat left during a hand may be taken again before it ends; its new
        player is not in that hand.
        """
        p = self.players.get(seat)
        return (p is not None and self.hand is not None and not self.hand.ended
                and self._dealt.get(seat) is p)

    def viewer(self, player_id: str | None) -> Viewer:
        """How ``player_id`` sees the table's events: their seat's cards only if they were dealt them."""
        seat = self.seat_of(player_id) if type(player_id) is str else None
        if seat is None or (self.hand is not None and self._dealt.get(seat) is not self.players[seat]):
            return Viewer.observer()
        return Viewer.player(seat)

    def legal_actions(self, player_id: str) -> LegalActions | None:
        """What the player may do now, or None when it is not their turn."""
        legal = self.hand.legal_actions() if self.hand is not None else None
        seat = self.seat_of(player_id)
        return legal if legal is not None and legal.seat == seat else None

    def stacks(self) -> dict[int, int]:
        """Chips in front of each seat (during a hand: behind their bets)."""
        stacks = {s: p.stack for s, p in self.players.items()}
        stacks.update({p.seat: stack for p, stack in self._hand_players()})
        return stacks

    def _hand_players(self) -> list[tuple[SeatedPlayer, int]]:
        """Players dealt into the running hand who are still seated, with their stacks in it."""
        hand = self.hand
        if hand is None:
            return []
        dealt = self._dealt
        return [(p, stack) for seat, stack in zip(hand.seats, hand.stacks, strict=True)
                if (p := self.players.get(seat)) is not None and p is dealt[seat]]

    def snapshot(self, viewer: Viewer) -> TableSnapshot:
        """The table as ``viewer`` may see it now: what a reconnecting player resumes from (HR-DC-2).

        The running hand comes as its events so far, redacted for the viewer:
        a seated player sees their own hole cards and nobody else's.
        """
        hand = self.hand
        bets = self._hand_bets()
        seats = tuple(SeatState(s, p.player_id, stack, p.sitting_out, p.connected, p.owes, p.time_bank,
                                bets.get(s, 0))
                      for s, stack in sorted(self.stacks().items()) if (p := self.players[s]))
        hand_events: tuple = ()
        if viewer.kind == "player":             # a seat taken since the deal does not see the cards dealt to it
            occupant = self.players.get(viewer.seat)
            viewer = self.viewer(occupant.player_id if occupant else None)
        if self.hand is not None:
            hand_events = tuple(e for e in (redact_hand_event(x, viewer) for x in self.hand.events)
                                if e is not None)
        clock = self.clock
        return TableSnapshot(self.seq, self.table_id, seats, self.positions, hand_events,
                             None if clock is None else (clock.seat, clock.phase, clock.deadline),
                             tuple(self.waiting_list), tuple(hand.board) if hand else (),
                             tuple(hand.board2) if hand else (), tuple(hand.pots()) if hand else ())

    def _hand_bets(self) -> dict[int, int]:
        """This street's bets of the seats dealt into the running hand who are still seated."""
        return {p.seat: self.hand.bets[self.hand.position[p.seat]] for p, _ in self._hand_players()}

    def next_deadline(self) -> Deadline | None:
        """The earliest timer command due, for the shell to schedule."""
        due: list[Deadline] = []
        c = self.clock
        if c is not None:
            if c is self._clock_due[0]:         # asked after every command: one Deadline per decision clock
                deadline = self._clock_due[1]
            else:
                deadline = Deadline(c.deadline, _CLOCK_COMMANDS[EXPECTS[c.phase]](c.seat))
                self._clock_due = (c, deadline)
            if self.hand is not None and not self.offers and not self.waiting_list:
                return deadline                 # a hand running, nobody waiting: the only timer
            due.append(deadline)
        if self.hand is None and self.next_hand_at is not None and self._can_deal():
            due.append(Deadline(self.next_hand_at, StartHand()))
        for player_id, (_, expires) in self.offers.items():
            due.append(Deadline(expires, OfferExpired(player_id)))
        if self.waiting_list:
            for seat, p in self.players.items():
                if p.sitting_out and not self.dealt_in(seat):
                    due.append(Deadline(p.sat_out_at + self.rules.max_sit_out, SitOutExpired(seat)))
        return min(due, key=lambda d: d.at, default=None)

    def fire(self, deadline: Deadline, now: float) -> list[ev.TableEvent]:
        """Apply the command a :class:`Deadline` carries (what the shell's timer does)."""
        return self.apply(deadline.command, now)

    def apply(self, command: TableCommand, now: float) -> list[ev.TableEvent]:
        """Carry out one command record (:mod:`pokerroom.table.commands`): its method, by its type."""
        return handler_of(command)(self, command, now)

    # ------------------------------------------------------------------ joining and leaving

    def sit(self, player_id: str, seat: int | None, buy_in: int, now: float, *, client_type: str = "desktop",
            wait_for_big_blind: bool = False, restored: bool = False) -> list[ev.TableEvent]:
        """Take ``seat`` (None: the first free one) with ``buy_in`` chips. ``restored``: seated again by the process
        that took the table over, with the stack the void hand started with (TR-REFUND-1) -- their seat if it is
        free, any stack (their own chips, not a buy-in), no blind to post anew: they were playing here."""
        rules = self.rules
        _check_player_id(player_id)
        if self.closing and not restored:
            raise RuleViolation("table_closing", "this table is closing: choose another")
        if self.seat_of(player_id) is not None:
            raise RuleViolation("already_seated", "you already have a seat at this table")
        if restored:
            if type(buy_in) is not int or buy_in <= 0:
                raise RuleViolation("bad_amount", "a stack is a positive whole number of chips")
            seat = seat if seat in self.free_seats() else self._verify_seat(player_id, None)
        else:
            seat = self._verify_seat(player_id, seat)
            limit = rules.table_limit(client_type) if type(client_type) is str else None
            if limit is None:
                raise RuleViolation("unknown_client_type", f"unknown client type {client_type!r}", "AC-8")
            if self.history.tables_seated(player_id) >= limit:
                raise RuleViolation("too_many_tables",
                                    f"you already sit at {limit} tables, the most for a {client_type} client", "AC-8")
            self._verify_not_blocked(player_id, now)
            self._verify_buy_in(player_id, buy_in, now)
        owes, time_bank, left_at = self.departed.pop(player_id, (None, rules.time_bank.initial, -math.inf))
        if now - left_at >= rules.owed_posts_memory:
            owes, time_bank = None, rules.time_bank.initial
        p = SeatedPlayer(seat, player_id, buy_in, time_bank, new=not restored, owes=owes,
                         wait_for_big_blind=bool(wait_for_big_blind))
        self.players[seat] = p
        self._seat_index[player_id] = seat
        self.chips_in += buy_in
        self.history.record_seated(player_id, self.table_id)
        self.history.record_arrival(player_id, rules.game_key, Arrival(self.table_id, buy_in, now))
        self._emit(ev.PlayerSeated, seat, player_id, buy_in, p.wait_for_big_blind, owes)
        if player_id in self.waiting_list:
            self.waiting_list.remove(player_id)
            self._emit(ev.WaitingListChanged, tuple(self.waiting_list))
        if self.offers.pop(player_id, None) is not None:
            self._offer_seats(now)
        return self._done(now)

    def _verify_seat(self, player_id: str, seat: int | None) -> int:
        open_seats = [s for s in self.free_seats() if s not in self._reserved(player_id)]
        if seat is None:
            if not open_seats:
                raise RuleViolation("table_full", "there is no free seat; join the waiting list")
            offered = self.offers.get(player_id)
            return offered[0] if offered else open_seats[0]
        if type(seat) is not int or not 1 <= seat <= self.rules.max_seats:
            raise RuleViolation("no_such_seat", f"seats are numbered 1 to {self.rules.max_seats}")
        if seat in self.players:
            raise RuleViolation("seat_taken", f"seat {seat} is taken")
        if seat not in open_seats:
            raise RuleViolation("seat_reserved", f"seat {seat} is kept for a player from the waiting list")
        return seat

    def _reserved(self, player_id: str) -> set[int]:
        return {seat for other, (seat, _) in self.offers.items() if other != player_id}

    def _verify_not_blocked(self, player_id: str, now: float) -> None:
        rules = self.rules
        if not rules.hit_and_run_applies:
            return
        hnr = rules.hit_and_run
        refusals = self.history.refusals(player_id, rules.blind_level, now - 2 * hnr.window)
        left = seconds_blocked(hnr, refusals, now)
        if left > 0:
            minutes = math.ceil(left / 60)
            count = sum(1 for t in refusals if t > now - hnr.window)
            raise RuleViolation(
                "hit_and_run_block",
                f"you left {count} tables of {rules.blind_level} after fewer than {hnr.min_hands} "
                f"hands in the last {hnr.window / 3600:g} hours; you may join this blind level again in "
                f"{minutes} minute{'s' if minutes != 1 else ''}",
                "HR-HNR-5")

    def _verify_buy_in(self, player_id: str, buy_in: int, now: float) -> None:
        rules = self.rules
        if type(buy_in) is not int:
            raise RuleViolation("bad_amount", "a buy-in is a whole number of chips", "HR-STAKE-4")
        low, high = rules.min_buy_in, rules.max_buy_in
        since = now - rules.rat_hole_period
        left = binding_departure(self.history.departures(player_id, rules.game_key, since),
                                 self.history.arrivals(player_id, rules.game_key, since))
        if left is not None and now - left.at < rules.rat_hole_period and left.stack > low:
            if buy_in < left.stack:
                minutes = math.ceil((left.at + rules.rat_hole_period - now) / 60)
                raise RuleViolation(
                    "rat_holing",
                    f"you left a {rules.game_key} table with {{stack}}; for {minutes} more minutes "
                    f"you must sit with at least that much, not {{given}}", "HR-STAKE-3",
                    amounts={"stack": left.stack, "given": buy_in})
            high = max(high, left.stack)
        if not low <= buy_in <= high:
            raise RuleViolation("buy_in_out_of_range", "the buy-in here is {min} to {max}, not {given}", "HR-STAKE-4",
                                amounts={"min": low, "max": high, "given": buy_in})

    def leave(self, player_id: str, now: float) -> list[ev.TableEvent]:
        """Stand up. With live cards the hand is folded at the player's turn and they leave when it ends."""
        p = self.player(player_id)
        if p.leaving:
            raise RuleViolation("already_leaving", "you are already leaving after this hand")
        refusal = (0, 0.0) if self.closing else self._refusal_if_leaving(p, now)   # closing: not a hit-and-run
        if self.in_hand(p.seat):
            p.leaving = True
            p.sitting_out = True
            p.sat_out_at = now
            self._refusals_on_leave[p.player_id] = refusal
            if self.clock is not None and self.clock.seat == p.seat:
                self.clock = None
                self._fold_for_leaver(p.seat)
                self._continue(now)
            return self._done(now)
        if self.dealt_in(p.seat):
            p.stack = self.hand.stack(p.seat)        # folded: what they have left is final
        self._remove(p, now, ev.LEFT, refusal)
        return self._done(now)

    def close(self, now: float) -> list[ev.TableEvent]:
        """The room closes the table: no new hand; when none is running, everyone stands up with their chips.

        A closed table is not a player's choice to leave, so nobody's leaving
        counts for hit-and-run or bring-back-what-you-left (HR-HNR, HR-STAKE-3).
        """
        if self.closing:
            raise RuleViolation("table_closing", "this table is already closing")
        self.closing = True
        self.next_hand_at = None
        for player_id, (seat, _) in list(self.offers.items()):
            del self.offers[player_id]
            self._emit(ev.SeatOfferExpired, seat, player_id)
        if self.waiting_list:
            self.waiting_list.clear()
            self._emit(ev.WaitingListChanged, ())
        if self.hand is None:
            self._stand_everyone_up(now)
        return self._done(now)

    def _stand_everyone_up(self, now: float) -> None:
        for p in list(self.players.values()):
            del self.players[p.seat]
            self._seat_index.pop(p.player_id, None)
            self.chips_out += p.stack
            self.history.record_unseated(p.player_id, self.table_id)
            self._emit(ev.PlayerLeft, p.seat, p.player_id, p.stack, ev.TABLE_CLOSED, 0, 0.0)
        self.positions = None

    def _refusal_if_leaving(self, p: SeatedPlayer, now: float) -> tuple[int, float]:
        """Record a hit-and-run refusal for a leave now, if it is one; (refusal number, seconds blocked)."""
        rules = self.rules
        if not rules.hit_and_run_applies:
            return (0, 0.0)
        others = [q for q in self.players.values() if q is not p and not q.leaving]
        hnr = rules.hit_and_run
        if not is_refusal(hnr, p.hands_played, len(others), sum(q.sitting_out for q in others)):
            return (0, 0.0)
        self.history.record_refusal(p.player_id, rules.blind_level, now)
        refusals = self.history.refusals(p.player_id, rules.blind_level, now - hnr.window)
        number = refusal_number(hnr, refusals, now)
        return (number, hnr.block_for(number))

    def _remove(self, p: SeatedPlayer, now: float, reason: str, refusal: tuple[int, float]) -> None:
        del self.players[p.seat]
        self._seat_index.pop(p.player_id, None)
        self.chips_out += p.stack
        self.history.record_unseated(p.player_id, self.table_id)
        if not self.closing:                # a closing table's players are not leaving by choice (HR-STAKE-3)
            departure = Departure(self.table_id, p.stack, now)
            self.history.record_departure(p.player_id, self.rules.game_key, departure)
        self.departed[p.player_id] = (p.owes, p.time_bank, now)
        self._emit(ev.PlayerLeft, p.seat, p.player_id, p.stack, reason, refusal[0], refusal[1])
        if not self.players:
            self.positions = None       # an empty table is a new table: the button is drawn (HR-POST-4)
        self._offer_seats(now)

    # ------------------------------------------------------------------ waiting list

    def join_waiting_list(self, player_id: str, now: float) -> list[ev.TableEvent]:
        _check_player_id(player_id)
        if self.closing:
            raise RuleViolation("table_closing", "this table is closing: choose another")
        if self.seat_of(player_id) is not None:
            raise RuleViolation("already_seated", "you already have a seat at this table")
        if player_id in self.waiting_list:
            raise RuleViolation("already_waiting", "you are already on the waiting list")
        if any(s not in self._reserved(player_id) for s in self.free_seats()):
            raise RuleViolation("seat_available", "a seat is free: take it instead of waiting")
        self.waiting_list.append(player_id)
        self._emit(ev.WaitingListChanged, tuple(self.waiting_list))
        return self._done(now)

    def leave_waiting_list(self, player_id: str, now: float) -> list[ev.TableEvent]:
        _check_player_id(player_id)
        if player_id not in self.waiting_list:
            raise RuleViolation("not_waiting", "you are not on the waiting list")
        self.waiting_list.remove(player_id)
        self._emit(ev.WaitingListChanged, tuple(self.waiting_list))
        if player_id in self.offers:
            seat, _ = self.offers.pop(player_id)
            self._emit(ev.SeatOfferExpired, seat, player_id)
            self._offer_seats(now)
        return self._done(now)

    def offer_expired(self, player_id: str, now: float) -> list[ev.TableEvent]:
        """Timer: the player did not take the seat kept for them; it goes to the next on the list."""
        offer = self.offers.get(player_id) if type(player_id) is str else None
        if offer is None or now < offer[1]:
            raise RuleViolation("not_due", f"no seat offer to {player_id} has run out")
        del self.offers[player_id]
        self.waiting_list.remove(player_id)
        self._emit(ev.SeatOfferExpired, offer[0], player_id)
        self._emit(ev.WaitingListChanged, tuple(self.waiting_list))
        self._offer_seats(now)
        return self._done(now)

    def _offer_seats(self, now: float) -> None:
        free = [s for s in self.free_seats() if s not in self._reserved("")]
        waiting = [w for w in self.waiting_list if w not in self.offers]
        for seat, player_id in zip(free, waiting, strict=False):
            expires = now + self.rules.seat_offer
            self.offers[player_id] = (seat, expires)
            self._emit(ev.SeatOffered, seat, player_id, expires)

    def sit_out_expired(self, seat: int, now: float) -> list[ev.TableEvent]:
        """Timer: a player has sat out longer than allowed while others wait for a seat; they are removed."""
        p = self.players.get(seat) if type(seat) is int else None
        if (p is None or not p.sitting_out or not self.waiting_list or self.dealt_in(seat)
                or now < p.sat_out_at + self.rules.max_sit_out):
            raise RuleViolation("not_due", f"the player at seat {seat} may stay")
        self._remove(p, now, ev.SAT_OUT_TOO_LONG, (0, 0.0))
        return self._done(now)

    # ------------------------------------------------------------------ chips and options

    def add_chips(self, player_id: str, amount: int, now: float) -> list[ev.TableEvent]:
        """Top up between hands, up to the maximum buy-in (HR-STAKE-2)."""
        p = self.player(player_id)
        if self.dealt_in(p.seat):
            raise RuleViolation("between_hands_only", "chips can be added only between hands", "HR-STAKE-2")
        if type(amount) is not int or amount <= 0:
            raise RuleViolation("bad_amount", "add a positive whole number of chips", "HR-STAKE-2")
        if p.stack + amount < self.rules.min_buy_in:
            raise RuleViolation("below_min_buy_in", "add at least {need}, not {given}: the table minimum is {min}",
                                "HR-STAKE-4", amounts={"need": self.rules.min_buy_in - p.stack, "given": amount,
                                                       "min": self.rules.min_buy_in, "stack": p.stack})
        if p.stack + amount > self.rules.max_buy_in:
            raise RuleViolation("above_max_buy_in",
                                "you may have at most {max} on the table; you have {stack}, and {given} more is too "
                                "much", "HR-STAKE-2",
                                amounts={"max": self.rules.max_buy_in, "stack": p.stack, "given": amount})
        p.stack += amount
        self.chips_in += amount
        self._emit(ev.ChipsAdded, p.seat, amount, p.stack)
        return self._done(now)

    def sit_out(self, player_id: str, now: float) -> list[ev.TableEvent]:
        """Sit out from the next hand; live cards in this one are checked or folded when time runs out."""
        p = self.player(player_id)
        if p.sitting_out:
            raise RuleViolation("already_sitting_out", "you are already sitting out")
        self._sit_out(p, now, ev.BY_PLAYER)
        return self._done(now)

    def sit_in(self, player_id: str, now: float, *, wait_for_big_blind: bool = False) -> list[ev.TableEvent]:
        """Come back: post what is owed at the next hand, or wait for the big blind (HR-MB-1..4)."""
        p = self.player(player_id)
        if p.leaving:
            raise RuleViolation("leaving", "you are leaving this table")
        if not p.sitting_out:
            raise RuleViolation("not_sitting_out", "you are not sitting out")
        if p.stack == 0:
            raise RuleViolation("no_chips", "add chips before sitting in", "HR-STAKE-2")
        p.sitting_out = False
        p.wait_for_big_blind = bool(wait_for_big_blind)
        p.sit_out_next_hand = False
        self._emit(ev.PlayerSatIn, p.seat, p.owes, p.wait_for_big_blind)
        return self._done(now)

    def set_options(self, player_id: str, now: float, *, auto_post_blinds: bool | None = None,
                    sit_out_next_hand: bool | None = None, sit_out_next_big_blind: bool | None = None,
                    auto_muck: bool | None = None) -> list[ev.TableEvent]:
        """Auto-post blinds (off: sit out when a blind is due), sit out next hand/big blind, auto-muck (SD-2)."""
        p = self.player(player_id)
        options = {"auto_post_blinds": auto_post_blinds, "sit_out_next_hand": sit_out_next_hand,
                   "sit_out_next_big_blind": sit_out_next_big_blind, "auto_muck": auto_muck}
        for value in options.values():
            if value is not None and type(value) is not bool:
                raise RuleViolation("bad_option", f"an option is true or false, not {value!r}")
        for name, value in options.items():
            if value is not None:
                setattr(p, name, value)
        if auto_muck is not None and self.dealt_in(p.seat):
            self.hand.choose_show(p.seat, not auto_muck)
        return self._done(now)

    def disconnect(self, player_id: str, now: float) -> list[ev.TableEvent]:
        p = self.player(player_id)
        if p.connected:
            p.connected = False
            self._emit(ev.PlayerDisconnected, p.seat)
        return self._done(now)

    def reconnect(self, player_id: str, now: float) -> list[ev.TableEvent]:
        """Back online: same seat, same stack (HR-DC-2); a reconnect phase of the clock becomes the bank's."""
        p = self.player(player_id)
        if not p.connected:
            p.connected = True
            self._emit(ev.PlayerReconnected, p.seat)
            clock = self.clock
            if clock is not None and clock.seat == p.seat and clock.phase == RECONNECT:
                self._after_reconnect_time(p, now)     # back: the rest comes from the time bank
        return self._done(now)

    # ------------------------------------------------------------------ the hand

    def start_hand(self, now: float) -> list[ev.TableEvent]:
        """Timer: deal the next hand if two or more players can be dealt in."""
        if self.hand is not None:
            raise RuleViolation("hand_running", "a hand is already running")
        self.next_hand_at = None
        for p in self.players.values():
            if p.sit_out_next_hand and not p.sitting_out:
                p.sit_out_next_hand = False
                self._sit_out(p, now, ev.NEXT_HAND)
            elif p.stack == 0 and not p.sitting_out:
                self._sit_out(p, now, ev.NO_CHIPS)
        views = [p.view() for p in self.players.values()]
        rules = self.rules
        plan = plan_hand(views, max_seats=rules.max_seats, stakes=rules.stakes, previous=self.positions,
                         draw=self._draw)
        if isinstance(plan, NoHand):
            for seat in plan.sat_out:
                self._sit_out(self.players[seat], now, ev.SKIPPED_BLIND)
            return self._flush()
        self._deal(plan, now)
        return self._done(now)

    def _deal(self, plan: HandPlan, now: float) -> None:
        rules = self.rules
        for seat in plan.sat_out:
            self._sit_out(self.players[seat], now, ev.SKIPPED_BLIND)
        for seat, blind in plan.missed:
            p = self.players[seat]
            p.owes = worse(p.owes, blind)
            self._emit(ev.BlindMissed, seat, blind, p.owes)
        for seat, p in sorted(self.players.items()):
            if seat not in plan.dealt and not p.sitting_out and p.stack > 0:
                self._emit(ev.WaitingToPlay, seat,
                           ev.BUTTON_MUST_PASS if seat in plan.blocked else ev.WAITING_FOR_BIG_BLIND)
        for seat in plan.dealt:
            p = self.players[seat]
            p.new = False
            p.owes = None
            p.wait_for_big_blind = False
            p.hands_played += 1
        self.positions = plan.positions
        self.plan = plan
        self._dealt = {seat: self.players[seat] for seat in plan.dealt}
        self.hand_number += 1
        hand_id = f"{self.table_id}-{self.hand_number}"
        setup = HandSetup(
            hand_id, rules.variant, rules.stakes,
            tuple(Seat(s, self.players[s].player_id, self.players[s].stack) for s in plan.dealt),
            plan.button, plan.blinds, plan.posts, rules.rake, rules.run_it_twice, rules.name or self.table_id,
            rules.max_seats, rules.currency, datetime.fromtimestamp(now, UTC).isoformat(timespec="seconds"),
            frozenset(s for s in plan.dealt if not self.players[s].auto_muck))
        self.hand = Hand(setup, self._shuffle())
        self._emit_hand(self.hand.events)
        self._continue(now)

    def act(self, player_id: str, action: Action, now: float, decision: str | None = None) -> list[ev.TableEvent]:
        """A player's decision, passed to the hand once the table has checked it is theirs to make.

        ``decision`` is the id of the ``legal`` the client acts on: one for a decision that is not the player's
        current one is refused (``stale_decision``) before anything changes.
        """
        p = self.player(player_id)
        if decision is not None:
            hand, clock = self.hand, self.clock
            mine = hand is not None and clock is not None and clock.seat == p.seat and hand.to_act() == p.seat
            verify_decision(hand.decision() if mine else None, decision)
        if self.hand is None or self.clock is None:
            raise RuleViolation("no_decision", "there is no decision to make now", "BET-1")
        if getattr(action, "seat", None) != p.seat:
            raise RuleViolation("not_your_seat", f"you sit at seat {p.seat}", "BET-1")
        clock = self.clock
        if clock.phase == TIME_BANK:            # the bank's use is told first: the action checked before it
            self.hand.verify(action)
            used = min(p.time_bank, max(0.0, now - clock.started_at))
            p.time_bank -= used
            self._emit(ev.TimeBankUsed, p.seat, used, p.time_bank)
        events = self.hand.apply(action)        # an illegal action: refused here, before anything changed
        self.clock = None
        self._emit_hand(events)
        self._continue(now)
        return self._done(now)

    def timeout(self, seat: int, now: float) -> list[ev.TableEvent]:
        """Timer: the decision time (or reconnect time) of ``seat`` ran out (HR-TIME-2, HR-DC-1)."""
        return self._clock_ran_out(TIMEOUT, seat, now)

    def time_bank_expired(self, seat: int, now: float) -> list[ev.TableEvent]:
        """Timer: the time bank of ``seat`` ran out; the hand checks or folds for them (HR-TIME-3)."""
        return self._clock_ran_out(TIME_BANK_EXPIRED, seat, now)

    def _clock_ran_out(self, command: str, seat: int, now: float) -> list[ev.TableEvent]:
        clock = self.clock
        if (clock is None or type(seat) is not int or clock.seat != seat or EXPECTS[clock.phase] != command
                or now < clock.deadline):
            raise RuleViolation("not_due", f"no {command.replace('_', ' ')} is due for seat {seat}",
                                "HR-TIME-5")
        p = self.players[seat]
        phase = clock.next_phase(disconnected=not p.connected, reconnect_seconds=self.rules.reconnect_seconds,
                                 time_bank=p.time_bank, playing=not p.sitting_out)
        if phase == RECONNECT:
            seconds = self.rules.reconnect_seconds
            self.clock = DecisionClock(seat, RECONNECT, now, now + seconds)
            self._emit(ev.ReconnectTimeStarted, seat, seconds, now + seconds)
        elif phase == TIME_BANK:
            self._start_time_bank(p, now)
        else:
            if clock.phase == TIME_BANK:
                self._emit(ev.TimeBankUsed, seat, p.time_bank, 0.0)
                p.time_bank = 0.0
            self._act_for(seat, now)
        return self._done(now)

    def _start_time_bank(self, p: SeatedPlayer, now: float) -> None:
        self.clock = DecisionClock(p.seat, TIME_BANK, now, now + p.time_bank)
        self._emit(ev.TimeBankStarted, p.seat, p.time_bank, now + p.time_bank)

    def _after_reconnect_time(self, p: SeatedPlayer, now: float) -> None:
        if p.time_bank > 0 and not p.sitting_out:
            self._start_time_bank(p, now)
        else:
            self._act_for(p.seat, now)

    def _act_for(self, seat: int, now: float) -> None:
        """The table acts for a player out of time, sitting out or leaving: check if free, else fold."""
        assert self.hand is not None
        self.clock = None
        self._emit_hand(self.hand.timeout(seat))
        self._continue(now)

    def _fold_for_leaver(self, seat: int) -> None:
        """A player who left folds at their turn (in a run-it-twice vote: answers no)."""
        hand = self.hand
        assert hand is not None
        if hand.can_apply(Fold(seat)):
            self._emit_hand(hand.apply(Fold(seat)))
        else:
            self._emit_hand(hand.timeout(seat))

    def _continue(self, now: float) -> None:
        """After the hand moved: start the next player's clock, or end the hand."""
        hand = self.hand
        assert hand is not None
        while not hand.ended:
            seat = hand.to_act()
            p = self.players[seat]
            if p.leaving:
                self._fold_for_leaver(seat)
                continue
            seconds = self.rules.decision_times.for_street(hand.street_name)
            self.clock = DecisionClock(seat, THINKING, now, now + seconds)
            self._emit(ev.DecisionStarted, seat, seconds, 0.0 if p.sitting_out else p.time_bank, now + seconds)
            return
        self._end_hand(now)

    def _end_hand(self, now: float) -> None:
        hand = self.hand
        assert hand is not None and hand.ended
        self.clock = None
        tb = self.rules.time_bank
        players = self._hand_players()
        for p, stack in players:
            p.stack = stack
            p.hands_since_refill += 1
            if p.hands_since_refill >= tb.every_hands:
                p.hands_since_refill = 0
                added = min(tb.refill, tb.cap - p.time_bank)
                if added > 0:
                    p.time_bank += added
                    self._emit(ev.TimeBankRefilled, p.seat, added, p.time_bank)
        self.rake += hand.rake_total
        self.hand = None
        for p, _ in players:
            if p.leaving:
                self._remove(p, now, ev.LEFT, self._refusals_on_leave.pop(p.player_id, (0, 0.0)))
            elif not p.connected and not p.sitting_out and self.rules.sit_out_disconnected:
                self._sit_out(p, now, ev.DISCONNECTED)
            elif p.stack == 0 and not p.sitting_out:
                self._sit_out(p, now, ev.NO_CHIPS)
        if self.closing:
            self._stand_everyone_up(now)

    # ------------------------------------------------------------------ plumbing

    def _sit_out(self, p: SeatedPlayer, now: float, reason: str) -> None:
        p.sitting_out = True
        p.sat_out_at = now
        p.sit_out_next_big_blind = False
        self._emit(ev.PlayerSatOut, p.seat, reason)

    def _emit(self, cls: type, *fields: object) -> None:
        self.seq += 1
        self._out.append(cls(self.seq, *fields))

    def _emit_hand(self, events: Sequence[object]) -> None:
        assert self.hand is not None
        hand_id = self.hand.hand_id
        for e in events:
            self.seq += 1
            self._out.append(ev.HandEvent(self.seq, hand_id, e))

    def _can_deal(self) -> bool:
        return not self.closing and sum(1 for p in self.players.values() if not p.sitting_out and p.stack > 0) >= 2

    def _done(self, now: float) -> list[ev.TableEvent]:
        """Close a command: schedule the next hand when one may be dealt, return the events."""
        if self.hand is not None and self.hand.ended:
            self._end_hand(now)
        if self.hand is None and self.next_hand_at is None and self._can_deal():
            self.next_hand_at = now + self.rules.between_hands
        return self._flush()

    def _flush(self) -> list[ev.TableEvent]:
        out, self._out = self._out, []
        return out
