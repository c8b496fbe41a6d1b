"""The directors' cash tables on the table side of the process line: a new one opened when the desk asks
(``tables.open``), and those directors opened and did not close opened again at start.

The desk (:mod:`pokerroom.shell.table_desk`) is on the gateway's side with the directors' requests; the tables
live with the table host, so the desk asks for a table by an :class:`~pokerroom.bus.records.OpenTable` record and
this part builds it exactly as a ``[[tables]]`` entry of the room's config would be (the same house rules, rake
schedules and checks), never from the record's words alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from twisted.internet import defer
from twisted.logger import Logger

from pokerroom.bus import Bus
from pokerroom.bus.records import OpenTable
from pokerroom.bus.subjects import CASH_TABLES_OPEN
from pokerroom.errors import RuleViolation
from pokerroom.shell.table_host import TableHost
from pokerroom.shell.tenancy import CashTenant
from pokerroom.store.room_store import RoomStore
from pokerroom.table.config import table_from_entry


class TableOpener:
    log = Logger()

    def __init__(self, tables: TableHost, cash_tenant: CashTenant, store: RoomStore, bus: Bus,
                 config: Mapping[str, Any]) -> None:
        self.tables = tables                # the host the table is opened in
        self.cash_tenant = cash_tenant      # opens it here, or through its lease on several processes
        self.store = store                  # the directors' tables, read at start
        self.bus = bus
        self.config = config                # house rules and rake schedules a table is built under

    def install(self) -> None:
        self.bus.respond(CASH_TABLES_OPEN, self._open, shared=True)        # one process opens it

    def _open(self, order: object) -> defer.Deferred:
        """``tables.open``: the table opened and shown in the lobby; its line, with no one seated or waiting."""
        if not isinstance(order, OpenTable):
            raise RuleViolation("unknown_read", f"tables.open takes an OpenTable, not {type(order).__name__}")
        try:
            rules = table_from_entry(dict(self.config), dict(order.entry))
        except (ValueError, KeyError, TypeError) as e:
            raise RuleViolation("bad_table", f"the table cannot be built: {e}") from None
        if rules.table_id in self.tables.known_tables:          # an id is never reused, even after closing
            raise RuleViolation("table_exists", f"the table id {rules.table_id} has been used; choose another")
        return self.cash_tenant.open(rules).addCallback(self._opened, rules.table_id)

    def _opened(self, here: bool, table_id: str) -> dict:
        runner = self.tables.runners.get(table_id) if here else None
        if runner is None:                                      # another process holds its lease: a race on the id
            raise RuleViolation("table_exists", f"there is already a table {table_id}")
        return {**self.tables.summary(runner), "players": [], "waiting_list": []}

    def restore(self) -> list[str]:
        """Open the tables directors opened and did not close (blocking: at start, before the room listens)."""
        opened = []
        for record in self.store.tables.open_cash_tables():
            if record.id in self.cash_tenant.rules:       # the operator has since put a table of that id in the config
                self.log.warn("the director's table {id} is not opened: the config has a table of that id",
                              id=record.id)
                continue
            self.cash_tenant.open(table_from_entry(dict(self.config), record.definition), announce=False)
            opened.append(record.id)
        return sorted(opened)
