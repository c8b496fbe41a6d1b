"""Session tokens and account changes in the database (STAFF-3): what lets any process check a token.

A token is stored only as its SHA-256 (:func:`token_digest`): it carries 192
random bits, so a fast hash is enough and a copy of the database resumes nobody.
Each row has an idle expiry, pushed forward while the token is in use, and ends
at logout, at a ban or when a newer login replaces it.

``account_changes`` is a short append-only log of role changes and bans, from
whatever process made them (the room, ``pokerroom role``): a running room reads
the rows after the last it has seen, every second or so, and applies them to its
live sessions. ``store.sessions``, a part of :class:`~pokerroom.store.room_store.RoomStore`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, insert, or_, select, update

from pokerroom.store.models import Account, AccountChange, SessionToken
from pokerroom.store.transactions import Transactions

TOKEN_LIVE = "ok"
TOKEN_UNKNOWN = "unknown"           # never issued here, or its account was renamed away
TOKEN_ENDED = "ended"               # logged out, replaced by a newer login, or the account was banned
TOKEN_EXPIRED = "expired"           # unused for longer than the idle time
_RENEW_CHUNK = 500                  # token digests in one UPDATE ... IN (...)


def token_digest(token: str) -> str:
    """What the database keeps of a token: its SHA-256, hex."""
    return hashlib.sha256(token.encode()).hexdigest()


class SessionRecords:
    """Login tokens and account changes: what lets any process check a session (STAFF-3)."""

    def __init__(self, core: Transactions) -> None:
        self.core = core

    # ------------------------------------------------------------------ tokens

    def open_token(self, digest: str, nickname: str, key: str, at: float, expires_at: float) -> Account | None:
        """Store a new login's token and return the account as stored now, in the same transaction; None (and
        nothing stored) if the account was closed meanwhile.

        The login applies this row, not the one it read before the password hash: a freeze or a role change
        that landed while the hash ran is what the session gets (STAFF-3).
        """
        with self.core.writing() as session:
            account = session.scalar(select(Account).where(Account.nickname_key == key, Account.closed.is_(False)))
            if account is None:
                return None
            session.execute(insert(SessionToken).values(token_hash=digest, player_id=nickname, nickname_key=key,
                                                        created_at=at, used_at=at, expires_at=expires_at))
            return account

    def use_token(self, digest: str, at: float, idle: float) -> tuple[str, Any]:
        """``(TOKEN_LIVE, account)`` with the account as stored now, the token renewed; or why not, and None.

        A crowd resuming at once is thousands of these in a row on the writer's
        thread: one read of the token with its account and one update, in SQL
        statements, no ORM objects to build and flush (the account comes back
        as a read-only row with the same attributes).
        """
        tokens, accounts = SessionToken.__table__, Account.__table__
        with self.core.writing() as session:
            connection = session.connection()
            row = connection.execute(
                select(tokens.c.ended_at.label("token_ended_at"), tokens.c.expires_at.label("token_expires_at"),
                       *accounts.c)
                .join_from(tokens, accounts, tokens.c.nickname_key == accounts.c.nickname_key)
                .where(tokens.c.token_hash == digest)).first()
            if row is None:
                return TOKEN_UNKNOWN, None
            if row.token_ended_at is not None:
                return TOKEN_ENDED, None
            if row.token_expires_at <= at:
                connection.execute(update(tokens).where(tokens.c.token_hash == digest)
                                   .values(ended_at=at, end_reason="expired"))
                return TOKEN_EXPIRED, None
            connection.execute(update(tokens).where(tokens.c.token_hash == digest)
                               .values(used_at=at, expires_at=at + idle))
            return TOKEN_LIVE, row

    def renew_tokens(self, digests: Sequence[str], at: float, idle: float) -> None:
        """The tokens of connected sessions are in use: their idle time starts again (once a minute, in bulk)."""
        table = SessionToken.__table__
        with self.core.writing() as session:
            for start in range(0, len(digests), _RENEW_CHUNK):
                session.connection().execute(
                    update(table).where(table.c.token_hash.in_(digests[start:start + _RENEW_CHUNK]),
                                        table.c.ended_at.is_(None), table.c.expires_at > at)
                    .values(used_at=at, expires_at=at + idle))

    def end_token(self, digest: str, at: float, reason: str) -> None:
        with self.core.writing() as session:
            session.execute(update(SessionToken).where(SessionToken.token_hash == digest,
                                                       SessionToken.ended_at.is_(None))
                            .values(ended_at=at, end_reason=reason))

    def end_tokens_of(self, key: str, at: float, reason: str) -> None:
        with self.core.writing() as session:
            session.execute(update(SessionToken).where(SessionToken.nickname_key == key,
                                                       SessionToken.ended_at.is_(None))
                            .values(ended_at=at, end_reason=reason))

    def token_rows(self, nickname: str) -> list[SessionToken]:
        with self.core.reading() as session:
            return list(session.scalars(select(SessionToken).where(SessionToken.player_id == nickname)
                                        .order_by(SessionToken.id)))

    # ------------------------------------------------------------------ account changes

    def set_role(self, key: str, role: str, at: float) -> Account | None:
        """The account's new role, and a change row every running room applies to its live sessions."""
        with self.core.writing() as session:
            account = session.scalar(select(Account).where(Account.nickname_key == key))
            if account is None:
                return None
            account.role = role
            session.add(AccountChange(nickname_key=key, what="role", at=at))
            return account

    def close_account(self, key: str, at: float) -> None:
        """A ban: the account closed, every token of it ended, and a change row for the running rooms."""
        with self.core.writing() as session:
            session.execute(update(Account).where(Account.nickname_key == key).values(closed=True))
            session.execute(update(SessionToken).where(SessionToken.nickname_key == key,
                                                       SessionToken.ended_at.is_(None))
                            .values(ended_at=at, end_reason="account closed"))
            session.add(AccountChange(nickname_key=key, what="closed", at=at))

    def last_account_change(self) -> int:
        with self.core.reading() as session:
            return session.scalar(select(func.coalesce(func.max(AccountChange.id), 0)))

    def account_changes_since(self, after: int, recent: float = float("inf")) -> tuple[int, list[Account]]:
        """The newest change's id, and each account changed after ``after`` (or at ``recent`` or later) as it is
        stored now.

        ``recent`` catches a change whose id was taken before ``after`` but committed after it was read (two
        processes writing at once on PostgreSQL): applying an account twice does nothing the second time.
        """
        with self.core.reading() as session:
            rows = session.execute(select(AccountChange.id, AccountChange.nickname_key)
                                   .where(or_(AccountChange.id > after, AccountChange.at >= recent))
                                   .order_by(AccountChange.id)).all()
            if not rows:
                return after, []
            keys = sorted({key for _, key in rows})
            accounts = list(session.scalars(select(Account).where(Account.nickname_key.in_(keys))))
            return max(after, rows[-1][0]), accounts
