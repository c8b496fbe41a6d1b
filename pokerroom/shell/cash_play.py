"""Playing at a cash table: watching, sitting down, acting, the waiting list.

Each request checks who may play (:mod:`pokerroom.shell.play_check`), then
sends the table one command record
(:mod:`pokerroom.table.commands`) as a request on ``table.<id>.command``: the
table's host applies it, the events it makes reach everyone from there, and
its answer (or its refusal, code and amounts kept) comes back as data; the
funds a buy-in needs are the host's to check, beside the wallet. Reads of the
table -- a snapshot, who sits there -- are requests too, so this service holds
no reference to a table or the wallet. What it waits for of a table that another process takes over meanwhile
ends then, unanswered (:mod:`pokerroom.shell.table_asks`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twisted.internet import defer
from twisted.python.failure import Failure

from pokerroom.bus import Bus
from pokerroom.bus.records import PlayersRead, SnapshotRead
from pokerroom.bus.subjects import table_command, table_players, table_snapshot
from pokerroom.errors import RuleViolation
from pokerroom.gateway.metrics import Metrics
from pokerroom.gateway.routes import Gateway
from pokerroom.gateway.sessions import Session
from pokerroom.protocol.schema import Request, ok
from pokerroom.security.moderation import Moderation
from pokerroom.shell.asked import answered
from pokerroom.shell.table_asks import TableAsks
from pokerroom.table import commands as tc


class CashPlay:
    def __init__(self, gateway: Gateway, bus: Bus, moderation: Moderation,
                 may_play: Callable[[Session], None], metrics: Metrics) -> None:
        self.gateway = gateway
        self.bus = bus
        self.moderation = moderation
        self.may_play = may_play                # session -> None, or a RuleViolation (STAFF-2, SEC-2, AC-2, AC-5)
        self.metrics = metrics
        self.asks = TableAsks(bus)              # a table taken over: what it was asked and never answered ends

    def _command(self, table: str, command: tc.TableCommand, then: Callable[..., Any], *args: Any) -> Any:
        """``then`` of the table's answer to ``command`` (``{"seat": …}``, once the frames it caused are out)."""
        return answered(self.asks.request(table, table_command(table), command), table, then, *args)

    def _on_observe(self, session: Session, request: Request, table: str, on: bool) -> Any:
        if not on:
            def stop(players: list[str]) -> dict:
                if session.player_id not in players:          # a seated player keeps the table's frames
                    self.gateway.unwatch(session, table)
                return ok(request)
            return answered(self.asks.request(table, table_players(table), PlayersRead()), table, stop)
        watched = table in session.tables
        self.gateway.watch(session, table)                  # frames from now on; the snapshot says where they start

        def shown(snapshot: dict) -> dict:
            session.push(snapshot)
            return ok(request)

        def refused(failure: Failure) -> Failure:
            if not watched:
                self.gateway.unwatch(session, table)
            return failure

        try:
            answer = answered(self.asks.request(table, table_snapshot(table), SnapshotRead(session.player_id)),
                              table, shown)
        except RuleViolation:
            refused(Failure())
            raise
        return answer.addErrback(refused) if isinstance(answer, defer.Deferred) else answer

    def _on_join(self, session: Session, request: Request, table: str, buy_in: int, seat: int | None = None,
                 wait_for_big_blind: bool = False) -> Any:
        def sit(players: list[str]) -> Any:
            self.may_play(session)
            self.moderation.verify_seat(session.player_id, players)
            self.gateway.watch(session, table)
            command = tc.Sit(session.player_id, seat, buy_in, session.client_type, wait_for_big_blind)
            return self._command(table, command, lambda answer: ok(request, seat=answer["seat"]))

        return answered(self.asks.request(table, table_players(table), PlayersRead()), table, sit)

    def _seated_command(self, session: Session, request: Request, table: str, command: tc.TableCommand) -> Any:
        return self._command(table, command, lambda _: ok(request))

    def _on_leave(self, session: Session, request: Request, table: str) -> Any:
        return self._seated_command(session, request, table, tc.Leave(session.player_id))

    def _on_sit_out(self, session: Session, request: Request, table: str) -> Any:
        return self._seated_command(session, request, table, tc.SitOut(session.player_id))

    def _on_sit_in(self, session: Session, request: Request, table: str, wait_for_big_blind: bool = False) -> Any:
        self.may_play(session)
        return self._seated_command(session, request, table, tc.SitIn(session.player_id, wait_for_big_blind))

    def _on_post(self, session: Session, request: Request, table: str) -> Any:
        return self._on_sit_in(session, request, table, False)

    def _on_wait_for_big_blind(self, session: Session, request: Request, table: str) -> Any:
        return self._on_sit_in(session, request, table, True)

    def _on_options(self, session: Session, request: Request, table: str, auto_post_blinds: bool | None = None,
                    sit_out_next_hand: bool | None = None, sit_out_next_big_blind: bool | None = None,
                    auto_muck: bool | None = None) -> Any:
        command = tc.SetOptions(session.player_id, auto_post_blinds, sit_out_next_hand, sit_out_next_big_blind,
                                auto_muck)
        return self._seated_command(session, request, table, command)

    def _on_add_chips(self, session: Session, request: Request, table: str, amount: int) -> Any:
        self.may_play(session)
        return self._seated_command(session, request, table, tc.AddChips(session.player_id, amount))

    def _on_act(self, session: Session, request: Request, table: str, action: str, decision: str,
                to: int | None = None, agree: bool | None = None) -> Any:
        command = tc.Act(session.player_id, action, to, agree, decision)
        return self._command(table, command, self._acted, request)     # a hand-ending act: once its end is stored

    def _acted(self, answer: dict, request: Request) -> dict:
        self.metrics.actions.inc()
        return ok(request)

    def _on_waiting_list(self, session: Session, request: Request, table: str, on: bool) -> Any:
        if on:
            self.may_play(session)
        command = tc.JoinWaitingList(session.player_id) if on else tc.LeaveWaitingList(session.player_id)

        def listed(_: dict) -> dict:
            self.gateway.watch(session, table)
            return ok(request)

        return self._command(table, command, listed)
