"""Casino rounds as stored (``store.casino``): each round's result and bets, and the round numbers used (CR-7)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import func, insert, select

from pokerroom.money.ledger import Transfer
from pokerroom.store.models import CasinoBet, CasinoRound, LedgerTransfer
from pokerroom.store.transactions import Transactions, insert_transfers


class CasinoRecords:
    """The casino tables' rounds: what a player's bet history and a restarted casino table read back."""

    def __init__(self, core: Transactions) -> None:
        self.core = core

    def save_casino_round(self, table_id: str, number: int, game: str, result: str, void: bool,
                          cards: Sequence[int], bets: Sequence[tuple[str, str, int, int, str]],
                          transfers: Sequence[Transfer], at: float) -> None:
        """A casino round's end: its result and every bet ``(player, market, staked, returned, detail)``, with
        any ``transfers`` given, in one transaction."""
        with self.core.writing() as session:
            connection = session.connection()
            if transfers:
                insert_transfers(connection, list(transfers))
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
        with self.core.reading() as session:
            stored = int(session.scalar(select(func.coalesce(func.max(CasinoRound.number), 0))
                                        .where(CasinoRound.table_id == table_id)))
            rounds = (r[len(prefix):] for r in session.scalars(select(LedgerTransfer.reference).where(
                LedgerTransfer.reference.startswith(prefix, autoescape=True)).order_by(LedgerTransfer.number.desc())))
            return max(stored, next((int(n) for n in rounds if n.isascii() and n.isdigit()), 0))  # not another id's

    def casino_round(self, table_id: str, number: int) -> CasinoRound | None:
        with self.core.reading() as session:
            return session.scalar(select(CasinoRound).where(CasinoRound.table_id == table_id,
                                                            CasinoRound.number == number))

    def casino_bets_of(self, player_id: str, limit: int) -> list[CasinoBet]:
        """A player's newest casino bets, newest first (CR-7)."""
        with self.core.reading() as session:
            return list(session.scalars(select(CasinoBet).where(CasinoBet.player_id == player_id)
                                        .order_by(CasinoBet.id.desc()).limit(limit)))
