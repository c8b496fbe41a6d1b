"""A table's or an event's commands in the order they came while one's money is in flight (shell/in_turn.py): what
answers at once still does, one behind a Deferred waits for it (and runs whether it succeeded or was refused), and
other keys never wait."""

from __future__ import annotations

import pytest
from twisted.internet import defer

from pokerroom.errors import RuleViolation
from pokerroom.shell.in_turn import InTurn, then


def results(d: defer.Deferred) -> list:
    out: list = []
    d.addBoth(out.append)
    return out


def test_with_nothing_in_flight_a_call_answers_at_once_and_its_refusal_is_raised_at_once():
    turns = InTurn()

    def refuse() -> None:
        raise RuleViolation("not_at_table", "join t1 first")

    assert turns.run("t1", lambda: {"seat": 2}) == {"seat": 2}
    with pytest.raises(RuleViolation):
        turns.run("t1", refuse)
    assert not turns.busy("t1")


def test_a_call_behind_one_in_flight_waits_for_it_and_runs_in_order_even_after_a_refusal():
    turns, ran = InTurn(), []
    money = defer.Deferred()

    def stake() -> defer.Deferred:
        ran.append("stake")
        return money

    def refuse() -> None:
        ran.append("refused")
        raise RuleViolation("insufficient_funds", "no")

    first = results(turns.run("bac", stake))
    second = results(turns.run("bac", refuse))
    third = results(turns.run("bac", lambda: ran.append("decide") or "decided"))
    other = turns.run("roulette", lambda: "at once")            # another table never waits
    assert ran == ["stake"] and other == "at once" and turns.busy("bac")
    money.callback("placed")
    assert ran == ["stake", "refused", "decide"]
    assert first == ["placed"] and second[0].value.code == "insufficient_funds" and third == ["decided"]
    assert not turns.busy("bac")


def test_then_goes_on_at_once_from_a_result_and_later_from_a_deferred():
    assert then(3, lambda n: n + 1) == 4
    later = defer.Deferred()
    got = results(then(later, lambda n: n + 1))
    assert got == []
    later.callback(3)
    assert got == [4]


def test_a_calls_answer_goes_out_before_the_next_call_of_its_key_runs():
    """Answers in the order the calls came: the caller's own callbacks (its reply) run before the call queued behind
    it is applied, so its frames and reply never overtake the earlier reply."""
    turns, seen = InTurn(), []
    money = defer.Deferred()
    first = turns.run("t1", lambda: money)
    first.addCallback(lambda answer: seen.append(("answer 1 sent", answer)))
    second = turns.run("t1", lambda: seen.append("command 2 applied") or "two")
    second.addCallback(lambda answer: seen.append(("answer 2 sent", answer)))
    assert seen == []
    money.callback("one")
    assert seen == [("answer 1 sent", "one"), "command 2 applied", ("answer 2 sent", "two")]
    assert not turns.busy("t1")
