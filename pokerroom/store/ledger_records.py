"""The ledger as stored (``store.ledger``): transfers written with their cached balances, loaded and checked."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import Any

from sqlalchemy import Connection, bindparam, func, select, text, update

from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import SEPARATOR, Kind, parse
from pokerroom.money.ledger import Ledger, Posting, Transfer
from pokerroom.money.ledger_audit import ledger_problems
from pokerroom.store.models import LedgerBalance, LedgerNumbers, LedgerPosting, LedgerTransfer
from pokerroom.store.transactions import Transactions, insert_transfer

_BALANCES = LedgerBalance.__table__
_LOCK_BALANCES = (select(_BALANCES.c.account, _BALANCES.c.balance)
                  .where(_BALANCES.c.account.in_(bindparam("accounts", expanding=True)))
                  .order_by(_BALANCES.c.account).with_for_update())
_READ_BALANCES = (select(_BALANCES.c.account, _BALANCES.c.balance)
                  .where(_BALANCES.c.account.in_(bindparam("accounts", expanding=True))))
_MADE = (select(LedgerTransfer.id).where(LedgerTransfer.reason == bindparam("reason"),
                                        LedgerTransfer.reference == bindparam("reference")).limit(1))
# PostgreSQL: one transaction at a time per (reason, reference) of a move made once ever, held to its commit
_ONCE_LOCK = text("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))")
_NUMBERS = LedgerNumbers.__table__
TRANSFER_NUMBERS = "transfers"
# SQLite has no row locks (FOR UPDATE is not written there): its one write lock, taken by a statement that writes
# nothing, before anything is read, makes the read, the check and the write one writer's turn.
_SQLITE_WRITE_LOCK = text("UPDATE ledger_numbers SET next_number = next_number WHERE name = ''")


class LedgerRecords:
    """The ledger's transfers and balances: the one record of money (DESIGN.md idea 3), and its checks."""

    def __init__(self, core: Transactions) -> None:
        self.core = core

    def save_transfers(self, transfers: Iterable[Transfer]) -> None:
        """Write transfers and their effect on the cached balances, all in one transaction."""
        with self.core.rows() as rows:
            rows.transfers.extend(transfers)

    def post_locked(self, transfers: Sequence[Transfer], guarded: Collection[str], *,
                    once: RuleViolation | None = None) -> None:
        """Store transfers that move money out of shared accounts, in ONE transaction: the balance rows of their
        accounts locked (``SELECT ... FOR UPDATE``, in account order: every writer locks in that order), each of
        ``guarded`` they take from refused below zero (``insufficient_funds``, nothing written), then the
        transfers, their postings and their balances written and committed. Two processes spending one balance
        at once: the second waits for the first's commit, reads what it left, and is refused.

        ``once``: each transfer is made once ever by its reason and reference (a welcome deposit); one already
        stored raises ``once``, nothing written. The check is under a lock on that pair (PostgreSQL: an advisory
        lock to the commit, taken first; SQLite: its one write lock), so two processes at once pay it once."""
        accounts = sorted({p.account for t in transfers for p in t.postings})
        with self.core.writing() as session:
            connection = session.connection()
            if connection.dialect.name == "sqlite":
                connection.execute(_SQLITE_WRITE_LOCK)
            if once is not None:
                for key in sorted({(t.reason, t.reference) for t in transfers}):
                    if connection.dialect.name == "postgresql":
                        connection.execute(_ONCE_LOCK, {"key": "\x1f".join(key)})
                    if connection.execute(_MADE, {"reason": key[0], "reference": key[1]}).first() is not None:
                        raise once
            held = dict(connection.execute(_LOCK_BALANCES, {"accounts": accounts}).all())
            after = {account: int(held.get(account, 0)) for account in accounts}
            for t in transfers:
                for p in t.postings:
                    after[p.account] += p.amount
            for account in accounts:
                if account in guarded and after[account] < 0:
                    have = int(held.get(account, 0))
                    raise RuleViolation("insufficient_funds", f"{account} holds {{have}}, cannot pay {{need}}",
                                        amounts={"have": have, "need": have - after[account]})
            for t in transfers:
                insert_transfer(connection, t)

    def reserve_numbers(self, size: int) -> range:
        """``size`` transfer numbers no process has taken or will take (the ``ledger_numbers`` row locked): a
        block starts after every stored number too, so a room that ran on one process before goes on from it."""
        with self.core.writing() as session:
            connection = session.connection()
            if connection.dialect.name == "sqlite":
                connection.execute(_SQLITE_WRITE_LOCK)
            start = _next_number(connection)
            connection.execute(update(_NUMBERS).where(_NUMBERS.c.name == TRANSFER_NUMBERS)
                               .values(next_number=start + size))
        return range(start, start + size)

    def balances(self, accounts: Iterable[str]) -> dict[str, int]:
        """What each of ``accounts`` holds now, as committed (a shared account's truth)."""
        accounts = list(accounts)
        with self.core.reading() as session:
            held = dict(session.connection().execute(_READ_BALANCES, {"accounts": list(accounts)}).all())
        return {account: int(held.get(account, 0)) for account in accounts}

    def held_in(self, kind: Kind, place: str | None = None) -> dict[str, int]:
        """Every non-zero account of ``kind`` (at one table, event or reference: ``place``), as committed: the
        truth a process reads of what other processes may have moved."""
        prefix = f"{kind.value}{SEPARATOR}" + (f"{place}{SEPARATOR}" if place is not None else "")
        with self.core.reading() as session:
            rows = session.execute(select(LedgerBalance.account, LedgerBalance.balance)
                                   .where(LedgerBalance.account.startswith(prefix, autoescape=True))).all()
        out = {}
        for account, balance in rows:
            parsed = parse(account)          # a place may hold colons: only this place's own accounts
            if balance and parsed is not None and parsed.kind is kind and place in (None, parsed.place):
                out[account] = int(balance)
        return out

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


def _next_number(connection: Connection) -> int:
    """The first number of a new block, the numbers' row locked (PostgreSQL; SQLite's write lock is held)."""
    locked = connection.execute(select(_NUMBERS.c.next_number).where(_NUMBERS.c.name == TRANSFER_NUMBERS)
                                .with_for_update()).scalar()
    stored = connection.execute(select(func.coalesce(func.max(LedgerTransfer.number), 0))).scalar()
    if locked is None:                                  # a database migrated before the row: made here, once
        connection.execute(_NUMBERS.insert().values(name=TRANSFER_NUMBERS, next_number=int(stored) + 1))
        return int(stored) + 1
    return max(int(locked), int(stored) + 1)


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
