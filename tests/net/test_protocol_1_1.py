"""Protocol 1.1 over real sockets: decision-bound actions, answers in request order, a resume that can act.

* A duplicated ``act`` (the same decision sent twice, as a double click or a client that saw one ``legal`` twice)
  is refused with ``stale_decision`` and the player's next decision is untouched (BET-1).
* Requests sent without waiting are answered in the order sent, however long one of them waits (a password hash).
* A resume during one's own turn gives a snapshot with one's own cards and ``legal`` with the same decision id,
  and acting on it works (HR-DC-2); a resume naming what it cannot resume is refused.
"""

from __future__ import annotations

import json
import time

import msgpack
import pytest

from tests.net.server_process import Player, room_config, serving
from tests.support.socket_play import PASSWORD, sign_up

ROOM = room_config(decision=30)             # a decision waits long enough for a loaded test machine


@pytest.fixture
def room(tmp_path):
    with serving(tmp_path, ROOM) as server:
        yield server


def pipelined(player: Player, *requests: tuple[str, dict]) -> list[dict]:
    """Send every request at once, without waiting; the answers in the order they came (pushes kept aside)."""
    first = player.rid + 1
    for kind, fields in requests:
        player.rid += 1
        message = {"type": kind, "rid": player.rid, **fields}
        player.ws.send(msgpack.packb(message) if player.binary else json.dumps(message))
    wanted = set(range(first, player.rid + 1))
    answers = []
    while wanted:
        message = player.receive(timeout=20)
        if "ok" in message and message.get("rid") in wanted:
            wanted.discard(message["rid"])
            answers.append(message)
        else:
            player.pushes.append(message)
    return answers


def taken_legal(player: Player) -> dict | None:
    """The newest ``legal`` among the pushes the player has, taking those pushes (None: no decision there)."""
    found = None
    for i, push in enumerate(player.pushes):
        if "legal" in push:
            found = (i, push["legal"])
    if found is None:
        return None
    del player.pushes[: found[0] + 1]
    return found[1]


def next_decision(players: dict[str, Player], only: str | None = None, timeout: float = 40) -> tuple[str, dict]:
    """The next decision any of ``players`` (or only ``only``) is sent; the others' decisions are checked or
    called as they come, with their own decision ids."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for name, p in players.items():
            legal = taken_legal(p)
            if legal is None:
                try:
                    push = p.receive(timeout=0.05)
                except TimeoutError:
                    continue
                legal = push.get("legal")
                if legal is None:
                    continue
            if only is None or name == only:
                return name, legal
            answer = p.request("act", table="t1", action="check" if legal["can_check"] else "call",
                               decision=legal["decision"])
            assert answer["ok"], answer
    raise TimeoutError("no decision came")


def seated_pair(url: str, tokens: dict[str, str] | None = None) -> dict[str, Player]:
    """ana and bob, signed up and seated at t1 (their session tokens into ``tokens``)."""
    players = {}
    for name in ("ana", "bob"):
        players[name], token = sign_up(url, name)
        if tokens is not None:
            tokens[name] = token
        assert players[name].request("join", table="t1", buy_in=1_000)["ok"]
    return players


def test_BET_1_a_duplicated_act_is_refused_as_stale_and_the_next_decision_is_untouched(room):
    players = seated_pair(room.url)
    name, first = next_decision(players)
    me = players[name]
    action = "check" if first["can_check"] else "call"
    acted = {"table": "t1", "action": action, "decision": first["decision"]}
    done, again = pipelined(me, ("act", acted), ("act", acted))            # a double click
    assert done["ok"], done
    assert again["rid"] == done["rid"] + 1 and not again["ok"]
    assert again["error"]["code"] == "stale_decision" and again["error"]["rule"] == "BET-1"
    # the player's next decision is still theirs to make, under a new id; the old one still acts on nothing
    _, after = next_decision(players, only=name)
    assert after["decision"] != first["decision"]
    me.pushes.clear()                                           # what came before it: nothing to look at
    stale = me.request("act", table="t1", action="fold", decision=first["decision"])
    assert stale["error"]["code"] == "stale_decision"
    assert not [p for p in me.pushes if p.get("event", {}).get("type") == "hand_event"
                and p["event"]["event"]["type"] == "action_taken" and p["event"]["event"]["seat"] == after["seat"]], \
        "the stale act moved the hand"
    answer = me.request("act", table="t1", action="check" if after["can_check"] else "call",
                        decision=after["decision"])
    assert answer["ok"], answer
    mine = me.wait_for(lambda p: p.get("event", {}).get("type") == "hand_event"
                       and p["event"]["event"]["type"] == "action_taken"
                       and p["event"]["event"]["seat"] == after["seat"])
    assert mine["event"]["event"]["action"] == ("check" if after["can_check"] else "call")
    for p in players.values():
        p.close()


def test_answers_come_in_request_order_even_behind_a_password_hash(room):
    fresh = Player(room.url)
    register = {"nickname": "cleo", "password": PASSWORD, "birth_date": "1990-01-01", "country": "NL"}
    answers = pipelined(fresh, ("register", register), ("login", {"nickname": "cleo", "password": PASSWORD}),
                        ("lobby_list", {}))
    assert [(a["rid"], a["type"]) for a in answers] == [(1, "register"), (2, "login"), (3, "lobby_list")]
    assert all(a["ok"] for a in answers), answers               # the login found the account registered before it
    assert answers[2]["tables"]
    # a wrong password (a hash that fails) ahead of quick requests: still answered first
    other = Player(room.url, "pokerroom.v1.json")
    answers = pipelined(other, ("login", {"nickname": "cleo", "password": "not-the-password"}),
                        ("lobby_list", {}), ("login", {"nickname": "cleo", "password": PASSWORD}),
                        ("lobby_list", {}))
    assert [a["rid"] for a in answers] == [1, 2, 3, 4]
    assert answers[0]["error"]["code"] == "bad_login" and answers[1]["ok"] and answers[2]["ok"]
    fresh.close()
    other.close()


def test_a_connection_that_pipelines_too_much_is_refused_in_order_not_queued_without_end(room):
    flood = Player(room.url)
    register = {"nickname": "dora", "password": PASSWORD, "birth_date": "1990-01-01", "country": "NL"}
    answers = pipelined(flood, ("register", register), *[("lobby_list", {})] * 30)
    assert [a["rid"] for a in answers] == list(range(1, 32))
    codes = [a["error"]["code"] for a in answers if not a["ok"]]
    assert set(codes) <= {"too_many_waiting"} and len(codes) <= 30 - 16
    refused = [a["rid"] for a in answers if not a["ok"]]
    assert refused == sorted(refused) and (not refused or refused[0] > 17)    # 16 waited; the rest were refused
    assert flood.request("lobby_list")["ok"]                    # and the connection goes on
    flood.close()


def test_HR_DC_2_a_resume_during_ones_own_turn_gives_ones_cards_and_legal_and_acting_on_it_works(room):
    tokens: dict[str, str] = {}
    players = seated_pair(room.url, tokens)
    name, legal = next_decision(players)
    me = players.pop(name)
    seen = 0                                                    # the real last seq this connection saw
    for push in me.pushes:
        seen = max(seen, push.get("seq", 0))
    while True:
        try:
            push = me.receive(timeout=0.3)
        except TimeoutError:
            break
        seen = max(seen, push.get("seq", 0))
    me.close()                                                  # dropped on their turn
    back = Player(room.url)
    resumed = back.request("resume", token=tokens[name], tables={"t1": seen})
    assert resumed["ok"] and resumed["tables"] == {"t1": "snapshot"}, resumed
    snapshot = back.wait_for(lambda p: p.get("type") == "table_snapshot")
    assert snapshot["legal"]["decision"] == legal["decision"]          # the same decision, the same id
    seat = snapshot["legal"]["seat"]
    mine = [e for e in snapshot["hand"] if e["type"] == "hole_cards_dealt" and e["seat"] == seat]
    assert mine and len(mine[0]["cards"]) == 2                         # their own cards...
    others = [e for e in snapshot["hand"] if e["type"] == "hole_cards_dealt" and e["seat"] != seat]
    assert others and all(e["cards"] == [] for e in others)            # ...and nobody else's
    answer = back.request("act", table="t1", action="check" if legal["can_check"] else "call",
                          decision=snapshot["legal"]["decision"])
    assert answer["ok"], answer
    twice = back.request("act", table="t1", action="fold", decision=snapshot["legal"]["decision"])
    assert twice["error"]["code"] == "stale_decision"                  # the same legal seen twice acts once
    for p in (back, *players.values()):
        p.close()


def test_a_resume_naming_what_it_cannot_resume_is_refused(room):
    tokens: dict[str, str] = {}
    players = seated_pair(room.url, tokens)
    token = tokens["ana"]
    for p in players.values():
        p.close()
    for tables, code in (({"nowhere": 1}, "no_such_table"), ({"t1": 10**9}, "bad_seq")):
        back = Player(room.url)
        refused = back.request("resume", token=token, tables=tables)
        assert not refused["ok"] and refused["error"]["code"] == code, refused
        back.close()
    back = Player(room.url)
    resumed = back.request("resume", token=token, tables={"t1": 0})
    assert resumed["ok"] and resumed["tables"] == {"t1": "snapshot"}     # seq 0: it knows nothing, a snapshot
    back.close()
