"""Python players in a tournament who check or call whatever comes (the browser tests' rivals)."""

from __future__ import annotations

import threading

from tests.net.server_process import Player
from tests.support.socket_play import PASSWORD, next_push


class Rivals:
    """Python players who check or call whatever comes, each on its own connection, keeping the event's pushes."""

    def __init__(self, url: str, names: list[str]) -> None:
        self.players = []
        self.events: list[dict] = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.threads = []
        for name in names:
            p = Player(url, "pokerroom.v1.json")
            assert p.request("register", nickname=name, password=PASSWORD, birth_date="1980-01-01",
                             country="DE")["ok"]
            assert p.request("login", nickname=name, password=PASSWORD)["ok"]
            assert p.request("tournament_register", tournament="cup")["ok"]
            self.players.append(p)

    def start(self) -> None:
        for p in self.players:
            thread = threading.Thread(target=self._play, args=(p,), daemon=True)
            thread.start()
            self.threads.append(thread)

    def _play(self, p: Player) -> None:
        while not self.stopping.is_set():
            try:
                push = next_push(p, 0.3)
            except TimeoutError:
                continue
            except Exception:                       # the connection closed: the test is over
                return
            if push.get("type") == "tournament_event":
                with self.lock:
                    self.events.append(push["event"])
            if push.get("type") == "tournament_table_events" and "legal" in push:
                legal = push["legal"]
                p.request("tournament_act", tournament="cup", decision=legal["decision"],
                          action="check" if legal["can_check"] else "call")

    def out(self) -> list[str]:
        """The rivals the room told they are out (a bust is told to its player, not the field)."""
        with self.lock:
            return [e["player"] for e in self.events if e["type"] == "busted"]

    def close(self) -> None:
        self.stopping.set()
        for thread in self.threads:
            thread.join(5)
        for p in self.players:
            p.close()
