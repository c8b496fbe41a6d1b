"""Tournament hands played here for a director on another process (a room on several processes, issue 21).

Theory of operation
-------------------
A room whose tournaments play their hands anywhere (``[tournaments] play_hands = "anywhere"``) has each event's
director send a table's next hand away (:mod:`~pokerroom.shell.tournaments.hands_away`) as a
:class:`~pokerroom.bus.records.PlayHand` on ``tournaments.hands``; one of the room's table processes takes it (a
shared subject: each request goes to one of them) and the :class:`HandHost` there plays it as the director's own
table would have:

* it deals the planned hand (seats, button, blinds, stacks, hand id: TR-PLAY-4) from its own shuffled deck
  (HR-RNG-1) through the same :class:`~tournament.hand_in_play.HandInPlay` a table dealing beside its director
  plays, so every turn and decision check is the same;
* it keeps each decision's clock -- thinking time, reconnect time once a hand for a player away (HR-DC-4), their
  time bank (HR-TIME-2), then check or fold (HR-DC-1, TR-PLAY-5);
* it takes the players' actions, which the director forwards (``tournaments.hand.<event>.<hand>``, a
  :class:`~pokerroom.bus.records.HandAct`: the hand's id in the subject, so a process that played the table's last
  hand answers nothing of this one);
* it publishes the hand's frames on the table's stream exactly as the hall does (:func:`~.feed.hand_frame`: each
  seat its own cards, observers none), and a returning player gets the hand so far (:func:`~.feed.hand_so_far`);
* when the hand ends it stores it, all cards and its facts (SEC-1), shows its end once that has committed, and
  gives the director its result (:class:`~pokerroom.bus.records.HandBack`), asked again a few times while the
  director's process does not answer. The director checks the result against the hand it sent.

What lives here is only the hands in play: a process that dies loses them, and the director voids each
(TR-REFUND-1) once the process's node lease is gone. Nothing of the event -- seats, stacks between hands,
entries, money -- is ever here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from twisted.internet import defer
from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger
from twisted.python.failure import Failure

from pokerroom.bus import Bus, NoResponder, Subscription
from pokerroom.bus.records import Frame, HandAct, HandBack, PlayHand, SessionBack, SessionEvent, SessionGone
from pokerroom.bus.subjects import (
    SESSION_EVENTS,
    TOURNAMENTS_HANDS,
    player_stream,
    tournament_command,
    tournament_hand,
    tournament_table,
)
from pokerroom.cards import shuffled_deck
from pokerroom.errors import RuleViolation
from pokerroom.poker.actions import action_named
from pokerroom.shell.audiences import publish
from pokerroom.shell.outcome_hold import OutcomeHold
from pokerroom.shell.recorder import Recorder, TournamentStep
from pokerroom.shell.tournaments.feed import hand_frame, hand_record, hand_so_far
from pokerroom.table.decision_clock import ACT, RECONNECT, THINKING, TIME_BANK, DecisionClock
from tournament import commands as tc
from tournament.hand_in_play import HandInPlay, setup_from_plain

RETURN_TRIES = 5                # a result asked of the director's process this many times before it is given up
RETURN_EVERY = 2.0              # seconds between those


@dataclass(eq=False)
class _Hand:
    """One hand played here: its order, its play, what happened and when, and its decision's clock."""

    order: PlayHand
    play: HandInPlay
    hold: OutcomeHold
    banks: dict[str, float]
    away: set[str]
    events: list = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    granted: set[str] = field(default_factory=set)           # reconnect time had, once a hand (HR-DC-4)
    clock: DecisionClock | None = None
    marker: int = -1                                         # the hand's event count when the decision began
    call: IDelayedCall | None = None
    answering: Subscription | None = None

    @property
    def key(self) -> tuple[str, str]:
        return (self.order.tournament, self.play.hand.hand_id)

    def seat_of(self, player: str) -> int:
        seat = next((s for s, who in self.play.seats.items() if who == player), None)
        if seat is None:
            raise RuleViolation("not_seated", f"{player} is not dealt into hand {self.key[1]}", "TR-PLAY-4")
        return seat


class HandHost:
    log = Logger()

    def __init__(self, reactor: IReactorTime, bus: Bus, recorder: Recorder, node: str, *,
                 shuffle: Callable[[], list[int]] = shuffled_deck) -> None:
        self.reactor = reactor
        self.bus = bus
        self.recorder = recorder
        self.node = node
        self.shuffle = shuffle
        self.hands: dict[tuple[str, str], _Hand] = {}            # (event, hand id) -> the hand played here
        # player -> their hands here: a login or a logout looks at that player's hands, not every hand (a big
        # event's process plays thousands at once while its players come and go)
        self.by_player: dict[str, dict[tuple[str, str], _Hand]] = {}
        self.subscriptions: list[Subscription] = []
        self.stopped = False

    # ------------------------------------------------------------------ composition

    def install(self) -> None:
        self.subscriptions.append(self.bus.respond(TOURNAMENTS_HANDS, self.play, shared=True))
        self.subscriptions.append(self.bus.subscribe(SESSION_EVENTS, self._session_event))

    def stop(self) -> None:
        """The room stops: no clock fires and nothing is taken any more (a hand in play is the director's to void)."""
        self.stopped = True
        for subscription in self.subscriptions:
            subscription.cancel()
        for hand in list(self.hands.values()):
            self._forget(hand)

    # ------------------------------------------------------------------ a hand asked for, acted on, ended

    def play(self, order: PlayHand) -> dict:
        """Deal the hand ``order`` plans and play it here; the answer names this process (the director voids the
        hand if it dies). The same order asked twice is one hand."""
        setup = setup_from_plain(order.setup)
        key = (order.tournament, setup.hand_id)
        if key not in self.hands:
            play = HandInPlay(order.table, setup, self.shuffle())
            hand = _Hand(order, play, OutcomeHold(self.bus), {p: float(s) for p, s in order.banks.items()},
                         set(order.away))
            self.hands[key] = hand
            for player in play.seats.values():
                self.by_player.setdefault(player, {})[key] = hand
            hand.answering = self.bus.respond(tournament_hand(*key), lambda asked: self.acted(hand, asked))
            # dealt after this answer: a hand over at once (all in on the blinds) is returned after it, never
            # inside the director's own step
            hand.call = self.reactor.callLater(0, self._dealt, hand)
        return {"node": self.node}

    def _dealt(self, hand: _Hand) -> None:
        hand.call = None
        self._after(hand, list(hand.play.hand.events))

    def acted(self, hand: _Hand, asked: HandAct) -> dict:
        """A player's action at the hand, forwarded by its director: refused as the director refuses it (priced in
        chips), else played and shown."""
        command = asked.command
        if type(command) is not tc.Act or hand.play.ended or self.hands.get(hand.key) is not hand:
            raise RuleViolation("no_hand", f"hand {asked.hand_id} is not in play", "BET-1")
        player = command.player
        try:
            events = hand.play.act(player, action_named(hand.seat_of(player), command.action, command.to),
                                   command.decision)
        except RuleViolation as refusal:
            raise refusal.priced("chips") from None
        self._spend_bank(hand, player)
        self._after(hand, events)
        return {}

    def _after(self, hand: _Hand, events: list) -> None:
        """``events`` happened: kept, the next decision's clock set, shown -- the end's once it is stored."""
        now = self.reactor.seconds()
        hand.events.extend(events)
        hand.times.extend([now] * len(events))
        if hand.play.ended:
            self._stop_clock(hand)
            self._end(hand, events, now)
            return
        self._start_clock(hand)
        self._show(hand, events)

    def _show(self, hand: _Hand, events: list) -> None:
        order, turn = hand.order, hand.play.to_act()
        head, audiences = hand_frame(order.tournament, order.table, events, hand.play.seats, turn,
                                     None if turn is None else self._to_act(hand, turn[0]))
        publish(hand.hold, tournament_table(order.tournament, order.table), head, "events", audiences)

    def _end(self, hand: _Hand, events: list, now: float) -> None:
        order = hand.order
        record = hand_record(order.tournament, order.table, hand.events, hand.times, now, bounty=order.bounty)
        landed: defer.Deferred = defer.Deferred()
        hand.hold.until(landed)
        self._show(hand, events)                    # shown once the hand is stored
        stored = self.recorder.record_step(TournamentStep((record,), None, order.tournament))
        stored.chainDeferred(landed)
        landed.addCallback(lambda _: self._return(hand, RETURN_TRIES))

    def _return(self, hand: _Hand, tries: int) -> None:
        """The result to the director, asked again while its process does not answer; a refusal (the hand was
        voided meanwhile, the event ended) is final."""
        if self.stopped:
            return
        result = tc.ReturnHand.of(hand.play.result())
        back = HandBack(result, {p: hand.banks.get(p, 0.0) for p in result.start})
        asked = self.bus.request(tournament_command(hand.order.tournament), back)
        asked.addCallbacks(lambda _: self._forget(hand), self._not_returned, errbackArgs=(hand, tries))

    def _not_returned(self, failure: Failure, hand: _Hand, tries: int) -> None:
        if failure.check(NoResponder) and tries > 1:
            self.reactor.callLater(RETURN_EVERY, self._return, hand, tries - 1)
            return
        self.log.warn("tournament {id}: hand {hand}'s result was not taken: {why}", id=hand.key[0], hand=hand.key[1],
                      why=failure.getErrorMessage())
        self._forget(hand)

    def _forget(self, hand: _Hand) -> None:
        self._stop_clock(hand)
        if hand.answering is not None:
            hand.answering.cancel()
            hand.answering = None
        key = hand.key
        if self.hands.get(key) is hand:
            del self.hands[key]
            for player in hand.play.seats.values():
                theirs = self.by_player.get(player)
                if theirs is not None and theirs.get(key) is hand:
                    del theirs[key]
                    if not theirs:
                        del self.by_player[player]

    # ------------------------------------------------------------------ decisions' clocks

    def _to_act(self, hand: _Hand, player: str) -> dict:
        """Whose turn it is, with their decision's seconds and time bank: the ``to_act`` of a hand push."""
        clock = hand.clock
        return {"player": player, "seat": hand.seat_of(player), "seconds": hand.order.seconds,
                "deadline": clock.deadline if clock is not None else self.reactor.seconds() + hand.order.seconds,
                "time_bank": hand.banks.get(player, 0.0)}

    def _start_clock(self, hand: _Hand) -> None:
        turn = hand.play.to_act()
        marker = len(hand.play.hand.events)
        if turn is None or marker == hand.marker:
            return                                  # the same decision: its clock runs on
        now = self.reactor.seconds()
        self._wait(hand, marker, DecisionClock(hand.seat_of(turn[0]), THINKING, now, now + hand.order.seconds))

    def _wait(self, hand: _Hand, marker: int, clock: DecisionClock) -> None:
        self._stop_clock(hand)
        hand.clock, hand.marker = clock, marker
        hand.call = self.reactor.callLater(max(0.0, clock.deadline - self.reactor.seconds()), self._ran_out, hand,
                                           marker)

    def _stop_clock(self, hand: _Hand) -> None:
        if hand.call is not None and hand.call.active():
            hand.call.cancel()
        hand.call = None

    def _ran_out(self, hand: _Hand, marker: int) -> None:
        """The phase's time is up: the next phase starts (each from where the last ended), or the player checks or
        folds (HR-DC-1, TR-PLAY-5)."""
        hand.call = None
        turn = hand.play.to_act()
        if turn is None or marker != len(hand.play.hand.events) or self.hands.get(hand.key) is not hand:
            return
        player, clock, order = turn[0], hand.clock, hand.order
        reconnect = order.reconnect if clock.phase == THINKING and player not in hand.granted else 0
        bank = hand.banks.get(player, 0.0)
        phase = clock.next_phase(disconnected=player in hand.away, reconnect_seconds=reconnect, time_bank=bank,
                                 playing=True)
        if phase == RECONNECT:
            hand.granted.add(player)
            self._wait(hand, marker, DecisionClock(clock.seat, RECONNECT, clock.deadline, clock.deadline + reconnect))
            for dealt in hand.play.seats.values():
                self._tell(dealt, order.tournament, {"type": "reconnect_time_started", "player": player,
                                                     "seconds": reconnect, "deadline": clock.deadline + reconnect})
            return
        if phase == TIME_BANK:
            self._wait(hand, marker, DecisionClock(clock.seat, TIME_BANK, clock.deadline, clock.deadline + bank))
            self._tell(player, order.tournament, {"type": "time_bank_started", "player": player, "seconds": bank,
                                                  "deadline": clock.deadline + bank})
            return
        assert phase == ACT
        if clock.phase == TIME_BANK:
            hand.banks[player] = 0.0                # spent to the last second
        hand.clock = None
        self._after(hand, hand.play.timeout(player))

    def _spend_bank(self, hand: _Hand, player: str) -> None:
        """The player acted: what they spent of their time bank is gone, the rest stays (HR-TIME-4)."""
        clock = hand.clock
        if clock is None or clock.phase != TIME_BANK or hand.play.seats.get(clock.seat) != player:
            return
        bank = hand.banks.get(player, 0.0)
        hand.banks[player] = bank - min(bank, max(0.0, self.reactor.seconds() - clock.started_at))

    def _tell(self, player: str, tid: str, event: dict) -> None:
        self.bus.publish(player_stream(player), Frame.of({"type": "tournament_event", "tournament": tid,
                                                          "event": event}))

    # ------------------------------------------------------------------ who is here

    def _session_event(self, subject: str, event: SessionEvent) -> None:
        """A player gone is away at their hands here (reconnect time, HR-DC-4); one back gets each hand so far."""
        theirs = self.by_player.get(event.player) if event.player else None
        if not theirs:
            return
        if isinstance(event, SessionGone):
            if event.current:
                for hand in theirs.values():
                    hand.away.add(event.player)
        elif isinstance(event, SessionBack):
            for hand in list(theirs.values()):
                self._back(hand, event.player)

    def _back(self, hand: _Hand, player: str) -> None:
        seat = next((s for s, who in hand.play.seats.items() if who == player), None)
        if seat is None or hand.play.ended:
            return
        hand.away.discard(player)
        turn = hand.play.to_act()
        message = hand_so_far(hand.order.tournament, hand.order.table, seat, hand.events, player, turn,
                              None if turn is None else self._to_act(hand, turn[0]))
        hand.hold.publish(player_stream(player), Frame.of(message))
