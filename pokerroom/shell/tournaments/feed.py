"""Who hears what of a tournament: its events to subscribers and entrants, each hand to the seats dealt into it.

Subscribers hear every tournament event; an entrant hears the field's (levels, breaks, prizes, the end) and
those about themselves (their seat, bust, place, bounty: :func:`tournament.events.players_concerned`), so a
seat drawn or a bust costs its players and not a push to each of 100,000 entrants.

Tournament events go out as ``tournament_event`` (:func:`tournament.events.event_to_wire`: integers, strings,
lists and maps only); the hand events inside a ``HandDealt`` / ``HandPlayed`` go to each player dealt into
that hand as their seat may see them (the one redaction function), with whose turn it is. A hand is also
kept here until it ends, then handed to the hall (:meth:`TournamentFeed.ended_hands`) to be stored with all its
cards and its facts, as a cash hand is (SEC-1), in the transaction of the step it caused.

Everything goes out through the tournament's :class:`~pokerroom.shell.outcome_hold.OutcomeHold`: a step the hall
stores (a bust, a finish, prizes, a deal, a hand's end) is shown once its transaction has committed, and the
tournament's later frames wait behind it.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from twisted.logger import Logger

from pokerroom.bus import Bus
from pokerroom.bus.records import ChatLine, Frame
from pokerroom.bus.subjects import player_stream, tournament_public, tournament_table
from pokerroom.poker import events as he
from pokerroom.poker.actions import LegalActions
from pokerroom.poker.events import event_to_dict
from pokerroom.poker.redact import Viewer, redact
from pokerroom.security.facts import hand_facts
from pokerroom.shell.audiences import Audiences, Told, publish, tell
from pokerroom.shell.outcome_hold import OutcomeHold
from pokerroom.shell.recorder import HandStacks, Recorder
from tournament import director as td
from tournament.events import event_to_wire, players_concerned

if TYPE_CHECKING:
    from pokerroom.shell.tournaments.hall import TournamentHall

_SEATING = (td.Registered, td.Unregistered, td.Seated, td.Eliminated)
OBSERVER = Viewer.observer()


def _shown(events: tuple, viewer: Viewer) -> list[dict]:
    return [event_to_dict(x) for x in (redact(ev, viewer) for ev in events) if x is not None]


class TournamentFeed:
    log = Logger()

    def __init__(self, hall: TournamentHall, bus: Bus, recorder: Recorder) -> None:
        self.hall = hall
        self.bus = bus
        self.connected: set[str] = set()        # players on a connection, as the session events told the hall
        self.recorder = recorder                # the audit chain (seats taken and left, SEC-1)
        self.watchers: dict[str, dict[str, str | None]] = {}          # tournament -> session id -> its player
        self.entrants: dict[str, set[str]] = {}
        self.dealt: dict[tuple[str, str], dict[int, str]] = {}     # (tournament, table) -> seats of its hand
        self.hands: dict[tuple[str, str], tuple[list, list]] = {}  # (tournament, table) -> its hand's events, times
        self._entrant_set: dict[str, frozenset[str]] = {}            # tournament -> its entrants, while unchanged
        self.holds: dict[str, OutcomeHold] = {}                      # tournament -> its way to the bus
        self.ended: dict[str, list[tuple[tuple, tuple]]] = {}       # tournament -> hands ended, not yet stored
        self.talk: dict[tuple[str, str], set[str]] = {}              # (tournament, table) -> who chatted in its hand

    # ------------------------------------------------------------------ audiences

    def watch(self, tid: str, session: str, player: str | None, on: bool) -> None:
        """The connection ``session`` watches the tournament (or no longer does); the gateway's side follows its
        public stream (:class:`~pokerroom.bus.records.Watch`)."""
        watchers = self.watchers.setdefault(tid, {})
        if on:
            watchers[session] = player
        else:
            watchers.pop(session, None)

    def disconnected(self, session_id: str, player: str | None) -> None:
        """A closed connection watches nothing any more (the gateway closed its streams); ``player``, if named,
        is on no connection now."""
        self.connected.discard(player)
        for watchers in self.watchers.values():
            watchers.pop(session_id, None)

    def identified(self, session_id: str, player: str) -> None:
        """The connection logged in (or resumed) as ``player``: what it watches, it watches as them."""
        self.connected.add(player)
        for watchers in self.watchers.values():
            if session_id in watchers:
                watchers[session_id] = player

    def forget(self, tid: str) -> None:
        """An event left the memory: nobody hears of it any more (the gateway's side lets go of its stream on
        ``tournaments.retired``)."""
        self.watchers.pop(tid, None)
        self._entrant_set.pop(tid, None)
        self.entrants.pop(tid, None)
        self.holds.pop(tid, None)
        self.ended.pop(tid, None)
        for keyed in (self.dealt, self.hands, self.talk):
            for key in [k for k in keyed if k[0] == tid]:
                del keyed[key]

    def online(self, player: str) -> bool:
        """Whether the player is on a connection, as the session events said (a decision's reconnect time)."""
        return player in self.connected

    def hold(self, tid: str) -> OutcomeHold:
        """The tournament's way to the bus: behind any step still waiting for its commit."""
        hold = self.holds.get(tid)
        if hold is None:
            hold = self.holds[tid] = OutcomeHold(self.bus)
        return hold

    def ended_hands(self, tid: str) -> list[tuple[tuple, tuple]]:
        """The hands that ended since the last call: ``(hand_started args, hand_ended args)`` each, for the hall
        to store with the step they caused."""
        return self.ended.pop(tid, [])

    def push_to(self, player: str, message: dict) -> None:
        """To the player alone, on their own stream (nothing if they are not connected)."""
        self.hold(message["tournament"]).publish(player_stream(player), Frame.of(message))

    def push_to_hand(self, tid: str, table_id: str, message: dict) -> None:
        """To everyone dealt into the hand at ``table_id`` (e.g. why play waits)."""
        for player in self.dealt.get((tid, table_id), {}).values():
            self.push_to(player, message)

    def chatted(self, tid: str, table_id: str, line: ChatLine) -> None:
        """A chat line said at the table while its hand dealt here ran: its author is in that hand's facts for the
        collusion signals (HR-CHAT-4), as at a cash table."""
        kept = self.hands.get((tid, table_id))
        if line.hand is not None and kept is not None and kept[0] and getattr(kept[0][0], "hand_id", None) == line.hand:
            self.talk.setdefault((tid, table_id), set()).add(line.player)

    # ------------------------------------------------------------------ the fan-out

    def keep_hands(self, d: td.Director, events: list) -> None:
        """Keep each hand's events until it ends, then its record for :meth:`ended_hands` (the step's write)."""
        for e in events:
            if isinstance(e, td.HandDealt | td.HandPlayed):
                key = (d.spec.id, e.table)
                if isinstance(e, td.HandDealt) and e.table in d.tables:
                    self.hands[key] = ([], [])
                    self.talk.pop(key, None)
                self._keep_hand(d, key, e.events)

    def audiences(self, d: td.Director, events: list) -> list[tuple[dict, Audiences | Told]]:
        """The step's frames, in order, each with its head and who hears it as what: a hand's events as each seat
        dealt into it may see them, a tournament event told to its subscribers and to the entrants (or, for a
        seat or a bust, its players only)."""
        tid = d.spec.id
        entrants = self.entrants.setdefault(tid, set())
        for e in events:
            if isinstance(e, td.Registered):
                entrants.add(e.player)
                self._entrant_set.pop(tid, None)
                self.hall.decisions.entered(tid, e.player, d.spec.time_bank)     # a time bank per entry
            elif isinstance(e, td.Unregistered):
                entrants.discard(e.player)
                self._entrant_set.pop(tid, None)
        frames: list[tuple[dict, Audiences | Told]] = []
        for e in events:
            if isinstance(e, _SEATING):                 # joins, leaves and moves are kept for review (SEC-1)
                record = event_to_wire(e)
                record["what"] = record.pop("type")
                self.recorder.audit_of("tournament", tid, "tournament_seat", tournament=tid, **record)
            if isinstance(e, td.HandDealt | td.HandPlayed):
                frames.append(self._hand_frame(d, e))
            elif not isinstance(e, td.Payment):
                message = {"type": "tournament_event", "tournament": tid, "event": event_to_wire(e)}
                about = players_concerned(e)
                frames.append((message, self._field(tid) if about is None else Told(about, about)))
        return frames

    def publish(self, tid: str, frames: list[tuple[dict, Audiences | Told]]) -> None:
        """Send the step's frames behind the tournament's hold: hands on the table's stream, events on its public
        one, each player's own on their stream."""
        bus = self.hold(tid)
        for head, heard in frames:
            if isinstance(heard, Told):
                tell(bus, tournament_public(tid), head, heard)
            else:
                publish(bus, tournament_table(tid, head["table"]), head, "events", heard)

    def _field(self, tid: str) -> Told:
        """The tournament's subscribers and everyone who entered (busted players too: they see how it ends):
        entrants hear it on their own streams, instead of twice if they also subscribe."""
        entrants = self._entrant_set.get(tid)
        if entrants is None:
            entrants = self._entrant_set[tid] = frozenset(self.entrants.get(tid, ()))
        watching = self.watchers.get(tid, {}).values()          # few, beside a whole field
        return Told(entrants, tuple(p for p in watching if p in entrants))

    def _hand_frame(self, d: td.Director, e: td.HandDealt | td.HandPlayed) -> tuple[dict, Audiences]:
        """Each player dealt into the hand gets its events as their seat may see them -- its end included,
        even when they have since busted, moved, or their table broke; observers see them as an observer."""
        key = (d.spec.id, e.table)
        table = d.tables.get(e.table)
        if isinstance(e, td.HandDealt) and table is not None:
            self.dealt[key] = dict(table.seats)
            self.hall.decisions.hand_dealt(d.spec.id, table.seats.values())     # HR-TIME-4: refills count hands
        turn = table.to_act() if table is not None else None
        clock = self.hall.decisions.to_act(d, table) if turn is not None else None
        return hand_frame(d.spec.id, e.table, e.events, self.dealt.get(key, {}), turn, clock)

    def back(self, player: str) -> None:
        """A player logged in or resumed: each hand they are dealt into, from its start as their seat may see
        it, with whose turn it is and their ``legal`` (the same decision id as before) on their turn -- what a
        client needs to draw the table and act (HR-DC-2)."""
        for (tid, table_id), seats in list(self.dealt.items()):
            kept = self.hands.get((tid, table_id))
            d = self.hall.directors.get(tid)
            table = d.tables.get(table_id) if d is not None else None
            seat = next((s for s, who in seats.items() if who == player), None)
            if kept is None or table is None or table.hand is None or seat is None:
                continue
            turn = table.to_act()
            message = hand_so_far(tid, table_id, seat, kept[0], player, turn,
                                  None if turn is None else self.hall.decisions.to_act(d, table))
            self.push_to(player, message)

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
        now = self.hall.reactor.seconds()
        hand.extend(events)
        times.extend([now] * len(events))
        if not any(isinstance(x, he.DeckRevealed) for x in events):
            return
        del self.hands[key]
        self.ended.setdefault(d.spec.id, []).append(hand_record(d.spec.id, key[1], hand, times, now,
                                                               bounty=d.spec.bounty > 0,
                                                               chatted=frozenset(self.talk.pop(key, ()))))


def hand_frame(tid: str, table_id: str, events: tuple | list, seats: dict[int, str],
               turn: tuple[str, LegalActions] | None, clock: dict | None) -> tuple[dict, Audiences]:
    """A tournament hand's events as each seat dealt into it may see them (its player's own cards, their ``legal``
    on their turn), an observer's view for the rest, with whose turn it is: wherever the hand is played."""
    head = {"type": "tournament_table_events", "tournament": tid, "table": table_id}
    if clock is not None:
        head["to_act"] = clock
    audiences = Audiences(_shown(tuple(events), OBSERVER))
    for seat, player in seats.items():
        audiences.own[player] = _shown(tuple(events), Viewer.player(seat))
        audiences.extra[player] = {"seat": seat}
        if turn is not None and turn[0] == player:
            audiences.extra[player]["legal"] = turn[1].to_wire()
    return head, audiences


def hand_so_far(tid: str, table_id: str, seat: int, events: list, player: str,
                turn: tuple[str, LegalActions] | None, clock: dict | None) -> dict:
    """A player back (a login, a resume): the hand they are dealt into from its start as their seat may see it,
    with whose turn it is and their ``legal`` (the same decision id as before) on their turn -- what a client needs
    to draw the table and act (HR-DC-2)."""
    message = {"type": "tournament_table_events", "tournament": tid, "table": table_id, "seat": seat,
               "events": _shown(tuple(events), Viewer.player(seat))}
    if turn is not None:
        message["to_act"] = clock
        if turn[0] == player:
            message["legal"] = turn[1].to_wire()
    return message


def hand_record(tid: str, table_id: str, hand: list, times: list[float], now: float, *,
                bounty: bool, chatted: frozenset[str] = frozenset()) -> tuple[tuple, tuple]:
    """An ended tournament hand as the store keeps it, all cards and its facts (SEC-1): ``(hand_started args,
    hand_ended args)``, wherever it was played."""
    stacks = HandStacks.of(hand)                                    # as a cash hand's are kept: once
    facts = partial(hand_facts, hand, table_id=table_id, game_key=f"tournament {tid}", at=now,
                    tournament=tid, bounty=bounty, chatted=chatted)  # on the writer's thread
    return ((stacks.hand_id, table_id, now, stacks.start, tid),
            (stacks.hand_id, now, stacks.end, stacks.rake, [event_to_dict(x) for x in hand], None, facts, times))
