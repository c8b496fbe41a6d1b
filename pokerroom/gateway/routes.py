"""The gateway: connections and sessions, the route table from request type to service, and forwarding.

Theory of operation
-------------------
A request arrives parsed (:mod:`pokerroom.protocol.schema`) with the
:class:`~pokerroom.gateway.sessions.Session` that sent it. :meth:`Gateway.handle`
looks its type up in the route table -- every service registers its
``_on_<type>`` methods with :meth:`Gateway.serve` -- and returns the answer: a
dict, or a Deferred of one when the answer needs the database or a password
hash. A :class:`~pokerroom.errors.RuleViolation` from any layer becomes an
error answer with its code, sentence and rule ID; anything else is logged and
answered ``server_error``, never a traceback.

Everything a session is sent besides its answers comes from the bus: while it
watches a table, the table's public stream and its player's seat stream there
(all of the table while they sit); while a player is signed in on it, that
player's own stream; while it follows the lobby, the lobby's updates.
The gateway forwards what it gets and has nothing to redact.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from twisted.internet import defer
from twisted.logger import Logger

from pokerroom.bus import Bus, NoAnswer
from pokerroom.bus.records import DISCONNECTED, LOGGED_OUT, TAKEN_OVER, SessionBack, SessionGone
from pokerroom.bus.subjects import (
    LOBBY_UPDATE,
    SESSION_EVENTS,
    TABLE_CLOSED,
    TABLES_MOVING,
    player_stream,
    table_public,
    table_seat,
)
from pokerroom.errors import RuleViolation, Unanswered, table_moving
from pokerroom.gateway.fanout import Fanout, join
from pokerroom.gateway.metrics import Metrics
from pokerroom.gateway.sessions import Connection, Session
from pokerroom.protocol.schema import Request, error, refused

PUBLIC_REQUESTS = frozenset({"register", "login", "resume", "lobby_list", "lobby_subscribe", "observe"})
_IDENTITY = ("player_id", "token", "role", "client_type", "country", "excluded_until", "logged_in_at", "lobby")
_PLAYER = "player"                          # the key of a session's own player stream in ``streams``


class Gateway:
    log = Logger()

    def __init__(self, bus: Bus, metrics: Metrics | None = None) -> None:
        self.bus = bus
        self.metrics = metrics or Metrics()
        self.sessions: dict[str, Session] = {}                 # token -> session
        self.by_player: dict[str, Session] = {}
        self.connections: set[Session] = set()
        self.handlers: dict[str, Callable[..., Any]] = {}      # request type -> a service's handler
        self.public_requests = set(PUBLIC_REQUESTS)            # answered without a login
        self.opened = 0                                         # connections so far: each session's id
        self.epochs = 0                                         # logins and resumes so far: each one's epoch
        self.fanouts: dict[str, Fanout] = {}                    # subject -> this process's viewers of it
        bus.subscribe(TABLE_CLOSED, self._table_closed)

    def _table_closed(self, subject: str, table_id: str) -> None:
        # every session that knew the table, connected or not: one that resumes later must not look for it
        for session in self.everyone():
            self.unwatch(session, table_id)

    def told(self, request: Request, refusal: RuleViolation) -> dict | defer.Deferred:
        """A refusal as the client is told it. One because nobody answered for a table is asked of the side that
        knows the table's lease (``tables.moving``: the tenancy, :meth:`~pokerroom.shell.tenancy.Tenancy.moving`),
        which refuses it ``table_moving`` if the table is between owners; else, and on a room with no leases (nobody
        answers that either), the refusal stands -- unless that ask went unanswered too (the bus carried it, nobody
        answered in time: the broker away), when nobody can say the table is gone: ``table_moving``, ask again. A
        dict when the answer came in the same call."""
        if not (isinstance(refusal, Unanswered) and refusal.table):
            return refused(request.type, request.rid, refusal)
        asked = self.bus.request(TABLES_MOVING, [refusal.kind, refusal.table])
        asked.addCallbacks(lambda _: refusal, self._moving_or, errbackArgs=(refusal,))
        asked.addCallback(lambda told: refused(request.type, request.rid, told))
        if asked.called and not asked.paused:
            return asked.result
        return asked

    @staticmethod
    def _moving_or(failure: Any, refusal: Unanswered) -> RuleViolation:
        if failure.check(RuleViolation):                # the tenancy's own refusal: table_moving
            return failure.value
        if failure.check(NoAnswer):                     # the side that knows could not be asked in time
            return table_moving(refusal.kind, refusal.table)
        return refusal

    # ------------------------------------------------------------------ the route table

    def serve(self, service: Any, public: set[str] | frozenset[str] = frozenset()) -> None:
        """Route a service's requests: each ``_on_<type>`` method; ``public`` ones without a login."""
        for name in dir(service):
            if name.startswith("_on_"):
                if name[4:] in self.handlers:
                    raise ValueError(f"two services answer {name[4:]!r}")
                self.handlers[name[4:]] = getattr(service, name)
        self.public_requests |= set(public)

    def handle(self, session: Session, request: Request) -> dict | defer.Deferred:
        """The answer to one request (a dict or a Deferred of one); never raises."""
        started = time.perf_counter()
        try:
            handler = self.handlers.get(request.type)
            if handler is None:
                raise RuleViolation("unknown_type", f"this room does not answer {request.type!r}")
            if request.type not in self.public_requests and session.player_id is None:
                raise RuleViolation("not_logged_in", "log in first")
            answer = handler(session, request, **request.fields)
        except RuleViolation as refusal:
            return self.told(request, refusal)
        if isinstance(answer, defer.Deferred):
            if request.type == "act":                   # a hand-ending act answers once its end is stored
                answer.addCallback(self._timed, started)
            return answer.addErrback(self._refused, request)
        if request.type == "act":
            self.metrics.latency.observe(time.perf_counter() - started)
        return answer

    def _timed(self, answer: dict, started: float) -> dict:
        self.metrics.latency.observe(time.perf_counter() - started)
        return answer

    def _refused(self, failure: Any, request: Request) -> dict | defer.Deferred:
        if failure.check(RuleViolation):
            return self.told(request, failure.value)
        self.log.failure("request {type} failed", failure, type=request.type)
        return error(request.type, request.rid, "server_error", "the server could not do that; try again")

    # ------------------------------------------------------------------ connections and who is on them

    def connected(self, connection: Connection, ip: str = "") -> Session:
        self.metrics.connections.inc()
        self.opened += 1
        session = Session(connection, f"s{self.opened}", ip=ip)
        self.connections.add(session)
        return session

    def disconnected(self, session: Session) -> None:
        """The connection is gone; the session stays the player's to resume (its tables are kept)."""
        self.metrics.connections.dec()
        self.connections.discard(session)
        session.connection = None
        self._close_streams(session)
        self._gone(session, DISCONNECTED, self.is_current(session))

    def is_current(self, session: Session) -> bool:
        """Whether the session is the one its player is signed in on (not one a newer login took over)."""
        return session.player_id is not None and self.by_player.get(session.player_id) is session

    def identify(self, session: Session, player_id: str) -> None:
        """The session carries ``player_id`` from now on: it is found by the name and gets the player's stream."""
        session.player_id = player_id
        self.by_player[player_id] = session
        self._open_player_stream(session)

    def returned(self, session: Session, why: str) -> None:
        """A player logged in or resumed on ``session`` (``why``: LOGGED_IN or RESUMED): the connection's own hook
        hears it now, the services that care from the bus -- a new epoch, which the session's end will name."""
        self.epochs += 1
        session.epoch = self.epochs
        _hook(session.connection, "identity_began")
        self.bus.publish(SESSION_EVENTS, SessionBack(session.id, session.player_id, why, _tables(session),
                                                     session.epoch))

    def remember_token(self, token: str, session: Session) -> None:
        """A login's or a resume's token: a resume with it in this process finds ``session``."""
        self.sessions[token] = session

    def forget_token(self, token: str | None) -> None:
        """The token resumes nothing here any more (its end in the store is the accounts')."""
        self.sessions.pop(token or "", None)

    def forget_identity(self, session: Session) -> None:
        """The player leaves the session (logout, a ban, another login on it): the services hear it in a record
        made before the session is cleared, so it tells them who and where on whatever turn it arrives."""
        self._gone(session, LOGGED_OUT, self.is_current(session))
        if self.is_current(session):
            del self.by_player[session.player_id]
        session.player_id = session.token = None
        self.unwatch_all(session)
        self._close_streams(session)
        _hook(session.connection, "identity_ended")

    def take_over(self, session: Session, old: Session, code: int, reason: str) -> None:
        """``session`` becomes the player ``old`` was; ``old`` is nobody from now on, and is closed."""
        self._gone(old, TAKEN_OVER, False)                  # the player stays: on ``session``
        for name in _IDENTITY:
            setattr(session, name, getattr(old, name))
        self.unwatch_all(session)
        for table_id in old.tables:
            self.watch(session, table_id)
        if session.player_id is not None:
            self.by_player[session.player_id] = session
            self._open_player_stream(session)
        self.follow_lobby(session, session.lobby)
        old.player_id = old.token = None
        self.unwatch_all(old)
        self._close_streams(old)
        if old.connection is not None:
            old.connection.close(code, reason)

    def _gone(self, session: Session, why: str, current: bool) -> None:
        self.bus.publish(SESSION_EVENTS, SessionGone(session.id, session.player_id, why, current, _tables(session),
                                                     session.epoch))

    def everyone(self) -> set[Session]:
        """Every session the gateway knows, connected or not (one that resumes later is among them)."""
        return {*self.connections, *self.sessions.values(), *self.by_player.values()}

    # ------------------------------------------------------------------ what a session is sent

    def watch(self, session: Session, table_id: str) -> None:
        """The session watches a cash table, kept across a resume (``session.tables``): its public stream, and its
        player's seat there, which carries the whole table to them while they sit (the public frames name them in
        ``instead`` then), so a seated player's frames come on one subject, in the table's order."""
        session.tables.add(table_id)
        self.follow(session, table_public(table_id))
        if session.player_id is not None:
            self.follow(session, table_seat(table_id, session.player_id))

    def hold(self, session: Session, table_id: str) -> None:
        """The table's frames wait while the session is caught up on it (a resume: subscribed first, then the
        host's answer): on a bus that delivers later, one published between the two would come live before the
        catch-up and again in it."""
        for subject in _table_streams(session, table_id):
            session.held[subject] = []

    def release(self, session: Session, table_id: str, seen: int) -> None:
        """The frames held for the table forwarded in their order, but those the catch-up carried (through seq
        ``seen``): a table's frames come in its order, none twice (docs/protocol.md, "Order")."""
        for subject in _table_streams(session, table_id):
            for frame in session.held.pop(subject, ()):
                if frame.message.get("seq", seen + 1) > seen:
                    session.deliver(subject, frame)

    def unwatch(self, session: Session, table_id: str) -> None:
        session.tables.discard(table_id)
        self.unfollow(session, table_public(table_id))
        if session.player_id is not None:
            self.unfollow(session, table_seat(table_id, session.player_id))

    def unwatch_all(self, session: Session) -> None:
        for table_id in list(session.tables):
            self.unwatch(session, table_id)

    def follow(self, session: Session, subject: str) -> None:
        """Forward ``subject``'s frames to the session while it is connected (a table's public stream, a casino
        table, a tournament, the lobby): one subscription for all of this process's viewers of it
        (:mod:`pokerroom.gateway.fanout`); its seat's stream is the session's own."""
        if not (subject.endswith(".public") or subject == LOBBY_UPDATE):    # a seat's: the viewer's own
            self._follow_own(session, subject)
            return
        if session.connection is not None and subject not in session.streams:
            session.streams[subject] = join(self.bus, self.fanouts, subject, session)

    def _follow_own(self, session: Session, subject: str) -> None:
        if session.connection is not None and subject not in session.streams:
            session.streams[subject] = self.bus.subscribe(subject, session.deliver)

    def unfollow(self, session: Session, subject: str) -> None:
        stream = session.streams.pop(subject, None)
        if stream is not None:
            stream.cancel()

    def follow_lobby(self, session: Session, on: bool) -> None:
        session.lobby = on
        if on:
            self.follow(session, LOBBY_UPDATE)
        else:
            self.unfollow(session, LOBBY_UPDATE)

    def _open_player_stream(self, session: Session) -> None:
        self.unfollow(session, _PLAYER)
        if session.connection is not None and session.player_id is not None:
            session.streams[_PLAYER] = self.bus.subscribe(player_stream(session.player_id), session.deliver)
            for table_id in sorted(session.tables):         # watched before the login: the seat's stream too
                self.follow(session, table_seat(table_id, session.player_id))

    @staticmethod
    def _close_streams(session: Session) -> None:
        for stream in session.streams.values():
            stream.cancel()
        session.streams = {}


def _table_streams(session: Session, table_id: str) -> tuple[str, ...]:
    if session.player_id is None:
        return (table_public(table_id),)
    return table_public(table_id), table_seat(table_id, session.player_id)


def _tables(session: Session) -> tuple[str, ...]:
    return tuple(sorted(session.tables))


def _hook(connection: Connection | None, name: str) -> None:
    """Call a connection's optional hook (:class:`~pokerroom.gateway.sessions.Connection`), if it has it."""
    hook = getattr(connection, name, None)
    if hook is not None:
        hook()
