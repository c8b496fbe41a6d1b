"""Answers a room gives in process carry wire values only: what the socket clients would choke on is caught here."""

from __future__ import annotations

from twisted.internet.task import Clock

from pokerroom.protocol.pushes import verify_answer
from tests.support.clocked_room import make_room, player, request, resolved


def test_AC_5_a_timed_exclusion_after_a_permanent_one_answers_null_not_infinity(store):
    clock = Clock()
    room = make_room(store, clock)
    ana, _ = player(room, "ana")
    for days in (None, 5):
        answer = resolved(request(room, ana, "self_exclude", days=days))
        verify_answer(answer)                               # an infinite float is no JSON number
        assert answer["ok"] is True and answer["until"] is None
    assert ana.excluded_until == float("inf")               # still for good: it cannot be shortened (AC-5)
