"""Reads every node answers for itself, asked of every node and merged into the one answer a single process gave.

On several processes (issue 21) each node knows only its own tables: where a
player sits, which tables the room has known, the casino's tables, the
tournaments its hall directs. The table side answers such a read with a
*gathered* responder (``bus.respond(subject, answer, gathered=True)``), and the
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


def ask_every_node(bus: Any, subject: str, payload: Any, merge: Callable[[list[Any]], Any] | None = None, *,
                   whole: bool = False) -> defer.Deferred:
    """Every node's answer to ``subject``, merged (``merge`` of the list; the one answer when not given).

    A read (the default) goes on with the nodes that answered in time. ``whole``: a decision (money, security)
    that must not take a silent node for "nothing there": the roster is read afresh first (a node started since
    its last beat is waited for too), and fewer answers than nodes fail it ``node_unanswered``. Either way a
    short gather has the roster read again at once, so a node that stopped is not waited for past that read."""
    roster = _ROSTERS.get(bus, _ONE)

    def merged(answers: list[Any], expected: int) -> Any:
        if answers and len(answers) < expected:        # (none at once: nobody serves it, no node is missing)
            _recount(roster)
            if whole:
                raise unanswered(subject, len(answers), expected)
        if not answers:
            raise NoResponder(f"nobody answers {subject}")
        if merge is None:
            return answers[0] if len(answers) == 1 else answers
        return merge(answers)

    def silent(failure: Failure, expected: int) -> Any:
        failure.trap(NoAnswer)                          # somebody subscribes, nobody spoke in time
        _recount(roster)
        if whole:
            raise unanswered(subject, 0, expected)
        return failure

    def ask(expected: int) -> defer.Deferred:
        return bus.gather(subject, payload, expected).addCallbacks(merged, silent, (expected,), None,
                                                                   (expected,), None)

    return (roster.recounted() if whole else defer.succeed(roster.count())).addCallback(ask)


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
