"""The tournament hall: directors on the room's reactor -- clock, timers, decks, ledger, store and fan-out.

Theory of operation
-------------------
The :class:`~tournament.director.Director` is pure; the hall is its thin
Twisted shell, composed into the room by :mod:`pokerroom.app`. Every command,
from a client or from a timer, goes through :meth:`TournamentHall._run`, which

1. posts the director's :class:`~tournament.director.Payment` s to the room's
   ledger, in order (money moves nowhere else);
2. writes those transfers and the director's snapshot in one store call, so
   after a crash the store holds a director that agrees with the ledger. A
   snapshot never holds a hand: each table's stacks are those at the start of
   its hand in play, which is what TR-REFUND refunds from (and no deck is
   stored, HR-RNG-2);
3. pushes the events: tournament events to subscribers and entrants, hand
   events to the players of that table, each hand event passed through the one
   redaction function as the viewer they are;
4. sets the timers the director's state asks for: the level clock
   (:meth:`~tournament.director.Director.schedule`), the next hand at each
   table that may deal, the decision of the player to act (a player who is
   away is checked or folded when it runs out, HR-DC-3), and a deal's limit.

On start, :meth:`recover` refunds every tournament the store says was
registering or running (the server stopped without finishing it), per
TR-REFUND, through the ledger with the case as the reason.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import fields, is_dataclass, replace
from fractions import Fraction
from functools import partial
from random import Random
from typing import Any

from twisted.logger import Logger

from pokerroom import players
from pokerroom.cards import shuffled_deck
from pokerroom.errors import RuleViolation
from pokerroom.money.ledger import PROMOTIONS
from pokerroom.net.schema import Request, ok
from pokerroom.poker import events as he
from pokerroom.poker.actions import action_named
from pokerroom.poker.events import event_to_dict, wire_name
from pokerroom.poker.redact import Viewer, redact
from pokerroom.poker.variants import VARIANTS
from pokerroom.security.facts import hand_facts
from tournament import director as td
from tournament import saved_state
from tournament.bounds import EventBounds
from tournament.event_quota import DirectorQuota
from tournament.invitation_desk import InvitationDesk
from tournament.prizes import PayoutTable, prize_pool
from tournament.structure import PAYOUTS, STRUCTURES, Break, StructureError, TournamentSpec

_SEATING = (td.Registered, td.Unregistered, td.Seated, td.Eliminated)
FIXED_FIELDS = frozenset({"id", "name", "start_at", "payouts", "levels", "breaks", "game", "currency",
                          "satellite_target", "progressive_share", "satellite_seat_value", "satellite_seat_fee"})
BOOL_SETTINGS = frozenset({"deals", "director_approves_deals", "remainder_to_top"})
# whole-number settings a director may give (beyond the TournamentSpec fields): see TournamentHall._changes
EXTRA_SETTINGS = ("level_seconds", "pko_percent", "break_after_level", "break_seconds")
_QUIET = (td.HandDealt, td.HandPlayed)          # events that change nothing a snapshot keeps


@contextmanager
def _structure_errors() -> Iterator[None]:
    """A definition that cannot be run is the director's error to fix, in a sentence (TR-PLAY-1)."""
    try:
        yield
    except (StructureError, TypeError, ValueError) as e:
        raise RuleViolation("bad_structure", f"the settings do not make a tournament: {e}", "TR-PLAY-1") from None


def wire(value: Any) -> Any:
    """An event's fields as msgpack/JSON-friendly data."""
    if is_dataclass(value):
        return {f.name: wire(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, tuple | list):
        return [wire(v) for v in value]
    if isinstance(value, dict):
        return {str(k): wire(v) for k, v in value.items()}
    return value


class TournamentHall:
    log = Logger()

    def __init__(self, room: Any, *, decision_seconds: float = 20.0, between_hands: float = 1.0,
                 clock_scale: float = 1.0, shuffle: Callable[[], list[int]] = shuffled_deck,
                 bounds: EventBounds | None = None) -> None:
        self.room = room
        self.reactor = room.reactor
        self.store = room.store
        self.decision_seconds = decision_seconds
        self.between_hands = between_hands
        self.clock_scale = clock_scale              # a test room runs its levels faster; 1.0 in production
        self.shuffle = shuffle
        self.bounds = bounds or EventBounds()       # STAFF-1: what a director may put in an event alone
        self.directors: dict[str, td.Director] = {}
        self.created_by: dict[str, str] = {}
        self.watchers: dict[str, dict[Any, None]] = {}
        self.entrants: dict[str, set[str]] = {}
        self.dealt: dict[tuple[str, str], dict[int, str]] = {}     # (tournament, table) -> seats of its hand
        self.hands: dict[tuple[str, str], tuple[list, list]] = {}  # (tournament, table) -> its hand's events, times
        self.offers: dict[tuple[str, str], tuple[int, int]] = {}    # (tournament, seller) -> (percent, markup %)
        self.clock: dict[str, tuple[str, Any]] = {}                  # tournament -> (command, delayed call)
        self.paused_left: dict[str, tuple[str, float]] = {}
        self.next_hand: dict[tuple[str, str], Any] = {}
        # (tournament, table) -> (player to act, events so far, timer, when their time bank started or None)
        self.decisions: dict[tuple[str, str], tuple[str, int, Any, float | None]] = {}
        self.banks: dict[tuple[str, str], float] = {}               # (tournament, player) -> time bank left
        self.deal_call: dict[str, Any] = {}
        self.start_call: dict[str, Any] = {}
        self.retire_call: dict[str, Any] = {}                       # ended event -> when it leaves the memory
        self.quota = DirectorQuota()                                 # STAFF-1: one director's share of the room
        self.invitations = InvitationDesk(self)                      # directors' invitations to paid events (STAFF-2)

    # ------------------------------------------------------------------ composition

    def install(self) -> None:
        """Register the hall's requests with the room."""
        self.room.serve(self, {"tournament_list", "tournament_details", "tournament_subscribe"})
        self.room.on_disconnect.append(self._forget)
        self.invitations.install()

    def recover(self) -> dict[str, td.Cancelled]:
        """Refund every tournament the server stopped without finishing (TR-REFUND-2..7); blocking, at start."""
        refunded = {}
        for record in self.store.unfinished_tournaments():
            director: td.Director = saved_state.restore(saved_state.from_rows(record.rows))
            self.directors[record.id] = director
            self.created_by[record.id] = record.created_by
            events = director.cancel("the server stopped during the tournament; refunded on restart")
            self._post_and_store(director, events, sync=True)
            self._retire_later(director)
            refunded[record.id] = next(e for e in events if isinstance(e, td.Cancelled))
            self.log.warn("tournament {id} refunded after a crash ({case})", id=record.id,
                          case=refunded[record.id].case)
        return refunded

    def create(self, spec: TournamentSpec, by: str) -> td.Director:
        if spec.id in self.directors or self.store.tournament(spec.id) is not None:
            raise RuleViolation("tournament_exists", f"a tournament {spec.id!r} already exists", "TR-REG-1")
        pending = self.bounds.check(spec)
        now = self.reactor.seconds()
        open_events = [tid for tid, d in self.directors.items() if d.state in (td.REGISTERING, td.RUNNING)]
        own = sum(1 for tid in open_events if self.created_by.get(tid) == by)
        self.quota.check(self.bounds, by, len(open_events), own, now)   # a rogue director fills neither memory
        reserve = self._reserve(spec.id, spec.guarantee)        # STAFF-1: house money, held for this event
        payouts = PayoutTable.load(PAYOUTS / f"{spec.payouts}.toml")
        seed = secrets.randbits(64)             # the tournament's seeded generator (TR-PLAY-4), recorded
        director = td.Director(spec, payouts, Random(seed), holds_target_seat=self._holds_seat(spec))
        director.awaiting_approval = pending
        self.directors[spec.id] = director
        self.created_by[spec.id] = by
        self.quota.created(by, now)
        self.room.write(self.store.audit, "tournament_created",
                         {"tournament": spec.id, "by": by, "seed": seed, "spec": wire(spec),
                          "awaiting_approval": pending}, self.reactor.seconds())
        self._run(director, reserve)
        if spec.start_at is not None:
            delay = max(0.0, spec.start_at - self.reactor.seconds())
            self.start_call[spec.id] = self.reactor.callLater(delay, self._start_due, spec.id)
        return director

    def _reserve(self, tid: str, amount: int) -> list:
        """The payment that holds ``amount`` more (less, when negative) of promotions for ``tid`` (STAFF-1)."""
        held = td.guarantee_account(tid)
        if amount < 0:
            return [td.Payment(held, PROMOTIONS, -amount, "guarantee lowered: back to promotions")]
        have = self.room.ledger.balance(PROMOTIONS)
        if amount > have:
            raise RuleViolation("guarantee_not_covered", f"the house promotions account holds {have}, not the "
                                f"{amount} this guarantee needs: an admin funds it first", "STAFF-1")
        return [td.Payment(PROMOTIONS, held, amount, "guarantee reserved")] if amount else []

    def approve(self, tid: str, by: str, reason: str) -> td.Director:
        """STAFF-1: an admin lets an event with a guarantee above the limit open; recorded with who and why."""
        d = self._director(tid)
        d.approve()
        self.room.audit("tournament_approved", tournament=tid, by=by, reason=reason, guarantee=d.spec.guarantee)
        self._run(d, [])
        return d

    def _holds_seat(self, spec: TournamentSpec) -> Callable[[str], bool]:
        target = spec.satellite_target

        def holds(player: str) -> bool:         # TR-PRIZE-5: already in the target, or out of its entries
            d = self.directors.get(target)
            return d is not None and (player in d.entries or d.used_entries.get(player, 0) > d.spec.re_entries)

        return holds

    def _start_due(self, tournament: str) -> None:
        self.start_call.pop(tournament, None)
        d = self.directors[tournament]
        if d.state != td.REGISTERING:
            return
        if d.awaiting_approval:                                  # STAFF-1: never approved, never played
            self._run(d, d.cancel("its guarantee was not approved by an admin before the start"))
        elif len(d.entries) < d.spec.min_players:                  # TR-REG-1: the room cancels it
            self._run(d, d.cancel(f"fewer than {d.spec.min_players} players registered"))
        else:
            self._run(d, d.start())

    # ------------------------------------------------------------------ the one path of every command

    def _run(self, d: td.Director, events: list) -> list:
        self._post_and_store(d, events)
        self._fan_out(d, events)
        self._set_timers(d, events)
        self.invitations.closed(d)
        self._retire_later(d)
        return events

    def _retire_later(self, d: td.Director) -> None:
        """An ended event stays in the lobby ``keep_ended_minutes``, then leaves the memory; the store keeps it."""
        tid = d.spec.id
        if d.state in (td.FINISHED, td.CANCELLED) and tid not in self.retire_call:
            self.retire_call[tid] = self.reactor.callLater(self.bounds.keep_ended_minutes * 60.0, self._retire, tid)

    def _retire(self, tid: str) -> None:
        self.retire_call.pop(tid, None)
        self._stop_timers(tid)
        self.directors.pop(tid, None)
        self.created_by.pop(tid, None)
        self.watchers.pop(tid, None)
        self.entrants.pop(tid, None)
        for keyed in (self.dealt, self.hands, self.offers, self.banks):
            for key in [k for k in keyed if k[0] == tid]:
                del keyed[key]
        self.invitations.book.forget(tid)
        self.quota.forget_idle(self.reactor.seconds())

    def _post_and_store(self, d: td.Director, events: list, sync: bool = False) -> None:
        now = self.reactor.seconds()
        ledger = self.room.ledger
        transfers = [ledger.move(e.source, e.target, e.amount, e.reason, d.spec.id, now)
                     for e in events if isinstance(e, td.Payment)]
        held = td.guarantee_account(d.spec.id)
        if d.state in (td.FINISHED, td.CANCELLED) and ledger.balance(held) > 0:     # STAFF-1: unused, returned
            transfers.append(ledger.move(held, PROMOTIONS, ledger.balance(held), "guarantee unused: back to "
                                         "promotions", d.spec.id, now))
        self.room.record_transfers(*transfers, store=False)     # stored below, with the snapshot; flagged (AC-6)
        if events and all(isinstance(e, _QUIET) for e in events):
            tables = [d.tables.get(table_id) for table_id in {e.table for e in events}]
            if all(t is not None and t.hand is not None for t in tables):
                return                                      # mid-hand: nothing a snapshot keeps has changed
        args = (d.spec.id, d.spec.name, d.state, saved_state.step(d), self.created_by.get(d.spec.id, ""),
                transfers, now)
        if sync:
            self.store.save_tournament(*args)
        else:
            self.room.write(self.store.save_tournament, *args)

    def _fan_out(self, d: td.Director, events: list) -> None:
        tid = d.spec.id
        entrants = self.entrants.setdefault(tid, set())
        for e in events:
            if isinstance(e, td.Registered):
                entrants.add(e.player)
                self.banks[(tid, e.player)] = float(d.spec.time_bank)     # a time bank per entry
            elif isinstance(e, td.Unregistered):
                entrants.discard(e.player)
        audience = None
        for e in events:
            if isinstance(e, _SEATING):                 # joins, leaves and moves are kept for review (SEC-1)
                self.room.audit("tournament_seat", tournament=tid, what=wire_name(type(e)), **wire(e))
            if isinstance(e, td.HandDealt | td.HandPlayed):
                self._hand_events(d, e)
            elif not isinstance(e, td.Payment):
                if audience is None:
                    audience = self._audience(tid)
                message = {"type": "tournament_event", "tournament": tid, "event": {"type": wire_name(type(e)),
                                                                                   **wire(e)}}
                for session in audience:
                    session.push(message)

    def _audience(self, tid: str) -> list:
        """Subscribers and everyone who entered (busted players too: they see how it ends)."""
        seen = dict(self.watchers.get(tid, {}))
        for player in self.entrants.get(tid, ()):
            session = self.room.by_player.get(player)
            if session is not None and session.connection is not None:
                seen[session] = None
        return list(seen)

    def _hand_events(self, d: td.Director, e: td.HandDealt | td.HandPlayed) -> None:
        """Each player dealt into the hand gets its events as their seat may see them -- its end included,
        even when they have since busted, moved, or their table broke."""
        key = (d.spec.id, e.table)
        table = d.tables.get(e.table)
        if isinstance(e, td.HandDealt) and table is not None:
            self.dealt[key] = dict(table.seats)
            self.hands[key] = ([], [])
        self._keep_hand(d, key, e.events)
        seats = self.dealt.get(key, {})
        turn = table.to_act() if table is not None else None
        clock = None
        if turn is not None:                # whose turn, and their time: the decision's, then their time bank
            clock = {"player": turn[0], "seat": table.seat_of(turn[0]), "seconds": self.decision_seconds,
                     "time_bank": self.banks.get((d.spec.id, turn[0]), 0.0)}
        for seat, player in seats.items():
            session = self.room.by_player.get(player)
            if session is None or session.connection is None:
                continue
            viewer = Viewer.player(seat)
            shown = [event_to_dict(x) for x in (redact(ev, viewer) for ev in e.events) if x is not None]
            message = {"type": "tournament_table_events", "tournament": d.spec.id, "table": e.table,
                       "seat": seat, "events": shown}
            if clock is not None:
                message["to_act"] = clock
            if turn is not None and turn[0] == player:
                legal = turn[1]
                message["legal"] = legal.to_wire()
            session.push(message)

    def _keep_hand(self, d: td.Director, key: tuple[str, str], events: tuple) -> None:
        """Store a tournament hand once it has ended, all cards and its facts, as a cash hand is (SEC-1)."""
        try:
            self._store_hand(d, key, events)
        except Exception:                                               # noqa: BLE001 - play goes on; logged
            self.hands.pop(key, None)
            self.log.failure("a hand at {table} could not be stored", table=key[1])

    def _store_hand(self, d: td.Director, key: tuple[str, str], events: tuple) -> None:
        kept = self.hands.get(key)
        if kept is None:
            return
        hand, times = kept
        hand.extend(events)
        times.extend([self.reactor.seconds()] * len(events))
        if not any(isinstance(x, he.DeckRevealed) for x in events):
            return
        del self.hands[key]
        started = next(x for x in hand if isinstance(x, he.HandStarted))
        seats = {x.seat: x.player_id for x in hand if isinstance(x, he.SeatDealtIn)}
        start = {x.player_id: x.stack for x in hand if isinstance(x, he.SeatDealtIn)}
        ended = next(x for x in hand if isinstance(x, he.HandEnded))
        now = self.reactor.seconds()
        facts = partial(hand_facts, hand, table_id=key[1], game_key=f"tournament {d.spec.id}", at=now,
                        tournament=d.spec.id, bounty=d.spec.bounty > 0)      # on the writer's thread
        self.room.write(self.store.hand_started, started.hand_id, key[1], now, start, d.spec.id)
        self.room.write(self.store.hand_ended, started.hand_id, now, {seats[s]: c for s, c in ended.stacks},
                         ended.rake, [event_to_dict(x) for x in hand], None, facts, times)

    # ------------------------------------------------------------------ timers

    def _set_timers(self, d: td.Director, events: list) -> None:
        tid = d.spec.id
        if d.state in (td.FINISHED, td.CANCELLED):
            self._stop_timers(tid)
            return
        self._set_clock(d, events)
        for key in [k for k in self.decisions if k[0] == tid and (k[1] not in d.tables
                                                                     or d.tables[k[1]].hand is None)]:
            call = self.decisions.pop(key)[2]                    # the hand ended: its decision timer goes
            if call.active():
                call.cancel()
        for table_id, table in d.tables.items():
            key = (tid, table_id)
            if table.hand is not None:
                self._set_decision(d, table_id)
            elif d.can_deal(table_id) and key not in self.next_hand:
                self.next_hand[key] = self.reactor.callLater(self.between_hands, self._deal, tid, table_id)
        if any(isinstance(e, td.DealOffered) for e in events):
            self.deal_call[tid] = self.reactor.callLater(d.spec.deal_seconds, self._deal_expired, tid)
        if any(isinstance(e, td.DealMade | td.DealFailed | td.DealAwaitingApproval) for e in events):
            call = self.deal_call.pop(tid, None)        # decided, or waiting for the director: no more time limit
            if call is not None and call.active():
                call.cancel()

    def _set_clock(self, d: td.Director, events: list) -> None:
        tid = d.spec.id
        if any(isinstance(e, td.DealProposed) for e in events):
            self._hold_clock(tid)                         # TR-DEAL-1: play pauses, and so does the clock
        if d.paused or d.pending_deal is not None:
            return
        if any(isinstance(e, td.DealMade | td.DealFailed) for e in events) and tid in self.paused_left:
            command, left = self.paused_left.pop(tid)
            self.clock[tid] = (command, self.reactor.callLater(left, self._tick, tid, command))
            return
        step = d.schedule()
        current = self.clock.get(tid)
        moved = any(isinstance(e, td.LevelStarted | td.BreakStarted | td.BreakEnded | td.Started | td.Resumed)
                    for e in events)
        if step is None or (current is not None and not moved):
            return
        if current is not None and current[1].active():
            current[1].cancel()
        command, seconds = step
        left = self.paused_left.pop(tid, (command, seconds * self.clock_scale))
        self.clock[tid] = (command, self.reactor.callLater(left[1], self._tick, tid, command))

    def _tick(self, tid: str, command: str) -> None:
        self.clock.pop(tid, None)
        d = self.directors[tid]
        try:
            self._run(d, getattr(d, command)())
        except RuleViolation as refusal:
            self.log.warn("tournament {id}: the clock's {command} was refused: {why}", id=tid, command=command,
                          why=refusal.message)

    def _deal(self, tid: str, table_id: str) -> None:
        self.next_hand.pop((tid, table_id), None)
        d = self.directors[tid]
        if d.can_deal(table_id):
            self._run(d, d.deal(table_id, self.shuffle()))

    def _set_decision(self, d: td.Director, table_id: str) -> None:
        tid = d.spec.id
        key = (tid, table_id)
        table = d.tables[table_id]
        turn = table.to_act()
        current = self.decisions.get(key)
        if turn is None:
            return
        marker = len(table.hand.events)
        if current is not None and current[0] == turn[0] and current[1] == marker:
            return
        if current is not None and current[2].active():
            current[2].cancel()
        call = self.reactor.callLater(self.decision_seconds, self._timed_out, tid, table_id, turn[0], marker)
        self.decisions[key] = (turn[0], marker, call, None)

    def _timed_out(self, tid: str, table_id: str, player: str, marker: int) -> None:
        key = (tid, table_id)
        d = self.directors[tid]
        table = d.tables.get(table_id)
        current = self.decisions.get(key)
        if table is None or table.hand is None or len(table.hand.events) != marker or current is None:
            return
        session = self.room.by_player.get(player)
        connected = session is not None and session.connection is not None
        extra = d.reconnect_time(player, connected) if current[3] is None else 0
        if extra:                                       # HR-DC-4: late stage, disconnected: time to come back
            call = self.reactor.callLater(extra, self._timed_out, tid, table_id, player, marker)
            self.decisions[key] = (player, marker, call, None)
            message = {"type": "tournament_event", "tournament": tid,
                       "event": {"type": "reconnect_time_started", "player": player, "seconds": extra}}
            for other in self.dealt.get(key, {}).values():     # the table sees why play waits
                watcher = self.room.by_player.get(other)
                if watcher is not None and watcher.connection is not None:
                    watcher.push(message)
            return
        bank = self.banks.get((tid, player), 0.0)
        if current[3] is None and bank > 0:             # the decision's time is up: the time bank runs
            call = self.reactor.callLater(bank, self._timed_out, tid, table_id, player, marker)
            self.decisions[key] = (player, marker, call, self.reactor.seconds())
            session = self.room.by_player.get(player)
            if session is not None and session.connection is not None:
                session.push({"type": "tournament_event", "tournament": tid,
                              "event": {"type": "time_bank_started", "player": player, "seconds": bank}})
            return
        if current[3] is not None:
            self.banks[(tid, player)] = 0.0
        self.decisions.pop(key)
        self._run(d, d.timeout(player))                 # HR-DC-1, TR-PLAY-5: check, else fold

    def _used_bank(self, tid: str, table_id: str, player: str) -> None:
        """A player acting on their time bank keeps what is left of it for later decisions."""
        current = self.decisions.get((tid, table_id))
        if current is not None and current[0] == player and current[3] is not None:
            left = self.banks.get((tid, player), 0.0) - (self.reactor.seconds() - current[3])
            self.banks[(tid, player)] = max(0.0, left)

    def _deal_expired(self, tid: str) -> None:
        self.deal_call.pop(tid, None)
        d = self.directors[tid]
        if d.pending_deal is not None:
            self._run(d, d.deal_expired())

    def _stop_timers(self, tid: str) -> None:
        calls = [self.clock.pop(tid, (None, None))[1], self.deal_call.pop(tid, None), self.start_call.pop(tid, None)]
        calls += [self.next_hand.pop(k) for k in [k for k in self.next_hand if k[0] == tid]]
        calls += [self.decisions.pop(k)[2] for k in [k for k in self.decisions if k[0] == tid]]
        self.paused_left.pop(tid, None)                 # a finished tournament's clock holds nothing
        for call in calls:
            if call is not None and call.active():
                call.cancel()

    def _forget(self, session: Any) -> None:
        for watchers in self.watchers.values():
            watchers.pop(session, None)

    # ------------------------------------------------------------------ players' requests

    def _director(self, tournament: str) -> td.Director:
        d = self.directors.get(tournament)
        if d is None:
            raise RuleViolation("unknown_tournament", f"there is no tournament {tournament!r} in the lobby (an event "
                                f"leaves it {self.bounds.keep_ended_minutes} minutes after it ends; its hands "
                                "and results stay in the room's history)")
        return d

    def next_break_in(self, d: td.Director) -> float | None:
        """Seconds of play until the next scheduled break (TR-PLAY-2), as the lobby shows it."""
        if d.state != td.RUNNING or not d.spec.breaks:
            return None
        if d.on_break:
            return 0.0
        left = self.clock_left(d)
        if left is None:
            left = d.spec.level(d.level).seconds * self.clock_scale
        level = d.level
        while d.spec.break_after(level) is None:
            level += 1
            if level > len(d.spec.levels):
                return None
            left += d.spec.level(level).seconds * self.clock_scale
        return left

    def clock_left(self, d: td.Director) -> float | None:
        """Seconds until the running clock's next step (a level's or a break's end); held while paused."""
        current = self.clock.get(d.spec.id)
        if current is not None and current[1].active():
            return current[1].getTime() - self.reactor.seconds()
        held = self.paused_left.get(d.spec.id)
        return None if held is None else held[1]

    def summary(self, d: td.Director) -> dict:
        spec = d.spec
        step = d.schedule()
        return {"id": spec.id, "name": spec.name, "game": spec.game, "state": d.state,
                "next_break_in": self.next_break_in(d),
                "buy_in": spec.buy_in, "bounty": spec.bounty, "fee": spec.fee, "entrants": len(d.entries),
                "entries": d.entries_total, "prize_pool": d.collected, "guarantee": spec.guarantee,
                "level": d.level, "paused": d.paused, "on_break": d.on_break, "late_registration": d.late_open,
                "start_at": spec.start_at, "next": list(step) if step else None, "clock_left": self.clock_left(d),
                "deal": self._deal_state(d), "awaiting_approval": d.awaiting_approval}

    @staticmethod
    def _deal_state(d: td.Director) -> dict | None:
        """The deal on the table, if any (TR-DEAL-1): who proposed it, what it pays, who accepted."""
        deal = d.pending_deal
        if deal is None:
            return None
        amounts = None if deal.offer is None else dict(zip(deal.players, deal.offer.amounts, strict=True))
        return {"kind": deal.kind, "by": deal.by, "left_to_play_for": deal.left_to_play_for, "amounts": amounts,
                "accepted": sorted(deal.accepted),
                "awaiting_approval": bool(deal.players) and len(deal.accepted) == len(deal.players)}

    def _on_tournament_list(self, session: Any, request: Request) -> dict:
        """Every tournament's summary, with ``registered``: whether the asker has an entry in it now."""
        player = session.player_id
        return ok(request, tournaments=[{**self.summary(d), "registered": player in d.entries}
                                        for d in self.directors.values()])

    def _on_tournament_details(self, session: Any, request: Request, tournament: str) -> dict:
        d = self._director(tournament)
        spec = d.spec
        stacks = d.stacks() if d.state == td.RUNNING else {}
        standings = sorted(({"player": p, "chips": stacks.get(p, spec.starting_stack), "table": e.table}
                            for p, e in d.entries.items()), key=lambda s: -s["chips"])
        finished = [{"player": e.player, "places": list(e.place)} for e in d.busted if e.place]
        return ok(request, tournament=self.summary(d), structure={
            "levels": wire(spec.levels), "breaks": wire(spec.breaks), "starting_stack": spec.starting_stack,
            "table_size": spec.table_size, "late_registration_levels": spec.late_registration_levels,
            "re_entries": spec.re_entries, "rebuys": spec.rebuys, "add_on_stack": spec.add_on_stack,
            "deals": spec.deals, "satellite_target": spec.satellite_target},
            prizes=list(d.provisional_prizes()), prizes_fixed=d.prizes is not None, standings=standings,
            finished=finished, tables={t.id: {"seats": {str(s): p for s, p in t.seats.items()}, "in_hand": t.in_hand}
                                       for t in d.tables.values()})

    def _on_tournament_subscribe(self, session: Any, request: Request, tournament: str, on: bool) -> dict:
        self._director(tournament)
        watchers = self.watchers.setdefault(tournament, {})
        if on:
            watchers[session] = None
        else:
            watchers.pop(session, None)
        return ok(request)

    def playing(self, player: str) -> bool:
        """Registered, still in, or backing an entry in a tournament that has not finished (a nickname reset
        waits for it: AC-3)."""
        return any(player in d.entries or any(s.backer == player for e in d.entries.values() for s in e.stakes)
                   for d in self.directors.values() if d.state in (td.REGISTERING, td.RUNNING))

    def _on_tournament_register(self, session: Any, request: Request, tournament: str) -> dict:
        d = self._director(tournament)
        self.room.may_play(session)                    # the one may-play check (STAFF-2)
        self.enter(d, session.player_id)
        self.invitations.book.drop(tournament, session.player_id)   # entered on their own: nothing to answer
        return ok(request, balance=self.room.wallet(session.player_id))

    def enter(self, d: td.Director, player: str) -> None:
        """Enter ``player`` at their own request (registering, or accepting an invitation): a seat won in a
        satellite pays first, then T$ (TR-PRIZE-5), then cash."""
        ticket = td.ticket_account(d.spec.id, player)
        money = td.tournament_money(player)
        if self.room.ledger.balance(ticket) >= d.spec.entry_cost:       # a seat won in a satellite
            self._run(d, d.register(player, self.room.ledger.balance(ticket), source=ticket, ticket=True))
        elif self.room.ledger.balance(money) >= d.spec.entry_cost:      # T$ (TR-PRIZE-5) before cash
            self._run(d, d.register(player, self.room.ledger.balance(money), source=money))
        else:
            self._run(d, d.register(player, self.room.wallet(player)))

    def _on_tournament_unregister(self, session: Any, request: Request, tournament: str) -> dict:
        d = self._director(tournament)
        self._run(d, d.unregister(session.player_id, self.reactor.seconds()))
        return ok(request, balance=self.room.wallet(session.player_id))

    def _on_tournament_rebuy(self, session: Any, request: Request, tournament: str) -> dict:
        d = self._director(tournament)
        self.room.may_play(session)
        self._run(d, d.rebuy(session.player_id, self.room.wallet(session.player_id)))
        return ok(request, balance=self.room.wallet(session.player_id))

    def _on_tournament_add_on(self, session: Any, request: Request, tournament: str) -> dict:
        d = self._director(tournament)
        self.room.may_play(session)
        self._run(d, d.add_on(session.player_id, self.room.wallet(session.player_id)))
        return ok(request, balance=self.room.wallet(session.player_id))

    def _on_tournament_act(self, session: Any, request: Request, tournament: str, action: str,
                           amount: int | None = None) -> dict:
        d = self._director(tournament)
        player = session.player_id
        table = d.table_of(player)
        events = d.act(player, action_named(table.seat_of(player), action, amount))
        self._used_bank(tournament, table.id, player)
        self._run(d, events)
        return ok(request)

    def _on_stake_offer(self, session: Any, request: Request, tournament: str, percent: int,
                        markup_percent: int) -> dict:
        d = self._director(tournament)
        if session.player_id not in d.entries or d.state != td.REGISTERING:
            raise RuleViolation("not_registered", "shares are offered after registering, before the start",
                                "TR-STAKE-1")
        self.offers[(tournament, session.player_id)] = (percent, markup_percent)
        self._run(d, [])
        return ok(request)

    def _on_stake_buy(self, session: Any, request: Request, tournament: str, seller: str, percent: int) -> dict:
        d = self._director(tournament)
        self.room.may_play(session)                    # buying action is playing too (STAFF-2)
        seller = self._entrant(d, seller)
        offered = self.offers.get((tournament, seller))
        if offered is None or percent > offered[0]:
            raise RuleViolation("no_offer", f"{seller} does not offer {percent}% of their action", "TR-STAKE-1")
        self._run(d, d.sell_shares(seller, session.player_id, Fraction(percent), Fraction(offered[1], 100),
                                   self.room.wallet(session.player_id)))
        self.offers[(tournament, seller)] = (offered[0] - percent, offered[1])
        return ok(request, balance=self.room.wallet(session.player_id))

    def _on_deal_propose(self, session: Any, request: Request, tournament: str, kind: str,
                         left_to_play_for: int = 0) -> dict:
        d = self._director(tournament)
        self._run(d, d.propose_deal(session.player_id, kind, left_to_play_for))
        return ok(request)

    def _on_deal_answer(self, session: Any, request: Request, tournament: str, accept: bool) -> dict:
        d = self._director(tournament)
        self._run(d, d.answer_deal(session.player_id, accept))
        return ok(request)

    # ------------------------------------------------------------------ directors' commands

    def _changes(self, spec: TournamentSpec, settings: dict, game: str | None = None,
                 satellite_target: str | None = None) -> dict:
        """A director's settings as changes to ``spec``: whole numbers, and the few that stand for more."""
        fixed = sorted(set(settings) & FIXED_FIELDS)
        if fixed:
            raise RuleViolation("bad_structure", f"{fixed[0]} is not a setting a director can change here",
                                "TR-PLAY-1")
        changes: dict[str, Any] = dict(settings)
        if "break_after_level" in changes:             # one break in place of the template's (TR-PLAY-2)
            changes["breaks"] = (Break(changes.pop("break_after_level"), changes.pop("break_seconds", 300)),)
        if "level_seconds" in changes:                 # every level this long: a short event, or a test's
            seconds = changes.pop("level_seconds")
            changes["levels"] = tuple(replace(level, seconds=seconds) for level in spec.levels)
        if "pko_percent" in changes:                   # of a bounty won, the share paid at once (PKO < 100)
            percent = changes.pop("pko_percent")
            if percent > 100:
                raise RuleViolation("bad_structure", "the knockout share is a percentage from 0 to 100", "TR-PLAY-6")
            changes["progressive_share"] = Fraction(percent, 100)
        for name in BOOL_SETTINGS & set(changes):
            changes[name] = bool(changes[name])
        if game is not None:
            changes["game"] = game
        if satellite_target is not None:              # TR-PRIZE-5: its seats are worth the target's entry
            target = self._director(satellite_target).spec
            changes.update(satellite_target=satellite_target, satellite_seat_value=target.entry_cost,
                           satellite_seat_fee=target.fee, currency=target.currency)
        return changes

    def _spec(self, template: str, **fields: Any) -> TournamentSpec:
        path = STRUCTURES / f"{template}.toml"
        if not re.fullmatch(r"[a-z0-9_]+", template) or not path.exists():
            raise RuleViolation("unknown_template", f"there is no structure template {template!r}")
        return TournamentSpec.load(path, **fields)

    def _on_director_create(self, session: Any, request: Request, template: str, id: str,  # noqa: A002
                            name: str, start_in: int | None, settings: dict | None = None, game: str | None = None,
                            satellite_target: str | None = None) -> dict:
        self.room.verify_director(session)
        start_at = None if start_in is None else self.reactor.seconds() + start_in
        with _structure_errors():
            spec = self._spec(template, id=id, name=name, start_at=start_at)
            spec = spec.edited(**self._changes(spec, settings or {}, game, satellite_target))
        d = self.create(spec, session.player_id)
        self.room.directed(session, "create", id, template=template, settings=settings or {}, game=game,
                          satellite_target=satellite_target)
        return ok(request, tournament=self.summary(d))

    def _on_director_edit(self, session: Any, request: Request, tournament: str, settings: dict) -> dict:
        d = self._director(tournament)
        self.room.verify_director(session)
        if d.state != td.REGISTERING or d.entries:
            raise RuleViolation("already_open", "a tournament is edited before anyone registers", "TR-REG-2")
        with _structure_errors():
            spec = d.spec.edited(**self._changes(d.spec, settings))
        pending = self.bounds.check(spec)                               # STAFF-1, as at creation
        reserve = self._reserve(tournament, spec.guarantee - d.spec.guarantee)
        raised = spec.guarantee > d.spec.guarantee
        d.spec = spec
        d.awaiting_approval = pending and (raised or d.awaiting_approval)
        self.room.directed(session, "edit", tournament, settings=settings)
        self._run(d, reserve)
        return ok(request, tournament=self.summary(d))

    def _on_director_start(self, session: Any, request: Request, tournament: str) -> dict:
        d = self._director(tournament)
        self.room.verify_director(session)
        events = d.start()
        self.room.directed(session, "start now", tournament)
        self._run(d, events)
        call = self.start_call.pop(tournament, None)
        if call is not None and call.active():
            call.cancel()
        return ok(request)

    def _on_director_pause(self, session: Any, request: Request, tournament: str, reason: str) -> dict:
        d = self._director(tournament)
        self.room.verify_director(session)
        events = d.pause(session.player_id, reason)
        self.room.directed(session, "pause", tournament, reason=reason)
        self._run(d, events)
        self._hold_clock(tournament)                                 # the clock stops with play
        return ok(request)

    def _hold_clock(self, tid: str) -> None:
        current = self.clock.pop(tid, None)
        if current is not None and current[1].active():
            self.paused_left[tid] = (current[0], current[1].getTime() - self.reactor.seconds())
            current[1].cancel()

    def _on_director_resume(self, session: Any, request: Request, tournament: str) -> dict:
        return self._directed(session, request, tournament, "resume", lambda d, by: d.resume(by))

    def _on_director_cancel(self, session: Any, request: Request, tournament: str, reason: str,
                            confirm: bool) -> dict:
        d = self._director(tournament)
        self.room.verify_director(session)
        preview = d.refund_preview()
        if not confirm:                                 # the preview a director sees before confirming
            return ok(request, case=preview.case, refunds=preview.amounts, remainder=preview.remainder)
        events = d.cancel(reason)
        self.room.directed(session, "cancel", tournament, reason=reason, case=preview.case)
        self._run(d, events)
        return ok(request, case=preview.case, refunds=preview.amounts, remainder=preview.remainder)

    def _directed(self, session: Any, request: Request, tournament: str, command: str,
                  act: Callable[[td.Director, str], list], **details: Any) -> dict:
        """A director command on one tournament: role checked, run, recorded once it succeeded."""
        d = self._director(tournament)
        self.room.verify_director(session)
        events = act(d, session.player_id)
        self.room.directed(session, command, tournament, **details)
        self._run(d, events)
        return ok(request)

    @staticmethod
    def taking_entries(d: td.Director) -> bool:
        """Registering, or running with late registration open."""
        return d.state == td.REGISTERING or (d.state == td.RUNNING and d.late_open)

    @staticmethod
    def _entrant(d: td.Director, name: str) -> str:
        """An entrant's nickname as registered, for ``name`` in any letter case (AC-3); else ``name``."""
        if name in d.entries:
            return name
        key = players.nickname_key(name)
        return next((p for p in d.entries if players.nickname_key(p) == key), name)

    def _on_director_remove_player(self, session: Any, request: Request, tournament: str, player: str,
                                   reason: str) -> dict:
        return self._directed(session, request, tournament, "remove player",
                              lambda d, by: d.remove(self._entrant(d, player)), player=player, reason=reason)

    def _on_director_move_player(self, session: Any, request: Request, tournament: str, player: str, table: str,
                                 reason: str) -> dict:
        return self._directed(session, request, tournament, "move player",
                              lambda d, by: d.move_player(self._entrant(d, player), table, by), player=player,
                              table=table, reason=reason)

    def _on_director_break_table(self, session: Any, request: Request, tournament: str, table: str,
                                 reason: str) -> dict:
        return self._directed(session, request, tournament, "break table", lambda d, by: d.break_table(table),
                              table=table, reason=reason)

    def _on_director_balance(self, session: Any, request: Request, tournament: str, reason: str) -> dict:
        return self._directed(session, request, tournament, "balance now", lambda d, by: d.balance_now(),
                              reason=reason)

    def _on_director_deal(self, session: Any, request: Request, tournament: str, decision: str, reason: str) -> dict:
        return self._directed(session, request, tournament, f"{decision} deal",
                              lambda d, by: d.decide_deal(decision == "approve", by, reason), reason=reason)

    def _on_director_broadcast(self, session: Any, request: Request, tournament: str, text: str) -> dict:
        return self._directed(session, request, tournament, "broadcast", lambda d, by: d.broadcast(text, by),
                              reason=text)

    def _on_director_templates(self, session: Any, request: Request) -> dict:
        self.room.verify_director(session)
        templates = []
        for path in sorted(STRUCTURES.glob("*.toml")):
            spec = TournamentSpec.load(path, id=path.stem)
            templates.append(self._described(spec, path.stem))
        settings = sorted({f.name for f in fields(TournamentSpec)} - FIXED_FIELDS | set(EXTRA_SETTINGS))
        return ok(request, templates=templates, games=sorted(VARIANTS), settings=settings)

    @staticmethod
    def _described(spec: TournamentSpec, template: str) -> dict:
        described = {f.name: wire(getattr(spec, f.name)) for f in fields(spec)
                     if f.name not in ("id", "progressive_share", "start_at")}
        return {**described, "template": template, "pko_percent": int(spec.progressive_share * 100)}

    def _on_director_preview(self, session: Any, request: Request, template: str, entrants: int,
                             settings: dict | None = None) -> dict:
        """The structure and the prizes ``entrants`` would play for, before creating anything."""
        self.room.verify_director(session)
        with _structure_errors():
            spec = self._spec(template, id="preview", name="preview")
            spec = spec.edited(**self._changes(spec, settings or {}))
        payouts = PayoutTable.load(PAYOUTS / f"{spec.payouts}.toml")
        preview = td.Director(spec, payouts, Random(0))
        amounts = preview.prize_preview(entrants)
        pool = prize_pool(entrants * spec.buy_in, spec.guarantee).total
        return ok(request, entry_cost=spec.entry_cost, prize_pool=pool, payouts=list(amounts),
                  remainder=pool - sum(amounts), structure=self._described(spec, template))

    def _on_director_activity(self, session: Any, request: Request, limit: int = 100,
                              tournament: str | None = None) -> Any:
        """The director commands of the audit log, newest first: who, when, what and why."""
        self.room.verify_director(session)

        def shape(records: list) -> dict:
            rows = []
            for record in records:
                data = dict(record.data)
                rows.append({"at": record.at, "by": data.pop("by", ""), "command": data.pop("command", record.kind),
                             "tournament": data.pop("tournament", ""), "table": data.pop("table", ""),
                             "reason": data.pop("reason", ""), "details": data})
            return ok(request, records=rows)

        return self.room.write(self.store.director_activity, limit, tournament, quiet=False).addCallback(shape)
