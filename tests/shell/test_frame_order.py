"""The order a client may rely on (docs/protocol.md, "Order"): the frames of one table come in the table's order,
whatever the bus does across subjects -- a seated player hears the whole table on their seat's stream.

The bus here delivers each turn's messages in a shuffled order across subjects, and holds its deliveries while a
turn's acts are applied (as a broker's queues fill while a process is busy), so several batches of one table
reach a viewer together: the order within a subject is then all that keeps a viewer's frames in the table's
order. With a seated player's frames split over two subjects, as before the seat streams (their own frames on
their player stream), the same play puts them out of order -- the test that shows the bus can catch a split.
"""

from __future__ import annotations

import random
from typing import Any

from twisted.internet.task import Clock

from pokerroom.bus.records import Frame
from pokerroom.bus.strict import StrictBus
from pokerroom.bus.subjects import player_stream
from pokerroom.shell.composition import RoomServices
from pokerroom.table.config import tables_from_config
from tests.support.clocked_room import TABLES, player, request

PLAYERS = ("ana", "bo", "cy", "di")


class ReorderingBus(StrictBus):
    """A broker-like bus whose subjects are independent queues, delivered in a shuffled order across subjects;
    while :attr:`held`, what is published waits (requests are still answered) until :meth:`release`.

    ``split``: a seated player's frames on two subjects, as the room sent them before seat streams -- the frames
    every seat gets on the seat's stream, the player's own (hole cards, ``legal``) on their player stream."""

    def __init__(self, reactor: Any, *, split: bool = False) -> None:
        super().__init__(reactor, reorder=True, seed=35)
        self.split = split
        self.held = False
        self.frames_packed = 0
        self.moved = 0                                  # own frames sent on the player stream (split)
        self.public: Frame | None = None                # the table's last public frame

    def publish(self, subject: str, payload: Any) -> None:
        if isinstance(payload, Frame):
            self.frames_packed += 1
            if subject == "table.t1.public":
                self.public = payload
            elif self.split and subject.startswith("table.t1.seat.") and not self.everyones(payload):
                self.moved += 1
                subject = player_stream(subject.rsplit(".", 1)[1])
        super().publish(subject, payload)

    def everyones(self, frame: Frame) -> bool:
        """Whether ``frame`` is what every seat gets (the public frame), not a player's own."""
        return self.public is not None and frame.message is self.public.message and not frame.extra

    def _later(self) -> None:
        if not self.held:
            super()._later()

    def release(self) -> None:
        self.held = False
        if self.queues:
            self._later()


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


def play(store: Any, clock: Clock, bus: ReorderingBus, hands: int = 20) -> tuple[RoomServices, dict, Any, int]:
    """Four players play ``hands`` hands (an observer watching) on ``bus``, several acts and a chat line applied
    in a turn while the bus holds its deliveries: the room, the seated, the observer's connection, the lines."""
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
        if table.hand_number >= hands and table.hand is None:
            break
        clock.advance(1)
        bus.held = True
        for _ in range(rng.randint(0, 4)):                      # several acts in one turn: frames on every stream
            if not act(room, seated, table, rng):
                break
        session = seated[PLAYERS[chatted % len(PLAYERS)]][0]
        if rng.random() < 0.1 and request(room, session, "chat", table="t1", text=f"gl {chatted}").get("ok"):
            chatted += 1
        bus.release()
    clock.advance(0)
    bus.raise_failures()
    assert table.hand_number >= hands and bus.frames_packed > 100
    return room, seated, watching, chatted


def test_a_bus_that_reorders_across_subjects_leaves_every_seated_players_frames_in_table_order(store):
    clock = Clock()
    _, seated, watching, chatted = play(store, clock, ReorderingBus(clock))

    assert chatted > 3
    for name, (_, connection) in seated.items():
        frames = frames_of(connection)
        assert len(frames) > 50, name
        assert follows_on(frames) == [], f"{name} was sent the table out of its order"
        chat = [m["text"] for m in connection.sent if m.get("type") == "chat"]
        assert len(chat) == chatted, f"{name} missed a line of chat"
    observed = frames_of(watching)
    assert follows_on(observed) == []                           # the public stream is one subject too
    assert [f["seq"] for f in observed][-1] == [f["seq"] for f in frames_of(seated["ana"][1])][-1]


def test_the_same_play_with_a_seated_players_frames_on_two_subjects_reaches_them_out_of_order(store):
    """What the test above would catch: the frames a seated player is sent, split over their seat's stream and
    their player stream, come out of the table's order on this bus (while the observer's one stream keeps it)."""
    clock = Clock()
    bus = ReorderingBus(clock, split=True)
    _, seated, watching, _ = play(store, clock, bus)

    assert bus.moved > 50
    assert [name for name, (_, connection) in seated.items() if follows_on(frames_of(connection))] != []
    assert follows_on(frames_of(watching)) == []


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
