"""The hall's timers on the room's one Timer, in its one lifecycle (issue 35): the next hand counts its pause from
when the last hand's end is shown, and once the room stops nothing of the hall fires."""

from __future__ import annotations

from twisted.internet.defer import Deferred
from twisted.internet.task import Clock

from pokerroom.players import AccountRules
from pokerroom.shell.composition import RoomServices
from pokerroom.shell.promotions_desk import fund_promotions
from tests.support.clocked_room import settle
from tests.support.hall_lobby import Lobby, started
from tournament import commands as tc
from tournament import director as td


class RoomHallLobby(Lobby):
    """The lobby of the hall the composition root built, so that stopping the root stops it."""

    def __init__(self, store) -> None:   # noqa: ANN001
        self.clock = Clock()
        self.room = RoomServices([], store, self.clock, account_rules=AccountRules(),
                                 config={"tournaments": {"decision_seconds": 10}})
        self.room.startService()
        self.hall = self.room.hall
        fund_promotions(self.room.wallet, self.room.recorder, "deposit", 10_000_000, "house", "guarantees")
        self.rid = 0
        self.people = {}


def test_TR_PLAY_1_after_stopService_no_timer_of_the_hall_fires(store):
    lobby = RoomHallLobby(store)
    lobby.create(level_seconds=100)
    for name in ("ana", "bo", "cy"):
        lobby.person(name)
        assert lobby.ask(name, "tournament_register", tournament="sng")["ok"]
    d = lobby.hall.directors["sng"]
    lobby.clock.advance(1)                                          # the first hand is dealt, a decision waits
    assert d.state == td.RUNNING and any(t.hand is not None for t in d.tables.values())
    assert lobby.hall.runner("sng").timer.pending is not None       # the level clock's step
    assert lobby.hall.decisions.timers                              # and the decision's clock
    stopped: list = []
    lobby.room.stopService().addBoth(stopped.append)
    settle(lobby.room)
    lobby.clock.advance(1)
    assert stopped and not lobby.room.running
    level, hands = d.clock.level, [(t.id, t.hand) for t in d.tables.values()]
    assert lobby.hall.runner("sng").timer.pending is None and not lobby.hall.decisions.timers
    for _ in range(100):
        lobby.clock.advance(60)                                     # levels, decisions and hands would all be due
    assert d.clock.level == level and [(t.id, t.hand) for t in d.tables.values()] == hands
    assert lobby.clock.getDelayedCalls() == []


class HeldWrites:
    """The recorder's port with each tournament step's commit held until the test lets it land."""

    def __init__(self, recording) -> None:   # noqa: ANN001
        self.recording = recording
        self.held: list[Deferred] = []

    def record_step(self, step) -> Deferred:   # noqa: ANN001
        self.recording.record_step(step)
        landed = Deferred()
        self.held.append(landed)
        return landed

    def land(self) -> None:
        held, self.held = self.held, []
        for landed in held:
            landed.callback(None)


def test_TR_PLAY_1_the_next_hand_waits_its_pause_from_when_the_last_hands_end_is_shown_on_the_one_timer(store):
    lobby, d = started(store)
    table = next(iter(d.tables.values()))
    writes = lobby.hall.recording = HeldWrites(lobby.hall.recording)
    while table.hand is not None:                                   # the decisions' timers play the hand out
        lobby.clock.advance(10)
    assert writes.held                                              # its end waits for its commit
    timer = lobby.hall.timers.hand_timers[("sng", table.id)]
    assert timer.pending is None and lobby.hall.timers.next_hand[("sng", table.id)].deals   # held, not counting
    lobby.clock.advance(30)
    assert table.hand is None                                       # never dealt on an outcome nobody has seen
    writes.land()                                                   # shown now: the pause of 1 s starts
    assert timer.pending.at == lobby.clock.seconds() + 1 and not timer.pending.deals
    lobby.clock.advance(0.99)
    assert table.hand is None
    lobby.clock.advance(0.01)
    assert table.hand is not None


class KeptWrites:
    """The recorder's port, keeping each tournament step it is given."""

    def __init__(self, recording) -> None:   # noqa: ANN001
        self.recording = recording
        self.steps: list = []

    def record_step(self, step) -> Deferred:   # noqa: ANN001
        self.steps.append(step)
        return self.recording.record_step(step)


def test_SEC_1_the_tournament_runner_stores_a_step_whole_and_a_mid_hand_action_not_at_all(store):
    lobby, d = started(store)
    table = next(iter(d.tables.values()))
    writes = lobby.hall.recording = KeptWrites(lobby.hall.recording)
    runner = lobby.hall.runner("sng")
    player, _ = table.to_act()
    events = runner.apply(tc.Act(player, "fold", None, None), lobby.clock.seconds())
    assert runner.transfers(events) == {}                               # a fold moves no money
    lobby.hall.run(d, events)
    assert table.hand is not None and writes.steps == []                # mid-hand: nothing a snapshot keeps changed
    while table.hand is not None:                                       # the decisions' timers play it out
        lobby.clock.advance(10)
    assert len(writes.steps) >= 1
    ended = writes.steps[0]
    assert len(ended.hands) == 1 and ended.step is not None             # the hand and the director, in one write
    assert ended.hands[0][0][1] == table.id and ended.step[0] == "sng"
