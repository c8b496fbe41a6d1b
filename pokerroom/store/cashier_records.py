"""What the cashier reads back (``store.cashier``): the day's deposits and withdrawals by player, and which
references were credited.

The player of a
movement is the owner of the account on the other side of ``world`` (the
wallet credited, the payout paid), never the transfer's reference: the
cashier's references are its own (``d-…``, ``w-…``), and a house deposit into
promotions is nobody's.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select

from pokerroom.money.accounts import WORLD, owner
from pokerroom.store.models import LedgerPosting, LedgerTransfer
from pokerroom.store.transactions import Transactions


class CashierRecords:
    """The cashier's reads of the ledger: the deposit limit's and the withdrawal limit's memory, and its references."""

    def __init__(self, core: Transactions) -> None:
        self.core = core

    def deposits_since(self, since: float) -> list[tuple[str, int, float]]:
        """(player, amount, at) of every deposit since ``since``: the deposit limit's memory (AC-5)."""
        return self.world_movements_since("deposit", since)

    def world_movements_since(self, reason: str, since: float) -> list[tuple[str, int, float]]:
        """(player, amount, at) of every ``deposit`` or ``withdrawal`` since ``since``, in ledger order (AC-5, AC-6)."""
        with self.core.reading() as session:
            rows = session.execute(select(LedgerPosting.account, LedgerPosting.amount, LedgerTransfer.at)
                                   .join(LedgerTransfer)
                                   .where(LedgerTransfer.reason == reason, LedgerTransfer.at >= since,
                                          LedgerPosting.account != WORLD)
                                   .order_by(LedgerTransfer.number)).all()
        return [(player, abs(int(amount)), at) for account, amount, at in rows
                if (player := owner(account)) is not None]

    def transfer_references(self, reason: str, references: Sequence[str]) -> set[str]:
        """Which of ``references`` a stored transfer of ``reason`` carries (a deposit the cashier credited)."""
        found: set[str] = set()
        with self.core.reading() as session:
            for start in range(0, len(references), 500):
                found.update(session.scalars(select(LedgerTransfer.reference).where(
                    LedgerTransfer.reason == reason, LedgerTransfer.reference.in_(references[start:start + 500]))))
        return found
