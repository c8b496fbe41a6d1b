"""Accounts as stored (``store.accounts``): their creation and fields, names taken, and where they connect from."""

from __future__ import annotations

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError

from pokerroom.errors import RuleViolation
from pokerroom.store.models import Account, ConnectionRecord, NicknameReset
from pokerroom.store.transactions import Transactions


class AccountRecords:
    """The accounts: who may log in under which name (AC-3), and the connections the security team matches."""

    def __init__(self, core: Transactions) -> None:
        self.core = core

    def create_account(self, nickname: str, key: str, password_hash: str, birth_date: str, country: str,
                       at: float, role: str = "player") -> Account:
        """A new account; a nickname already taken in any letter case, or taken away by a reset, is refused (AC-3)."""
        if self.name_was_used(key):
            raise RuleViolation("nickname_taken", f"the nickname {nickname} is taken", "AC-3")
        try:
            with self.core.writing() as session:
                account = Account(nickname=nickname, nickname_key=key, password_hash=password_hash,
                                  birth_date=birth_date, country=country, role=role, created_at=at,
                                  closed=False)
                session.add(account)
            return account
        except IntegrityError:
            raise RuleViolation("nickname_taken", f"the nickname {nickname} is taken", "AC-3") from None

    def update_account(self, key: str, **fields: object) -> None:
        with self.core.writing() as session:
            session.execute(update(Account).where(Account.nickname_key == key).values(**fields))

    def find_account(self, key: str) -> Account | None:
        with self.core.reading() as session:
            return session.scalar(select(Account).where(Account.nickname_key == key))

    def name_was_used(self, key: str) -> bool:
        """AC-3: a name a reset took away is never given to anyone else (its history stays its own)."""
        with self.core.reading() as session:
            return session.scalar(select(NicknameReset.id).where(func.lower(NicknameReset.old) == key)
                                  .limit(1)) is not None

    def connection_opened(self, player_id: str, ip: str, device_id: str | None, at: float) -> int:
        """Who connected from where and when: what the security team matches across accounts (SEC)."""
        table = ConnectionRecord.__table__              # Core, not the ORM: a reconnecting crowd makes thousands
        with self.core.writing() as session:
            return session.connection().execute(
                insert(table).values(player_id=player_id, ip=ip, device_id=device_id, connected_at=at)
                .returning(table.c.id)).scalar_one()

    def connection_closed(self, record_id: int, at: float) -> None:
        table = ConnectionRecord.__table__
        with self.core.writing() as session:
            session.connection().execute(update(table).where(table.c.id == record_id).values(disconnected_at=at))

    def connections_of(self, player_id: str) -> list[ConnectionRecord]:
        with self.core.reading() as session:
            return list(session.scalars(select(ConnectionRecord).where(ConnectionRecord.player_id == player_id)
                                        .order_by(ConnectionRecord.id)))
