"""The bus contract (``pokerroom.bus``), as a test any implementation must pass.

A bus is given by a fixture as ``(bus, settle)``: ``settle(d)`` waits for a
Deferred and returns its result (or raises its failure). The in-process bus
settles at once; a broker-backed bus adds itself to ``BUSES`` with a
``settle`` that runs the reactor until the Deferred fires: the NATS bus, on
the machine's NATS (``tests/support/nats_buses.py``; skipped without one,
except under ``CI=true``).
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from twisted.internet import defer, task
from twisted.python.failure import Failure

from pokerroom.bus import BadSubject, NoResponder
from pokerroom.bus.in_process import InProcessBus
from pokerroom.bus.strict import NotPlainData, StrictBus
from pokerroom.errors import RuleViolation
from tests.support import nats_buses


def settled_at_once(d: defer.Deferred):
    out = []
    d.addBoth(out.append)
    assert out, "an in-process Deferred fires at once"
    if isinstance(out[0], Failure):
        out[0].raiseException()
    return out[0]


def strict(reorder: bool):
    """A broker-like bus on a test clock: ``settle`` turns the clock until the Deferred fires."""
    clock = task.Clock()

    def settle(d: defer.Deferred):
        out = []
        d.addBoth(out.append)
        for _ in range(1000):
            if out:
                break
            clock.advance(0)
        assert out, "the strict bus delivers within a few turns"
        if isinstance(out[0], Failure):
            out[0].raiseException()
        return out[0]

    return StrictBus(clock, reorder=reorder), settle


BUSES = {"in_process": lambda: (InProcessBus(), settled_at_once),
         "strict": lambda: strict(False), "strict_reorder": lambda: strict(True),
         "nats": lambda: (nats_buses.nats_bus(), nats_buses.settle)}


@pytest.fixture(autouse=True)
def nats_buses_closed():
    yield
    nats_buses.close_all()


@pytest.fixture(params=sorted(BUSES))
def bus(request):
    return BUSES[request.param]()


def collector(seen: list):
    return lambda subject, payload: seen.append((subject, payload))


def test_a_subscriber_of_a_subject_gets_each_message_once_in_order(bus):
    b, settle = bus
    seen = []
    b.subscribe("table.t1.public", collector(seen))
    for n in range(5):
        b.publish("table.t1.public", n)
    b.publish("table.t2.public", "elsewhere")
    settle(b.flushed())
    assert seen == [("table.t1.public", n) for n in range(5)]


def test_star_matches_one_token_and_gt_the_rest(bus):
    b, settle = bus
    star, rest = [], []
    b.subscribe("table.*.full", collector(star))
    b.subscribe("table.>", collector(rest))
    for subject in ("table.t1.full", "table.t1.public", "table.t1.full.extra", "table.full", "lobby.update"):
        b.publish(subject, subject)
    settle(b.flushed())
    assert [p for _, p in star] == ["table.t1.full"]
    # one message a subject: order across subjects is not promised
    assert sorted(p for _, p in rest) == sorted(["table.t1.full", "table.t1.public", "table.t1.full.extra",
                                                 "table.full"])


def test_nothing_is_replayed_to_a_later_subscriber_and_nothing_reaches_a_cancelled_one(bus):
    b, settle = bus
    early, late = [], []
    first = b.subscribe("lobby.update", collector(early))
    b.publish("lobby.update", 1)
    settle(b.flushed())
    b.subscribe("lobby.update", collector(late))
    first.cancel()
    first.cancel()                                  # twice is harmless
    b.publish("lobby.update", 2)
    settle(b.flushed())
    assert [p for _, p in early] == [1]
    assert [p for _, p in late] == [2]


def test_a_failing_subscriber_neither_stops_the_others_nor_the_publisher(bus):
    b, settle = bus
    seen = []

    def broken(subject, payload):
        raise RuntimeError("a bug in one subscriber")

    b.subscribe("player.alice", broken)
    b.subscribe("player.alice", collector(seen))
    b.publish("player.alice", "your cards")
    if isinstance(b, StrictBus):                    # the test bus delivers to the rest, then shows the bug
        with pytest.raises(RuntimeError):
            settle(b.flushed())
    else:
        settle(b.flushed())
    assert seen == [("player.alice", "your cards")]


@pytest.mark.parametrize("subject", ["table.*.public", "table.>", "table..public", "", "a.>.b"])
def test_a_message_goes_to_one_well_formed_subject(bus, subject):
    b, _ = bus
    with pytest.raises(BadSubject):
        b.publish(subject, None)


@pytest.mark.parametrize("pattern", ["a.>.b", "a..b", ""])
def test_a_pattern_is_well_formed(bus, pattern):
    b, _ = bus
    with pytest.raises(BadSubject):
        b.subscribe(pattern, collector([]))


def test_a_request_gets_its_responders_answer_plain_or_deferred(bus):
    b, settle = bus
    b.respond("wallet.balance", lambda player: {"alice": 500}[player])
    b.respond("accounts.find", lambda nickname: defer.succeed(nickname.upper()))
    assert settle(b.request("wallet.balance", "alice")) == 500
    assert settle(b.request("accounts.find", "bob")) == "BOB"


def test_a_request_nobody_answers_fails_and_a_refusal_keeps_its_code(bus):
    b, settle = bus
    with pytest.raises(NoResponder):
        settle(b.request("nobody.home", 1))

    def refuse(_):
        raise RuleViolation("insufficient_funds", "you have 0 in your wallet, not 100")

    b.respond("wallet.move", refuse)
    with pytest.raises(RuleViolation) as refused:
        settle(b.request("wallet.move", 100))
    assert refused.value.code == "insufficient_funds"


def test_a_refusal_keeps_its_sentence_rule_amounts_and_currency(bus):
    b, settle = bus

    def refuse(_):
        raise RuleViolation("below_minimum", "the minimum buy-in is {minimum}", "CASH-3", {"minimum": 2000}
                            ).priced("EUR")

    b.respond("table.t1.command", refuse)
    with pytest.raises(RuleViolation) as refused:
        settle(b.request("table.t1.command", {"sit": 1}))
    error = refused.value
    assert (error.code, error.template, error.rule_id, error.amounts, error.currency) == \
        ("below_minimum", "the minimum buy-in is {minimum}", "CASH-3", {"minimum": 2000}, "EUR")
    assert error.message == "the minimum buy-in is €20.00"


@pytest.mark.parametrize("subject", ["table.a b.public", "player.al\tice", "player.x\r\nPUB"])
def test_a_subject_has_no_whitespace_nor_control_character(bus, subject):
    b, _ = bus
    with pytest.raises(BadSubject):
        b.publish(subject, None)
    with pytest.raises(BadSubject):
        b.subscribe(subject, collector([]))


def test_one_responder_per_subject_and_a_cancelled_one_answers_nothing(bus):
    b, settle = bus
    answering = b.respond("lobby.list", lambda _: "first")
    with pytest.raises(ValueError):
        b.respond("lobby.list", lambda _: "second")
    answering.cancel()
    with pytest.raises(NoResponder):
        settle(b.request("lobby.list", None))
    b.respond("lobby.list", lambda _: "second")
    assert settle(b.request("lobby.list", None)) == "second"


SUBJECTS = st.sampled_from(["table.a.public", "table.b.public", "player.alice", "lobby.update"])
STEPS = st.lists(st.one_of(st.tuples(st.just("publish"), SUBJECTS),
                           st.tuples(st.just("subscribe"), st.sampled_from(["table.*.public", "player.alice", ">"])),
                           st.tuples(st.just("cancel"), st.integers(0, 5))), max_size=40)


@pytest.mark.parametrize("name", sorted(BUSES))
@given(steps=STEPS)
def test_each_subscriber_gets_exactly_what_was_published_to_its_pattern_while_it_was_subscribed(name, steps):
    b, settle = BUSES[name]()
    try:
        entries: list = []                  # [subscription, pattern, seen, expected, live]
        for number, (step, arg) in enumerate(steps):
            if step == "publish":
                b.publish(arg, number)
                for _, pattern, _, expected, live in entries:
                    if live and (pattern in (">", arg) or (pattern == "table.*.public" and arg.startswith("table."))):
                        expected.append((arg, number))
            elif step == "subscribe":
                seen: list = []
                entries.append([b.subscribe(arg, collector(seen)), arg, seen, [], True])
            elif entries:
                entry = entries[arg % len(entries)]
                settle(b.flushed())             # what was published before is delivered; then nothing more
                entry[0].cancel()
                entry[4] = False
        settle(b.flushed())
        for _, _, seen, expected, _ in entries:
            for subject in {s for s, _ in seen + expected}:   # per subject in order, none twice, none missed,
                assert [m for m in seen if m[0] == subject] == [m for m in expected if m[0] == subject]  # none late
    finally:
        nats_buses.close_all()                  # one connection an example, not a hundred a test


@given(st.text(min_size=0, max_size=12), st.text(min_size=0, max_size=12))
def test_a_name_is_one_token_and_two_names_never_share_a_subject(a, b):
    from pokerroom.bus import verify_subject
    from pokerroom.bus.subjects import player_stream, table_public

    assert len(verify_subject(table_public(a), pattern=False)) == 3
    assert len(verify_subject(player_stream(a), pattern=False)) == 2
    assert (table_public(a) == table_public(b)) == (a == b)


def test_the_strict_bus_refuses_a_payload_that_is_not_plain_data_and_hands_each_subscriber_a_copy():
    b, settle = strict(False)
    seen: list = []
    b.subscribe("table.t1.full", collector(seen))
    b.subscribe("table.t1.full", collector(seen))
    with pytest.raises(NotPlainData):
        b.publish("table.t1.full", {"session": object()})
    b.publish("table.t1.full", {"stacks": {"alice": 100}})
    assert seen == []                               # nothing in the publisher's own turn
    settle(b.flushed())
    assert seen == [("table.t1.full", {"stacks": {"alice": 100}})] * 2
    assert seen[0][1] is not seen[1][1]             # a subscriber that changes its copy changes nobody else's


def test_the_reordering_bus_keeps_each_subjects_order_but_not_the_order_across_subjects():
    b, settle = strict(True)
    seen: list = []
    b.subscribe(">", collector(seen))
    for n in range(30):
        b.publish("table.a.public" if n % 2 else "player.alice", n)
    settle(b.flushed())
    for subject in ("table.a.public", "player.alice"):
        numbers = [p for s, p in seen if s == subject]
        assert numbers == sorted(numbers) and len(numbers) == 15
    assert [p for _, p in seen] != list(range(30))


def test_a_gather_gets_the_one_nodes_answer_as_a_list_and_nobody_answering_is_empty(bus):
    b, settle = bus
    assert settle(b.gather("tables.where", "ana", 1)) == []            # no node answers it
    b.respond("tables.where", lambda player: {"seated": [player]}, gathered=True)
    b.respond("tables.known", lambda _: defer.succeed(["t1"]), gathered=True)
    assert settle(b.gather("tables.where", "ana", 1)) == [{"seated": ["ana"]}]
    assert settle(b.gather("tables.known", None, 1)) == [["t1"]]


def test_gathered_and_plain_responders_are_apart_and_one_of_each_a_subject(bus):
    b, settle = bus
    gathered = b.respond("casino.tables", lambda _: "gathered", gathered=True)
    with pytest.raises(ValueError):
        b.respond("casino.tables", lambda _: "again", gathered=True)
    with pytest.raises(ValueError):
        b.respond("casino.other", lambda _: "both", gathered=True, shared=True)
    with pytest.raises(NoResponder):                # a gathered responder answers gathers only
        settle(b.request("casino.tables", None))
    b.respond("casino.tables", lambda _: "plain")
    assert settle(b.request("casino.tables", None)) == "plain"
    assert settle(b.gather("casino.tables", None, 1)) == ["gathered"]
    gathered.cancel()
    assert settle(b.gather("casino.tables", None, 1)) == []


def test_a_refusal_of_a_gathered_responder_fails_the_gather_with_its_code(bus):
    b, settle = bus

    def busy(player):
        raise RuleViolation("player_busy", "ana is seated at t1", "SEC-2")

    b.respond("security.idle", busy, gathered=True)
    with pytest.raises(RuleViolation) as refused:
        settle(b.gather("security.idle", "ana", 1))
    assert (refused.value.code, refused.value.rule_id) == ("player_busy", "SEC-2")
    with pytest.raises(BadSubject):
        b.gather("security.*", "ana", 1)
