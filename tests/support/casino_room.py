"""A casino floor built on a test room's services, as the composition root builds it; one on the strict bus."""

from __future__ import annotations

from collections.abc import Iterable

from twisted.internet.interfaces import IReactorTime
from twisted.internet.task import Clock

from pokerroom.bus.strict import StrictBus
from pokerroom.bus.subjects import CASINO_PLAYING
from pokerroom.casino.betting import Limits
from pokerroom.casino.config import build_table
from pokerroom.casino.table import CasinoRules, CasinoTable
from pokerroom.players import AccountRules
from pokerroom.shell.casino_floor import CasinoFloor
from pokerroom.shell.casino_play import CasinoPlay
from pokerroom.shell.composition import RoomServices
from tests.support.clocked_room import Connection, deposit


def casino_floor(room: RoomServices, tables: Iterable[CasinoTable], clock: IReactorTime | None = None) -> CasinoFloor:
    """The floor of ``tables`` on the room's bus, wallet and writer (its timers on ``clock``, or the room's reactor),
    installed with its requests' gateway side (:class:`CasinoPlay`, on the room's gateway, its claims restored): its
    in-play question answered and asked before a promotion."""
    floor = CasinoFloor(tables, clock=clock or room.reactor, store=room.store, bus=room.bus, wallet=room.wallet,
                        recorder=room.recorder)
    floor.install()
    play = CasinoPlay(room.gateway, room.bus, room.store, room.recorder, clock or room.reactor,
                      room.play_check.session)
    play.install()
    play.start()                                # the claims stored before: as the root's "casino claims" step
    room.session_watch.count_in_play("has a casino bet open", CASINO_PLAYING)   # as the root does: SEC-2, asked
    return floor


def quick_rules(table_id: str, game: str) -> CasinoRules:
    """A table's rules with short rounds (10 s of betting, 5 s decisions, 2 s between rounds)."""
    return CasinoRules(table_id=table_id, name=table_id, game=game, limits=Limits(100, 100_000), betting_seconds=10,
                       decision_seconds=5, pause_seconds=2)


def strict_floor(store):   # noqa: ANN001, ANN201
    """A room on the strict bus with one baccarat table "bac", its first round open, and "ana" (100,000) at it."""
    clock = Clock()
    bus = StrictBus(clock)
    room = RoomServices([], store, clock, account_rules=AccountRules(), bus=bus)
    room.startService()
    floor = casino_floor(room, [build_table(quick_rules("bac", "baccarat"))])
    floor.start()
    clock.advance(0)
    session = room.gateway.connected(Connection(), "10.0.0.1")
    session.player_id, session.country, session.role = "ana", "NL", "player"
    room.gateway.identify(session, "ana")
    deposit(room, "ana", 100_000)
    return clock, bus, room, session
