"""The auto-muck choice through the room: a seat option (`options`, `auto_muck`) kept while the player sits, that
shows their beaten hands at showdown to everyone and nobody else's (SD-2, SEC-2)."""

from __future__ import annotations

from twisted.internet.task import Clock

from tests.support.clocked_room import make_room, player, request, resolved

MAX_HANDS = 40


def showdown_events(connection, read: int) -> list[dict]:   # noqa: ANN001
    return [e["event"] for m in connection.sent[read:] if m.get("type") == "table_events" for e in m["events"]
            if e["type"] == "hand_event" and e["event"]["type"] in ("hand_shown", "hand_mucked")]


def test_SD_2_SEC_2_a_player_without_auto_muck_shows_every_hand_at_showdown_and_sees_no_mucked_card(store):
    clock = Clock()
    room = make_room(store, clock)
    people = {name: player(room, name) for name in ("ana", "bob", "cyd")}
    for session, _ in people.values():
        assert request(room, session, "join", table="t1", buy_in=1000)["ok"]
    assert resolved(request(room, people["ana"][0], "options", table="t1", auto_muck=False))["ok"]
    table = room.tables.runners["t1"].table
    assert table.players[table.seat_of("ana")].auto_muck is False
    ana_seat = table.seat_of("ana")
    bob_mucked = False
    clock.advance(5)
    for _ in range(MAX_HANDS):                                # everyone checks or calls every hand down
        read = {name: len(conn.sent) for name, (_, conn) in people.items()}
        number = table.hand_number
        while table.hand_number == number and table.hand is not None and not table.hand.ended:
            name = table.players[table.clock.seat].player_id
            legal = table.legal_actions(name)
            assert resolved(request(room, people[name][0], "act", table="t1", decision=legal.decision,
                                    action="check" if legal.can_check else "call"))["ok"]
        for name, (_, conn) in people.items():
            events = showdown_events(conn, read[name])
            assert events, "a hand checked down ends in a showdown"
            assert ana_seat not in [e["seat"] for e in events if e["type"] == "hand_mucked"]
            for e in events:
                if e["type"] == "hand_shown":
                    assert e["cards"]
                elif e["seat"] != table.seat_of(name):
                    assert e["cards"] == [], f"{name} saw seat {e['seat']}'s mucked cards"
                else:
                    assert e["cards"]                              # their own, to themselves only
                    bob_mucked = bob_mucked or name == "bob"
        if bob_mucked:
            break
        clock.advance(5)
    assert bob_mucked, "bob, auto-muck on, mucked a beaten hand in one of the hands"
