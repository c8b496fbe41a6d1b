"""HAProxy in front of real ``pokerroom serve --proxy-protocol`` processes, on ``config/haproxy.cfg``: the
WebSocket upgrade passes through, the ``/health`` check (with its PROXY header) puts both in rotation, a process
drained for a deploy (SIGTERM) leaves it while its players stay, then stops once they have gone; and the room
sees each player's own address, not HAProxy's, while a connection around HAProxy without the header is closed.

Each process has its own SQLite data here: the processes of one room on one database need the table leases
(issue #21), which this test does not cover.
"""

from __future__ import annotations

import signal

import pytest
from websockets.exceptions import InvalidMessage, InvalidStatus

from pokerroom.bot_credentials import room_is_demo
from pokerroom.store.db import make_engine, sqlite_url
from pokerroom.store.room_store import RoomStore
from tests.net.server_process import FAST_ROOM, Player, Server
from tests.support.haproxy import PROXY_LOCAL, ROOM_FLAGS, Balancer, exchange, health_of, require_haproxy
from tests.support.socket_play import PASSWORD, sign_up
from tests.support.waiting import wait_until
from tests.support.ws_frames import bound

CHECKS = 20          # seconds: a bounded wait on the balancer's state (checks every 2 s, down after 2 failures)


def port_of(server: Server) -> int:
    return int(server.url.rsplit(":", 1)[1].split("/")[0])


@pytest.fixture
def room(tmp_path):
    require_haproxy()
    (tmp_path / "east").mkdir()
    (tmp_path / "west").mkdir()
    east = Server(tmp_path / "east", "--node", "east", *ROOM_FLAGS)
    west = Server(tmp_path / "west", "--node", "west", *ROOM_FLAGS)
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
    assert wait_until(lambda: health_of(port_of(east), header=PROXY_LOCAL)[0] == 503, 10)
    code, answer = health_of(port_of(east), header=PROXY_LOCAL)
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


def player_from(ip: str, url: str) -> Player:
    """A connection to ``url`` from the loopback source address ``ip`` (all of 127.0.0.0/8 is this machine)."""
    return Player(url, sock=bound(ip, url))


def test_through_haproxy_the_room_sees_and_records_each_players_own_address_not_haproxys(tmp_path):
    """Every connection reaches the room from HAProxy's 127.0.0.1; the PROXY header names the client's own source
    address. One place per address: without the header the second player would be refused (both from HAProxy's
    address); with it, players from 127.0.0.2 and 127.0.0.3 both get in, a second from 127.0.0.2 is refused, and
    the stored connection records and the security team's identities name each player's own address."""
    require_haproxy()
    (tmp_path / "room.toml").write_text(FAST_ROOM + "[connections]\nper_address = 1\n")
    server = Server(tmp_path, "--node", "solo", *ROOM_FLAGS).start()
    balancer = None
    try:
        balancer = Balancer(tmp_path, {"solo": port_of(server)}).start()
        # the health checks carry the header too (check-send-proxy): the flag does not take the process out
        assert wait_until(lambda: balancer.status() == {"solo": "UP"}, CHECKS), balancer.status()

        players = {}
        for name, ip in (("ana", "127.0.0.2"), ("bob", "127.0.0.3")):
            players[name] = player_from(ip, balancer.url)
            assert players[name].request("register", nickname=name, password=PASSWORD, birth_date="1990-01-01",
                                         country="NL")["ok"]
            assert players[name].request("login", nickname=name, password=PASSWORD)["ok"]
        with pytest.raises(InvalidStatus) as refused:               # the room's 429, passed on by HAProxy
            player_from("127.0.0.2", balancer.url)
        assert refused.value.response.status_code == 429
        assert int(balancer.servers()["solo"]["scur"]) == 2         # HAProxy holds both players' connections

        store = RoomStore(make_engine(sqlite_url(tmp_path / "data")))

        def recorded() -> dict:
            seen = store.security.identities()
            return seen if {"ana", "bob"} <= set(seen) else {}

        identities = wait_until(recorded, 10, every=0.1)
        assert identities["ana"] == {"ip:127.0.0.2"} and identities["bob"] == {"ip:127.0.0.3"}
        audited = {(r.data["player"], r.data["ip"]) for r in store.security.recent_audit(10, kind="connection")}
        assert audited == {("ana", "127.0.0.2"), ("bob", "127.0.0.3")}

        players["ana"].close()                                     # ana's place is free again: hers to take back
        back = wait_until(lambda: _admitted("127.0.0.2", balancer.url), 10, every=0.1)
        assert back.request("login", nickname="ana", password=PASSWORD)["ok"]
        assert players["bob"].request("lobby_list")["ok"]
    finally:
        if balancer is not None:
            balancer.stop()
        server.stop()


def _admitted(ip: str, url: str) -> Player | None:
    try:
        return player_from(ip, url)
    except InvalidStatus:
        return None


def test_a_connection_around_haproxy_without_the_proxy_header_is_closed_unanswered(tmp_path):
    """With ``--proxy-protocol`` the port speaks only to HAProxy: a request, or a WebSocket handshake, without the
    header is closed before the room reads it. A header from anyone who reaches the port is believed -- which is
    why that port must be reachable from HAProxy alone (docs/operations.md)."""
    server = Server(tmp_path, "--node", "solo", *ROOM_FLAGS).start()
    port = port_of(server)
    try:
        assert exchange(port, b"GET /health HTTP/1.1\r\nHost: pokerroom\r\nConnection: close\r\n\r\n") == b""
        with pytest.raises(ConnectionError, match="unanswered"):
            health_of(port, header=b"PROXY TCP4 not-an-address\r\n")      # a broken header: the same
        with pytest.raises(InvalidMessage, match="did not receive a valid HTTP response"):
            Player(server.url)                                     # a WebSocket handshake: closed, unanswered
        for header in (PROXY_LOCAL, f"PROXY TCP4 198.51.100.7 127.0.0.1 40000 {port}\r\n".encode()):   # v2, v1
            code, answer = health_of(port, header=header)
            assert (code, answer["node"], answer["status"]) == (200, "solo", "ok")
        assert server.process.poll() is None                       # nothing of it troubled the room
    finally:
        server.stop()
