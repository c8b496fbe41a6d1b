"""A casino floor built on a test room's services, as the composition root builds it."""

from __future__ import annotations

from collections.abc import Iterable

from twisted.internet.interfaces import IReactorTime

from pokerroom.bus.subjects import CASINO_PLAYING
from pokerroom.casino.table import CasinoTable
from pokerroom.shell.casino_floor import CasinoFloor
from pokerroom.shell.composition import RoomServices


def casino_floor(room: RoomServices, tables: Iterable[CasinoTable], clock: IReactorTime | None = None) -> CasinoFloor:
    """The floor of ``tables`` on the room's bus, wallet, gateway and writer (its timers on ``clock``, or the
    room's reactor), installed: its requests served, its in-play question answered and asked before a promotion."""
    floor = CasinoFloor(tables, clock=clock or room.reactor, store=room.store, bus=room.bus, wallet=room.wallet,
                        gateway=room.gateway, recorder=room.recorder, may_play=room.play_check.session)
    floor.install()
    room.session_watch.count_in_play("has a casino bet open", CASINO_PLAYING)   # as the root does: SEC-2, asked
    return floor
