"""Python players in a tournament who check or call whatever comes, and say at their table what they are given
(the browser tests' rivals)."""

from __future__ import annotations

import threading

from tests.net.server_process import Player
from tests.support.socket_play import PASSWORD, next_push


class Rivals:
    """Python players who check or call whatever comes, each on its own connection, keeping the event's pushes and
    the chat lines they hear; each says at their table what :meth:`say` gives them."""

    def __init__(self, url: str, names: list[str]) -> None:
        self.players = []
        self.names = names
        self.events: list[dict] = []
        self.heard: list[tuple[str, str, str]] = []         # (who heard it, the speaker, the text)
        self.to_say: dict[int, list[str]] = {}
        self.tables: dict[int, str] = {}
        self.said: list[dict] = []                          # the answers to their chat lines
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
        for i, p in enumerate(self.players):
            thread = threading.Thread(target=self._play, args=(i, p), daemon=True)
            thread.start()
            self.threads.append(thread)

    def say(self, index: int, text: str) -> None:
        """Rival ``index`` says ``text`` at their table (on their own thread: one connection, one reader)."""
        with self.lock:
            self.to_say.setdefault(index, []).append(text)

    def _play(self, index: int, p: Player) -> None:
        while not self.stopping.is_set():
            with self.lock:
                texts = self.to_say.pop(index, [])
            for text in texts:
                answer = p.request("tournament_chat", tournament="cup", table=self.tables.get(index, ""), text=text)
                with self.lock:
                    self.said.append(answer)
            try:
                push = next_push(p, 0.3)
            except TimeoutError:
                continue
            except Exception:                       # the connection closed: the test is over
                return
            if push.get("type") == "tournament_event":
                with self.lock:
                    self.events.append(push["event"])
            if push.get("type") == "tournament_chat":
                with self.lock:
                    self.heard.append((self.names[index], push["player"], push["text"]))
            if push.get("type") == "tournament_table_events":
                self.tables[index] = push["table"]
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
