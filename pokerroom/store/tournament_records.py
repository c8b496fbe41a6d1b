"""A tournament's director as typed rows (:mod:`tournament.saved_state`): saved per step, loaded at a restart.

Each step's call upserts the rows the step changed -- the state row always,
the terms, tables and entries only when changed -- and deletes closed tables
and withdrawn entries, in the one transaction of the step's ledger transfers,
so the rows always agree with the ledger. A finished or cancelled tournament
keeps only its ``tournaments`` row. The store knows the records only by their
fields (column for field), not the poker they hold. ``store.tournaments``, a
part of :class:`~pokerroom.store.room_store.RoomStore`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Table, delete, select, tuple_
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from pokerroom.money.ledger import Transfer
from pokerroom.store.models import (
    LedgerTransfer,
    TournamentEntryRow,
    TournamentRecord,
    TournamentStateRow,
    TournamentTableRow,
    TournamentTermsRow,
)
from pokerroom.store.transactions import Transactions, insert_transfers

UNFINISHED = ("registering", "running")
ENTRY_REASONS = ("tournament buy-in", "tournament bounty", "tournament fee")   # tournament.registration's legs
_STATES: Table = TournamentStateRow.__table__
_TERMS: Table = TournamentTermsRow.__table__
_TABLES: Table = TournamentTableRow.__table__
_ENTRIES: Table = TournamentEntryRow.__table__
_DETAIL = (_ENTRIES, _TABLES, _TERMS, _STATES)


def _upserts(table: Table) -> dict[str, Any]:
    """An insert that replaces the row with the same primary key, per dialect."""
    keys = [c.name for c in table.primary_key.columns]
    statements = {}
    for name, dialect_insert in (("sqlite", sqlite_insert), ("postgresql", postgresql_insert)):
        statement = dialect_insert(table)
        statements[name] = statement.on_conflict_do_update(
            index_elements=keys, set_={c.name: statement.excluded[c.name] for c in table.columns if c.name not in keys})
    return statements


_UPSERT = {table.name: _upserts(table) for table in _DETAIL}


@dataclass(frozen=True)
class SavedTournament:
    """An unfinished tournament as stored: ``rows`` is what :func:`tournament.saved_state.from_rows` reads."""

    id: str
    name: str
    state: str
    created_by: str
    rows: dict[str, Any]


class TournamentRecords:
    """Tournaments' saved steps: what a restarted room restores each unfinished tournament from."""

    def __init__(self, core: Transactions) -> None:
        self.core = core

        @staticmethod
        def _save(connection: Any, transfers: list[Transfer]) -> None: ...

    def save_tournament(self, tournament_id: str, name: str, state: str, saved: Any, created_by: str,
                        transfers: Sequence[Transfer], at: float) -> None:
        """A tournament step: its ledger transfers and the rows it changed (a ``saved_state.Saved``), at once."""
        with self.core.writing() as session:
            connection = session.connection()
            if transfers:
                insert_transfers(connection, list(transfers))
            row = session.get(TournamentRecord, tournament_id)
            if row is None:
                session.add(TournamentRecord(id=tournament_id, name=name, state=state, created_by=created_by,
                                             updated_at=at))
            else:
                row.state, row.updated_at = state, at
            if saved.ended:
                for table in _DETAIL:
                    connection.execute(delete(table).where(table.c.tournament == tournament_id))
                return
            dialect = connection.dialect.name
            if saved.closed_tables:
                connection.execute(delete(_TABLES).where(_TABLES.c.tournament == tournament_id,
                                                         _TABLES.c.table.in_(saved.closed_tables)))
            if saved.withdrawn:
                connection.execute(delete(_ENTRIES).where(
                    _ENTRIES.c.tournament == tournament_id,
                    tuple_(_ENTRIES.c.player, _ENTRIES.c.number).in_([tuple(k) for k in saved.withdrawn])))
            for table, records in ((_STATES, (saved.state,)), (_TERMS, (saved.terms,) if saved.terms else ()),
                                   (_TABLES, saved.tables), (_ENTRIES, saved.entries)):
                if records:
                    connection.execute(_UPSERT[table.name][dialect], [vars(r) for r in records])

    def unfinished_tournaments(self) -> list[SavedTournament]:
        """Tournaments that were registering or running when the server stopped, with their rows."""
        with self.core.reading() as session:
            records = list(session.scalars(select(TournamentRecord).where(
                TournamentRecord.state.in_(UNFINISHED)).order_by(TournamentRecord.id)))
            return [SavedTournament(r.id, r.name, r.state, r.created_by, self._tournament_rows(session, r.id))
                    for r in records]

    def saved_tournament(self, tournament_id: str) -> dict[str, Any] | None:
        """The rows of one unfinished tournament (None when it has none: finished, cancelled or unknown)."""
        with self.core.reading() as session:
            rows = self._tournament_rows(session, tournament_id)
            return rows if rows["state"] is not None else None

    def entry_price(self, tournament_id: str) -> dict[str, Any] | None:
        """What an entry cost and the blind levels, for a hand history's tournament header: from the terms while
        the event is unfinished (``spec``), after it from the entry's transfers in the ledger (``legs``: reason ->
        amount; no levels); None when neither is stored."""
        with self.core.reading() as session:
            spec = session.scalar(select(TournamentTermsRow.spec).where(TournamentTermsRow.tournament == tournament_id))
            if spec is not None:
                return {"spec": spec}
            legs: dict[str, int] = {}
            query = (select(LedgerTransfer).where(LedgerTransfer.reference == tournament_id,
                                                  LedgerTransfer.reason.in_(ENTRY_REASONS))
                     .order_by(LedgerTransfer.number).limit(3 * len(ENTRY_REASONS)))
            for transfer in session.scalars(query):
                paid = sum(p.amount for p in transfer.postings if p.amount > 0)
                legs.setdefault(transfer.reason, paid)
            return {"legs": legs} if legs else None

    def tournament(self, tournament_id: str) -> TournamentRecord | None:
        with self.core.reading() as session:
            return session.get(TournamentRecord, tournament_id)

    @staticmethod
    def _tournament_rows(session: Session, tournament_id: str) -> dict[str, Any]:
        def mapped(table: Table) -> list[dict[str, Any]]:
            result = session.connection().execute(select(table).where(table.c.tournament == tournament_id))
            return [dict(row) for row in result.mappings()]

        states, terms = mapped(_STATES), mapped(_TERMS)
        return {"state": states[0] if states else None, "terms": terms[0] if terms else None,
                "tables": mapped(_TABLES), "entries": mapped(_ENTRIES)}
