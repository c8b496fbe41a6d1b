"""A room on a ``Clock`` serving the security desk, with two tables (``quiet`` blocks chat in a hand, HR-CHAT-4)."""

from __future__ import annotations

from twisted.internet import defer
from twisted.internet.task import Clock

from pokerroom.players import nickname_key
from pokerroom.shell.composition import RoomServices
from pokerroom.shell.security_desk import SecurityDesk
from pokerroom.store.room_store import RoomStore
from pokerroom.table.config import tables_from_config

SECURITY_TABLES = {"tables": [
    {"id": "t1", "variant": "NLHE", "small_blind": 5, "big_blind": 10, "min_buy_in": 400, "max_buy_in": 1000,
     "seats": 6},
    {"id": "quiet", "variant": "NLHE", "small_blind": 5, "big_blind": 10, "min_buy_in": 400, "max_buy_in": 1000,
     "seats": 6, "block_chat_in_hand": True}]}


def account(store: RoomStore, name: str) -> None:
    """A stored account for ``name``, so that the desk's actions on it have a row to change."""
    store.accounts.create_account(name, nickname_key(name), "x", "1990-01-01", "NL", 0.0)


def security_desk(room: RoomServices) -> SecurityDesk:
    """A security desk built on the room's services, as the composition root builds it, serving its requests;
    its thread work runs at once (nothing waits on a pool)."""
    desk = SecurityDesk(store=room.store, reactor=room.reactor, bus=room.bus, recorder=room.recorder,
                        account_rules=room.account_rules, moderation=room.moderation,
                        display_names=room.display_names, gateway=room.gateway, accounts=room.accounts,
                        histories=room.histories, in_thread=lambda work: defer.maybeDeferred(work))
    room.gateway.serve(desk)
    return desk


def security_room(store: RoomStore, clock: Clock) -> tuple[RoomServices, SecurityDesk]:
    """A started room serving a security desk."""
    room = RoomServices(tables_from_config(SECURITY_TABLES), store, clock)
    room.startService()
    return room, security_desk(room)
