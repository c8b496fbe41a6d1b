"""The director's side of hands played away: each sent to a table process, its actions forwarded, its end taken.

A room whose tournaments play their hands anywhere (``[tournaments] play_hands = "anywhere"``) deals no
tournament hand beside its director: the hall's next hand is a ``SendHand`` (the plan kept as the table's
``away``, TR-PLAY-4), and :class:`HandsAway` asks one of the room's table processes to play it
(``tournaments.hands``, a :class:`~pokerroom.bus.records.PlayHand`: :mod:`~.hand_host`). From then on:

* a player's ``act`` reaches the director as ever (``tournament.<id>.command``) and is forwarded to the process
  playing the hand, whose answer -- a refusal too -- is the player's;
* the hand's end comes back as a :class:`~pokerroom.bus.records.HandBack`: the director takes its result
  (``ReturnHand``: refused whole if it is not the hand sent) and each dealt entry's time bank (HR-TIME-4), and the
  event goes on as after a hand dealt here;
* a hand nobody took (no table process answered), or whose process's node lease is gone (it died: the live
  nodes are read afresh from the leases at each look, every :data:`WATCH_EVERY`, so a hand is void within the
  lease's ttl and a second of the death, not a roster beat later too), is void: ``VoidHand``, every stack as the
  hand began (TR-REFUND-1), and the table deals its next hand.

Nothing but the hand crosses: seats, stacks between hands, entries and money stay with the director.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from twisted.internet import defer
from twisted.internet.interfaces import IDelayedCall
from twisted.logger import Logger
from twisted.python.failure import Failure

from pokerroom.bus import NoResponder
from pokerroom.bus.records import HandAct, HandBack, PlayHand
from pokerroom.bus.subjects import TOURNAMENTS_HANDS, tournament_hand
from pokerroom.errors import RuleViolation
from tournament import commands as tc
from tournament import director as td
from tournament.hand_in_play import setup_to_plain

if TYPE_CHECKING:
    from pokerroom.shell.tournaments.hall import TournamentHall

WATCH_EVERY = 1.0               # seconds between looks at whether the processes playing hands are still live
HERE_FOR = 30.0                 # seconds hands are dealt beside the director after no table process took one


@dataclass(slots=True)
class Sent:
    """A hand away: its id, and the process that took it (None until it answers)."""

    hand_id: str
    node: str | None = None


class HandsAway:
    log = Logger()

    def __init__(self, hall: TournamentHall,
                 live_nodes: Callable[[], set[str] | defer.Deferred] | None = None) -> None:
        self.hall = hall
        self.live_nodes = live_nodes        # the live nodes (or a Deferred of them); None: one process, none dies alone
        self.sent: dict[tuple[str, str], Sent] = {}     # (event, table) -> its hand away
        self.watch_call: IDelayedCall | None = None
        self.looking = False                        # a read of the live nodes is on its way
        self.stopped = False
        self.here_until = 0.0                       # no table process answered: hands are dealt here until then

    def sends_now(self) -> bool:
        """Whether the next hand goes away; not for a while after nobody took one (dealt here meanwhile)."""
        return self.hall.reactor.seconds() >= self.here_until

    # ------------------------------------------------------------------ sending

    def send(self, d: td.Director, table_id: str) -> None:
        """Ask a table process to play the hand ``table_id`` is away at; void it if none takes it."""
        table = d.tables.get(table_id)
        setup = None if table is None else table.away
        if setup is None:
            return
        tid = d.spec.id
        hall = self.hall
        players = [s.player_id for s in setup.seats]
        hall.decisions.hand_dealt(tid, players)                    # HR-TIME-4: refills count hands
        late = d.spec.disconnect_protection if d.in_late_stage else 0      # HR-DC-4, once a hand
        order = PlayHand(tid, table_id, setup_to_plain(setup), hall.decision_seconds,
                         {p: hall.decisions.bank(tid, p) for p in players}, late,
                         tuple(p for p in players if not hall.feed.online(p)), d.spec.bounty > 0)
        sent = self.sent[(tid, table_id)] = Sent(setup.hand_id)
        asked = hall.bus.request(TOURNAMENTS_HANDS, order)
        asked.addCallbacks(self._taken, self._not_taken, callbackArgs=(sent,), errbackArgs=(d, table_id, sent))
        self._watch()

    def _taken(self, answer: Any, sent: Sent) -> None:
        sent.node = answer["node"] if isinstance(answer, dict) else None

    def _not_taken(self, failure: Failure, d: td.Director, table_id: str, sent: Sent) -> None:
        """Nobody took the hand: it is void (nothing of it was dealt), and the next hands are dealt here for a
        while rather than sent to nobody again."""
        self.log.warn("tournament {id}: nobody took hand {hand}: {why}; it is void", id=d.spec.id, hand=sent.hand_id,
                      why=failure.getErrorMessage())
        self.here_until = self.hall.reactor.seconds() + HERE_FOR
        self.void(d, table_id, sent)

    # ------------------------------------------------------------------ while it is played

    def forward(self, d: td.Director, command: tc.Act) -> defer.Deferred | None:
        """A player's action at a hand away, to the process playing it (its answer is the player's); None when
        the player's hand is here."""
        table = d.table_of(command.player)
        if table.away is None:
            return None
        hand_id = table.away.hand_id
        asked = self.hall.bus.request(tournament_hand(d.spec.id, hand_id), HandAct(hand_id, command))
        return asked.addErrback(_unreached, hand_id)

    def returned(self, d: td.Director, back: HandBack) -> list:
        """The hand's end, from the process that played it: each entry's time bank after it, then its result
        through the hall's one path (refused whole, and nothing changed, if it is not the hand sent)."""
        result = back.result
        sent = self.sent.get((d.spec.id, result.table))
        events = self.hall.command(d, result)
        self.hall.decisions.banks_left(d.spec.id, {p: s for p, s in back.banks.items() if p in result.start})
        if sent is not None and sent.hand_id == result.hand_id:
            del self.sent[(d.spec.id, result.table)]
        return events

    def void(self, d: td.Director, table_id: str, sent: Sent) -> None:
        """The hand's process is gone (or nobody took it): void (TR-REFUND-1), if it is still away."""
        key = (d.spec.id, table_id)
        if self.sent.get(key) is not sent:
            return
        del self.sent[key]
        if self.hall.directors.get(d.spec.id) is not d:
            return
        try:
            self.hall.command(d, tc.VoidHand(table_id, sent.hand_id))
        except RuleViolation as refusal:
            self.log.warn("tournament {id}: hand {hand} could not be voided: {why}", id=d.spec.id,
                          hand=sent.hand_id, why=refusal.message)

    # ------------------------------------------------------------------ who died

    def _watch(self) -> None:
        waiting = self.looking or (self.watch_call is not None and self.watch_call.active())
        if self.live_nodes is None or self.stopped or waiting:
            return
        self.watch_call = self.hall.reactor.callLater(WATCH_EVERY, self._look)

    def _look(self) -> None:
        """The live nodes read, then every hand whose process is not among them is void; a read that fails voids
        nothing (the next look reads again)."""
        self.watch_call = None
        if self.live_nodes is None:
            return
        self.looking = True
        read = defer.maybeDeferred(self.live_nodes)
        read.addCallbacks(self._looked, self._unread)
        read.addErrback(lambda failure: self.log.failure("voiding the hands of a gone process failed", failure))

    def _unread(self, failure: Failure) -> None:
        self.log.failure("reading the live nodes for the hands away failed", failure)
        self.looking = False
        if self.sent:
            self._watch()

    def _looked(self, live: set[str]) -> None:
        self.looking = False
        if self.stopped:
            return
        for (tid, table_id), sent in list(self.sent.items()):
            d = self.hall.directors.get(tid)
            if d is None:
                del self.sent[(tid, table_id)]
            elif sent.node is not None and sent.node not in live:
                self.log.warn("tournament {id}: the process playing hand {hand} ({node}) is gone; the hand is void",
                              id=tid, hand=sent.hand_id, node=sent.node)
                self.void(d, table_id, sent)
        if self.sent:
            self._watch()

    def forget(self, tid: str) -> None:
        """The event left this process: none of its hands away is watched here any more."""
        for key in [k for k in self.sent if k[0] == tid]:
            del self.sent[key]

    def stop(self) -> None:
        self.stopped = True
        if self.watch_call is not None and self.watch_call.active():
            self.watch_call.cancel()
        self.watch_call = None


def _unreached(failure: Failure, hand_id: str) -> Failure:
    """The process playing the hand did not answer: the player reads why, and that the hand is voided if it died."""
    if failure.check(NoResponder):
        raise RuleViolation("hand_unreachable", f"the process playing hand {hand_id} does not answer; if it "
                            "stopped, the hand is void and every stack goes back to where it began", "TR-REFUND-1")
    return failure
