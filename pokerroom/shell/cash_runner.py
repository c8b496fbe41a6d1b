"""A cash table as the table pipeline runs it (:class:`~pokerroom.shell.runner.Runner`): its events' money, record
and audiences, and what the host keeps of it for viewers who come back.

The :class:`~pokerroom.table.CashTable` is pure; its runner is the one place a
batch of its events is looked at, in order, once: it keeps the table's recent
events packed (for catch-ups), the hand in play's stacks (one
:class:`~pokerroom.shell.recorder.HandStacks`, which settles the hand and
which the recorder stores -- nobody tracks them again), and moves the money the
events name through the wallet: a seat taken, chips added, a player leaving
(wallet and table escrow) and a hand's end (escrow to end-of-hand stacks, rake
to the house).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from pokerroom.bus import Subscription
from pokerroom.bus.subjects import table_seat
from pokerroom.gateway.metrics import Metrics
from pokerroom.money.accounts import cash, table_escrow
from pokerroom.poker import events as he
from pokerroom.poker.redact import PUBLIC as PUBLIC_HAND
from pokerroom.poker.redact import Viewer
from pokerroom.protocol.codec import pack, packer
from pokerroom.protocol.wire_form import lean
from pokerroom.shell.audiences import Audiences
from pokerroom.shell.outcome_hold import OutcomeHold
from pokerroom.shell.recorder import FullBatch, HandStacks
from pokerroom.shell.runner import Timer
from pokerroom.shell.wallet import Wallet
from pokerroom.table import CashTable
from pokerroom.table import events as te
from pokerroom.table.cash_table import Deadline
from pokerroom.table.events import redact, table_event_to_dict

LOG_SIZE = 160                      # table events kept for clients that resume: two hands or so; older, a snapshot
LOG_HANDS = 16                      # hands whose seating is kept for redacting the log (more than it holds)
BATCH = 32                          # table events in one frame at most
OBSERVER = Viewer.observer()
_PASSING = frozenset({he.Posted, he.HoleCardsDealt, he.ActionTaken, he.BetReturned, he.BoardDealt,   # hand events
                      he.CardsExposed, he.RunItTwiceOffered, he.RunItTwiceAnswered, he.RunItTwiceDecided,   # that
                      he.HandShown, he.HandMucked, he.PotAwarded})                 # move nothing a runner tracks


@dataclass(eq=False)
class TableRunner:
    table: CashTable
    wallet: Wallet
    metrics: Metrics
    timer: Timer | None = None
    public: str = ""                        # the table's subjects, made once
    stream: str = ""                        # its full stream (``table.<id>.full``)
    game_key: str = ""                      # its game and stakes, as each batch on the full stream names them
    log: deque = field(default_factory=lambda: deque(maxlen=LOG_SIZE))   # packed events, oldest first
    log_seq: int = 0                        # the seq of the newest event in the log
    hand: HandStacks | None = None          # the hand in play's stacks, once
    decision_seq: int = 0                   # the DecisionStarted the table's clock is running for
    dealt_by_hand: dict[str, dict[int, str]] = field(default_factory=dict)   # hand -> seat -> player
    pots: deque = field(default_factory=lambda: deque(maxlen=50))
    hold: OutcomeHold | None = None         # the table's frames; an outcome's wait for its commit
    seated: tuple[str, ...] | None = None   # who sits now, and the subject each hears the table on: made again
    seats: tuple[tuple[str, str], ...] = ()  # after a batch that seats or stands someone
    left: tuple[str, ...] = ()              # of the last batch: who stood up (the batch is still theirs to hear)
    outcome: bool = False                   # of the last batch: money settled, its frames wait for its commit
    lobby: bool = False                     # of the last batch: its lobby line changed (a seat, the list, a hand)
    answering: list[Subscription] = field(default_factory=list)    # its request subjects, until it closes
    dropped: bool = False                   # its lease lost (a write refused): an answer on its way says not here
    _encoded: tuple[list, list[dict], list[dict], list[bytes]] | None = field(default=None, init=False, repr=False)

    # ------------------------------------------------------------------ the runner interface

    @property
    def table_id(self) -> str:
        return self.table.table_id

    def apply(self, command: Any, now: float) -> list:
        return self.table.apply(command, now)

    def next_deadline(self) -> Deadline | None:
        return self.table.next_deadline()

    def fire(self, deadline: Deadline, now: float) -> list:
        return self.table.fire(deadline, now)

    def encoded(self, events: list) -> tuple[list[dict], list[dict], list[bytes]]:
        """The batch as the protocol writes it (for the record), in its wire form (:mod:`~pokerroom.protocol.wire_form`)
        and that packed (for the log and the frames): made once."""
        encoded = self._encoded                 # the last batch, as dicts, on the wire and packed
        if encoded is not None and encoded[0] is events:
            return encoded[1], encoded[2], encoded[3]
        dicts = [table_event_to_dict(event) for event in events]
        wire = [lean(as_dict) for as_dict in dicts]
        pack_one = packer().pack
        packed = [pack_one(as_dict) for as_dict in wire]
        self._encoded = (events, dicts, wire, packed)
        return dicts, wire, packed

    def transfers(self, events: list) -> dict[int, Any]:
        """Look at the batch once, in order: keep it for catch-ups, track the hand, and move the money its events
        name (position in ``events`` -> the transfer, flagged at once; the recorder stores it with the batch)."""
        _, _, packed = self.encoded(events)
        table_id = self.table.table_id
        transfers = {}
        left: tuple[str, ...] = ()
        outcome = lobby = False
        self.log.extend(packed)                 # packed: bytes are nothing for the garbage collector to scan
        if events:
            self.log_seq = events[-1].seq
        for i, event in enumerate(events):
            kind = type(event)
            if kind is te.HandEvent:                        # nearly every event: checked first
                inner = event.event
                if type(inner) in _PASSING:                 # an action, a post, a card: nothing to track
                    continue
                settlement = self._hand_event(inner)
                if settlement is not None:
                    transfers[i] = settlement
                    outcome = True
                elif isinstance(inner, he.DeckRevealed):    # a hand's end that moved no money
                    outcome = True
                elif isinstance(inner, he.HandEnded):
                    lobby = True
            elif kind is te.DecisionStarted:
                self.decision_seq = event.seq
            elif isinstance(event, te.PlayerSeated):
                lobby = True
                self.seated = None
                transfers[i] = self._move(cash(event.player), table_escrow(table_id, event.player), event.stack,
                                          "buy_in")
            elif isinstance(event, te.ChipsAdded):
                player = self.table.players[event.seat].player_id
                transfers[i] = self._move(cash(player), table_escrow(table_id, player), event.added, "add_chips")
            elif isinstance(event, te.PlayerLeft):
                lobby = True
                self.seated = None
                left += (event.player,)
                if event.stack:
                    transfers[i] = self._move(table_escrow(table_id, event.player), cash(event.player),
                                              event.stack, "cash_out")
                    outcome = True
            elif isinstance(event, te.WaitingListChanged):
                lobby = True
        self.left, self.outcome, self.lobby = left, outcome, lobby
        return transfers

    def full(self, events: list, transfers: dict[int, Any], now: float) -> FullBatch:
        """What the recorder stores of the batch: its events as they happened, the transfers, the hand's stacks."""
        dicts, _, _ = self.encoded(events)
        return FullBatch(self.table.rules, events, dicts, now, transfers, self.hand)

    def audiences(self, events: list) -> list[tuple[dict, Audiences]]:
        """The batch's frames (at most :data:`BATCH` events each), each as each audience may see it."""
        _, wire, packed = self.encoded(events)
        return self.frames(events, wire, packed)

    # ------------------------------------------------------------------ what the host asks besides

    @property
    def players(self) -> set[str]:
        """The players in the running hand (who chat may be closed to, HR-CHAT-4)."""
        return set(self.hand.players.values()) if self.hand is not None else set()

    def seated_now(self, left: tuple[str, ...] = ()) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
        """Who hears the table on their seat's stream: the players seated now, and ``left`` (who stood up in the
        batch: their leaving is the last frame of the table there), with each one's subject."""
        if self.seated is None:
            table_id = self.table.table_id
            self.seated = tuple(s.player_id for s in self.table.players.values())
            self.seats = tuple((player, table_seat(table_id, player)) for player in self.seated)
        if not left:
            return self.seated, self.seats
        gone = tuple(player for player in left if player not in self.seated)
        return (self.seated + gone,
                self.seats + tuple((player, table_seat(self.table.table_id, player)) for player in gone))

    def frames(self, events: list, dicts: list[dict], packed: list[bytes]) -> list[tuple[dict, Audiences]]:
        """Events (live, or a catch-up's from the log) in frames of at most :data:`BATCH`, each with its head."""
        out = []
        for start in range(0, len(events), BATCH):
            batch = events[start:start + BATCH]
            audiences = self._audiences(batch, dicts[start:start + BATCH], packed[start:start + BATCH])
            if audiences is not None:
                out.append(({"type": "table_events", "table": self.table.table_id, "seq": batch[-1].seq},
                            audiences))
        return out

    # ------------------------------------------------------------------ inside

    def _move(self, source: str, target: str, amount: int, reason: str) -> Any:
        """A table's transfer: the recorder stores it from the batch, in the events' order; flagged at once."""
        return self.wallet.move(source, target, amount, reason, self.table.table_id, store=False)

    def _hand_event(self, event: he.Event) -> Any:
        """Track the hand's stacks; at its end, settle it (the transfer, or None)."""
        if isinstance(event, he.HandStarted):
            self.hand = HandStacks(event.hand_id)
        elif isinstance(event, he.SeatDealtIn):
            hand = self.hand
            hand.dealt(event.seat, event.player, event.stack)
            self.dealt_by_hand.setdefault(hand.hand_id, {})[event.seat] = event.player
            while len(self.dealt_by_hand) > LOG_HANDS:
                self.dealt_by_hand.pop(next(iter(self.dealt_by_hand)))
        elif isinstance(event, he.PotFormed):
            self.pots.append(event.amount)
        elif isinstance(event, he.HandEnded):
            self.hand.ended(event.stacks, event.rake)
        elif isinstance(event, he.DeckRevealed):
            hand = self.hand
            settlement = self.wallet.settle_hand(self.table.table_id, hand.hand_id, hand.start, hand.end,
                                                 hand.rake)            # stored with the hand; flagged (AC-6)
            self.metrics.hands.inc()
            return settlement
        return None

    def _audiences(self, events: list, dicts: list, packed: list[bytes]) -> Audiences | None:
        """One frame's events as each audience may see it (:mod:`pokerroom.shell.audiences`).

        Every event passes the one redaction function as an observer sees it;
        that public batch is built and packed once. A player whose own hole
        cards are in it gets the batch with their cards; the player whose
        decision it starts gets their ``legal`` actions with it. A batch of
        events anyone may see whole (:data:`~pokerroom.table.events.PUBLIC_AS_IS`:
        the redaction's own first test) -- nearly every action's -- is its
        dicts and bytes as they are.
        """
        decision_seq = self.decision_seq
        decision = None
        for event in events:
            kind = type(event)
            if kind is te.HandEvent:
                if type(event.event) in PUBLIC_HAND:
                    continue
            elif kind in te.PUBLIC_AS_IS:
                if kind is te.DecisionStarted and event.seq == decision_seq:
                    decision = event
                continue
            return self._redacted(events, dicts, packed)    # hole cards, the deck: redacted one by one
        if not events:
            return None
        return Audiences(dicts, {}, self._legal(decision), packed, {})

    def _legal(self, decision: te.DecisionStarted | None) -> dict[str, dict]:
        """``{player: {"legal": ...}}`` for the player whose decision the batch starts, if it is still theirs."""
        clock = self.table.clock
        if decision is not None and clock is not None and clock.seat == decision.seat:
            seated = self.table.players.get(decision.seat)
            legal = self.table.legal_actions(seated.player_id) if seated is not None else None
            if legal is not None:
                return {seated.player_id: {"legal": legal.to_wire()}}
        return {}

    def _redacted(self, events: list, dicts: list, packed: list[bytes]) -> Audiences | None:
        public: list[dict] = []
        public_packed: list[bytes] = []
        mine: dict[str, dict[int, tuple[dict, bytes]]] = {}   # player -> position in the batch -> their own view
        decision = None
        for event, as_dict, as_bytes in zip(events, dicts, packed, strict=True):
            shown = redact(event, OBSERVER)
            if shown is None:
                continue
            if shown is not event:                      # hole cards: their owner sees them
                owner = self.dealt_by_hand.get(event.hand_id, {}).get(event.event.seat)
                if owner is not None:
                    mine.setdefault(owner, {})[len(public)] = (as_dict, as_bytes)
                as_dict = lean(table_event_to_dict(shown))
                as_bytes = pack(as_dict)
            elif isinstance(event, te.DecisionStarted) and event.seq == self.decision_seq:
                decision = event
            public.append(as_dict)
            public_packed.append(as_bytes)
        if not public:
            return None
        own = {player: [views[i][0] if i in views else e for i, e in enumerate(public)]
               for player, views in mine.items()}
        own_packed = {player: [views[i][1] if i in views else b for i, b in enumerate(public_packed)]
                      for player, views in mine.items()}
        return Audiences(public, own, self._legal(decision), public_packed, own_packed)
