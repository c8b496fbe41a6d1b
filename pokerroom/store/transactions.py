"""The store's transactions: one short transaction per call, or one batch of calls (run off the reactor thread).

Theory of operation
-------------------
The pure core decides; the store remembers. Every call of a store part
(:mod:`pokerroom.store.room_store`) is one transaction, so what belongs
together lands together: a hand's end, its event stream and the ledger
transfer that settles it commit at once or not at all; a transfer's postings
and the cached balances they change commit at once. The server calls the
store through a thread pool (one thread for SQLite, several for PostgreSQL),
never on the reactor thread.

This module is the one place that knows a transaction: every part writes
through :meth:`Transactions.writing`, reads through :meth:`Transactions.reading`
and gathers the busy tables' rows (hands, transfers, audit records) through
:meth:`Transactions.rows`, so a :meth:`Transactions.batch` of calls to several
parts is one transaction, and the audit chain (SEC-1, SEC-5) has one head.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from hashlib import sha256
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, insert, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from pokerroom.money.ledger import Transfer
from pokerroom.security.audit import GENESIS, canonical, record_hash, row_digest
from pokerroom.store.bulk import Insert, run, run_many, run_values, select_in
from pokerroom.store.db import json_text
from pokerroom.store.models import (
    AuditRecord,
    HandFactsRecord,
    HandPlayer,
    HandRecord,
    LedgerBalance,
    LedgerPosting,
    LedgerTransfer,
)


@dataclass
class _Rows:
    """Rows waiting for a bulk write, in the order the tables must take them."""

    started: list[dict] = field(default_factory=list)
    players: list[dict] = field(default_factory=list)
    ended: list[dict] = field(default_factory=list)
    facts: list[dict] = field(default_factory=list)
    transfers: list[Transfer] = field(default_factory=list)
    audits: list[dict] = field(default_factory=list)        # chained already, in chain order; before any hand here

    def empty(self) -> bool:
        return not (self.started or self.ended or self.transfers or self.audits)

    def clear(self) -> None:
        self.started, self.players, self.ended, self.facts, self.transfers = [], [], [], [], []
        self.audits = []



OPEN_STARTS = 100_000


# The busy writer's statements, made once: run on the driver (:mod:`pokerroom.store.bulk`), not through SQLAlchemy.
_HANDS = HandRecord.__table__
_TRANSFERS = LedgerTransfer.__table__
_INSERT_AUDIT = Insert(AuditRecord.__table__, ("kind", "data", "at", "previous_hash", "hash"))
_INSERT_HANDS = Insert(_HANDS, ("hand_id", "table_id", "started_at", "tournament", "start_stacks", "rake", "void"))
_INSERT_HAND_PLAYERS = Insert(HandPlayer.__table__, ("hand_id", "player_id"))
_INSERT_FACTS = Insert(HandFactsRecord.__table__, ("hand_id", "table_id", "tournament", "at", "data"))
_INSERT_TRANSFERS = Insert(LedgerTransfer.__table__, ("number", "reason", "reference", "at"))
_INSERT_POSTINGS = Insert(LedgerPosting.__table__, ("transfer_id", "account", "amount"))
_UPSERT_BALANCES = Insert(LedgerBalance.__table__, ("account", "balance"),
                          "ON CONFLICT (account) DO UPDATE SET balance = ledger_balances.balance + excluded.balance")
_END_HANDS = {dialect: f"UPDATE hands SET ended_at = {m}, end_stacks = {j}, rake = {m}, events = {j}, "
                       f"event_times = {j} WHERE hand_id = {m} AND ended_at IS NULL"
              for dialect, m, j in (("sqlite", "?", "?"), ("postgresql", "%s", "%s::json"))}
_TRANSFER_IDS = "SELECT number, id FROM ledger_transfers WHERE number {in}"
_OPEN_HANDS = select(_HANDS.c.hand_id, _HANDS.c.table_id, _HANDS.c.tournament, _HANDS.c.started_at,
                     _HANDS.c.start_stacks).where(_HANDS.c.hand_id.in_(bindparam("ids", expanding=True)),
                                                  _HANDS.c.ended_at.is_(None))
_CHAIN_HEAD = dict.fromkeys(("sqlite", "postgresql"), "SELECT hash FROM audit_records ORDER BY id DESC LIMIT 1")
# Taking the chain's head: PostgreSQL's transaction-scoped advisory lock (one key in every process); SQLite's one
# write lock, taken by a statement that writes nothing, before the head is read.
CHAIN_LOCK_KEY = 0x706F6B6572
_LOCK_CHAIN = {"postgresql": f"SELECT pg_advisory_xact_lock({CHAIN_LOCK_KEY})",
               "sqlite": "UPDATE audit_records SET kind = kind WHERE id < 0"}
APPEND_ATTEMPTS = 5                     # a standalone append that lost a race to an appender without the lock


class _HandStart:
    """What a hand's digest needs of its stored start, as the row reads back (a float time, a fresh dict)."""

    __slots__ = ("hand_id", "start_stacks", "started_at", "table_id", "tournament")

    def __init__(self, row: Mapping[str, Any]) -> None:
        self.hand_id, self.table_id, self.tournament = row["hand_id"], row["table_id"], row["tournament"]
        self.started_at, self.start_stacks = float(row["started_at"]), dict(row["start_stacks"])


def _ended_hand(start: Any, end: dict) -> tuple[str, str]:
    """A hand's end about to be written: its events as stored, and the row's :func:`hand_digest` (SEC-1) as it will
    read back -- the events' canonical bytes made once, both stored and digested (the digest's list written out
    around them: :func:`~pokerroom.security.audit.canonical` of a list is its items' joined by commas)."""
    events = canonical(end["events"])
    before = canonical([start.hand_id, start.table_id, start.tournament, start.started_at, start.start_stacks,
                        end["ended_at"], end["end_stacks"], end["rake"]])
    after = canonical([end["event_times"], False])
    return events.decode(), sha256(before[:-1] + b"," + events + b"," + after[1:]).hexdigest()


def hand_digest(row: Any) -> str:
    """What the audit chain keeps of a stored hand (SEC-1): every column the security team replays."""
    return row_digest(row.hand_id, row.table_id, row.tournament, row.started_at, row.start_stacks, row.ended_at,
                      row.end_stacks, row.rake, row.events, row.event_times, row.void)


def chat_digest(row: Any) -> str:
    return row_digest(row.id, row.table_id, row.hand_id, row.player_id, row.text, row.at, row.blocked)



def insert_transfers(connection: Connection, transfers: list[Transfer]) -> None:
    """Write ``transfers`` and their effect on the cached balances on ``connection`` (in its transaction).

    A transfer marked ``stored`` is in the database already (a shared account's locked move, written by
    :meth:`~pokerroom.store.ledger_records.LedgerRecords.post_locked`): the batch of the caller that made it
    (a table's, a round's, a step's) skips it. The balances are written in account order, the order every
    writer locks them in, so two processes' transactions never wait on each other in a circle."""
    transfers = [t for t in transfers if not t.stored]
    if not transfers:
        return
    # One bulk insert, then the new ids by the transfers' unique numbers: an insert returning ids in order
    # would run once per transfer on SQLite.
    run_values(connection, _INSERT_TRANSFERS, [(t.number, t.reason, t.reference, t.at) for t in transfers])
    ids = dict(select_in(connection, _TRANSFER_IDS, [t.number for t in transfers]))
    run_values(connection, _INSERT_POSTINGS,
               [(ids[t.number], p.account, p.amount) for t in transfers for p in t.postings])
    deltas: dict[str, int] = {}
    for t in transfers:
        for p in t.postings:
            deltas[p.account] = deltas.get(p.account, 0) + p.amount
    run_values(connection, _UPSERT_BALANCES, [(account, deltas[account]) for account in sorted(deltas)])


def insert_transfer(connection: Connection, t: Transfer) -> None:
    """One transfer as :func:`insert_transfers` writes many, in fewer round trips (a locked move waits on each):
    its row with its id returned, its postings in one statement, its balances in one, in account order."""
    transfer_id = connection.execute(insert(_TRANSFERS).values(number=t.number, reason=t.reason,
                                                               reference=t.reference, at=t.at)
                                     .returning(_TRANSFERS.c.id)).scalar_one()
    connection.execute(insert(LedgerPosting.__table__).values(
        [{"transfer_id": transfer_id, "account": p.account, "amount": p.amount} for p in t.postings]))
    balances = LedgerBalance.__table__
    dialect_insert = postgresql_insert if connection.dialect.name == "postgresql" else sqlite_insert
    upsert = dialect_insert(balances).values([{"account": p.account, "balance": p.amount}
                                              for p in sorted(t.postings, key=lambda p: p.account)])
    connection.execute(upsert.on_conflict_do_update(index_elements=[balances.c.account],
                                                    set_={"balance": balances.c.balance + upsert.excluded.balance}))


class Transactions:
    """The shared engine and the transaction in progress: what every store part writes and reads through."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.session_maker = sessionmaker(engine, expire_on_commit=False)
        self._batch = threading.local()
        # The starts of hands this process wrote and has not ended: what a hand's digest needs of its row, so
        # ending it reads nothing back. Only a shortcut: a hand missing here is read from the table.
        self._open_starts: dict[str, _HandStart] = {}

    @contextmanager
    def writing(self) -> Iterator[Session]:
        session = getattr(self._batch, "session", None)
        if session is None:
            with self.session_maker.begin() as session:
                yield session
        else:
            self._flush_rows(session)           # earlier steps' rows first: steps land in order
            yield session
            session.flush()                     # a step's error surfaces in that step

    @contextmanager
    def reading(self) -> Iterator[Session]:
        session = getattr(self._batch, "session", None)
        if session is None:
            with self.session_maker() as session:
                yield session
        else:
            self._flush_rows(session)           # a read sees every earlier step
            yield session

    @contextmanager
    def rows(self) -> Iterator[_Rows]:
        """Rows for the busy tables (hands, transfers): gathered across a batch, written in bulk."""
        rows = getattr(self._batch, "rows", None)
        if rows is not None:
            yield rows
            return
        rows = _Rows()
        yield rows
        try:
            with self.session_maker.begin() as session:
                self._flush_rows(session, rows)
        except Exception:
            self._open_starts.clear()           # rolled back: starts remembered in it may not be stored
            raise

    def batch(self, calls: Sequence[tuple[Callable, tuple]]) -> list[tuple[bool, Any]]:
        """Run store calls in order as one transaction (group commit): ``(True, result)`` or ``(False, error)`` each.

        The room's writer hands over everything queued since its last batch, so
        a busy room commits once per batch instead of once per write, and the
        rows of its hands and transfers go in one bulk statement per table. If
        any step fails the whole transaction is rolled back and the steps run
        again one by one, each in its own transaction, so one bad write (a
        nickname taken, say) fails alone.
        """
        if len(calls) > 1:
            try:
                return [(True, result) for result in self._one_transaction(calls)]
            except Exception:                                   # noqa: BLE001 - retried one by one below
                self._open_starts.clear()       # rolled back: starts remembered in it may not be stored
        out = []
        for function, args in calls:
            try:
                out.append((True, function(*args)))
            except Exception as e:                              # noqa: BLE001 - handed back to the caller
                out.append((False, e))
        return out

    def _one_transaction(self, calls: Sequence[tuple[Callable, tuple]]) -> list[Any]:
        """Run store calls in order in one transaction; their results, or the first error (nothing stored)."""
        results = []
        with self.session_maker.begin() as session:
            self._batch.session, self._batch.rows, self._batch.head = session, _Rows(), None
            self._batch.checked = set()
            try:
                for function, args in calls:
                    results.append(function(*args))
                self._flush_rows(session)
            finally:
                self._batch.session = self._batch.rows = self._batch.head = self._batch.checked = None
        return results

    def checked(self, key: Hashable) -> bool:
        """Whether a check that holds until the transaction ends (a lease's fence) already passed in this one: a
        batch of many writes of one table pays for it once. Outside a batch, never."""
        return key in (getattr(self._batch, "checked", None) or ())

    def passed(self, key: Hashable) -> None:
        """A check of :meth:`checked` passed in this transaction (forgotten with it)."""
        checked = getattr(self._batch, "checked", None)
        if checked is not None:
            checked.add(key)

    def together(self, calls: Sequence[tuple[Callable, tuple]]) -> list[Any]:
        """Store calls that stand or fall together (a tournament's step and the hands that caused it): one
        transaction, the batch's own when called in one -- if any step of the batch fails, it is run again alone.
        Their results, in order."""
        if getattr(self._batch, "session", None) is not None:
            return [function(*args) for function, args in calls]
        try:
            return self._one_transaction(calls)
        except Exception:
            self._open_starts.clear()           # rolled back: starts remembered in it may not be stored
            raise

    def _flush_rows(self, session: Session, rows: _Rows | None = None) -> None:
        """Write gathered rows: Core bulk statements, a handful per batch rather than several per hand."""
        rows = rows if rows is not None else getattr(self._batch, "rows", None)
        if rows is None or rows.empty():
            return
        connection = session.connection()
        if rows.audits:                         # chained before every hand gathered here (:meth:`audit`)
            _INSERT_AUDIT.run(connection, rows.audits)
            rows.audits = []
        self._flush_hands(connection, rows)
        if rows.transfers:
            insert_transfers(connection, rows.transfers)
        rows.clear()

    def _flush_hands(self, connection: Connection, rows: _Rows) -> None:
        """The hands gathered so far: started ones inserted, ended ones updated and chained (SEC-1), their facts."""
        if rows.started:
            _INSERT_HANDS.run(connection, rows.started)
            _INSERT_HAND_PLAYERS.run(connection, rows.players)
            if len(self._open_starts) > OPEN_STARTS:        # hands that never ended here (a table retired mid-hand)
                self._open_starts.clear()
            self._open_starts.update((row["hand_id"], _HandStart(row)) for row in rows.started)
        if rows.ended:
            ids = [row["b_hand_id"] for row in rows.ended]
            opened = {hand_id: self._open_starts[hand_id] for hand_id in ids if hand_id in self._open_starts}
            sane_count = connection.dialect.supports_sane_multi_rowcount
            if len(opened) < len(ids) or not sane_count:
                opened.update(self._open_rows(connection, ids))
                self._refuse_ended(ids, opened)
            ended = [_ended_hand(opened[hand_id], row) for hand_id, row in zip(ids, rows.ended, strict=True)]
            written = run_many(connection, _END_HANDS, [
                (row["ended_at"], json_text(row["end_stacks"]), row["rake"], events, json_text(row["event_times"]),
                 hand_id) for hand_id, row, (events, _) in zip(ids, rows.ended, ended, strict=True)])
            if sane_count and written != len(ids):  # a start remembered here but ended or never stored
                self._refuse_ended(ids, self._open_rows(connection, ids))
            for hand_id in ids:
                self._open_starts.pop(hand_id, None)
            # the chain keeps each ended hand's digest (SEC-1), in the order the hands ended: worked out from the
            # values just written (the same bytes once read back: canonical() makes tuples lists, sorts keys)
            self.chain(connection, [("hand", {"hand_id": hand_id, "table": opened[hand_id].table_id, "digest": digest},
                                     row["ended_at"])
                                    for hand_id, row, (_, digest) in zip(ids, rows.ended, ended, strict=True)])
        if rows.facts:
            _INSERT_FACTS.run(connection, rows.facts)
        rows.started, rows.players, rows.ended, rows.facts = [], [], [], []

    @staticmethod
    def _open_rows(connection: Connection, ids: Sequence[str]) -> dict[str, Any]:
        return {row.hand_id: row for row in connection.execute(_OPEN_HANDS, {"ids": list(ids)})}

    @staticmethod
    def _refuse_ended(ids: Sequence[str], opened: Mapping[str, Any]) -> None:
        """A hand ends once, and only after its start is stored."""
        if len(opened) != len(ids):                 # a hand missing, or one hand ended twice in a batch
            closed = sorted(set(ids) - set(opened)) or sorted(ids)
            raise ValueError(f"hand {closed[0]} is not open")

    def audit(self, kind: str, data: Mapping[str, Any], at: float) -> str:
        """Append an audit record chained to the one before it by SHA-256; its hash.

        Each record's hash covers the previous record's hash, so changing or
        removing any record breaks every hash after it (:meth:`~pokerroom.store.audit_log.AuditLog.verify_audit`).
        In a :meth:`batch` the record is hashed at once and written with the
        batch's other rows in one statement (a crowd sitting down makes one per
        seat); hands that ended before it are chained first, as they would be.
        """
        rows = getattr(self._batch, "rows", None)
        if rows is None:
            for attempt in range(APPEND_ATTEMPTS):
                try:
                    with self.writing() as session:
                        return self.chain(session.connection(), [(kind, data, at)])
                except IntegrityError:          # the unique previous link refused a second record on one head
                    if attempt == APPEND_ATTEMPTS - 1:
                        raise
        connection = self._batch.session.connection()
        if rows.ended:
            self._flush_hands(connection, rows)
        previous = self._head(connection)
        digest = record_hash(previous, kind, data, at)
        rows.audits.append({"kind": kind, "data": dict(data), "at": at, "previous_hash": previous, "hash": digest})
        self._batch.head = digest
        return digest

    def _head(self, connection: Connection) -> str:
        """The newest record's hash, the chain held until this transaction ends: read once per batch, then kept.

        Every append of every thread and process (the writer, the CLI, a demo start) comes here first, so two
        records never link to the same head: the lock makes them wait their turn, and the unique
        ``previous_hash`` refuses a record that would fork the chain all the same.
        """
        head = getattr(self._batch, "head", None)
        if head is None:
            run(connection, _LOCK_CHAIN).close()
            cursor = run(connection, _CHAIN_HEAD)
            found = cursor.fetchone()
            cursor.close()
            head = found[0] if found else GENESIS
        return head

    def chain(self, connection: Connection, records: Sequence[tuple[str, Mapping[str, Any], float]]) -> str:
        """Append ``records`` after the newest one, in this transaction; the new head's hash."""
        rows = getattr(self._batch, "rows", None)
        if rows is not None and rows.audits:            # records hashed earlier in the batch go first
            _INSERT_AUDIT.run(connection, rows.audits)
            rows.audits = []
        last = self._head(connection)
        out = []
        for kind, data, at in records:
            digest = record_hash(last, kind, data, at)
            out.append({"kind": kind, "data": dict(data), "at": at, "previous_hash": last, "hash": digest})
            last = digest
        if out:
            _INSERT_AUDIT.run(connection, out)
        if getattr(self._batch, "session", None) is not None:
            self._batch.head = last
        return last
