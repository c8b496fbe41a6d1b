"""The audit log read back (``store.audit_log``): its records, the directors' commands, and the chain checked
against every stored hand and chat line (SEC-5). Appending is the transactions' own
(:meth:`~pokerroom.store.transactions.Transactions.audit`): one head for every part.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from sqlalchemy import select

from pokerroom.security.audit import Anchor, Verdict, verify_chain
from pokerroom.store.models import AuditRecord, ChatLine, HandRecord
from pokerroom.store.transactions import Transactions, chat_digest, hand_digest


class AuditLog:
    """The chained audit records as the security team and the directors read and verify them."""

    def __init__(self, core: Transactions) -> None:
        self.core = core

    def audit_records(self, kind: str | None = None) -> list[AuditRecord]:
        with self.core.reading() as session:
            query = select(AuditRecord).order_by(AuditRecord.id)
            if kind is not None:
                query = query.where(AuditRecord.kind == kind)
            return list(session.scalars(query))

    def audit_records_naming(self, kind: str, reference: str, field: str = "reference") -> list[AuditRecord]:
        """The records of ``kind`` whose data's ``field`` is ``reference``, in order: found by the database (a JSON
        field), not by reading every record of the kind."""
        with self.core.reading() as session:
            query = (select(AuditRecord)
                     .where(AuditRecord.kind == kind, AuditRecord.data[field].as_string() == reference)
                     .order_by(AuditRecord.id))
            return list(session.scalars(query))

    def director_activity(self, limit: int, tournament: str | None = None) -> list[AuditRecord]:
        """The newest ``limit`` director commands (of one tournament, if named), newest first."""
        with self.core.reading() as session:
            query = (select(AuditRecord).where(AuditRecord.kind == "director_command")
                     .order_by(AuditRecord.id.desc()).execution_options(yield_per=500))
            found = []
            for record in session.scalars(query):
                if tournament is None or record.data.get("tournament") == tournament:
                    found.append(record)
                    if len(found) == limit:
                        break
            return found

    def audit_chain_intact(self) -> bool:
        return self.verify_audit().intact

    def verify_audit(self, anchors: Sequence[Anchor] = ()) -> Verdict:
        """The chain checked link by link (SEC-5), then every stored hand and chat line against its digest.

        A room may be writing while this reads: rows that ended after the newest record read are left for the
        next check. From the first chained hand (or chat line) on, a row without a record was added afterwards.
        """
        with self.core.reading() as session:
            records = session.scalars(select(AuditRecord).order_by(AuditRecord.id).execution_options(yield_per=2000))
            recorded: dict[str, dict[Any, str]] = {"hand": {}, "chat": {}}
            first: dict[str, float] = {}
            last_at = float("-inf")

            def chained() -> Iterator[AuditRecord]:
                nonlocal last_at
                for record in records:
                    if record.kind == "hand":
                        recorded["hand"][record.data.get("hand_id")] = record.data.get("digest")
                    elif record.kind == "chat":
                        recorded["chat"][record.data.get("id")] = record.data.get("digest")
                    if record.kind in recorded:
                        first.setdefault(record.kind, record.at)
                    last_at = max(last_at, record.at)
                    yield record

            verdict = verify_chain(chained(), anchors)
            hands = session.scalars(select(HandRecord).where(HandRecord.ended_at.is_not(None),
                                                            HandRecord.ended_at <= last_at)
                                    .order_by(HandRecord.id).execution_options(yield_per=2000))
            for row in hands:
                digest = recorded["hand"].pop(row.hand_id, None)
                if digest is None:
                    if "hand" in first and row.ended_at >= first["hand"]:
                        verdict.problems.append(f"hand {row.hand_id} has no audit record: it was added afterwards")
                elif digest != hand_digest(row):
                    verdict.problems.append(f"hand {row.hand_id} was changed after it ended: it no longer matches "
                                            f"its audit record")
            verdict.problems += [f"hand {hand_id} is in the audit log but was removed from the hands"
                                 for hand_id in recorded["hand"]]
            lines = session.scalars(select(ChatLine).where(ChatLine.at <= last_at).order_by(ChatLine.id)
                                    .execution_options(yield_per=2000))
            for line in lines:
                digest = recorded["chat"].pop(line.id, None)
                if digest is None:
                    if "chat" in first and line.at >= first["chat"]:
                        verdict.problems.append(f"chat line {line.id} by {line.player_id} has no audit record: it "
                                                f"was added afterwards")
                elif digest != chat_digest(line):
                    verdict.problems.append(f"chat line {line.id} by {line.player_id} was changed: it no longer "
                                            f"matches its audit record")
            verdict.problems += [f"chat line {line_id} is in the audit log but was removed from the chat"
                                 for line_id in recorded["chat"]]
        return verdict
