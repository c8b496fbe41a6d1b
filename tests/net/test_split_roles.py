"""The process line is real (issue 21): a room run as two processes -- ``pokerroom serve --role tables`` (the table
host, the wallet, the hall, the casino floor) and ``--role gateway`` (the clients' connections and every request
service) -- on one PostgreSQL database and one NATS room. Two players sign up through the gateway, sit at a cash
table the other process runs and play hands, and one bets on a roulette round of the other process's casino
floor; afterwards every chip is back in a wallet, exactly, and ``pokerroom ledger check`` passes on the shared
database. Skips without NATS or PostgreSQL (fails under CI)."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.request import urlopen

from tests.net.server_process import FAST_ROOM, Player, Server
from tests.support.databases import postgres_database
from tests.support.nats_buses import NATS, require_nats
from tests.support.socket_play import event_type, play, sign_up

BUY_IN = 1_000
WELCOME = 100_000                       # the demo rules' welcome balance
ROULETTE = "roulette-split"
RED = frozenset({1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36})
CASINO = f"""
[[casino]]
id = "{ROULETTE}"
name = "Split Roulette"
game = "roulette"
min_bet = 100
max_bet = 10000
betting_seconds = 4
decision_seconds = 10
pause_seconds = 1
currency = "USD"
"""


def side(tmp: Path, role: str, database: str, bus: str) -> Server:
    """One side of the room in its own directory (its log, its config), started on the shared database and bus."""
    tmp.mkdir()
    (tmp / "room.toml").write_text(FAST_ROOM + CASINO)
    return Server(tmp, "--role", role, "--node", role, "--database", database, "--bus", bus, bus="").start()


def wallet(player: Player) -> int:
    answer = player.request("bet_history", limit=1)            # the wallet as the player reads it
    assert answer["ok"], answer
    return answer["balance"]


def casino_events(push: dict, kind: str) -> list[dict]:
    return [e for e in push.get("events", ()) if e["type"] == kind] if push.get("type") == "casino_events" else []


def red_bet(player: Player) -> None:
    """A bet of 100 on red in the next round of the other process's roulette table, settled: the wallet moved by
    the stake and its payout, exactly."""
    before = wallet(player)
    assert player.request("casino_join", table=ROULETTE)["ok"]
    opened = player.wait_for(lambda m: bool(casino_events(m, "round_opened")))
    number = casino_events(opened, "round_opened")[0]["round"]
    bet = player.request("casino_bet", table=ROULETTE, market="red", amount=100)
    assert bet["ok"] and bet["balance"] == before - 100, bet
    landed = casino_events(player.wait_for(lambda m: any(e.get("round") == number
                                                         for e in casino_events(m, "ball_landed"))), "ball_landed")
    won = landed[0]["pocket"] in RED
    assert wallet(player) == before - 100 + (200 if won else 0)


def test_a_gateway_process_and_a_table_process_play_cash_hands_and_keep_every_wallet_exact(tmp_path):
    require_nats()
    bus = f"{NATS}/split-{uuid.uuid4().hex[:12]}"            # a room of its own on the machine's NATS
    with postgres_database() as database:
        tables = side(tmp_path / "tables", "tables", database, bus)
        gateway = None
        try:
            health = json.loads(urlopen(tables.url, timeout=10).read())       # no /ws: /health only
            assert health["role"] == "tables" and health["tables"] == 1 and health["node"] == "tables"
            gateway = side(tmp_path / "gateway", "gateway", database, bus)
            players = {name: sign_up(gateway.url, name)[0] for name in ("ana", "bob")}
            ana, bob = players["ana"], players["bob"]
            listed = ana.request("lobby_list")                              # the table process's lines, asked for
            assert [t["table"] for t in listed["tables"]] == ["t1"], listed
            front = json.loads(urlopen(gateway.url.replace("ws://", "http://").replace("/ws", "/health"),
                                       timeout=10).read())
            assert (front["node"], front["tables"], front["connections"]) == ("gateway", 1, 2)   # its lobby's count
            for seat, player in enumerate(players.values(), 1):
                joined = player.request("join", table="t1", buy_in=BUY_IN, seat=seat)
                assert joined["ok"], joined
            assert wallet(ana) == wallet(bob) == WELCOME - BUY_IN             # the table side's wallet moved them
            seen = play(players, 3)
            ended = [push for push in seen["ana"] if event_type(push) == "hand_event"
                     and push["event"]["event"]["type"] == "hand_ended"]
            assert len(ended) >= 3                                  # the table process's hands, shown here
            left = {}
            for player in players.values():
                assert player.request("leave", table="t1")["ok"]
            for name, player in players.items():                   # gone when the hand in play (if any) ends
                push = player.wait_for(lambda m, n=name: event_type(m) == "player_left" and m["event"]["player"] == n)
                left[name] = push["event"]["stack"]
            balances = {name: wallet(player) for name, player in players.items()}
            assert balances == {name: WELCOME - BUY_IN + stack for name, stack in left.items()}, (balances, left)
            assert sum(balances.values()) == 2 * WELCOME, balances      # no rake here: every chip back, exactly
            red_bet(ana)
            checked = subprocess.run([sys.executable, "-m", "pokerroom.cli", "ledger", "check", "--database", database],
                                     capture_output=True, text=True, timeout=120)
            assert checked.returncode == 0, checked.stdout + checked.stderr
            for player in players.values():
                player.close()
        finally:
            if gateway is not None:
                gateway.stop()
            tables.stop()
