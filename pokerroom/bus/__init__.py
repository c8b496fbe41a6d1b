"""The bus the room's services talk through: publish, subscribe by pattern, request and reply.

The contract (every implementation keeps it; ``tests/bus/test_contract.py``
checks it, and a broker-backed bus must pass the same test):

* **Subjects** are dot-separated tokens (``table.nl-1.public``). A pattern's
  ``*`` matches exactly one token and ``>`` (last only) one or more, as NATS
  has it. Publishing to a subject with ``*`` or ``>`` in it is refused, and
  so is a subject with whitespace or a control character (it would end a
  NATS protocol line; :mod:`pokerroom.bus.subjects` encodes them in names).
* **Ordering**: messages one publisher sends to one subject reach each
  subscriber in the order they were sent. Nothing is promised across
  subjects.
* **Delivery**: at most once, to the subscriptions that exist when the
  message is published; nothing is replayed to a later subscriber and nothing
  reaches a subscription after ``cancel()`` returns. What must outlive a
  process goes to the store, not the bus.
* **Isolation**: a handler that raises is logged and cut off from nothing;
  the other subscribers still get the message and ``publish`` never raises
  because of a subscriber.
* **Payloads** are treated as immutable: a subscriber must not change one
  (the in-process bus hands every subscriber the same object, already
  encoded once per audience; a broker-backed one sends the bytes of
  :func:`pokerroom.bus.records.packb`).
* **Request and reply**: one responder per subject answers; a request with
  no responder fails with :class:`NoResponder` (on a broker, one nobody
  answers in time too: :class:`NoAnswer`); a responder's exception becomes
  the requester's failure -- a ``RuleViolation`` keeps its code, sentence,
  rule, amounts and currency; across processes any other exception arrives as
  :class:`ResponderFailed`, naming its type and message.
* **Shared responders**: ``respond(subject, responder, shared=True)`` is for
  a room-wide service any process may answer (the wallet desk, the cashier's
  moves): on a broker every process registers one and each request reaches
  exactly one of them (a NATS queue group). Without ``shared``, the subject
  has one responder in the whole room -- a table's subjects, answered by the
  process that owns the table; the bus refuses a second one in its own
  process, and the table lease (not the bus) keeps other processes off.
* **Gathered responders** (reads every node answers for itself): ``respond(subject,
  responder, gathered=True)`` registers this process's one answer to a
  subject each node of the room answers for its own tables (``tables.where``,
  ``casino.tables``...). ``gather(subject, payload, expected)`` asks every
  such responder and fires with the list of their answers, in no promised
  order, once ``expected`` answers came -- or, on a broker, at its gather
  timeout with those that came (logged: a node died or hung; it never
  hangs); nobody answering at all is ``[]``. ``enough`` (a test of the
  answers so far, ``[]`` included) ends it early: the asker knows whose answers
  it awaits (:mod:`pokerroom.shell.every_node` names them); fired early, the
  answers that still come before the timeout go to ``late``. In one process
  the list is the one local responder's answer, or empty. A gathered responder answers only
  ``gather`` and a plain one only ``request``: they are different
  registrations, and a subject may have one of each. Refusals: the first
  failure of any node's responder fails the whole gather as ``request`` would
  (a ``RuleViolation`` keeps its code): a node that refuses (``security.idle``:
  the player is busy here) decides, and the answers of the others are dropped.
* ``flushed()`` fires once everything this bus published so far has been
  delivered to this process's subscriptions: tests wait on it instead of on
  time.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from twisted.internet import defer

if TYPE_CHECKING:
    from pokerroom.bus.nats_options import BusTls

Handler = Callable[[str, Any], None]            # (subject, payload)
Responder = Callable[[Any], Any]                # payload -> answer, or a Deferred of one


class NoResponder(LookupError):
    """A request to a subject nobody answers."""


class NoAnswer(NoResponder):
    """A request a broker carried but nobody answered in time (its responder's process hung, or died)."""


class ResponderFailed(RuntimeError):
    """A responder in another process failed with an exception other than a refusal (``kind``: its type)."""

    def __init__(self, kind: str, text: str) -> None:
        super().__init__(f"{kind}: {text}")
        self.kind = kind


def either(shared: bool, gathered: bool) -> None:
    """A responder is shared (one of several answers each request) or gathered (each answers every gather)."""
    if shared and gathered:
        raise ValueError("a responder is shared or gathered, not both")


class BadSubject(ValueError):
    """A subject or pattern that breaks the rules above."""


class Subscription(Protocol):
    def cancel(self) -> None: ...


class Bus(Protocol):
    def publish(self, subject: str, payload: Any) -> None: ...

    def subscribe(self, pattern: str, handler: Handler) -> Subscription: ...

    def respond(self, subject: str, responder: Responder, *, shared: bool = False,
                gathered: bool = False) -> Subscription: ...

    def request(self, subject: str, payload: Any) -> defer.Deferred: ...

    def gather(self, subject: str, payload: Any, expected: int, *, enough: Callable[[list[Any]], bool] | None = None,
               late: Callable[[Any], None] | None = None) -> defer.Deferred: ...

    def flushed(self) -> defer.Deferred: ...


_BLANK = re.compile(r"[\x00-\x20\x7f]")      # whitespace and control characters: never in a subject


def verify_subject(subject: str, *, pattern: bool) -> list[str]:
    """The subject's tokens; a :class:`BadSubject` for an empty token, a wildcard where none may be, or a blank."""
    if _BLANK.search(subject):
        raise BadSubject(f"{subject!r} has whitespace or a control character in it")
    tokens = subject.split(".")
    for i, token in enumerate(tokens):
        if not token:
            raise BadSubject(f"{subject!r} has an empty token")
        if token in ("*", ">"):
            if not pattern:
                raise BadSubject(f"{subject!r}: a message goes to one subject, not a pattern")
            if token == ">" and i != len(tokens) - 1:
                raise BadSubject(f"{subject!r}: '>' may only be the last token")
    return tokens


def matches(pattern_tokens: list[str], subject_tokens: list[str]) -> bool:
    for i, token in enumerate(pattern_tokens):
        if token == ">":
            return len(subject_tokens) > i
        if i >= len(subject_tokens) or (token != "*" and token != subject_tokens[i]):
            return False
    return len(pattern_tokens) == len(subject_tokens)


def make_bus(reactor: Any, url: str | None = None, tls: BusTls | None = None) -> Bus:
    """The room's bus.

    With a ``nats://`` URL (several comma-separated for a cluster; a path names
    the room, ``nats://host:4222/east-room``, so that rooms sharing one NATS
    never hear each other: the default is ``pokerroom``), the
    :class:`~pokerroom.bus.nats_bus.NatsBus`: it is not connected yet, and
    the caller waits for its ``connect()`` Deferred before it builds the room
    on it (services subscribe and answer at start), e.g.
    ``bus = make_bus(reactor, url); yield bus.connect()`` in an ``inlineCallbacks`` start (or
    ``bus.connect().addCallback(lambda _: start_room(bus))``);
    ``close()`` (also run at reactor shutdown) lets the connection go. Its login
    (``nats://user:password@…``, a token, ``POKERROOM_BUS_PASSWORD``) and TLS
    (``tls://…`` with ``tls``'s files) are :mod:`pokerroom.bus.nats_options`'.

    Without one: in-process (the default, objects handed over in the
    publisher's call), or with ``POKERROOM_BUS=strict`` the broker-like test
    bus (plain data only, later-turn delivery; ``POKERROOM_BUS=strict-reorder``
    also shuffles the order across subjects).
    """
    import os

    if url:
        from pokerroom.bus.nats_bus import ROOM, NatsBus
        from pokerroom.bus.nats_options import bus_address

        address = bus_address(url, os.environ, tls, default_room=ROOM)
        return NatsBus(reactor, address.servers, room=address.room, login=address.login)
    kind = os.environ.get("POKERROOM_BUS", "")
    if kind.startswith("strict"):
        from pokerroom.bus.strict import StrictBus

        return StrictBus(reactor, reorder=kind == "strict-reorder")
    from pokerroom.bus.in_process import InProcessBus

    return InProcessBus()
