"""Two or more rooms ("nodes") over one database, each its own process in all but the database: its own engine,
store, wallet, bus and Clock, on leases and the shared wallet. A node "dies" (or hangs) by its Clock no longer
turning: it renews nothing and plays nothing more."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from twisted.internet.task import Clock

from pokerroom.players import AccountRules
from pokerroom.shell.composition import RoomServices
from pokerroom.store.db import make_engine, migrate
from pokerroom.store.room_store import RoomStore
from pokerroom.table.config import tables_from_config
from tests.support.clocked_room import TABLES, player, request, settle

START = 1_000_000.0
BUY_IN = 1_000
ROULETTE = {**TABLES, "casino": [{"id": "rou", "name": "Roulette", "game": "roulette", "min_bet": 100,
                                   "max_bet": 100_000, "betting_seconds": 30, "currency": "USD"}]}


@contextmanager
def nodes(url: str, *names: str, config: dict | None = None,
          prepare: Callable[[RoomServices], None] | None = None) -> Iterator[list[RoomServices]]:
    """One started room per name, each its own process in all but the database, on leases and the shared wallet;
    ``prepare``d (a fake payment provider put in, say) before it starts."""
    engines = [make_engine(url) for _ in names]
    migrate(engines[0])
    rooms = []
    try:
        for name, engine in zip(names, engines, strict=True):
            clock = Clock()
            clock.advance(START)
            room = RoomServices(tables_from_config(TABLES), RoomStore(engine), clock, node=name, leases=True,
                                shared_money=True, account_rules=AccountRules(aml_threshold=10**9), config=config)
            if prepare is not None:
                prepare(room)
            room.startService()
            settle(room)
            rooms.append(room)
        yield rooms
    finally:
        for engine in engines:
            engine.dispose()


SIT_AND_GO = {**TABLES, "tournaments": {"decision_seconds": 10}}     # nodes' config for a director's event


def director(node: RoomServices):   # noqa: ANN201
    """``node``'s director ``boss``, signed in, with a stored account: their session."""
    boss, _ = player(node, "boss")
    boss.role = "director"
    node.store.accounts.create_account("boss", "boss", "-", "1990-01-01", "NL", 0.0, role="director")
    return boss


def sit_and_go(node: RoomServices, boss, tournament: str = "sng", **settings: int) -> dict:   # noqa: ANN001
    """``boss`` asks ``node`` for a three-player sit & go: the answer."""
    made = request(node, boss, "director_create", template="sit_and_go", id=tournament, name="SNG", start_in=None,
                   settings={"min_players": 3, "max_players": 3, **settings})
    settle(node)
    return made


def directors_sit_and_go(node: RoomServices, tournament: str = "sng", **settings: int):   # noqa: ANN201
    """A director on ``node`` makes a three-player sit & go (``nodes(..., config=SIT_AND_GO)``), whose lease
    ``node`` then holds: the director's session."""
    boss = director(node)
    made = sit_and_go(node, boss, tournament, **settings)
    assert made["ok"], made
    return boss


def dealt(node: RoomServices, table_id: str = "t1") -> None:
    """``node``'s clock turned until its table ``table_id`` has a hand dealt."""
    table = node.tables.runners[table_id].table
    while table.hand is None:
        node.reactor.advance(0.5)
        settle(node)
