"""``serve --demo`` with bots also runs a demo tournament: the demo director creates it over the protocol and
tournament bots enter it, so a newcomer's admin lobby has a live event to watch (docs/lobbies.md)."""

from __future__ import annotations

import time

from tests.net.server_process import Player, Server


def test_the_demo_director_creates_a_tournament_and_eight_bots_enter_it(tmp_path):
    server = Server(tmp_path, "--max-rate", "100000", "--bots", "2").start()   # it polls as fast as answers come
    try:
        watcher = Player(server.url, "pokerroom.v1.json")
        deadline = time.monotonic() + 30
        entrants = 0
        while time.monotonic() < deadline and entrants < 8:
            listed = watcher.request("tournament_list")["tournaments"]
            entrants = listed[0]["entrants"] if listed else 0
            if entrants < 8:
                watcher.request("lobby_list")                     # a round trip: the room gets on with it
        (demo,) = listed
        assert demo["entrants"] == 8 and demo["name"] == "Demo Daily" and demo["state"] == "registering"
        details = watcher.request("tournament_details", tournament=demo["id"])
        assert {s["player"] for s in details["standings"]} == {f"tbot{i:03d}" for i in range(1, 9)}
        assert {level["seconds"] for level in details["structure"]["levels"]} == {120}
        watcher.close()
    finally:
        server.stop()
