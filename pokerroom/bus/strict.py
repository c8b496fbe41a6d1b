"""A bus that behaves as a broker would, for the tests: payloads as bytes, delivery on a later turn.

The in-process bus hands every subscriber the publisher's own object in the
publisher's own call, which hides three things a broker-backed bus will not
forgive: a payload that is a live object (a session, an event dataclass), a
caller that relies on a subscriber having run before ``publish`` returns, and
an order across two subjects. This bus takes each away:

* every payload (and every request and answer) is packed with msgpack at
  once, the records of :mod:`pokerroom.bus.records` as its extension -- a
  payload that is not plain data fails in the publisher's call --
  and each subscriber gets its own unpacked copy;
* delivery happens on a later turn of the reactor (``callLater(0)``), in
  publish order per subject, to the subscriptions that existed when the
  message was published;
* with ``reorder=True`` the messages of different subjects are delivered in
  a shuffled order (each subject's own order kept), as independent broker
  queues may deliver them;
* a subscriber's exception is logged as the in-process bus logs it (a room
  server run on this bus says so in its log) and kept, and raised again from
  :meth:`flushed` (and by :meth:`raise_failures`), so a test sees the bug
  rather than a log line.

It is chosen with ``POKERROOM_BUS=strict`` (see :func:`pokerroom.bus.make_bus`).
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any

from twisted.internet import defer
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger
from twisted.python.failure import Failure

from pokerroom.bus import Handler, NoResponder, Responder, either, matches, verify_subject
from pokerroom.bus.records import NotPlainData, packb, unpackb
from pokerroom.errors import RuleViolation


def pack(subject: str, payload: Any) -> bytes:
    try:
        return packb(payload)
    except NotPlainData as e:
        raise NotPlainData(f"{subject}: the payload is not plain data ({e})") from None


def unpack(data: bytes) -> Any:
    return unpackb(data)


class _Subscription:
    __slots__ = ("bus", "pattern", "tokens", "handler", "active")

    def __init__(self, bus: StrictBus, pattern: str, tokens: list[str], handler: Any) -> None:
        self.bus, self.pattern, self.tokens, self.handler, self.active = bus, pattern, tokens, handler, True

    def cancel(self) -> None:
        if self.active:
            self.active = False
            self.bus.forget(self)


class StrictBus:
    log = Logger()

    def __init__(self, reactor: IReactorTime, *, reorder: bool = False, seed: int = 0) -> None:
        self.reactor = reactor
        self.reorder = reorder
        self.rng = random.Random(seed)
        self.subscriptions: list[_Subscription] = []
        self.responders: dict[str, _Subscription] = {}
        self.gatherers: dict[str, _Subscription] = {}              # gathered responders, by subject
        self.queues: dict[str, deque[tuple[bytes, tuple[_Subscription, ...]]]] = {}   # subject -> waiting messages
        self.turn: Any = None                       # the delayed call that delivers, while one is due
        self.waiting: list[defer.Deferred] = []     # flushed() callers
        self.failures: list[Failure] = []

    # ------------------------------------------------------------------ publish and subscribe

    def publish(self, subject: str, payload: Any) -> None:
        tokens = verify_subject(subject, pattern=False)
        data = pack(subject, payload)
        route = tuple(s for s in self.subscriptions if matches(s.tokens, tokens))
        if route:
            self.queues.setdefault(subject, deque()).append((data, route))
            self._later()

    def subscribe(self, pattern: str, handler: Handler) -> _Subscription:
        subscription = _Subscription(self, pattern, verify_subject(pattern, pattern=True), handler)
        self.subscriptions.append(subscription)
        return subscription

    def forget(self, subscription: _Subscription) -> None:
        if self.responders.get(subscription.pattern) is subscription:
            del self.responders[subscription.pattern]
        elif self.gatherers.get(subscription.pattern) is subscription:
            del self.gatherers[subscription.pattern]
        elif subscription in self.subscriptions:
            self.subscriptions.remove(subscription)

    # ------------------------------------------------------------------ request and reply

    def respond(self, subject: str, responder: Responder, *, shared: bool = False,
                gathered: bool = False) -> _Subscription:
        tokens = verify_subject(subject, pattern=False)
        either(shared, gathered)
        registered = self.gatherers if gathered else self.responders
        if subject in registered:
            raise ValueError(f"{subject} already has a {'gathered ' if gathered else ''}responder")
        subscription = registered[subject] = _Subscription(self, subject, tokens, responder)
        return subscription

    def request(self, subject: str, payload: Any) -> defer.Deferred:
        return self._ask(self.responders, subject, payload)

    def gather(self, subject: str, payload: Any, expected: int, *, enough: Any = None,
               late: Any = None) -> defer.Deferred:
        """The local gathered responder's answer as a one-element list, packed and on a later turn as a request's
        (``[]`` without one): the whole room's, so ``enough`` and ``late`` change nothing."""
        verify_subject(subject, pattern=False)
        return self._ask(self.gatherers, subject, payload, gathered=True)

    def _ask(self, registered: dict[str, _Subscription], subject: str, payload: Any, *,
             gathered: bool = False) -> defer.Deferred:
        data = pack(subject, payload)
        answered: defer.Deferred = defer.Deferred()

        def ask() -> None:
            subscription = registered.get(subject)
            if subscription is None or not subscription.active:
                if gathered:
                    answered.callback([])
                else:
                    answered.errback(NoResponder(f"nobody answers {subject}"))
                return
            d = defer.maybeDeferred(subscription.handler, unpack(data))
            if gathered:
                d.addCallback(lambda answer: [answer])
            d.addCallbacks(lambda answer: self.reactor.callLater(0, self._answer, answered, subject, answer),
                           lambda failure: self.reactor.callLater(0, answered.errback, _carried(failure)))

        self.reactor.callLater(0, ask)
        return answered

    def _answer(self, answered: defer.Deferred, subject: str, answer: Any) -> None:
        try:
            copy = unpack(pack(subject, answer))
        except NotPlainData as e:
            answered.errback(e)
            return
        answered.callback(copy)

    # ------------------------------------------------------------------ delivery

    def _later(self) -> None:
        if self.turn is None:
            self.turn = self.reactor.callLater(0, self._deliver)

    def _deliver(self) -> None:
        """Deliver what was published before this turn; what subscribers publish now waits for the next."""
        self.turn = None
        due = [(subject, len(queue)) for subject, queue in self.queues.items() if queue]
        order: list[str] = [subject for subject, count in due for _ in range(count)]
        if self.reorder:
            self.rng.shuffle(order)             # across subjects; each subject's queue is still taken in order
        for subject in order:
            data, route = self.queues[subject].popleft()
            for subscription in route:
                if subscription.active:
                    try:
                        subscription.handler(subject, unpack(data))
                    except Exception:
                        failure = Failure()
                        self.log.failure("a subscriber of {subject} failed", failure, subject=subject)
                        self.failures.append(failure)
        for subject in [s for s, q in self.queues.items() if not q]:
            del self.queues[subject]
        if self.queues:
            self._later()
        else:
            waiting, self.waiting = self.waiting, []
            for d in waiting:
                self._settle(d)

    def flushed(self) -> defer.Deferred:
        d: defer.Deferred = defer.Deferred()
        if self.queues:
            self.waiting.append(d)
        else:
            self._settle(d)
        return d

    def _settle(self, d: defer.Deferred) -> None:
        if self.failures:
            failure, self.failures = self.failures[0], []
            d.errback(failure)
        else:
            d.callback(None)

    def raise_failures(self) -> None:
        """A subscriber's exception since the last look, raised here (the first of them)."""
        if self.failures:
            failure, self.failures = self.failures[0], []
            failure.raiseException()


def _carried(failure: Failure) -> Failure:
    """A responder's failure as a requester in another process would get it: a refusal keeps its code, sentence,
    rule and amounts (in the currency the responder priced them in)."""
    error = failure.value
    if isinstance(error, RuleViolation):
        carried = RuleViolation(error.code, error.template, error.rule_id, error.amounts)
        if error.currency is not None:
            carried.priced(error.currency)
        return Failure(carried)
    return failure
