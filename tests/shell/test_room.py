"""The room in process, on a Clock: money rules that need no socket (AC-5, AC-6) and the password-attempt limit."""

from __future__ import annotations

import pytest
from twisted.internet.task import Clock

from pokerroom.money import cash
from pokerroom.protocol.schema import parse_request
from tests.support.clocked_room import Connection, deposit, make_room, player, request, resolved, with_token


def test_AC_6_a_transfer_over_the_threshold_is_flagged_for_the_security_team(store):
    room = make_room(store, Clock(), aml_threshold=50_000)
    deposit(room, "ana", 49_999)
    assert store.audit_log.audit_records("aml_flag") == []
    big = deposit(room, "ana", 50_000)
    flags = store.audit_log.audit_records("aml_flag")
    assert [f.data["transfer"] for f in flags] == [big.number]
    assert flags[0].data["postings"] == [["world", -50_000], [cash("ana"), 50_000]]
    assert store.audit_log.audit_chain_intact()


def test_AC_5_the_deposit_limit_counts_the_last_day_even_across_a_restart(store):
    clock = Clock()
    clock.advance(1_000_000)
    room = make_room(store, clock)
    store.accounts.create_account("ana", "ana", "not-a-hash", "1990-01-01", "NL", clock.seconds())
    store.accounts.update_account("ana", deposit_limit=1_000)
    deposit(room, "ana", 600)
    clock.advance(3600)
    again = make_room(store, clock)                         # the room restarts: it remembers the deposit
    with pytest.raises(Exception, match="deposit limit is 1000") as refused:
        deposit(again, "ana", 500)
    assert refused.value.rule_id == "AC-5"
    assert deposit(again, "ana", 400).size == 400
    clock.advance(86_400)                                   # a day after the first deposit: room again
    assert deposit(again, "ana", 600).size == 600


def test_AC_5_a_player_with_no_session_in_this_process_is_held_to_the_limits_their_account_holds(store):
    """The limits come from the account as stored, never from a connection: a session that says otherwise (or no
    session at all, the player being on another process) changes nothing."""
    clock = Clock()
    room = make_room(store, clock)
    store.accounts.create_account("ana", "ana", "not-a-hash", "1990-01-01", "NL", clock.seconds())
    store.accounts.update_account("ana", deposit_limit=1_000)
    assert "ana" not in room.gateway.by_player                # nobody is signed in as ana here
    deposit(room, "ana", 1_000)
    with pytest.raises(Exception, match="deposit limit is 1000") as over:
        deposit(room, "ana", 1)
    assert over.value.rule_id == "AC-5"
    session = room.gateway.connected(Connection(), "10.0.0.1")
    session.player_id = "ana"                               # a session here, which never heard of the limit
    room.gateway.identify(session, "ana")
    with pytest.raises(Exception, match="deposit limit"):
        deposit(room, "ana", 1)
    store.accounts.update_account("ana", excluded_until=float("inf"))   # excluded from another process
    with pytest.raises(Exception, match="excluded yourself") as excluded:
        room.wallet.deposit("ana", 1, store.accounts.find_account("ana"))
    assert excluded.value.rule_id == "AC-5"
    assert room.wallet.balance("ana") == 1_000


def test_an_address_may_only_make_the_room_hash_a_few_passwords_a_minute(store):
    clock = Clock()
    room = make_room(store, clock, password_attempts_per_minute=6, password_attempts_burst=2)
    near, far = room.gateway.connected(Connection(), "10.0.0.1"), room.gateway.connected(Connection(), "10.0.0.2")

    def login(session, rid):
        request = parse_request({"type": "login", "rid": rid, "nickname": "nobody", "password": "x" * 8})
        return room.gateway.handle(session, request)

    attempts = [login(near, i) for i in range(3)]
    refused = attempts[2]
    assert isinstance(refused, dict) and refused["error"]["code"] == "too_many_attempts"
    assert "wait a minute" in refused["error"]["message"]
    assert not isinstance(login(far, 9), dict)               # another address is not held back
    clock.advance(10)                                       # one attempt back every ten seconds
    assert not isinstance(login(near, 4), dict)              # (the hashes themselves never run on this Clock)


def test_lobby_subscribers_get_the_tables_that_changed_at_most_once_a_second(store):
    clock = Clock()
    room = make_room(store, clock)
    watcher = room.gateway.connected(Connection(), "10.0.0.3")
    assert request(room, watcher, "lobby_subscribe", on=True)["ok"]
    ana, _ = player(room, "ana")
    bo, _ = player(room, "bo")
    assert request(room, ana, "join", table="t1", buy_in=1_000, seat=1)["ok"]
    assert request(room, bo, "join", table="t1", buy_in=800, seat=2)["ok"]
    updates = [m for m in watcher.connection.sent if m.get("type") == "lobby_update"]
    assert updates == []                                     # not yet: changes are gathered for a second
    clock.advance(1.0)
    updates = [m for m in watcher.connection.sent if m.get("type") == "lobby_update"]
    assert len(updates) == 1 and [t["table"] for t in updates[0]["tables"]] == ["t1"]
    assert updates[0]["tables"][0]["taken"] == 2
    assert request(room, watcher, "lobby_subscribe", on=False)["ok"]
    assert request(room, bo, "leave", table="t1")["ok"]
    clock.advance(5.0)
    assert len([m for m in watcher.connection.sent if m.get("type") == "lobby_update"]) == 1   # unsubscribed


def test_HR_DC_2_a_resume_replays_exactly_the_missed_events_from_the_packed_log(store):
    clock = Clock()
    room = make_room(store, clock)
    ana, _ = player(room, "ana")
    bo, _ = player(room, "bo")
    stays, gone = player(room, "cy"), player(room, "di")        # two observers: they may see the same things
    for session, _ in (stays, gone):
        assert request(room, session, "observe", table="t1", on=True)["ok"]
    assert request(room, ana, "join", table="t1", buy_in=1_000, seat=1)["ok"]
    assert request(room, bo, "join", table="t1", buy_in=1_000, seat=2)["ok"]

    def events(connection):
        return [e for m in connection.sent if m.get("type") == "table_events" for e in m["events"]]

    clock.advance(1.0)
    last_seen = events(gone[1])[-1]["seq"]
    gone_session = gone[0]
    token = with_token(room, gone_session)
    room.gateway.disconnected(gone_session)
    for _ in range(3):                                      # the hand goes on without her: timeouts act
        clock.advance(20.0)
    back = Connection()
    fresh = room.gateway.connected(back, "10.0.0.4")
    answer = resolved(request(room, fresh, "resume", token=token, tables={"t1": last_seen}))
    assert answer["ok"] and answer["tables"]["t1"] == "events"
    missed = [e for e in events(stays[1]) if e["seq"] > last_seen]
    assert missed and events(back) == missed
    assert not any(e.get("event", {}).get("type") == "deck_revealed" for e in events(back))


def test_HR_DC_2_a_snapshot_gives_the_player_to_act_their_legal_actions_and_the_time_left(store):
    clock = Clock()
    room = make_room(store, clock)
    people = {name: player(room, name) for name in ("ana", "bob")}
    for session, _ in people.values():
        assert request(room, session, "join", table="t1", buy_in=1000)["ok"]
    clock.advance(5)                                              # the first hand is dealt
    table = room.tables.runners["t1"].table
    seat, phase, deadline = table.snapshot(table.viewer(None)).clock
    to_act = table.players[seat].player_id
    clock.advance(2)
    for name, (session, connection) in people.items():
        assert request(room, session, "observe", table="t1", on=True)["ok"]
        snapshot = [m for m in connection.sent if m.get("type") == "table_snapshot"][-1]
        assert snapshot["to_act"] == seat and snapshot["phase"] == phase == "thinking"
        assert snapshot["seconds_left"] == deadline - clock.seconds() and snapshot["button"] in (1, 2)
        if name == to_act:
            legal = table.legal_actions(name)
            assert snapshot["legal"] == {k: getattr(legal, k) for k in legal.__slots__}
        else:
            assert "legal" not in snapshot


def test_TR_REFUND_1_a_hand_number_dealt_before_a_crash_is_never_dealt_again(store):
    """The running hand's start may be shown before it is stored: after a restart with players still seated, the
    table skips that number, whether the start reached the store or not."""
    clock = Clock()
    room = make_room(store, clock)
    for seat, name in enumerate(("ana", "bob"), 1):
        session, _ = player(room, name)
        assert resolved(request(room, session, "join", table="t1", buy_in=1_000, seat=seat))["ok"]
    clock.advance(5)
    dealt = room.tables.runners["t1"].table.hand_number                 # a hand in play, its start stored or not
    assert dealt >= 1 and room.tables.runners["t1"].table.hand is not None
    again = make_room(store, Clock())                              # the room restarts on the same store
    assert again.recovery.returned                                 # the seated players' chips went home
    assert again.tables.runners["t1"].table.hand_number == dealt + 1      # the next hand is numbered past it
    empty = make_room(store, Clock())                              # nobody sat: nothing to skip (the number
    assert empty.tables.runners["t1"].table.hand_number == dealt          # skipped last time was never dealt)
