"""Hands as stored (``store.hands``): each hand's start and end, a player's history, and a restart's recovery.

A hand's start is stored before its first card and its end with the transfer
settling it, both as rows the store's writer gathers for bulk statements
(:meth:`~pokerroom.store.transactions.Transactions.rows`). Crash recovery
(TR-REFUND-1) follows from the ledger settling a hand only at its end: after a
crash, every hand without an end is marked void, and since no transfer ever
moved its chips, each player's table escrow still holds their start-of-hand
stack. :meth:`HandRecords.recover` voids those hands and returns each affected
player's escrow to their wallet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from twisted.logger import Logger

from pokerroom.money.accounts import ESCROWS, cash, parse
from pokerroom.money.ledger import Ledger, Transfer
from pokerroom.store.models import HandPlayer, HandRecord
from pokerroom.store.security_records import pack_facts
from pokerroom.store.transactions import Transactions, hand_digest

log = Logger()


@dataclass(frozen=True, slots=True)
class Recovery:
    """What a restart found: hands voided and chips returned from tables to wallets."""

    voided_hands: tuple[str, ...]
    returned: tuple[Transfer, ...]


class HandRecords:
    """The hands the tables played, apart from the rest of the store: what a hand history and a restart read."""

    def __init__(self, core: Transactions) -> None:
        self.core = core

    def hand_started(self, hand_id: str, table_id: str, at: float, start_stacks: Mapping[str, int],
                     tournament: str | None = None) -> None:
        """Store the start-of-hand stacks before the first card (what a restart returns to)."""
        with self.core.rows() as rows:
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
        with self.core.rows() as rows:
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
        with self.core.reading() as session:
            newest = select(func.max(HandRecord.id)).group_by(HandRecord.table_id)
            rows = session.execute(select(HandRecord.table_id, HandRecord.hand_id).where(HandRecord.id.in_(newest)))
            return {table_id: int(hand_id.rsplit("-", 1)[1]) for table_id, hand_id in rows}

    def open_hands(self) -> list[HandRecord]:
        with self.core.reading() as session:
            return list(session.scalars(select(HandRecord).where(HandRecord.ended_at.is_(None))))

    def hands_of(self, player_id: str, limit: int, before: int | None = None) -> list[HandRecord]:
        """A player's most recent hands (stored before the one numbered ``before``), newest first (their own hand
        history; ``HandRecord.id`` is the page cursor)."""
        with self.core.reading() as session:
            query = (select(HandRecord).join(HandPlayer, HandPlayer.hand_id == HandRecord.hand_id)
                     .where(HandPlayer.player_id == player_id))
            if before is not None:
                query = query.where(HandRecord.id < before)
            query = query.order_by(HandRecord.id.desc()).limit(limit)
            return list(session.scalars(query))

    def void_open_hands(self, table_id: str | None, at: float) -> list[str]:
        """Mark void every hand left open (at one table, or at all: None), each stack back to its start
        (TR-REFUND-1), in the audit chain: a restart's recovery, or a process taking a dead one's table over."""
        query = select(HandRecord).where(HandRecord.ended_at.is_(None))
        if table_id is not None:
            query = query.where(HandRecord.table_id == table_id)
        voided = []
        with self.core.writing() as session:
            for hand in session.scalars(query):
                hand.void = True
                hand.ended_at = at
                hand.end_stacks = dict(hand.start_stacks)
                voided.append(hand)
            session.flush()
            self.core.chain(session.connection(), [("hand", {"hand_id": h.hand_id, "table": h.table_id, "void": True,
                                                             "digest": hand_digest(h)}, at) for h in voided])
            return [h.hand_id for h in voided]

    def last_hand_number(self, table_id: str) -> int:
        """A table's newest stored hand number (0: none)."""
        with self.core.reading() as session:
            hand_id = session.scalar(select(HandRecord.hand_id).where(HandRecord.table_id == table_id)
                                     .order_by(HandRecord.id.desc()).limit(1))
        return int(hand_id.rsplit("-", 1)[1]) if hand_id else 0

    def recover(self, ledger: Ledger, at: float) -> Recovery:
        """Void every hand a crash left open; send every table's escrow back to the wallets (TR-REFUND-1).

        ``ledger`` is the ledger loaded from this store; the returned transfers
        are applied to it and stored.
        """
        voided = self.void_open_hands(None, at)
        returned = []
        for account, balance in sorted(ledger.balances.items()):
            escrow = parse(account) if balance > 0 else None
            if escrow is not None and escrow.kind in ESCROWS:                 # cash and casino tables (CR-5)
                returned.append(ledger.move(account, cash(escrow.player), balance, "recovery", account, at))
        if returned:
            with self.core.rows() as rows:
                rows.transfers.extend(returned)
        return Recovery(tuple(voided), tuple(returned))
