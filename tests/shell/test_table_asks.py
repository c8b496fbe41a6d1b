"""What a gateway waits for of a cash table whose process died ends when another process takes the table over
(issue 21): asked just before the SIGKILL, it would wait out the bus's request timeout (10 s), and the player's
next requests behind it -- their join asked again among them -- long after the table plays again elsewhere."""

from __future__ import annotations

from twisted.internet import defer
from twisted.internet.task import Clock

from pokerroom.bus import NoAnswer
from pokerroom.bus.strict import StrictBus
from pokerroom.bus.subjects import TABLES_TAKEN_OVER, table_command
from pokerroom.errors import Unanswered
from pokerroom.shell.asked import answered
from pokerroom.shell.table_asks import TableAsks


def test_a_table_taken_over_ends_what_its_former_owner_never_answered_and_nothing_else():
    clock = Clock()
    bus = StrictBus(clock)
    asks = TableAsks(bus)
    dead: list[defer.Deferred] = []                 # the answers the killed process will never give
    for table in ("t1", "t2"):
        bus.respond(table_command(table), lambda command: dead.append(defer.Deferred()) or dead[-1])
    t1, t2 = [], []
    asks.request("t1", table_command("t1"), "act").addBoth(t1.append)
    asks.request("t2", table_command("t2"), "act").addBoth(t2.append)
    clock.advance(0)
    bus.publish(TABLES_TAKEN_OVER, ["casino", "t1"])     # another kind's table of that name: not this one
    clock.advance(0)
    assert t1 == t2 == [] and len(dead) == 2
    bus.publish(TABLES_TAKEN_OVER, ["cash", "t1"])
    clock.advance(0)
    assert t2 == [] and len(t1) == 1 and t1[0].check(NoAnswer)
    dead[0].callback({"seat": 1})                   # an answer after all (the owner was only hung): goes nowhere
    dead[1].callback({"seat": 2})
    clock.advance(0)
    bus.raise_failures()
    assert len(t1) == 1 and t2 == [{"seat": 2}] and asks.waiting == {}


def test_the_ended_ask_is_a_table_nobody_answered_which_the_gateway_tells_as_moving():
    """Unanswered names the table: the gateway asks ``tables.moving`` of it, and a leased table is ``table_moving``
    (ask again), as when nobody answered at all."""
    clock = Clock()
    bus = StrictBus(clock)
    asks = TableAsks(bus)
    bus.respond(table_command("t1"), lambda command: defer.Deferred())
    told: list = []
    answered(asks.request("t1", table_command("t1"), "act"), "t1", lambda answer: answer).addBoth(told.append)
    clock.advance(0)
    bus.publish(TABLES_TAKEN_OVER, ["cash", "t1"])
    clock.advance(0)
    (failure,) = told
    assert failure.check(Unanswered) and failure.value.table == "t1" and failure.value.kind == "cash"
