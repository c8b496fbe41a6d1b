"""The casino floor: every casino table on the room's reactor -- timers, ledger, store and fan-out.

Theory of operation
-------------------
Casino tables (:mod:`pokerroom.casino`) are pure. The floor is their thin
shell, composed into the room by :mod:`pokerroom.app`. Every command -- a
player's bet or decision, a timer, an operator's void -- goes through
:meth:`CasinoFloor._run`, which

1. moves the money the events name, through the room's ledger only:
   :class:`~pokerroom.casino.events.Staked` from the wallet to the player's
   stake account at the table (``casino:<table>:<player>``); a settled round
   in one transfer (stakes off the table, what each bet hands back to the
   wallets, the difference to ``house:casino``, CR-4); a voided round in one
   refund (CR-5). After a crash, stakes still on a table are refunded by the
   room's recovery: the round they were on never finished;
2. stores a finished round's result, cards and every bet (results history,
   bet history: CR-7; claims: BOB-6) with the transfer settling or refunding
   it, in one transaction;
3. sends the events: public ones to everyone at the table, a player's own
   stakes, bets and decisions to that player only, and a settled round's
   payouts to each player as their own -- a finished round's events (and the
   table's after them) only once its transaction has committed
   (:mod:`~pokerroom.shell.outcome_hold`), so a crash never takes back a
   payout a player saw;
4. sets the one timer the table's :meth:`~pokerroom.casino.table.CasinoTable.due`
   asks for (betting, a decision, the pause between rounds, or the 24 hours
   a round waits for a disconnected player, CR-6).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol

from twisted.internet import defer
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

from pokerroom.bus.records import SessionEvent, SessionGone
from pokerroom.bus.subjects import SESSION_EVENTS, casino_public, casino_seat
from pokerroom.casino.events import PRIVATE, RoundSettled, RoundVoided, event_to_dict
from pokerroom.casino.money import casino_postings
from pokerroom.casino.table import CasinoTable
from pokerroom.errors import RuleViolation
from pokerroom.protocol.schema import Request, ok
from pokerroom.shell.audiences import Audiences, publish
from pokerroom.shell.casino_claims import ClaimBook
from pokerroom.shell.outcome_hold import OutcomeHold

if TYPE_CHECKING:
    from pokerroom.bus import Bus
    from pokerroom.gateway.routes import Gateway
    from pokerroom.gateway.sessions import Session
    from pokerroom.shell.lobby_feed import LobbyFeed
    from pokerroom.shell.session_watch import SessionWatch
    from pokerroom.shell.wallet import Wallet
    from pokerroom.store.room_store import RoomStore

CLAIM_DAYS = 30                         # BOB-6
STAFF = frozenset({"admin"})            # who may void a round for a malfunction


class FloorRoom(Protocol):
    """What the casino floor uses of the room: the clock, the store through the writer, the bus, the wallet and
    balances, the route table, the lobby (its section), the session watch (SEC-2: open bets count as play), the
    gateway (a member follows their table's stream), the sessions by player, and who may play."""

    reactor: IReactorTime
    store: RoomStore
    bus: Bus
    wallet: Wallet
    lobby: LobbyFeed
    session_watch: SessionWatch
    gateway: Gateway
    by_player: dict[str, Session]

    def serve(self, service: Any, public: set[str] | frozenset[str] = frozenset()) -> None: ...

    def write(self, function: Callable[..., Any], *args: Any, quiet: bool = True) -> defer.Deferred: ...

    def may_play(self, session: Session) -> None: ...

    def balance(self, player_id: str) -> int: ...


class CasinoFloor:
    log = Logger()

    def __init__(self, room: FloorRoom, tables: Iterable[CasinoTable], clock: IReactorTime | None = None) -> None:
        self.room = room
        self.reactor = clock or room.reactor        # the casino's timers: the room's reactor, or a test's Clock
        self.store = room.store
        self.tables: dict[str, CasinoTable] = {t.table_id: t for t in tables}
        self.members: dict[str, set[str]] = {t: set() for t in self.tables}    # players who joined
        self.timers: dict[str, tuple[Any, Any]] = {}                           # table -> (key, delayed call)
        self.claims = ClaimBook()                                              # BOB-6 claims: one per round
        self.holds = {t: OutcomeHold(room.bus) for t in self.tables}           # each table's frames

    # ------------------------------------------------------------------ composition

    def install(self) -> None:
        """Register the floor's requests, its connection hooks and its lobby section with the room."""
        self.room.serve(self, {"casino_list", "casino_rules", "casino_history"})
        self.room.bus.subscribe(SESSION_EVENTS, self._session_event)
        self.room.lobby.add_section("casino", self.listing)
        self.room.session_watch.count_in_play("has a casino bet open", self.playing)     # SEC-2

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
            self._set_timer(table)

    def listing(self) -> list[dict]:
        return [t.summary() for t in self.tables.values()]

    # ------------------------------------------------------------------ the one path of every command

    def _run(self, table: CasinoTable, events: list) -> list:
        now = self.reactor.seconds()
        hold = self.holds[table.table_id]
        wallet = self.room.wallet
        for e in events:
            made = casino_postings(e)
            rounds_end = isinstance(e, RoundSettled | RoundVoided)     # stored with the round; stakes at once
            transfers = [] if made is None else [wallet.transfer(*made, store=not rounds_end)]   # flagged (AC-6)
            if rounds_end and (transfers or isinstance(e, RoundVoided) or table.deals_without_bets):
                hold.until(self._store_round(table, e, transfers, now))
        self._fan_out(table, events)
        self._set_timer(table)
        return events

    def _store_round(self, table: CasinoTable, e: RoundSettled | RoundVoided, transfers: list, now: float) -> Any:
        """The round's result, bets and the transfer settling it, in one transaction; fires once committed."""
        if isinstance(e, RoundSettled):
            bets = [(p.player, p.market, p.staked, p.returned, p.detail) for p in e.payouts]
            result, void = e.result, False
        else:
            bets = [(player, "refund", amount, amount, e.reason) for player, amount in e.refunds]
            result, void = f"void: {e.reason}", True
        return self.room.write(self.store.casino.save_casino_round, table.table_id, e.round, table.game, result, void,
                               list(table.dealt), bets, transfers, now)

    def _fan_out(self, table: CasinoTable, events: list) -> None:
        public: list[dict] = []
        private: dict[str, list[dict]] = {}
        for e in events:
            if isinstance(e, PRIVATE):
                private.setdefault(e.player, []).append(event_to_dict(e))
            elif isinstance(e, RoundVoided):        # who had what on the table is each player's own business
                public.append({"type": "round_voided", "table": e.table, "round": e.round, "reason": e.reason})
                for player, amount in e.refunds:
                    private.setdefault(player, []).append({"type": "refund", "round": e.round, "amount": amount})
            elif isinstance(e, RoundSettled):
                public.append({"type": "round_settled", "table": e.table, "round": e.round, "result": e.result})
                for p in e.payouts:
                    private.setdefault(p.player, []).append({"type": "payout", "round": e.round, "market": p.market,
                                                             "staked": p.staked, "returned": p.returned,
                                                             "detail": p.detail})
            else:
                public.append(event_to_dict(e))
        own = {player: public + mine for player, mine in private.items()}
        head = {"type": "casino_events", "table": table.table_id}      # a player who bet hears of it,
        members = self.members[table.table_id]
        seated = (*members, *(p for p in own if p not in members))    # a player who bet hears of it, left or not
        publish(self.holds[table.table_id], casino_public(table.table_id), head, "events", Audiences(public, own),
                seated, tuple((player, casino_seat(table.table_id, player)) for player in seated))

    # ------------------------------------------------------------------ timers

    def _set_timer(self, table: CasinoTable) -> None:
        due = table.due()
        current = self.timers.get(table.table_id)
        if current is not None and current[0] == due.key and current[1].active():
            return
        if current is not None and current[1].active():
            current[1].cancel()
        delay = due.after if due.after is not None else max(0.0, due.at - self.reactor.seconds())
        call = self.reactor.callLater(delay, self._expire, table.table_id, due.key)
        self.timers[table.table_id] = (due.key, call)

    def _expire(self, table_id: str, key: tuple) -> None:
        table = self.tables[table_id]
        self.timers.pop(table_id, None)
        if table.due().key != key:                  # moved on since the timer was set
            self._set_timer(table)
            return
        try:
            self._run(table, table.expire())
        except Exception:                           # a bug must not stop the table: void the round, go on
            self.log.failure("casino table {table} failed; voiding its round", table=table_id)
            try:
                self._run(table, table.void("a technical fault at the table"))
            except RuleViolation:
                self._set_timer(table)

    # ------------------------------------------------------------------ connections

    def _session_event(self, subject: str, event: SessionEvent) -> None:
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
                self._run(table, table.disconnect(player, now))

    def _reconnected(self, player: str, session_id: str) -> None:
        """A player back after a disconnection resumes where they left (CR-6), on the session they came back on
        (found in this process's gateway; one a newer login took over meanwhile hears of its own return)."""
        session = self.room.by_player.get(player)
        if session is None or session.id != session_id:
            return
        for table_id, members in self.members.items():
            if player in members:
                table = self.tables[table_id]
                self.room.gateway.follow(session, casino_seat(table_id, player))
                self._run(table, table.reconnect(player))
                session.push({"type": "casino_state", **table.view(player), "decision": table.decision_of(player)})

    # ------------------------------------------------------------------ requests

    def _table(self, table: str) -> CasinoTable:
        found = self.tables.get(table)
        if found is None:
            raise RuleViolation("unknown_table", f"there is no casino table {table!r}")
        return found

    def _on_casino_list(self, session: Any, request: Request) -> dict:
        return ok(request, tables=self.listing())

    def _on_casino_rules(self, session: Any, request: Request, table: str) -> dict:
        return ok(request, **self._table(table).describe())

    def _on_casino_history(self, session: Any, request: Request, table: str) -> dict:
        t = self._table(table)
        return ok(request, table=table, results=[list(r) for r in t.results], statistics=t.statistics())

    def _on_casino_join(self, session: Any, request: Request, table: str, seat: int | None = None) -> Any:
        t = self._table(table)
        self.room.may_play(session)
        events = t.join(session.player_id, seat)
        self.room.gateway.follow(session, casino_seat(table, session.player_id))   # the table whole, in order
        self.members[table].add(session.player_id)
        self._run(t, events)
        return self.holds[table].after(ok(request, **t.view(session.player_id)))

    def _on_casino_leave(self, session: Any, request: Request, table: str) -> Any:
        t = self._table(table)
        events = t.leave(session.player_id)
        self.members[table].discard(session.player_id)     # the seat's stream stays open: their leaving's frames
        self._run(t, events)
        return self.holds[table].after(ok(request))

    def _member(self, session: Any, table: str) -> CasinoTable:
        t = self._table(table)
        if session.player_id not in self.members[table]:
            raise RuleViolation("not_at_table", f"join {table} first")
        return t

    def _on_casino_bet(self, session: Any, request: Request, table: str, market: str, amount: int,
                       seat: int | None = None) -> Any:
        t = self._member(session, table)
        self.room.may_play(session)
        try:
            events = t.bet(session.player_id, market, amount, self.room.balance(session.player_id), seat)
        except RuleViolation as refusal:
            raise refusal.priced(t.rules.currency) from None
        self._run(t, events)
        placed = events[0]
        return self.holds[table].after(ok(request, round=t.number, market=placed.market, amount=placed.amount,
                                          odds=placed.odds, balance=self.room.balance(session.player_id)))

    def _on_casino_decide(self, session: Any, request: Request, table: str, move: str, decision: str,
                          hand: int = 0) -> Any:
        """A blackjack move on the decision ``decision`` names (an older one: stale_decision, nothing moves).

        The answer names the player's next decision (null: none now): at infinite blackjack each player goes on
        deciding alone, with no ``decision_needed`` between their moves.
        """
        t = self._member(session, table)
        try:
            events = t.decide(session.player_id, move, hand, self.room.balance(session.player_id), decision)
        except RuleViolation as refusal:
            raise refusal.priced(t.rules.currency) from None
        self._run(t, events)
        answer = ok(request, decision=t.decision_of(session.player_id))
        return self.holds[table].after(answer)                  # a settling decision: after the settlement

    def _on_casino_bets(self, session: Any, request: Request, limit: int = 20) -> Any:
        """The player's own bet history (CR-7), read through the writer's queue so the newest round is in it."""
        def shape(rows: list) -> dict:
            return ok(request, bets=[{"table": r.table_id, "round": r.number, "market": r.market,
                                      "staked": r.staked, "returned": r.returned, "detail": r.detail, "at": r.at}
                                     for r in rows])

        return self.room.write(self.store.casino.casino_bets_of, session.player_id, limit,
                               quiet=False).addCallback(shape)

    def _on_casino_claim(self, session: Any, request: Request, table: str, round: int, text: str) -> Any:  # noqa: A002
        """A claim about a result, for the security team; taken up to 30 days after the draw (BOB-6)."""
        self._table(table)
        now = self.reactor.seconds()
        claim = self.claims.take(session.player_id, table, round, now)     # one per player and round; a pace

        def check(record: Any) -> Any:
            if record is None:
                raise RuleViolation("unknown_round", f"{table} has no finished round {round}")
            if now - record.at > CLAIM_DAYS * 86_400:
                raise RuleViolation("claim_too_late", f"claims are accepted up to {CLAIM_DAYS} days after the draw; "
                                                      f"round {round} was {int((now - record.at) // 86_400)} days ago",
                                    "BOB-6")
            return self.room.write(self.store.audit, "casino_claim", {
                "table": table, "round": round, "player": session.player_id, "text": text, "result": record.result},
                now, quiet=False).addCallback(lambda _: ok(request, table=table, round=round))

        def refused(failure: Any) -> Any:
            self.claims.release(claim)
            return failure

        return self.room.write(self.store.casino.casino_round, table, round, quiet=False).addCallback(check) \
            .addErrback(refused)

    def _on_casino_void(self, session: Any, request: Request, table: str, reason: str) -> Any:
        """An operator voids the round in play for a malfunction (CR-5, BOB-5, IB-12)."""
        if session.role not in STAFF:
            raise RuleViolation("not_staff", "only the room's staff may void a round")
        t = self._table(table)
        number = t.number
        self._run(t, t.void(reason))
        self.room.write(self.store.audit, "casino_void", {"table": table, "round": number, "by": session.player_id,
                                                           "reason": reason}, self.reactor.seconds())
        return self.holds[table].after(ok(request, round=number))
