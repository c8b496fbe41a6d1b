"""The double spend, across processes (issue 21's acceptance): one account holding B, two connections on two
processes, each joining a cash table owned by its own process with the whole B at the same moment. The wallet is
moved under the database's row lock (``shell/shared_wallet.py``), so exactly one join succeeds and the other is
refused ``insufficient_funds``; the wallet and ``pokerroom ledger check`` stay exact. Three rounds.

Each process is given one table of its own in its config, so which process owns which table is known -- and
checked on the lease rows. The connections go straight to each process's port (no HAProxy: it could not pin a
connection to a process). Skips without NATS or PostgreSQL (fails under CI).
"""

from __future__ import annotations

import subprocess
import sys
import threading

from tests.net.server_process import Player, room_config, table_entry
from tests.support.cluster import WELCOME, lease_owners, node, room_bus, start_nodes, stop_nodes, wallet
from tests.support.databases import postgres_database
from tests.support.socket_play import PASSWORD, sign_up
from tests.support.waiting import wait_until

ROUNDS = 3


def own_table(table_id: str) -> str:
    """A room config with one cash table whose buy-in may be the whole welcome balance."""
    return room_config(table_entry(table_id, f"Table {table_id}", max_buy_in=WELCOME))


def joins_at_once(connections: dict[str, Player]) -> dict[str, dict]:
    """Each connection sends ``join`` with the whole balance at its table, released together by a barrier."""
    barrier = threading.Barrier(len(connections))
    answers: dict[str, dict] = {}

    def join(table_id: str, player: Player) -> None:
        barrier.wait(10)
        answers[table_id] = player.request("join", table=table_id, buy_in=WELCOME, seat=1)

    threads = [threading.Thread(target=join, args=item) for item in connections.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return answers


def test_one_balance_joined_at_two_tables_on_two_processes_at_once_is_spent_exactly_once(tmp_path):
    bus = room_bus()
    with postgres_database() as database:
        east = node(tmp_path, "east", own_table("t1"), database, bus)
        west = node(tmp_path, "west", own_table("t2"), database, bus)
        try:
            start_nodes([east, west])
            assert wait_until(lambda: lease_owners(database) == {"cash:t1": "east", "cash:t2": "west"}, 15), \
                lease_owners(database)
            on_east, _ = sign_up(east.url, "ana")
            on_west = Player(west.url)
            assert on_west.request("login", nickname="ana", password=PASSWORD)["ok"]
            connections = {"t1": on_east, "t2": on_west}
            for _ in range(ROUNDS):
                assert wallet(on_east) == wallet(on_west) == WELCOME
                answers = joins_at_once(connections)
                won = [table_id for table_id, answer in answers.items() if answer["ok"]]
                assert len(won) == 1, answers
                lost = answers[({"t1", "t2"} - set(won)).pop()]
                assert lost["error"]["code"] == "insufficient_funds", lost
                assert wallet(on_east) == wallet(on_west) == 0            # all of it at the one table
                seated = connections[won[0]]
                assert seated.request("leave", table=won[0])["ok"]
                assert wait_until(lambda: wallet(on_west) == WELCOME, 10), wallet(on_west)   # back, exactly
            checked = subprocess.run([sys.executable, "-m", "pokerroom.cli", "ledger", "check", "--database", database],
                                     capture_output=True, text=True, timeout=120)
            assert checked.returncode == 0, checked.stdout + checked.stderr
            on_east.close()
            on_west.close()
        finally:
            stop_nodes([east, west])
