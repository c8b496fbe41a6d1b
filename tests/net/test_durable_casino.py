"""Durable before visible, casino (CR-4, CR-7): a real server killed with SIGKILL the moment a player is shown a
roulette payout or a blackjack settlement, and started again on the same data -- the round stands as shown (its
record and its settling transfer were stored together, before the payout was sent), the ledger and the audit chain
verify, and the table numbers its next round on from it. Each runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest

from pokerroom.money.accounts import cash, casino_escrow
from tests.net.crash_room import DATABASES, CrashRoom, crash_room
from tests.net.server_process import Player, room_config
from tests.support.socket_play import PASSWORD, sign_up

RO, BJ = "roulette-altair", "blackjack-vega"
START = 100_000
CASINO = f"""
[[casino]]
id = "{RO}"
name = "Altair Roulette"
game = "roulette"
min_bet = 100
max_bet = 100000
betting_seconds = 0.5
pause_seconds = 0.1
currency = "USD"

[[casino]]
id = "{BJ}"
name = "Vega Blackjack"
game = "blackjack"
min_bet = 500
max_bet = 250000
seats = 7
betting_seconds = 0.5
decision_seconds = 5
pause_seconds = 0.1
currency = "USD"
"""


@pytest.fixture(params=DATABASES)
def room(request, tmp_path):
    with crash_room(tmp_path, request.param, room_config() + CASINO) as crash:
        yield crash


def _events(push: dict, kind: str) -> list[dict]:
    return [e for e in push.get("events", ()) if e["type"] == kind] if push.get("type") == "casino_events" else []


def _gambler(room: CrashRoom, table: str, market: str, amount: int) -> Player:
    """A player at ``table`` who bets ``amount`` on ``market`` in every round until one takes it."""
    player = sign_up(room.start().url, "gus")[0]
    joined = player.request("casino_join", table=table, **({"seat": 1} if table == BJ else {}))
    assert joined["ok"], joined
    placed: set[int] = set()

    def bet(number: int) -> None:
        if not placed and player.request("casino_bet", table=table, market=market, amount=amount)["ok"]:
            placed.add(number)

    bet(joined["round"])
    player.bet = bet                            # tried again at each round's opening, until one takes it
    player.placed = placed
    return player


def _play(name: str, player: Player, push: dict) -> None:
    for opened in _events(push, "round_opened"):
        player.bet(opened["round"])
    for needed in _events(push, "decision_needed"):
        if needed["who"] in ("", "gus") and "stand" in needed["moves"]:
            player.request("casino_decide", table=needed["table"], move="stand", hand=needed["hand"],
                           decision=needed["decision"])


def _kill_on_payout(room: CrashRoom, table: str, market: str, amount: int) -> tuple[int, list[dict]]:
    """The round and the payouts the player was shown when the room was killed."""
    player = _gambler(room, table, market, amount)
    _, push = room.kill_when({"gus": player}, lambda name, push: bool(_events(push, "payout")), _play)
    (number,) = {p["round"] for p in _events(push, "payout")}
    return number, _events(push, "payout")


def _stands_as_shown(room: CrashRoom, table: str, number: int, payouts: list[dict]) -> None:
    room.start()
    store = room.store()
    stored = store.casino.casino_round(table, number)
    assert stored is not None and not stored.void                               # the round the player saw
    bets = [b for b in store.casino.casino_bets_of("gus", 10) if b.table_id == table and b.number == number]
    assert sorted((b.market, b.staked, b.returned) for b in bets) == \
        sorted((p["market"], p["staked"], p["returned"]) for p in payouts)
    ledger = store.ledger.load_ledger()
    assert ledger.balance(casino_escrow(table, "gus")) == 0
    assert ledger.balance(cash("gus")) == START + sum(p["returned"] - p["staked"] for p in payouts)
    (settled,) = [t for t in store.ledger.transfers_touching([casino_escrow(table, "gus")], 20)
                  if t.reason == "casino round"]
    assert settled.reference == f"{table}#{number}"                             # settled with the round, once
    room.operator_checks()
    again = Player(room.server.url)
    assert again.request("login", nickname="gus", password=PASSWORD)["ok"]
    rejoined = again.request("casino_join", table=table, **({"seat": 1} if table == BJ else {}))
    assert rejoined["ok"] and rejoined["round"] > number                         # CR-7: never the same number


def test_CR_4_CR_7_a_roulette_payout_shown_stands_when_the_room_is_killed_that_moment(room):
    number, payouts = _kill_on_payout(room, RO, "red", 1_000)
    _stands_as_shown(room, RO, number, payouts)


def test_CR_4_CR_7_a_blackjack_settlement_shown_stands_when_the_room_is_killed_that_moment(room):
    number, payouts = _kill_on_payout(room, BJ, "main", 1_000)
    _stands_as_shown(room, BJ, number, payouts)
