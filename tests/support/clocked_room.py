"""The room in process on a ``Clock``: a recording connection, a started room, a seated player with money,
requests and their answers -- the in-process tests' way in, with no socket and no writer thread."""

from __future__ import annotations

from collections.abc import Callable

from msgpack import unpackb
from twisted.internet import defer
from twisted.internet.task import Clock

from pokerroom.bus.strict import StrictBus
from pokerroom.players import AccountRules
from pokerroom.protocol.codec import pack
from pokerroom.protocol.pushes import PushError, verify_answer, verify_message
from pokerroom.protocol.schema import parse_request
from pokerroom.shell.password_desk import PasswordDesk
from pokerroom.shell.room import Room
from pokerroom.store.room_store import RoomStore
from pokerroom.table.config import tables_from_config

TABLES = {"tables": [{"id": "t1", "variant": "NLHE", "small_blind": 5, "big_blind": 10, "min_buy_in": 400,
                      "max_buy_in": 1000, "seats": 6}]}


MALFORMED: list[str] = []
"""What the room sent that the protocol does not declare (the in-process bus logs a subscriber's error and goes
on: this list keeps it for tests/conftest.py, which fails the test; a strict bus raises it again itself)."""

STRICT_BUSES: list[StrictBus] = []
"""The strict buses made during the running test (tests/conftest.py fills it, settles them at the end and raises
what their subscribers raised)."""


def _due(clock: Clock) -> bool:
    now = clock.seconds()
    return any(call.getTime() <= now for call in clock.getDelayedCalls())


def turn(clocks: list[Clock], done: Callable[[], bool] = lambda: False) -> None:
    """The ``clocks`` turned by 0 (no time passes) until ``done`` or nothing is due on any: what a strict bus
    holds is delivered, and what its subscribers publish and ask meanwhile too."""
    for _ in range(1_000):
        if done():
            return
        moving = [clock for clock in clocks if _due(clock)]
        if not moving:
            return
        for clock in moving:
            clock.advance(0)
    raise AssertionError("the clock still has calls due after 1,000 turns")


def strict_clocks(room: Room | None = None) -> list[Clock]:
    """The Clocks the strict buses of this test (or only ``room``'s) deliver on."""
    buses = [room.bus] if room is not None else STRICT_BUSES
    clocks: list[Clock] = []
    for bus in buses:
        if isinstance(bus, StrictBus) and isinstance(bus.reactor, Clock) and bus.reactor not in clocks:
            clocks.append(bus.reactor)
    return clocks


def settle(room: Room | None = None) -> None:
    """Everything published so far on ``room``'s strict bus (or on every strict bus of this test) delivered, as
    the in-process bus does in the publisher's call, and a subscriber's exception raised here; nothing on the
    in-process bus."""
    turn(strict_clocks(room))
    for bus in [room.bus] if room is not None else STRICT_BUSES:
        if isinstance(bus, StrictBus):
            bus.raise_failures()


class Connection:
    """A socket double that keeps what the room sent it, a close as ``{"closed": code}``.

    Every message is checked against the protocol's declarations first (:func:`verify_message`): each test that
    uses this double is a conformance test of what the room pushes.
    """

    def __init__(self) -> None:
        self.sent: list[dict] = []

    def send(self, message: dict) -> None:
        try:
            verify_message(message)
        except PushError as e:
            MALFORMED.append(f"{e}: {message!r}"[:500])
            raise
        self.sent.append(message)

    def send_frame(self, frame) -> None:   # noqa: ANN001 - a pokerroom.bus.records.Frame
        """A frame many get, as a client reads it (through msgpack: lists, never tuples); the bytes the room packed
        for it ahead (if any) must be the message, packed."""
        message = unpackb(pack(frame.message))
        if frame.packed is not None and unpackb(frame.packed) != message:
            MALFORMED.append(f"packed ahead, not the message: {frame.message!r}"[:500])
        self.send(dict(message, **(frame.extra or {})))

    def close(self, code: int, reason: str) -> None:
        self.sent.append({"closed": code})


def make_room(store: RoomStore, clock: Clock, password_desk: PasswordDesk | None = None, **rules) -> Room:
    """A started room with the one table ``t1`` and these account ``rules`` (and this ``password_desk``)."""
    room = Room(tables_from_config(TABLES), store, clock, account_rules=AccountRules(**rules),
                password_desk=password_desk)
    room.start()
    return room


def request(room: Room, session, kind: str, rid: int = 1, **fields):   # noqa: ANN001, ANN201
    """``session`` asks ``room`` for ``kind``, parsed as a client's message is: the answer or its Deferred.

    On the strict bus a request a service sends on (a table's command, say) is answered on a later turn: the
    room's ``Clock`` turns (no time passes) until it is, and the answer is handed back as a dict."""
    answer = room.handle(session, parse_request({"type": kind, "rid": rid, **fields}))
    settle(room)
    if isinstance(answer, defer.Deferred) and isinstance(room.bus, StrictBus) and _has_result(answer):
        return conform(resolved(answer))                # as the in-process bus would have answered: at once
    return conform(answer)


def _has_result(answer: defer.Deferred) -> bool:
    out: list[object] = []

    def seen(result):   # noqa: ANN001, ANN202
        out.append(True)
        return result

    answer.addBoth(seen)
    return bool(out)


def conform(answer):   # noqa: ANN001, ANN201 - a dict or a Deferred of one, handed back as it came
    """``answer`` (or the answer it will be) checked against the protocol's envelope and wire types; what breaks
    them is kept in :data:`MALFORMED`, which fails the test."""
    def check(message):   # noqa: ANN001, ANN202
        if isinstance(message, dict):
            try:
                verify_answer(message)
            except PushError as e:
                MALFORMED.append(f"{e}: {message!r}"[:500])
        return message

    if isinstance(answer, defer.Deferred):
        return answer.addCallback(check)
    return check(answer)


def resolved(result) -> dict:                                       # noqa: ANN001
    """The answer, whether given at once or as a Deferred that the store (inline on a Clock) has fired (or that a
    strict bus answers once its Clock has turned: what was published meanwhile is delivered too)."""
    settle()
    if isinstance(result, defer.Deferred):
        out = []
        result.addBoth(out.append)
        assert out, "the answer did not come"
        return out[0]
    return result


def player(room: Room, name: str, ip: str = "10.0.0.9"):   # noqa: ANN201
    """A session logged in as ``name`` (from NL) with 10,000 deposited: (session, its connection)."""
    connection = Connection()
    session = room.connected(connection, ip)
    session.player_id, session.country = name, "NL"
    room.gateway.identify(session, name)
    room.deposit(name, 10_000)
    settle(room)
    return session, connection


def with_token(room: Room, session) -> str:   # noqa: ANN001
    """The player gets a stored account and a session token, as a login gives them (its hash in the store)."""
    name = session.player_id
    room.store.accounts.create_account(name, name.casefold(), "not-a-hash", "1990-01-01", "NL", room.reactor.seconds())
    room.open_token(session, room.store.accounts.find_account(name.casefold()))
    return session.token


def play_until(room: Room, clock: Clock, hands: int, table: str = "t1") -> None:
    """Hands played out on their timers (every decision times out) until ``hands`` have ended."""
    t = room.runners[table].table
    while t.hand_number < hands or t.hand is not None:
        clock.advance(5)
    settle(room)
    room.flushed()
