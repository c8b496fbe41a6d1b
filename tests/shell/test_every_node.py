"""The merges of the reads every node answers (shell.every_node): several nodes' answers in the one shape a single
process gave, and one node's answer passed through as it was."""

from __future__ import annotations

import pytest
from twisted.internet import defer

from pokerroom.bus import NoAnswer, NoResponder
from pokerroom.bus.in_process import InProcessBus
from pokerroom.errors import RuleViolation
from pokerroom.shell.every_node import (
    AT_TABLES,
    any_yes,
    ask_every_node,
    count_nodes_with,
    lines_by,
    nodes_of,
    resumable,
    union_sorted,
)


class Counted:
    node = "n0"

    def __init__(self, n: int) -> None:
        self.n = n
        self.suspects: set[str] = set()

    def count(self) -> int:
        return self.n

    def live(self) -> set[str]:
        return {f"n{i}" for i in range(self.n)}

    def awaited(self) -> set[str]:
        return self.live() - self.suspects

    def answered(self, names: set[str]) -> None:
        self.suspects -= names

    def silent(self, names: set[str]) -> None:
        self.suspects |= names

    def counted(self) -> defer.Deferred:
        return defer.succeed(self.n)

    def recounted(self) -> defer.Deferred:
        self.reads = getattr(self, "reads", 0) + 1
        return defer.succeed(self.n)


def test_where_is_each_list_of_every_node_in_id_order_and_one_node_as_it_was():
    one = {"seated": ["t9", "t1"], "leaving": [], "waiting": ["t3"]}
    assert AT_TABLES([one]) is one
    assert AT_TABLES([{"seated": ["t2"], "leaving": ["t2"], "waiting": []}, one]) == \
        {"seated": ["t1", "t2", "t9"], "leaving": ["t2"], "waiting": ["t3"]}


def test_known_tables_are_a_union_and_in_play_anywhere_is_in_play():
    assert union_sorted([["t2", "t1"], ["t1", "t3"]]) == ["t1", "t2", "t3"]
    assert any_yes([False, True]) and not any_yes([False, False])


def test_lines_of_several_nodes_are_in_table_order():
    lines = [[{"table": "b"}], [{"table": "a"}, {"table": "c"}]]
    assert [line["table"] for line in lines_by("table")(lines)] == ["a", "b", "c"]
    assert lines_by("table")([[{"table": "z"}, {"table": "a"}]]) == [{"table": "z"}, {"table": "a"}]


def test_a_resume_refuses_the_first_table_its_node_refused_or_no_node_knows():
    node_a = {"open": ["t1"], "unknown": ["t2", "zz"], "refused": [], "seated": ["t1"]}
    node_b = {"open": ["t2"], "unknown": ["t1", "zz"], "refused": [], "seated": ["t2"]}
    assert resumable([{"open": ["t1"], "unknown": [], "refused": []}]) == {"open": ["t1"], "seated": []}
    with pytest.raises(RuleViolation) as refused:
        resumable([node_a, node_b])
    assert refused.value.code == "no_such_table" and "zz" in refused.value.message
    node_b["refused"] = [["t2", "bad_seq", "t2 has sent no event 9 yet"]]
    with pytest.raises(RuleViolation) as refused:
        resumable([node_a, node_b])                         # t2 comes before zz
    assert refused.value.code == "bad_seq"
    node_a["unknown"].remove("zz")
    node_b["refused"] = []
    assert resumable([node_a, {**node_b, "unknown": ["t1", "zz", "t0"]}]) == {"open": ["t1", "t2"],
                                                                              "seated": ["t1", "t2"]}


def test_the_asker_waits_for_the_count_the_roster_gives_its_bus_and_nobody_answering_is_no_responder():
    bus = InProcessBus()
    assert nodes_of(bus) == 1                               # a bus without a roster: one process
    count_nodes_with(bus, Counted(3))
    asked: list = []
    real = bus.gather
    bus.gather = lambda subject, payload, expected, **waits: asked.append(expected) or real(subject, payload, expected)
    failed: list = []
    ask_every_node(bus, "tables.known", None, union_sorted).addErrback(failed.append)
    assert asked == [3] and failed[0].check(NoResponder)
    bus.respond("tables.known", lambda _: ["t2", "t1"], gathered=True)
    answers: list = []
    ask_every_node(bus, "tables.known", None, union_sorted).addCallback(answers.append)
    assert answers == [["t1", "t2"]]


class Short(InProcessBus):
    """A room whose roster counts three nodes, of which only some answer by the gather's timeout."""

    def __init__(self, answers: list | None) -> None:
        super().__init__()
        self.answers = answers

    def gather(self, subject: str, payload: object, expected: int, **waits: object) -> defer.Deferred:
        if self.answers is None:
            return defer.fail(NoAnswer(f"no node answered {subject} within 2 s"))
        return defer.succeed(list(self.answers))


def outcome(d: defer.Deferred) -> object:
    out: list = []
    d.addBoth(out.append)
    return out[0]


def test_a_read_goes_on_with_the_nodes_that_answered_but_a_decision_refuses_when_a_node_was_silent():
    """A node counted but silent (dead, its lease not yet run out): a lobby read lists what the others said; a
    decision such as "is the player idle everywhere" must not take its silence for "idle" (AC-3, SEC-2)."""
    for answers in ([None, None], None):                    # two of three answered (idle); none answered at all
        bus, roster = Short(answers), Counted(3)
        count_nodes_with(bus, roster)
        read = outcome(ask_every_node(bus, "security.idle", "ana", lambda answers: None))
        if answers is None:
            assert read.check(NoResponder)                  # a read: as nobody answering, as before
        else:
            assert read is None
        decided = outcome(ask_every_node(bus, "security.idle", "ana", lambda answers: None, whole=True))
        assert decided.check(RuleViolation) and decided.value.code == "node_unanswered"
        assert f"{3 - len(answers or [])} of the room's 3 processes did not answer" in decided.value.message
        assert roster.reads == 3            # a decision reads the roster afresh; each short gather reads it again
    whole = Short([None, None, None])
    count_nodes_with(whole, Counted(3))
    assert outcome(ask_every_node(whole, "security.idle", "ana", lambda answers: None, whole=True)) is None
