"""The lobby feed built alone from ``lobby.changed`` records: it keeps its own copy of the lines and reads nothing
of a table host."""

from __future__ import annotations

from twisted.internet.task import Clock

from pokerroom.bus.records import LobbyLine, LobbySection
from pokerroom.bus.subjects import CASINO_TABLES, LOBBY_CHANGED, LOBBY_LINES, LOBBY_SECTION, LOBBY_UPDATE
from pokerroom.protocol.schema import parse_request
from pokerroom.shell.lobby_feed import LOBBY_EVERY, LobbyFeed
from tests.support.recording_bus import RecordingBus


def line(table: str, taken: int) -> dict:
    return {"table": table, "name": table.upper(), "game": "NLHE", "small_blind": 5, "big_blind": 10,
            "currency": "USD", "seats": 6, "taken": taken, "waiting": 0, "average_pot": 0, "min_buy_in": 400,
            "max_buy_in": 1000, "closing": False}


def feed() -> tuple[LobbyFeed, RecordingBus, Clock]:
    clock = Clock()
    bus = RecordingBus(clock)
    return LobbyFeed(clock, bus, lambda session, on: None), bus, clock


def lobby_list(lobby: LobbyFeed) -> dict:
    return lobby._on_lobby_list(None, parse_request({"type": "lobby_list", "rid": 1}))


def test_the_lobby_list_is_the_lines_the_records_brought_in_the_order_the_tables_came():
    lobby, bus, clock = feed()
    bus.publish(LOBBY_CHANGED, LobbyLine("t2", line("t2", 0), news=False))      # there from the start
    bus.publish(LOBBY_CHANGED, LobbyLine("t1", line("t1", 0), news=False))
    bus.publish(LOBBY_CHANGED, LobbyLine("t2", line("t2", 3)))
    clock.advance(0)
    assert lobby_list(lobby)["tables"] == [line("t2", 3), line("t1", 0)]
    bus.publish(LOBBY_CHANGED, LobbyLine("t2", None))
    clock.advance(0)
    assert lobby_list(lobby)["tables"] == [line("t1", 0)]


def test_subscribers_get_one_update_a_second_with_the_newest_lines_and_the_tables_gone():
    lobby, bus, clock = feed()
    bus.publish(LOBBY_CHANGED, LobbyLine("t1", line("t1", 0), news=False))
    bus.publish(LOBBY_CHANGED, LobbyLine("t2", line("t2", 0), news=False))
    clock.advance(0)
    assert bus.on(LOBBY_UPDATE) == []                       # tables there from the start are no news
    clock.advance(LOBBY_EVERY)
    assert bus.on(LOBBY_UPDATE) == []
    for taken in (1, 2, 3):
        bus.publish(LOBBY_CHANGED, LobbyLine("t1", line("t1", taken)))
    bus.publish(LOBBY_CHANGED, LobbyLine("t2", None))
    clock.advance(0)
    assert bus.on(LOBBY_UPDATE) == []                       # gathered for a second
    clock.advance(LOBBY_EVERY)
    [update] = bus.on(LOBBY_UPDATE)
    assert update.message == {"type": "lobby_update", "tables": [line("t1", 3)], "closed": ["t2"]}


def test_a_late_feed_learns_every_nodes_lines_at_start_and_keeps_what_it_heard_since():
    lobby, bus, clock = feed()
    asked: list = []
    bus.respond(LOBBY_LINES, lambda _: asked.append("lines") or [LobbyLine("t1", line("t1", 0), news=False),
                                                                  LobbyLine("t2", line("t2", 0), news=False),
                                                                  LobbyLine("t3", line("t3", 0), news=False)],
                gathered=True)
    bus.respond(CASINO_TABLES, lambda _: [{"table": "bj-1", "players": 0}], gathered=True)
    caught = lobby.catch_up()
    bus.publish(LOBBY_CHANGED, LobbyLine("t2", line("t2", 4)))          # heard while the answers are on their way
    bus.publish(LOBBY_CHANGED, LobbyLine("t3", None))                   # a table that left the room meanwhile
    for _ in range(5):
        clock.advance(0)
    assert caught.called and asked == ["lines"]
    listed = lobby_list(lobby)
    assert listed["tables"] == [line("t2", 4), line("t1", 0)]           # the newer line kept, the gone one gone
    assert listed["casino"] == [{"table": "bj-1", "players": 0}]
    assert bus.on(LOBBY_UPDATE) == []


def test_each_nodes_casino_section_replaces_its_own_lines_not_the_others():
    lobby, bus, clock = feed()
    bus.publish(LOBBY_SECTION, LobbySection("casino", ({"table": "bj-1", "players": 0},)))    # node a's floor
    bus.publish(LOBBY_SECTION, LobbySection("casino", ({"table": "rl-1", "players": 2},)))    # node b's floor
    bus.publish(LOBBY_SECTION, LobbySection("casino", ({"table": "bj-1", "players": 3},)))
    clock.advance(0)
    assert lobby_list(lobby)["casino"] == [{"table": "bj-1", "players": 3}, {"table": "rl-1", "players": 2}]


def test_a_feed_with_nobody_to_ask_lists_what_it_hears():
    lobby, bus, clock = feed()
    caught = lobby.catch_up()
    clock.advance(0)
    assert caught.called and lobby_list(lobby) == {"type": "lobby_list", "rid": 1, "ok": True, "tables": []}
