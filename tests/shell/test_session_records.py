"""The session events across the process line: the table host (a table process) disconnects and reconnects seats
from the records alone, published by a gateway it holds no reference to -- built here with no gateway at all, on
the strict bus, so nothing rests on the two sides' subscriptions being in one process (HR-DC-1, HR-DC-2)."""

from __future__ import annotations

from pokerroom.bus.records import DISCONNECTED, LOGGED_IN, TAKEN_OVER, SessionBack, SessionGone
from pokerroom.bus.subjects import SESSION_EVENTS
from pokerroom.table import commands as tc
from tests.shell.test_table_host import Host


def connected(host: Host, player: str) -> bool:
    table = host.runner.table
    return table.players[table.seat_of(player)].connected


def test_HR_DC_1_a_gone_record_disconnects_the_seat_on_a_later_turn_only_when_it_was_the_players_session():
    host = Host()
    host.command(tc.Sit("ann", 1, 500))
    host.bus.publish(SESSION_EVENTS, SessionGone("s2", "ann", TAKEN_OVER, False, ("t1",), 1))   # a newer login's
    host.clock.advance(0)
    assert connected(host, "ann")
    host.bus.publish(SESSION_EVENTS, SessionGone("s3", "ann", DISCONNECTED, True, ("t1",), 2))
    assert connected(host, "ann")                           # a message: the host hears it on a later turn
    host.clock.advance(0)
    assert not connected(host, "ann")


def test_HR_DC_2_a_back_record_reconnects_the_seat_at_the_tables_it_names():
    host = Host()
    host.command(tc.Sit("ann", 1, 500))
    host.bus.publish(SESSION_EVENTS, SessionGone("s3", "ann", DISCONNECTED, True, ("t1",), 2))
    host.clock.advance(0)
    assert not connected(host, "ann")
    host.bus.publish(SESSION_EVENTS, SessionBack("s4", "ann", LOGGED_IN, ("t1",), 3))
    host.clock.advance(0)
    assert connected(host, "ann")
