"""The room holds against abusive clients, over real sockets (issue 18, "Abusive clients").

A flood of log-ins, sockets that never log in, HTTP requests sent by halves,
a client that never reads, a foreign or rebinding origin and a path with a NUL
byte: each once took the room's threads, places, descriptors or memory from
everyone else, or made it fail. Small limits come from each test's config.
"""

from __future__ import annotations

import json
import resource
import socket
import threading
import time
from urllib.error import HTTPError
from urllib.request import urlopen

import msgpack
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.net.server_process import Player, Server, room_config, serving, start
from tests.support.socket_play import PASSWORD, sign_up
from tests.support.waiting import wait_until
from tests.support.ws_frames import bound


def player_from(ip: str, url: str) -> Player:
    return Player(url, sock=bound(ip, url))


def base(server: Server) -> str:
    return server.url.replace("ws://", "http://").rsplit("/ws", 1)[0]


def test_a_login_flood_from_twenty_addresses_leaves_a_login_from_another_network_answered_within_2_s(tmp_path):
    # one hashing thread: the test machine's few cores are shared, and a second hash would compete with ana's
    server = start(tmp_path, "network_password_attempts_per_minute = 60\nnetwork_password_attempts_burst = 30\n"
                             "password_threads = 1\npassword_queue = 16\npassword_queue_per_network = 4\n")
    try:
        sign_up(server.url, "ana")[0].close()
        ana = player_from("127.0.1.7", server.url)           # another network than the crowd's 127.0.0.0/24
        crowd = [player_from(f"127.0.0.{i}", server.url) for i in range(10, 30)]
        for n, p in enumerate(crowd):                        # 20 addresses x 20 log-ins at once, none waiting
            for rid in range(1, 21):
                p.ws.send(msgpack.packb({"type": "login", "rid": rid, "nickname": f"nobody{n}x{rid}",
                                         "password": PASSWORD}))
        started = time.monotonic()
        answer = ana.request("login", nickname="ana", password=PASSWORD)
        took = time.monotonic() - started
        assert answer["ok"], answer
        assert took < 2.0, f"a login from another network took {took:.2f} s"
        codes = []
        for p in crowd:                                      # every attempt of the crowd is answered, few hashed,
            answers = [p.receive(timeout=60) for _ in range(20)]
            assert [a["rid"] for a in answers] == list(range(1, 21))     # in the order asked
            codes += [a["error"]["code"] for a in answers]
        # each connection's logins wait in turn behind its first: 16 of them, the rest refused in their place
        assert len(codes) == 400 and set(codes) <= {"bad_login", "too_many_attempts", "busy", "too_many_waiting"}
        # the network's attempts: a burst of 30, then one a second (60 a minute) while the crowd's logins wait in turn
        hashed_at_most = 30 + (time.monotonic() - started) + 1
        assert codes.count("bad_login") <= hashed_at_most and codes.count("too_many_waiting") <= 20 * 3
    finally:
        server.stop()


def test_one_address_holds_only_its_share_of_the_rooms_connections(tmp_path):
    server = start(tmp_path, connections="per_address = 3\n")
    try:
        held = [player_from("127.0.0.2", server.url) for _ in range(3)]
        with pytest.raises(InvalidStatus) as refused:
            player_from("127.0.0.2", server.url)
        assert refused.value.response.status_code == 429
        assert "your address" in refused.value.response.reason_phrase
        other = player_from("127.0.0.3", server.url)         # everyone else still gets in
        assert other.request("lobby_list")["ok"]
        held[0].close()
        again: list[Player] = []
        assert wait_until(lambda: _connects("127.0.0.2", server.url, again),
                          timeout=10), "timed out waiting for a freed place"
        assert again[0].request("lobby_list")["ok"]
    finally:
        server.stop()


def _connects(ip: str, url: str, into: list[Player]) -> bool:
    try:
        into.append(player_from(ip, url))
    except InvalidStatus:
        return False
    return True


def test_a_socket_that_does_not_log_in_is_closed_at_the_deadline_with_4010(tmp_path):
    server = start(tmp_path, connections="login_seconds = 3\n")
    try:
        ana, _ = sign_up(server.url, "ana")                 # logged in well within the deadline
        idle = Player(server.url)
        assert idle.request("lobby_list")["ok"]            # anonymous requests are fine until the deadline
        with pytest.raises(ConnectionClosed) as closed:
            idle.receive(timeout=30)
        assert closed.value.rcvd.code == 4010 and "log in within 3 seconds" in closed.value.rcvd.reason
        assert ana.request("lobby_list")["ok"]               # a logged-in socket stays
    finally:
        server.stop()


def _fewer_open_files() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (128, hard))


def test_half_sent_http_requests_are_closed_and_health_answers_with_the_open_files_limit_raised(tmp_path):
    config = room_config() + "\n[connections]\nheader_seconds = 2\n"
    (tmp_path / "room.toml").write_text(config)
    server = Server(tmp_path)
    server.preexec_fn = _fewer_open_files                # a distribution's low default, as the server inherits it
    server.start()
    try:
        with open(f"/proc/{server.process.pid}/limits") as limits:
            line = next(x for x in limits if x.startswith("Max open files"))
        soft, hard = line.split()[3:5]
        assert soft == hard, line                           # raised at start to the hard limit
        halves = []
        for i in range(190):                                # more than the inherited limit of 128
            sock = bound(f"127.0.2.{i % 200 + 1}", server.url)
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: room\r\n")      # ... and never the blank line
            halves.append(sock)
        health = json.loads(urlopen(base(server) + "/health", timeout=10).read())
        assert health["status"] == "ok"
        for sock in halves:                                 # each is closed once its headers are late
            sock.settimeout(30)
            assert sock.recv(1024) == b""
            sock.close()
    finally:
        server.stop()


def test_a_client_that_does_not_read_is_closed_before_the_server_queues_more_than_the_cap(tmp_path):
    server = start(tmp_path, "", "queued_bytes = 65536\n", "--max-rate", "1000000")   # not rate-limited
    try:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        host, port = server.url.split("/")[2].rsplit(":", 1)
        sock.connect((host, int(port)))
        reader = Player(server.url, sock=sock, max_queue=1)  # the client reads a frame, then stops reading
        assert reader.request("register", nickname="slow", password=PASSWORD, birth_date="1990-01-01",
                              country="NL")["ok"]
        assert reader.request("login", nickname="slow", password=PASSWORD)["ok"]
        stop = threading.Event()

        def ask() -> None:                                   # asks and asks for what it never reads
            try:
                for rid in range(100, 200_000):
                    if stop.is_set():
                        return
                    reader.ws.send(msgpack.packb({"type": "lobby_list", "rid": rid}))
            except (ConnectionClosed, OSError):
                return

        asking = threading.Thread(target=ask, daemon=True)
        asking.start()
        log = tmp_path / "server.log"
        assert wait_until(lambda: "does not read" in log.read_text(),
                          timeout=60), "timed out waiting for the room closing the connection"
        stop.set()
        line = next(x for x in log.read_text().splitlines() if "does not read" in x)
        waiting = int(line.split("(")[1].split()[0])
        assert 65536 < waiting <= 65536 + 16_384 + 1_024    # closed at the first frame over the cap
        health = lambda: json.loads(urlopen(base(server) + "/health", timeout=10).read())  # noqa: E731
        assert wait_until(lambda: health()["connections"] == 0,
                          timeout=30), "timed out waiting for the connection dropped"
    finally:
        server.stop()


def _handshake(server: Server, host: str, origin: str) -> bytes:
    sock = bound("127.0.0.1", server.url)
    sock.sendall(f"GET /ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                 f"Sec-WebSocket-Protocol: pokerroom.v1.json\r\nOrigin: {origin}\r\n\r\n".encode())
    sock.settimeout(10)
    status = sock.recv(4096).split(b"\r\n", 1)[0]
    sock.close()
    return status


def test_origins_are_checked_against_the_rooms_list_not_the_requests_own_host(tmp_path):
    server = Server(tmp_path).start()
    try:
        port = server.url.split("/")[2].rsplit(":", 1)[1]
        rebinding = _handshake(server, f"evil.example:{port}", f"http://evil.example:{port}")
        assert b" 403 " in rebinding, rebinding             # DNS rebinding: the Host matches, the origin is not ours
        assert b" 403 " in _handshake(server, f"127.0.0.1:{port}", f"evil://127.0.0.1:{port}")
        assert b" 403 " in _handshake(server, f"127.0.0.1:{port}", f"https://127.0.0.1.evil.example:{port}")
        for own in (f"http://127.0.0.1:{port}", f"http://localhost:{port}"):    # the demo's own pages
            assert b" 101 " in _handshake(server, f"127.0.0.1:{port}", own)
    finally:
        server.stop()


def test_a_path_with_a_nul_byte_is_not_found_and_logs_no_failure(server_log_tmp):
    server = server_log_tmp
    with pytest.raises(HTTPError) as missing:
        urlopen(base(server) + "/static/player/index.html%00.js", timeout=10)
    assert missing.value.code == 404
    with pytest.raises(HTTPError) as missing_page:
        urlopen(base(server) + "/admin%00", timeout=10)
    assert missing_page.value.code == 404
    assert urlopen(base(server) + "/static/player/index.html", timeout=10).status == 200
    log = (server.tmp / "server.log").read_text()
    assert "Traceback" not in log and "Unhandled" not in log and "null byte" not in log


@pytest.fixture
def server_log_tmp(tmp_path):
    with serving(tmp_path) as s:
        yield s


def test_bet_history_comes_in_pages_with_a_cursor(server_log_tmp):
    ana, _ = sign_up(server_log_tmp.url, "ana")
    assert ana.request("join", table="t1", buy_in=1_000)["ok"]
    assert ana.request("leave", table="t1")["ok"]
    pages, before = [], None
    while True:
        answer = ana.request("bet_history", limit=1, **({"before": before} if before else {}))
        assert answer["ok"] and len(answer["transfers"]) <= 1
        pages += [t["reason"] for t in answer["transfers"]]
        before = answer["next"]
        if before is None:
            break
    assert pages[-1] == "deposit" and "buy_in" in pages and len(pages) == 3
    assert ana.request("hand_history", limit=51)["error"]["code"] == "bad_field"
    first = ana.request("hand_history", limit=50)
    assert first["ok"] and first["hands"] == [] and first["next"] is None
