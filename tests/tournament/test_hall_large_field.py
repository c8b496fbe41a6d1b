"""A large field on the hall's reactor: the seat draw in slices between turns, the lobby's standings kept as hands
end (TR-REG-1, TR-REG-3)."""

from __future__ import annotations

from pokerroom.shell.tournaments import timers
from tests.support.hall_lobby import Lobby
from tournament import director as td
from tournament import registration


def test_TR_REG_3_the_seat_draw_goes_on_between_reactor_turns_and_play_waits_for_it(store, monkeypatch):
    monkeypatch.setattr(registration, "DRAW_WORK", 1)       # one draw a turn: six players take several turns
    monkeypatch.setattr(timers, "SCAN_TABLES", 1)           # and one table a turn is given its first hand
    lobby = Lobby(store)
    lobby.create(max_players=6, table_size=3)
    names = ("ana", "bo", "cy", "di", "ed", "flo")
    for name in names:
        lobby.person(name)
        assert lobby.ask(name, "tournament_register", tournament="sng")["ok"]
    d = lobby.hall.directors["sng"]
    assert d.state == td.RUNNING and d.clock.level == 1                 # started on time (a sit & go: when full)
    assert d.registration.drawing is not None and d.ready_tables() == []       # ...and the draw has only begun
    assert not any(e.table for e in d.entries.values())
    refused = lobby.ask("ana", "tournament_act", tournament="sng", action="fold", decision="1-1/9")
    assert refused["error"]["code"] == "seats_being_drawn" and refused["error"]["rule"] == "TR-REG-3"
    turns = 0
    while d.registration.drawing is not None:                               # each reactor turn seats a slice...
        call = lobby.hall.timers.catch_up_call["sng"]
        assert call.getTime() == lobby.clock.seconds()         # ...on the very next turn
        func, args = call.func, call.args
        call.cancel()
        func(*args)                                            # one turn: what the reactor runs for it
        turns += 1
        assert turns < 50
    assert turns > 5 and "sng" not in lobby.hall.timers.catch_up_call
    assert sorted(p for t in d.tables.values() for p in t.seats.values()) == sorted(names)
    assert sorted(len(t.seats) for t in d.tables.values()) == [3, 3]
    assert len(lobby.hall.timers.next_hand) == 1 and "sng" in lobby.hall.timers.scan_call
    lobby.clock.advance(0)                                     # the next turn looks at the other table
    assert len(lobby.hall.timers.next_hand) == 2
    lobby.clock.advance(1)                                     # then the first hands are dealt
    assert all(t.in_hand for t in d.tables.values())


def test_the_lobby_shows_players_left_the_average_stack_and_the_askers_rank(store):
    lobby = Lobby(store)
    lobby.create()
    for name in ("ana", "bo", "cy"):
        lobby.person(name)
        lobby.ask(name, "tournament_register", tournament="sng")
    d = lobby.hall.directors["sng"]
    lobby.clock.advance(30)                                    # some hands end, stacks move
    details = lobby.ask("bo", "tournament_details", tournament="sng")
    stacks = d.stacks()
    order = sorted(stacks, key=lambda p: (-stacks[p], p))
    assert [s["player"] for s in details["standings"]] == order
    assert details["rank"] == order.index("bo") + 1
    assert details["players_left"] == len(d.entries)
    assert details["average_stack"] == sum(stacks.values()) // len(stacks)
