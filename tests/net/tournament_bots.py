"""Tournament players over real sockets: one thread per connection, each acting when the server says so."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

from tests.net.server_process import Player


class TournamentBot(threading.Thread):
    """Plays every decision of one tournament (loose, with all-ins), accepts deals, and records the events.

    ``on_event`` runs in the bot's thread for every tournament event, and with ``{"type": "table_hand_ended"}``
    when a hand at the bot's table ends; it may send requests through :meth:`ask`, which a bot's own loop
    answers in order.
    """

    def __init__(self, player: Player, name: str, tournament: str, seed: int,
                 on_event: Callable[[TournamentBot, dict], None] | None = None) -> None:
        super().__init__(daemon=True, name=f"bot-{name}")
        self.player = player
        self.name_ = name
        self.tournament = tournament
        self.rng = random.Random(seed)
        self.on_event = on_event
        self.events: list[dict] = []
        self.errors: list[dict] = []
        self.stop = threading.Event()
        self.finished = threading.Event()
        self.failure: Exception | None = None
        self.passive = False                # only check or fold

    def ask(self, request_type: str, /, **fields) -> dict:
        try:
            answer = self.player.request(request_type, **fields)
        except TimeoutError:
            raise TimeoutError(f"no answer to {request_type} {fields} in 10 s; "
                               f"last pushes {self.player.pushes[-3:]}") from None
        if not answer["ok"]:
            self.errors.append(answer)
        return answer                       # pushes that came meanwhile wait in order for the bot's loop

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                try:
                    push = self.player.receive(timeout=0.5)
                except TimeoutError:
                    continue
                self.player.pushes.append(push)
                self._handle_pushes()
        except Exception as e:                          # shown by the test that waits on this bot
            if not self.stop.is_set():
                self.failure = e

    def _handle_pushes(self) -> None:
        while self.player.pushes:
            self._handle(self.player.pushes.pop(0))

    def _handle(self, push: dict) -> None:
        if push.get("tournament") != self.tournament:
            return
        if push["type"] == "tournament_event":
            event = push["event"]
            self.events.append(event)
            if event["type"] == "deal_offered" and self.name_ in event["amounts"]:
                self.ask("deal_answer", tournament=self.tournament, accept=True)
            if event["type"] in ("finished", "cancelled"):
                self.finished.set()
            if self.on_event is not None:
                self.on_event(self, event)
        elif push["type"] == "tournament_table_events":
            if self.on_event is not None and any(e["type"] == "hand_ended" for e in push.get("events", ())):
                self.on_event(self, {"type": "table_hand_ended"})
            if "legal" not in push:
                return
            legal = push["legal"]
            r = 1.0 if self.passive else self.rng.random()
            if legal["can_raise"] and r < 0.08:
                action = {"action": "raise", "to": legal["max_to"]}
            elif legal["can_bet"] and r < 0.15:
                action = {"action": "bet", "to": legal["max_to"] if r < 0.04 else legal["min_to"]}
            elif legal["can_check"]:
                action = {"action": "check"}
            elif r < 0.5:
                action = {"action": "call"}
            else:
                action = {"action": "fold"}
            self.ask("tournament_act", tournament=self.tournament, decision=legal["decision"], **action)
