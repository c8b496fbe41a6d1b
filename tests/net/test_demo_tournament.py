"""``serve --demo`` with bots also runs a demo tournament: the demo director creates it over the protocol and
tournament bots enter it, so a newcomer's admin lobby has a live event to watch (docs/lobbies.md)."""

from __future__ import annotations

from tests.net.server_process import Player, Server
from tests.support.waiting import wait_until


def test_the_demo_director_creates_a_tournament_and_eight_bots_enter_it(tmp_path):
    server = Server(tmp_path, "--max-rate", "100000", "--bots", "2").start()   # it polls as fast as answers come
    try:
        watcher = Player(server.url, "pokerroom.v1.json")

        def eight_entered() -> list:
            listed = watcher.request("tournament_list")["tournaments"]
            if listed and listed[0]["entrants"] >= 8:
                return listed
            watcher.request("lobby_list")                         # a round trip: the room gets on with it
            return []

        (demo,) = wait_until(eight_entered, timeout=30, every=0)
        assert demo["entrants"] == 8 and demo["name"] == "Demo Daily" and demo["state"] == "registering"
        details = watcher.request("tournament_details", tournament=demo["id"])
        assert {s["player"] for s in details["standings"]} == {f"tbot{i:03d}" for i in range(1, 9)}
        assert {level["seconds"] for level in details["structure"]["levels"]} == {120}
        watcher.close()
    finally:
        server.stop()
