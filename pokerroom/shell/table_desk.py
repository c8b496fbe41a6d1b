"""The directors' desk for cash tables: open and close tables while the room runs, see seats and waiting lists.

A table a director opens is built exactly as a ``[[tables]]`` entry of the
room's config would be (same house rules, rake schedules and checks), stored,
and opened again after a restart until a director closes it. Closing is the
pure table's :meth:`~pokerroom.table.cash_table.CashTable.close`: no new hand,
and everyone stands up with their chips when the hand in play ends -- the
room's one event path moves the money back to the wallets. A closed table
from the config is back at the next start (the config is the operator's);
a director's table is gone for good, and its id is never used again, so the
hands stored under it stay its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pokerroom.errors import RuleViolation
from pokerroom.net.schema import Request, ok
from pokerroom.shell.room import Room, Session, TableRunner
from pokerroom.table import TableRules


class TableDesk:
    def __init__(self, room: Room, make_table: Callable[[dict], TableRules]) -> None:
        self.room = room
        self.store = room.store
        self.make_table = make_table
        self.opened: set[str] = set()                   # the directors' tables now open

    def install(self) -> None:
        self.room.serve(self)
        self.room.on_table_closed.append(self.opened.discard)

    def restore(self) -> list[str]:
        """Open the tables directors opened and did not close (blocking: at start, before listening)."""
        for record in self.store.open_cash_tables():
            self.room.add_table(self.make_table(record.definition), announce=False)
            self.opened.add(record.id)
        return sorted(self.opened)

    def describe(self, runner: TableRunner) -> dict:
        table, rules = runner.table, runner.table.rules
        return {**self.room._summary(runner), "opened_by_director": rules.table_id in self.opened,
                "players": [{"seat": p.seat, "player": p.player_id, "stack": p.stack, "sitting_out": p.sitting_out,
                             "connected": p.connected} for p in sorted(table.players.values(), key=lambda p: p.seat)],
                "waiting_list": list(table.waiting_list)}

    def _on_director_tables(self, session: Session, request: Request) -> dict:
        self.room.verify_director(session)
        return ok(request, tables=[self.describe(r) for r in self.room.runners.values()])

    def _on_director_open_table(self, session: Session, request: Request, id: str, name: str,  # noqa: A002
                                game: str, small_blind: int, big_blind: int, min_buy_in: int, max_buy_in: int,
                                seats: int, reason: str) -> Any:
        entry = {"id": id, "name": name, "variant": game, "small_blind": small_blind, "big_blind": big_blind,
                 "min_buy_in": min_buy_in, "max_buy_in": max_buy_in, "seats": seats, "currency": "USD"}
        self.room.verify_director(session)
        if id in self.room.runners or any(t.get("table") == id for section in self.room.lobby_sections.values()
                                          for t in section()):
            raise RuleViolation("table_exists", f"there is already a table {id}")
        if not small_blind < big_blind or not big_blind <= min_buy_in <= max_buy_in:
            raise RuleViolation("bad_table", "the small blind is below the big blind, and the buy-in range starts "
                                "at the big blind or more and ends at or above its start", "HR-STAKE-4")
        try:
            rules = self.make_table(entry)
        except ValueError as e:
            raise RuleViolation("bad_table", str(e)) from None

        def stored(used: set[str]) -> dict:
            if id in used or id in self.room.runners:       # an id is never reused, even after closing
                raise RuleViolation("table_exists", f"the table id {id} has been used; choose another")
            by = self.room.directed(session, "open table", table=id, reason=reason, definition=entry)
            self.room._write(self.store.save_cash_table, id, entry, by, self.room.reactor.seconds())
            runner = self.room.add_table(rules)
            self.opened.add(id)
            return ok(request, table=self.describe(runner))

        return self.room._write(self.store.cash_table_ids, quiet=False).addCallback(stored)

    def _on_director_close_table(self, session: Session, request: Request, table: str, reason: str) -> dict:
        runner = self.room._runner(table)
        if runner.table.closing:
            raise RuleViolation("table_closing", f"table {table} is already closing")
        self.room.directed(session, "close table", table=table, reason=reason)
        if table in self.opened:
            self.room._write(self.store.cash_table_closed, table, self.room.reactor.seconds())
        self.room.close_table(table)
        return ok(request, closed=table not in self.room.runners)
