"""What the room keeps of its tables besides hands (``store.tables``): the tables directors opened, every chat
line (HR-CHAT-1, chained in the audit log) and the seating memory (HR-HNR, HR-STAKE-3).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import delete, select

from pokerroom.store.models import CashTableRecord, ChatLine, DepartureRecord, Refusal, TableSeat
from pokerroom.store.transactions import Transactions, chat_digest
from pokerroom.table.seating_history import Arrival, Departure


class TableRecords:
    """The tables' own memory: definitions, chat and who left or sat where -- what a restarted room reads."""

    def __init__(self, core: Transactions) -> None:
        self.core = core

    def save_cash_table(self, table_id: str, definition: Mapping[str, Any], by: str, at: float) -> None:
        with self.core.writing() as session:
            session.add(CashTableRecord(id=table_id, definition=dict(definition), opened_by=by, opened_at=at))

    def cash_table_closed(self, table_id: str, at: float) -> None:
        with self.core.writing() as session:
            record = session.get(CashTableRecord, table_id)
            if record is not None:
                record.closed_at = at

    def open_cash_tables(self) -> list[CashTableRecord]:
        """The tables directors opened and did not close, oldest first."""
        with self.core.reading() as session:
            return list(session.scalars(select(CashTableRecord).where(CashTableRecord.closed_at.is_(None))
                                        .order_by(CashTableRecord.opened_at)))

    def cash_table_ids(self) -> set[str]:
        """Every id a director's table ever had: an id is never reused, so its history stays its own."""
        with self.core.reading() as session:
            return set(session.scalars(select(CashTableRecord.id)))

    def seat_changed(self, table_id: str, player_id: str, seat: int | None, record: Mapping[str, Any],
                     at: float) -> None:
        """A player sat down at ``seat`` (or sat again on a takeover), or left (``seat`` None): the seat's audit
        record (SEC-1) and the table's seat row it keeps (what a takeover reads), in one transaction -- a takeover
        never finds the one without the other."""
        row = (self.seat_taken, (table_id, player_id, seat)) if seat is not None else (self.seat_left,
                                                                                       (table_id, player_id))
        self.core.together([(self.core.audit, ("seat", record, at)), row])

    def seat_taken(self, table_id: str, player_id: str, seat: int) -> None:
        """A player sat down (or sat again on a takeover): the table's seat row."""
        with self.core.writing() as session:
            session.execute(delete(TableSeat).where(TableSeat.table_id == table_id, TableSeat.player_id == player_id))
            session.add(TableSeat(table_id=table_id, player_id=player_id, seat=seat))

    def seat_left(self, table_id: str, player_id: str) -> None:
        with self.core.writing() as session:
            session.execute(delete(TableSeat).where(TableSeat.table_id == table_id, TableSeat.player_id == player_id))

    def seats_at(self, table_id: str) -> dict[str, int]:
        """Who sits where at the table now, as its seat records last said: a row a seat, however old the table."""
        with self.core.reading() as session:
            rows = session.execute(select(TableSeat.player_id, TableSeat.seat).where(TableSeat.table_id == table_id))
            return {player: seat for player, seat in rows}

    def save_chat(self, table_id: str, hand_id: str | None, player_id: str, text: str, at: float,
                  blocked: bool) -> None:
        """Every chat line is kept, shown or not (HR-CHAT-1), and chained in the audit log with its digest."""
        with self.core.writing() as session:
            line = ChatLine(table_id=table_id, hand_id=hand_id, player_id=player_id, text=text, at=at,
                            blocked=blocked)
            session.add(line)
            session.flush()
            self.core.chain(session.connection(), [("chat", {"id": line.id, "table": table_id, "player": player_id,
                                                             "hand_id": hand_id, "digest": chat_digest(line)}, at)])

    def chat_of(self, table_id: str) -> list[ChatLine]:
        with self.core.reading() as session:
            return list(session.scalars(select(ChatLine).where(ChatLine.table_id == table_id)
                                        .order_by(ChatLine.id)))

    def record_refusal(self, player_id: str, blind_level: str, at: float) -> None:
        with self.core.writing() as session:
            session.add(Refusal(player_id=player_id, blind_level=blind_level, at=at))

    def refusals_since(self, since: float) -> list[tuple[str, str, float]]:
        with self.core.reading() as session:
            rows = session.execute(select(Refusal.player_id, Refusal.blind_level, Refusal.at)
                                   .where(Refusal.at >= since).order_by(Refusal.at))
            return [tuple(r) for r in rows]

    def record_departure(self, player_id: str, game_key: str, departure: Departure) -> None:
        with self.core.writing() as session:
            session.add(DepartureRecord(player_id=player_id, game_key=game_key, table_id=departure.table_id,
                                        stack=departure.stack, at=departure.at))

    def departures_since(self, since: float) -> list[tuple[str, str, Departure]]:
        return self._seat_moves_since(since, arrived=False, kind=Departure)

    def record_arrival(self, player_id: str, game_key: str, arrival: Arrival) -> None:
        with self.core.writing() as session:
            session.add(DepartureRecord(player_id=player_id, game_key=game_key, table_id=arrival.table_id,
                                        stack=arrival.stack, at=arrival.at, arrived=True))

    def arrivals_since(self, since: float) -> list[tuple[str, str, Arrival]]:
        """Sits since ``since``: each settles the earlier leaves it matched (HR-STAKE-3)."""
        return self._seat_moves_since(since, arrived=True, kind=Arrival)

    def _seat_moves_since(self, since: float, *, arrived: bool, kind: type) -> list[tuple[str, str, Any]]:
        """Leaves (``arrived`` False) or sits since ``since``, oldest first, as ``kind`` records."""
        with self.core.reading() as session:
            rows = session.scalars(select(DepartureRecord).where(DepartureRecord.at >= since,
                                                                 DepartureRecord.arrived.is_(arrived))
                                   .order_by(DepartureRecord.at))
            return [(r.player_id, r.game_key, kind(r.table_id, r.stack, r.at)) for r in rows]
