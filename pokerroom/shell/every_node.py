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
one node that finds the player busy decides).

The roster is registered beside the bus by the composition root
(:func:`count_nodes_with`): it is a fact of the room the bus reaches, and the
services asking are handed the bus alone. A bus without one counts 1 node.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any
from weakref import WeakKeyDictionary

from twisted.internet import defer

from pokerroom.bus import NoResponder
from pokerroom.errors import RuleViolation, Unanswered
from pokerroom.shell.roster import Nodes, OneNode

_ROSTERS: WeakKeyDictionary[Any, Nodes] = WeakKeyDictionary()
_ONE = OneNode()


def count_nodes_with(bus: Any, nodes: Nodes) -> None:
    """``bus``'s gathers wait for ``nodes.count()`` answers from now on (the composition root, once)."""
    _ROSTERS[bus] = nodes


def nodes_of(bus: Any) -> int:
    return _ROSTERS.get(bus, _ONE).count()


def ask_every_node(bus: Any, subject: str, payload: Any,
                   merge: Callable[[list[Any]], Any] | None = None) -> defer.Deferred:
    """Every node's answer to ``subject``, merged (``merge`` of the list; the one answer when not given)."""

    def merged(answers: list[Any]) -> Any:
        if not answers:
            raise NoResponder(f"nobody answers {subject}")
        if merge is None:
            return answers[0] if len(answers) == 1 else answers
        return merge(answers)

    return bus.gather(subject, payload, nodes_of(bus)).addCallback(merged)


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
