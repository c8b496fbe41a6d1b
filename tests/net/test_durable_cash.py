"""Durable before visible, cash tables (TR-REFUND-1): a real server killed with SIGKILL the moment a client is
shown a hand's end after an all-in, or a cash-out, and started again on the same data -- what the client was shown
stands (only a hand in progress is voided), the ledger and the audit chain verify, and no hand id comes twice.
Each runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest

from pokerroom.money import cash, table_escrow
from tests.net.crash_room import DATABASES, CrashRoom, crash_room
from tests.net.server_process import Player
from tests.support.socket_play import event_type, sign_up

BUY_IN = 1_000
START = 100_000


@pytest.fixture(params=DATABASES)
def room(request, tmp_path):
    with crash_room(tmp_path, request.param, None) as crash:
        yield crash


def _hand_event(push: dict, kind: str) -> dict | None:
    if event_type(push) == "hand_event" and push["event"]["event"]["type"] == kind:
        return push["event"]["event"]
    return None


def _all_in(name: str, player: Player, push: dict) -> None:
    """Shove when allowed, call a shove, never run it twice."""
    legal = push.get("legal")
    if legal is None:
        return
    if legal["run_it_twice"]:
        player.request("act", table="t1", action="run_it_twice", agree=False, decision=legal["decision"])
    elif legal["can_raise"] or legal["can_bet"]:
        player.request("act", table="t1", action="raise" if legal["can_raise"] else "bet", to=legal["max_to"],
                       decision=legal["decision"])
    else:
        player.request("act", table="t1", action="check" if legal["can_check"] else "call",
                       decision=legal["decision"])


def _check_call(name: str, player: Player, push: dict) -> None:
    legal = push.get("legal")
    if legal is not None:
        player.request("act", table="t1", action="check" if legal["can_check"] else "call",
                       decision=legal["decision"])


def _seated_pair(room: CrashRoom) -> dict[str, Player]:
    server = room.start()
    players = {name: sign_up(server.url, name)[0] for name in ("ana", "bob")}
    for seat, player in enumerate(players.values(), 1):
        assert player.request("join", table="t1", buy_in=BUY_IN, seat=seat)["ok"]
    return players


def _next_hand_is_new(room: CrashRoom) -> None:
    """The restarted table deals on under a hand id it never used (two new players sit down)."""
    used = {h.hand_id for name in ("ana", "bob") for h in room.store().hands.hands_of(name, 50)}
    players = {name: sign_up(room.server.url, name)[0] for name in ("cyd", "dan")}
    for seat, player in enumerate(players.values(), 3):
        assert player.request("join", table="t1", buy_in=BUY_IN, seat=seat)["ok"]
    started = players["cyd"].wait_for(lambda push: _hand_event(push, "hand_started") is not None)
    assert used and started["event"]["hand_id"] not in used


def test_TR_REFUND_1_a_hand_shown_ended_after_an_all_in_stands_when_the_room_is_killed_that_moment(room):
    players = _seated_pair(room)
    def busted(name: str, push: dict) -> bool:                             # a chopped pot deals another all-in
        ended = _hand_event(push, "hand_ended")
        return ended is not None and 0 in dict(map(tuple, ended["stacks"])).values()

    _, push = room.kill_when(players, busted, _all_in)
    shown = dict(map(tuple, _hand_event(push, "hand_ended")["stacks"]))      # seat -> stack, as the client saw it
    assert sorted(shown.values()) == [0, 2 * BUY_IN]                          # an all-in: one player has it all

    room.start()                                                             # recovery runs before listening
    store = room.store()
    (hand,) = [h for h in store.hands.hands_of("ana", 5) if h.hand_id == push["event"]["hand_id"]]
    assert not hand.void and hand.end_stacks == {"ana": shown[1], "bob": shown[2]}
    ledger = store.ledger.load_ledger()
    for seat, name in ((1, "ana"), (2, "bob")):                              # the escrow came back: the end stack
        assert ledger.balance(table_escrow("t1", name)) == 0
        assert ledger.balance(cash(name)) == START - BUY_IN + shown[seat]
    room.operator_checks()
    _next_hand_is_new(room)


def test_TR_REFUND_1_a_cash_out_shown_stands_when_the_room_is_killed_that_moment(room):
    players = _seated_pair(room)
    left: dict = {}

    def play_then_leave(name: str, player: Player, push: dict) -> None:
        if name == "ana" and _hand_event(push, "hand_ended") is not None and not left:
            left["ok"] = player.request("leave", table="t1")["ok"]
        elif not left:
            _check_call(name, player, push)

    _, push = room.kill_when(players, lambda name, push: name == "ana" and event_type(push) == "player_left",
                             play_then_leave)
    stack = push["event"]["stack"]
    assert left["ok"] and stack > 0

    room.start()
    store = room.store()
    ledger = store.ledger.load_ledger()
    assert ledger.balance(cash("ana")) == START - BUY_IN + stack                   # what the client was shown
    (cash_out,) = [t for t in store.ledger.transfers_touching([cash("ana")], 10) if t.reason == "cash_out"]
    assert dict((p.account, p.amount) for p in cash_out.postings)[cash("ana")] == stack   # stored as the cash-out
    assert all(not h.void for h in store.hands.hands_of("ana", 5))                       # the hand before it stands too
    room.operator_checks()
    _next_hand_is_new(room)
