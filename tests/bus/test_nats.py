"""The NATS bus across processes: two buses on two connections stand for two processes of one room.

The contract itself is ``test_contract.py``'s, which runs on NATS too; here is what only a broker shows: one
process hears another's messages and answers its requests, a shared responder answers each request once whichever
process it is in, a request nobody answers in time fails, and a name any player may choose is a NATS subject.
"""

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from twisted.internet import defer, task

from pokerroom.bus import NoAnswer, NoResponder, ResponderFailed, make_bus
from pokerroom.bus.nats_bus import NatsBus, TooLarge
from pokerroom.bus.nats_direct import Direct
from pokerroom.bus.records import NotPlainData
from pokerroom.bus.subjects import player_stream, table_seat
from tests.support.nats_buses import NATS, close_all, nats_bus, reactor, require_nats, settle

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def buses_closed():
    yield
    close_all()


def room() -> str:
    return f"t{uuid.uuid4().hex[:12]}"


def test_two_processes_hear_each_others_messages_and_answer_each_others_requests():
    shared = room()
    gateway, host = nats_bus(shared), nats_bus(shared)
    heard: list = []
    all_heard: defer.Deferred = defer.Deferred()

    def hear(subject, payload):
        heard.append((subject, payload))
        if len(heard) == 12:
            all_heard.callback(None)

    gateway.subscribe("table.nl-1.seat.*", hear)
    host.respond("table.nl-1.command", lambda command: {"seat": command["seat"]})
    settle(gateway.flushed())
    settle(host.flushed())

    for n in range(12):                             # the host's frames, to two seats, in one order a seat
        host.publish(f"table.nl-1.seat.p{n % 2}", n)
    settle(all_heard)
    assert [p for s, p in heard if s == "table.nl-1.seat.p0"] == list(range(0, 12, 2))
    assert [p for s, p in heard if s == "table.nl-1.seat.p1"] == list(range(1, 12, 2))
    assert settle(gateway.request("table.nl-1.command", {"seat": 4})) == {"seat": 4}


def test_a_shared_responder_answers_each_request_in_exactly_one_process():
    shared = room()
    first, second, asker = nats_bus(shared), nats_bus(shared), nats_bus(shared)
    answered_by: dict[str, list] = {"first": [], "second": []}
    for name, bus in (("first", first), ("second", second)):
        bus.respond("wallet.balance", lambda n, name=name: answered_by[name].append(n) or name, shared=True)
        settle(bus.flushed())

    answers = settle(defer.gatherResults([asker.request("wallet.balance", n) for n in range(40)]))
    assert sorted(answered_by["first"] + answered_by["second"]) == list(range(40))     # each once, none twice
    assert answers == ["first" if n in answered_by["first"] else "second" for n in range(40)]


def test_a_responder_that_never_answers_is_no_answer_once_the_timeout_passes():
    clock = task.Clock()
    bus = nats_bus(clock=clock, request_timeout=5)
    bus.respond("table.t1.snapshot", lambda _: defer.Deferred())        # a hung table process
    asked = bus.request("table.t1.snapshot", None)
    settle(bus.flushed())
    clock.advance(4.9)
    assert not asked.called
    clock.advance(0.1)
    with pytest.raises(NoAnswer):
        settle(asked)


def test_a_responders_other_failures_arrive_by_kind():
    bus = nats_bus()

    def broken(_):
        raise KeyError("a bug")

    def asks_on(_):
        raise NoResponder("nobody answers wallet.balance")

    bus.respond("a.broken", broken)
    bus.respond("a.asks_on", asks_on)
    bus.respond("a.live_object", lambda _: object())
    with pytest.raises(ResponderFailed) as failed:
        settle(bus.request("a.broken", None))
    assert failed.value.kind == "KeyError"
    with pytest.raises(NoResponder):
        settle(bus.request("a.asks_on", None))
    with pytest.raises(NotPlainData):
        settle(bus.request("a.live_object", None))


@pytest.mark.parametrize("name", ["al ice", "tab\there", "cr\r\nPUB x 1", "a.b", "*", ">", "50%", "é\x7f\x00"])
def test_any_name_is_one_nats_subject_heard_only_by_its_own_subscription(name):
    bus = nats_bus()
    mine, others = [], []
    bus.subscribe(table_seat("nl-1", name), lambda s, p: mine.append(p))
    bus.subscribe(player_stream(name), lambda s, p: mine.append(p))
    bus.subscribe("table.nl-1.seat.x", lambda s, p: others.append(p))
    bus.publish(table_seat("nl-1", name), "cards")
    bus.publish(player_stream(name), "notice")
    settle(bus.flushed())
    assert mine == ["cards", "notice"] and others == []


def test_make_bus_gives_the_nats_bus_for_a_nats_url_to_connect_before_use():
    require_nats()
    bus = make_bus(reactor(), NATS)
    assert isinstance(bus, NatsBus)
    heard: list = []
    subject = f"lobby.{room()}"                     # the default room prefix: a subject no other test uses
    bus.subscribe(subject, lambda s, p: heard.append(p))             # waits for the connection
    bus.publish(subject, 1)
    try:
        settle(bus.connect())
        settle(bus.flushed())
        assert heard == [1]
    finally:
        settle(bus.close())
    with pytest.raises(ValueError):
        make_bus(reactor(), "redis://127.0.0.1:6379")


def test_connect_fails_when_no_server_answers():
    bus = NatsBus(reactor(), "nats://127.0.0.1:9", room=room())
    try:
        with pytest.raises(Exception, match="no servers"):
            settle(bus.connect())
    finally:
        settle(bus.close())


def test_on_the_asyncio_reactor_the_bus_shares_its_loop():
    require_nats()
    child = subprocess.run([sys.executable, "-m", "tests.support.asyncio_nats_bus", NATS, room()],
                           capture_output=True, text=True, timeout=60, cwd=ROOT,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert child.stdout.strip() == "ok heard=[0, 1, 2, 3, 4] answer={'seat': 3} refused=table_full", child.stderr


def test_a_closed_bus_sends_nothing_and_fails_a_request_at_once():
    bus = nats_bus()
    settle(bus.close())
    bus.publish("lobby.update", 1)                  # a service still publishing while the reactor stops
    with pytest.raises(NoResponder):
        settle(bus.request("wallet.balance", "alice"))


def test_a_message_larger_than_the_server_takes_is_refused_in_the_publishers_call():
    bus = nats_bus()
    bus.respond("table.t1.full", lambda n: b"x" * n)
    with pytest.raises(TooLarge):
        bus.publish("table.t1.full", b"x" * (bus.max_payload + 1))
    with pytest.raises(TooLarge):                   # an answer too large fails the request, not the responder
        settle(bus.request("table.t1.full", bus.max_payload + 1))
    assert settle(bus.request("table.t1.full", 10)) == b"x" * 10


def test_a_failing_subscriber_is_logged_and_the_next_one_still_hears():
    from twisted.logger import globalLogPublisher

    bus = nats_bus()
    logged, heard = [], []

    def broken(subject, payload):
        raise RuntimeError("a bug in one subscriber")

    bus.subscribe("player.alice", broken)
    bus.subscribe("player.alice", lambda s, p: heard.append(p))
    globalLogPublisher.addObserver(logged.append)
    try:
        bus.publish("player.alice", "your cards")
        settle(bus.flushed())
    finally:
        globalLogPublisher.removeObserver(logged.append)
    assert heard == ["your cards"]
    failures = [e for e in logged if "log_failure" in e]
    assert [e["subject"] for e in failures] == ["player.alice"]
    assert failures[0]["log_failure"].check(RuntimeError)


def test_a_request_that_crosses_its_responders_cancel_fails_no_later_than_its_timeout():
    clock = task.Clock()
    bus = nats_bus(clock=clock, request_timeout=5)
    answering = bus.respond("lobby.list", lambda _: "answer")
    settle(bus.flushed())
    asked = bus.request("lobby.list", None)
    answering.cancel()                              # the table leaves the room as a command reaches it
    settle(bus.flushed())
    if not asked.called:
        clock.advance(5)
    with pytest.raises(NoResponder):
        settle(asked)


def test_a_gather_merges_every_nodes_answer_and_a_missing_node_gives_those_that_came_at_the_timeout():
    shared = room()
    clock = task.Clock()
    first, second, asker = nats_bus(shared), nats_bus(shared), nats_bus(shared, clock=clock, gather_timeout=2)
    first.respond("tables.where", lambda player: {"node": "first", "seated": ["t1"]}, gathered=True)
    second.respond("tables.where", lambda player: {"node": "second", "seated": ["t2"]}, gathered=True)
    hung = second.respond("tables.known", lambda _: defer.Deferred(), gathered=True)     # a node that hangs
    first.respond("tables.known", lambda _: ["t1"], gathered=True)
    for bus in (first, second):
        settle(bus.flushed())

    answers = settle(asker.gather("tables.where", "ana", 2))
    assert sorted(a["node"] for a in answers) == ["first", "second"]
    assert sorted(t for a in answers for t in a["seated"]) == ["t1", "t2"]

    partial = asker.gather("tables.known", None, 2)
    deadline = time.monotonic() + 10
    while not any(g.answers for g in asker.gathering.values()) and time.monotonic() < deadline:
        reactor().iterate(0.01)                     # the living node's answer is in
    clock.advance(1.9)
    assert not partial.called                       # one answer of two: it waits
    clock.advance(0.1)
    assert settle(partial) == [["t1"]]              # the timeout: the answer that came
    hung.cancel()
    assert settle(asker.gather("nobody.answers", None, 3)) == []      # no node at all: at once, not at the timeout


def test_a_gather_that_has_enough_ends_early_and_hands_the_answers_still_coming_to_late():
    """The asker knows whose answers it awaits (every_node names them): it need not wait for a node it suspects,
    and hears that node's answer if one still comes before the timeout."""
    shared = room()
    clock = task.Clock()
    first, second, asker = nats_bus(shared), nats_bus(shared), nats_bus(shared, clock=clock, gather_timeout=2)
    slow: list[defer.Deferred] = []
    first.respond("tables.known", lambda _: ["t1"], gathered=True)
    second.respond("tables.known", lambda _: slow.append(defer.Deferred()) or slow[-1], gathered=True)
    for bus in (first, second):
        settle(bus.flushed())
    late: list = []
    answers = settle(asker.gather("tables.known", None, 2, enough=lambda answers: ["t1"] in answers,
                                  late=late.append))
    assert answers == [["t1"]] and late == []               # no clock turned: it did not wait for the second
    deadline = time.monotonic() + 10
    while not slow and time.monotonic() < deadline:         # the second node may hear the question only now
        reactor().iterate(0.01)
    slow[0].callback(["t2"])
    while not late and time.monotonic() < deadline:
        reactor().iterate(0.01)
    assert late == [["t2"]]
    clock.advance(2)
    assert asker.gathering == {}                            # its timeout: nothing more is heard of it
    assert settle(asker.gather("tables.known", None, 2, enough=lambda answers: True, late=late.append)) == []
    clock.advance(2)


def test_a_gather_that_some_node_subscribes_to_but_none_answers_in_time_is_no_answer_not_an_empty_list():
    """An empty list says nobody serves the subject; a node that hangs (or died, its subscription not yet gone)
    is not that: a decision asked of every node must not read its silence as "nothing here"."""
    shared = room()
    clock = task.Clock()
    node, asker = nats_bus(shared), nats_bus(shared, clock=clock, gather_timeout=2)
    node.respond("security.idle", lambda _: defer.Deferred(), gathered=True)        # a node that hangs
    settle(node.flushed())
    silent = asker.gather("security.idle", "ana", 1)
    settle(asker.flushed())
    clock.advance(2)
    with pytest.raises(NoAnswer):
        settle(silent)


def test_one_nodes_refusal_fails_the_gather():
    from pokerroom.errors import RuleViolation

    shared = room()
    first, second, asker = nats_bus(shared), nats_bus(shared), nats_bus(shared)

    def busy(_):
        raise RuleViolation("player_busy", "ana is seated at t2", "SEC-2")

    first.respond("security.idle", lambda _: True, gathered=True)
    second.respond("security.idle", busy, gathered=True)
    for bus in (first, second):
        settle(bus.flushed())
    with pytest.raises(RuleViolation) as refused:
        settle(asker.gather("security.idle", "ana", 2))
    assert refused.value.code == "player_busy"


def test_a_gathered_responder_cancelled_as_the_gather_reaches_it_is_one_answer_less_not_a_failure():
    shared = room()
    first, second, asker = nats_bus(shared), nats_bus(shared), nats_bus(shared)
    first.respond("casino.tables", lambda _: ["bj-1"], gathered=True)
    leaving = second.respond("casino.tables", lambda _: ["rl-1"], gathered=True)
    for bus in (first, second):
        settle(bus.flushed())
    leaving.active = False                          # cancelled on the reactor's side; its subscription still live
    assert settle(asker.gather("casino.tables", None, 2)) == [["bj-1"]]


def run_through(coroutine) -> None:   # noqa: ANN001
    """Run a coroutine that never waits (the parser's calls here all return at once) without an event loop: a
    browser test's Playwright, earlier in the same worker, may hold this thread's running loop."""
    try:
        coroutine.send(None)
    except StopIteration:
        return
    coroutine.close()
    raise AssertionError("the coroutine waited for something")


def test_a_registered_subscriptions_messages_skip_nats_pys_queue_but_a_status_and_the_rest_take_it():
    taken_by_nats_py: list = []

    class Client:                                   # the one method of nats-py's client the hook wraps
        async def _process_msg(self, sid, subject, reply, data, headers):
            taken_by_nats_py.append((sid, data))

    class Subscription:
        def __init__(self, sid: int) -> None:
            self._id = sid

    client, straight = Client(), []
    direct = Direct(client)
    mine = Subscription(1)
    direct.add(mine, lambda subject, reply, data: straight.append((subject, reply, data)))

    async def parse() -> None:                      # as nats-py's parser calls it, once a MSG
        await client._process_msg(1, b"r.s.table.t1.seat.p0", b"", b"frame", None)
        await client._process_msg(1, b"_INBOX.x.1", b"", b"", b"NATS/1.0 503\r\n\r\n")
        await client._process_msg(2, b"r.s.lobby.changed", b"", b"line", None)
        direct.remove(mine)
        await client._process_msg(1, b"r.s.table.t1.seat.p0", b"", b"late", None)

    run_through(parse())
    assert straight == [(b"r.s.table.t1.seat.p0", b"", b"frame")]
    assert taken_by_nats_py == [(1, b""), (2, b"line"), (1, b"late")]


def test_without_nats_pys_hook_the_bus_registers_nothing_and_its_callbacks_deliver():
    direct = Direct(object())
    direct.add(type("Subscription", (), {"_id": 1})(), lambda *_: None)
    assert direct.calls == {}
