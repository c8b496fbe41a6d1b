"""One bus subscription per watched public stream in a process, its frames written to every local viewer in one loop
(issue 36): what each viewer hears is what it heard with a subscription of its own."""

from __future__ import annotations

from twisted.internet.task import Clock

from pokerroom.bus.in_process import InProcessBus
from pokerroom.bus.records import Frame
from pokerroom.bus.subjects import LOBBY_UPDATE, table_public, table_seat
from pokerroom.gateway.routes import Gateway
from tests.support.clocked_room import Connection
from tests.support.recording_bus import RecordingBus


def frame(seq: int, *instead: str) -> Frame:
    return Frame({"type": "table_events", "table": "t1", "seq": seq, "events": []}, instead=instead)


def seqs(connection: Connection) -> list[int]:
    return [m["seq"] for m in connection.sent if m.get("type") == "table_events"]


def subscribers(bus: InProcessBus, subject: str) -> int:
    return len(bus.exact.get(subject, ()))


def test_a_process_holds_one_subscription_per_public_stream_however_many_watch_and_none_once_nobody_does():
    bus = InProcessBus()
    gateway = Gateway(bus)
    sessions = [gateway.connected(Connection()) for _ in range(5)]
    gateway.identify(sessions[0], "ana")
    for session in sessions:
        gateway.watch(session, "t1")
    assert subscribers(bus, table_public("t1")) == 1
    assert subscribers(bus, table_seat("t1", "ana")) == 1           # a seat's stream stays the viewer's own
    for session in sessions[:4]:
        gateway.unwatch(session, "t1")
    assert subscribers(bus, table_public("t1")) == 1
    gateway.disconnected(sessions[4])
    assert subscribers(bus, table_public("t1")) == 0 and gateway.fanouts == {}
    for session in sessions[:2]:
        gateway.follow_lobby(session, True)
    assert subscribers(bus, LOBBY_UPDATE) == 1


def test_HR_DC_2_each_viewer_hears_the_public_frames_but_those_naming_it_instead_and_held_ones_wait_for_its_catch_up():
    bus = RecordingBus(Clock())
    gateway = Gateway(bus)
    connections = [Connection() for _ in range(3)]
    eve, ana, cy = (gateway.connected(c) for c in connections)
    gateway.identify(ana, "ana")
    for session in (eve, ana, cy):
        gateway.watch(session, "t1")
    gateway.hold(cy, "t1")                                      # cy is being caught up (a resume)
    bus.publish(table_public("t1"), frame(1, "ana"))             # ana hears the table on her seat's stream
    bus.publish(table_public("t1"), frame(2, "ana"))
    bus.clock.advance(0)
    assert [seqs(c) for c in connections] == [[1, 2], [], []]
    gateway.release(cy, "t1", 1)                                 # the catch-up carried frame 1
    assert seqs(connections[2]) == [2]


def test_a_viewer_that_leaves_while_a_frame_goes_round_gets_nothing_more():
    bus = InProcessBus()
    gateway = Gateway(bus)

    class Leaving(Connection):
        def send_frame(self, frame: Frame) -> None:
            super().send_frame(frame)
            gateway.unwatch(later, "t1")                         # hearing the frame, it makes the next viewer leave

    first, second = Leaving(), Connection()
    early, later = gateway.connected(first), gateway.connected(second)
    gateway.watch(early, "t1")
    gateway.watch(later, "t1")
    bus.publish(table_public("t1"), frame(1))
    assert seqs(first) == [1] and seqs(second) == []


def test_viewers_joining_and_leaving_between_frames_hear_exactly_the_frames_sent_while_they_watch():
    bus = InProcessBus()
    gateway = Gateway(bus)
    connections = [Connection() for _ in range(200)]
    sessions = [gateway.connected(c) for c in connections]
    for session in sessions[:100]:
        gateway.watch(session, "t1")
    bus.publish(table_public("t1"), frame(1))
    for session in sessions[100:]:                              # many join before the next frame
        gateway.watch(session, "t1")
    for session in sessions[:50]:                               # and some leave
        gateway.unwatch(session, "t1")
    bus.publish(table_public("t1"), frame(2))
    heard = [seqs(c) for c in connections]
    assert heard[:50] == [[1]] * 50 and heard[50:100] == [[1, 2]] * 50 and heard[100:] == [[2]] * 100
