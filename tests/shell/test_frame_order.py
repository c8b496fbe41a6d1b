"""The order a client may rely on (docs/protocol.md, "Order"): the frames of one table come in the table's order,
whatever the bus does across subjects -- a seated player hears the whole table on their seat's stream."""

from __future__ import annotations

import random
from typing import Any

from twisted.internet.task import Clock

from pokerroom.bus.records import Frame
from pokerroom.bus.strict import StrictBus
from pokerroom.shell.composition import RoomServices
from pokerroom.table.config import tables_from_config
from tests.support.clocked_room import TABLES, player, request

PLAYERS = ("ana", "bo", "cy", "di")


class ReorderingBus(StrictBus):
    """A broker-like bus whose subjects are independent queues, delivered in a shuffled order across subjects."""

    def __init__(self, reactor: Any) -> None:
        super().__init__(reactor, reorder=True, seed=35)
        self.frames_packed = 0

    def publish(self, subject: str, payload: Any) -> None:
        self.frames_packed += isinstance(payload, Frame)
        super().publish(subject, payload)


def act(room: RoomServices, seated: dict, table: Any, rng: random.Random) -> bool:
    """The player to act checks or calls, bets or raises, or folds; False when nobody may act now."""
    clock = table.clock if table.hand is not None else None
    seat = table.players.get(clock.seat) if clock is not None else None
    legal = table.legal_actions(seat.player_id) if seat is not None else None
    if legal is None or legal.run_it_twice:
        return False
    r = rng.random()
    if (legal.can_bet or legal.can_raise) and r < 0.3:
        fields = {"action": "bet" if legal.can_bet else "raise", "to": legal.min_to}     # small: nobody busts
    elif r < 0.4 and not legal.can_check:
        fields = {"action": "fold"}
    else:
        fields = {"action": "check" if legal.can_check else "call"}
    request(room, seated[seat.player_id][0], "act", table="t1", decision=legal.decision, **fields)
    return True


def frames_of(connection: Any, table: str = "t1") -> list[dict]:
    return [m for m in connection.sent if m.get("type") == "table_events" and m["table"] == table]


def follows_on(frames: list[dict]) -> list[tuple[int, int]]:
    """Where a frame does not follow the one before it as the player client checks (its first event one after the
    last frame's seq): the (last seq, first seq) pairs a client would take for a gap."""
    return [(before["seq"], after["events"][0]["seq"]) for before, after in zip(frames, frames[1:], strict=False)
            if after["events"][0]["seq"] != before["seq"] + 1]


def test_a_bus_that_reorders_across_subjects_leaves_every_seated_players_frames_in_table_order(store):
    clock = Clock()
    bus = ReorderingBus(clock)
    room = RoomServices(tables_from_config(TABLES), store, clock, bus=bus)
    room.startService()
    watcher, watching = player(room, "eve")
    assert request(room, watcher, "observe", table="t1", on=True)["ok"]
    seated = {name: player(room, name) for name in PLAYERS}
    for session, _ in seated.values():
        assert request(room, session, "join", table="t1", buy_in=1_000)["ok"]
        clock.advance(0)
    table = room.tables.runners["t1"].table
    rng = random.Random(35)
    chatted = 0
    for _ in range(2_000):
        if table.hand_number >= 20 and table.hand is None:
            break
        clock.advance(1)
        for _ in range(rng.randint(0, 4)):                      # several acts in one turn: frames on every stream
            if not act(room, seated, table, rng):
                break
        session = seated[PLAYERS[chatted % len(PLAYERS)]][0]
        if rng.random() < 0.1 and request(room, session, "chat", table="t1", text=f"gl {chatted}").get("ok"):
            chatted += 1
    clock.advance(0)
    bus.raise_failures()

    assert table.hand_number >= 20 and bus.frames_packed > 100 and chatted > 3
    for name, (_, connection) in seated.items():
        frames = frames_of(connection)
        assert len(frames) > 50, name
        assert follows_on(frames) == [], f"{name} was sent the table out of its order"
        chat = [m["text"] for m in connection.sent if m.get("type") == "chat"]
        assert len(chat) == chatted, f"{name} missed a line of chat"
    observed = frames_of(watching)
    assert follows_on(observed) == []                           # the public stream is one subject too
    assert [f["seq"] for f in observed][-1] == [f["seq"] for f in frames_of(seated["ana"][1])][-1]


def test_a_seated_player_hears_their_table_on_their_seat_stream_alone_and_an_observer_on_the_public_one(store):
    clock = Clock()
    bus = ReorderingBus(clock)
    room = RoomServices(tables_from_config(TABLES), store, clock, bus=bus)
    room.startService()
    heard: dict[str, list[str]] = {}
    original = bus.publish

    def publish(subject: str, payload: Any) -> None:
        if isinstance(payload, Frame):
            heard.setdefault(subject, []).append(payload.message["type"])
        original(subject, payload)

    bus.publish = publish                                       # type: ignore[method-assign]
    for name in ("ana", "bo"):
        session, _ = player(room, name)
        assert request(room, session, "join", table="t1", buy_in=1_000)["ok"]
    clock.advance(5)                                            # a hand is dealt: hole cards for each seat
    assert {s for s in heard if s.startswith("table.")} == {"table.t1.public", "table.t1.seat.ana", "table.t1.seat.bo"}
    assert not [s for s in heard if s.startswith("player.")]    # a table's frames are not the player's own stream
    assert len(heard["table.t1.seat.ana"]) == len(heard["table.t1.public"])
