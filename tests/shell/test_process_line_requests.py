"""The calls that cross the process line (docs/architecture.md) go as records on the strict bus, answered on a later
turn as a broker would answer them: a promotion's SEC-2 check, a rename's idle check and its wallet move (AC-3), a
chat line kept by the table's recorder (HR-CHAT-1, HR-CHAT-4), the casino's reads (CR-7), and a void and a
player's balance asked of the wallet's side (AC-7, SEC-4), an admin's approval of a guarantee asked of the hall
(STAFF-1)."""

from __future__ import annotations

import pytest
from twisted.internet import defer
from twisted.internet.task import Clock

from pokerroom.bus.records import (
    ApproveGuarantee,
    CasinoRead,
    ChatLine,
    IdleRead,
    InPlayRead,
    LobbySection,
    Rename,
    VoidWinnings,
    WalletRead,
    WhereRead,
)
from pokerroom.bus.strict import StrictBus
from pokerroom.bus.subjects import (
    CASH_TABLES_WHERE,
    CASINO_TABLES,
    LOBBY_SECTION,
    SECURITY_IDLE,
    SECURITY_RENAME,
    SECURITY_VOID,
    TOURNAMENTS_PLAYING,
    WALLET_BALANCE,
    casino_read,
    table_announce,
    table_keep_chat,
    tournament_command,
)
from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import cash, table_escrow
from pokerroom.players import nickname_key
from pokerroom.protocol.schema import parse_request
from pokerroom.shell.composition import RoomServices
from pokerroom.shell.promotions_desk import PromotionsDesk
from pokerroom.shell.tournaments.hall_line import HallLine
from pokerroom.store.security_records import unpack_facts
from tests.support.casino_room import strict_floor
from tests.support.clocked_room import Connection, deposit, play_until, player, request, resolved
from tests.support.hall_lobby import Lobby, asked
from tests.support.security_room import account, security_desk, security_room
from tests.support.strict_rooms import playing, signed_in, staffed, strict_room


def spied(monkeypatch: pytest.MonkeyPatch, room: RoomServices) -> list[tuple[str, object]]:
    """Every request and gather sent on the room's bus from now on, as (subject, payload)."""
    asked: list[tuple[str, object]] = []
    real, real_gather = room.bus.request, room.bus.gather

    def spy(subject: str, payload: object) -> defer.Deferred:
        asked.append((subject, payload))
        return real(subject, payload)

    def gather_spy(subject: str, payload: object, expected: int, **waits: object) -> defer.Deferred:
        asked.append((subject, payload))
        return real_gather(subject, payload, expected, **waits)

    monkeypatch.setattr(room.bus, "request", spy)
    monkeypatch.setattr(room.bus, "gather", gather_spy)
    return asked


def later(room: RoomServices, session, kind: str, **fields) -> dict:   # noqa: ANN001, ANN003
    """``kind`` asked by ``session``: not answered in the call (the strict bus answers on a later turn), then
    answered once the bus has turned."""
    assert isinstance(room.bus, StrictBus)
    answer = room.gateway.handle(session, parse_request({"type": kind, "rid": 1, **fields}))
    assert isinstance(answer, defer.Deferred) and (not answer.called or answer.paused), "answered in the call"
    return resolved(answer)


def refusal(room: RoomServices, asked: defer.Deferred) -> RuleViolation:
    out: list = []
    asked.addBoth(out.append)
    resolved(None)
    assert out and isinstance(out[0].value, RuleViolation), out
    return out[0].value


def test_SEC_2_a_promotions_check_asks_the_tables_where_the_player_plays(store, monkeypatch):
    clock = Clock()
    room = staffed(store, clock)
    root, _, _ = signed_in(room, "root", "admin")
    ana, _, _ = signed_in(room, "ana")
    assert request(room, ana, "join", table="t1", buy_in=500, seat=1)["ok"]
    asked = spied(monkeypatch, room)
    refused = later(room, root, "admin_set_role", player="ana", role="security", reason="hired")
    assert refused["error"]["code"] == "player_busy" and refused["error"]["rule"] == "SEC-2"
    assert "is seated at t1" in refused["error"]["message"]
    assert asked == [(CASH_TABLES_WHERE, WhereRead("ana"))]
    assert store.accounts.find_account("ana").role == "player"
    del asked[:]
    assert resolved(request(room, root, "admin_set_role", player="ana", role="director", reason="x"))["ok"]
    assert asked == []                                      # not a security role: nothing to ask


def test_AC_3_a_rename_asks_the_table_process_whether_the_player_is_idle_and_to_move_the_wallet(store, monkeypatch):
    clock = Clock()
    room, _ = security_room(store, clock)
    for name in ("sec", "bob"):
        account(store, name)
    sec = room.gateway.connected(Connection(), "10.0.0.1")
    sec.player_id, sec.role = "sec", "security"
    room.gateway.identify(sec, "sec")
    deposit(room, "bob", 700)
    room.wallet.move(cash("bob"), table_escrow("t1", "bob"), 200, "test: chips on t1", "t")
    asked = spied(monkeypatch, room)
    busy = later(room, sec, "security_reset_nickname", player="bob", nickname="robert", reason="asked")
    assert busy["error"]["code"] == "player_busy" and busy["error"]["rule"] == "AC-3"
    assert table_escrow("t1", "bob") in busy["error"]["message"]
    assert asked == [(TOURNAMENTS_PLAYING, InPlayRead("bob")), (SECURITY_IDLE, IdleRead("bob"))]   # entries first
    room.wallet.move(table_escrow("t1", "bob"), cash("bob"), 200, "test: chips back", "t")
    del asked[:]
    done = later(room, sec, "security_reset_nickname", player="bob", nickname="robert", reason="asked")
    assert done["ok"] and done["nickname"] == "robert"
    assert [subject for subject, _ in asked] == [TOURNAMENTS_PLAYING, SECURITY_IDLE, TOURNAMENTS_PLAYING,
                                                 SECURITY_RENAME,          # no entry still, after the name's read
                                                 SECURITY_IDLE]            # the move asks every node again itself
    assert asked[4][1] == IdleRead("bob")
    assert asked[3][1] == Rename("bob", "robert", nickname_key("robert"), "asked", "sec", clock.seconds())
    assert room.wallet.balance("bob") == 0 and room.wallet.balance("robert") == 700 and room.wallet.books.check()
    assert store.accounts.find_account(nickname_key("robert")) is not None


def test_AC_3_the_table_process_checks_a_rename_again_in_the_call_that_moves_the_money(store):
    """A rename asked directly on the bus (another service, or one forged) still moves nothing of a player who sits
    at a table: the check is made where the money is, in the same call."""
    clock = Clock()
    room, _ = security_room(store, clock)
    account(store, "bob")
    deposit(room, "bob", 700)
    room.tables.runners["quiet"].table.waiting_list.append("bob")
    assert "at quiet" in str(refusal(room, room.bus.gather(SECURITY_IDLE, IdleRead("bob"), 1)))
    refused = refusal(room, room.bus.request(SECURITY_RENAME, Rename("bob", "robert", "robert", "x", "sec", 0.0)))
    assert (refused.code, refused.rule_id) == ("player_busy", "AC-3")
    assert room.wallet.balance("bob") == 700 and room.wallet.balance("robert") == 0
    assert store.accounts.find_account("bob") is not None


def test_HR_CHAT_1_a_chat_line_is_kept_by_the_table_processs_recorder_as_a_record(store, monkeypatch):
    clock = Clock()
    room = strict_room(store, clock)
    (ana, _), _, (cy, _) = playing(room, clock)
    hand_id = room.tables.runners["t1"].table.hand.hand_id
    asked = spied(monkeypatch, room)
    refused = later(room, ana, "chat", table="t1", text="nice hand")          # closed to players in the hand
    assert refused["error"]["code"] == "chat_in_hand" and refused["error"]["rule"] == "HR-CHAT-4"
    kept = [payload for subject, payload in asked if subject == table_keep_chat("t1")]
    assert kept == [ChatLine("ana", "nice hand", clock.seconds(), hand_id, True, True)]
    clock.advance(1.0)
    assert later(room, cy, "chat", table="t1", text="go on")["ok"]          # a railbird's line: kept, then shown
    subjects = [subject for subject, _ in asked[len(kept) + 1:]]
    assert subjects[-2:] == [table_keep_chat("t1"), table_announce("t1")]
    room.recorder.flushed()
    lines = store.security.search_chat(table="t1")
    assert {(c.player_id, c.hand_id, c.blocked) for c in lines} == {("ana", hand_id, True), ("cy", hand_id, False)}
    flagged = store.audit_log.audit_records("chat_in_hand")
    assert [(r.data["player"], r.data["hand_id"]) for r in flagged] == [("ana", hand_id)]
    play_until(room, clock, room.tables.runners["t1"].table.hand_number)
    facts = unpack_facts(next(store.security.iter_hand_facts()))
    assert facts.hand_id == hand_id and set(facts.chatted) == {"ana", "cy"}     # the collusion signals' note


def test_CR_7_the_casinos_reads_are_asked_of_the_floor_and_its_lobby_section_is_sent_whole(store, monkeypatch):
    clock, bus, room, ana = strict_floor(store)
    anonymous = room.gateway.connected(Connection(), "10.0.0.2")
    sections: list[LobbySection] = []
    bus.subscribe(LOBBY_SECTION, lambda subject, section: sections.append(section))
    asked = spied(monkeypatch, room)
    rules = later(room, anonymous, "casino_rules", table="bac")
    assert rules["ok"] and rules["limits"]["default"] == [100, 100_000]
    history = later(room, anonymous, "casino_history", table="bac")
    assert history["ok"] and history["table"] == "bac" and history["results"] == []
    listed = later(room, anonymous, "casino_list")
    assert [t["table"] for t in listed["tables"]] == ["bac"]
    assert asked == [(casino_read("bac"), CasinoRead("rules")), (casino_read("bac"), CasinoRead("history")),
                     (CASINO_TABLES, None)]
    assert later(room, anonymous, "casino_rules", table="nope")["error"]["code"] == "unknown_table"
    odd = refusal(room, bus.request(casino_read("bac"), CasinoRead("hole_cards")))   # only rules and history
    assert odd.code == "unknown_read"
    assert request(room, ana, "casino_join", table="bac")["ok"]
    assert request(room, ana, "casino_bet", table="bac", market="player", amount=1_000)["ok"]
    resolved(None)
    assert sections and sections[-1].name == "casino" and sections[-1].lines[0]["players"] == 1
    lobby = resolved(request(room, anonymous, "lobby_list"))
    assert lobby["casino"] == [dict(sections[-1].lines[0])]                 # the feed's copy of the section


def test_AC_7_a_void_is_worked_out_made_and_logged_by_the_table_process_from_the_stored_hands(store, monkeypatch):
    clock = Clock()
    room, _ = security_room(store, clock)
    people = {}
    for name in ("ana", "bob", "sec"):
        account(store, name)
        people[name] = player(room, name)[0]
    sec = people["sec"]
    sec.role = "security"
    for name in ("ana", "bob"):
        assert request(room, people[name], "join", table="t1", buy_in=1000)["ok"]
    play_until(room, clock, 1)
    hand = store.security.hand("t1-1")
    winner = max(hand.end_stacks, key=lambda p: hand.end_stacks[p] - hand.start_stacks[p])
    won = hand.end_stacks[winner] - hand.start_stacks[winner]
    asked = spied(monkeypatch, room)
    seen = later(room, sec, "security_player", player=winner)              # the balance is asked of the wallet
    assert seen["player"]["balance"] == room.wallet.balance(winner)
    assert (WALLET_BALANCE, WalletRead(winner)) in asked
    before = room.wallet.balance(winner)
    voided = later(room, sec, "security_void", player=winner, hands=["t1-1", "t1-1"], reason="dumping", case=3)
    assert voided["ok"] and [t["reference"] for t in voided["transfers"]] == ["t1-1"]
    assert asked[-1] == (SECURITY_VOID, VoidWinnings(winner, ("t1-1",), "sec", "dumping", 3))
    assert room.wallet.balance(winner) == before - won and room.wallet.books.check()
    room.recorder.flushed()
    [logged] = [r for r in store.audit_log.audit_records("security_action") if r.data["action"] == "void"]
    assert (logged.data["by"], logged.data["case"], logged.data["amount"]) == ("sec", 3, won)
    # the same void asked again on the bus, by anyone: the table process refuses it (once per account, AC-7)
    again = refusal(room, room.bus.request(SECURITY_VOID, VoidWinnings(winner, ("t1-1",), "x", "again")))
    assert (again.code, again.rule_id) == ("already_void", "AC-7")
    none = refusal(room, room.bus.request(SECURITY_VOID, VoidWinnings(winner, ("t1-99",), "x", "made up")))
    assert none.code == "no_such_hand"
    assert room.wallet.balance(winner) == before - won


def test_SEC_2_AC_3_a_tournament_entrant_is_neither_promoted_nor_renamed_the_hall_is_asked(store, monkeypatch):
    """The hall is the table process's: whether a player is entered is asked on ``tournaments.playing`` (an
    InPlayRead the hall answers), by the admin's promotion (SEC-2) and by the security team's rename (AC-3)."""
    lobby = Lobby(store)
    room = lobby.room
    room.session_watch.count_in_play("is entered in a tournament", TOURNAMENTS_PLAYING)     # as the root does
    security_desk(room)
    lobby.create()
    lobby.person("ana")
    lobby.person("root", role="admin")
    lobby.person("sec", role="security")
    assert lobby.ask("ana", "tournament_register", tournament="sng")["ok"]
    asked = spied(monkeypatch, room)
    promoted = lobby.ask("root", "admin_set_role", player="ana", role="security", reason="hired")
    assert promoted["error"]["code"] == "player_busy" and promoted["error"]["rule"] == "SEC-2"
    assert "is entered in a tournament" in promoted["error"]["message"]
    assert (TOURNAMENTS_PLAYING, InPlayRead("ana")) in asked
    del asked[:]
    renamed = lobby.ask("sec", "security_reset_nickname", player="ana", nickname="anna", reason="asked")
    assert renamed["error"]["code"] == "player_busy" and renamed["error"]["rule"] == "AC-3"
    assert asked == [(TOURNAMENTS_PLAYING, InPlayRead("ana"))]                # refused before the tables are asked
    assert store.accounts.find_account("ana").role == "player" and store.accounts.find_account("anna") is None
    assert lobby.ask("ana", "tournament_unregister", tournament="sng")["ok"]
    assert lobby.ask("sec", "security_reset_nickname", player="ana", nickname="anna", reason="asked")["ok"]
    odd = refusal(room, room.bus.gather(TOURNAMENTS_PLAYING, WhereRead("anna"), 1))   # only an InPlayRead
    assert odd.code == "unknown_read"


def test_STAFF_1_an_approval_is_asked_of_the_hall_and_a_forged_one_approves_nothing(store, monkeypatch):
    """The hall is the table process's: an admin's approval of a guarantee above the limit is an ApproveGuarantee
    on ``tournament.<id>.command``, answered a turn later, and the events awaiting one are the hall's lobby lines.
    The hall reads the approver's stored role, the event's creator and the role grants itself, so a record forged
    on the bus -- naming the creator in any letter case, an admin the creator just made, or a player -- is refused
    as the creator's own request is (STAFF-1)."""
    lobby = Lobby(store)
    room = lobby.room
    line = HallLine(room.bus, lobby.hall.bounds.keep_ended_minutes)
    room.gateway.serve(PromotionsDesk(room.bus, room.recorder, line))
    security_desk(room)
    root, other = lobby.person("root", role="admin"), lobby.person("other", role="admin")
    lobby.person("ana")
    lobby.person("puppet")
    assert lobby.ask("root", "admin_set_role", player="puppet", role="admin", reason="help")["ok"]
    assert lobby.ask("root", "director_create", template="sit_and_go", id="mine", name="Mine", start_in=None,
                     settings={"guarantee": lobby.hall.bounds.approval_above + 1})["ok"]
    assert later(room, root, "admin_promotions")["awaiting_approval"] == ["mine"]
    forged = {"root": "own_event", "ROOT": "own_event", "puppet": "granted_by_creator", "ana": "forbidden"}
    for by, code in forged.items():
        refused = asked(lobby, tournament_command("mine"), ApproveGuarantee(by, "looks fine"))
        assert isinstance(refused, RuleViolation) and (refused.code, refused.rule_id) == (code, "STAFF-1"), by
    assert lobby.hall.directors["mine"].awaiting_approval and not store.audit_log.audit_records("tournament_approved")
    sent = spied(monkeypatch, room)
    answer = later(room, other, "admin_approve_tournament", tournament="mine", reason="the series")
    assert answer["ok"] and not answer["tournament"]["awaiting_approval"]
    assert sent == [(tournament_command("mine"), ApproveGuarantee("other", "the series"))]
    (record,) = store.audit_log.audit_records("tournament_approved")
    assert record.data["by"] == "other" and record.data["reason"] == "the series"
    assert later(room, root, "admin_promotions")["awaiting_approval"] == []
