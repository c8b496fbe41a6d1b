"""The security team's desk in process, on a Clock: review only ended hands with every card (SEC-2, SEC-4),
cases and exports, and each action with its reason -- mute (HR-CHAT-3), reset a nickname (AC-3), verify an
identity (AC-4), void winnings by reversing transfers (AC-7), freeze, ban, keep linked accounts apart -- each
one in the audit chain (SEC-1, SEC-5). Chat during one's own hand is flagged and may be refused (HR-CHAT-4)."""

from __future__ import annotations

import json

import pytest
from twisted.internet.task import Clock

from pokerroom.money.accounts import WORLD, cash, tournament_dollars
from pokerroom.players import nickname_key
from pokerroom.protocol.schema import ProtocolError, parse_request
from pokerroom.shell.composition import RoomServices
from pokerroom.shell.security_moves import void_postings
from pokerroom.store.security_records import unpack_facts
from tests.support.clocked_room import conform, deposit, play_until, player, request
from tests.support.clocked_room import resolved as answer
from tests.support.security_room import account, security_room


def ask(room: RoomServices, session, kind: str, /, **fields) -> dict:       # noqa: ANN001
    return answer(conform(room.gateway.handle(session, parse_request({"type": kind, "rid": 1, **fields}))))


@pytest.fixture
def floor(store):
    """A room with ana and bob seated at t1, a security officer ``sec`` and a plain player ``pat``."""
    clock = Clock()
    room, desk = security_room(store, clock)
    people = {}
    for name in ("ana", "bob", "sec", "pat"):
        account(store, name)
        people[name] = player(room, name)[0]
    people["sec"].role = "security"
    for name in ("ana", "bob"):
        assert request(room, people[name], "join", table="t1", buy_in=1000)["ok"]
    return room, clock, people


def test_SEC_2_a_hand_in_progress_is_refused_and_an_ended_one_shows_every_card(floor, store):
    room, clock, people = floor
    sec = people["sec"]
    clock.advance(5)                                            # the first hand is being dealt and played
    running = room.tables.runners["t1"].table.hand.hand_id
    refused = ask(room, sec, "security_hand", hand_id=running)
    assert not refused["ok"] and refused["error"]["code"] == "hand_in_progress"
    assert refused["error"]["rule"] == "SEC-2"
    assert ask(room, sec, "security_hands", player="ana")["hands"] == []      # searches find ended hands only
    play_until(room, clock, 1)
    found = ask(room, sec, "security_hands", player="ana")["hands"]
    assert [h["hand_id"] for h in found] == [running] and sorted(found[0]["players"]) == ["ana", "bob"]
    hand = ask(room, sec, "security_hand", hand_id=running)["hand"]
    dealt = [e for e in hand["events"] if e["type"] == "hole_cards_dealt"]
    assert len(dealt) == 2 and all(len(e["cards"]) == 2 and None not in e["cards"] for e in dealt)
    assert hand["start_stacks"] == {"ana": 1000, "bob": 1000}
    times = hand["times"]                                        # SEC-1: every action with its time
    assert len(times) == len(hand["events"]) and times == sorted(times) and times[-1] > times[0]
    room.recorder.flushed()  # SEC-4: every look is logged, with who and what
    looks = [(r.data["what"], r.data["by"], r.data.get("hand_id"))
             for r in store.audit_log.audit_records("security_review")]
    assert looks == [("hand", "sec", running), ("hands", "sec", None), ("hands", "sec", None),
                     ("hand", "sec", running)]
    staff = ask(room, sec, "join", table="quiet", buy_in=500)      # and the security team never plays
    assert staff["error"]["code"] == "staff_may_not_play" and staff["error"]["rule"] == "SEC-2"
    for name in ("ana", "pat"):                                  # players never see any of it
        for kind, fields in [("security_hand", {"hand_id": running}), ("security_hands", {}),
                             ("security_pairs", {}), ("security_cases", {})]:
            no = ask(room, people[name], kind, **fields)
            assert not no["ok"] and no["error"]["code"] == "forbidden", (name, kind)


def test_SEC_4_a_case_is_opened_with_hands_and_notes_decided_and_exported_with_every_card(floor, store):
    room, clock, people = floor
    sec = people["sec"]
    play_until(room, clock, 2)
    hands = [h["hand_id"] for h in ask(room, sec, "security_hands", player="bob")["hands"]]
    opened = ask(room, sec, "security_case_open", title="ana and bob", players=["ana", "bob"],
                 reason="ranked first by soft play")
    case = opened["case"]
    nobody = ask(room, sec, "security_case_open", title="x", players=["ana", "nobody"], reason="typo")
    assert nobody["error"]["code"] == "no_such_player"
    for hand_id in hands:
        assert ask(room, sec, "security_case_attach", case=case, hand_id=hand_id)["ok"]
    assert ask(room, sec, "security_case_note", case=case, text="they never raise each other")["ok"]
    missing = ask(room, sec, "security_case_attach", case=case, hand_id="t1-999")
    assert missing["error"]["code"] == "no_such_hand"
    for fmt, mark in (("pokerstars", "PokerStars Hand #"), ("ohh", '"ohh"')):
        export = ask(room, sec, "security_export", case=case, format=fmt)
        assert export["hands"] == len(hands) >= 2 and export["text"].count(mark) == len(hands)
    stars = ask(room, sec, "security_export", case=case, format="pokerstars")["text"]
    for hand_id in hands:                                         # both players' hole cards, in every hand
        stored = store.security.hand(hand_id)
        for e in stored.events:
            if e["type"] == "hole_cards_dealt":
                assert e["cards"] and all(isinstance(c, int) for c in e["cards"])
    assert stars.count("Dealt to ana") == len(hands) and stars.count("Dealt to bob") == len(hands)
    for line in stars.splitlines():
        if line.startswith("{"):
            json.loads(line)
    assert ask(room, sec, "security_case_decide", case=case, decision="warned", reason="first offence")["ok"]
    detail = ask(room, sec, "security_case", case=case)["case"]
    assert detail["state"] == "decided" and detail["decision"] == "warned" and set(detail["hands"]) == set(hands)
    assert [n["text"] for n in detail["notes"]] == ["they never raise each other"]
    assert [a["data"]["action"] for a in detail["actions"]] == ["case_decide", "case_note",
                                                                *["case_attach"] * len(hands), "case_open"]
    late = ask(room, sec, "security_case_note", case=case, text="more")
    assert late["error"]["code"] == "case_decided"
    assert store.audit_log.audit_chain_intact()


def test_AC_7_void_reverses_the_winners_takings_to_the_loser_through_the_ledger_once(floor, store):
    room, clock, people = floor
    sec = people["sec"]
    play_until(room, clock, 1)
    hand = store.security.hand("t1-1")
    winner = max(hand.end_stacks, key=lambda p: hand.end_stacks[p] - hand.start_stacks[p])
    loser = next(p for p in hand.start_stacks if p != winner)
    won = hand.end_stacks[winner] - hand.start_stacks[winner]
    assert won > 0
    room.wallet.move(cash(winner), WORLD, room.wallet.balance(winner), "withdrawal", winner)    # wallet empty, chips on
    short = ask(room, sec, "security_void", player=winner, hands=["t1-1"], reason="chip dumping")
    assert short["error"]["code"] == "void_short" and short["error"]["rule"] == "AC-7"
    assert request(room, people[winner], "leave", table="t1")["ok"]
    before = {p: room.wallet.balance(p) for p in ("ana", "bob")}
    voided = ask(room, sec, "security_void", player=winner, hands=["t1-1"], reason="chip dumping", case=7)
    assert voided["ok"], voided
    [t] = voided["transfers"]
    assert t["reason"] == "void" and t["reference"] == "t1-1"
    assert sorted(t["postings"]) == sorted([[cash(winner), -won], [cash(loser), won]])
    assert room.wallet.balance(winner) == before[winner] - won and room.wallet.balance(loser) == before[loser] + won
    assert room.wallet.books.check()
    room.recorder.flushed()
    assert store.ledger.ledger_check() and store.ledger.load_ledger().balance(cash(loser)) == room.wallet.balance(loser)
    again = ask(room, sec, "security_void", player=winner, hands=["t1-1"], reason="twice")
    assert again["error"]["code"] == "already_void"
    shown = ask(room, sec, "security_ledger", player=loser)["transfers"]
    assert shown[0]["reason"] == "void" and shown[0]["number"] == t["number"]
    record = [r for r in store.audit_log.audit_records("security_action") if r.data["action"] == "void"]
    assert record[0].data["transfers"] == [t["number"]] and record[0].data["reason"] == "chip dumping"


def test_AC_7_a_void_splits_the_winnings_over_the_losers_by_their_losses_and_always_balances():
    postings = void_postings("cheat", {"cheat": 100, "a": 100, "b": 100, "c": 100},
                             {"cheat": 201, "a": 33, "b": 66, "c": 100})
    assert sum(p.amount for p in postings) == 0
    amounts = {p.account: p.amount for p in postings}
    assert amounts == {cash("cheat"): -101, cash("a"): 67, cash("b"): 34}
    assert void_postings("a", {"a": 100, "b": 100}, {"a": 90, "b": 110}) == []   # nothing won: nothing to void


def test_HR_CHAT_3_a_mute_at_a_table_or_room_wide_for_a_while_or_for_good_is_kept_across_a_restart(floor, store):
    room, clock, people = floor
    sec, ana = people["sec"], people["ana"]
    clock.advance(2)
    assert ask(room, ana, "chat", table="t1", text="hello")["ok"]
    clock.advance(2)
    assert ask(room, sec, "security_mute", player="ana", table="t1", minutes=30, reason="abuse")["ok"]
    refused = ask(room, ana, "chat", table="t1", text="hello again")
    assert refused["error"]["code"] == "muted" and refused["error"]["rule"] == "HR-CHAT-3"
    assert "at this table until" in refused["error"]["message"]
    assert [(c.text, c.blocked) for c in store.security.search_chat(player="ana")][0] == ("hello again", True)
    assert ask(room, ana, "chat", table="t1", text="flood")["error"]["code"] == "muted"
    assert [c.text for c in store.security.search_chat(player="ana")][0] == "hello again"   # kept: one line a second
    assert request(room, ana, "observe", table="quiet", on=True)["ok"]
    assert ask(room, ana, "chat", table="quiet", text="elsewhere is fine")["ok"]
    clock.advance(30 * 60 + 1)
    assert ask(room, ana, "chat", table="t1", text="back")["ok"]
    assert ask(room, sec, "security_mute", player="ana", reason="threats")["ok"]     # room-wide, for good
    clock.advance(2)
    again, _ = security_room(store, clock)                                          # a restart remembers it
    assert again.moderation.muted("ana", "quiet", clock.seconds()) is not None
    assert ask(room, sec, "security_unmute", player="ana", reason="appeal upheld")["ok"]
    assert ask(room, ana, "chat", table="quiet", text="thanks")["ok"]
    room.recorder.flushed()
    actions = [(r.data["action"], r.data["reason"]) for r in store.audit_log.audit_records("security_action")]
    assert actions == [("mute", "abuse"), ("mute", "threats"), ("unmute", "appeal upheld")]
    assert security_room(store, clock)[0].moderation.muted("ana", "quiet", clock.seconds()) is None


def test_HR_CHAT_4_chat_from_a_player_in_the_running_hand_is_flagged_and_refused_where_the_table_says(floor, store):
    room, clock, people = floor
    ana, bob, pat = people["ana"], people["bob"], people["pat"]
    for session in (ana, bob):
        assert request(room, session, "leave", table="t1")["ok"]
    clock.advance(1)
    for session in (ana, bob):
        assert request(room, session, "join", table="quiet", buy_in=1000)["ok"]
    clock.advance(5)
    assert room.tables.runners["quiet"].table.hand is not None
    refused = ask(room, ana, "chat", table="quiet", text="bob, fold this")
    assert refused["error"]["code"] == "chat_in_hand" and refused["error"]["rule"] == "HR-CHAT-4"
    assert request(room, pat, "observe", table="quiet", on=True)["ok"]
    assert ask(room, pat, "chat", table="quiet", text="nice table")["ok"]          # a railbird is not in the hand
    hand_id = room.tables.runners["quiet"].table.hand.hand_id
    play_until(room, clock, 1, "quiet")
    flagged = store.audit_log.audit_records("chat_in_hand")
    assert [(r.data["player"], r.data["hand_id"], r.data["blocked"]) for r in flagged] == [("ana", hand_id, True)]
    lines = store.security.search_chat(table="quiet")
    assert {(c.player_id, c.blocked) for c in lines} == {("ana", True), ("pat", False)}     # kept (HR-CHAT-1)
    facts = unpack_facts(next(store.security.iter_hand_facts()))
    assert facts.hand_id == hand_id and set(facts.chatted) == {"ana", "pat"}


def test_AC_3_only_the_security_team_resets_a_nickname_once_the_player_has_left_every_table(floor, store):
    room, clock, people = floor
    sec = people["sec"]
    play_until(room, clock, 1)
    busy = ask(room, sec, "security_reset_nickname", player="bob", nickname="player-7", reason="bumhunted")
    assert busy["error"]["code"] == "player_busy" and busy["error"]["rule"] == "AC-3"
    with pytest.raises(ProtocolError) as bad:               # the schema's AC-3 rule: refused before the desk
        ask(room, sec, "security_reset_nickname", player="bob", nickname="bad nick", reason="bumhunted")
    assert (bad.value.code, bad.value.rule) == ("bad_nickname", "AC-3")
    assert request(room, people["bob"], "leave", table="t1")["ok"]
    room.tables.runners["quiet"].table.waiting_list.append("bob")          # queued for a full table
    queued = ask(room, sec, "security_reset_nickname", player="bob", nickname="player-7", reason="bumhunted")
    assert queued["error"]["code"] == "player_busy" and "at quiet" in queued["error"]["message"]
    room.tables.runners["quiet"].table.waiting_list.remove("bob")
    room.wallet.move(cash("bob"), tournament_dollars("bob"), 50, "test: T$ won", "t")
    tickets = ask(room, sec, "security_reset_nickname", player="bob", nickname="player-7", reason="bumhunted")
    assert tickets["error"]["code"] == "player_busy" and tournament_dollars("bob") in tickets["error"]["message"]
    room.wallet.move(tournament_dollars("bob"), cash("bob"), 50, "test: T$ back", "t")
    assert ask(room, sec, "security_mute", player="bob", reason="abuse")["ok"]
    wallet = room.wallet.balance("bob")
    connection = people["bob"].connection
    done = ask(room, sec, "security_reset_nickname", player="bob", nickname="player-7", reason="bumhunted")
    assert done == {**done, "ok": True, "nickname": "player-7"}
    assert {"closed": 4004} in connection.sent                       # told to log in with the new name
    assert room.wallet.balance("bob") == 0 and room.wallet.balance("player-7") == wallet and room.wallet.books.check()
    room.recorder.flushed()
    assert store.accounts.find_account(nickname_key("bob")) is None
    assert store.accounts.find_account("player-7") is not None
    assert store.security.aliases_of("player-7") == ["bob"]
    # history keeps the name it was played under
    assert "bob" in store.security.hand("t1-1").start_stacks
    with pytest.raises(Exception, match="taken") as reused:         # the old name is never anyone else's
        store.accounts.create_account("BOB", "bob", "x", "1990-01-01", "NL", 0.0)
    assert reused.value.rule_id == "AC-3"
    again, _ = security_room(store, clock)                           # the mute followed the account
    assert again.moderation.muted("player-7", "t1", clock.seconds()) and not again.moderation.muted(
        "bob", "t1", clock.seconds())
    taken = ask(room, sec, "security_reset_nickname", player="ana", nickname="PLAYER-7", reason="x")
    assert taken["error"]["code"] in ("nickname_taken", "player_busy")
    ana = ask(room, people["ana"], "security_reset_nickname", player="ana", nickname="anna", reason="x")
    assert ana["error"]["code"] == "forbidden"


def test_AC_4_a_verified_player_may_show_their_real_name(floor, store):
    room, clock, people = floor
    sec, ana = people["sec"], people["ana"]
    early = ask(room, ana, "real_name", on=True)
    assert early["error"]["code"] == "not_verified" and early["error"]["rule"] == "AC-4"
    assert ask(room, sec, "security_verify_identity", player="ana", real_name="Ana Lima",
               reason="passport checked")["ok"]
    assert ask(room, ana, "real_name", on=True)["name"] == "Ana Lima"
    clock.advance(2)
    assert ask(room, ana, "chat", table="t1", text="hi")["ok"]
    chat = [m for m in people["bob"].connection.sent if m.get("type") == "chat"][-1]
    assert chat["player"] == "ana" and chat["name"] == "Ana Lima"
    assert request(room, people["pat"], "observe", table="t1", on=True)["ok"]
    snapshot = [m for m in people["pat"].connection.sent if m.get("type") == "table_snapshot"][-1]
    assert {s["player"]: s.get("name") for s in snapshot["seats"]} == {"ana": "Ana Lima", "bob": None}
    assert ask(room, ana, "real_name", on=False)["name"] == "ana"
    room.recorder.flushed()
    assert store.accounts.find_account("ana").verified_name == "Ana Lima"
    assert not store.accounts.find_account("ana").show_real_name


def test_SEC_4_frozen_and_banned_accounts_and_linked_accounts_kept_apart(floor, store):
    room, clock, people = floor
    sec, pat = people["sec"], people["pat"]
    assert ask(room, sec, "security_freeze", player="pat", on=True, reason="under review")["ok"]
    frozen = ask(room, pat, "join", table="t1", buy_in=500)
    assert frozen["error"]["code"] == "account_frozen" and frozen["error"]["rule"] == "SEC-4"
    assert ask(room, sec, "security_freeze", player="pat", on=False, reason="cleared")["ok"]
    assert ask(room, sec, "security_restrict", a="pat", b="ana", reason="same household")["ok"]
    linked = ask(room, pat, "join", table="t1", buy_in=500)
    assert linked["error"]["code"] == "linked_accounts"
    assert ask(room, pat, "join", table="quiet", buy_in=500)["ok"]
    again, _ = security_room(store, clock)
    with pytest.raises(Exception, match="linked"):
        again.moderation.verify_seat("ana", ["pat"])
    connection = pat.connection
    assert ask(room, sec, "security_ban", player="pat", reason="collusion proven")["ok"]
    assert {"closed": 4003} in connection.sent and pat.player_id is None
    room.recorder.flushed()
    assert store.accounts.find_account("pat").closed
    view = ask(room, sec, "security_player", player="pat")["player"]
    assert view["status"] == "closed" and view["restrictions"] == [{"player": "ana", "reason": "same household"}]
    assert ask(room, sec, "security_player", player="nobody")["error"]["code"] == "no_such_player"


def test_SEC_1_hands_seats_and_chat_are_chained_in_the_audit_log_and_the_pairs_come_from_stored_hands(floor, store):
    room, clock, people = floor
    sec = people["sec"]
    clock.advance(2)
    assert ask(room, people["bob"], "chat", table="t1", text="gl")["ok"]
    play_until(room, clock, 3)
    played = room.tables.runners["t1"].table.hand_number
    assert request(room, people["ana"], "leave", table="t1")["ok"]
    room.recorder.flushed()
    kinds = [r.kind for r in store.audit_log.audit_records()]
    assert kinds.count("hand") == played >= 3 and kinds.count("chat") == 1
    seats = [(r.data["what"], r.data["player"]) for r in store.audit_log.audit_records("seat")]
    assert ("joined", "ana") in seats and ("joined", "bob") in seats and ("left", "ana") in seats
    verdict = store.audit_log.verify_audit()
    assert verdict.intact and verdict.count == len(kinds)
    pairs = ask(room, sec, "security_pairs")
    assert pairs["ok"] and isinstance(pairs["pairs"], list) and isinstance(pairs["rings"], list)
    report = ask(room, sec, "security_pair", a="bob", b="ana")["report"]
    assert report["players"] == ["ana", "bob"] and len(report["shared_hands"]) == played
    assert [c["text"] for c in report["chat"]] == ["gl"]
    audit = ask(room, sec, "security_audit", kind="seat", player="ana")["records"]
    assert audit and all(r["kind"] == "seat" and r["data"]["player"] == "ana" for r in audit)


def test_AC_7_a_hand_voided_for_one_winner_can_still_be_voided_for_another(store):
    from pokerroom.money.ledger import Ledger, Posting

    ledger = Ledger()
    ledger.move(WORLD, cash("a"), 100, "deposit", "a", 0.0)
    ledger.move(WORLD, cash("b"), 100, "deposit", "b", 0.0)
    t = ledger.transfer([Posting(cash("a"), -40), Posting(cash("c"), 40)], "void", "t1-9", 1.0)
    store.ledger.save_transfers([t])
    assert store.security.voided_hands(["t1-9", "t1-8"], [cash("a")]) == {"t1-9"}
    assert store.security.voided_hands(["t1-9"], [cash("b")]) == set()
    assert store.security.voided_hands(["t1-9"], [cash("b"), cash("a")]) == {"t1-9"}      # a's account, renamed b since


def test_AC_7_AC_3_winnings_voided_before_a_rename_are_not_voided_again_under_either_name(floor, store):
    room, clock, people = floor
    sec = people["sec"]
    play_until(room, clock, 1)
    hand = store.security.hand("t1-1")
    winner = max(hand.end_stacks, key=lambda p: hand.end_stacks[p] - hand.start_stacks[p])
    for name in ("ana", "bob"):
        assert request(room, people[name], "leave", table="t1")["ok"]
    assert ask(room, sec, "security_void", player=winner, hands=["t1-1"], reason="dumping")["ok"]
    renamed = ask(room, sec, "security_reset_nickname", player=winner, nickname="renamed1", reason="bumhunted")
    assert renamed["ok"], renamed
    for name in ("renamed1", winner):
        again = ask(room, sec, "security_void", player=name, hands=["t1-1"], reason="twice")
        assert again["error"]["code"] == "already_void", (name, again)
    assert room.wallet.books.check()


def test_AC_6_a_large_balance_moved_by_a_nickname_reset_is_flagged_and_stored_once(floor, store):
    room, _, people = floor
    threshold = room.account_rules.aml_threshold
    deposit(room, "pat", threshold)
    room.recorder.flushed()
    before = len(store.audit_log.audit_records("aml_flag"))
    done = ask(room, people["sec"], "security_reset_nickname", player="pat", nickname="pat-2", reason="bumhunted")
    assert done["ok"] and room.wallet.balance("pat-2") >= threshold
    room.recorder.flushed()
    flags = [f.data for f in store.audit_log.audit_records("aml_flag")[before:]]
    assert [(f["reason"], f["reference"]) for f in flags] == [("nickname reset", "pat")]
    assert flags[0]["size"] == room.wallet.balance("pat-2")
    # the transfer is stored once, by the rename
    assert store.ledger.ledger_problems() == []
