"""A resume asks the table host what it needs of the tables (``tables.resume``, then ``table.<id>.catch_up``) on a
bus that serialises every message and answers on a later turn, as a broker would: the refusals keep their codes,
nothing changes before the host has answered, and the session is subscribed before it is caught up (HR-DC-2)."""

from __future__ import annotations

from twisted.internet.task import Clock

from pokerroom.bus.records import ResumeRead
from pokerroom.bus.strict import StrictBus
from pokerroom.bus.subjects import CASH_TABLES_RESUME
from pokerroom.errors import RuleViolation
from pokerroom.players import AccountRules
from pokerroom.protocol.schema import parse_request
from pokerroom.shell.composition import RoomServices
from pokerroom.shell.every_node import ask_every_node, resumable
from pokerroom.table.config import tables_from_config
from tests.support.clocked_room import TABLES, Connection, bus_turn, player, request, resolved, with_token

TWO_TABLES = {"tables": [*TABLES["tables"], {**TABLES["tables"][0], "id": "t2"}]}


class SeenBus(StrictBus):
    """The strict bus, keeping the order of the subscriptions made and the requests sent."""

    def __init__(self, reactor: Clock) -> None:
        super().__init__(reactor)
        self.seen: list[tuple[str, str]] = []

    def subscribe(self, pattern, handler):   # noqa: ANN001, ANN201
        self.seen.append(("subscribe", pattern))
        return super().subscribe(pattern, handler)

    def request(self, subject, payload):   # noqa: ANN001, ANN201
        self.seen.append(("request", subject))
        return super().request(subject, payload)

    def gather(self, subject, payload, expected, **waits):   # noqa: ANN001, ANN003, ANN201
        self.seen.append(("gather", subject))
        return super().gather(subject, payload, expected, **waits)


def strict_room(store, clock: Clock) -> RoomServices:   # noqa: ANN001
    room = RoomServices(tables_from_config(TWO_TABLES), store, clock, account_rules=AccountRules(), bus=SeenBus(clock))
    room.startService()
    return room


def asked(room: RoomServices, read: ResumeRead):   # noqa: ANN001, ANN201
    """The host's answer to ``read`` over the strict bus: the answer, or the refusal it carried back."""
    out: list = []
    ask_every_node(room.bus, CASH_TABLES_RESUME, read, resumable).addCallbacks(
        out.append, lambda failure: out.append(failure.value))
    for _ in range(10):
        room.reactor.advance(0)
    assert out, "the host did not answer"
    return out[0]


def seated_and_gone(room: RoomServices, clock: Clock) -> tuple[str, int]:
    """ana sits at t1 and plays a little, then her connection drops: her token and the last seq she saw."""
    ana, connection = player(room, "ana")
    bo, _ = player(room, "bo")
    assert request(room, ana, "join", table="t1", buy_in=1_000, seat=1)["ok"]
    assert request(room, bo, "join", table="t1", buy_in=1_000, seat=2)["ok"]
    clock.advance(1.0)
    last_seen = max(e["seq"] for m in connection.sent if m.get("type") == "table_events" for e in m["events"])
    token = with_token(room, ana)
    room.gateway.disconnected(ana)
    clock.advance(20.0)                                     # a timeout acts for her meanwhile
    return token, last_seen


def test_HR_DC_2_the_host_answers_which_tables_a_resume_may_name_and_refuses_the_others_with_their_codes(store):
    clock = Clock()
    room = strict_room(store, clock)
    ana, _ = player(room, "ana")
    bo, _ = player(room, "bo")
    assert request(room, ana, "join", table="t1", buy_in=1_000, seat=1)["ok"]
    assert request(room, bo, "join", table="t1", buy_in=1_000, seat=2)["ok"]
    newest = room.tables.runners["t1"].table.seq
    assert asked(room, ResumeRead("ana", (), (("t1", newest),), ("t2",))) == {"open": ["t1", "t2"], "seated": ["t1"]}
    assert asked(room, ResumeRead("cy", ("t1",), (("t1", 0),))) == {"open": ["t1"], "seated": []}   # watched, not sat
    for read, code in ((ResumeRead("ana", (), (("nowhere", 1),)), "no_such_table"),
                       (ResumeRead("cy", (), (("t1", 0),)), "not_watching"),
                       (ResumeRead("ana", (), (("t1", newest + 1),)), "bad_seq"),
                       (ResumeRead("ana", (), (("t1", 0), ("a-gone", 0))), "no_such_table")):   # the first in order
        refusal = asked(room, read)
        assert isinstance(refusal, RuleViolation) and refusal.code == code, (read, refusal)
    room.bus.raise_failures()


def test_HR_DC_2_a_refused_resume_changes_nothing_and_a_closed_table_is_no_error(store):
    clock = Clock()
    room = strict_room(store, clock)
    token, last_seen = seated_and_gone(room, clock)
    for tables, code in (({"nowhere": 1}, "no_such_table"), ({"t2": 0}, "not_watching"),
                         ({"t1": 10**9}, "bad_seq")):
        fresh = room.gateway.connected(Connection(), "10.0.0.4")
        refused = resolved(request(room, fresh, "resume", token=token, tables=tables))
        assert refused["error"]["code"] == code, refused
        assert fresh.player_id is None and fresh.tables == set()        # nothing changed: not anyone yet
    assert room.gateway.by_player["ana"].connection is None                   # still the dropped session's
    room.tables.close_table("t2")                                      # empty: it leaves the room at once
    clock.advance(0)
    back = Connection()
    fresh = room.gateway.connected(back, "10.0.0.4")
    answer = resolved(request(room, fresh, "resume", token=token, tables={"t1": last_seen, "t2": 0}))
    assert answer["ok"] and answer["tables"] == {"t1": "snapshot", "t2": "closed"}   # dealt in: a snapshot
    assert room.gateway.by_player["ana"] is fresh and fresh.tables == {"t1"}
    room.bus.raise_failures()


def test_HR_DC_2_a_resume_on_the_strict_bus_subscribes_first_and_catches_up_by_seq_second(store):
    clock = Clock()
    room = strict_room(store, clock)
    cy, _ = player(room, "cy")
    di, stays = player(room, "di")                          # an observer who stays: what cy should see
    seated_and_gone(room, clock)
    for observer in (cy, di):
        assert request(room, observer, "observe", table="t1", on=True)["ok"]
    clock.advance(1.0)
    last_seen = room.tables.runners["t1"].table.seq
    cy_token = with_token(room, cy)
    room.gateway.disconnected(cy)
    for _ in range(3):                                      # the table goes on without the observer
        clock.advance(20.0)
    assert room.tables.runners["t1"].table.seq > last_seen
    room.bus.seen.clear()
    back = Connection()
    fresh = room.gateway.connected(back, "10.0.0.4")
    answer = resolved(request(room, fresh, "resume", token=cy_token, tables={"t1": last_seen}))
    assert answer["ok"] and answer["tables"] == {"t1": "events"}
    seen = room.bus.seen
    assert seen[0] == ("gather", CASH_TABLES_RESUME)               # asked of every node before anything changed
    # the process hears the table's public stream on one subscription, held while di watches: cy joins it in the
    # same call that subscribes her seat's stream, before the catch-up is asked
    subscribed = seen.index(("subscribe", "table.t1.seat.cy"))
    assert subscribed < seen.index(("request", "table.t1.catch_up"))
    assert fresh in room.gateway.fanouts["table.t1.public"].members
    missed = [e for m in back.sent if m.get("type") == "table_events" for e in m["events"]]
    shown = [e for m in stays.sent if m.get("type") == "table_events" for e in m["events"] if e["seq"] > last_seen]
    assert missed and missed == shown                       # none lost, none twice
    room.bus.raise_failures()


def test_HR_DC_2_a_frame_published_while_a_resume_is_caught_up_comes_once_after_the_catch_up_in_the_tables_order(store):
    """Subscribed first, caught up second: a frame the table publishes between the two is in the host's log by
    the time it answers, and on the bus too. The gateway holds the table's live frames until the catch-up is
    pushed and forwards only those it did not carry, so the client gets every frame once, in the table's order."""
    clock = Clock()
    room = strict_room(store, clock)
    cy, _ = player(room, "cy")
    seated_and_gone(room, clock)
    assert request(room, cy, "observe", table="t1", on=True)["ok"]
    clock.advance(1.0)
    last_seen = room.tables.runners["t1"].table.seq
    cy_token = with_token(room, cy)
    room.gateway.disconnected(cy)
    clock.advance(20.0)
    back = Connection()
    fresh = room.gateway.connected(back, "10.0.0.4")
    answer = room.gateway.handle(fresh, parse_request({"type": "resume", "rid": 1, "token": cy_token,
                                                       "tables": {"t1": last_seen}}))
    while "table.t1.public" not in fresh.streams:           # the bus's turns, one by one, until subscribed
        assert bus_turn(room.bus)
    [timer] = [c for c in clock.getDelayedCalls() if "Timer._fire" in repr(c.func)]
    fire, args, kw = timer.func, timer.args, timer.kw
    timer.cancel()
    fire(*args, **kw)                                       # the table's timer fires before the host answers
    between = room.tables.runners["t1"].table.seq
    assert between > last_seen
    answered = resolved(answer)
    assert answered["ok"] and answered["tables"] == {"t1": "events"}
    seqs = [e["seq"] for m in back.sent if m.get("type") == "table_events" for e in m["events"]]
    assert seqs == sorted(set(seqs)) and seqs[-1] == between, seqs       # once each, in order
    assert fresh.held == {}                                 # live again: nothing waits any more
    room.bus.raise_failures()
