"""The gateway's session events: a record of who left or came back on which session, decided before it is published.

The gateway alone runs on the strict bus (records packed with msgpack, delivered on a later turn), and the room on
a bus that sends its session events as a broker would while the rest of its payloads are still objects
(:class:`BrokerSessions`): a subscriber must get all it needs from the record, on whatever turn it arrives.
"""

from __future__ import annotations

import pytest
from twisted.internet.task import Clock

from pokerroom.bus.in_process import InProcessBus
from pokerroom.bus.records import (
    DISCONNECTED,
    LOGGED_IN,
    LOGGED_OUT,
    RESUMED,
    TAKEN_OVER,
    SessionBack,
    SessionGone,
)
from pokerroom.bus.strict import StrictBus
from pokerroom.bus.subjects import SESSION_EVENTS, table_public
from pokerroom.gateway.routes import Gateway
from pokerroom.shell.composition import RoomServices
from pokerroom.table.config import tables_from_config
from tests.support.clocked_room import TABLES, Connection, player, resolved, with_token
from tests.support.clocked_room import request as ask


class HookedConnection(Connection):
    """A connection with the gateway's own hooks: what it heard of the players on it, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.hooks: list[str] = []

    def identity_began(self) -> None:
        self.hooks.append("began")

    def identity_ended(self) -> None:
        self.hooks.append("ended")


def heard(bus) -> list:   # noqa: ANN001
    """Every session event ``bus`` delivers from now on, as its subscribers get it."""
    events: list = []
    bus.subscribe(SESSION_EVENTS, lambda subject, event: events.append(event))
    return events


def signed_in(gateway: Gateway, name: str, *tables: str):
    session = gateway.connected(HookedConnection(), "10.0.0.9")
    gateway.identify(session, name)
    for table_id in tables:
        gateway.watch(session, table_id)
    return session


# ---------------------------------------------------------------------- the gateway alone, on the strict bus


def test_HR_DC_1_a_closed_connection_is_a_record_of_who_was_on_it_and_where_delivered_on_a_later_turn():
    clock = Clock()
    bus = StrictBus(clock)
    events = heard(bus)
    gateway = Gateway(bus)
    ana = signed_in(gateway, "ana", "t2", "t1")
    anonymous = gateway.connected(Connection())
    gateway.disconnected(ana)
    gateway.disconnected(anonymous)
    assert events == []                                         # a broker delivers later, never in the call
    clock.advance(0)
    bus.raise_failures()
    assert events == [SessionGone(ana.id, "ana", DISCONNECTED, True, ("t1", "t2"), 0),
                      SessionGone(anonymous.id, None, DISCONNECTED, False, (), 0)]
    assert ana.id != anonymous.id and gateway.by_player["ana"] is ana      # kept for a resume (HR-DC-2)


def test_HR_DC_1_a_logout_is_recorded_before_the_session_forgets_the_player_and_its_tables():
    clock = Clock()
    bus = StrictBus(clock)
    events = heard(bus)
    gateway = Gateway(bus)
    ana = signed_in(gateway, "ana", "t1")
    gateway.returned(ana, LOGGED_IN)
    gateway.forget_identity(ana)
    assert (ana.player_id, ana.tables, "ana" in gateway.by_player) == (None, set(), False)
    assert ana.connection.hooks == ["began", "ended"]           # the edge's own hooks: in the call, not the bus
    clock.advance(0)
    assert events == [SessionBack(ana.id, "ana", LOGGED_IN, ("t1",), 1),
                      SessionGone(ana.id, "ana", LOGGED_OUT, True, ("t1",), 1)]


def test_a_session_taken_over_ends_as_not_the_players_current_one_and_its_close_names_nobody():
    clock = Clock()
    bus = StrictBus(clock)
    events = heard(bus)
    gateway = Gateway(bus)
    old = signed_in(gateway, "ana", "t1")
    closed = old.connection
    gateway.returned(old, LOGGED_IN)
    new = gateway.connected(HookedConnection())
    gateway.take_over(new, old, 4001, "resumed elsewhere")
    gateway.returned(new, RESUMED)
    gateway.disconnected(old)                                   # the edge closes the socket the take-over closed
    clock.advance(0)
    assert {"closed": 4001} in closed.sent and new.tables == {"t1"}
    assert events == [SessionBack(old.id, "ana", LOGGED_IN, ("t1",), 1),
                      SessionGone(old.id, "ana", TAKEN_OVER, False, ("t1",), 1),
                      SessionBack(new.id, "ana", RESUMED, ("t1",), 2),
                      SessionGone(old.id, None, DISCONNECTED, False, (), 1)]


@pytest.mark.parametrize("seed", range(5))
def test_one_players_session_events_keep_their_order_on_a_bus_that_reorders_across_subjects(seed):
    clock = Clock()
    bus = StrictBus(clock, reorder=True, seed=seed)
    events = heard(bus)
    bus.subscribe("table.*.public", lambda subject, frame: None)
    gateway = Gateway(bus)
    session = signed_in(gateway, "ana", "t1")
    for turn in range(3):
        gateway.returned(session, RESUMED)
        bus.publish(table_public("t1"), {"seq": turn})
        gateway.disconnected(session)
        session.connection = HookedConnection()                 # as a resume on the same session would leave it
    clock.advance(0)
    clock.advance(0)
    assert [type(e) for e in events] == [SessionBack, SessionGone] * 3
    assert [e.epoch for e in events] == [1, 1, 2, 2, 3, 3]


# ---------------------------------------------------------------------- the room, with late session events


class BrokerSessions(InProcessBus):
    """The in-process bus, but session events go as a broker sends them: packed, each subscriber its own copy,
    on a later turn -- the room's other payloads are not all records yet."""

    def __init__(self, clock: Clock) -> None:
        super().__init__()
        self.strict = StrictBus(clock)

    def publish(self, subject: str, payload) -> None:   # noqa: ANN001
        (self.strict if subject == SESSION_EVENTS else super()).publish(subject, payload)

    def subscribe(self, pattern: str, handler):   # noqa: ANN001, ANN201
        return (self.strict if pattern == SESSION_EVENTS else super()).subscribe(pattern, handler)


@pytest.fixture(params=["in_process", "broker_sessions"])
def room(request, store):   # noqa: ANN001, ANN201
    clock = Clock()
    bus = InProcessBus() if request.param == "in_process" else BrokerSessions(clock)
    room = RoomServices(tables_from_config(TABLES), store, clock, bus=bus)
    room.startService()
    return room


def settle(room: RoomServices) -> None:
    """Session events delivered (a later turn), and what they made the store write."""
    room.reactor.advance(0)
    strict = getattr(room.bus, "strict", None)
    if strict is not None:
        strict.raise_failures()
    room.recorder.flushed()


def resumed(room: RoomServices, token: str):
    session = room.gateway.connected(Connection(), "10.0.0.4")
    answer = resolved(ask(room, session, "resume", token=token, tables={}))
    assert answer["ok"], answer
    return session


def connected_at(room: RoomServices, name: str) -> bool:
    table = room.tables.runners["t1"].table
    return table.players[table.seat_of(name)].connected


def test_HR_DC_1_HR_DC_2_a_seated_player_who_disconnects_is_disconnected_at_the_table_and_back_on_resume(room):
    events = heard(room.bus)
    ana, _ = player(room, "ana")
    token = with_token(room, ana)
    assert ask(room, ana, "join", table="t1", buy_in=1_000, seat=1)["ok"]
    room.gateway.disconnected(ana)
    settle(room)
    assert not connected_at(room, "ana")
    back = resumed(room, token)
    settle(room)
    assert connected_at(room, "ana")
    assert events == [SessionGone(ana.id, "ana", DISCONNECTED, True, ("t1",), 0),
                      SessionGone(ana.id, "ana", TAKEN_OVER, False, ("t1",), 0),
                      SessionBack(back.id, "ana", RESUMED, ("t1",), 1)]


def test_HR_DC_1_logging_out_at_the_table_disconnects_the_player_there_though_the_session_is_cleared_first(room):
    ana, _ = player(room, "ana")
    assert ask(room, ana, "join", table="t1", buy_in=1_000, seat=1)["ok"]
    assert ask(room, ana, "logout")["ok"]
    assert ana.player_id is None and ana.tables == set()
    settle(room)
    assert not connected_at(room, "ana")


def test_HR_DC_1_a_resume_that_takes_over_a_live_session_never_disconnects_the_player_at_the_table(room):
    ana, old = player(room, "ana")
    token = with_token(room, ana)
    assert ask(room, ana, "join", table="t1", buy_in=1_000, seat=1)["ok"]
    events = heard(room.bus)
    back = resumed(room, token)
    settle(room)
    assert {"closed": 4001} in old.sent and connected_at(room, "ana")
    assert [(type(e), e.why, getattr(e, "current", None)) for e in events] == [
        (SessionGone, TAKEN_OVER, False), (SessionBack, RESUMED, None)]
    room.gateway.disconnected(ana)                                      # the old socket goes: nobody was on it any more
    settle(room)
    assert connected_at(room, "ana") and room.gateway.by_player["ana"] is back


def test_AC_5_a_reminder_stops_with_the_login_it_was_set_in_and_not_with_an_older_one(room):
    clock = room.reactor
    ana, first = player(room, "ana")
    token = with_token(room, ana)
    assert ask(room, ana, "session_reminder", minutes=30)["ok"]
    back = resumed(room, token)                                 # takes the first connection over
    assert ask(room, back, "session_reminder", minutes=45)["ok"]    # before the take-over's record arrives
    settle(room)
    clock.advance(45 * 60)
    second = back.connection
    reminders = [m for m in second.sent if m.get("type") == "reminder"]
    assert reminders == [{"type": "reminder", "minutes_played": 45}]
    assert not [m for m in first.sent if m.get("type") == "reminder"]
    room.gateway.disconnected(back)
    settle(room)
    clock.advance(45 * 60)
    assert [m for m in second.sent if m.get("type") == "reminder"] == reminders


def test_SEC_1_a_connection_record_is_closed_when_its_connection_closes(room):
    ana, _ = player(room, "ana")
    token = with_token(room, ana)
    room.reactor.advance(10)
    back = resumed(room, token)                                 # a resume on a new connection records it
    room.reactor.advance(5)
    room.gateway.disconnected(back)
    settle(room)
    (record,) = room.store.accounts.connections_of("ana")
    assert (record.ip, record.connected_at, record.disconnected_at) == ("10.0.0.4", 10.0, 15.0)


def test_HR_CHAT_2_one_line_a_second_holds_for_the_player_across_a_resume(room):
    ana, _ = player(room, "ana")
    token = with_token(room, ana)
    assert ask(room, ana, "observe", table="t1", on=True)["ok"]
    room.reactor.advance(10)
    assert ask(room, ana, "chat", table="t1", text="hello")["ok"]
    back = resumed(room, token)
    assert ask(room, back, "chat", table="t1", text="again")["error"]["code"] == "chat_too_fast"
    room.reactor.advance(1)
    assert ask(room, back, "chat", table="t1", text="again")["ok"]


def test_SEC_1_another_player_on_the_same_connection_closes_the_record_of_the_one_before(room):
    ana, _ = player(room, "ana")
    bo, _ = player(room, "bo")
    ana_token, bo_token = with_token(room, ana), with_token(room, bo)
    shared = resumed(room, ana_token)
    room.reactor.advance(3)
    assert resolved(ask(room, shared, "resume", token=bo_token, tables={}))["ok"]
    settle(room)
    (ana_record,) = room.store.accounts.connections_of("ana")
    (bo_record,) = room.store.accounts.connections_of("bo")
    assert (ana_record.disconnected_at, bo_record.connected_at, bo_record.disconnected_at) == (3.0, 3.0, None)
