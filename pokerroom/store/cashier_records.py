"""What the cashier reads back: the day's deposits and withdrawals by player, and which references were credited.

A mix-in of :class:`~pokerroom.store.room_store.RoomStore`. The player of a
movement is the owner of the account on the other side of ``world`` (the
wallet credited, the payout paid), never the transfer's reference: the
cashier's references are its own (``d-…``, ``w-…``), and a house deposit into
promotions is nobody's.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from pokerroom.money.accounts import WORLD, owner
from pokerroom.store.models import LedgerPosting, LedgerTransfer


class CashierRecords:
    if TYPE_CHECKING:                                           # RoomStore's transactions
        def _reading(self) -> AbstractContextManager[Session]: ...

    def deposits_since(self, since: float) -> list[tuple[str, int, float]]:
        """(player, amount, at) of every deposit since ``since``: the deposit limit's memory (AC-5)."""
        return self.world_movements_since("deposit", since)

    def world_movements_since(self, reason: str, since: float) -> list[tuple[str, int, float]]:
        """(player, amount, at) of every ``deposit`` or ``withdrawal`` since ``since``, in ledger order (AC-5, AC-6)."""
        with self._reading() as session:
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
        with self._reading() as session:
            for start in range(0, len(references), 500):
                found.update(session.scalars(select(LedgerTransfer.reference).where(
                    LedgerTransfer.reason == reason, LedgerTransfer.reference.in_(references[start:start + 500]))))
        return found
