"""What the room writes and reads, one short transaction per call (run off the reactor thread).

Theory of operation
-------------------
The pure core decides; the store remembers. Every method here is one
transaction, so what belongs together lands together: a hand's end, its event
stream and the ledger transfer that settles it commit at once or not at all;
a transfer's postings and the cached balances they change commit at once.
The server calls these methods through a thread pool (one thread for SQLite,
several for PostgreSQL), never on the reactor thread.

Crash recovery (TR-REFUND-1) follows from the ledger settling a hand only at
its end: after a crash, every hand without an end is marked void, and since
no transfer ever moved its chips, each player's table escrow still holds
their start-of-hand stack. :meth:`RoomStore.recover` voids those hands and
returns each affected player's escrow to their wallet.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, func, insert, select, text, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker
from twisted.logger import Logger

from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import ESCROWS, cash, parse
from pokerroom.money.ledger import Ledger, Posting, Transfer
from pokerroom.money.ledger_audit import ledger_problems
from pokerroom.security.audit import GENESIS, Anchor, Verdict, record_hash, row_digest, verify_chain
from pokerroom.store.cashier_records import CashierRecords
from pokerroom.store.models import (
    Account,
    AuditRecord,
    CashTableRecord,
    CasinoBet,
    CasinoRound,
    ChatLine,
    ConnectionRecord,
    DepartureRecord,
    HandFactsRecord,
    HandPlayer,
    HandRecord,
    LedgerBalance,
    LedgerPosting,
    LedgerTransfer,
    Refusal,
)
from pokerroom.store.security_records import SecurityRecords, pack_facts
from pokerroom.store.session_records import SessionRecords
from pokerroom.store.tournament_records import TournamentRecords
from pokerroom.table.seating_history import Arrival, Departure


@dataclass(frozen=True, slots=True)
class Recovery:
    """What a restart found: hands voided and chips returned from tables to wallets."""

    voided_hands: tuple[str, ...]
    returned: tuple[Transfer, ...]


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


log = Logger()


OPEN_STARTS = 100_000


def _balance_upsert(dialect_insert: Callable) -> Any:
    upsert = dialect_insert(LedgerBalance.__table__)
    return upsert.on_conflict_do_update(index_elements=[LedgerBalance.__table__.c.account],
                                        set_={"balance": LedgerBalance.__table__.c.balance + upsert.excluded.balance})


# The busy writer's statements, built once: building a statement costs more than running a small one.
_HANDS = HandRecord.__table__
_TRANSFERS = LedgerTransfer.__table__
_INSERT_AUDIT = insert(AuditRecord.__table__)
_INSERT_HANDS = insert(_HANDS)
_INSERT_HAND_PLAYERS = insert(HandPlayer.__table__)
_INSERT_FACTS = insert(HandFactsRecord.__table__)
_END_HANDS = (update(_HANDS).where(_HANDS.c.hand_id == bindparam("b_hand_id"), _HANDS.c.ended_at.is_(None))
              .values(ended_at=bindparam("ended_at"), end_stacks=bindparam("end_stacks"), rake=bindparam("rake"),
                      events=bindparam("events"), event_times=bindparam("event_times")))
_OPEN_HANDS = select(_HANDS.c.hand_id, _HANDS.c.table_id, _HANDS.c.tournament, _HANDS.c.started_at,
                     _HANDS.c.start_stacks).where(_HANDS.c.hand_id.in_(bindparam("ids", expanding=True)),
                                                  _HANDS.c.ended_at.is_(None))
_INSERT_TRANSFERS = insert(_TRANSFERS)
_TRANSFER_IDS = select(_TRANSFERS.c.number, _TRANSFERS.c.id).where(
    _TRANSFERS.c.number.in_(bindparam("numbers", expanding=True)))
_INSERT_POSTINGS = insert(LedgerPosting.__table__)
_UPSERT_BALANCES = {"postgresql": _balance_upsert(postgresql_insert), "sqlite": _balance_upsert(sqlite_insert)}
_CHAIN_HEAD = select(AuditRecord.__table__.c.hash).order_by(AuditRecord.__table__.c.id.desc()).limit(1)
# Taking the chain's head: PostgreSQL's transaction-scoped advisory lock (one key in every process); SQLite's one
# write lock, taken by a statement that writes nothing, before the head is read.
CHAIN_LOCK_KEY = 0x706F6B6572
_LOCK_CHAIN = {"postgresql": text(f"SELECT pg_advisory_xact_lock({CHAIN_LOCK_KEY})"),
               "sqlite": text("UPDATE audit_records SET kind = kind WHERE id < 0")}
APPEND_ATTEMPTS = 5                     # a standalone append that lost a race to an appender without the lock


class _HandStart:
    """What a hand's digest needs of its stored start, as the row reads back (a float time, a fresh dict)."""

    __slots__ = ("hand_id", "start_stacks", "started_at", "table_id", "tournament")

    def __init__(self, row: Mapping[str, Any]) -> None:
        self.hand_id, self.table_id, self.tournament = row["hand_id"], row["table_id"], row["tournament"]
        self.started_at, self.start_stacks = float(row["started_at"]), dict(row["start_stacks"])


class _EndedHand:
    """A hand's stored start and the end about to be written, read as :func:`hand_digest` reads a row."""

    def __init__(self, start: Any, end: dict) -> None:
        self.hand_id, self.table_id, self.tournament = start.hand_id, start.table_id, start.tournament
        self.started_at, self.start_stacks = start.started_at, start.start_stacks
        self.ended_at, self.end_stacks, self.rake = end["ended_at"], end["end_stacks"], end["rake"]
        self.events, self.event_times, self.void = end["events"], end["event_times"], False


def hand_digest(row: Any) -> str:
    """What the audit chain keeps of a stored hand (SEC-1): every column the security team replays."""
    return row_digest(row.hand_id, row.table_id, row.tournament, row.started_at, row.start_stacks, row.ended_at,
                      row.end_stacks, row.rake, row.events, row.event_times, row.void)


def chat_digest(row: Any) -> str:
    return row_digest(row.id, row.table_id, row.hand_id, row.player_id, row.text, row.at, row.blocked)


class RoomStore(CashierRecords, SecurityRecords, SessionRecords, TournamentRecords):
    """The room's database. Every method is one transaction -- or one step of a :meth:`batch`."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        self._batch = threading.local()
        # The starts of hands this process wrote and has not ended: what a hand's digest needs of its row, so
        # ending it reads nothing back. Only a shortcut: a hand missing here is read from the table.
        self._open_starts: dict[str, _HandStart] = {}

    # ------------------------------------------------------------------ transactions

    @contextmanager
    def _writing(self) -> Iterator[Session]:
        session = getattr(self._batch, "session", None)
        if session is None:
            with self.sessions.begin() as session:
                yield session
        else:
            self._flush_rows(session)           # earlier steps' rows first: steps land in order
            yield session
            session.flush()                     # a step's error surfaces in that step

    @contextmanager
    def _reading(self) -> Iterator[Session]:
        session = getattr(self._batch, "session", None)
        if session is None:
            with self.sessions() as session:
                yield session
        else:
            self._flush_rows(session)           # a read sees every earlier step
            yield session

    @contextmanager
    def _rows(self) -> Iterator[_Rows]:
        """Rows for the busy tables (hands, transfers): gathered across a batch, written in bulk."""
        rows = getattr(self._batch, "rows", None)
        if rows is not None:
            yield rows
            return
        rows = _Rows()
        yield rows
        try:
            with self.sessions.begin() as session:
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
        with self.sessions.begin() as session:
            self._batch.session, self._batch.rows, self._batch.head = session, _Rows(), None
            try:
                for function, args in calls:
                    results.append(function(*args))
                self._flush_rows(session)
            finally:
                self._batch.session = self._batch.rows = self._batch.head = None
        return results

    def together(self, calls: Sequence[tuple[Callable, tuple]]) -> None:
        """Store calls that stand or fall together (a tournament's step and the hands that caused it): one
        transaction, the batch's own when called in one -- if any step of the batch fails, it is run again alone."""
        if getattr(self._batch, "session", None) is not None:
            for function, args in calls:
                function(*args)
            return
        try:
            self._one_transaction(calls)
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
            connection.execute(_INSERT_AUDIT, rows.audits)
            rows.audits = []
        self._flush_hands(connection, rows)
        if rows.transfers:
            self._save(connection, rows.transfers)
        rows.clear()

    def _flush_hands(self, connection: Connection, rows: _Rows) -> None:
        """The hands gathered so far: started ones inserted, ended ones updated and chained (SEC-1), their facts."""
        if rows.started:
            connection.execute(_INSERT_HANDS, rows.started)
            connection.execute(_INSERT_HAND_PLAYERS, rows.players)
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
            written = connection.execute(_END_HANDS, rows.ended)
            if sane_count and written.rowcount != len(ids):  # a start remembered here but ended or never stored
                self._refuse_ended(ids, self._open_rows(connection, ids))
            for hand_id in ids:
                self._open_starts.pop(hand_id, None)
            # the chain keeps each ended hand's digest (SEC-1), in the order the hands ended: worked out from the
            # values just written (the same bytes once read back: canonical() makes tuples lists, sorts keys)
            self._chain(connection, [("hand", {"hand_id": hand_id, "table": opened[hand_id].table_id,
                                               "digest": hand_digest(_EndedHand(opened[hand_id], ended))},
                                      ended["ended_at"])
                                     for hand_id, ended in zip(ids, rows.ended, strict=True)])
        if rows.facts:
            connection.execute(_INSERT_FACTS, rows.facts)
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

    # ------------------------------------------------------------------ accounts

    def create_account(self, nickname: str, key: str, password_hash: str, birth_date: str, country: str,
                       at: float, role: str = "player") -> Account:
        """A new account; a nickname already taken in any letter case, or taken away by a reset, is refused (AC-3)."""
        if self.name_was_used(key):
            raise RuleViolation("nickname_taken", f"the nickname {nickname} is taken", "AC-3")
        try:
            with self._writing() as session:
                account = Account(nickname=nickname, nickname_key=key, password_hash=password_hash,
                                  birth_date=birth_date, country=country, role=role, created_at=at,
                                  closed=False)
                session.add(account)
            return account
        except IntegrityError:
            raise RuleViolation("nickname_taken", f"the nickname {nickname} is taken", "AC-3") from None

    def update_account(self, key: str, **fields: object) -> None:
        with self._writing() as session:
            session.execute(update(Account).where(Account.nickname_key == key).values(**fields))

    def find_account(self, key: str) -> Account | None:
        with self._reading() as session:
            return session.scalar(select(Account).where(Account.nickname_key == key))

    def connection_opened(self, player_id: str, ip: str, device_id: str | None, at: float) -> int:
        """Who connected from where and when: what the security team matches across accounts (SEC)."""
        table = ConnectionRecord.__table__              # Core, not the ORM: a reconnecting crowd makes thousands
        with self._writing() as session:
            return session.connection().execute(
                insert(table).values(player_id=player_id, ip=ip, device_id=device_id, connected_at=at)
                .returning(table.c.id)).scalar_one()

    def connection_closed(self, record_id: int, at: float) -> None:
        table = ConnectionRecord.__table__
        with self._writing() as session:
            session.connection().execute(update(table).where(table.c.id == record_id).values(disconnected_at=at))

    def connections_of(self, player_id: str) -> list[ConnectionRecord]:
        with self._reading() as session:
            return list(session.scalars(select(ConnectionRecord).where(ConnectionRecord.player_id == player_id)
                                        .order_by(ConnectionRecord.id)))

    def save_chat(self, table_id: str, hand_id: str | None, player_id: str, text: str, at: float,
                  blocked: bool) -> None:
        """Every chat line is kept, shown or not (HR-CHAT-1), and chained in the audit log with its digest."""
        with self._writing() as session:
            line = ChatLine(table_id=table_id, hand_id=hand_id, player_id=player_id, text=text, at=at,
                            blocked=blocked)
            session.add(line)
            session.flush()
            self._chain(session.connection(), [("chat", {"id": line.id, "table": table_id, "player": player_id,
                                                         "hand_id": hand_id, "digest": chat_digest(line)}, at)])

    def chat_of(self, table_id: str) -> list[ChatLine]:
        with self._reading() as session:
            return list(session.scalars(select(ChatLine).where(ChatLine.table_id == table_id)
                                        .order_by(ChatLine.id)))

    # ------------------------------------------------------------------ ledger

    def save_transfers(self, transfers: Iterable[Transfer]) -> None:
        """Write transfers and their effect on the cached balances, all in one transaction."""
        with self._rows() as rows:
            rows.transfers.extend(transfers)

    @staticmethod
    def _save(connection: Connection, transfers: list[Transfer]) -> None:
        # One bulk insert, then the new ids by the transfers' unique numbers: an insert returning ids in order
        # would run once per transfer on SQLite.
        connection.execute(_INSERT_TRANSFERS, [{"number": t.number, "reason": t.reason, "reference": t.reference,
                                                "at": t.at} for t in transfers])
        numbers = [t.number for t in transfers]
        ids: dict[int, int] = {}
        for start in range(0, len(numbers), 500):
            ids.update(connection.execute(_TRANSFER_IDS, {"numbers": numbers[start:start + 500]}).all())
        connection.execute(_INSERT_POSTINGS,
                           [{"transfer_id": ids[t.number], "account": p.account, "amount": p.amount}
                            for t in transfers for p in t.postings])
        deltas: dict[str, int] = {}
        for t in transfers:
            for p in t.postings:
                deltas[p.account] = deltas.get(p.account, 0) + p.amount
        connection.execute(_UPSERT_BALANCES[connection.dialect.name],
                           [{"account": account, "balance": delta} for account, delta in deltas.items()])

    def load_ledger(self, keep: int | None = None) -> Ledger:
        """The ledger as stored: every balance, and the last ``keep`` transfers (None: all).

        Balances are the sums of all stored postings, computed in the database
        and checked against the cached balance rows; ``ValueError`` if anything
        does not add up.
        """
        with self._reading() as session:
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
        with self._reading() as session:
            numbers = select(LedgerTransfer.id).join(LedgerPosting).where(LedgerPosting.account.in_(accounts))
            query = select(LedgerTransfer).where(LedgerTransfer.id.in_(numbers))
            if before is not None:
                query = query.where(LedgerTransfer.number < before)
            rows = session.scalars(query.order_by(LedgerTransfer.number.desc()).limit(limit)).all()
            return [_transfer(row) for row in rows]

    def ledger_check(self) -> bool:
        """In the database itself: postings sum to zero, and every cached balance is its postings' sum."""
        with self._reading() as session:
            total = session.scalar(select(func.coalesce(func.sum(LedgerPosting.amount), 0)))
            sums = dict(session.execute(select(LedgerPosting.account, func.sum(LedgerPosting.amount))
                                        .group_by(LedgerPosting.account)).all())
            cached = {b.account: b.balance for b in session.scalars(select(LedgerBalance))}
        summed = {a: int(v) for a, v in sums.items() if v}
        return total == 0 and summed == {a: v for a, v in cached.items() if v}

    def ledger_problems(self) -> list[str]:
        """Every stored transfer and cached balance judged by :func:`~pokerroom.money.ledger_audit.ledger_problems`."""
        with self._reading() as session:
            cached = {b.account: b.balance for b in session.scalars(select(LedgerBalance))}
            rows = session.execute(select(LedgerTransfer.number, LedgerTransfer.reason, LedgerTransfer.reference,
                                          LedgerTransfer.at, LedgerPosting.account, LedgerPosting.amount)
                                   .join(LedgerPosting).order_by(LedgerTransfer.number, LedgerPosting.id)
                                   .execution_options(yield_per=10_000))
            return ledger_problems(_grouped(rows), cached)

    # ------------------------------------------------------------------ hands

    def hand_started(self, hand_id: str, table_id: str, at: float, start_stacks: Mapping[str, int],
                     tournament: str | None = None) -> None:
        """Store the start-of-hand stacks before the first card (what a restart returns to)."""
        with self._rows() as rows:
            rows.started.append({"hand_id": hand_id, "table_id": table_id, "started_at": at, "tournament": tournament,
                                 "start_stacks": dict(start_stacks), "rake": 0, "void": False})
            rows.players.extend({"hand_id": hand_id, "player_id": p} for p in start_stacks)

    def hand_ended(self, hand_id: str, at: float, end_stacks: Mapping[str, int], rake: int,
                   events: Sequence[dict], settlement: Transfer | None, facts: Any = None,
                   times: Sequence[float] | None = None) -> None:
        """The hand's end, its events, its audit record, its facts for the collusion signals
        (:class:`~pokerroom.security.facts.HandFacts`, or a callable making them) and the transfer settling it:
        one transaction."""
        if callable(facts):                     # worked out here, on the writer's thread, not the reactor's
            try:
                facts = facts()
            except Exception:                   # noqa: BLE001 - the hand is stored all the same
                log.failure("the facts of hand {hand} could not be worked out", hand=hand_id)
                facts = None
        with self._rows() as rows:
            rows.ended.append({"b_hand_id": hand_id, "ended_at": float(at), "end_stacks": dict(end_stacks),
                               "rake": rake, "events": list(events),     # floats: as the digest reads them back
                               "event_times": None if times is None else [float(t) for t in times]})
            if facts is not None:
                rows.facts.append({"hand_id": hand_id, "table_id": facts.table_id, "tournament": facts.tournament,
                                   "at": at, "data": pack_facts(facts)})
            if settlement is not None:
                rows.transfers.append(settlement)

    def last_hand_numbers(self) -> dict[str, int]:
        """Each table's number of its newest stored hand (``<table>-<n>``): a restarted table counts on from it."""
        with self._reading() as session:
            newest = select(func.max(HandRecord.id)).group_by(HandRecord.table_id)
            rows = session.execute(select(HandRecord.table_id, HandRecord.hand_id).where(HandRecord.id.in_(newest)))
            return {table_id: int(hand_id.rsplit("-", 1)[1]) for table_id, hand_id in rows}

    def open_hands(self) -> list[HandRecord]:
        with self._reading() as session:
            return list(session.scalars(select(HandRecord).where(HandRecord.ended_at.is_(None))))

    def hands_of(self, player_id: str, limit: int, before: int | None = None) -> list[HandRecord]:
        """A player's most recent hands (stored before the one numbered ``before``), newest first (their own hand
        history; ``HandRecord.id`` is the page cursor)."""
        with self._reading() as session:
            query = (select(HandRecord).join(HandPlayer, HandPlayer.hand_id == HandRecord.hand_id)
                     .where(HandPlayer.player_id == player_id))
            if before is not None:
                query = query.where(HandRecord.id < before)
            query = query.order_by(HandRecord.id.desc()).limit(limit)
            return list(session.scalars(query))

    # ------------------------------------------------------------------ recovery

    def recover(self, ledger: Ledger, at: float) -> Recovery:
        """Void every hand a crash left open; send every table's escrow back to the wallets (TR-REFUND-1).

        ``ledger`` is the ledger loaded from this store; the returned transfers
        are applied to it and stored.
        """
        voided = []
        with self._writing() as session:
            for hand in session.scalars(select(HandRecord).where(HandRecord.ended_at.is_(None))):
                hand.void = True
                hand.ended_at = at
                hand.end_stacks = dict(hand.start_stacks)
                voided.append(hand)
            session.flush()
            self._chain(session.connection(), [("hand", {"hand_id": h.hand_id, "table": h.table_id, "void": True,
                                                         "digest": hand_digest(h)}, at) for h in voided])
            voided = [h.hand_id for h in voided]
        returned = []
        for account, balance in sorted(ledger.balances.items()):
            escrow = parse(account) if balance > 0 else None
            if escrow is not None and escrow.kind in ESCROWS:                 # cash and casino tables (CR-5)
                returned.append(ledger.move(account, cash(escrow.player), balance, "recovery", account, at))
        if returned:
            self.save_transfers(returned)
        return Recovery(tuple(voided), tuple(returned))

    # ------------------------------------------------------------------ casino

    def save_casino_round(self, table_id: str, number: int, game: str, result: str, void: bool,
                          cards: Sequence[int], bets: Sequence[tuple[str, str, int, int, str]],
                          transfers: Sequence[Transfer], at: float) -> None:
        """A casino round's end: its result and every bet ``(player, market, staked, returned, detail)``, with
        any ``transfers`` given, in one transaction."""
        with self._writing() as session:
            connection = session.connection()
            if transfers:
                self._save(connection, list(transfers))
            connection.execute(insert(CasinoRound.__table__), [{
                "table_id": table_id, "number": number, "game": game, "result": result[:200], "void": void,
                "cards": list(cards), "at": at}])
            if bets:
                connection.execute(insert(CasinoBet.__table__), [
                    {"table_id": table_id, "number": number, "player_id": player, "market": market,
                     "staked": staked, "returned": returned, "detail": detail[:60], "at": at}
                    for player, market, staked, returned, detail in bets])

    def last_casino_round(self, table_id: str) -> int:
        """The table's newest round number the store knows: its newest stored round, or a newer round that took
        stakes (``<table>#<round>``) and never finished -- a crash voided it, and its number stays used (CR-7)."""
        prefix = f"{table_id}#"
        with self._reading() as session:
            stored = int(session.scalar(select(func.coalesce(func.max(CasinoRound.number), 0))
                                        .where(CasinoRound.table_id == table_id)))
            rounds = (r[len(prefix):] for r in session.scalars(select(LedgerTransfer.reference).where(
                LedgerTransfer.reference.startswith(prefix, autoescape=True)).order_by(LedgerTransfer.number.desc())))
            return max(stored, next((int(n) for n in rounds if n.isascii() and n.isdigit()), 0))  # not another id's

    def casino_round(self, table_id: str, number: int) -> CasinoRound | None:
        with self._reading() as session:
            return session.scalar(select(CasinoRound).where(CasinoRound.table_id == table_id,
                                                            CasinoRound.number == number))

    def casino_bets_of(self, player_id: str, limit: int) -> list[CasinoBet]:
        """A player's newest casino bets, newest first (CR-7)."""
        with self._reading() as session:
            return list(session.scalars(select(CasinoBet).where(CasinoBet.player_id == player_id)
                                        .order_by(CasinoBet.id.desc()).limit(limit)))

    # ------------------------------------------------------------------ audit (AC-6, SEC-5)

    def audit(self, kind: str, data: Mapping[str, Any], at: float) -> str:
        """Append an audit record chained to the one before it by SHA-256; its hash.

        Each record's hash covers the previous record's hash, so changing or
        removing any record breaks every hash after it (:meth:`verify_audit`).
        In a :meth:`batch` the record is hashed at once and written with the
        batch's other rows in one statement (a crowd sitting down makes one per
        seat); hands that ended before it are chained first, as they would be.
        """
        rows = getattr(self._batch, "rows", None)
        if rows is None:
            for attempt in range(APPEND_ATTEMPTS):
                try:
                    with self._writing() as session:
                        return self._chain(session.connection(), [(kind, data, at)])
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
            connection.execute(_LOCK_CHAIN[connection.dialect.name])
            head = connection.scalar(_CHAIN_HEAD) or GENESIS
        return head

    def _chain(self, connection: Connection, records: Sequence[tuple[str, Mapping[str, Any], float]]) -> str:
        """Append ``records`` after the newest one, in this transaction; the new head's hash."""
        rows = getattr(self._batch, "rows", None)
        if rows is not None and rows.audits:            # records hashed earlier in the batch go first
            connection.execute(_INSERT_AUDIT, rows.audits)
            rows.audits = []
        last = self._head(connection)
        out = []
        for kind, data, at in records:
            digest = record_hash(last, kind, data, at)
            out.append({"kind": kind, "data": dict(data), "at": at, "previous_hash": last, "hash": digest})
            last = digest
        if out:
            connection.execute(_INSERT_AUDIT, out)
        if getattr(self._batch, "session", None) is not None:
            self._batch.head = last
        return last

    def audit_records(self, kind: str | None = None) -> list[AuditRecord]:
        with self._reading() as session:
            query = select(AuditRecord).order_by(AuditRecord.id)
            if kind is not None:
                query = query.where(AuditRecord.kind == kind)
            return list(session.scalars(query))

    def save_cash_table(self, table_id: str, definition: Mapping[str, Any], by: str, at: float) -> None:
        with self._writing() as session:
            session.add(CashTableRecord(id=table_id, definition=dict(definition), opened_by=by, opened_at=at))

    def cash_table_closed(self, table_id: str, at: float) -> None:
        with self._writing() as session:
            record = session.get(CashTableRecord, table_id)
            if record is not None:
                record.closed_at = at

    def open_cash_tables(self) -> list[CashTableRecord]:
        """The tables directors opened and did not close, oldest first."""
        with self._reading() as session:
            return list(session.scalars(select(CashTableRecord).where(CashTableRecord.closed_at.is_(None))
                                        .order_by(CashTableRecord.opened_at)))

    def cash_table_ids(self) -> set[str]:
        """Every id a director's table ever had: an id is never reused, so its history stays its own."""
        with self._reading() as session:
            return set(session.scalars(select(CashTableRecord.id)))

    def director_activity(self, limit: int, tournament: str | None = None) -> list[AuditRecord]:
        """The newest ``limit`` director commands (of one tournament, if named), newest first."""
        with self._reading() as session:
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
        with self._reading() as session:
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

    # ------------------------------------------------------------------ seating memory (HR-HNR, HR-STAKE-3)

    def record_refusal(self, player_id: str, blind_level: str, at: float) -> None:
        with self._writing() as session:
            session.add(Refusal(player_id=player_id, blind_level=blind_level, at=at))

    def refusals_since(self, since: float) -> list[tuple[str, str, float]]:
        with self._reading() as session:
            rows = session.execute(select(Refusal.player_id, Refusal.blind_level, Refusal.at)
                                   .where(Refusal.at >= since).order_by(Refusal.at))
            return [tuple(r) for r in rows]

    def record_departure(self, player_id: str, game_key: str, departure: Departure) -> None:
        with self._writing() as session:
            session.add(DepartureRecord(player_id=player_id, game_key=game_key, table_id=departure.table_id,
                                        stack=departure.stack, at=departure.at))

    def departures_since(self, since: float) -> list[tuple[str, str, Departure]]:
        return self._seat_moves_since(since, arrived=False, kind=Departure)

    def record_arrival(self, player_id: str, game_key: str, arrival: Arrival) -> None:
        with self._writing() as session:
            session.add(DepartureRecord(player_id=player_id, game_key=game_key, table_id=arrival.table_id,
                                        stack=arrival.stack, at=arrival.at, arrived=True))

    def arrivals_since(self, since: float) -> list[tuple[str, str, Arrival]]:
        """Sits since ``since``: each settles the earlier leaves it matched (HR-STAKE-3)."""
        return self._seat_moves_since(since, arrived=True, kind=Arrival)

    def _seat_moves_since(self, since: float, *, arrived: bool, kind: type) -> list[tuple[str, str, Any]]:
        """Leaves (``arrived`` False) or sits since ``since``, oldest first, as ``kind`` records."""
        with self._reading() as session:
            rows = session.scalars(select(DepartureRecord).where(DepartureRecord.at >= since,
                                                                 DepartureRecord.arrived.is_(arrived))
                                   .order_by(DepartureRecord.at))
            return [(r.player_id, r.game_key, kind(r.table_id, r.stack, r.at)) for r in rows]


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
