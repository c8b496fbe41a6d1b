"""The bus inside one process: the embedded default, as fast as calling the subscribers directly.

Exact subjects are a dict lookup; the few wildcard patterns (the recorder's
``table.*.full``, say) are matched once per new subject and remembered.
Delivery is synchronous, in publish order, so per-subject ordering holds by
construction; ``flushed()`` has nothing to wait for.
"""

from __future__ import annotations

from typing import Any

from twisted.internet import defer
from twisted.logger import Logger

from pokerroom.bus import Handler, NoResponder, Responder, either, matches, verify_subject

ROUTES_KEPT = 100_000          # subjects whose subscribers are remembered; past that the memory starts again


class _Subscription:
    __slots__ = ("bus", "key", "handler", "active")

    def __init__(self, bus: InProcessBus, key: str, handler: Any) -> None:
        self.bus, self.key, self.handler, self.active = bus, key, handler, True

    def cancel(self) -> None:
        if self.active:
            self.active = False
            self.bus.forget(self)


class InProcessBus:
    log = Logger()

    def __init__(self) -> None:
        self.exact: dict[str, list[_Subscription]] = {}
        self.patterns: dict[str, tuple[list[str], list[_Subscription]]] = {}
        self.routes: dict[str, tuple[_Subscription, ...]] = {}     # subject -> its subscribers, cached
        self.responders: dict[str, _Subscription] = {}
        self.gatherers: dict[str, _Subscription] = {}              # gathered responders, by subject

    def publish(self, subject: str, payload: Any) -> None:
        route = self.routes.get(subject)
        if route is None:
            route = self._route(subject)
        for subscription in route:
            if subscription.active:
                try:
                    subscription.handler(subject, payload)
                except Exception:
                    self.log.failure("a subscriber of {subject} failed", subject=subject)

    def _route(self, subject: str) -> tuple[_Subscription, ...]:
        tokens = verify_subject(subject, pattern=False)
        route = tuple(self.exact.get(subject, ()))
        for pattern_tokens, subscriptions in self.patterns.values():
            if matches(pattern_tokens, tokens):
                route += tuple(subscriptions)
        if len(self.routes) >= ROUTES_KEPT:         # subjects of players long gone: nothing to keep them for
            self.routes.clear()
        self.routes[subject] = route
        return route

    def subscribe(self, pattern: str, handler: Handler) -> _Subscription:
        tokens = verify_subject(pattern, pattern=True)
        subscription = _Subscription(self, pattern, handler)
        if "*" in tokens or ">" in tokens:
            self.patterns.setdefault(pattern, (tokens, []))[1].append(subscription)
            self.routes.clear()
        else:
            self.exact.setdefault(pattern, []).append(subscription)
            self.routes.pop(pattern, None)
        return subscription

    def forget(self, subscription: _Subscription) -> None:
        key = subscription.key
        if self.responders.get(key) is subscription:
            del self.responders[key]
            return
        if self.gatherers.get(key) is subscription:
            del self.gatherers[key]
            return
        if key in self.exact:
            subscriptions = self.exact[key]
            subscriptions.remove(subscription)
            if not subscriptions:
                del self.exact[key]
            self.routes.pop(key, None)
        elif key in self.patterns:
            subscriptions = self.patterns[key][1]
            subscriptions.remove(subscription)
            if not subscriptions:
                del self.patterns[key]
            self.routes.clear()

    def respond(self, subject: str, responder: Responder, *, shared: bool = False,
                gathered: bool = False) -> _Subscription:
        """``shared`` changes nothing in one process: this responder is the room's only one; ``gathered``: it
        answers ``gather`` (as the one node of the room) instead of ``request``."""
        verify_subject(subject, pattern=False)
        either(shared, gathered)
        registered = self.gatherers if gathered else self.responders
        if subject in registered:
            raise ValueError(f"{subject} already has a {'gathered ' if gathered else ''}responder")
        subscription = registered[subject] = _Subscription(self, subject, responder)
        return subscription

    def gather(self, subject: str, payload: Any, expected: int, *, enough: Any = None,
               late: Any = None) -> defer.Deferred:
        """The one local gathered responder's answer as a one-element list (``[]`` without one): the whole room's,
        so ``enough`` and ``late`` change nothing."""
        subscription = self.gatherers.get(subject)
        if subscription is None:
            verify_subject(subject, pattern=False)
            return defer.succeed([])
        try:
            answer = subscription.handler(payload)
        except Exception:
            return defer.fail()
        if isinstance(answer, defer.Deferred):
            return answer.addCallback(lambda one: [one])
        return defer.succeed([answer])

    def request(self, subject: str, payload: Any) -> defer.Deferred:
        subscription = self.responders.get(subject)
        if subscription is None:
            return defer.fail(NoResponder(f"nobody answers {subject}"))
        try:                                        # the responder answers in this call: no Deferred of a Deferred
            answer = subscription.handler(payload)
        except Exception:
            return defer.fail()
        return answer if isinstance(answer, defer.Deferred) else defer.succeed(answer)

    def flushed(self) -> defer.Deferred:
        return defer.succeed(None)
