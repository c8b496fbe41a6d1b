"""The room's database: its transactions and, beside them, one part per kind of record.

:class:`RoomStore` is the :class:`~pokerroom.store.transactions.Transactions`
every part shares -- the engine, the transaction in progress, the audit chain's
head -- and the parts themselves, each a small class with one job over that one
core: ``store.hands``, ``store.ledger``, ``store.accounts``, ``store.sessions``,
``store.tables``, ``store.casino``, ``store.tournaments``, ``store.security``,
``store.audit_log``, ``store.cashier``, ``store.leases``. Every call of a part is one
transaction, or one step of a :meth:`~pokerroom.store.transactions.Transactions.batch` -- calls to several
parts in one batch (or :meth:`~pokerroom.store.transactions.Transactions.together`)
commit at once, because they all write through the same core.
"""

from __future__ import annotations

from sqlalchemy import Engine

from pokerroom.store.account_records import AccountRecords
from pokerroom.store.audit_log import AuditLog
from pokerroom.store.cashier_records import CashierRecords
from pokerroom.store.casino_records import CasinoRecords
from pokerroom.store.hand_records import HandRecords, Recovery
from pokerroom.store.lease_records import LeaseRecords
from pokerroom.store.ledger_records import LedgerRecords
from pokerroom.store.security_records import SecurityRecords
from pokerroom.store.session_records import SessionRecords
from pokerroom.store.table_records import TableRecords
from pokerroom.store.tournament_records import TournamentRecords
from pokerroom.store.transactions import Transactions

__all__ = ["RoomStore", "Recovery"]


class RoomStore(Transactions):
    """The room's database: the shared transactions, and a part for each kind of record."""

    def __init__(self, engine: Engine) -> None:
        super().__init__(engine)
        self.hands = HandRecords(self)
        self.ledger = LedgerRecords(self)
        self.accounts = AccountRecords(self)
        self.sessions = SessionRecords(self)
        self.tables = TableRecords(self)
        self.casino = CasinoRecords(self)
        self.tournaments = TournamentRecords(self)
        self.security = SecurityRecords(self)
        self.audit_log = AuditLog(self)
        self.cashier = CashierRecords(self)
        self.leases = LeaseRecords(self)
