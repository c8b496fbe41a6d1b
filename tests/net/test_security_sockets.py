"""The security team over real sockets: connections are chained in the audit log with their IP and device
(SEC-1), and ``pokerroom review`` -- the command line, speaking the protocol to the running room -- searches
hands, replays one with every card, opens a case and voids winnings (SEC-4, AC-7); a player is refused."""

from __future__ import annotations

import os
import subprocess
import sys

from pokerroom.store.db import make_engine, sqlite_url
from pokerroom.store.room_store import RoomStore
from tests.net.server_process import Player, Server
from tests.support.socket_play import PASSWORD, play, sign_up
from tests.support.waiting import wait_until


def review(server: Server, *words: str, nickname: str = "sec") -> subprocess.CompletedProcess:
    env = dict(os.environ, POKERROOM_PASSWORD=PASSWORD)
    return subprocess.run([sys.executable, "-m", "pokerroom.cli", "review", *words, "--url", server.url,
                           "--nickname", nickname], capture_output=True, text=True, env=env, timeout=60)


def test_SEC_1_SEC_4_the_command_line_reviews_a_running_room_and_connections_are_audited(tmp_path):
    server = Server(tmp_path, "--max-rate", "500").start()
    try:
        sign_up(server.url, "sec")[0].close()
        server.grant("sec", "security")
        ana = Player(server.url)
        assert ana.request("register", nickname="ana", password=PASSWORD, birth_date="1990-01-01",
                           country="NL")["ok"]
        assert ana.request("login", nickname="ana", password=PASSWORD, device="ana-phone-1")["ok"]
        bob = sign_up(server.url, "bob")[0]
        for p in (ana, bob):
            assert p.request("join", table="t1", buy_in=1000)["ok"]
        play({"ana": ana, "bob": bob}, 2)

        found = review(server, "hands", "player=ana")
        assert found.returncode == 0, found.stderr
        hand_ids = [line.split()[0] for line in found.stdout.splitlines()]
        assert len(hand_ids) >= 2 and all(h.startswith("t1-") for h in hand_ids)
        replay = review(server, "hand", f"hand_id={hand_ids[-1]}")
        assert replay.returncode == 0, replay.stderr
        assert "Dealt to ana [" in replay.stdout and "Dealt to bob [" in replay.stdout   # every card (SEC-4)
        opened = review(server, "case-open", "title=ana and bob", "players=ana,bob", "reason=test")
        assert opened.returncode == 0 and '"case": 1' in opened.stdout, opened.stderr
        assert review(server, "case-attach", "case=1", f"hand_id={hand_ids[-1]}").returncode == 0
        refused = review(server, "hands", nickname="bob")
        assert refused.returncode == 1 and "forbidden" in refused.stderr
        bad = review(server, "hands", "colour=red")
        assert bad.returncode == 2 and "hands takes player=" in bad.stderr

        store = RoomStore(make_engine(sqlite_url(tmp_path / "data")))
        assert wait_until(lambda: any(r.data.get("action") == "case_attach"
                                      for r in store.audit_log.audit_records("security_action")),
                          timeout=10), "timed out waiting for the case's records"
        connections = [r.data for r in store.audit_log.audit_records("connection")]
        assert {"player": "ana", "ip": "127.0.0.1", "device": "ana-phone-1", "client": "desktop"} in connections
        assert {c["player"] for c in connections} >= {"sec", "ana", "bob"}
        assert store.audit_log.verify_audit().intact
    finally:
        server.stop()
