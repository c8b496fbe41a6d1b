"""The tournament hall: directors on the room's reactor -- clock, timers, decks, ledger, store and fan-out.

Theory of operation
-------------------
The :class:`~tournament.director.Director` is pure; the hall is its thin
Twisted shell, composed into the room by :mod:`pokerroom.app`. Every command,
from a client or from a timer, is a record of :mod:`tournament.commands`
applied by the director (:meth:`TournamentHall.command`), and its events go
through :meth:`TournamentHall.run`, which runs the table pipeline of the
tournament's :class:`~pokerroom.shell.tournaments.runner.TournamentRunner` in
the order the cash and casino tables' run theirs:

1. posts the director's :class:`~tournament.director.Payment` s to the room's
   ledger, in order (money moves nowhere else);
2. writes those transfers, the director's snapshot and the hands that ended
   in the step in one transaction, so after a crash the store holds a
   director that agrees with the ledger and with its hands. A snapshot never
   holds a hand: each table's stacks are those at the start of its hand in
   play, which is what TR-REFUND refunds from (and no deck is stored,
   HR-RNG-2);
3. pushes the events (:mod:`~pokerroom.shell.tournaments.feed`): tournament
   events to subscribers and entrants, hand events to the players of that
   table, each hand event passed through the one redaction function as the
   viewer they are -- a stored step's (a bust, a finish, prizes, a deal, a
   hand's end) once its transaction has committed, so a crash never takes
   back what a player was shown;
4. sets the timers the director's state asks for
   (:mod:`~pokerroom.shell.tournaments.timers`): the level clock, the next hand
   at each table that may deal and a deal's limit; and the clock of the
   decision each table waits for (:mod:`~pokerroom.shell.tournaments.decisions`:
   thinking time, reconnect time, the entry's time bank, then check or fold).

The requests are services of their own, served by the composition root on the
gateway's side of the process line (:mod:`~pokerroom.shell.tournaments.requests`):
the players' (:mod:`~pokerroom.shell.tournaments.player_requests`) and the
directors' (:mod:`~pokerroom.shell.tournaments.director_requests`). They reach
the hall by bus requests
only (:mod:`~pokerroom.shell.tournaments.hall_line`), which the hall answers
(:mod:`~pokerroom.shell.tournaments.answers`); so are the invitations'
(:mod:`~pokerroom.shell.tournaments.invitation_requests`), whose book is kept on
the hall's side (:mod:`~pokerroom.shell.tournaments.invitations`).

The hall is given its collaborators, each typed: the reactor, the bus, the
store (read at start and for an id's uniqueness) and the recorder (its one
writer and the audit chain) and the wallet (every payment); no gateway: who is
connected it learns from the session events. It builds each part with what
that part uses.

On start, :meth:`recover` refunds every tournament the store says was
registering or running (the server stopped without finishing it), per
TR-REFUND, through the ledger with the case as the reason.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from random import Random
from typing import Any, Protocol

from twisted.internet import defer
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

from pokerroom import players
from pokerroom.bus import Bus, Subscription
from pokerroom.bus.records import SessionEvent, SessionGone
from pokerroom.bus.subjects import (
    SESSION_EVENTS,
    TOURNAMENTS_CREATE,
    TOURNAMENTS_LIST,
    TOURNAMENTS_PLAYING,
    TOURNAMENTS_RETIRED,
    tournament_command,
    tournament_read,
)
from pokerroom.cards import shuffled_deck
from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import PROMOTIONS, cash
from pokerroom.shell.every_node import answer_every_gather
from pokerroom.shell.in_play import answer_in_play
from pokerroom.shell.in_turn import InTurn
from pokerroom.shell.recorder import Recorder, TableRecording
from pokerroom.shell.tournaments.answers import TournamentAnswers
from pokerroom.shell.tournaments.decisions import BankRefill, TournamentDecisions
from pokerroom.shell.tournaments.director_requests import spec_record
from pokerroom.shell.tournaments.feed import TournamentFeed
from pokerroom.shell.tournaments.hands_away import HandsAway
from pokerroom.shell.tournaments.invitations import InvitationDesk
from pokerroom.shell.tournaments.runner import TournamentRunner
from pokerroom.shell.tournaments.table_talk import TableTalk
from pokerroom.shell.tournaments.timers import TournamentTimers
from pokerroom.shell.wallet import Wallet
from pokerroom.store.room_store import RoomStore
from tournament import commands as tc
from tournament import director as td
from tournament import saved_state
from tournament.bounds import EventBounds
from tournament.event_quota import DirectorQuota
from tournament.prizes import PayoutTable
from tournament.registration import entry_payments
from tournament.structure import PAYOUTS, TournamentSpec


def _restored(record: Any) -> td.Director:
    """The director a stored tournament's rows hold (between hands everywhere): the one place they are read."""
    return saved_state.restore(saved_state.from_rows(record.rows))


class EventLeases(Protocol):
    """What the hall asks of the leases on several processes: an event's lease claimed, and retired once it ends."""

    def claim(self, tid: str) -> object: ...

    def retire(self, tid: str) -> object: ...


class TournamentHall:
    log = Logger()

    def __init__(self, reactor: IReactorTime, bus: Bus, store: RoomStore, recorder: Recorder, wallet: Wallet, *,
                 decision_seconds: float = 20.0, between_hands: float = 1.0, clock_scale: float = 1.0,
                 shuffle: Callable[[], list[int]] = shuffled_deck, bounds: EventBounds | None = None,
                 time_bank_refill: BankRefill | None = None, leases: EventLeases | None = None,
                 hands_away: bool = False,
                 live_nodes: Callable[[], set[str] | defer.Deferred] | None = None) -> None:
        self.reactor = reactor
        self.leases = leases                        # several processes: each event directed where it is leased
        self.bus = bus
        self.store = store
        self.recorder = recorder
        self.recording: TableRecording = recorder   # the recorder's port: each step, as cash hands go
        self.wallet = wallet
        self.decision_seconds = decision_seconds
        self.clock_scale = clock_scale              # a test room runs its levels faster; 1.0 in production
        self.shuffle = shuffle
        self.bounds = bounds or EventBounds()       # STAFF-1: what a director may put in an event alone
        self.directors: dict[str, td.Director] = {}
        self.in_turn = InTurn()                 # each event's requests in order (an entry's money off the reactor)
        self.runners: dict[str, TournamentRunner] = {}              # event -> its runner, until retired
        self.created_by: dict[str, str] = {}
        self.created_record: dict[str, defer.Deferred] = {}          # new event -> its creation record, once asked
        self.retire_call: dict[str, Any] = {}                       # ended event -> when it leaves the memory
        self.answering: dict[str, tuple[Subscription, ...]] = {}     # event -> its request subjects, until retired
        self.quota = DirectorQuota()                                 # STAFF-1: one director's share of the room
        self.feed = TournamentFeed(self, bus, recorder)              # who hears what, and who is connected
        self.timers = TournamentTimers(self, between_hands, clock_scale)
        self.decisions = TournamentDecisions(self, decision_seconds, time_bank_refill)   # decisions, time banks
        self.answers = TournamentAnswers(self, wallet)               # what the requests ask, answered on the bus
        self.talk = TableTalk(self)                                  # chat at its tables, whoever plays the hand
        self.invitations = InvitationDesk(self, bus, recorder, wallet)                          # STAFF-2
        # several processes: each hand played by a table process (``play_hands = "anywhere"``), else dealt here
        self.away = HandsAway(self, live_nodes) if hands_away else None

    # ------------------------------------------------------------------ composition

    def install(self) -> None:
        """Answer the requests' records (served on the gateway's side: :mod:`~pokerroom.shell.tournaments.requests`)
        and the lobby's list."""
        answer_every_gather(self.bus, TOURNAMENTS_LIST, self.answers.listed)    # each node: the events it directs
        self.bus.respond(TOURNAMENTS_CREATE, self.answers.created, shared=True)   # one node directs a new event
        answer_in_play(self.bus, TOURNAMENTS_PLAYING, self.playing)      # SEC-2, AC-3: asked by the desks
        self.bus.subscribe(SESSION_EVENTS, self._session_event)
        self.invitations.install()

    def _session_event(self, subject: str, event: SessionEvent) -> None:
        """A session's end: it watches no tournament any more; a player back: the hands they are dealt into, and
        the events their connection watches are now a player's (an entrant hears each once). Who is connected
        is learnt here too: the player is gone when the session they are signed in on is (``current``)."""
        if isinstance(event, SessionGone):
            self.feed.disconnected(event.session, event.player if event.current else None)
        else:
            self.feed.identified(event.session, event.player)
            self.feed.back(event.player)

    def recover(self) -> dict[str, td.Cancelled]:
        """Refund every tournament the server stopped without finishing (TR-REFUND-2..7); blocking, at start."""
        refunded = {}
        for record in self.store.tournaments.unfinished_tournaments():
            if self.leases is not None:             # several processes: refunded by the one that wins its lease
                self.leases.claim(record.id)
                continue
            refunded[record.id] = self._refund(record)
        return refunded

    def take_over(self, tid: str) -> None:
        """This process now holds the lease of an event another process directed and no longer does (it died, or
        stopped without finishing it): refunded as a restart refunds it (TR-REFUND-2..7)."""
        if tid in self.directors:               # an event this process made (its lease just won)
            return
        for record in self.store.tournaments.unfinished_tournaments():
            if record.id == tid:
                self._refund(record)

    def drop(self, tid: str) -> None:
        """This process no longer holds the event's lease: nothing of it fires or answers here any more."""
        if tid not in self.directors:
            return
        self.timers.stop(tid)
        self.decisions.stop(tid)
        if self.away is not None:
            self.away.forget(tid)
        for answering in self.answering.pop(tid, ()):
            answering.cancel()
        call = self.retire_call.pop(tid, None)
        if call is not None and call.active():
            call.cancel()
        self.directors.pop(tid, None)
        self.runners.pop(tid, None)

    def _refund(self, record: Any) -> td.Cancelled:
        director = _restored(record)
        self._open(director)
        self.created_by[record.id] = record.created_by
        self._answer(director)                                  # its page is read until it is retired
        runner = self.runners[record.id]
        events = runner.apply(tc.Cancel("the server stopped during the tournament; refunded on restart"), 0.0)
        step = runner.full(events, runner.transfers(events), self.reactor.seconds())
        if step is not None and step.step is not None:
            self.store.tournaments.save_tournament(*step.step)      # blocking: before the room listens
        self._retire_later(director)
        cancelled = next(e for e in events if isinstance(e, td.Cancelled))
        self.log.warn("tournament {id} refunded after a crash ({case})", id=record.id, case=cancelled.case)
        return cancelled

    def create(self, spec: TournamentSpec, by: str) -> td.Director:
        if spec.id in self.directors or self.store.tournaments.tournament(spec.id) is not None:
            raise RuleViolation("tournament_exists", f"a tournament {spec.id!r} already exists", "TR-REG-1")
        pending = self.bounds.check(spec)
        now = self.reactor.seconds()
        open_events = [tid for tid, d in self.directors.items() if d.state in (td.REGISTERING, td.RUNNING)]
        own = sum(1 for tid in open_events if self.created_by.get(tid) == by)
        self.quota.check(self.bounds, by, len(open_events), own, now)   # a rogue director fills neither memory
        reserve = self.reserve(spec.id, spec.guarantee)         # STAFF-1: house money, held for this event
        payouts = PayoutTable.load(PAYOUTS / f"{spec.payouts}.toml")
        seed = secrets.randbits(64)             # the tournament's seeded generator (TR-PLAY-4), recorded
        director = td.Director(spec, payouts, Random(seed), holds_target_seat=self._holds_seat(spec),
                               awaiting_approval=pending)
        self._open(director)
        # several processes: directed here, its lease held from now
        claim = defer.succeed(None) if self.leases is None else defer.maybeDeferred(self.leases.claim, spec.id)
        self.created_by[spec.id] = by
        self._answer(director)
        self.quota.created(by, now)
        self.run(director, reserve)
        if spec.start_at is not None and self.directors.get(spec.id) is director:
            self.timers.start_at(spec.id, spec.start_at)
        self._record_created(claim, spec.id, {"by": by, "seed": seed, "spec": spec_record(spec),
                                              "awaiting_approval": pending})
        return director

    def _record_created(self, claim: defer.Deferred, tid: str, record: dict) -> None:
        """The creation's record in the audit chain, asked once the event's claim has landed: fenced by the lease
        this process just won (asked before, on a server where the claim runs on the leases' own thread, there
        would be no epoch to fence it by). Its creation's answer waits for it (:meth:`answered_here`)."""
        at = self.reactor.seconds()
        claim.addErrback(lambda failure: self.log.failure("claiming the lease of {id} failed", failure, id=tid))
        claim.addCallback(lambda _: self.recorder.audit_of("tournament", tid, "tournament_created", at=at,
                                                           tournament=tid, **record))
        if not claim.called:
            self.created_record[tid] = claim
            claim.addBoth(self._created_recorded, tid)

    def _created_recorded(self, _: object, tid: str) -> None:
        self.created_record.pop(tid, None)

    def answered_here(self, d: td.Director, answer: Any) -> Any:
        """``answer`` to a request that made ``d``'s records (its creation, an approval, an invitation answered),
        once they have landed, if ``d`` is still directed here. On several processes a write of it refused by the
        event's lease's fence dropped it (another process directs it now: nothing of the write was stored), and
        the asker reads ``unknown_tournament``, not an answer for what was not stored. One process: at once."""
        if not self.recorder.fencing:
            return answer
        tid = d.spec.id

        def here(_: object) -> Any:
            if self.directors.get(tid) is not d:
                raise RuleViolation("unknown_tournament", "that tournament is directed by another process now: "
                                    "ask again")
            return answer

        asked: defer.Deferred = defer.Deferred()
        creating = self.created_record.get(tid)
        if creating is None:
            asked.callback(None)
        else:                                   # the creation record is asked once the claim lands
            creating.addBoth(lambda result: (asked.callback(None), result)[1])
        return asked.addCallback(lambda _: self.recorder.landed()).addCallback(here)

    def _open(self, d: td.Director) -> None:
        self.directors[d.spec.id] = d
        self.runners[d.spec.id] = TournamentRunner(self, d)

    def runner(self, tid: str) -> TournamentRunner:
        """The runner of ``tid`` (public for the timers and the decisions beside the hall)."""
        return self.runners[tid]

    def stop(self) -> None:
        """The room stops: nothing of the hall fires any more -- no start, level clock, deal limit, next hand,
        decision or retirement."""
        for tid in list(self.directors):
            self.timers.stop(tid)
            self.decisions.stop(tid)
        for call in self.retire_call.values():
            if call.active():
                call.cancel()
        self.retire_call.clear()
        if self.away is not None:
            self.away.stop()

    def _answer(self, d: td.Director) -> None:
        """The event's request subjects, answered until it is retired: its commands and its reads."""
        tid = d.spec.id
        commands = self.bus.respond(tournament_command(tid), lambda command: self._commanded(d, command))
        reads = self.bus.respond(tournament_read(tid), lambda read: self.answers.read(d, read))
        self.answering[tid] = (commands, reads)

    def _commanded(self, d: td.Director, command: Any) -> Any:
        """``tournament.<id>.command``: in order, while an entry's money flies -- but an action at a hand played
        away goes straight to its process, which keeps the hand's order (it changes nothing here, so it need not
        wait for the event's other commands, nor hold them for its round trip)."""
        if self.away is not None and type(command) is tc.Act:
            forwarded = self.away.forward(self.here(d), command)
            if forwarded is not None:
                return forwarded
        return self.in_turn.run(d.spec.id, lambda: self.answers.commanded(self.here(d), command))

    def reserve(self, tid: str, amount: int) -> list:
        """The payment that holds ``amount`` more (less, when negative) of promotions for ``tid`` (STAFF-1);
        public because a director's edit changes the guarantee after creation."""
        held = td.guarantee_account(tid)
        if amount < 0:
            return [td.Payment(held, PROMOTIONS, -amount, "guarantee lowered: back to promotions")]
        have = self.wallet.held(PROMOTIONS)
        if amount > have:
            raise RuleViolation("guarantee_not_covered", f"the house promotions account holds {have}, not the "
                                f"{amount} this guarantee needs: an admin funds it first", "STAFF-1")
        return [td.Payment(PROMOTIONS, held, amount, "guarantee reserved")] if amount else []

    def approve(self, tid: str, by: str, reason: str) -> td.Director:
        """STAFF-1: an admin lets an event with a guarantee above the limit open; recorded with who and why."""
        d = self.director(tid)
        d.registration.approve()
        self.recorder.audit_of("tournament", tid, "tournament_approved", tournament=tid, by=by, reason=reason,
                               guarantee=d.spec.guarantee)
        self.run(d, [])
        return d

    def _holds_seat(self, spec: TournamentSpec) -> Callable[[str], bool]:
        target = spec.satellite_target

        def holds(player: str) -> bool:         # TR-PRIZE-5: already in the target, or out of its entries
            d = self.directors.get(target)
            return d is not None and (player in d.entries or d.used_entries.get(player, 0) > d.spec.re_entries)

        return holds

    # ------------------------------------------------------------------ the one path of every command

    def command(self, d: td.Director, command: tc.TournamentCommand,
                before: Callable[[], None] | None = None) -> list:
        """Apply one command record (:mod:`tournament.commands`) at ``d`` and :meth:`run` its events: what the
        timers, the players' and the directors' requests send; ``before`` runs between the two, once the command
        was taken. A refusal changes nothing and is raised, code, sentence and rule kept (a player's action
        priced in chips, as a tournament table counts them)."""
        tid = d.spec.id
        acting = d.table_of(command.player).id if type(command) is tc.Act else ""   # before it moves or busts them
        events = self.runners[tid].apply(command, self.reactor.seconds())
        if acting:                              # the time bank keeps what was not used (before the next clock)
            self.decisions.acted(tid, acting, command.player)
        if before is not None:
            before()
        self.run(d, events)
        if type(command) is tc.Pause:
            self.timers.hold_clock(tid)         # the clock stops with play
        elif type(command) is tc.Start:
            self.timers.started_now(tid)        # the scheduled start has nothing left to do
        return events

    def run(self, d: td.Director, events: list) -> list:
        """The table pipeline of a step of ``d``, the one path of every command: its runner's transfers (the
        payments, posted), what the recorder stores of it (written in one transaction; the frames after it wait
        for its commit), its frames, then the timers the director's state asks for. Public because the desks
        beside the hall (requests, invitations, timers) send theirs through it."""
        tid = d.spec.id
        runner = self.runners.get(tid)
        if runner is None or self.directors.get(tid) is not d:     # dropped: a write of it was refused (its lease
            return events                                       # is another process's now), nothing more here
        step = runner.full(events, runner.transfers(events), self.reactor.seconds())
        landed = None
        if step is not None:                                # shown once its transaction has committed
            landed = defer.Deferred()
            self.feed.hold(tid).until(landed)
        self.feed.publish(tid, runner.audiences(events))
        if step is not None:
            self.recording.record_step(step).chainDeferred(landed)
            if self.directors.get(tid) is not d:            # refused at once (the writer inline): dropped here
                return events
        self.timers.set(d, events)
        if d.state in (td.FINISHED, td.CANCELLED):
            self.decisions.stop(tid)
        else:
            self.decisions.set(d, events)
        if self.away is not None:                           # each hand sent, to the process that plays it
            for e in events:
                if type(e) is td.HandSent:
                    self.away.send(d, e.table)
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
        for answering in self.answering.pop(tid, ()):
            answering.cancel()
        self.timers.stop(tid)
        self.decisions.forget(tid)
        if self.away is not None:
            self.away.forget(tid)
        self.directors.pop(tid, None)
        self.runners.pop(tid, None)
        self.created_by.pop(tid, None)
        self.feed.forget(tid)
        self.answers.forget(tid)
        self.invitations.book.forget(tid)
        self.quota.forget_idle(self.reactor.seconds())
        if self.leases is not None:             # ended and gone: nobody takes it over
            self.leases.retire(tid)
        self.bus.publish(TOURNAMENTS_RETIRED, tid)          # its watchers' streams are let go of

    # ------------------------------------------------------------------ what the desks and the lobby ask

    def director(self, tournament: str) -> td.Director:
        """The director of ``tournament``, or the refusal a client reads; public for the desks beside the hall."""
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
        if d.clock.on_break:
            return 0.0
        left = self.timers.clock_left(d)
        if left is None:
            left = d.spec.level(d.clock.level).seconds * self.clock_scale
        level = d.clock.level
        while d.spec.break_after(level) is None:
            level += 1
            if level > len(d.spec.levels):
                return None
            left += d.spec.level(level).seconds * self.clock_scale
        return left

    def summary(self, d: td.Director) -> dict:
        spec = d.spec
        step = d.clock.schedule()
        return {"id": spec.id, "name": spec.name, "game": spec.game, "state": d.state,
                "next_break_in": self.next_break_in(d),
                "buy_in": spec.buy_in, "bounty": spec.bounty, "fee": spec.fee, "entrants": len(d.entries),
                "entries": d.entries_total, "prize_pool": d.collected, "guarantee": spec.guarantee,
                "level": d.clock.level, "paused": d.clock.paused, "on_break": d.clock.on_break,
                "late_registration": d.clock.late_open, "rebuys_open": d.clock.rebuys_open,
                "start_at": spec.start_at, "next": list(step) if step else None,
                "clock_left": self.timers.clock_left(d), "deal": self._deal_state(d),
                "awaiting_approval": d.awaiting_approval}

    @staticmethod
    def _deal_state(d: td.Director) -> dict | None:
        """The deal on the table, if any (TR-DEAL-1): who proposed it, what it pays, who accepted."""
        deal = d.deal_desk.pending_deal
        if deal is None:
            return None
        amounts = None if deal.offer is None else dict(zip(deal.players, deal.offer.amounts, strict=True))
        return {"kind": deal.kind, "by": deal.by, "left_to_play_for": deal.left_to_play_for, "amounts": amounts,
                "accepted": sorted(deal.accepted),
                "awaiting_approval": bool(deal.players) and len(deal.accepted) == len(deal.players)}

    def playing(self, player: str) -> bool:
        """Registered, still in, or backing an entry in a tournament that has not finished (a nickname reset
        waits for it: AC-3)."""
        return any(player in d.entries or any(s.backer == player for e in d.entries.values() for s in e.stakes)
                   for d in self.directors.values() if d.state in (td.REGISTERING, td.RUNNING))

    def enter(self, d: td.Director, player: str) -> object:
        """Enter ``player`` at their own request (registering, or accepting an invitation): a seat won in a
        satellite pays first, then T$ (TR-PRIZE-5), then cash."""
        ticket = td.ticket_account(d.spec.id, player)
        money = td.tournament_money(player)
        wallet = self.wallet
        if wallet.held(ticket) >= d.spec.entry_cost:                     # a seat won in a satellite
            source, kind = ticket, {"source": ticket, "ticket": True}
        elif wallet.held(money) >= d.spec.entry_cost:                    # T$ (TR-PRIZE-5) before cash
            source, kind = money, {"source": money}
        else:
            source, kind = cash(player), {}
        # the entry's payments taken as it is made (its check and move one step on several processes; with a money
        # thread a Deferred, the entry made once they are); the director checks the funds it is given (TR-REG-6)
        return wallet.funded(source, entry_payments(d.spec), d.spec.id,
                             lambda funds: self.command(self.here(d), tc.Register(player, funds, **kind)),
                             verify=False)

    def here(self, d: td.Director) -> td.Director:
        """``d``, still directed here: a request whose turn came, or whose money was taken, after the event's
        lease went to another process is refused as for an event directed elsewhere (its money goes back)."""
        if self.directors.get(d.spec.id) is not d:
            raise RuleViolation("unknown_tournament", "that tournament is directed by another process now: ask again")
        return d

    @staticmethod
    def taking_entries(d: td.Director) -> bool:
        """Registering, or running with late registration open."""
        return d.state == td.REGISTERING or (d.state == td.RUNNING and d.clock.late_open)

    @staticmethod
    def entrant(d: td.Director, name: str) -> str:
        """An entrant's nickname as registered, for ``name`` in any letter case (AC-3); else ``name``."""
        if name in d.entries:
            return name
        key = players.nickname_key(name)
        return next((p for p in d.entries if players.nickname_key(p) == key), name)
