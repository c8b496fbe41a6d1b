"""What the security team reads and writes (SEC-3, SEC-4): searches, cases, mutes, restrictions, renames.

``store.security``, a part of :class:`~pokerroom.store.room_store.RoomStore`:
every method is one transaction (or one step of a batch), run off the reactor
thread like the rest of the store. Nothing here edits play history: a case, a mute or a rename
is a new row, and the shell chains each action in the audit log.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgpack
from sqlalchemy import ColumnElement, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from pokerroom.errors import RuleViolation
from pokerroom.money.ledger import Transfer
from pokerroom.security.facts import HandFacts
from pokerroom.store.models import (
    Account,
    AuditRecord,
    Case,
    CaseHand,
    CaseNote,
    ChatLine,
    ConnectionRecord,
    HandFactsRecord,
    HandPlayer,
    HandRecord,
    LedgerPosting,
    LedgerTransfer,
    Mute,
    NicknameReset,
    Restriction,
    TournamentRecord,
)
from pokerroom.store.transactions import Transactions, insert_transfers


def _tournament_like(text: str) -> ColumnElement[bool]:
    """A hand of a tournament whose id or name holds ``text``, in any case (a reviewer types part of either)."""
    wanted = text.strip().lower()
    named = select(TournamentRecord.id).where(func.lower(TournamentRecord.name).contains(wanted, autoescape=True))
    return or_(func.lower(HandRecord.tournament).contains(wanted, autoescape=True), HandRecord.tournament.in_(named))


def pack_facts(facts: HandFacts) -> bytes:
    """A hand's facts as stored in ``hand_facts.data``: one msgpack array, a few hundred bytes."""
    return msgpack.packb(facts.row())


def unpack_facts(data: bytes) -> HandFacts:
    return HandFacts.from_row(msgpack.unpackb(data, use_list=False))


class SecurityRecords:
    """What the security team searches and decides on: hands, chat, cases, mutes, restrictions, renames."""

    def __init__(self, core: Transactions) -> None:
        self.core = core

    # ------------------------------------------------------------------ search (SEC-4)

    def search_hands(self, player: str | None = None, table: str | None = None, tournament: str | None = None,
                     since: float | None = None, until: float | None = None,
                     limit: int = 50) -> list[tuple[HandRecord, list[str]]]:
        """Ended hands, newest first, each with who played it; a hand in progress is never found (SEC-2).
        ``tournament`` matches part of a tournament's id or name, whatever the case."""
        with self.core.reading() as session:
            query = select(HandRecord).where(HandRecord.ended_at.is_not(None))
            if player is not None:
                query = query.where(HandRecord.hand_id.in_(select(HandPlayer.hand_id)
                                                           .where(HandPlayer.player_id == player)))
            if table is not None:
                query = query.where(HandRecord.table_id == table)
            if tournament is not None:                  # part of its id or of its name, in any case
                query = query.where(_tournament_like(tournament))
            if since is not None:
                query = query.where(HandRecord.started_at >= since)
            if until is not None:
                query = query.where(HandRecord.started_at < until)
            hands = list(session.scalars(query.order_by(HandRecord.id.desc()).limit(limit)))
            return [(h, list(h.start_stacks)) for h in hands]

    def hand(self, hand_id: str) -> HandRecord | None:
        with self.core.reading() as session:
            return session.scalar(select(HandRecord).where(HandRecord.hand_id == hand_id))

    def hands_by_id(self, hand_ids: list[str]) -> list[HandRecord]:
        with self.core.reading() as session:
            return list(session.scalars(select(HandRecord).where(HandRecord.hand_id.in_(hand_ids))
                                        .order_by(HandRecord.id)))

    def search_chat(self, player: str | None = None, table: str | None = None, text: str | None = None,
                    since: float | None = None, until: float | None = None, limit: int = 100,
                    hand_id: str | None = None, players: list[str] | None = None) -> list[ChatLine]:
        """Chat lines (blocked ones too: HR-CHAT-1), newest first."""
        with self.core.reading() as session:
            query = select(ChatLine)
            if player is not None:
                query = query.where(ChatLine.player_id == player)
            if players is not None:
                query = query.where(ChatLine.player_id.in_(players))
            if table is not None:
                query = query.where(ChatLine.table_id == table)
            if hand_id is not None:
                query = query.where(ChatLine.hand_id == hand_id)
            if text is not None:
                query = query.where(ChatLine.text.contains(text, autoescape=True))
            if since is not None:
                query = query.where(ChatLine.at >= since)
            if until is not None:
                query = query.where(ChatLine.at < until)
            return list(session.scalars(query.order_by(ChatLine.id.desc()).limit(limit)))

    def hands_together(self, a: str, b: str, limit: int) -> list[str]:
        """The newest ``limit`` ended hands both played."""
        with self.core.reading() as session:
            both = (select(HandPlayer.hand_id).where(HandPlayer.player_id == a)
                    .intersect(select(HandPlayer.hand_id).where(HandPlayer.player_id == b))).subquery()
            return list(session.scalars(select(HandRecord.hand_id).where(HandRecord.hand_id.in_(select(both)),
                                                                         HandRecord.ended_at.is_not(None))
                                        .order_by(HandRecord.id.desc()).limit(limit)))

    def iter_hand_facts(self, since: float | None = None, until: float | None = None) -> Iterator[bytes]:
        """Every stored hand's packed facts in the period (:func:`unpack_facts`), oldest first, streamed."""
        with self.core.reading() as session:
            query = select(HandFactsRecord.data)
            if since is not None:
                query = query.where(HandFactsRecord.at >= since)
            if until is not None:
                query = query.where(HandFactsRecord.at < until)
            yield from session.scalars(query.order_by(HandFactsRecord.id).execution_options(yield_per=5000))

    def identities(self, since: float | None = None) -> dict[str, set[str]]:
        """Each player's IP addresses and device ids (``ip:…``, ``device:…``) since ``since``."""
        with self.core.reading() as session:
            query = select(ConnectionRecord.player_id, ConnectionRecord.ip, ConnectionRecord.device_id)
            if since is not None:
                query = query.where(ConnectionRecord.connected_at >= since)
            out: dict[str, set[str]] = {}
            for player, ip, device in session.execute(query):
                seen = out.setdefault(player, set())
                if ip:
                    seen.add(f"ip:{ip}")
                if device:
                    seen.add(f"device:{device}")
            return out

    def recent_audit(self, limit: int, kind: str | None = None, player: str | None = None) -> list[AuditRecord]:
        """The newest ``limit`` audit records (of one kind; naming one player anywhere in their data)."""
        with self.core.reading() as session:
            query = select(AuditRecord).order_by(AuditRecord.id.desc()).execution_options(yield_per=1000)
            if kind is not None:
                query = query.where(AuditRecord.kind == kind)
            found = []
            for record in session.scalars(query):
                if player is None or player in record.data.values() or player in record.data.get("players", ()):
                    found.append(record)
                    if len(found) == limit:
                        break
            return found

    # ------------------------------------------------------------------ cases (SEC-4)

    def open_case(self, title: str, players: list[str], by: str, at: float) -> int:
        with self.core.writing() as session:
            case = Case(title=title, players=list(players), state="open", opened_by=by, opened_at=at)
            session.add(case)
            session.flush()
            return case.id

    def cases(self, state: str | None = None) -> list[Case]:
        with self.core.reading() as session:
            query = select(Case).order_by(Case.id.desc())
            if state is not None:
                query = query.where(Case.state == state)
            return list(session.scalars(query))

    def case(self, case_id: int) -> tuple[Case, list[str], list[CaseNote]] | None:
        with self.core.reading() as session:
            case = session.get(Case, case_id)
            if case is None:
                return None
            hands = list(session.scalars(select(CaseHand.hand_id).where(CaseHand.case_id == case_id)
                                         .order_by(CaseHand.id)))
            notes = list(session.scalars(select(CaseNote).where(CaseNote.case_id == case_id).order_by(CaseNote.id)))
            return case, hands, notes

    def _open_case(self, session: Session, case_id: int) -> Case:
        case = session.get(Case, case_id)
        if case is None:
            raise RuleViolation("no_such_case", f"there is no case {case_id}", "SEC-4")
        if case.state != "open":
            raise RuleViolation("case_decided", f"case {case_id} is decided: open a new one", "SEC-4")
        return case

    def note_case(self, case_id: int, by: str, text: str, at: float) -> None:
        with self.core.writing() as session:
            self._open_case(session, case_id)
            session.add(CaseNote(case_id=case_id, by=by, text=text, at=at))

    def attach_hand(self, case_id: int, hand_id: str, by: str, at: float) -> None:
        with self.core.writing() as session:
            self._open_case(session, case_id)
            hand = session.scalar(select(HandRecord).where(HandRecord.hand_id == hand_id))
            if hand is None:
                raise RuleViolation("no_such_hand", f"there is no hand {hand_id}", "SEC-4")
            if hand.ended_at is None:
                raise RuleViolation("hand_in_progress", f"hand {hand_id} is still being played", "SEC-2")
            if session.scalar(select(CaseHand.id).where(CaseHand.case_id == case_id, CaseHand.hand_id == hand_id)):
                return
            session.add(CaseHand(case_id=case_id, hand_id=hand_id, by=by, at=at))

    def decide_case(self, case_id: int, decision: str, by: str, at: float) -> None:
        with self.core.writing() as session:
            case = self._open_case(session, case_id)
            case.state, case.decision, case.decided_by, case.decided_at = "decided", decision, by, at

    # ------------------------------------------------------------------ moderation and accounts

    def add_mute(self, player: str, table: str | None, until: float | None, reason: str, by: str,
                 at: float) -> None:
        with self.core.writing() as session:
            session.add(Mute(player_id=player, table_id=table, until=until, reason=reason, by=by, at=at))

    def lift_mutes(self, player: str, at: float) -> None:
        with self.core.writing() as session:
            session.execute(update(Mute).where(Mute.player_id == player, Mute.lifted_at.is_(None))
                            .values(lifted_at=at))

    def active_mutes(self, now: float, player: str | None = None) -> list[Mute]:
        with self.core.reading() as session:
            query = select(Mute).where(Mute.lifted_at.is_(None), or_(Mute.until.is_(None), Mute.until > now))
            if player is not None:
                query = query.where(Mute.player_id == player)
            return list(session.scalars(query.order_by(Mute.id)))

    def add_restriction(self, a: str, b: str, reason: str, by: str, at: float) -> None:
        with self.core.writing() as session:
            session.add(Restriction(a=a, b=b, reason=reason, by=by, at=at))

    def restrictions(self, player: str | None = None) -> list[Restriction]:
        with self.core.reading() as session:
            query = select(Restriction)
            if player is not None:
                query = query.where(or_(Restriction.a == player, Restriction.b == player))
            return list(session.scalars(query.order_by(Restriction.id)))

    def rename_account(self, old: str, nickname: str, key: str, reason: str, by: str, at: float,
                       transfers: list[Transfer]) -> None:
        """AC-3: the account is known as ``nickname`` from now on, with its wallet (``transfers``), its mutes and
        its restrictions, in one transaction; the old name stays in every record of play."""
        try:
            with self.core.writing() as session:
                account = session.scalar(select(Account).where(Account.nickname == old))
                session.add(NicknameReset(old=old, new=nickname, reason=reason, by=by, at=at))
                account.nickname, account.nickname_key = nickname, key
                session.execute(update(Mute).where(Mute.player_id == old).values(player_id=nickname))
                session.execute(update(Restriction).where(Restriction.a == old).values(a=nickname))
                session.execute(update(Restriction).where(Restriction.b == old).values(b=nickname))
                session.flush()
                if transfers:
                    insert_transfers(session.connection(), transfers)
        except IntegrityError:
            raise RuleViolation("nickname_taken", f"the nickname {nickname} is taken", "AC-3") from None

    def aliases_of(self, nickname: str) -> list[str]:
        """The names an account had before its resets, newest first."""
        with self.core.reading() as session:
            out, name = [], nickname
            while (old := session.scalar(select(NicknameReset.old).where(NicknameReset.new == name)
                                         .order_by(NicknameReset.id.desc()).limit(1))) is not None:
                if old in out:
                    break
                out.append(old)
                name = old
            return out

    def voided_hands(self, hand_ids: list[str], wallets: list[str]) -> set[str]:
        """Which of ``hand_ids`` already had winnings voided out of any of ``wallets`` -- one account's, under
        every name it had (AC-7: once per player and hand)."""
        with self.core.reading() as session:
            return set(session.scalars(select(LedgerTransfer.reference).join(LedgerPosting).where(
                LedgerTransfer.reason == "void", LedgerTransfer.reference.in_(hand_ids),
                LedgerPosting.account.in_(wallets), LedgerPosting.amount < 0)))

    def current_names(self, names: list[str]) -> dict[str, str]:
        """Each name as its account is called now, following nickname resets (AC-3); unknown names as given."""
        with self.core.reading() as session:
            out = {}
            for name in names:
                now, seen = name, {name}
                while (new := session.scalar(select(NicknameReset.new).where(NicknameReset.old == now)
                                             .order_by(NicknameReset.id.desc()).limit(1))) is not None \
                        and new not in seen:
                    seen.add(new)
                    now = new
                out[name] = now
            return out

    def account_view(self, key: str) -> dict[str, Any] | None:
        with self.core.reading() as session:
            account = session.scalar(select(Account).where(Account.nickname_key == key))
            if account is None:
                return None
            return {"nickname": account.nickname, "role": account.role, "verified_name": account.verified_name,
                    "show_real_name": account.show_real_name,
                    "status": "closed" if account.closed else "frozen" if account.frozen else "active"}

    def frozen_accounts(self) -> set[str]:
        with self.core.reading() as session:
            return set(session.scalars(select(Account.nickname).where(Account.frozen.is_(True))))
