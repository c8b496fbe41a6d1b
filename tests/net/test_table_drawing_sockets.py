"""Over real sockets: a watcher draws the table from its snapshot and then from the events alone (issue #20).

Two players play with bets and raises; a third connection only watches, in JSON. It draws from the
``table_snapshot`` and then takes each event's word (a seat's ``to``, its stack ``behind``, the ``pot``, a
decision's absolute ``deadline``) without adding chips up. Every so often it asks for a fresh snapshot on the
same connection: frames come in order, so the snapshot must show exactly what it has drawn.
"""

from __future__ import annotations

import json
import random
import time

import pytest

from pokerroom.protocol.pushes import verify_message
from tests.net.server_process import Server
from tests.support.drawn_table import DrawnTable, drawn_from_snapshot
from tests.support.socket_play import sign_up


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path).start()
    yield s
    s.stop()


def test_a_watcher_draws_the_table_from_the_snapshot_and_then_from_the_events_alone(server):
    players = {name: sign_up(server.url, name)[0] for name in ("ana", "bob")}
    for seat, p in enumerate(players.values(), 1):
        assert p.request("join", table="t1", buy_in=1_000, seat=seat)["ok"]
    watcher, _ = sign_up(server.url, "ozzy", "pokerroom.v1.json")
    watcher.ws.send('{"type": "observe", "rid": 1, "table": "t1", "on": true}')
    rng = random.Random(20)
    drawn: DrawnTable | None = None
    checked = hands = 0
    deadline = time.monotonic() + 60
    while (hands < 6 or checked < 4) and time.monotonic() < deadline:
        for p in players.values():                          # the players act on their decisions
            try:
                push = p.pushes.pop(0) if p.pushes else p.receive(timeout=0.02)
            except TimeoutError:
                continue
            if push.get("type") == "table_event" and "legal" in push:
                legal = push["legal"]
                if (legal["can_bet"] or legal["can_raise"]) and rng.random() < 0.3:
                    p.request("act", table="t1", action="bet" if legal["can_bet"] else "raise",
                              to=min(legal["max_to"], legal["min_to"] + rng.choice([0, 0, 10, 35])))
                else:
                    p.request("act", table="t1", action="check" if legal["can_check"] else "call")
        try:
            frame = watcher.ws.recv(timeout=0.02)
        except TimeoutError:
            continue
        message = json.loads(frame)
        verify_message(message)
        if message.get("type") == "table_snapshot":
            if drawn is None:
                drawn = DrawnTable(message)
            else:                                           # what it drew is what the room shows now
                assert message["seq"] == drawn.seq
                assert drawn_from_snapshot(message) == drawn.drawn()
                checked += 1
        elif message.get("type") == "table_events" and drawn is not None:
            drawn.frame(message)
            assert drawn.chips_conserved(), message
            ended = [e for e in message["events"] if e["type"] == "hand_event"
                     and e["event"]["type"] in ("hand_ended", "board_dealt")]
            hands += sum(e["event"]["type"] == "hand_ended" for e in ended)
            if ended and rng.random() < 0.5:                # a check mid-hand or between hands
                watcher.ws.send('{"type": "observe", "rid": 2, "table": "t1", "on": true}')
    assert drawn is not None and hands >= 6 and checked >= 4, (hands, checked)
    for p in (*players.values(), watcher):
        p.close()
