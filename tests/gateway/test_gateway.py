"""The gateway built alone on a recording bus: what it answers through its route table, what it forwards to whom
from the bus, and what it publishes -- no room, no table host, no service but the ones a test serves on it.

Frames come as a table host would publish them (:class:`~pokerroom.bus.records.Frame` on a table's public
stream and its seats' streams) and reach a connection after the bus's later turn, packed and unpacked on the way.
"""

from __future__ import annotations

import pytest
from twisted.internet import defer
from twisted.internet.task import Clock

from pokerroom.bus import NoAnswer, NoResponder
from pokerroom.bus.records import DISCONNECTED, LOGGED_IN, Frame, SessionBack, SessionGone
from pokerroom.bus.subjects import (
    LOBBY_UPDATE,
    SESSION_EVENTS,
    TABLES_MOVING,
    player_stream,
    table_closed,
    table_public,
    table_seat,
)
from pokerroom.errors import RuleViolation, Unanswered, table_moving
from pokerroom.gateway.routes import Gateway
from pokerroom.protocol.schema import parse_request
from tests.support.clocked_room import Connection
from tests.support.recording_bus import RecordingBus


def frame(seq: int, *instead: str, cards: tuple[int, ...] = ()) -> Frame:
    """A table's frame for t1 whose one event is ``seq`` (a seat's own when it shows ``cards``)."""
    event = {"type": "hand_event", "seq": seq, "hand_id": "t1-1",
             "event": {"type": "hole_cards_dealt", "seq": seq, "seat": 1, "cards": list(cards)}}
    return Frame({"type": "table_events", "table": "t1", "seq": seq, "events": [event]}, instead=instead)


def seqs(connection: Connection) -> list[int]:
    return [m["seq"] for m in connection.sent if m.get("type") == "table_events"]


class Cashier:
    """A service with a public read, a read for players only, a refusal and a failure, as the gateway routes them."""

    def __init__(self) -> None:
        self.asked: list[tuple[str | None, dict]] = []

    def _on_lobby_list(self, session, request):   # noqa: ANN001, ANN202
        self.asked.append((session.player_id, {}))
        return {"type": "lobby_list", "rid": request.rid, "ok": True, "tables": []}

    def _on_tournament_list(self, session, request):   # noqa: ANN001, ANN202
        self.asked.append((session.player_id, {}))
        return defer.succeed({"type": "tournament_list", "rid": request.rid, "ok": True, "tournaments": []})

    def _on_deposit(self, session, request, amount: int, **_):   # noqa: ANN001, ANN202
        self.asked.append((session.player_id, {"amount": amount}))
        if amount > 1_000:
            raise RuleViolation("over_limit", "that is over your deposit limit", "AC-5")
        return defer.fail(ConnectionError("the store went away"))


@pytest.fixture
def cashier():
    return Cashier()


@pytest.fixture
def gateway(cashier):
    gateway = Gateway(RecordingBus(Clock()))
    gateway.serve(cashier, public={"lobby_list"})
    return gateway


def ask(gateway: Gateway, session, kind: str, **fields) -> dict:   # noqa: ANN001
    answer = gateway.handle(session, parse_request({"type": kind, "rid": 7, **fields}))
    if isinstance(answer, defer.Deferred):
        return gateway.bus.answer(answer)
    return answer


def test_a_request_goes_to_the_service_that_serves_its_type_and_a_public_one_needs_no_login(gateway, cashier):
    anonymous = gateway.connected(Connection())
    assert ask(gateway, anonymous, "lobby_list")["ok"]
    refused = ask(gateway, anonymous, "tournament_list")
    assert (refused["ok"], refused["error"]["code"]) == (False, "not_logged_in")
    gateway.identify(anonymous, "ana")
    answer = ask(gateway, anonymous, "tournament_list")
    assert answer == {"type": "tournament_list", "rid": 7, "ok": True, "tournaments": []}
    assert [who for who, _ in cashier.asked] == [None, "ana"]


def test_AC_5_a_refusal_keeps_its_code_and_rule_and_a_failure_is_a_server_error_never_a_traceback(gateway):
    ana = gateway.connected(Connection())
    gateway.identify(ana, "ana")
    refused = ask(gateway, ana, "deposit", amount=5_000)
    assert (refused["ok"], refused["error"]["code"], refused["error"]["rule"]) == (False, "over_limit", "AC-5")
    failed = ask(gateway, ana, "deposit", amount=500)
    assert (failed["ok"], failed["error"]["code"]) == (False, "server_error")
    assert "Traceback" not in repr(failed)


def test_a_type_nobody_serves_is_refused_with_a_code_and_two_services_may_not_serve_one(gateway):
    ana = gateway.connected(Connection())
    gateway.identify(ana, "ana")
    refused = ask(gateway, ana, "chat", table="t1", text="hi")
    assert refused["error"]["code"] == "unknown_type"
    with pytest.raises(ValueError, match="two services answer"):
        gateway.serve(Cashier())


def test_an_observer_hears_the_public_stream_and_a_seated_player_the_whole_table_on_their_seats_alone(gateway):
    bus = gateway.bus
    watching, sitting = Connection(), Connection()
    eve, ana = gateway.connected(watching), gateway.connected(sitting)
    gateway.identify(ana, "ana")
    gateway.watch(eve, "t1")
    gateway.watch(ana, "t1")
    bus.publish(table_public("t1"), frame(1, "ana", "bo"))                # ana gets the table on her seat's stream
    bus.publish(table_seat("t1", "ana"), frame(1, cards=(48, 49)))
    bus.publish(table_public("t1"), frame(2, "ana"))
    bus.publish(table_seat("t1", "ana"), frame(2))
    bus.publish(table_seat("t1", "bo"), frame(2))                   # another seat's stream: not hers
    assert watching.sent == sitting.sent == []                      # delivered on a later turn, as a broker does
    bus.clock.advance(0)
    assert seqs(watching) == [1, 2] and seqs(sitting) == [1, 2]
    assert sitting.sent[0]["events"][0]["event"]["cards"] == [48, 49]
    assert watching.sent[0]["events"][0]["event"]["cards"] == []    # the gateway forwards; it never redacts


def test_a_session_stops_hearing_a_table_it_unwatches_or_that_closes_and_a_closed_connection_hears_nothing(gateway):
    bus = gateway.bus
    connections = [Connection() for _ in range(3)]
    eve, ana, bo = (gateway.connected(c) for c in connections)
    gateway.identify(ana, "ana")
    gateway.identify(bo, "bo")
    for session in (eve, ana, bo):
        gateway.watch(session, "t1")
    gateway.unwatch(eve, "t1")
    gateway.disconnected(bo)
    bus.publish(table_public("t1"), frame(1, "ana", "bo"))
    bus.publish(table_seat("t1", "ana"), frame(1))
    bus.publish(table_seat("t1", "bo"), frame(1))
    bus.publish(table_closed("t1"), "t1")
    bus.clock.advance(0)
    assert [seqs(c) for c in connections] == [[], [1], []]
    assert ana.tables == set() and bo.tables == set()       # bo may resume later: not into a closed table
    bus.publish(table_public("t1"), frame(2))
    bus.publish(table_seat("t1", "ana"), frame(2))
    bus.clock.advance(0)
    assert seqs(connections[1]) == [1]


def test_a_signed_in_player_hears_their_own_stream_and_a_lobby_follower_the_lobby_updates(gateway):
    bus = gateway.bus
    connection = Connection()
    ana = gateway.connected(connection)
    bus.publish(player_stream("ana"), Frame.of({"type": "reminder", "minutes_played": 60}))
    bus.clock.advance(0)
    assert connection.sent == []                                    # nobody is signed in on it yet
    gateway.identify(ana, "ana")
    gateway.follow_lobby(ana, True)
    bus.publish(player_stream("ana"), Frame.of({"type": "reminder", "minutes_played": 60}))
    bus.publish(LOBBY_UPDATE, Frame.of({"type": "lobby_update", "tables": [], "closed": ["t9"]}))
    bus.clock.advance(0)
    assert [m["type"] for m in connection.sent] == ["reminder", "lobby_update"]
    gateway.follow_lobby(ana, False)
    bus.publish(LOBBY_UPDATE, Frame.of({"type": "lobby_update", "tables": [], "closed": ["t8"]}))
    bus.clock.advance(0)
    assert len(connection.sent) == 2


def test_HR_DC_1_what_the_gateway_publishes_is_its_session_events_as_records_and_nothing_else(gateway):
    bus = gateway.bus
    ana = gateway.connected(Connection())
    gateway.identify(ana, "ana")
    gateway.watch(ana, "t1")
    gateway.returned(ana, LOGGED_IN)
    gateway.disconnected(ana)
    bus.clock.advance(0)
    assert bus.published == [(SESSION_EVENTS, SessionBack(ana.id, "ana", LOGGED_IN, ("t1",), 1)),
                             (SESSION_EVENTS, SessionGone(ana.id, "ana", DISCONNECTED, True, ("t1",), 1))]
    assert gateway.by_player["ana"] is ana and ana.streams == {}     # kept for a resume, with no subscription left


class _TenancyAsked:
    """A bus on which the side that knows the leases answers ``tables.moving`` with ``answer`` (a result, or a
    failure): what the gateway relays of a table nobody answered for."""

    def __init__(self, answer) -> None:  # noqa: ANN001
        self.answer = answer
        self.asked: list = []

    def subscribe(self, pattern, handler) -> None:  # noqa: ANN001
        pass

    def request(self, subject, payload) -> defer.Deferred:  # noqa: ANN001
        self.asked.append((subject, payload))
        return defer.fail(self.answer) if isinstance(self.answer, Exception) else defer.succeed(self.answer)


class _Casino:
    def _on_casino_rules(self, session, request, table: str, **_):   # noqa: ANN001, ANN202
        raise Unanswered("unknown_table", f"there is no casino table {table!r}", table, "casino")


@pytest.mark.parametrize(("answer", "code"), [
    (None, "unknown_table"),                                        # the tenancy: not leased, so no such table
    (table_moving("casino", "rou"), "table_moving"),                # the tenancy: between owners
    (NoResponder("nobody answers tables.moving"), "unknown_table"),  # a room with no leases: nobody to ask
    (NoAnswer("nobody answered tables.moving within 10 s"), "table_moving"),   # the broker away: ask again
], ids=["gone", "moving", "no-leases", "unanswered"])
def test_a_table_nobody_answered_for_is_told_as_the_side_that_knows_its_lease_says(answer, code):
    bus = _TenancyAsked(answer)
    gateway = Gateway(bus)
    gateway.serve(_Casino())
    session = gateway.connected(Connection())
    gateway.identify(session, "ana")
    told = gateway.handle(session, parse_request({"type": "casino_rules", "rid": 3, "table": "rou"}))
    assert isinstance(told, dict) and told["error"]["code"] == code, told
    assert bus.asked == [(TABLES_MOVING, ["casino", "rou"])]
    if code == "table_moving":
        assert told["error"]["message"] == ("casino table rou is moving to another server of the room (its own "
                                            "stopped); ask again in a few seconds")
