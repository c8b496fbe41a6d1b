"""The audit chain (SEC-1, SEC-5): what makes the room's records tamper-evident, and how they are checked.

Theory of operation
-------------------
Every record -- a hand once it has ended, a chat line, a seat taken or left, a
connection, a director's, admin's or security officer's action -- is appended
with the SHA-256 of the record before it in its own hash. Change a record and
its hash no longer matches its contents; remove one and the next record's
``previous_hash`` points at nothing; swap two and the links point forwards.
:func:`verify_chain` walks the records in the order they were written and says
where the first of those happened, in a sentence.

Big rows stay in their own tables (a hand's events run to kilobytes): the
chain holds their *digest* (:func:`row_digest`), and the store checks each
row against it. Removing the newest records leaves a shorter chain that is
itself consistent; only a copy of an earlier head kept elsewhere can show it,
so :class:`Anchor` is a head written down by the operator (``pokerroom audit
anchor``) and :func:`verify_chain` checks that every anchor is still there.

This module is pure: records come in, sentences come out.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson

GENESIS = "0" * 64
_CANONICAL = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def canonical(value: Any) -> bytes:
    """One byte string per value: keys sorted, tuples as lists (as they come back from a JSON column)."""
    return orjson.dumps(value, option=_CANONICAL)


def record_hash(previous: str, kind: str, data: Mapping[str, Any], at: float) -> str:
    """A record's hash: the same bytes since the first audit record was written (chains from then still verify)."""
    body = json.dumps([previous, kind, data, repr(float(at))], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


def row_digest(*values: Any) -> str:
    """The digest of a stored row's values, kept in the chain in place of the row itself."""
    return hashlib.sha256(canonical(list(values))).hexdigest()


class Link(Protocol):
    id: int
    kind: str
    data: dict
    at: float
    previous_hash: str
    hash: str


@dataclass(frozen=True, slots=True)
class Anchor:
    """A head of the chain noted outside the database: the ``count``-th record had ``hash``."""

    count: int
    hash: str

    def line(self) -> str:
        return f"{self.count} {self.hash}"

    @classmethod
    def parse(cls, line: str) -> Anchor:
        count, digest = line.split()[:2]
        return cls(int(count), digest)


@dataclass
class Verdict:
    count: int = 0
    head: str = GENESIS
    problems: list[str] = field(default_factory=list)

    @property
    def intact(self) -> bool:
        return not self.problems


def _name(record: Link) -> str:
    return f"record {record.id} ({record.kind})"


def verify_chain(records: Iterable[Link], anchors: Iterable[Anchor] = ()) -> Verdict:
    """Walk ``records`` in id order; every place the chain was edited, cut or reordered, in a sentence."""
    verdict = Verdict()
    previous: Link | None = None
    positions: list[str] = []                   # the hashes in stored order
    broken: list[tuple[Link, Link | None]] = []  # (record, the record stored before it) where the link fails
    for record in records:
        if record_hash(record.previous_hash, record.kind, record.data, record.at) != record.hash:
            verdict.problems.append(f"{_name(record)} was edited: its contents no longer match its hash")
        if record.previous_hash != (previous.hash if previous is not None else GENESIS):
            broken.append((record, previous))
        positions.append(record.hash)
        previous = record
    where = {digest: n for n, digest in enumerate(positions, 1)}
    for record, before in broken:
        if record.previous_hash in where:       # it points at a record stored later: the two were swapped
            verdict.problems.append(f"{_name(record)} is out of order: it was written right after the record "
                                    f"now at position {where[record.previous_hash]}")
        else:
            after = "the start of the chain" if before is None else _name(before)
            verdict.problems.append(f"{_name(record)} does not follow {after}: the record between them was removed, "
                                    f"or {after} was rewritten")
    verdict.count = len(positions)
    verdict.head = positions[-1] if positions else GENESIS
    for anchor in anchors:
        if anchor.count > verdict.count:
            verdict.problems.append(f"the chain has {verdict.count} records but an anchor saw {anchor.count}: "
                                    f"records were removed from its end")
        elif anchor.count > 0 and positions[anchor.count - 1] != anchor.hash:
            verdict.problems.append(f"record {anchor.count} of the chain is not the one an anchor saw "
                                    f"({anchor.hash[:12]}…)")
    return verdict
