"""Rooms the request tests share: on the strict bus (a broker's later turn), with a desk, a casino floor or a hand
dealt, built as the composition root builds them."""

from __future__ import annotations

from twisted.internet.task import Clock

from pokerroom.bus.strict import StrictBus
from pokerroom.players import AccountRules, nickname_key
from pokerroom.shell.composition import RoomServices
from pokerroom.store.room_store import RoomStore
from pokerroom.table.config import tables_from_config
from tests.support.clocked_room import TABLES, make_room, player, request, with_token
from tests.support.directors_desk import directors_desk

CLOSED_IN_HAND = {"tables": [{**TABLES["tables"][0], "seats": 2, "block_chat_in_hand": True}]}   # full with two


def strict_room(store, clock: Clock) -> RoomServices:   # noqa: ANN001
    room = RoomServices(tables_from_config(CLOSED_IN_HAND), store, clock, account_rules=AccountRules(),
                        bus=StrictBus(clock))
    room.startService()
    return room


def playing(room: RoomServices, clock: Clock):   # noqa: ANN001, ANN201
    """ana and bo sit at t1 and a hand is dealt; cy watches. Their sessions and connections."""
    seated = [player(room, name) for name in ("ana", "bo")]
    for seat, (session, _) in enumerate(seated, 1):
        assert request(room, session, "join", table="t1", buy_in=1_000, seat=seat)["ok"]
    cy = player(room, "cy")
    assert request(room, cy[0], "observe", table="t1", on=True)["ok"]
    for _ in range(10):
        if room.tables.runners["t1"].table.hand is not None:
            break
        clock.advance(1.0)
    assert room.tables.runners["t1"].table.hand is not None
    return (*seated, cy)


def staffed(store: RoomStore, clock: Clock, **rules) -> RoomServices:
    """A room with the directors' table desk, so a director command can be tried."""
    room = make_room(store, clock, **rules)
    directors_desk(room, TABLES)
    return room


def signed_in(room: RoomServices, name: str, role: str = "player"):
    """A connected player with a stored account of ``role`` and a token, as a login leaves them."""
    session, connection = player(room, name)
    token = with_token(room, session)
    if role != "player":
        room.store.sessions.set_role(nickname_key(name), role, room.reactor.seconds())
        room.session_watch.cursor = room.store.sessions.last_account_change()      # as if it was so before the login
        session.role = role
    return session, connection, token
