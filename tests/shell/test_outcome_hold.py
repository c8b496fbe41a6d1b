"""The outcome hold: frames go straight through until an outcome waits for its commit; then every frame of the
table waits behind it, and all go out in their order as the commits return (in any order)."""

from __future__ import annotations

from twisted.internet import defer

from pokerroom.bus.in_process import InProcessBus
from pokerroom.shell.outcome_hold import OutcomeHold


def _watched() -> tuple[OutcomeHold, list]:
    bus = InProcessBus()
    seen: list = []
    bus.subscribe("table.t1.public", lambda subject, payload: seen.append(payload))
    return OutcomeHold(bus), seen


def test_frames_with_nothing_in_flight_go_straight_through():
    hold, seen = _watched()
    hold.publish("table.t1.public", "cards")
    assert seen == ["cards"] and hold.first_held() is None


def test_an_outcome_and_everything_after_it_wait_for_its_commit_then_go_in_order():
    hold, seen = _watched()
    first, second = defer.Deferred(), defer.Deferred()
    hold.publish("table.t1.public", "action")
    hold.until(first, mark=1)
    hold.publish("table.t1.public", "hand 1 ended")
    hold.publish("table.t1.public", "hand 2 started")
    hold.until(second, mark=3)
    hold.publish("table.t1.public", "hand 2 ended")
    assert seen == ["action"] and hold.first_held() == 1
    second.callback(None)                       # a later commit returning first shows nothing out of order
    assert seen == ["action"] and hold.first_held() == 1
    first.callback(None)
    assert seen == ["action", "hand 1 ended", "hand 2 started", "hand 2 ended"]
    assert hold.first_held() is None
    hold.publish("table.t1.public", "hand 3 started")
    assert seen[-1] == "hand 3 started"


def test_a_failed_write_lets_the_frames_go_and_keeps_its_failure_for_whoever_waits_on_it():
    hold, seen = _watched()
    landed = defer.Deferred()
    hold.until(landed)
    hold.publish("table.t1.public", "hand ended")
    landed.errback(ValueError("the disk is full"))
    assert seen == ["hand ended"]
    failures = []
    landed.addErrback(failures.append)
    assert failures and failures[0].check(ValueError)
