"""The ledger as stored (``store.ledger``): transfers written with their cached balances, loaded and checked."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from sqlalchemy import func, select

from pokerroom.money.ledger import Ledger, Posting, Transfer
from pokerroom.money.ledger_audit import ledger_problems
from pokerroom.store.models import LedgerBalance, LedgerPosting, LedgerTransfer
from pokerroom.store.transactions import Transactions


class LedgerRecords:
    """The ledger's transfers and balances: the one record of money (DESIGN.md idea 3), and its checks."""

    def __init__(self, core: Transactions) -> None:
        self.core = core

    def save_transfers(self, transfers: Iterable[Transfer]) -> None:
        """Write transfers and their effect on the cached balances, all in one transaction."""
        with self.core.rows() as rows:
            rows.transfers.extend(transfers)

    def load_ledger(self, keep: int | None = None) -> Ledger:
        """The ledger as stored: every balance, and the last ``keep`` transfers (None: all).

        Balances are the sums of all stored postings, computed in the database
        and checked against the cached balance rows; ``ValueError`` if anything
        does not add up.
        """
        with self.core.reading() as session:
            sums = {a: int(v) for a, v in session.execute(
                select(LedgerPosting.account, func.sum(LedgerPosting.amount)).group_by(LedgerPosting.account))}
            stored = {b.account: b.balance for b in session.scalars(select(LedgerBalance))}
            count = session.scalar(select(func.coalesce(func.max(LedgerTransfer.number), 0)))
            query = select(LedgerTransfer).order_by(LedgerTransfer.number.desc())
            if keep is not None:
                query = query.limit(keep)
            rows = session.scalars(query).all()
            recent = [_transfer(row) for row in reversed(rows)]
        balances = {a: v for a, v in sums.items() if v}
        if {a: v for a, v in stored.items() if v} != balances:
            raise ValueError("the stored balances do not match the stored postings")
        ledger = Ledger.restore(balances, recent, int(count), keep)
        if not ledger.check():
            raise ValueError("the stored ledger does not balance")
        return ledger

    def transfers_touching(self, accounts: Sequence[str], limit: int, before: int | None = None) -> list[Transfer]:
        """The newest ``limit`` transfers with a posting to any of ``accounts`` (numbered below ``before``), newest
        first."""
        with self.core.reading() as session:
            numbers = select(LedgerTransfer.id).join(LedgerPosting).where(LedgerPosting.account.in_(accounts))
            query = select(LedgerTransfer).where(LedgerTransfer.id.in_(numbers))
            if before is not None:
                query = query.where(LedgerTransfer.number < before)
            rows = session.scalars(query.order_by(LedgerTransfer.number.desc()).limit(limit)).all()
            return [_transfer(row) for row in rows]

    def ledger_check(self) -> bool:
        """In the database itself: postings sum to zero, and every cached balance is its postings' sum."""
        with self.core.reading() as session:
            total = session.scalar(select(func.coalesce(func.sum(LedgerPosting.amount), 0)))
            sums = dict(session.execute(select(LedgerPosting.account, func.sum(LedgerPosting.amount))
                                        .group_by(LedgerPosting.account)).all())
            cached = {b.account: b.balance for b in session.scalars(select(LedgerBalance))}
        summed = {a: int(v) for a, v in sums.items() if v}
        return total == 0 and summed == {a: v for a, v in cached.items() if v}

    def ledger_problems(self) -> list[str]:
        """Every stored transfer and cached balance judged by :func:`~pokerroom.money.ledger_audit.ledger_problems`."""
        with self.core.reading() as session:
            cached = {b.account: b.balance for b in session.scalars(select(LedgerBalance))}
            rows = session.execute(select(LedgerTransfer.number, LedgerTransfer.reason, LedgerTransfer.reference,
                                          LedgerTransfer.at, LedgerPosting.account, LedgerPosting.amount)
                                   .join(LedgerPosting).order_by(LedgerTransfer.number, LedgerPosting.id)
                                   .execution_options(yield_per=10_000))
            return ledger_problems(_grouped(rows), cached)


def _grouped(rows: Iterable[Any]) -> Iterator[Transfer]:
    """(number, reason, reference, at, account, amount) rows in transfer order, as transfers."""
    current: tuple | None = None
    postings: list[Posting] = []
    for number, reason, reference, at, account, amount in rows:
        if current is not None and current[0] != number:
            yield Transfer(current[0], tuple(postings), *current[1:])
            postings = []
        current = (number, reason, reference, at)
        postings.append(Posting(account, int(amount)))
    if current is not None:
        yield Transfer(current[0], tuple(postings), *current[1:])


def _transfer(row: LedgerTransfer) -> Transfer:
    return Transfer(row.number, tuple(Posting(p.account, p.amount) for p in row.postings), row.reason,
                    row.reference, row.at)
