"""Issue 18 over real sockets: the chat and nickname filters (HR-CHAT-2, AC-3) and HR-STAKE-3's settled leaves."""

from __future__ import annotations

import time

import pytest

from tests.net.server_process import Player, Server, room_config, serving, table_entry
from tests.support.socket_play import PASSWORD, event_type, sign_up


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path).start()
    yield s
    s.stop()


@pytest.fixture
def three_tables(tmp_path):
    (tmp_path / "room.toml").write_text(room_config(table_entry("t1"), table_entry("t2"), table_entry("t3")))
    s = Server(tmp_path).start()
    yield s
    s.stop()


def test_HR_CHAT_2_links_and_words_in_disguise_are_blocked_and_table_talk_is_not(server):
    # The room takes one line a second from each player: every line here has its own author, so nothing waits.
    rail, _ = sign_up(server.url, "rail")
    assert rail.request("observe", table="t1", on=True)["ok"]
    blocked = ("evil . com", "evil\uff0ecom", "evil.xyz", "f\u057dck", "F U C K")        # what the review got through
    shown = ("nice hand.", "gg", "2.5 bb to call", "wait...what")
    for k, text in enumerate(blocked + shown):
        author, _ = sign_up(server.url, f"talker{k}")
        assert author.request("observe", table="t1", on=True)["ok"]
        answer = author.request("chat", table="t1", text=text)
        if text in blocked:
            assert answer["ok"] is False, text
            assert (answer["error"]["code"], answer["error"]["rule"]) == ("chat_blocked", "HR-CHAT-2"), text
        else:
            assert answer["ok"], (text, answer)
            line = rail.wait_for(lambda p: p.get("type") == "chat")
            assert (line["player"], line["text"]) == (f"talker{k}", text)
    rail.request("lobby_list")                                          # every chat push sent so far has arrived
    assert not [p for p in rail.pushes if p.get("type") == "chat"]     # no blocked line reached the rail


@pytest.mark.parametrize("nickname", ["securlty", "dlrector", "adm1n", "dea1er"])
def test_AC_3_nicknames_that_pass_for_staff_are_refused_at_registration(server, nickname):
    p = Player(server.url)
    answer = p.request("register", nickname=nickname, password=PASSWORD, birth_date="1990-01-01", country="NL")
    assert answer["ok"] is False
    assert (answer["error"]["code"], answer["error"]["rule"]) == ("nickname_refused", "AC-3")
    assert p.request("register", nickname="river_rat" + nickname[:3], password=PASSWORD, birth_date="1990-01-01",
                     country="NL")["ok"]


def _lose_a_hand(ana: Player, bob: Player, table: str) -> None:
    """Ana (seat 1) folds, or checks where that is free, Bob checks or calls, until a hand leaves Ana below 1000."""
    while True:
        for me, who in ((ana, "ana"), (bob, "bob")):
            try:
                push = me.receive(timeout=0.05)
            except TimeoutError:
                continue
            if "legal" in push:
                can_check = push["legal"]["can_check"]
                move = "check" if can_check else ("fold" if who == "ana" else "call")
                me.request("act", table=table, action=move, decision=push["legal"]["decision"])
            if who == "ana" and event_type(push) == "hand_event" \
                    and push["event"]["event"]["type"] == "hand_ended":
                if dict(push["event"]["event"]["stacks"])[1] < 1_000:
                    return


def test_HR_STAKE_3_chips_lost_after_sitting_again_with_the_stack_are_not_owed(three_tables):
    # The case, scaled: leave t1 with 1000, sit at t2 with 1000, lose some in play, leave t2 with less:
    # that smaller stack is what binds at t3, not the 1000 the first leave was settled with.
    url = three_tables.url
    ana, _ = sign_up(url, "ana")
    bob, _ = sign_up(url, "bob")
    assert ana.request("join", table="t1", buy_in=1_000, seat=1)["ok"]
    assert ana.request("leave", table="t1")["ok"]
    refused = ana.request("join", table="t2", buy_in=999, seat=1)          # the leave binds until it is settled
    assert (refused["error"]["code"], refused["error"]["rule"]) == ("rat_holing", "HR-STAKE-3")
    assert ana.request("join", table="t2", buy_in=1_000, seat=1)["ok"]
    assert bob.request("join", table="t2", buy_in=1_000, seat=2)["ok"]
    _lose_a_hand(ana, bob, "t2")
    assert ana.request("leave", table="t2")["ok"]                 # mid-hand: she folds and leaves as it ends
    left = ana.wait_for(lambda p: event_type(p) == "player_left" and p["table"] == "t2")
    stack = left["event"]["stack"]
    assert stack < 1_000
    too_little = ana.request("join", table="t3", buy_in=stack - 1, seat=1)
    assert (too_little["error"]["code"], too_little["error"]["rule"]) == ("rat_holing", "HR-STAKE-3")
    assert too_little["error"]["amounts"] == {"stack": stack, "given": stack - 1}        # as numbers, and in dollars
    assert too_little["error"]["currency"] == "USD" and f"${stack // 100}.{stack % 100:02d}" in \
        too_little["error"]["message"]
    assert ana.request("join", table="t3", buy_in=stack, seat=1)["ok"]


@pytest.fixture
def tournament_room(tmp_path):
    from tests.net.server_process import FAST_TOURNAMENTS

    with serving(tmp_path, FAST_TOURNAMENTS, "--max-rate", "500") as s:
        yield s


def test_HR_DC_4_a_player_who_drops_in_the_late_stage_gets_extra_time_and_comes_back_to_act(tournament_room,
                                                                                            tmp_path):
    from tests.support.socket_play import director

    td = director(tournament_room)
    created = td.request("director_create", template="sit_and_go", id="late", name="Late stage", start_in=None,
                         settings={"min_players": 3, "max_players": 3, "time_bank": 0, "late_stage_players": 3,
                                   "disconnect_protection": 30})
    assert created["ok"], created
    players = {}
    for name in ("ana", "bob", "cyd"):
        players[name], _ = sign_up(tournament_room.url, name)
        assert players[name].request("tournament_register", tournament="late")["ok"]
    turn = None
    while turn is None:                                 # the first decision of the first hand (decision time: 1 s)
        for name, p in players.items():
            try:
                push = p.receive(timeout=0.05)
            except TimeoutError:
                continue
            if push.get("type") == "tournament_table_events" and "legal" in push:
                turn = (name, push["legal"])
                break
    name, legal = turn
    players.pop(name).close()                           # drops on their turn
    watcher = next(iter(players.values()))
    extra = watcher.wait_for(lambda p: p.get("type") == "tournament_event"
                             and p["event"]["type"] == "reconnect_time_started")
    deadline = extra["event"].pop("deadline")                   # the same clock on the server's time (epoch s)
    assert extra["event"] == {"type": "reconnect_time_started", "player": name, "seconds": 30}
    assert abs(deadline - time.time()) < 31
    back = Player(tournament_room.url)
    assert back.request("login", nickname=name, password=PASSWORD)["ok"]
    hand = back.wait_for(lambda p: p.get("type") == "tournament_table_events" and "legal" in p)   # HR-DC-2
    assert hand["legal"]["decision"] == legal["decision"] and hand["events"][0]["type"] == "hand_started"
    assert [e for e in hand["events"] if e["type"] == "hole_cards_dealt" and e["seat"] == hand["seat"] and e["cards"]]
    answer = back.request("tournament_act", tournament="late", action="check" if legal["can_check"] else "fold",
                          decision=legal["decision"])
    assert answer["ok"], answer                         # still their decision, long after its 1 s
