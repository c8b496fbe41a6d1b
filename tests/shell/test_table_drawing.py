"""A client draws a cash table from the messages alone (issue #20, protocol 1.1, "state in every message").

The snapshot carries the board, the pots, each seat's bet and stack, the button, whose turn it is with an
absolute deadline (the reactor's clock) and their time bank (HR-TIME-1, HR-TIME-2, HR-DC-2); from then on
each event says what it changed, so a client that never adds chips up still shows exactly the table's state.
"""

from __future__ import annotations

import random

from twisted.internet.task import Clock

from pokerroom.table.decision_clock import THINKING, TIME_BANK
from tests.support.clocked_room import Connection, make_room, player, request, resolved
from tests.support.drawn_table import DrawnTable, drawn_from_snapshot


def snapshots(connection: Connection) -> list[dict]:
    return [m for m in connection.sent if m.get("type") == "table_snapshot"]


def seated(room, clock, names=("ana", "bob", "cyd")):   # noqa: ANN001, ANN201
    people = {name: player(room, name) for name in names}
    for session, _ in people.values():
        assert request(room, session, "join", table="t1", buy_in=1000)["ok"]
    clock.advance(5)                                                # the first hand is dealt
    return people


def act(room, people, table, rng: random.Random) -> None:   # noqa: ANN001
    """The player to act checks or calls, bets or raises to somewhere in their range, or folds."""
    seat = table.clock.seat
    name = table.players[seat].player_id
    legal = table.legal_actions(name)
    r = rng.random()
    if (legal.can_bet or legal.can_raise) and r < 0.35:
        fields = {"action": "bet" if legal.can_bet else "raise", "to": rng.randint(legal.min_to, legal.max_to)}
    elif r < 0.45 and not legal.can_check:
        fields = {"action": "fold"}
    else:
        fields = {"action": "check" if legal.can_check else "call"}
    assert resolved(request(room, people[name][0], "act", table="t1", decision=legal.decision, **fields))["ok"]


def the_table(room) -> dict:   # noqa: ANN001
    """The table as the room holds it, in a client's terms."""
    table = room.tables.runners["t1"].table
    hand = table.hand
    bets = hand.bets_by_seat() if hand is not None else {}
    clock = table.clock
    return {"seats": {s: {"player": table.players[s].player_id, "stack": stack, "bet": bets.get(s, 0)}
                      for s, stack in table.stacks().items()},
            "board": list(hand.board) if hand is not None else [], "pot": hand.pot_total if hand is not None else 0,
            "to_act": clock.seat if clock is not None else None,
            "deadline": clock.deadline if clock is not None else None}


def test_HR_TIME_1_HR_DC_2_a_snapshot_carries_board_pots_bets_stacks_button_and_the_turn_with_its_deadline(store):
    clock = Clock()
    clock.advance(1_764_686_400)                                    # the reactor's clock: epoch seconds
    room = make_room(store, clock)
    people = seated(room, clock)
    table = room.tables.runners["t1"].table
    while table.hand.street_name == "preflop":                      # everyone calls or checks: the flop
        name = table.players[table.clock.seat].player_id
        legal = table.legal_actions(name)
        assert resolved(request(room, people[name][0], "act", table="t1", decision=legal.decision,
                                action="check" if legal.can_check else "call"))["ok"]
    first = table.players[table.clock.seat].player_id
    assert resolved(request(room, people[first][0], "act", table="t1", action="bet", to=40,
                            decision=table.legal_actions(first).decision))["ok"]
    clock.advance(3)                                                # the next player thinks for 3 s
    watcher, screen = player(room, "ozzy")
    assert request(room, watcher, "observe", table="t1", on=True)["ok"]
    (snap,) = snapshots(screen)
    hand = table.hand
    assert snap["board"] == list(hand.board) and len(snap["board"]) == 3 and snap["second_board"] == []
    assert snap["pots"] == [{"amount": 30, "seats": sorted(hand.seats, key=hand.position.get)}]   # 3 x 10
    bets = {s["seat"]: s["bet"] for s in snap["seats"]}
    assert bets == {seat: 40 if table.players[seat].player_id == first else 0 for seat in hand.seats}
    assert {s["seat"]: s["stack"] for s in snap["seats"]} == hand.stacks_by_seat()
    assert sum(p["amount"] for p in snap["pots"]) + sum(bets.values()) == hand.pot_total == 70
    assert snap["button"] == table.positions.button
    assert snap["to_act"] == table.clock.seat and snap["phase"] == THINKING
    assert snap["deadline"] == clock.seconds() - 3 + table.rules.decision_times.for_street("flop")   # absolute
    assert snap["seconds_left"] == snap["deadline"] - clock.seconds()
    assert snap["time_bank"] == table.players[snap["to_act"]].time_bank == 30.0

    clock.advance(snap["seconds_left"])                             # the decision time is up: the bank runs
    assert table.clock.phase == TIME_BANK
    clock.advance(4)
    assert request(room, watcher, "observe", table="t1", on=True)["ok"]
    banked = snapshots(screen)[-1]
    assert banked["phase"] == TIME_BANK and banked["deadline"] == table.clock.deadline
    assert banked["time_bank"] == banked["seconds_left"] == 26.0    # what is left of the bank, counting down


def test_a_client_draws_the_table_from_the_snapshot_and_then_from_the_events_alone(store):
    clock = Clock()
    clock.advance(1_764_686_400)
    room = make_room(store, clock)
    people = seated(room, clock, ("ana", "bob", "cyd", "dee"))
    table = room.tables.runners["t1"].table
    watcher, screen = player(room, "ozzy")
    assert request(room, watcher, "observe", table="t1", on=True)["ok"]
    drawn = DrawnTable(snapshots(screen)[0])
    assert drawn.drawn() == the_table(room)
    read = len(screen.sent)
    rng = random.Random(20)
    hands = table.hand_number
    for _ in range(2_000):
        if table.hand_number >= hands + 12:
            break
        if table.clock is not None and table.hand is not None:
            act(room, people, table, rng)
        elif broke := [p.player_id for p in table.players.values() if not p.stack]:
            for name in broke:                                  # busted: chips again, and back in
                assert request(room, people[name][0], "add_chips", table="t1", amount=1000)["ok"]
                assert request(room, people[name][0], "sit_in", table="t1")["ok"]
        else:
            clock.advance(1)
        for message in screen.sent[read:]:
            if message.get("type") == "table_events":
                drawn.frame(message)
                assert drawn.chips_conserved(), message
        read = len(screen.sent)
        assert drawn.drawn() == the_table(room)
        assert drawn.seq == table.seq
    assert table.hand_number >= hands + 12, (table.hand_number, hands)
    assert request(room, watcher, "observe", table="t1", on=True)["ok"]       # a fresh snapshot agrees
    assert drawn_from_snapshot(snapshots(screen)[-1]) == drawn.drawn()
