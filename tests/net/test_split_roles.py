"""The process line is real (issue 21): a room run as two processes -- ``pokerroom serve --role tables`` (the table
host, the wallet, the hall, the casino floor) and ``--role gateway`` (the clients' connections and every request
service) -- on one PostgreSQL database and one NATS room. Two players sign up through the gateway, sit at a cash
table the other process runs and play hands; afterwards every chip is back in a wallet, exactly, and
``pokerroom ledger check`` passes on the shared database. Skips without NATS or PostgreSQL (fails under CI)."""

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


def side(tmp: Path, role: str, database: str, bus: str) -> Server:
    """One side of the room in its own directory (its log, its config), started on the shared database and bus."""
    tmp.mkdir()
    (tmp / "room.toml").write_text(FAST_ROOM)
    return Server(tmp, "--role", role, "--node", role, "--database", database, "--bus", bus, bus="").start()


def wallet(player: Player) -> int:
    answer = player.request("bet_history", limit=1)            # the wallet as the player reads it
    assert answer["ok"], answer
    return answer["balance"]


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
            checked = subprocess.run([sys.executable, "-m", "pokerroom.cli", "ledger", "check", "--database", database],
                                     capture_output=True, text=True, timeout=120)
            assert checked.returncode == 0, checked.stdout + checked.stderr
            for player in players.values():
                player.close()
        finally:
            if gateway is not None:
                gateway.stop()
            tables.stop()
