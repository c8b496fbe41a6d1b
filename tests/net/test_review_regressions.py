"""Server defects a review found, each pinned by the scenario that showed it (real sockets)."""

from __future__ import annotations

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from pokerroom.store.db import make_engine, sqlite_url
from pokerroom.store.room_store import RoomStore
from tests.net.server_process import Player, Server, serving
from tests.support.socket_play import PASSWORD, closed_with, event_type, play, sign_up
from tests.support.waiting import wait_until


@pytest.fixture
def server(tmp_path):
    with serving(tmp_path) as s:
        yield s


def test_SEC_2_resume_never_replays_cards_dealt_to_an_earlier_occupant_of_the_seat(server):
    alice, _ = sign_up(server.url, "alice")
    carol, _ = sign_up(server.url, "carol")
    alice.request("join", table="t1", buy_in=1_000, seat=1)
    carol.request("join", table="t1", buy_in=1_000, seat=2)
    play({"alice": alice, "carol": carol}, 2)
    assert alice.request("leave", table="t1")["ok"]
    alice.wait_for(lambda p: event_type(p) == "player_left")
    bob, token = sign_up(server.url, "bob")
    assert bob.request("join", table="t1", buy_in=1_000, seat=1)["ok"]
    bob.close()
    again = Player(server.url)
    assert again.request("resume", token=token, tables={"t1": 0})["ok"]
    dealt_to_bob = set()
    for push in again.pushes:
        if event_type(push) == "hand_event":
            e = push["event"]["event"]
            if e["type"] == "seat_dealt_in" and e["player"] == "bob":
                dealt_to_bob.add(push["event"]["hand_id"])
            if e["type"] == "hole_cards_dealt" and e["seat"] == 1 and e["cards"]:
                assert push["event"]["hand_id"] in dealt_to_bob, "an earlier occupant's cards were replayed"


def test_a_second_login_takes_over_the_seat_with_its_pushes_and_closes_the_old_connection(server):
    alice, _ = sign_up(server.url, "alice")
    carol, _ = sign_up(server.url, "carol")
    alice.request("join", table="t1", buy_in=1_000, seat=1)
    carol.request("join", table="t1", buy_in=1_000, seat=2)
    second = Player(server.url)
    assert second.request("login", nickname="alice", password=PASSWORD)["ok"]
    assert closed_with(alice).rcvd.code == 4000          # the old connection is closed
    play({"alice": second, "carol": carol}, 2)          # the new connection gets the turns, and plays them


def test_a_resume_is_recorded_as_a_connection_with_the_clients_device_id(server):
    alice, token = sign_up(server.url, "alice")
    alice.close()
    again = Player(server.url)
    assert again.request("resume", token=token, tables={}, device="phone-42")["ok"]
    third = Player(server.url)
    assert third.request("login", nickname="alice", password=PASSWORD, device="laptop-7")["ok"]
    store = RoomStore(make_engine(sqlite_url(server.tmp / "data")))
    # written off the reactor, elsewhere
    wait_until(lambda: len(store.accounts.connections_of("alice")) >= 3, timeout=10)
    records = store.accounts.connections_of("alice")
    assert [r.device_id for r in records] == [None, "phone-42", "laptop-7"]
    assert all(r.ip == "127.0.0.1" for r in records)


def test_a_foreign_origin_is_refused_on_the_binary_subprotocol_too(server):
    with pytest.raises(InvalidStatus) as refused:
        connect(server.url, subprotocols=["pokerroom.v1.msgpack"], origin="https://evil.example", open_timeout=10)
    assert refused.value.response.status_code == 403


def test_bet_history_shows_what_each_movement_did_to_wallet_and_tables(server):
    alice, _ = sign_up(server.url, "alice")
    alice.request("join", table="t1", buy_in=1_000, seat=1)
    history = alice.request("bet_history")
    buy_in = next(t for t in history["transfers"] if t["reason"] == "buy_in")
    assert (buy_in["wallet"], buy_in["tables"]) == (-1_000, 1_000)
    assert history["balance"] == 99_000
    assert alice.request("chat", table="t2", text="hi")["error"]["code"] in ("no_such_table", "not_at_table")


def test_the_connection_cap_counts_from_the_handshake_and_frees_a_place_on_close(tmp_path):
    server = Server(tmp_path, "--max-connections", "2").start()
    try:
        first, second = Player(server.url), Player(server.url)
        with pytest.raises(InvalidStatus) as refused:
            connect(server.url, subprotocols=["pokerroom.v1.msgpack"], open_timeout=10)
        assert refused.value.response.status_code == 503
        assert "full" in refused.value.response.reason_phrase
        first.close()

        def third_player() -> Player | None:
            try:
                return Player(server.url)
            except InvalidStatus:
                return None

        third = wait_until(third_player, timeout=10)     # the server sees the close on its own time
        assert third.request("lobby_list")["ok"] and second.request("lobby_list")["ok"]
    finally:
        server.stop()
