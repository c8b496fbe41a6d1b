"""A client's drawing of a cash table from protocol 1.1 messages alone (issue #20, "state in every message").

It starts from a ``table_snapshot`` (seats with stack and bet, board, pots, whose turn and until when) and then
takes each event's word for what it changes -- a chip-moving hand event says the seat's bet (``to``), its stack
``behind`` and the ``pot`` -- without adding chips up or replaying the hand. The tests compare it with the table
itself, or with a later snapshot.
"""

from __future__ import annotations

from typing import Any

_CHIPS = ("posted", "action_taken", "bet_returned")


class DrawnTable:
    def __init__(self, snapshot: dict[str, Any]) -> None:
        self.seq = snapshot["seq"]
        self.seats = {s["seat"]: {"player": s["player"], "stack": s["stack"], "bet": s["bet"]}
                      for s in snapshot["seats"]}
        self.board = list(snapshot["board"])
        self.pot = sum(p["amount"] for p in snapshot["pots"]) + sum(s["bet"] for s in snapshot["seats"])
        self.to_act, self.deadline = snapshot["to_act"], snapshot["deadline"]
        self.dealt_in = 0                   # the chips dealt into the running hand, from its seat_dealt_in events
        self.dealt: set[int] = set()        # its seats (none known when the snapshot came mid-hand)

    def drawn(self) -> dict[str, Any]:
        """What is on the screen: compare it with :func:`drawn_from_snapshot` of a later snapshot."""
        return {"seats": {n: dict(s) for n, s in self.seats.items()}, "board": self.board, "pot": self.pot,
                "to_act": self.to_act, "deadline": self.deadline}

    def frame(self, frame: dict[str, Any]) -> None:
        for event in frame["events"]:
            self.event(event)
        self.seq = frame["seq"]

    def event(self, e: dict[str, Any]) -> None:
        kind, seat = e["type"], e.get("seat")
        if kind == "player_seated":
            self.seats[seat] = {"player": e["player"], "stack": e["stack"], "bet": 0}
        elif kind == "player_left":
            self.seats.pop(seat, None)
        elif kind == "chips_added":
            self.seats[seat]["stack"] = e["stack"]
        elif kind == "decision_started":
            self.to_act, self.deadline = seat, e["deadline"]
        elif kind in ("reconnect_time_started", "time_bank_started"):
            self.deadline = e["deadline"]
        elif kind == "hand_event":
            self.hand_event(e["event"])

    def hand_event(self, h: dict[str, Any]) -> None:
        kind, seat = h["type"], h.get("seat")
        if kind == "hand_started":
            self.board, self.pot, self.dealt_in, self.dealt = [], 0, 0, set()
        elif kind == "seat_dealt_in":
            self.seats[seat].update(stack=h["stack"], bet=0)
            self.dealt_in += h["stack"]
            self.dealt.add(seat)
        elif kind in _CHIPS:
            if seat in self.seats:
                self.seats[seat].update(stack=h["behind"], bet=h["to"])
            self.pot = h["pot"]
            if kind == "action_taken" and self.to_act == seat:
                self.to_act = self.deadline = None
        elif kind == "board_dealt" and h["run"] == 1:
            self.board = list(h["board"])
            self._gather()
        elif kind == "pot_formed":
            self._gather()
        elif kind == "run_it_twice_answered" and self.to_act == seat:
            self.to_act = self.deadline = None
        elif kind == "hand_ended":
            for seat_number, stack in h["stacks"]:
                if seat_number in self.seats:
                    self.seats[seat_number]["stack"] = stack
            self._gather()
            self.board, self.pot, self.to_act, self.deadline, self.dealt = [], 0, None, None, set()

    def chips_conserved(self) -> bool:
        """In a hand dealt while drawing: the pot plus the stacks behind of those dealt in is what they brought."""
        return not self.dealt or self.pot + sum(self.seats[s]["stack"] for s in self.dealt) == self.dealt_in

    def _gather(self) -> None:
        for s in self.seats.values():
            s["bet"] = 0


def drawn_from_snapshot(snapshot: dict[str, Any]) -> dict[str, Any]:
    return DrawnTable(snapshot).drawn()
