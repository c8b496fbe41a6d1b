"""The table chat, the desks and staff out of play reach the cash tables by request, on a bus that serialises every
message and answers on a later turn as a broker would: the refusals keep their codes and rule IDs."""

from __future__ import annotations

from twisted.internet.task import Clock

from pokerroom.bus.records import WhereRead
from pokerroom.bus.subjects import CASH_TABLES_WHERE
from pokerroom.shell.composition import RoomServices
from pokerroom.shell.every_node import AT_TABLES, ask_every_node
from pokerroom.shell.staff_out_of_play import leave_play
from tests.support.clocked_room import player, request, resolved
from tests.support.directors_desk import directors_desk
from tests.support.strict_rooms import CLOSED_IN_HAND, playing, strict_room


def turned(room: RoomServices, d):   # noqa: ANN001, ANN201
    """What ``d`` fired with, the clock turned (no time passing) until it did."""
    out: list = []
    d.addBoth(out.append)
    for _ in range(20):
        if out:
            break
        room.reactor.advance(0)
    assert out, "no answer came"
    return out[0]


def test_HR_CHAT_4_chat_asks_the_table_and_its_host_shows_the_line_on_the_strict_bus(store):
    clock = Clock()
    room = strict_room(store, clock)
    (ana, _), _, (cy, cy_sees) = playing(room, clock)
    refused = resolved(request(room, ana, "chat", table="t1", text="nice hand"))
    assert refused["error"]["code"] == "chat_in_hand" and refused["error"]["rule"] == "HR-CHAT-4"
    assert resolved(request(room, cy, "chat", table="t1", text="go on"))["ok"]          # a railbird may
    clock.advance(0)
    assert [m["text"] for m in cy_sees.sent if m.get("type") == "chat"] == ["go on"]
    nowhere = resolved(request(room, cy, "chat", table="t9", text="hi"))
    assert nowhere["error"]["code"] == "no_such_table"
    dee, _ = player(room, "dee")
    assert resolved(request(room, dee, "chat", table="t1", text="hi"))["error"]["code"] == "not_at_table"
    room.bus.raise_failures()


def test_SEC_2_a_player_made_staff_leaves_the_table_and_the_waiting_list_by_request(store):
    clock = Clock()
    room = strict_room(store, clock)
    (ana, _), _, (cy, _) = playing(room, clock)
    assert request(room, cy, "waiting_list", table="t1", on=True)["ok"] is True
    where = turned(room, ask_every_node(room.bus, CASH_TABLES_WHERE, WhereRead("ana"), AT_TABLES))
    assert where == {"seated": ["t1"], "leaving": [], "waiting": []}
    assert turned(room, ask_every_node(room.bus, CASH_TABLES_WHERE, WhereRead("cy"), AT_TABLES))["waiting"] == ["t1"]
    for name in ("ana", "cy"):
        turned(room, leave_play(room.bus, name))
    table = room.tables.runners["t1"].table
    assert table.seat_of("ana") is None or table.player("ana").leaving     # gone at once between hands
    assert "cy" not in table.waiting_list
    turned(room, leave_play(room.bus, "ana"))       # already leaving: not asked to leave again
    room.bus.raise_failures()


def test_a_director_lists_and_closes_a_table_by_request_on_the_strict_bus(store):
    clock = Clock()
    room = strict_room(store, clock)
    directors_desk(room, CLOSED_IN_HAND)
    boss, _ = player(room, "boss")
    boss.role = "director"
    listed = resolved(request(room, boss, "director_tables"))
    assert [t["table"] for t in listed["tables"]] == ["t1"] and listed["tables"][0]["players"] == []
    closed = resolved(request(room, boss, "director_close_table", table="t1", reason="maintenance"))
    assert closed["ok"] and closed["closed"] is True
    clock.advance(0)
    assert "t1" not in room.tables.runners
    again = resolved(request(room, boss, "director_close_table", table="t1", reason="again"))
    assert again["error"]["code"] == "no_such_table"
    room.bus.raise_failures()
