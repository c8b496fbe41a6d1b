"""HAProxy in front of two real ``pokerroom serve`` processes, on ``config/haproxy.cfg``: the WebSocket upgrade
passes through, the ``/health`` check puts both in rotation, and a process drained for a deploy (SIGTERM) leaves
it while its players stay, then stops once they have gone.

Each process has its own SQLite data here: the processes of one room on one database need the table leases
(issue #21), which this test does not cover.
"""

from __future__ import annotations

import signal

import pytest

from pokerroom.bot_credentials import room_is_demo
from tests.net.server_process import Player, Server
from tests.support.haproxy import Balancer, health_of, require_haproxy
from tests.support.socket_play import sign_up
from tests.support.waiting import wait_until

CHECKS = 20          # seconds: a bounded wait on the balancer's state (checks every 2 s, down after 2 failures)


def port_of(server: Server) -> int:
    return int(server.url.rsplit(":", 1)[1].split("/")[0])


@pytest.fixture
def room(tmp_path):
    require_haproxy()
    (tmp_path / "east").mkdir()
    (tmp_path / "west").mkdir()
    east = Server(tmp_path / "east", "--node", "east")
    west = Server(tmp_path / "west", "--node", "west")
    balancer = None
    try:
        east.start()
        west.start()
        balancer = Balancer(tmp_path, {"east": port_of(east), "west": port_of(west)}).start()
        yield east, west, balancer
    finally:
        if balancer is not None:
            balancer.stop()
        for server in (east, west):
            if server.process is not None:
                server.stop()


def test_players_connect_through_haproxy_and_a_drained_process_leaves_the_rotation_keeping_its_players(room):
    east, west, balancer = room
    assert wait_until(lambda: balancer.status() == {"east": "UP", "west": "UP"}, CHECKS), balancer.status()

    # the WebSocket upgrade passes through: a register, a login and the lobby, twice; least connections puts the
    # second player on the other process
    ana, _ = sign_up(balancer.url, "ana")
    assert ana.request("lobby_list")["tables"][0]["table"] == "t1"
    bob, _ = sign_up(balancer.url, "bob")
    assert bob.request("lobby_list")["ok"]
    open_now = {name: int(row["scur"]) for name, row in balancer.servers().items()}
    assert open_now == {"east": 1, "west": 1}, open_now

    east.process.send_signal(signal.SIGTERM)                  # the deploy's stop: east drains
    assert wait_until(lambda: health_of(port_of(east))[0] == 503, 10)
    code, answer = health_of(port_of(east))
    assert code == 503 and answer["status"] == "draining" and answer["node"] == "east"
    assert answer["connections"] == 1
    # before the balancer's checks have taken east out, a newcomer is still let in: east turns the handshake away
    # (503) and the balancer tries it on west
    eve, _ = sign_up(balancer.url, "eve")
    assert eve.request("lobby_list")["ok"]
    assert wait_until(lambda: balancer.status()["east"] == "DOWN", CHECKS), balancer.status()
    assert balancer.status()["west"] == "UP"
    assert int(balancer.servers()["east"]["scur"]) == 1          # its one old player, nobody new

    # new connections all go to west: its /health answers through the balancer, and a new player lands there
    answers = [balancer.health() for _ in range(6)]
    assert [(code, answer["node"], answer["status"]) for code, answer in answers] == [(200, "west", "ok")] * 6
    before = {name: int(row["stot"]) for name, row in balancer.servers().items()}
    cy, _ = sign_up(balancer.url, "cyd")
    assert cy.request("lobby_list")["ok"]
    after = {name: int(row["stot"]) for name, row in balancer.servers().items()}
    assert after["east"] == before["east"] and after["west"] > before["west"]

    # the players already on east stay: both old connections are answered
    assert ana.request("lobby_list")["ok"] and bob.request("lobby_list")["ok"]
    assert east.process.poll() is None

    # once its last player has gone, the drained process stops by itself, cleanly
    for player in (ana, bob, cy, eve):
        player.close()
    assert wait_until(lambda: east.process.poll() is not None, 15), "east did not stop once its players had gone"
    assert east.process.returncode == 0
    assert west.process.poll() is None


def test_a_new_websocket_is_turned_away_by_a_draining_process(tmp_path):
    """Straight to a draining process (between its SIGTERM and the balancer's next check): 503 at the handshake,
    which the balancer retries on another process (``retry-on 503`` in config/haproxy.cfg)."""
    server = Server(tmp_path, "--node", "solo").start()
    try:
        held, _ = sign_up(server.url, "dee")                  # keeps the process up while it drains
        server.process.send_signal(signal.SIGTERM)
        assert wait_until(lambda: health_of(port_of(server))[0] == 503, 10)
        with pytest.raises(Exception, match="503"):
            Player(server.url)
        assert room_is_demo(server.url)                      # `pokerroom bots` still reads what the room is
        assert held.request("lobby_list")["ok"]
        held.close()
        assert wait_until(lambda: server.process.poll() is not None, 15)
    finally:
        server.stop()
