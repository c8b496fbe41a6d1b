"""The casino floor: every casino table on the room's reactor -- timers, ledger, store and fan-out.

Theory of operation
-------------------
Casino tables (:mod:`pokerroom.casino`) are pure. The floor is their thin
shell, built once by the composition root (:mod:`pokerroom.shell.composition`)
with what it uses, and stopped with it (its round timers cancelled). Every
command is a record of :mod:`pokerroom.casino.commands` applied by the
table's one ``apply``: a player's (join, leave, bet, decide) and an operator's void come
as requests on ``casino.<id>.command`` (:func:`~pokerroom.bus.subjects.casino_command`),
which the floor's request handlers send and the floor answers with plain data
(a refusal: the RuleViolation, code and amounts kept), as a cash table's host
does; the floor's timer and the session events apply theirs in place. Every
command's events go through :meth:`CasinoFloor._run`, the table pipeline of
its :class:`~pokerroom.shell.casino_runner.CasinoRunner` (the cash tables'
interface, :class:`~pokerroom.shell.runner.Runner`), which

1. moves the money the events name, through the room's ledger only:
   :class:`~pokerroom.casino.events.Staked` from the wallet to the player's
   stake account at the table (``casino:<table>:<player>``); a settled round
   in one transfer (stakes off the table, what each bet hands back to the
   wallets, the difference to ``house:casino``, CR-4); a voided round in one
   refund (CR-5). After a crash, stakes still on a table are refunded by the
   room's recovery: the round they were on never finished;
2. stores a finished round's result, cards and every bet (results history,
   bet history: CR-7; claims: BOB-6) with the transfer settling or refunding
   it, in one transaction, through the recorder's port
   (:class:`~pokerroom.shell.recorder.TableRecording`), as a cash table's
   hands go;
3. sends the events: public ones to everyone at the table, a player's own
   stakes, bets and decisions to that player only, and a settled round's
   payouts to each player as their own -- a finished round's events (and the
   table's after them) only once its transaction has committed
   (:mod:`~pokerroom.shell.outcome_hold`), so a crash never takes back a
   payout a player saw;
4. arms the table's one :class:`~pokerroom.shell.runner.Timer` for what its
   :meth:`~pokerroom.casino.table.CasinoTable.due` asks for (betting, a
   decision, the pause between rounds, or the 24 hours a round waits for a
   disconnected player, CR-6).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from twisted.internet import defer
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

from pokerroom.bus import NoResponder
from pokerroom.bus.records import CasinoRead, LobbySection, SessionEvent, SessionGone
from pokerroom.bus.subjects import (
    CASINO_PLAYING,
    CASINO_TABLES,
    LOBBY_SECTION,
    SESSION_EVENTS,
    casino_command,
    casino_public,
    casino_read,
    casino_seat,
)
from pokerroom.casino import commands as cc
from pokerroom.casino.table import CasinoTable
from pokerroom.errors import RuleViolation
from pokerroom.protocol.schema import Request, ok
from pokerroom.shell.audiences import publish
from pokerroom.shell.cash_play import answered
from pokerroom.shell.casino_claims import ClaimBook
from pokerroom.shell.casino_runner import CasinoRunner
from pokerroom.shell.in_play import answer_in_play
from pokerroom.shell.outcome_hold import OutcomeHold
from pokerroom.shell.runner import Timer

if TYPE_CHECKING:
    from pokerroom.bus import Bus
    from pokerroom.gateway.routes import Gateway
    from pokerroom.gateway.sessions import Session
    from pokerroom.shell.recorder import Recorder
    from pokerroom.shell.wallet import Wallet
    from pokerroom.store.room_store import RoomStore

CLAIM_DAYS = 30                         # BOB-6
STAFF = frozenset({"admin"})            # who may void a round for a malfunction
# The commands ``casino.<id>.command`` takes: a player's and an operator's (the staff check is the request's);
# the timer's and the session events' are the floor's own, applied in place.
_REQUESTED = frozenset({cc.Join, cc.Leave, cc.Bet, cc.Decide, cc.Void})
_MEMBERS = frozenset({cc.Bet, cc.Decide})        # refused ``not_at_table`` before the table sees them


class CasinoFloor:
    """The casino tables' shell: their requests, timers, money, records and frames; built once by the composition
    root with what it uses, and stopped with the room (its round timers cancelled)."""

    log = Logger()

    def __init__(self, tables: Iterable[CasinoTable], *, clock: IReactorTime, store: RoomStore, bus: Bus,
                 wallet: Wallet, gateway: Gateway, recorder: Recorder, may_play: Callable[[Session], None]) -> None:
        self.reactor = clock                        # the casino's timers: the room's reactor, or a test's Clock
        self.store = store                          # read at start (claims, round numbers); written by the recorder
        self.bus = bus
        self.wallet = wallet                        # the stakes, the settlements, a bettor's balance
        self.gateway = gateway                      # the floor's requests; a member follows their table's stream
        self.recorder = recorder                    # the writer, and its port for every round's end (as cash hands)
        self.may_play = may_play                    # the one may-play check (closed, staff SEC-2, frozen, AC-2, AC-5)
        self.tables: dict[str, CasinoTable] = {t.table_id: t for t in tables}
        self.members: dict[str, set[str]] = {t: set() for t in self.tables}    # players who joined
        self.runners = {t: CasinoRunner(table, self.reactor, wallet) for t, table in self.tables.items()}
        self.timers = {t: Timer(runner, self.reactor, lambda events, table=runner.table: self._run(table, events))
                       for t, runner in self.runners.items()}                  # each table's one timer
        self.claims = ClaimBook()                                              # BOB-6 claims: one per round
        self.holds = {t: OutcomeHold(bus) for t in self.tables}                # each table's frames
        self.listed: tuple[dict, ...] | None = None                            # the lobby section as last sent
        self.stopped = False                                                   # the room has stopped: no timer

    # ------------------------------------------------------------------ composition

    def install(self) -> None:
        """Register the floor's requests, its connection hooks and its lobby section with the room."""
        self.gateway.serve(self, {"casino_list", "casino_rules", "casino_history"})
        for table in self.tables.values():
            self.bus.respond(casino_command(table.table_id),
                             lambda command, table=table: self._commanded(table, command))
            self.bus.respond(casino_read(table.table_id), lambda read, table=table: self._read(table, read))
        self.bus.respond(CASINO_TABLES, lambda _: self.listing())
        answer_in_play(self.bus, CASINO_PLAYING, self.playing)          # SEC-2, AC-3: asked before a promotion
        self.bus.subscribe(SESSION_EVENTS, self._session_event)
        self._lobby_section()

    def playing(self, player: str) -> bool:
        """A bet of the player's is in an open round."""
        return any(player in table.players() for table in self.tables.values())

    def start(self) -> None:
        """Open every table's first round, numbered on from the last one stored or staked on (CR-7: numbers are
        never reused, a round a crash voided included)."""
        self.claims.restore((r.data["player"], r.data["table"], r.data["round"])
                            for r in self.store.audit_log.audit_records("casino_claim"))
        for table in self.tables.values():
            table.number = self.store.casino.last_casino_round(table.table_id)
            self.timers[table.table_id].arm()

    def stop(self) -> None:
        """The room is stopping: no round timer fires again and no session event moves a table (the tables keep
        their state, as a crash would: stakes still on a table are refunded by the next start's recovery)."""
        self.stopped = True
        for timer in self.timers.values():
            timer.stop()

    def listing(self) -> list[dict]:
        return [t.summary() for t in self.tables.values()]

    def _lobby_section(self) -> None:
        """The lobby's casino section, sent whole on ``lobby.section`` when it has changed (the lobby feed, in the
        gateway's process, keeps the copy it answers ``lobby_list`` with)."""
        lines = tuple(self.listing())
        if lines != self.listed:
            self.listed = lines
            self.bus.publish(LOBBY_SECTION, LobbySection("casino", lines))

    def _read(self, table: CasinoTable, read: CasinoRead) -> dict:
        """``casino.<id>.read``: the table's rules, or its results history (CR-7), as plain data."""
        if read.what == "rules":
            return table.describe()
        if read.what == "history":
            return {"results": [list(r) for r in table.results], "statistics": table.statistics()}
        raise RuleViolation("unknown_read", f"a casino table has no {read.what!r} to read")

    # ------------------------------------------------------------------ the one path of every command

    def _apply(self, table: CasinoTable, command: cc.CasinoCommand) -> list:
        """Apply one command record at the table and run its events (its timer armed again)."""
        return self.timers[table.table_id].command(command)

    def _commanded(self, table: CasinoTable, command: Any) -> Any:
        """``casino.<id>.command``: the command applied, answered with plain data once the frames it caused are
        out (a settling decision: after the settlement's commit); a refusal changes nothing and is raised to the
        requester, its amounts in the table's money."""
        kind = type(command)
        if kind not in _REQUESTED:
            raise RuleViolation("unknown_command", f"a casino table takes no {kind.__name__} by request")
        table_id = table.table_id
        player = getattr(command, "player", None)
        if kind in _MEMBERS and player not in self.members[table_id]:
            raise RuleViolation("not_at_table", f"join {table_id} first")
        number = table.number
        try:
            events = table.apply(command)
        except RuleViolation as refusal:
            raise refusal.priced(table.rules.currency) from None
        if kind is cc.Join:
            self.members[table_id].add(player)
        elif kind is cc.Leave:
            self.members[table_id].discard(player)     # the seat's stream stays open: their leaving's frames
        self._run(table, events)
        if kind is cc.Join:
            answer = table.view(player)
        elif kind is cc.Bet:
            placed = events[0]
            answer = {"round": table.number, "market": placed.market, "amount": placed.amount, "odds": placed.odds,
                      "balance": self.wallet.balance(player)}
        elif kind is cc.Decide:
            answer = {"decision": table.decision_of(player)}
        elif kind is cc.Void:
            answer = {"round": number}
        else:
            answer = {}
        return self.holds[table_id].after(answer)

    def _run(self, table: CasinoTable, events: list) -> list:
        """The table pipeline of a casino batch: its money, each round's end stored through the recorder's port
        (the frames after it wait for its commit), the frames, and the table's one timer armed again."""
        table_id = table.table_id
        runner = self.runners[table_id]
        hold = self.holds[table_id]
        now = self.reactor.seconds()
        transfers = runner.transfers(events)
        for round_end in runner.full(events, transfers, now):
            hold.until(self.recorder.record_round(round_end))
        members = self.members[table_id]
        for head, audiences in runner.audiences(events):
            seated = (*members, *(p for p in audiences.own if p not in members))   # who bet hears of it, left or not
            publish(hold, casino_public(table_id), head, "events", audiences, seated,
                    tuple((player, casino_seat(table_id, player)) for player in seated))
        if not self.stopped:
            self.timers[table_id].arm()
        self._lobby_section()
        return events

    # ------------------------------------------------------------------ connections

    def _session_event(self, subject: str, event: SessionEvent) -> None:
        if self.stopped:
            return
        if isinstance(event, SessionGone):
            if event.current:                       # not a session a newer login took over
                self._disconnected(event.player)
        else:
            self._reconnected(event.player, event.session)

    def _disconnected(self, player: str) -> None:
        now = self.reactor.seconds()
        for table_id, members in self.members.items():
            if player in members:
                table = self.tables[table_id]
                self._apply(table, cc.Disconnect(player, now))

    def _reconnected(self, player: str, session_id: str) -> None:
        """A player back after a disconnection resumes where they left (CR-6), on the session they came back on
        (found in this process's gateway; one a newer login took over meanwhile hears of its own return)."""
        session = self.gateway.by_player.get(player)
        if session is None or session.id != session_id:
            return
        for table_id, members in self.members.items():
            if player in members:
                table = self.tables[table_id]
                self.gateway.follow(session, casino_seat(table_id, player))
                self._apply(table, cc.Reconnect(player))
                session.push({"type": "casino_state", **table.view(player), "decision": table.decision_of(player)})

    # ------------------------------------------------------------------ requests

    # The reads anyone may make, asked of the floor as requests (the handlers are the gateway's side of the line):
    # each is one request to one table, its answer bounded (the last results of the table, HISTORY of them).

    def _on_casino_list(self, session: Any, request: Request) -> Any:
        return answered(self.bus.request(CASINO_TABLES, None), "", lambda lines: ok(request, tables=lines))

    def _on_casino_rules(self, session: Any, request: Request, table: str) -> Any:
        return self._ask(table, CasinoRead("rules"), lambda rules: ok(request, **rules), casino_read)

    def _on_casino_history(self, session: Any, request: Request, table: str) -> Any:
        return self._ask(table, CasinoRead("history"), lambda history: ok(request, table=table, **history),
                         casino_read)

    def _ask(self, table: str, command: Any, then: Any, subject: Callable[[str], str] = casino_command) -> Any:
        """``then`` of the table's answer to ``command``, sent on ``casino.<id>.command`` (or a read on ``subject``):
        at once when it came in the same call (the in-process bus), else a Deferred; a refusal is raised, or fails
        the Deferred."""
        asked = self.bus.request(subject(table), command).addErrback(_no_such_table, table)
        return answered(asked, table, then)

    def _on_casino_join(self, session: Any, request: Request, table: str, seat: int | None = None) -> Any:
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

    def _on_casino_leave(self, session: Any, request: Request, table: str) -> Any:
        return self._ask(table, cc.Leave(session.player_id), lambda _: ok(request))

    def _on_casino_bet(self, session: Any, request: Request, table: str, market: str, amount: int,
                       seat: int | None = None) -> Any:
        self.may_play(session)
        command = cc.Bet(session.player_id, market, amount, self.wallet.balance(session.player_id), seat)
        return self._ask(table, command, lambda placed: ok(request, **placed))

    def _on_casino_decide(self, session: Any, request: Request, table: str, move: str, decision: str,
                          hand: int = 0) -> Any:
        """A blackjack move on the decision ``decision`` names (an older one: stale_decision, nothing moves).

        The answer names the player's next decision (null: none now): at infinite blackjack each player goes on
        deciding alone, with no ``decision_needed`` between their moves.
        """
        command = cc.Decide(session.player_id, move, hand, self.wallet.balance(session.player_id), decision)
        return self._ask(table, command, lambda answer: ok(request, **answer))   # a settling one: once settled

    def _on_casino_bets(self, session: Any, request: Request, limit: int = 20) -> Any:
        """The player's own bet history (CR-7), read through the writer's queue so the newest round is in it."""
        def shape(rows: list) -> dict:
            return ok(request, bets=[{"table": r.table_id, "round": r.number, "market": r.market,
                                      "staked": r.staked, "returned": r.returned, "detail": r.detail, "at": r.at}
                                     for r in rows])

        return self.recorder.write(self.store.casino.casino_bets_of, session.player_id, limit,
                               quiet=False).addCallback(shape)

    def _on_casino_claim(self, session: Any, request: Request, table: str, round: int, text: str) -> Any:  # noqa: A002
        """A claim about a result, for the security team; taken up to 30 days after the draw (BOB-6). The table is
        the table process's: that it exists is asked (its rules read; nobody answers for no table)."""
        player = session.player_id

        def take(_: dict) -> defer.Deferred:
            now = self.reactor.seconds()
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

    def _on_casino_void(self, session: Any, request: Request, table: str, reason: str) -> Any:
        """An operator voids the round in play for a malfunction (CR-5, BOB-5, IB-12)."""
        if session.role not in STAFF:
            raise RuleViolation("not_staff", "only the room's staff may void a round")
        def voided(answer: dict) -> dict:
            self.recorder.write(self.store.audit, "casino_void", {"table": table, "round": answer["round"],
                                                               "by": session.player_id, "reason": reason},
                            self.reactor.seconds())
            return ok(request, round=answer["round"])

        return self._ask(table, cc.Void(reason), voided)


def _no_such_table(failure: Any, table: str) -> Any:
    """A request to a casino table nobody answers for: there is no such table."""
    if failure.check(NoResponder):
        raise RuleViolation("unknown_table", f"there is no casino table {table!r}")
    return failure
