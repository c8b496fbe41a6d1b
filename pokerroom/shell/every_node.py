"""Reads every node answers for itself, asked of every node and merged into the one answer a single process gave.

On several processes (issue 21) each node knows only its own tables: where a
player sits, which tables the room has known, the casino's tables, the
tournaments its hall directs. The table side answers such a read with a
*gathered* responder (:func:`answer_every_gather`: ``bus.respond(subject, answer,
gathered=True)`` with the node's name beside each answer), and the
gateway's side asks here: :func:`ask_every_node` gathers the answers of as many
nodes as the roster counts (:mod:`pokerroom.shell.roster`) and merges them
with the read's own merge, so every caller keeps the answer's shape it had in
one process. In one process the one answer passes through unchanged.

Nobody answering at all is :class:`~pokerroom.bus.NoResponder`, as a plain
request's is, so a caller that treats a room without that service as "none"
keeps doing so. The first refusal of any node fails the read (``security.idle``:
one node that finds the player busy decides). A read goes on with the nodes
that answered within the gather's timeout; a *decision* (``whole=True``: a
rename's or a promotion's "is the player idle everywhere") counts the nodes
afresh and fails closed, ``node_unanswered``, when any of them was silent --
a node that died holds its tables' players until its lease is gone.

A node silent at a gather's timeout is a *suspect* of the roster: the reads
after it await only the others (the gather ends once each of them answered,
``bus.gather(..., enough=...)``), so a dead node costs one timeout, not one a
read, until its lease runs out; any answer of its, one coming after the read
went on too (``late=``), makes it awaited again. Answers carry the answering
node's name for this (:func:`answer_every_gather`).

The roster is registered beside the bus by the composition root
(:func:`count_nodes_with`): it is a fact of the room the bus reaches, and the
services asking are handed the bus alone. A bus without one counts 1 node.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any
from weakref import WeakKeyDictionary

from twisted.internet import defer
from twisted.logger import Logger
from twisted.python.failure import Failure

from pokerroom.bus import NoAnswer, NoResponder
from pokerroom.errors import RuleViolation, Unanswered
from pokerroom.shell.roster import Nodes, OneNode

_ROSTERS: WeakKeyDictionary[Any, Nodes] = WeakKeyDictionary()
_ONE = OneNode()
log = Logger()


def count_nodes_with(bus: Any, nodes: Nodes) -> None:
    """``bus``'s gathers wait for ``nodes.count()`` answers from now on (the composition root, once)."""
    _ROSTERS[bus] = nodes


def nodes_of(bus: Any) -> int:
    return _ROSTERS.get(bus, _ONE).count()


def unanswered(subject: str, came: int, expected: int) -> RuleViolation:
    """The refusal of a decision some node did not answer in time: what it holds is unknown, so nothing is done."""
    return RuleViolation("node_unanswered", f"{expected - came} of the room's {expected} processes did not answer "
                                            f"{subject} in time, so nothing was decided or changed; try again "
                                            "(a process that died leaves the room within seconds)")


def answer_every_gather(bus: Any, subject: str, responder: Callable[[Any], Any]) -> Any:
    """This node's answer to every gather of ``subject`` (``bus.respond(..., gathered=True)``), sent with this node's
    name (its roster's), so the asker knows who answered and who was silent."""

    def named(payload: Any) -> Any:
        answer = responder(payload)
        if isinstance(answer, defer.Deferred):
            return answer.addCallback(lambda one: {NODE: _ROSTERS.get(bus, _ONE).node, ANSWER: one})
        return {NODE: _ROSTERS.get(bus, _ONE).node, ANSWER: answer}

    return bus.respond(subject, named, gathered=True)


NODE, ANSWER = "node", "answer"         # a gathered answer as every node sends it: {node: name, answer: answer}


def _unnamed(answer: Any) -> tuple[str | None, Any]:
    """(the answering node's name, its answer); (None, it) for an answer without one."""
    if isinstance(answer, dict) and len(answer) == 2 and NODE in answer and ANSWER in answer:
        return answer[NODE], answer[ANSWER]
    return None, answer


def ask_every_node(bus: Any, subject: str, payload: Any, merge: Callable[[list[Any]], Any] | None = None, *,
                   whole: bool = False) -> defer.Deferred:
    """Every node's answer to ``subject``, merged (``merge`` of the list; the one answer when not given).

    A read (the default) goes on with the nodes that answered in time, and waits only for the nodes the roster
    does not suspect of silence (:meth:`~pokerroom.shell.roster.Roster.awaited`): a node that was silent once is
    not waited for again until it answers (a late answer counts) or its lease is gone. ``whole``: a decision
    (money, security) that must not take a silent node for "nothing there": the roster is read afresh first (a
    node started since its last beat is waited for too), every live node is awaited, suspect or not, and fewer
    answers than nodes fail it ``node_unanswered``. Either way the nodes silent at the timeout are suspects from
    then on, and the roster is read again at once, so a node that stopped is not counted past that read."""
    roster = _ROSTERS.get(bus, _ONE)

    def merged(answers: list[Any], expected: int, awaited: set[str]) -> Any:
        named = [_unnamed(answer) for answer in answers]
        names = {name for name, _ in named if name is not None}
        roster.answered(names)
        answers = [answer for _, answer in named]
        if answers and len(answers) < expected and not awaited <= names:    # short, not by suspicion
            _silent(roster, awaited - names, named)
            if whole:
                raise unanswered(subject, len(answers), expected)
        if not answers:
            if not awaited:
                raise NoAnswer(f"no node answers {subject}: every node of the room was silent at its last read")
            raise NoResponder(f"nobody answers {subject}")
        if merge is None:
            return answers[0] if len(answers) == 1 else answers
        return merge(answers)

    def silent(failure: Failure, expected: int, awaited: set[str]) -> Any:
        failure.trap(NoAnswer)                          # somebody subscribes, nobody spoke in time
        _silent(roster, awaited, [])
        if whole:
            raise unanswered(subject, 0, expected)
        return failure

    def heard(answer: Any) -> None:                     # an answer after the read went on without it
        name, _ = _unnamed(answer)
        if name is not None:
            roster.answered({name})

    def ask(expected: int) -> defer.Deferred:
        # a plain read waits for the nodes not suspected; if every node is (one slow beat of a lone table process),
        # for all of them again -- one timeout, never "nobody has it" at once
        awaited = roster.live() if whole else (roster.awaited() or roster.live())

        def enough(answers: list[Any]) -> bool:
            return awaited <= {_unnamed(answer)[0] for answer in answers}

        gathered = (bus.gather(subject, payload, expected) if whole else
                    bus.gather(subject, payload, expected, enough=enough, late=heard))
        return gathered.addCallbacks(merged, silent, (expected, awaited), None, (expected, awaited), None)

    return (roster.recounted() if whole else defer.succeed(roster.count())).addCallback(ask)


def _silent(roster: Nodes, missing: set[str], named: list[tuple[str | None, Any]]) -> None:
    """A gather came back short: the nodes awaited that did not answer are suspects (unless some answer came without
    a name, which cannot tell who spoke), and the roster is read again."""
    if all(name is not None for name, _ in named):
        roster.silent(missing)
    _recount(roster)


def _recount(roster: Nodes) -> None:
    roster.recounted().addErrback(lambda failure: log.failure("reading the roster again failed", failure))


# ------------------------------------------------------------------ the merges


def one_or(join: Callable[[list[Any]], Any]) -> Callable[[list[Any]], Any]:
    """One node's answer as it is (a single process's answer, unchanged); several joined."""
    return lambda answers: answers[0] if len(answers) == 1 else join(answers)


def union_sorted(answers: list[Iterable[str]]) -> list[str]:
    """Ids from every node, once each, in order (``tables.known``)."""
    return sorted({item for answer in answers for item in answer})


def any_yes(answers: list[bool]) -> bool:
    """Whether any node says yes (``casino.playing``, ``tournaments.playing``)."""
    return any(answers)


def lists_by_key(*keys: str, order: Callable[[Any], Any] | None = None) -> Callable[[list[dict]], dict]:
    """Each of ``keys``' lists of every node's answer, concatenated, in ``order`` (a key of an item)."""

    def join(answers: list[dict]) -> dict:
        return {key: sorted((item for answer in answers for item in answer[key]), key=order) for key in keys}

    return one_or(join)


def ids(item: str) -> str:
    return item


AT_TABLES = lists_by_key("seated", "leaving", "waiting", order=ids)     # tables.where: the one answer's shape


def by_id(item: dict) -> str:
    return item["id"]


def by_tournament(item: dict) -> str:
    return item["tournament"]


def lines_by(field: str) -> Callable[[list[list[dict]]], list[dict]]:
    """Every node's lines in one list, in ``field`` order (``tables.desk``, ``casino.tables``)."""
    return one_or(lambda answers: sorted((line for answer in answers for line in answer), key=lambda line: line[field]))


def resumable(answers: list[dict]) -> dict:
    """``tables.resume``: each node judged the tables it has; the first table in id order that its node refused
    or that no node has ever known is refused, as one process refused it; else the tables still open, once each,
    in order."""
    unknown = set.intersection(*(set(answer["unknown"]) for answer in answers))
    problems = {table_id: ("no_such_table", f"there is no table {table_id}; resume without it")
                for table_id in unknown}
    for answer in answers:
        problems.update((table_id, (code, sentence)) for table_id, code, sentence in answer["refused"])
    if problems:
        first = min(problems)
        code, sentence = problems[first]
        if first in unknown and code == "no_such_table":     # nobody has it: gone, or between owners (the gateway)
            raise Unanswered(code, sentence, first)
        raise RuleViolation(code, sentence)
    return {"open": sorted({table_id for answer in answers for table_id in answer["open"]}),
            "seated": sorted({table_id for answer in answers for table_id in answer.get("seated", ())})}
