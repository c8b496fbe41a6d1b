"""``pokerroom bots`` plays at a running room: hands get played and stored."""

from __future__ import annotations

import os
import subprocess
import sys

from pokerroom.bot_credentials import SECRET_ENV, bot_password
from pokerroom.store.db import make_engine, sqlite_url
from pokerroom.store.room_store import RoomStore
from tests.net.server_process import Player, Server
from tests.support.waiting import wait_until


def test_bot_clients_from_the_command_line_play_hands(tmp_path):
    server = Server(tmp_path).start()
    bots = subprocess.Popen([sys.executable, "-m", "pokerroom.cli", "bots", "--url", server.url, "--count", "3",
                             "--tables", "t1", "--think", "0.05", "--strategy", "calling-station"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        store = RoomStore(make_engine(sqlite_url(tmp_path / "data")))

        def three_played() -> list:
            played = [h for h in store.hands.hands_of("bot001", 10) if h.ended_at is not None]
            return played if len(played) >= 3 else []

        played = wait_until(three_played, timeout=60, every=0.2)
        assert len(played) >= 3
        assert any(e["type"] == "hand_shown" for h in played for e in h.events)     # calling stations show down
    finally:
        bots.kill()
        server.stop()


def _bots_command(url: str, *extra: str, env: dict | None = None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "pokerroom.cli", "bots", "--url", url, "--count", "3",
                             "--tables", "t1", "--think", "0.05", *extra],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env=env or {k: v for k, v in os.environ.items() if k != SECRET_ENV})


def test_bots_against_a_room_not_in_demo_mode_need_a_secret_and_nobody_takes_them_over(tmp_path):
    server = Server(tmp_path, demo=False).start()
    try:
        refused = _bots_command(server.url)
        assert refused.wait(60) == 2
        assert SECRET_ENV in refused.stderr.read()
        store = RoomStore(make_engine(sqlite_url(tmp_path / "data")))
        assert store.accounts.find_account("bot001") is None                     # no account made without the secret
        secret = "an operator's secret, 40 characters long"
        bots = _bots_command(server.url, env={**os.environ, SECRET_ENV: secret})
        try:
            wait_until(lambda: store.accounts.find_account("bot003") is not None, timeout=60, every=0.2)
            assert store.accounts.find_account("bot003") is not None, "the bots did not register"
            intruder = Player(server.url)
            for name in ("bot001", "bot002", "bot003"):                     # the old, guessable password fails
                answer = intruder.request("login", nickname=name, password="bot-password-" + name)
                assert answer["error"]["code"] == "bad_login", answer
            owner = Player(server.url)                                      # the operator's own bots log in
            answer = owner.request("login", nickname="bot002", password=bot_password(secret.encode(), "bot002"))
            assert answer["ok"], answer
        finally:
            bots.kill()
            bots.wait(10)
    finally:
        server.stop()
