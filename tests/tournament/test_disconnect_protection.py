"""HR-DC-4 on a Clock: extra reconnect time in a tournament's late stage, for a disconnected player, once a hand."""

from __future__ import annotations

import pytest

from tests.support.hall_lobby import Lobby, started
from tournament.structure import StructureError, TournamentSpec


def drop(lobby: Lobby, name: str) -> None:
    lobby.room.gateway.disconnected(lobby.people[name][0])


def test_HR_DC_4_a_disconnected_player_in_the_late_stage_gets_the_extra_seconds_once_a_hand(store):
    lobby, d = started(store, late_stage_players=3, disconnect_protection=60, time_bank=20)
    assert d.in_late_stage                                           # three left: the structure's late stage
    (table,) = d.tables.values()
    player, _ = table.to_act()
    others = [n for n in ("ana", "bo", "cy") if n != player]
    drop(lobby, player)
    started_at = lobby.clock.seconds()
    lobby.clock.advance(10)                                          # the decision's own 10 s are up
    assert lobby.pushes(others[0], "reconnect_time_started")[-1] == {"type": "reconnect_time_started",
                                                                     "player": player, "seconds": 60,
                                                                     "deadline": started_at + 70}
    lobby.clock.advance(59)
    assert table.to_act()[0] == player                               # still theirs, 69 s on
    lobby.clock.advance(1)                                           # the extra 60 s are up: then the time bank
    assert table.to_act()[0] == player
    lobby.clock.advance(20)                                          # the bank too: checked or folded
    assert table.hand is None or table.to_act() is None or table.to_act()[0] != player
    assert len(lobby.pushes(others[0], "reconnect_time_started")) == 1   # never twice in one hand


def test_HR_DC_4_a_connected_player_or_one_before_the_late_stage_gets_none(store):
    lobby, d = started(store, disconnect_protection=60, time_bank=0)
    assert not d.in_late_stage                                       # default: the late stage is in the money
    (table,) = d.tables.values()
    player, _ = table.to_act()
    drop(lobby, player)
    lobby.clock.advance(10)                                          # disconnected, but not late: folded at once
    assert table.hand is None or table.to_act() is None or table.to_act()[0] != player
    d.eliminations.in_money = True                                                # the bubble has burst: now it is late
    assert d.in_late_stage
    for _ in range(100):
        if table.hand is not None and table.to_act() is not None:
            break
        lobby.clock.advance(1)
    someone, _ = table.to_act()
    connected = lobby.people[someone][0].connection is not None
    before = {n: len(lobby.pushes(n, "reconnect_time_started")) for n in ("ana", "bo", "cy")}
    lobby.clock.advance(10)
    given = {n: len(lobby.pushes(n, "reconnect_time_started")) - before[n] for n in ("ana", "bo", "cy")}
    assert any(given.values()) == (not connected)                   # a connected player never gets it
    assert d.reconnect_time(someone, connected=True) == 0


def test_HR_DC_4_the_director_gives_it_once_per_hand_per_player_and_not_when_turned_off(store):
    lobby, d = started(store, late_stage_players=3, disconnect_protection=45)
    (table,) = d.tables.values()
    player, _ = table.to_act()
    assert d.reconnect_time(player, connected=True) == 0
    assert d.reconnect_time(player, connected=False) == 45
    assert d.reconnect_time(player, connected=False) == 0            # once per hand
    someone_else = next(p for p in table.seats.values() if p != player)
    d.spec = d.spec.edited(disconnect_protection=0)                  # a structure may turn it off
    assert d.reconnect_time(someone_else, connected=False) == 0


def test_HR_DC_4_the_structure_names_the_late_stage_and_the_seconds_as_whole_numbers():
    spec = TournamentSpec.load("config/structures/sit_and_go.toml", id="x")
    assert (spec.disconnect_protection, spec.late_stage_players) == (60, 0)    # defaults: 60 s, in the money
    with pytest.raises(StructureError, match="disconnect_protection"):
        spec.edited(disconnect_protection=-1)
