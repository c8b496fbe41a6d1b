"""The bus the room's services talk through: publish, subscribe by pattern, request and reply.

The contract (every implementation keeps it; ``tests/bus/test_contract.py``
checks it, and a broker-backed bus must pass the same test):

* **Subjects** are dot-separated tokens (``table.nl-1.public``). A pattern's
  ``*`` matches exactly one token and ``>`` (last only) one or more, as NATS
  has it. Publishing to a subject with ``*`` or ``>`` in it is refused.
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
  encoded once per audience; a broker-backed one sends bytes).
* **Request and reply**: one responder per subject answers; a request with
  no responder fails with :class:`NoResponder`; a responder's exception
  becomes the requester's failure (a ``RuleViolation`` keeps its code).
* ``flushed()`` fires once everything published so far has been delivered:
  tests wait on it instead of on time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from twisted.internet import defer

Handler = Callable[[str, Any], None]            # (subject, payload)
Responder = Callable[[Any], Any]                # payload -> answer, or a Deferred of one


class NoResponder(LookupError):
    """A request to a subject nobody answers."""


class BadSubject(ValueError):
    """A subject or pattern that breaks the rules above."""


class Subscription(Protocol):
    def cancel(self) -> None: ...


class Bus(Protocol):
    def publish(self, subject: str, payload: Any) -> None: ...

    def subscribe(self, pattern: str, handler: Handler) -> Subscription: ...

    def respond(self, subject: str, responder: Responder) -> Subscription: ...

    def request(self, subject: str, payload: Any) -> defer.Deferred: ...

    def flushed(self) -> defer.Deferred: ...


def verify_subject(subject: str, *, pattern: bool) -> list[str]:
    """The subject's tokens; a :class:`BadSubject` for an empty token, or a wildcard where none may be."""
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


def make_bus(reactor: Any) -> Bus:
    """The room's bus: in-process (the default, objects handed over in the publisher's call), or with
    ``POKERROOM_BUS=strict`` the broker-like test bus (plain data only, later-turn delivery;
    ``POKERROOM_BUS=strict-reorder`` also shuffles the order across subjects)."""
    import os

    kind = os.environ.get("POKERROOM_BUS", "")
    if kind.startswith("strict"):
        from pokerroom.bus.strict import StrictBus

        return StrictBus(reactor, reorder=kind == "strict-reorder")
    from pokerroom.bus.in_process import InProcessBus

    return InProcessBus()
