"""Casino tables from ``[[casino]]`` in ``config/room.toml``; a mistake names the table and key."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pokerroom.casino import baccarat, roulette
from pokerroom.casino import bet_on_baccarat as bob
from pokerroom.casino import infinite_blackjack as ib
from pokerroom.casino.bet_on_baccarat_table import BetOnBaccaratTable
from pokerroom.casino.betting import Limits
from pokerroom.casino.blackjack import BlackjackTable
from pokerroom.casino.infinite_blackjack import InfiniteBlackjackTable
from pokerroom.casino.punto_banco import BaccaratTable
from pokerroom.casino.roulette_table import RouletteTable
from pokerroom.casino.table import CasinoRules, CasinoTable

GAMES: dict[str, type[CasinoTable]] = {cls.game: cls for cls in (
    BaccaratTable, BetOnBaccaratTable, BlackjackTable, InfiniteBlackjackTable, RouletteTable)}
DECKS = {"baccarat": baccarat.DECKS, "bet_on_baccarat": bob.DECKS, "blackjack": 8, "infinite_blackjack": 8}  # BJ-2
BEHIND_CUT = {"baccarat": baccarat.BEHIND_CUT, "bet_on_baccarat": 0,       # BA-1; BOB-4 replaces the shoe instead
              "blackjack": 104, "infinite_blackjack": 104}                 # two decks behind the cut card
MARKETS = {"baccarat": baccarat.MARKETS, "bet_on_baccarat": bob.MARKETS, "blackjack": ("main",),
           "infinite_blackjack": ib.MARKETS, "roulette": roulette.KINDS}    # what `limits` may name
_KEYS = {"id", "name", "game", "currency", "min_bet", "max_bet", "limits", "decks", "behind_cut", "betting_seconds",
         "decision_seconds", "pause_seconds", "seats", "margin_percent", "lose_all_on_dealer_blackjack",
         "double_after_split"}


def casino_rules(entry: dict[str, Any]) -> CasinoRules:
    unknown = set(entry) - _KEYS
    if unknown:
        raise ValueError(f"unknown key {sorted(unknown)[0]!r}")
    game = entry["game"]
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}: one of {', '.join(sorted(GAMES))}")
    limits = {market: Limits(*pair) for market, pair in entry.get("limits", {}).items()}
    for market in limits:           # a misspelt market would silently leave it at the table's limits
        if market not in MARKETS[game]:
            raise ValueError(f"limits for unknown market {market!r}: {game} has {', '.join(MARKETS[game])}")
    if int(entry.get("decks", 1)) < 1:
        raise ValueError(f"decks must be at least 1, not {entry['decks']}")
    if not 0 <= Fraction(entry.get("margin_percent", 5)) < 100:
        raise ValueError(f"margin_percent must be at least 0 and below 100, not {entry['margin_percent']}")
    return CasinoRules(
        table_id=entry["id"], name=entry.get("name", entry["id"]), game=game,
        limits=Limits(int(entry["min_bet"]), int(entry["max_bet"])), market_limits=limits,
        currency=entry.get("currency", "EUR"), decks=int(entry.get("decks", DECKS.get(game, 1))),
        behind_cut=int(entry.get("behind_cut", BEHIND_CUT.get(game, 0))),
        betting_seconds=float(entry.get("betting_seconds", 15)),
        decision_seconds=float(entry.get("decision_seconds", 10)),
        pause_seconds=float(entry.get("pause_seconds", 4)), seats=int(entry.get("seats", 7)),
        margin=Fraction(entry.get("margin_percent", 5)) / 100,
        lose_all_on_dealer_blackjack=bool(entry.get("lose_all_on_dealer_blackjack", True)),
        double_after_split=bool(entry.get("double_after_split", False)))


def build_table(rules: CasinoRules, **kwargs: Any) -> CasinoTable:
    return GAMES[rules.game](rules, **kwargs)


def tables_from_config(data: dict[str, Any]) -> list[CasinoTable]:
    tables, seen = [], set()
    for entry in data.get("casino", []):
        table_id = entry.get("id", "?")
        try:
            rules = casino_rules(entry)
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"casino table {table_id!r} in the room config: {e}") from e
        if rules.table_id in seen:
            raise ValueError(f"casino table id {rules.table_id!r} appears twice in the room config")
        seen.add(rules.table_id)
        tables.append(build_table(rules))
    return tables
