"""Playing at the casino tables: the casino requests on the gateway's side of the process line.

Each request checks who may play where a player joins or stakes (the one
may-play check, :mod:`pokerroom.shell.play_check`), then sends the table one
command record (:mod:`pokerroom.casino.commands`) as a request on
``casino.<id>.command``, or a read on ``casino.<id>.read``: the casino floor,
in the table process, applies it with the funds its wallet reads and answers
with plain data (a refusal: the RuleViolation, code and amounts kept), as
:class:`~pokerroom.shell.cash_play.CashPlay` does with the cash tables. This
service holds no table: it keeps what is the gateway's -- the streams a
member's session follows (``casino.<id>.seat.<name>``) and the claims about
results (BOB-6: one per player and round, and a pace; the book restored from
the shared store at start).

A player back on a new connection resumes where they left (CR-6): on the
session's ``SessionBack`` record, this service asks the floor which tables the
player is a member of (``casino.memberships``, a read only it sends, for the
session's own player: ids, nothing private), follows each seat's stream and
only then sends the table a ``Reconnect`` (so the frames it makes, a
blackjack decision asked again, reach the session), whose answer is the
``casino_state`` pushed. A disconnection the floor takes from the records
alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twisted.internet import defer
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger
from twisted.python.failure import Failure

from pokerroom.bus import Bus, NoResponder
from pokerroom.bus.records import CasinoRead, MembershipsRead, SessionBack, SessionEvent
from pokerroom.bus.subjects import (
    CASINO_MEMBERSHIPS,
    CASINO_TABLES,
    SESSION_EVENTS,
    casino_command,
    casino_read,
    casino_seat,
)
from pokerroom.casino import commands as cc
from pokerroom.errors import RuleViolation, Unanswered
from pokerroom.gateway.routes import Gateway
from pokerroom.gateway.sessions import Session
from pokerroom.protocol.schema import Request, ok
from pokerroom.shell.asked import answered
from pokerroom.shell.casino_claims import ClaimBook
from pokerroom.shell.every_node import ask_every_node, ids, lines_by, lists_by_key
from pokerroom.shell.recorder import Recorder
from pokerroom.store.room_store import RoomStore

CLAIM_DAYS = 30                         # BOB-6
STAFF = frozenset({"admin"})            # who may void a round for a malfunction
PUBLIC = frozenset({"casino_list", "casino_rules", "casino_history"})      # the reads anyone may make, no login
NO_FUNDS = 0                            # a command's funds: the floor reads them from its wallet, whatever is sent


class CasinoPlay:
    """The casino requests, the streams of a member's session and the claim book; built once by the composition
    root, the floor reached only through the bus."""

    log = Logger()

    def __init__(self, gateway: Gateway, bus: Bus, store: RoomStore, recorder: Recorder, clock: IReactorTime,
                 may_play: Callable[[Session], None]) -> None:
        self.gateway = gateway                  # the routes; a member's session follows their table's stream
        self.bus = bus
        self.store = store                      # the shared store: claims at start, a player's bets, a round
        self.recorder = recorder                # this process's writer: the claims and voids it audits
        self.clock = clock
        self.may_play = may_play                # the one may-play check (closed, staff SEC-2, frozen, AC-2, AC-5)
        self.claims = ClaimBook()               # BOB-6 claims: one per player and round, and a pace

    def install(self) -> None:
        """Serve the casino requests and hear of sessions coming back (CR-6)."""
        self.gateway.serve(self, PUBLIC)
        self.bus.subscribe(SESSION_EVENTS, self._session_event)

    def start(self) -> None:
        """The claims stored before a restart stay open (the store is shared with the table process)."""
        self.claims.restore((r.data["player"], r.data["table"], r.data["round"])
                            for r in self.store.audit_log.audit_records("casino_claim"))

    # ------------------------------------------------------------------ a player back (CR-6)

    def _session_event(self, subject: str, event: SessionEvent) -> None:
        if isinstance(event, SessionBack) and self._current(event.player, event.session) is not None:
            asked = ask_every_node(self.bus, CASINO_MEMBERSHIPS, MembershipsRead(event.player),
                                   lists_by_key("tables", order=ids))          # each node: its casino tables
            asked.addCallback(self._resumed, event.player, event.session).addErrback(self._unanswered)

    def _current(self, player: str, session_id: str) -> Session | None:
        """The player's session in this gateway if it is the one named (one a newer login took over meanwhile
        hears of its own return)."""
        session = self.gateway.by_player.get(player)
        return session if session is not None and session.id == session_id else None

    def _resumed(self, memberships: dict, player: str, session_id: str) -> None:
        session = self._current(player, session_id)         # still that session, once the floor has answered
        if session is None:
            return
        for table in memberships["tables"]:
            stream = casino_seat(table, player)
            self.gateway.follow(session, stream)            # first: the reconnect's frames come on it
            asked = self.bus.request(casino_command(table), cc.Reconnect(player))
            asked.addCallbacks(self._shown, self._not_back, (session,), errbackArgs=(session, stream))

    def _shown(self, state: dict, session: Session) -> None:
        session.push({"type": "casino_state", **state})

    def _not_back(self, failure: Failure, session: Session, stream: str) -> None:
        """No longer at the table (their round ended meanwhile, or the table left): nothing to resume there."""
        self.gateway.unfollow(session, stream)
        if not failure.check(RuleViolation, NoResponder):
            self.log.failure("a returning player's casino table did not answer", failure)

    def _unanswered(self, failure: Failure) -> None:
        if not failure.check(NoResponder):                  # no floor in this room: nobody is at a casino table
            self.log.failure("a returning player's casino tables were not read", failure)

    # ------------------------------------------------------------------ requests

    # The reads anyone may make, asked of the floor as requests: each is one request to one table, its answer
    # bounded (the last results of the table).

    def _on_casino_list(self, session: Session, request: Request) -> Any:
        return answered(ask_every_node(self.bus, CASINO_TABLES, None, lines_by("table")), "",
                        lambda lines: ok(request, tables=lines))

    def _on_casino_rules(self, session: Session, request: Request, table: str) -> Any:
        return self._ask(table, CasinoRead("rules"), lambda rules: ok(request, **rules), casino_read)

    def _on_casino_history(self, session: Session, request: Request, table: str) -> Any:
        return self._ask(table, CasinoRead("history"), lambda history: ok(request, table=table, **history),
                         casino_read)

    def _ask(self, table: str, command: Any, then: Any, subject: Callable[[str], str] = casino_command) -> Any:
        """``then`` of the table's answer to ``command``, sent on ``casino.<id>.command`` (or a read on ``subject``):
        at once when it came in the same call (the in-process bus), else a Deferred; a refusal is raised, or fails
        the Deferred."""
        asked = self.bus.request(subject(table), command).addErrback(_no_such_table, table)
        return answered(asked, table, then)

    def _on_casino_join(self, session: Session, request: Request, table: str, seat: int | None = None) -> Any:
        self.may_play(session)
        stream = casino_seat(table, session.player_id)
        following = stream in session.streams
        self.gateway.follow(session, stream)           # the table whole, in order, from its first frame

        def refused(failure: Any) -> Any:
            if not following:
                self.gateway.unfollow(session, stream)
            return failure

        try:
            answer = self._ask(table, cc.Join(session.player_id, seat), lambda view: ok(request, **view))
        except RuleViolation:
            refused(None)
            raise
        return answer.addErrback(refused) if isinstance(answer, defer.Deferred) else answer

    def _on_casino_leave(self, session: Session, request: Request, table: str) -> Any:
        return self._ask(table, cc.Leave(session.player_id), lambda _: ok(request))

    def _on_casino_bet(self, session: Session, request: Request, table: str, market: str, amount: int,
                       seat: int | None = None) -> Any:
        self.may_play(session)
        command = cc.Bet(session.player_id, market, amount, NO_FUNDS, seat)
        return self._ask(table, command, lambda placed: ok(request, **placed))

    def _on_casino_decide(self, session: Session, request: Request, table: str, move: str, decision: str,
                          hand: int = 0) -> Any:
        """A blackjack move on the decision ``decision`` names (an older one: stale_decision, nothing moves).

        The answer names the player's next decision (null: none now): at infinite blackjack each player goes on
        deciding alone, with no ``decision_needed`` between their moves.
        """
        command = cc.Decide(session.player_id, move, hand, NO_FUNDS, decision)
        return self._ask(table, command, lambda answer: ok(request, **answer))   # a settling one: once settled

    def _on_casino_bets(self, session: Session, request: Request, limit: int = 20) -> Any:
        """The player's own bet history (CR-7), read through the writer's queue so the newest round is in it."""
        def shape(rows: list) -> dict:
            return ok(request, bets=[{"table": r.table_id, "round": r.number, "market": r.market,
                                      "staked": r.staked, "returned": r.returned, "detail": r.detail, "at": r.at}
                                     for r in rows])

        return self.recorder.write(self.store.casino.casino_bets_of, session.player_id, limit,
                                   quiet=False).addCallback(shape)

    def _on_casino_claim(self, session: Session, request: Request, table: str, round: int,  # noqa: A002
                         text: str) -> Any:
        """A claim about a result, for the security team; taken up to 30 days after the draw (BOB-6). The table is
        the table process's: that it exists is asked (its rules read; nobody answers for no table)."""
        player = session.player_id

        def take(_: dict) -> defer.Deferred:
            now = self.clock.seconds()
            claim = self.claims.take(player, table, round, now)            # one per player and round; a pace

            def refused(failure: Any) -> Any:
                self.claims.release(claim)
                return failure

            return self.recorder.write(self.store.casino.casino_round, table, round, quiet=False) \
                .addCallback(check, now).addErrback(refused)

        def check(record: Any, now: float) -> Any:
            if record is None:
                raise RuleViolation("unknown_round", f"{table} has no finished round {round}")
            if now - record.at > CLAIM_DAYS * 86_400:
                raise RuleViolation("claim_too_late", f"claims are accepted up to {CLAIM_DAYS} days after the draw; "
                                                      f"round {round} was {int((now - record.at) // 86_400)} days ago",
                                    "BOB-6")
            return self.recorder.write(self.store.audit, "casino_claim", {
                "table": table, "round": round, "player": player, "text": text, "result": record.result},
                now, quiet=False).addCallback(lambda _: ok(request, table=table, round=round))

        exists = self.bus.request(casino_read(table), CasinoRead("rules")).addErrback(_no_such_table, table)
        return exists.addCallback(take)

    def _on_casino_void(self, session: Session, request: Request, table: str, reason: str) -> Any:
        """An operator voids the round in play for a malfunction (CR-5, BOB-5, IB-12)."""
        if session.role not in STAFF:
            raise RuleViolation("not_staff", "only the room's staff may void a round")

        def voided(answer: dict) -> dict:
            self.recorder.write(self.store.audit, "casino_void", {"table": table, "round": answer["round"],
                                                               "by": session.player_id, "reason": reason},
                                self.clock.seconds())
            return ok(request, round=answer["round"])

        return self._ask(table, cc.Void(reason), voided)


def _no_such_table(failure: Any, table: str) -> Any:
    """A request to a casino table nobody answers for: there is no such table."""
    if failure.check(NoResponder):
        raise Unanswered("unknown_table", f"there is no casino table {table!r}", table, "casino")
    return failure
