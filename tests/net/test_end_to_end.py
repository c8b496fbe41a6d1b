"""The room over real sockets, spoken to by an independent client (the ``websockets`` library).

Register, log in, join, post, play hands to showdown, chat, disconnect mid-hand,
reconnect and resume with one's own cards (HR-DC-2), leave with the right
balance -- in both encodings.
"""

from __future__ import annotations

import msgpack
import pytest

from tests.net.server_process import Player, Server
from tests.support.socket_play import PASSWORD, event_type, play, sign_up
from tests.support.waiting import wait_until


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path).start()
    yield s
    s.stop()


@pytest.fixture(params=["suite's", "application's"])
def either_bus(request, tmp_path):
    """A server on the suite's bus (the strict one), and one on the application's default, which production runs."""
    s = Server(tmp_path, bus=None if request.param == "suite's" else "").start()
    yield s
    s.stop()


def test_a_whole_session_over_real_sockets_in_both_encodings_on_either_bus(either_bus):
    server = either_bus
    ana, ana_token = sign_up(server.url, "ana")
    bo, _ = sign_up(server.url, "bob", "pokerroom.v1.json")
    assert ana.request("login", nickname="ana", password="wrong")["error"]["code"] == "bad_login"
    lobby = ana.request("lobby_list")
    assert lobby["tables"][0]["table"] == "t1" and lobby["tables"][0]["taken"] == 0
    assert ana.request("join", table="t1", buy_in=1_000, seat=1)["seat"] == 1
    assert bo.request("join", table="t1", buy_in=1_000, seat=2)["seat"] == 2
    assert bo.request("join", table="t1", buy_in=1_000)["error"]["code"] == "already_seated"
    seen = play({"ana": ana, "bob": bo}, 3)
    showdowns = [p for p in seen["ana"]
                 if event_type(p) == "hand_event" and p["event"]["event"]["type"] == "hand_shown"]
    assert showdowns, "checking and calling down reaches showdowns"

    # chat reaches the table; a link is refused (HR-CHAT-2)
    assert ana.request("chat", table="t1", text="good luck")["ok"]
    assert bo.wait_for(lambda p: p.get("type") == "chat")["text"] == "good luck"
    blocked = ana.request("chat", table="t1", text="see www.example.com")
    assert blocked["error"]["rule"] == "HR-CHAT-2"

    # Ana drops when it is her turn, comes back on a new connection and resumes (HR-DC-2)
    play({"ana": ana, "bob": bo}, 5, stop=lambda name, push: name == "ana" and "legal" in push)
    ana.close()
    ana2 = Player(server.url)
    resumed = ana2.request("resume", token=ana_token, tables={"t1": 0})
    assert resumed["ok"] and resumed["tables"]["t1"] in ("events", "snapshot"), resumed
    replayed = ana2.pushes                      # the catch-up arrives before the answer
    if resumed["tables"]["t1"] == "snapshot":   # the table log no longer reaches back to seq 0
        (snapshot,) = [p for p in replayed if p["type"] == "table_snapshot"]
        dealt = [e for e in snapshot["hand"] if e["type"] == "hole_cards_dealt"]
        assert snapshot["seq"] > 0 and snapshot["to_act"] == 1
    else:
        dealt = [p["event"]["event"] for p in replayed
                 if event_type(p) == "hand_event" and p["event"]["event"]["type"] == "hole_cards_dealt"]
        assert [p["seq"] for p in replayed] == sorted(p["seq"] for p in replayed)
    assert dealt
    assert all(len(e["cards"]) == 2 for e in dealt if e["seat"] == 1)       # her own cards, every hand
    assert all(e["cards"] == [] for e in dealt if e["seat"] == 2)           # never Bob's
    assert not [p for p in replayed if event_type(p) == "hand_event" and p["event"]["event"]["type"] == "deck_revealed"]
    ana2.pushes = []

    # both leave; what they walk away with is in their wallets
    play({"ana": ana2, "bob": bo}, 1)
    for p in (ana2, bo):
        assert p.request("leave", table="t1")["ok"]
    stacks = {}
    for name, p in (("ana", ana2), ("bob", bo)):
        left = p.wait_for(lambda m, n=name: event_type(m) == "player_left" and m["event"]["player"] == n)
        stacks[name] = left["event"]["stack"]
    balances = {name: p.request("bet_history")["balance"] for name, p in (("ana", ana2), ("bob", bo))}
    assert balances == {name: 100_000 - 1_000 + stacks[name] for name in stacks}
    assert sum(stacks.values()) == 2_000                            # no rake at this table


def test_a_malformed_frame_gets_an_error_and_the_connection_keeps_working(server):
    p = Player(server.url)
    p.send_raw(b"\xc1\xc1")
    assert p.receive()["error"]["code"] == "bad_frame"
    p.send_raw(msgpack.packb({"type": "join", "rid": 5, "table": "t1", "buy_in": -1}))
    answer = p.receive()
    assert (answer["rid"], answer["error"]["code"]) == (5, "bad_field")
    assert p.request("join", table="t1", buy_in=500)["error"]["code"] == "not_logged_in"
    assert p.request("lobby_list")["ok"]


def test_frame_refusals_say_what_is_wrong_in_protocol_words_and_echo_a_readable_rid(server):
    p = Player(server.url)
    p.send_raw(msgpack.packb({"type": "chat", "rid": 8, "table": "t1", "text": b"gl"}, use_bin_type=True))
    binary = p.receive()
    assert (binary["rid"], binary["error"]["code"]) == (None, "bad_frame")      # unreadable: no map to read
    assert binary["error"]["message"] == "strings must be msgpack str, not bin"
    p.send_raw(msgpack.packb({"type": "chat", "rid": 9, "table": "t1", "text": [[[[["deep"]]]]]}))
    deep = p.receive()
    assert (deep["type"], deep["rid"], deep["error"]["code"]) == ("chat", 9, "bad_frame")
    p.send_raw(msgpack.packb({"type": "register", "rid": 10, "nickname": "no spaces", "password": "correct horse",
                              "birth_date": "1990-04-01", "country": "NL"}))
    nickname = p.receive()
    assert (nickname["rid"], nickname["error"]["code"], nickname["error"]["rule"]) == (10, "bad_nickname", "AC-3")
    bad_token = p.request("resume", token="short", tables={})
    assert (bad_token["error"]["code"], bad_token["error"]["rule"]) == ("bad_token", "STAFF-3")


def test_a_flood_is_rate_limited_with_an_error_not_served(server):
    p = Player(server.url)
    for rid in range(1, 61):
        p.send_raw(msgpack.packb({"type": "lobby_list", "rid": rid}))
    answers = [p.receive() for _ in range(60)]
    limited = [a for a in answers if not a["ok"] and a["error"]["code"] == "rate_limited"]
    assert 0 < len(limited) < 60 and sum(a["ok"] for a in answers) >= 40      # the burst is served, then refused


def test_health_and_metrics_are_served_on_the_same_port(server):
    import json as _json
    from urllib.request import urlopen

    base = server.url.replace("ws://", "http://").rsplit("/ws", 1)[0]
    health = _json.loads(urlopen(base + "/health", timeout=10).read())
    assert health["status"] == "ok" and health["tables"] == 1
    p, _ = sign_up(server.url, "ana")
    metrics = urlopen(base + "/metrics", timeout=10).read().decode()
    assert "pokerroom_connections 1.0" in metrics and "pokerroom_action_seconds_bucket" in metrics
    p.close()


def test_a_handshake_without_our_subprotocol_or_from_a_foreign_origin_is_refused(server):
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    with pytest.raises(InvalidStatus) as no_protocol:
        connect(server.url, subprotocols=["chat"], open_timeout=10)
    assert no_protocol.value.response.status_code == 400
    with pytest.raises(InvalidStatus) as foreign:
        connect(server.url, subprotocols=["pokerroom.v1.json"], origin="https://evil.example", open_timeout=10)
    assert foreign.value.response.status_code == 403
    host = server.url.split("/")[2]
    with connect(server.url, subprotocols=["pokerroom.v1.json"], origin=f"http://{host}", open_timeout=10) as ws:
        ws.send('{"type": "lobby_list", "rid": 1}')
        assert '"ok":true' in ws.recv(timeout=10)


def test_AC_5_self_exclusion_refuses_play_at_once_and_survives_a_new_login(server):
    ana, _ = sign_up(server.url, "ana")
    assert ana.request("deposit_limit", amount=5_000)["ok"]
    assert ana.request("session_reminder", minutes=30)["ok"]
    assert ana.request("session_reminder", minutes=1)["error"]["code"] == "bad_field"
    assert ana.request("self_exclude", days=7)["ok"]
    refused = ana.request("join", table="t1", buy_in=1_000)
    assert (refused["error"]["code"], refused["error"]["rule"]) == ("self_excluded", "AC-5")
    assert ana.request("self_exclude", days=1)["ok"]                  # asking for less changes nothing
    again = Player(server.url)
    assert again.request("login", nickname="ana", password=PASSWORD)["ok"]
    assert again.request("join", table="t1", buy_in=1_000)["error"]["rule"] == "AC-5"
    assert again.request("self_exclude", days=None)["ok"]             # permanently
    assert again.request("join", table="t1", buy_in=1_000)["error"]["rule"] == "AC-5"


def test_a_login_is_recorded_with_the_address_it_came_from(server):
    from pokerroom.store.db import make_engine, sqlite_url
    from pokerroom.store.room_store import RoomStore

    sign_up(server.url, "ana")
    store = RoomStore(make_engine(sqlite_url(server.tmp / "data")))
    wait_until(lambda: store.accounts.connections_of("ana"), timeout=10)                  # written off the reactor
    (record,) = store.accounts.connections_of("ana")
    assert record.ip == "127.0.0.1" and record.disconnected_at is None


def test_own_hand_history_shows_own_cards_and_others_only_when_shown(server):
    ana, _ = sign_up(server.url, "ana")
    bob, _ = sign_up(server.url, "bob")
    ana.request("join", table="t1", buy_in=1_000, seat=1)
    bob.request("join", table="t1", buy_in=1_000, seat=2)
    play({"ana": ana, "bob": bob}, 2)
    history = ana.request("hand_history", limit=10)
    finished = [h for h in history["hands"] if h["ended_at"] is not None]      # the newest may still run
    assert history["ok"] and len(finished) >= 2
    for hand in finished:
        events = hand["events"]
        dealt = {e["seat"]: e["cards"] for e in events if e["type"] == "hole_cards_dealt"}
        shown = {e["seat"] for e in events if e["type"] == "hand_shown"}
        assert len(dealt[1]) == 2
        assert dealt[2] == [] and not any(e["type"] == "deck_revealed" for e in events)
        assert hand["start"] == 1_000 or hand["start"] is not None and hand["end"] is not None
        assert 2 in shown or all(e.get("seat") != 2 or not e.get("cards") for e in events
                                 if e["type"] in ("hand_mucked", "hole_cards_dealt"))


def test_logout_ends_the_token_and_counts_as_a_disconnect_at_the_table(server):
    ana, token = sign_up(server.url, "ana")
    bob, _ = sign_up(server.url, "bob")
    ana.request("join", table="t1", buy_in=1_000, seat=1)
    bob.request("join", table="t1", buy_in=1_000, seat=2)
    assert ana.request("logout")["ok"]
    bob.wait_for(lambda p: event_type(p) == "player_disconnected" and p["event"]["seat"] == 1)
    assert ana.request("join", table="t1", buy_in=1_000)["error"]["code"] == "not_logged_in"
    again = Player(server.url)
    assert again.request("resume", token=token, tables={})["error"]["code"] == "bad_token"
