"""The room in process on a ``Clock``: a recording connection, a started room, a seated player with money,
requests and their answers -- the in-process tests' way in, with no socket and no writer thread."""

from __future__ import annotations

from collections.abc import Callable

from msgpack import unpackb
from twisted.internet import defer
from twisted.internet.task import Clock
from twisted.python.failure import Failure

from pokerroom import players
from pokerroom.bus.strict import StrictBus
from pokerroom.money.ledger import Transfer
from pokerroom.players import AccountRules
from pokerroom.protocol.codec import pack
from pokerroom.protocol.pushes import PushError, verify_answer, verify_message
from pokerroom.protocol.schema import parse_request
from pokerroom.shell.composition import RoomServices
from pokerroom.shell.password_desk import PasswordDesk
from pokerroom.store.room_store import RoomStore
from pokerroom.table.config import tables_from_config

TABLES = {"tables": [{"id": "t1", "variant": "NLHE", "small_blind": 5, "big_blind": 10, "min_buy_in": 400,
                      "max_buy_in": 1000, "seats": 6}]}


STRICT_BUSES: list[StrictBus] = []
"""The strict buses made during the running test (tests/conftest.py keeps them here, settles them at the end and
raises what their subscribers raised)."""


class _NotedClock:
    """A strict bus's Clock that notes the calls the bus asks of it: a test runs just those (as the in-process bus
    would have delivered in the publisher's call), not the room's own work due on the same turn."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.calls: list = []

    def callLater(self, delay: float, f: Callable, *args, **kw):   # noqa: ANN002, ANN003, ANN201, N802
        call = self.clock.callLater(delay, f, *args, **kw)
        self.calls.append(call)
        return call

    def __getattr__(self, name: str):   # noqa: ANN204
        return getattr(self.clock, name)


def keep(bus: StrictBus) -> None:
    """``bus`` (just made) kept for :func:`settle`; on a Clock, the calls it makes are noted."""
    if isinstance(bus.reactor, Clock):
        bus.reactor = _NotedClock(bus.reactor)
    STRICT_BUSES.append(bus)


def bus_turn(bus: StrictBus) -> bool:
    """The bus's calls due now run (oldest first), as the Clock would run them; whether there were any."""
    noted = bus.reactor
    if not isinstance(noted, _NotedClock):
        return False
    now = noted.clock.seconds()
    noted.calls = [call for call in noted.calls if call.active()]
    due = [call for call in noted.calls if call.getTime() <= now]
    for call in due:
        if call.active():
            func, args, kw = call.func, call.args, call.kw
            call.cancel()
            func(*args, **kw)
    return bool(due)


def _strict(room: RoomServices | None) -> list[StrictBus]:
    buses = [room.bus] if room is not None else STRICT_BUSES
    return [bus for bus in buses if isinstance(bus, StrictBus)]


def turn(buses: list[StrictBus]) -> None:
    """What ``buses`` hold is delivered, and the requests on them answered, turn after turn with no time passing,
    until nothing of theirs is due: only the buses' own calls run, not the room's timers due now."""
    for _ in range(1_000):
        if not any([bus_turn(bus) for bus in buses]):
            return
    raise AssertionError("a strict bus still has deliveries due after 1,000 turns")


def settle(room: RoomServices | None = None) -> None:
    """Everything published so far on ``room``'s strict bus (or on every strict bus of this test) delivered, as
    the in-process bus does in the publisher's call, and a subscriber's exception raised here; nothing on the
    in-process bus."""
    buses = _strict(room)
    turn(buses)
    for bus in buses:
        bus.raise_failures()


class Connection:
    """A socket double that keeps what the room sent it, a close as ``{"closed": code}``.

    Every message is checked against the protocol's declarations first (:func:`verify_message`): each test that
    uses this double is a conformance test of what the room pushes. One that breaks them raises
    :class:`PushError` in the sender's call -- from a bus subscriber, to the strict bus, which raises it again in
    the test (tests/conftest.py).
    """

    def __init__(self) -> None:
        self.sent: list[dict] = []

    def send(self, message: dict) -> None:
        try:
            verify_message(message)
        except PushError as e:
            raise PushError(f"{e}: {message!r}"[:500]) from None
        self.sent.append(message)

    def send_frame(self, frame) -> None:   # noqa: ANN001 - a pokerroom.bus.records.Frame
        """A frame many get, as a client reads it (through msgpack: lists, never tuples); the bytes the room packed
        for it ahead (if any) must be the message, packed."""
        message = unpackb(pack(frame.message))
        if frame.packed is not None and unpackb(frame.packed) != message:
            raise PushError(f"packed ahead, not the message: {frame.message!r}"[:500])
        self.send(dict(message, **(frame.extra or {})))

    def close(self, code: int, reason: str) -> None:
        self.sent.append({"closed": code})


def make_room(store: RoomStore, clock: Clock, password_desk: PasswordDesk | None = None, **rules) -> RoomServices:
    """A started room with the one table ``t1`` and these account ``rules`` (and this ``password_desk``)."""
    room = RoomServices(tables_from_config(TABLES), store, clock, account_rules=AccountRules(**rules),
                        password_desk=password_desk)
    room.startService()
    return room


def request(room: RoomServices, session, kind: str, rid: int = 1, **fields):   # noqa: ANN001, ANN201
    """``session`` asks ``room`` for ``kind``, parsed as a client's message is: the answer or its Deferred.

    On the strict bus a request a service sends on (a table's command, say) is answered on a later turn: the
    room's ``Clock`` turns (no time passes) until it is, and the answer is handed back as a dict."""
    answer = room.gateway.handle(session, parse_request({"type": kind, "rid": rid, **fields}))
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
    """``answer`` (or the answer it will be) checked against the protocol's envelope and wire types: one that
    breaks them raises :class:`PushError` (the Deferred of one fails with it, raised by :func:`resolved`)."""
    def check(message):   # noqa: ANN001, ANN202
        if isinstance(message, dict):
            try:
                verify_answer(message)
            except PushError as e:
                raise PushError(f"{e}: {message!r}"[:500]) from None
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
        if isinstance(out[0], Failure) and out[0].check(PushError):
            out[0].raiseException()                                 # an answer the protocol does not allow
        return out[0]
    return result


def deposit(room: RoomServices, name: str, amount: int) -> Transfer:
    """Play money in for ``name`` (the tests'), within the limits the store holds for their account, if there is one
    (AC-5) -- read from the store, blocking, as a test may."""
    return room.wallet.deposit(name, amount, room.store.accounts.find_account(players.nickname_key(name)))


def player(room: RoomServices, name: str, ip: str = "10.0.0.9"):   # noqa: ANN201
    """A session logged in as ``name`` (from NL) with 10,000 deposited: (session, its connection)."""
    connection = Connection()
    session = room.gateway.connected(connection, ip)
    session.player_id, session.country = name, "NL"
    room.gateway.identify(session, name)
    deposit(room, name, 10_000)
    settle(room)
    return session, connection


def with_token(room: RoomServices, session) -> str:   # noqa: ANN001
    """The player gets a stored account and a session token, as a login gives them (its hash in the store)."""
    name = session.player_id
    room.store.accounts.create_account(name, name.casefold(), "not-a-hash", "1990-01-01", "NL", room.reactor.seconds())
    room.accounts.open_token(session, room.store.accounts.find_account(name.casefold()), room.session_watch.shut)
    return session.token


def play_until(room: RoomServices, clock: Clock, hands: int, table: str = "t1") -> None:
    """Hands played out on their timers (every decision times out) until ``hands`` have ended."""
    t = room.tables.runners[table].table
    while t.hand_number < hands or t.hand is not None:
        clock.advance(5)
    settle(room)
    room.recorder.flushed()
