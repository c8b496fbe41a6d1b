"""Attackers with many addresses, over real sockets (issue 33, findings 1 and 2).

Limits keyed by one address stop one machine; these tests come from 40 or 160
addresses of loopback (any 127.0.0.0/8 address is this machine on Linux) and
check that the places and log-ins a real player needs are still theirs.
"""

from __future__ import annotations

import json
import socket
import threading
from urllib.request import urlopen

import msgpack
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.net.ledger_check import assert_ledger_sound
from tests.net.server_process import Player, Server, room_config, start
from tests.support.socket_play import PASSWORD
from tests.support.waiting import wait_until
from tests.support.ws_frames import bound


def player_from(ip: str, url: str) -> Player:
    return Player(url, sock=bound(ip, url))


def test_wrong_passwords_from_40_networks_leave_the_player_logging_in_from_their_usual_network_within_2_tries(
        tmp_path, monkeypatch):
    """Finding 1: the account's all-networks bucket, kept empty from 40 networks, refused the right password."""
    monkeypatch.setenv("POKERROOM_ARGON2", "bench")                  # cheap hashes: the limits are under test
    server = start(tmp_path, "account_password_attempts_per_minute = 6\naccount_password_attempts_burst = 4\n"
                             "account_attempts_wait_seconds = 5\npassword_threads = 2\n")
    stop = threading.Event()
    try:
        home = player_from("127.0.1.7", server.url)                  # the player's usual network, 127.0.1.0/24
        assert home.request("register", nickname="victim", password=PASSWORD, birth_date="1990-01-01",
                            country="NL")["ok"]
        assert home.request("login", nickname="victim", password=PASSWORD)["ok"]
        home.close()
        attackers = [player_from(f"127.{10 + n}.0.1", server.url) for n in range(40)]
        codes: list[str] = []

        def guess(p: Player) -> None:                                # sustained: twice a second from each network
            try:
                while not stop.is_set():
                    answer = p.request("login", nickname="victim", password="wrong-guess-1")
                    codes.append(answer["error"]["code"])
                    stop.wait(0.5)                                   # the attack's pace, not a wait for the room
            except (ConnectionClosed, TimeoutError, OSError):
                return

        for p in attackers:
            threading.Thread(target=guess, args=(p,), daemon=True).start()
        assert wait_until(lambda: codes.count("too_many_attempts") >= 40,
                          timeout=60), "timed out waiting for the guessers to use up the account's limits"
        tries = []
        back = player_from("127.0.1.8", server.url)                  # another address of the usual network
        for rid in (1, 2):
            back.send_raw(msgpack.packb({"type": "login", "rid": rid, "nickname": "victim", "password": PASSWORD}))
            tries.append(back.receive(timeout=60))
            if tries[-1]["ok"]:
                break
        assert tries[-1]["ok"], tries
        assert "bad_login" in codes and set(codes) <= {"bad_login", "too_many_attempts", "busy"}
    finally:
        stop.set()
        server.stop()
    assert_ledger_sound(tmp_path / "data")


def _holds(ip: str, url: str, into: list, refusals: list) -> None:
    """One more anonymous connection from ``ip``, kept in ``into``; a refused handshake's status in ``refusals``."""
    try:
        into.append(player_from(ip, url))
    except InvalidStatus as refused:
        refusals.append(refused.response.status_code)


def _health(server) -> dict:                                              # noqa: ANN001
    base = server.url.replace("ws://", "http://").rsplit("/ws", 1)[0]
    return json.loads(urlopen(base + "/health", timeout=10).read())


def test_160_addresses_cannot_take_the_places_a_logged_in_player_or_a_new_client_needs(tmp_path):
    """Finding 2: 160 loopback addresses x 64 anonymous handshakes took all 10,000 places; a normal client got 503.
    Small caps keep it quick: 40 places, half of them for anonymous connections, 4 per address, 16 per /24."""
    server = start(tmp_path, "", "per_address = 4\nper_network = 16\nanonymous_share = 0.5\n",
                   "--max-connections", "40")
    held: list[Player] = []
    refusals: list[int] = []
    try:
        player = player_from("127.0.6.1", server.url)
        assert player.request("register", nickname="regular", password=PASSWORD, birth_date="1990-01-01",
                              country="NL")["ok"]
        assert player.request("login", nickname="regular", password=PASSWORD)["ok"]
        for n in range(160):                                      # 160 addresses of one /24, 4 handshakes each
            for _ in range(4):
                _holds(f"127.0.0.{n + 10}", server.url, held, refusals)
        assert len(held) == 16 and set(refusals) == {429}         # the /24 holds its 16 places, no more
        for n in range(160):                                      # then one address in each of 160 networks
            _holds(f"127.1.{n}.1", server.url, held, refusals)
        assert _health(server)["connections"] <= 40
        newcomer = player_from("127.0.7.1", server.url)          # a new client from another network gets in...
        assert newcomer.request("register", nickname="newcomer", password=PASSWORD, birth_date="1990-01-01",
                                country="NL")["ok"]
        assert newcomer.request("login", nickname="newcomer", password=PASSWORD)["ok"]   # ...and logs in
        assert player.request("lobby_list")["ok"]                 # the logged-in player kept their place
        again = player_from("127.0.6.2", server.url)             # and finds one when they come back
        assert again.request("login", nickname="regular", password=PASSWORD)["ok"]
        taken = 0
        for p in held:                                            # the crowd took each other's places (4012)
            try:
                p.receive(timeout=0.01)
            except ConnectionClosed as closed:
                taken += closed.rcvd is not None and closed.rcvd.code == 4012
            except TimeoutError:
                continue
        assert taken >= 160 - 20, taken
    finally:
        server.stop()
    assert_ledger_sound(tmp_path / "data")


def _ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.skipif(not _ipv6_loopback(), reason="this machine has no IPv6 loopback")
def test_an_ipv6_client_is_held_to_its_address_inside_its_slash_64_and_slash_56(tmp_path):
    """Finding 2 over IPv6: a connection counts against its address, /64 and /56. This machine's IPv6 loopback is
    the one address ::1, so the test holds that address to its cap and sees the room's other places stay free
    (the /64 and /56 caps themselves are checked without sockets, above and in test_connection_limits.py)."""
    (tmp_path / "room.toml").write_text(room_config() + "\n[connections]\nper_address = 3\nper_network = 3\n"
                                        "per_ipv6_56 = 3\nanonymous_share = 0.5\n")
    server = Server(tmp_path, "--host", "::", "--max-connections", "12").start()   # IPv4 and IPv6 on one port
    port = int(server.url.rsplit(":", 1)[1].split("/")[0])

    def from_ipv6() -> Player:
        sock = socket.create_connection(("::1", port))
        return Player(f"ws://[::1]:{port}/ws", sock=sock)

    try:
        crowd = [from_ipv6() for _ in range(3)]
        with pytest.raises(InvalidStatus) as refused:
            from_ipv6()
        assert refused.value.response.status_code == 429
        newcomer = Player(f"ws://127.0.0.1:{port}/ws")            # IPv4 (mapped): another network entirely
        assert newcomer.request("register", nickname="newcomer", password=PASSWORD, birth_date="1990-01-01",
                                country="NL")["ok"]
        assert all(p.request("lobby_list")["ok"] for p in crowd)
    finally:
        server.stop()
    assert_ledger_sound(tmp_path / "data")
