"""Crash recovery over a real process (TR-REFUND-1): SIGKILL mid-hand, restart, nothing lost or created."""

from __future__ import annotations

from pokerroom.money import cash, table_escrow
from pokerroom.store.db import make_engine, sqlite_url
from pokerroom.store.room_store import RoomStore
from tests.net.ledger_check import assert_ledger_sound
from tests.net.server_process import Player, Server
from tests.support.socket_play import event_type, play, sign_up
from tests.support.waiting import wait_until


def test_TR_REFUND_1_a_killed_server_voids_the_open_hand_and_returns_every_stack_to_its_start(tmp_path):
    server = Server(tmp_path).start()
    ana, _ = sign_up(server.url, "ana")
    bob, _ = sign_up(server.url, "bob")
    ana.request("join", table="t1", buy_in=1_000, seat=1)
    bob.request("join", table="t1", buy_in=1_000, seat=2)
    play({"ana": ana, "bob": bob}, 2)
    seen = play({"ana": ana, "bob": bob}, 1,
                stop=lambda name, push: name == "ana" and event_type(push) == "hand_event"
                and push["event"]["event"]["type"] == "hole_cards_dealt")
    starts = {p["event"]["event"]["player"]: p["event"]["event"]["stack"] for p in seen["ana"]
              if event_type(p) == "hand_event" and p["event"]["event"]["type"] == "seat_dealt_in"}
    starts = {name: starts[name] for name in ("ana", "bob")}            # the running hand's start stacks
    store = RoomStore(make_engine(sqlite_url(tmp_path / "data")))
    wait_until(store.hands.open_hands, timeout=10)                           # the start is written off the reactor
    server.kill()                                                       # SIGKILL: no goodbye
    (open_hand,) = store.hands.open_hands()
    assert open_hand.start_stacks == starts
    assert sum(starts.values()) == 2_000

    server = Server(tmp_path).start()                                   # recovery runs before listening
    try:
        assert store.hands.open_hands() == []
        ledger = store.ledger.load_ledger()
        assert ledger.check() and store.ledger.ledger_check()
        assert_ledger_sound(tmp_path / "data")                          # STAFF-1: `pokerroom ledger check`
        for name in ("ana", "bob"):
            assert ledger.balance(table_escrow("t1", name)) == 0
            assert ledger.balance(cash(name)) == 100_000 - 1_000 + starts[name]
        voided = [h for h in store.hands.hands_of("ana", 50) if h.hand_id == open_hand.hand_id][0]
        assert voided.void and voided.end_stacks == starts
        again = Player(server.url)
        login = again.request("login", nickname="ana", password="secret-pass-1")
        assert login["ok"] and login["balance"] == 100_000 - 1_000 + starts["ana"]
        assert again.request("join", table="t1", buy_in=1_000)["ok"]
    finally:
        server.stop()
