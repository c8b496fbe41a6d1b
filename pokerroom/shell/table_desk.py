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

The desk is on the gateway's side of the process line: it checks the director and the request, asks the table
side to open the table (``tables.open``, answered by :class:`~pokerroom.shell.table_opener.TableOpener` beside
the table host) and stores it once it is open; the tables' lines it reads (``tables.desk``) and closes by the
table's ``Close`` command.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from twisted.internet import defer
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

from pokerroom.bus import Bus
from pokerroom.bus.records import DeskRead, OpenTable
from pokerroom.bus.subjects import CASH_TABLES_DESK, CASH_TABLES_OPEN, TABLE_CLOSED, table_command
from pokerroom.errors import RuleViolation
from pokerroom.gateway.sessions import Session
from pokerroom.protocol.schema import NEW_ID, Request, ok
from pokerroom.shell.asked import answered
from pokerroom.shell.directors import directed, verify_director
from pokerroom.shell.every_node import ask_every_node, lines_by
from pokerroom.table import TableRules
from pokerroom.table.commands import Close
from pokerroom.table.config import table_from_entry

if TYPE_CHECKING:
    from pokerroom.gateway.routes import Gateway
    from pokerroom.shell.lobby_feed import LobbyFeed
    from pokerroom.shell.recorder import Recorder
    from pokerroom.store.room_store import RoomStore


class TableDesk:
    log = Logger()

    def __init__(self, lobby: LobbyFeed, gateway: Gateway, recorder: Recorder, store: RoomStore,
                 reactor: IReactorTime, bus: Bus, config: dict) -> None:
        self.lobby = lobby                              # the lobby's lines and sections (their table ids are taken)
        self.gateway = gateway                          # the route table
        self.recorder = recorder                        # the store through the writer, and the directors' records
        self.store = store
        self.reactor = reactor
        self.bus = bus                                  # the tables' side: open, read, a table's closing
        self.config = config
        self.config_ids = {entry.get("id") for entry in config.get("tables", [])}   # the operator's, not ours
        self.opened: set[str] = set()                   # the directors' tables now open
        self.max_opened = int(config.get("house_rules", {}).get("max_director_tables", 100))
        self.max_per_director = int(config.get("house_rules", {}).get("max_tables_per_director", 10))
        self.opened_by: dict[str, str] = {}            # a director's table -> who opened it (one director's share)

    def make_table(self, entry: dict) -> TableRules:
        return table_from_entry(self.config, entry)

    def rake_for(self, big_blind: int) -> str | None:
        """HR-RAKE-1: the rake schedule of the config's stake level at or just below ``big_blind``."""
        levels = sorted((e["big_blind"], e["rake"]) for e in self.config.get("tables", []) if e.get("rake"))
        below = [rake for blind, rake in levels if blind <= big_blind]
        return below[-1] if below else (levels[0][1] if levels else None)

    def install(self) -> None:
        self.gateway.serve(self)
        self.bus.subscribe(TABLE_CLOSED, lambda _, table: self._closed(table))

    def _closed(self, table: str) -> None:
        self.opened.discard(table)
        self.opened_by.pop(table, None)

    def restore(self) -> list[str]:
        """The tables directors opened and did not close, as the table side opens them again at start (blocking:
        before listening): each director's share of the room counts them."""
        for record in self.store.tables.open_cash_tables():
            if record.id in self.config_ids:              # the operator has since put a table of that id in the config
                continue
            self.opened.add(record.id)
            self.opened_by[record.id] = record.opened_by
        return sorted(self.opened)

    def describe(self, line: dict) -> dict:
        """A table as the desk shows it: the host's line (``tables.desk``) and whether a director opened it."""
        return {**line, "opened_by_director": line["table"] in self.opened}

    def _tables(self) -> defer.Deferred:
        """Every open cash table's line, seats and waiting list, asked of the tables' host."""
        return ask_every_node(self.bus, CASH_TABLES_DESK, DeskRead(), lines_by("table"))     # each node: its own

    def _on_director_tables(self, session: Session, request: Request) -> Any:
        verify_director(session)
        return answered(self._tables(), "", lambda lines: ok(request, tables=[self.describe(t) for t in lines]))

    def _on_director_open_table(self, session: Session, request: Request, id: str, name: str,  # noqa: A002
                                game: str, small_blind: int, big_blind: int, min_buy_in: int, max_buy_in: int,
                                seats: int, reason: str, rake: str | None = None) -> Any:
        verify_director(session)
        self._check_room(session.player_id)
        rake = rake or self.rake_for(big_blind)
        if rake is not None and rake not in self.config.get("rake", {}):
            raise RuleViolation("bad_table", f"there is no rake schedule {rake!r}", "HR-RAKE-1")
        entry = {"id": id, "name": name, "variant": game, "small_blind": small_blind, "big_blind": big_blind,
                 "min_buy_in": min_buy_in, "max_buy_in": max_buy_in, "seats": seats, "currency": "USD",
                 **({"rake": rake} if rake else {})}
        casino = {t.get("table") for section in self.lobby.sections.values() for t in section.values()}
        if id in self.lobby.lines or id in self.config_ids or id in casino:
            raise RuleViolation("table_exists", f"there is already a table {id}")
        if not NEW_ID.fullmatch(id):
            raise RuleViolation("bad_field", "a table id is up to 32 letters, digits, '_' or '-'")
        if re.fullmatch(r".+-t\d+", id):                   # a tournament table's name: hand ids would clash
            raise RuleViolation("bad_table", f"{id} looks like a tournament table's id; choose another")
        if not small_blind < big_blind or not big_blind <= min_buy_in <= max_buy_in:
            raise RuleViolation("bad_table", "the small blind is below the big blind, and the buy-in range starts "
                                "at the big blind or more and ends at or above its start", "HR-STAKE-4")
        try:
            self.make_table(entry)                          # refused here, before the store is read; built there
        except ValueError as e:
            raise RuleViolation("bad_table", str(e)) from None

        def opened(line: dict) -> dict:
            by = directed(self.recorder, session, "open table", table=id, reason=reason, definition=entry)
            self.recorder.write(self.store.tables.save_cash_table, id, entry, by, self.reactor.seconds())
            self.opened.add(id)
            self.opened_by[id] = by
            return ok(request, table=self.describe(line))

        def stored(used: set[str]) -> Any:
            if id in used or id in self.lobby.lines:        # an id is never reused, even after closing
                raise RuleViolation("table_exists", f"the table id {id} has been used; choose another")
            self._check_room(session.player_id)             # others may have opened tables during the read
            self.opened.add(id)                             # counted while the table side opens it
            self.opened_by[id] = session.player_id

            def refused(failure: Any) -> Any:
                self._closed(id)
                return failure

            asked = self.bus.request(CASH_TABLES_OPEN, OpenTable(entry)).addErrback(refused)
            return answered(asked, id, opened)             # opened in the table process: docs/architecture.md

        return self.recorder.write(self.store.tables.cash_table_ids, quiet=False).addCallback(stored)

    def _check_room(self, director: str) -> None:
        """Each table holds a timer, a log and its watchers: the room caps all directors' tables, and one
        director's share of them so that nobody locks the others out."""
        if len(self.opened) >= self.max_opened:
            raise RuleViolation("too_many_tables", f"directors may have at most {self.max_opened} tables open at "
                                "once; close one first")
        own = sum(1 for table in self.opened if self.opened_by.get(table) == director)
        if own >= self.max_per_director:
            raise RuleViolation("too_many_tables", f"a director may have at most {self.max_per_director} tables "
                                "open at once; close one of yours first")

    def _on_director_close_table(self, session: Session, request: Request, table: str, reason: str) -> Any:
        """Asked of the tables' host: the table's state, then its ``Close`` command (``table.<id>.command``)."""
        verify_director(session)

        def found(lines: list[dict]) -> Any:
            line = next((t for t in lines if t["table"] == table), None)
            if line is None:
                raise RuleViolation("no_such_table", f"there is no table {table}")
            if line["closing"]:
                raise RuleViolation("table_closing", f"table {table} is already closing")
            directed(self.recorder, session, "close table", table=table, reason=reason)
            if table in self.opened:
                self.recorder.write(self.store.tables.cash_table_closed, table, self.reactor.seconds())
            return answered(self.bus.request(table_command(table), Close()), table,
                            lambda answer: ok(request, closed=answer["closed"]))

        return answered(self._tables(), table, found)
