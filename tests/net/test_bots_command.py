"""``pokerroom bots`` plays at a running room: hands get played and stored."""

from __future__ import annotations

import subprocess
import sys
import time

from pokerroom.store.db import make_engine, sqlite_url
from pokerroom.store.room_store import RoomStore
from tests.net.server_process import Server


def test_bot_clients_from_the_command_line_play_hands(tmp_path):
    server = Server(tmp_path).start()
    bots = subprocess.Popen([sys.executable, "-m", "pokerroom.cli", "bots", "--url", server.url, "--count", "3",
                             "--tables", "t1", "--think", "0.05", "--strategy", "calling-station"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        store = RoomStore(make_engine(sqlite_url(tmp_path / "data")))
        deadline = time.monotonic() + 60
        played = []
        while time.monotonic() < deadline and len(played) < 3:
            played = [h for h in store.hands_of("bot001", 10) if h.ended_at is not None]
            time.sleep(0.2)
        assert len(played) >= 3
        assert any(e["type"] == "hand_shown" for h in played for e in h.events)     # calling stations show down
    finally:
        bots.kill()
        server.stop()
