"""The room's bus on NATS: the same contract as the in-process bus, across processes and machines.

What goes on the wire
---------------------
Every payload, request and answer is the bytes of
:func:`pokerroom.bus.records.packb` (records as a msgpack extension), as the
strict test bus packs them. Subjects are the room's own under a room prefix:
``<room>.s.<subject>`` for published messages, ``<room>.r.<subject>`` for
requests, so a subscriber's pattern (even ``>``) never hears a request and
two rooms may share one NATS. A request is a NATS request with a reply
subject in this bus's own inbox (``_INBOX.<id>.<n>``, one subscription for
all of them); its answer is the responder's answer, or a
:class:`~pokerroom.bus.records.Refused` (a ``RuleViolation``: code, sentence,
rule, amounts, currency) or :class:`~pokerroom.bus.records.Failed` record
that the requester raises again. NATS's "no responders" status is
:class:`~pokerroom.bus.NoResponder`; no answer in ``request_timeout``
seconds is :class:`~pokerroom.bus.NoAnswer`. ``respond(..., shared=True)``
joins the queue group ``responders`` of its subject: each request reaches one
of the processes that answer it. ``respond(..., gathered=True)`` is a plain
(non-queue) subscription on ``<room>.g.<subject>``, so every node's responder
hears each gather; ``gather`` publishes once there with a reply subject in this
bus's inbox (``_INBOX.<id>.g<n>``) and collects the answers under that number
until ``expected`` came, or ``gather_timeout`` seconds passed (then it fires
with those that came, and logs how many were missing; none at all is
:class:`~pokerroom.bus.NoAnswer`); NATS's "no responders"
status ends it at once with none, and a node whose responder was cancelled as
the gather reached it (its table host stopping) is one answer fewer to wait
for, not a failure.

Twisted and asyncio
-------------------
nats-py is asyncio; the room runs Twisted's default (epoll) reactor. The
bus hands work across in batches, never one wake-up a message: what the
room publishes waits in an outbox that one call on the asyncio loop drains
into nats-py's write buffer, and what arrives waits in an inbox that one
reactor call delivers. Two bridges carry those calls:

* :class:`ThreadBridge` (chosen on any reactor but the asyncio one): an
  asyncio loop in a thread of its own; ``loop.call_soon_threadsafe`` one way,
  ``reactor.callFromThread`` the other.
* :class:`SharedLoop` (chosen when the reactor is Twisted's
  ``asyncioreactor``): both on one loop in one thread; ``loop.call_soon`` both
  ways.

``bench/bus.py`` measures both for a table's traffic (a command request of
100 bytes, its answer, six seat frames of 300 bytes; gateway and host on two
connections). In six runs on this shared two-core machine: the thread
bridge costs 150-215 us of CPU per action under load (9.5-13x the
in-process bus of the same run), the shared loop 130-180 us (8-9.5x), and a
lone action's round trip is 0.42-0.55 ms against 0.33-0.43 ms. So the
asyncio reactor saves 20-45 us an action on the bus -- but it costs the
rest of the process too: every socket read and write of the room's clients
goes through asyncio's handles, and the same runs' 300-byte TCP echo costs
1.40-1.49x as much on it as on epoll (about +3 us a socket operation). A
cash action is a command read and six or more frames written, so the room
would give back 20 us or more of the saving, and what is left (a few per
cent of a cluster action at most) is smaller than the noise between two
runs here.
Against that, the thread bridge leaves the room as it is: the reactor it is
tested and measured on, the composition root unchanged, any reactor at
all. It is the default. A room started on the asyncio reactor gets the
shared loop without being asked (:func:`bridge_for`). The cost that both
share is nats-py's own: a task and a queue per subscription, a message
object per delivery. :mod:`pokerroom.bus.nats_direct` takes the messages
from nats-py's parser straight into the inbox instead (its hook is
nats-py internals; without it the subscriptions' callbacks still deliver);
a NATS protocol written on Twisted would remove the rest and the bridge
with it, if the cluster's CPU per action needs it.

Order and delivery: one NATS subscription per bus subscription, so the
server's per-connection order is each subscriber's per-subject order, and a
subscription made after a publish (on this connection) cannot hear it.
``cancel()`` stops delivery at once (the message already on its way is
dropped on the reactor's side; a request already in this process is
answered ``NoResponder``, one still on its way to it is dropped by nats-py
and its requester's wait ends in ``NoAnswer``). ``flushed()`` publishes a marker to this
bus's inbox behind everything published so far (not nats-py's ``flush()``:
its PING is written ahead of the commands still in its buffer); once the
marker is back, the messages before it are in nats-py's subscription
queues, and the bus waits until those are empty before it fires, behind
them, from the inbox.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
import uuid
from collections import deque
from collections.abc import Callable, Coroutine
from functools import partial
from typing import Any

import nats
from twisted.internet import defer
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger
from twisted.python.failure import Failure

from pokerroom.bus import Handler, NoAnswer, NoResponder, Responder, ResponderFailed, either, verify_subject
from pokerroom.bus.nats_direct import Direct
from pokerroom.bus.nats_options import NO_LOGIN, NatsLogin
from pokerroom.bus.records import Failed, NotPlainData, Refused, packb, unpackb
from pokerroom.errors import RuleViolation

ROOM = "pokerroom"                  # the subjects' prefix on the wire: the processes of one room share it
QUEUE = "responders"                # the queue group of shared responders
REQUEST_TIMEOUT = 10.0              # seconds a request waits for its answer before it is NoAnswer
GATHER_TIMEOUT = 2.0                # seconds a gather waits for a node's answer: a read, not a move; a dead node's
                                    # count leaves the roster within a lease's ttl
NO_RESPONDERS = "503"               # the status NATS answers a request with when nobody subscribes to it
CONNECT_ATTEMPTS = 2                # tries of each server at start, a second apart, before connect() fails
VERIFIED_KEPT = 100_000             # subjects known to be well formed; past that the memory starts again
MAX_PAYLOAD = 1 << 20               # NATS's default largest message, until the server says its own


class TooLarge(ValueError):
    """A message larger than the NATS server takes (its ``max_payload``): refused in the publisher's call."""


CARRIED = {"NoResponder": NoResponder, "NoAnswer": NoAnswer, "NotPlainData": NotPlainData, "TooLarge": TooLarge}


class ThreadBridge:
    """An asyncio loop in a thread of its own, for a room on any reactor but the asyncio one."""

    def __init__(self, reactor: Any) -> None:
        self.reactor = reactor
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, name="nats-bus", daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def start(self) -> None:
        self.thread.start()

    def to_loop(self, call: Callable[[], Any]) -> None:
        self.loop.call_soon_threadsafe(call)

    def to_reactor(self, call: Callable[..., Any], *args: Any) -> None:
        self.reactor.callFromThread(call, *args)

    def stop(self) -> None:
        if self.thread.is_alive():
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join()
        self.loop.close()


class SharedLoop:
    """Twisted's asyncio reactor: the bus's loop is the reactor's, one thread for both."""

    def __init__(self, reactor: Any) -> None:
        self.loop = reactor._asyncioEventloop           # Twisted internals: the loop AsyncioSelectorReactor runs

    def start(self) -> None:
        pass

    def to_loop(self, call: Callable[[], Any]) -> None:
        self.loop.call_soon(call)

    def to_reactor(self, call: Callable[..., Any], *args: Any) -> None:
        self.loop.call_soon(call, *args)

    def stop(self) -> None:
        pass


def bridge_for(reactor: Any) -> ThreadBridge | SharedLoop:
    from twisted.internet.asyncioreactor import AsyncioSelectorReactor

    return SharedLoop(reactor) if isinstance(reactor, AsyncioSelectorReactor) else ThreadBridge(reactor)


def _raised(record: Refused | Failed) -> Exception:
    """A responder's failure as the requester raises it again: a refusal with its code, sentence, rule, amounts
    and currency; the bus's own failures as themselves; anything else as :class:`ResponderFailed`."""
    if isinstance(record, Refused):
        refusal = RuleViolation(record.code, record.template, record.rule, record.amounts)
        return refusal.priced(record.currency) if record.currency else refusal
    carried = CARRIED.get(record.kind)
    return carried(record.text) if carried else ResponderFailed(record.kind, record.text)


class _Gathering:
    """A gather on its way: the answers come, one a node, to one number of the inbox."""

    __slots__ = ("subject", "expected", "enough", "late", "done", "answers", "answered", "timeout")

    def __init__(self, subject: str, expected: int, enough: Callable[[list[Any]], bool] | None,
                 late: Callable[[Any], None] | None) -> None:
        self.subject, self.expected, self.enough, self.late = subject, expected, enough, late
        self.done = False                   # fired early (``enough``): what still comes goes to ``late``
        self.answers: list[Any] = []
        self.answered: defer.Deferred = defer.Deferred()
        self.timeout: Any = None

    def complete(self) -> bool:
        return len(self.answers) >= self.expected or (self.enough is not None and self.enough(self.answers))


class _Subscription:
    """A subscriber (or a responder) of this bus: its handler on the reactor's side, its NATS subscription on the
    loop's."""

    __slots__ = ("bus", "subject", "handler", "active", "nats", "cut")

    def __init__(self, bus: NatsBus, subject: str, handler: Any, cut: int) -> None:
        self.bus, self.subject, self.handler, self.cut = bus, subject, handler, cut
        self.active, self.nats = True, None

    def cancel(self) -> None:
        if self.active:
            self.active = False
            self.bus.forget(self)

    async def heard(self, msg: Any) -> None:            # the loop's side: a subscriber's message
        self.bus.arrived(self.deliver, msg.subject, msg.data)

    async def asked(self, msg: Any) -> None:            # the loop's side: a request to a responder
        self.bus.arrived(self.answer, msg.reply, msg.data)

    def heard_direct(self, subject: bytes, _reply: bytes, data: bytes) -> None:     # the same, without a Msg
        self.bus.arrived(self.deliver, subject.decode(), data)

    def asked_direct(self, _subject: bytes, reply: bytes, data: bytes) -> None:
        self.bus.arrived(self.answer, reply.decode(), data)

    def deliver(self, subject: str, data: bytes) -> None:
        if self.active:
            try:
                self.handler(subject[self.cut:], unpackb(data))
            except Exception:
                self.bus.log.failure("a subscriber of {subject} failed", subject=subject[self.cut:])

    def answer(self, reply: str, data: bytes) -> None:
        bus = self.bus
        if not self.active:                             # cancelled while the request was in the inbox
            bus.refuse(self.subject, reply, Failure(NoResponder(f"nobody answers {self.subject}")))
            return
        try:                                            # the plain answer in this call, as the in-process bus
            answer = self.handler(unpackb(data))
        except Exception:
            bus.refuse(self.subject, reply, Failure())
            return
        if isinstance(answer, defer.Deferred):
            answer.addCallbacks(partial(bus.reply, reply), partial(bus.refuse, self.subject, reply))
        else:
            bus.reply(reply, answer)


class NatsBus:
    """The bus over one NATS connection. ``connect()`` before use (what is published earlier waits for it)."""

    log = Logger()

    def __init__(self, reactor: Any, url: str, *, room: str = ROOM, request_timeout: float = REQUEST_TIMEOUT,
                 gather_timeout: float = GATHER_TIMEOUT, bridge: ThreadBridge | SharedLoop | None = None,
                 clock: IReactorTime | None = None, login: NatsLogin = NO_LOGIN) -> None:
        verify_subject(room, pattern=False)
        self.login = login                              # its credentials and TLS (nats_options.py)
        self.reactor, self.servers = reactor, url.split(",")
        self.clock = clock if clock is not None else reactor          # what times a request out
        self.streams, self.requests, self.gathers = f"{room}.s.", f"{room}.r.", f"{room}.g."
        self.request_timeout = request_timeout
        self.gather_timeout = gather_timeout
        self.max_payload = MAX_PAYLOAD
        self.bridge = bridge if bridge is not None else bridge_for(reactor)
        self.loop = self.bridge.loop
        self.client: Any = None                         # nats-py's client, used on the loop's side only
        self.direct: Direct | None = None               # its messages straight to the bus (loop's side)
        self.outbox: deque[tuple[Callable[..., Coroutine[Any, Any, Any]], tuple]] = deque()
        self.out_due = False                            # a drain of the outbox is on its way to the loop
        self.sending = False                            # the loop is draining it (loop's side)
        self.inbox: deque[tuple[Callable[..., Any], tuple]] = deque()
        self.in_due = False                             # a drain of the inbox is on its way to the reactor
        self.verified: set[str] = set()
        self.subscriptions: set[_Subscription] = set()  # live ones, with their NATS subscriptions (loop's side)
        self.responders: dict[str, _Subscription] = {}
        self.gatherers: dict[str, _Subscription] = {}   # gathered responders, by subject
        self.gathering: dict[str, _Gathering] = {}      # "g<n>" -> a gather collecting its answers
        self.replies = f"_INBOX.{uuid.uuid4().hex}."    # this bus's inbox: a request's answer comes to replies + n
        self.asked: dict[str, tuple[defer.Deferred, Any, str]] = {}   # n -> (answer, its timeout, subject)
        self.numbers = itertools.count()
        self.markers: dict[str, asyncio.Future] = {}    # flushed()'s markers on their way (loop's side)
        self.shutdown: Any = None
        self.started = self.closed = False

    # ------------------------------------------------------------------ the reactor's side

    def _verified(self, subject: str) -> None:
        if subject not in self.verified:
            verify_subject(subject, pattern=False)
            if len(self.verified) >= VERIFIED_KEPT:
                self.verified.clear()
            self.verified.add(subject)

    def _packed(self, subject: str, payload: Any) -> bytes:
        try:
            data = packb(payload)
        except NotPlainData as e:
            raise NotPlainData(f"{subject}: the payload is not plain data ({e})") from None
        if len(data) > self.max_payload:
            raise TooLarge(f"{subject}: {len(data)} bytes, more than the NATS server's {self.max_payload}")
        return data

    def publish(self, subject: str, payload: Any) -> None:
        self._verified(subject)
        self.send(self._publish, self.streams + subject, self._packed(subject, payload), "")

    def subscribe(self, pattern: str, handler: Handler) -> _Subscription:
        verify_subject(pattern, pattern=True)
        subscription = _Subscription(self, pattern, handler, len(self.streams))
        self.send(self._subscribe, subscription, self.streams + pattern, "", subscription.heard,
                  subscription.heard_direct)
        return subscription

    def respond(self, subject: str, responder: Responder, *, shared: bool = False,
                gathered: bool = False) -> _Subscription:
        """Answer ``subject``'s requests; ``shared``: one of several processes answering it (a queue group);
        ``gathered``: this node's answer to every gather of ``subject`` (a plain subscription of its own space)."""
        verify_subject(subject, pattern=False)
        either(shared, gathered)
        registered = self.gatherers if gathered else self.responders
        if subject in registered:
            raise ValueError(f"{subject} already has a {'gathered ' if gathered else ''}responder")
        subscription = registered[subject] = _Subscription(self, subject, responder, 0)
        self.send(self._subscribe, subscription, (self.gathers if gathered else self.requests) + subject,
                  QUEUE if shared else "", subscription.asked, subscription.asked_direct)
        return subscription

    def forget(self, subscription: _Subscription) -> None:
        if self.responders.get(subscription.subject) is subscription:
            del self.responders[subscription.subject]
        elif self.gatherers.get(subscription.subject) is subscription:
            del self.gatherers[subscription.subject]
        self.send(self._unsubscribe, subscription)

    def gather(self, subject: str, payload: Any, expected: int, *, enough: Callable[[list[Any]], bool] | None = None,
               late: Callable[[Any], None] | None = None) -> defer.Deferred:
        """Every node's gathered answer to ``subject``: fires with the list once ``expected`` came (or ``enough``
        says so of those that came), or with those that came at the gather timeout
        (:class:`~pokerroom.bus.NoAnswer` if none did: a node subscribes, so that is not "nobody answers it");
        the first failure of any of them fails it. Fired early, it hands each answer that still comes before the
        timeout to ``late``."""
        self._verified(subject)
        data = self._packed(subject, payload)
        if self.closed:
            return defer.fail(NoResponder(f"the bus is closed: nobody answers {subject} here"))
        number = f"g{next(self.numbers)}"
        gathering = _Gathering(subject, max(1, expected), enough, late)
        gathering.timeout = self.clock.callLater(self.gather_timeout, self._gathered_late, number)
        self.gathering[number] = gathering
        self.send(self._publish, self.gathers + subject, data, self.replies + number)
        if enough is not None and enough([]):           # nobody awaited: the answer now, the late ones heard
            self._fire(number, gathering, [])
        return gathering.answered

    def _fire(self, number: str, gathering: _Gathering, done: Any) -> None:
        """A gather's end: with its failure, or with its answers -- kept listening till the timeout if some
        node's answer may still come and somebody hears late ones."""
        if isinstance(done, Failure) or gathering.late is None or len(gathering.answers) >= gathering.expected:
            del self.gathering[number]
            gathering.timeout.cancel()
        else:
            gathering.done = True
        if isinstance(done, Failure):
            gathering.answered.errback(done)
        else:
            gathering.answered.callback(done)

    def _gathered_late(self, number: str) -> None:
        gathering = self.gathering.pop(number)
        if gathering.done:                              # fired early: its late answers are over
            return
        self.log.warn("{subject}: {came} of {expected} nodes answered within {timeout:g} s", subject=gathering.subject,
                      came=len(gathering.answers), expected=gathering.expected, timeout=self.gather_timeout)
        if not gathering.answers:                       # someone subscribes (no 503), nobody spoke: not "none"
            gathering.answered.errback(NoAnswer(f"no node answered {gathering.subject} within "
                                                f"{self.gather_timeout:g} s"))
            return
        gathering.answered.callback(gathering.answers)

    def _one_gathered(self, number: str, data: bytes, status: str | None) -> None:
        gathering = self.gathering[number]
        if gathering.done:
            self._late(gathering, data, status)
            return
        if status == NO_RESPONDERS:                     # no node answers this subject at all
            done: Any = []
        else:
            try:
                answer = unpackb(data)
            except Exception:
                answer = Failed("undecodable", "an answer that is not the bus's packing")
            if isinstance(answer, Failed) and answer.kind == "NoResponder":
                gathering.expected -= 1                 # its responder was cancelled as the gather reached it
                if not gathering.complete():
                    return
                done = gathering.answers
            elif isinstance(answer, Refused | Failed):
                done = Failure(_raised(answer))
            else:
                gathering.answers.append(answer)
                if not gathering.complete():
                    return
                done = gathering.answers
        self._fire(number, gathering, done)

    def _late(self, gathering: _Gathering, data: bytes, status: str | None) -> None:
        """An answer to a gather that fired before it came: to ``late`` (a refusal or a failure, to nobody)."""
        if status == NO_RESPONDERS or gathering.late is None:
            return
        try:
            answer = unpackb(data)
        except Exception:
            return
        if isinstance(answer, Refused | Failed):
            return
        try:
            gathering.late(answer)
        except Exception:
            self.log.failure("hearing a late answer to {subject} failed", subject=gathering.subject)

    def request(self, subject: str, payload: Any) -> defer.Deferred:
        self._verified(subject)
        data = self._packed(subject, payload)
        if self.closed:
            return defer.fail(NoResponder(f"the bus is closed: nobody answers {subject} here"))
        number = str(next(self.numbers))
        answered: defer.Deferred = defer.Deferred()
        timeout = self.clock.callLater(self.request_timeout, self._unanswered, number)
        self.asked[number] = (answered, timeout, subject)
        self.send(self._publish, self.requests + subject, data, self.replies + number)
        return answered

    def _unanswered(self, number: str) -> None:
        answered, _, subject = self.asked.pop(number)
        answered.errback(NoAnswer(f"nobody answered {subject} within {self.request_timeout:g} s"))

    def _answered(self, reply: str, data: bytes, status: str | None) -> None:
        number = reply[len(self.replies):]
        if number in self.gathering:
            self._one_gathered(number, data, status)
            return
        entry = self.asked.pop(number, None)
        if entry is None:                               # an answer after its timeout
            return
        answered, timeout, subject = entry
        timeout.cancel()
        if status == NO_RESPONDERS:
            answered.errback(NoResponder(f"nobody answers {subject}"))
            return
        try:
            answer = unpackb(data)
        except Exception:
            answered.errback()
            return
        if isinstance(answer, Refused | Failed):
            answered.errback(_raised(answer))
        else:
            answered.callback(answer)

    def reply(self, reply: str, answer: Any) -> None:
        """A responder's answer on its way back (a Failed record when it is not plain data)."""
        try:
            if isinstance(answer, Refused | Failed):
                raise NotPlainData("an answer is never one of the bus's own failure records")
            data = self._packed("the answer", answer)
        except (NotPlainData, TooLarge) as e:
            data = packb(Failed(type(e).__name__, str(e)))
        self.send(self._publish, reply, data, "")

    def refuse(self, subject: str, reply: str, failure: Failure) -> None:
        """A responder's failure on its way back: a refusal as itself, anything else logged here and named."""
        error = failure.value
        if isinstance(error, RuleViolation):
            record: Any = Refused(error.code, error.template, error.rule_id, error.amounts, error.currency)
        else:
            if not isinstance(error, NoResponder):
                self.log.failure("the responder of {subject} failed", failure, subject=subject)
            record = Failed(type(error).__name__, str(error))
        self.send(self._publish, reply, packb(record), "")

    def flushed(self) -> defer.Deferred:
        d: defer.Deferred = defer.Deferred()
        self.send(self._flush, d)
        return d

    def send(self, step: Callable[..., Coroutine[Any, Any, Any]], *args: Any) -> None:
        """Queue one step for the loop, in order; one wake-up of the loop takes every step queued by then. Once
        the bus is closed (a service still publishing while the reactor stops), nothing more goes out."""
        if self.closed:
            return
        self.outbox.append((step, args))
        if not self.out_due:
            self.out_due = True
            self.bridge.to_loop(self._drain_out)

    def _drain_in(self) -> None:
        self.in_due = False
        inbox = self.inbox
        while inbox:
            call, args = inbox.popleft()
            try:
                call(*args)
            except Exception:
                self.log.failure("the NATS bus could not deliver")

    # ------------------------------------------------------------------ the loop's side

    def arrived(self, call: Callable[..., Any], *args: Any) -> None:
        """Something for the reactor; one wake-up of the reactor takes everything arrived by then."""
        self.inbox.append((call, args))
        if not self.in_due:
            self.in_due = True
            self.bridge.to_reactor(self._drain_in)

    def _drain_out(self) -> None:
        self.out_due = False
        if self.client is not None and not self.sending:
            self.sending = True
            self.loop.create_task(self._send_all())

    async def _send_all(self) -> None:
        try:
            while self.outbox:
                step, args = self.outbox.popleft()
                try:
                    await step(*args)
                except Exception as e:                  # noqa: BLE001 - one step lost is logged, not the rest
                    self.bridge.to_reactor(self._lost, step.__name__, e)
        finally:
            self.sending = False

    def _lost(self, step: str, error: Exception) -> None:
        self.log.error("the NATS bus could not {step}: {error!r}", step=step.strip("_"), error=error)

    async def _publish(self, subject: str, data: bytes, reply: str) -> None:
        await self.client.publish(subject, data, reply=reply)

    async def _subscribe(self, subscription: _Subscription, subject: str, queue: str, heard: Any,
                         direct: Any) -> None:
        if subscription.active:
            subscription.nats = await self.client.subscribe(subject, queue=queue, cb=heard)
            self.direct.add(subscription.nats, direct)
            self.subscriptions.add(subscription)

    async def _unsubscribe(self, subscription: _Subscription) -> None:
        if subscription.nats is not None:
            self.subscriptions.discard(subscription)
            nats_subscription, subscription.nats = subscription.nats, None
            self.direct.remove(nats_subscription)
            await nats_subscription.unsubscribe()

    async def _flush(self, d: defer.Deferred) -> None:
        marker = f"f{next(self.numbers)}"               # behind what was published, through the server
        self.markers[marker] = heard = self.loop.create_future()
        await self.client.publish(self.replies + marker, b"")
        await heard
        while any(s.nats.pending_msgs for s in self.subscriptions if s.nats is not None):
            await asyncio.sleep(0)                      # each subscription's task hands its queue to the inbox
        self.arrived(d.callback, None)

    async def _replied(self, msg: Any) -> None:
        self._replied_direct(msg.subject, msg.data, msg.headers.get("Status") if msg.headers else None)

    def _replied_direct(self, subject: bytes | str, data: bytes, status: str | None = None) -> None:
        if isinstance(subject, bytes):
            subject = subject.decode()
        heard = self.markers.pop(subject[len(self.replies):], None)
        if heard is not None:
            heard.set_result(None)
        else:
            self.arrived(self._answered, subject, data, status)

    async def _connect(self) -> None:
        client = await self.login.connect(nats.connect, servers=self.servers, name=self.streams.rstrip("."),
                                    error_cb=self._error, disconnected_cb=self._disconnected,
                                    reconnected_cb=self._reconnected, max_reconnect_attempts=CONNECT_ATTEMPTS,
                                    reconnect_time_wait=1, connect_timeout=2)
        client.options["max_reconnect_attempts"] = -1   # connected once: a room rides out a NATS restart
        self.direct = Direct(client)
        inbox = await client.subscribe(self.replies + "*", cb=self._replied)
        self.direct.add(inbox, lambda subject, _reply, data: self._replied_direct(subject, data))
        self.max_payload = client.max_payload
        self.client = client
        self._drain_out()

    async def _close(self) -> None:
        client, self.client = self.client, None
        if client is not None:
            try:
                await client.flush(timeout=2)
            finally:
                await client.close()

    async def _error(self, error: Exception) -> None:
        self.bridge.to_reactor(partial(self.log.warn, "NATS: {error!r}", error=error))

    async def _disconnected(self) -> None:
        self.bridge.to_reactor(self.log.warn, "NATS: disconnected; reconnecting")

    async def _reconnected(self) -> None:
        self.bridge.to_reactor(self.log.info, "NATS: reconnected")

    # ------------------------------------------------------------------ starting and stopping

    def _on_loop(self, coroutine: Callable[[], Coroutine[Any, Any, Any]]) -> defer.Deferred:
        d: defer.Deferred = defer.Deferred()

        def done(task: asyncio.Task) -> None:
            error = asyncio.CancelledError() if task.cancelled() else task.exception()
            self.bridge.to_reactor(d.errback if error else d.callback, error)

        def start() -> None:
            self.loop.create_task(coroutine()).add_done_callback(done)

        self.bridge.to_loop(start)
        return d

    def connect(self) -> defer.Deferred:
        """Fires once the connection is up and this bus's inbox subscribed; fails if no server answers."""
        if self.started or self.closed:
            return defer.fail(RuntimeError("a NatsBus connects once"))
        self.bridge.start()
        self.started = True
        self.shutdown = self.reactor.addSystemEventTrigger("before", "shutdown", self.close)
        return self._on_loop(self._connect)

    def close(self) -> defer.Deferred:
        """What was published is flushed to the server, the connection closed, the loop's thread ended."""
        if self.closed:
            return defer.succeed(None)
        self.closed = True
        if self.shutdown is not None:
            self.reactor.removeSystemEventTrigger(self.shutdown)
            self.shutdown = None
        for answered, timeout, subject in self.asked.values():
            timeout.cancel()
            answered.errback(NoAnswer(f"the bus closed before {subject} was answered"))
        self.asked.clear()
        for gathering in self.gathering.values():
            gathering.timeout.cancel()
            if not gathering.done:
                gathering.answered.callback(gathering.answers)  # those that came, as at the timeout
        self.gathering.clear()
        if not self.started:
            self.bridge.stop()
            return defer.succeed(None)

        def stopped(result: Any) -> Any:
            self.bridge.stop()
            return result

        return self._on_loop(self._close).addBoth(stopped)

