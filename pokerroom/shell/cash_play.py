"""Playing at a cash table: watching, sitting down, acting, the waiting list.

Each request checks who may play (:mod:`pokerroom.shell.play_check`) and the
wallet where money is at stake, then gives the table one command; the events
it makes reach everyone through the table host.
"""

from __future__ import annotations

from typing import Any

from pokerroom.gateway.metrics import Metrics
from pokerroom.gateway.routes import Gateway
from pokerroom.gateway.sessions import Session
from pokerroom.poker.actions import action_named
from pokerroom.protocol.schema import Request, ok
from pokerroom.security.moderation import Moderation
from pokerroom.shell.table_host import TableHost
from pokerroom.shell.wallet import Wallet


class CashPlay:
    def __init__(self, gateway: Gateway, tables: TableHost, wallet: Wallet, moderation: Moderation,
                 may_play: Any, metrics: Metrics) -> None:
        self.gateway = gateway
        self.tables = tables
        self.wallet = wallet
        self.moderation = moderation
        self.may_play = may_play                # session -> None, or a RuleViolation (STAFF-2, SEC-2, AC-2, AC-5)
        self.metrics = metrics

    def _on_observe(self, session: Session, request: Request, table: str, on: bool) -> dict:
        runner = self.tables.runner(table)
        if on:
            self.gateway.watch(session, table)
            self.tables.push_snapshot(session, table)
        elif runner.table.seat_of(session.player_id or "") is None:
            self.gateway.unwatch(session, table)
        return ok(request)

    def _on_join(self, session: Session, request: Request, table: str, buy_in: int, seat: int | None = None,
                 wait_for_big_blind: bool = False) -> Any:
        runner = self.tables.runner(table)
        self.may_play(session)
        self.moderation.verify_seat(session.player_id, [p.player_id for p in runner.table.players.values()])
        self.wallet.verify_funds(session.player_id, buy_in)
        self.gateway.watch(session, table)
        self.tables.command(runner, "sit", session.player_id, seat, buy_in, client_type=session.client_type,
                            wait_for_big_blind=wait_for_big_blind)
        return self.tables.answered(runner, ok(request, seat=runner.table.seat_of(session.player_id)))

    def _seated_command(self, name: str, session: Session, request: Request, table: str, **kwargs: Any) -> Any:
        runner = self.tables.seated_runner(table, session.player_id)
        self.tables.command(runner, name, session.player_id, **kwargs)
        return self.tables.answered(runner, ok(request))

    def _on_leave(self, session: Session, request: Request, table: str) -> Any:
        return self._seated_command("leave", session, request, table)

    def _on_sit_out(self, session: Session, request: Request, table: str) -> Any:
        return self._seated_command("sit_out", session, request, table)

    def _on_sit_in(self, session: Session, request: Request, table: str, wait_for_big_blind: bool = False) -> Any:
        self.may_play(session)
        return self._seated_command("sit_in", session, request, table, wait_for_big_blind=wait_for_big_blind)

    def _on_post(self, session: Session, request: Request, table: str) -> Any:
        return self._on_sit_in(session, request, table, False)

    def _on_wait_for_big_blind(self, session: Session, request: Request, table: str) -> Any:
        return self._on_sit_in(session, request, table, True)

    def _on_options(self, session: Session, request: Request, table: str, **options: bool) -> Any:
        return self._seated_command("set_options", session, request, table, **options)

    def _on_add_chips(self, session: Session, request: Request, table: str, amount: int) -> dict:
        runner = self.tables.seated_runner(table, session.player_id)
        self.may_play(session)
        self.wallet.verify_funds(session.player_id, amount)
        self.tables.command(runner, "add_chips", session.player_id, amount)
        return ok(request)

    def _on_act(self, session: Session, request: Request, table: str, action: str, decision: str,
                to: int | None = None, agree: bool | None = None) -> Any:
        runner = self.tables.seated_runner(table, session.player_id)
        command = action_named(runner.table.seat_of(session.player_id), action, to, agree)
        self.tables.command(runner, "act", session.player_id, command, decision=decision)
        self.metrics.actions.inc()
        return self.tables.answered(runner, ok(request))     # a hand-ending act: after its end, once stored

    def _on_waiting_list(self, session: Session, request: Request, table: str, on: bool) -> dict:
        runner = self.tables.runner(table)
        if on:
            self.may_play(session)
        self.tables.command(runner, "join_waiting_list" if on else "leave_waiting_list", session.player_id)
        self.gateway.watch(session, table)
        return ok(request)
