"""A table scenario on a ``Clock`` through the real :class:`~pokerroom.shell.runner.Timer`: the decision clock and
time banks run as the reactor would run them, and only when the test advances the clock."""

from __future__ import annotations

from twisted.internet.task import Clock

from pokerroom.poker.actions import action_words
from pokerroom.shell.runner import Timer
from pokerroom.table import DecisionTimes, TimeBankRules
from pokerroom.table import commands as tc
from tests.table.scenario import SEAT, Scenario

TIMES = DecisionTimes(preflop=10, flop=15, turn=20, river=25)
RECORDS = {"sit": tc.Sit, "leave": tc.Leave, "sit_out": tc.SitOut, "sit_in": tc.SitIn, "disconnect": tc.Disconnect,
           "reconnect": tc.Reconnect, "timeout": tc.Timeout, "time_bank_expired": tc.TimeBankExpired,
           "start_hand": tc.StartHand}


class Timed:
    """A scenario whose table runs on a ``Clock`` through the real :class:`~pokerroom.shell.runner.Timer`."""

    def __init__(self, shown=None, **rules) -> None:
        rules.setdefault("decision_times", TIMES)
        rules.setdefault("time_bank", TimeBankRules(initial=30, refill=5, every_hands=2, cap=40))
        rules.setdefault("between_hands", 2)
        self.game = Scenario(button="A", **rules)
        self.clock = Clock()
        self.clock.advance(self.game.now)
        self.log = self.game.log
        self.timer = Timer(self.game.table, self.clock, self.log.extend, shown=shown)

    def do(self, command: str, *args, **kwargs):
        """A command as the scenarios write it (the table method's name and its arguments), sent to the timer as
        its record; an ``act`` with its action object in the client's words."""
        if command == "act":
            player, action = args
            return self.timer.command(tc.Act(player, *action_words(action), None))
        return self.timer.command(RECORDS[command](*args, **kwargs))

    def sit(self, *names: str) -> None:
        for name in names:
            self.do("sit", name, SEAT[name], 100)

    def advance(self, seconds: float) -> list:
        start = len(self.log)
        self.clock.advance(seconds)
        return self.log[start:]

    def to_act(self) -> int | None:
        hand = self.game.table.hand
        return hand.to_act() if hand is not None else None
