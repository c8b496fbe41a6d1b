"""The busy writer's hot statements as the driver runs them: SQL made once per dialect, rows handed straight over.

Why (issue 36): per statement, SQLAlchemy's execution -- a compiled-cache
lookup, an execution context, every row's parameters processed one by one, a
result object -- cost the writer's thread more than SQLite's own work, and that
thread shares the GIL with every table. The statements a busy room runs per hand
(hands, hand players, facts, audit records, transfers, postings, balances) are
few and fixed, so each one's SQL is a string made once from its table's columns
and its rows go to a cursor of the transaction's own DBAPI connection: they
commit or roll back with the rest of the batch, as the Core statements did.

* SQLite: an insert's rows go as multi-row ``INSERT ... VALUES (...), (...)``,
  one statement step per chunk -- ``sqlite3`` lets go of the GIL around every
  step, and each time the reactor thread is waiting for it the two threads
  trade it (a futex call and a context switch each way), so a step per row
  would cost a trade per row.
* PostgreSQL (psycopg): one statement with psycopg's ``executemany``, which
  pipelines the rows in one round trip and prepares the statement once.

JSON columns are encoded here as the engine's JSON type encodes them
(:func:`pokerroom.store.db.json_text`, ``None`` as JSON ``null``), so a row reads
back the same whichever way it was written.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import JSON, Connection, Table

from pokerroom.store.db import json_text

# Bound parameters per SQLite statement: below its limit (32,766 since 3.32, 999 before), so a big batch's rows of a
# table are a statement or two -- a GIL trade each at most.
SQLITE_CHUNK_VARIABLES = 32_000 if sqlite3.sqlite_version_info >= (3, 32) else 900


class Insert:
    """One table's hot insert (or upsert): its columns, which of them are JSON, its SQL per dialect and row count."""

    __slots__ = ("_json", "_sql", "columns", "conflict", "table")

    def __init__(self, table: Table, columns: Sequence[str], conflict: str = "") -> None:
        self.table = table.name
        self.columns = tuple(columns)
        self._json = tuple(i for i, name in enumerate(self.columns) if isinstance(table.c[name].type, JSON))
        self.conflict = conflict                    # an ON CONFLICT clause, the same on both dialects
        self._sql: dict[tuple[str, int], str] = {}

    def sql(self, dialect: str, rows: int) -> str:
        """The statement for ``rows`` rows (PostgreSQL: one, run with executemany), made once and kept."""
        key = (dialect, rows)
        sql = self._sql.get(key)
        if sql is None:
            if dialect == "postgresql":
                marks = ", ".join("%s::json" if i in self._json else "%s" for i in range(len(self.columns)))
            else:
                marks = ", ".join("?" * len(self.columns))
            values = ", ".join([f"({marks})"] * rows)
            sql = self._sql[key] = (f"INSERT INTO {self.table} ({', '.join(self.columns)}) VALUES {values}"
                                    f"{' ' + self.conflict if self.conflict else ''}")
        return sql

    def values(self, rows: Iterable[dict]) -> list[tuple]:
        """Rows (dicts by column) as the driver takes them, JSON columns encoded."""
        columns, json_columns = self.columns, self._json
        out = []
        for row in rows:
            values = [row[name] for name in columns]
            for i in json_columns:
                values[i] = json_text(values[i])
            out.append(tuple(values))
        return out

    def run(self, connection: Connection, rows: Sequence[dict]) -> None:
        """Insert ``rows`` in ``connection``'s transaction."""
        if rows:
            run_values(connection, self, self.values(rows))


def run_values(connection: Connection, insert: Insert, values: Sequence[tuple]) -> None:
    """Insert rows already as the driver takes them (:meth:`Insert.values`) in ``connection``'s transaction."""
    if not values:
        return
    dialect = connection.dialect.name
    cursor = driver_cursor(connection)
    try:
        if dialect == "postgresql":
            cursor.executemany(insert.sql(dialect, 1), values)
            return
        chunk = max(1, SQLITE_CHUNK_VARIABLES // len(insert.columns))
        for start in range(0, len(values), chunk):
            part = values[start:start + chunk]
            cursor.execute(insert.sql(dialect, len(part)), [value for row in part for value in row])
    finally:
        cursor.close()


def driver_cursor(connection: Connection) -> Any:
    """A cursor of the DBAPI connection under ``connection``: in its transaction, with none of SQLAlchemy's work."""
    return connection.connection.driver_connection.cursor()


def run(connection: Connection, sql: dict[str, str], parameters: Sequence[Any] = ()) -> Any:
    """Run one statement (its SQL by dialect) on the driver; the cursor, for its rows or rowcount."""
    cursor = driver_cursor(connection)
    cursor.execute(sql[connection.dialect.name], parameters)
    return cursor


def run_many(connection: Connection, sql: dict[str, str], rows: Sequence[Sequence[Any]]) -> int:
    """Run one statement once per row with the driver's executemany (prepared once); the rows it changed."""
    cursor = driver_cursor(connection)
    try:
        cursor.executemany(sql[connection.dialect.name], rows)
        return cursor.rowcount
    finally:
        cursor.close()


def select_in(connection: Connection, sql: str, values: Sequence[Any]) -> list[tuple]:
    """The rows of ``sql`` (``{in}`` standing for a ``column IN`` test's right side) for ``values``: SQLite's marks,
    one per value, in chunks; PostgreSQL's one array."""
    cursor = driver_cursor(connection)
    try:
        if connection.dialect.name == "postgresql":
            cursor.execute(sql.replace("{in}", "= ANY(%s)"), [list(values)])
            return cursor.fetchall()
        out = []
        for start in range(0, len(values), SQLITE_CHUNK_VARIABLES):
            part = values[start:start + SQLITE_CHUNK_VARIABLES]
            cursor.execute(sql.replace("{in}", f"IN ({', '.join('?' * len(part))})"), part)
            out.extend(cursor.fetchall())
        return out
    finally:
        cursor.close()
