"""Chat at a tournament table, on a Clock: the cash table's rules (HR-CHAT-1..4) where a tournament's players sit,
asked of the hall that directs the event -- also when another process plays its hands -- and heard by that table's
players only."""

from __future__ import annotations

from pokerroom.store.security_records import unpack_facts
from tests.support.clocked_room import settle
from tests.support.hall_lobby import AwayLobby, Lobby, started
from tests.support.security_room import security_desk
from tournament import director as td


def lines(lobby: Lobby, name: str) -> list[dict]:
    """The tournament chat lines pushed to ``name`` so far."""
    settle(lobby.room)
    return [m for m in lobby.people[name][1].sent if m.get("type") == "tournament_chat"]


def kept(lobby: Lobby, **search) -> list:
    """The chat lines the store keeps, newest first, as the security team's search finds them."""
    lobby.room.recorder.flushed()
    return lobby.room.store.security.search_chat(**search)


def officer(lobby: Lobby) -> None:
    """The security desk served in the lobby's room, and its officer "sec" logged in."""
    security_desk(lobby.room)
    lobby.person("sec", role="security")


def table_of(d: td.Director) -> str:
    (table,) = d.tables
    return table


def test_HR_CHAT_1_a_line_at_a_tournament_table_is_kept_with_author_table_hand_and_time_and_shown_to_its_players(
        store):
    lobby, d = started(store)
    table = table_of(d)
    hand = d.tables[table].hand.hand_id
    lobby.clock.advance(0.5)
    answer = lobby.ask("ana", "tournament_chat", tournament="sng", table=table, text="good luck all")
    assert answer["ok"], answer
    for name in ("ana", "bo", "cy"):                        # every player seated at the table hears it
        (line,) = lines(lobby, name)
        assert line == {"type": "tournament_chat", "tournament": "sng", "table": table, "player": "ana",
                        "text": "good luck all", "at": lobby.clock.seconds()}
    (stored,) = kept(lobby, table=table)
    assert (stored.player_id, stored.table_id, stored.hand_id, stored.text, stored.at, stored.blocked) == (
        "ana", table, hand, "good luck all", lobby.clock.seconds(), False)
    officer(lobby)
    found = lobby.ask("sec", "security_chat", table=table)          # searched as cash-table chat is
    assert found["ok"], found
    assert [(c["player"], c["text"]) for c in found["lines"]] == [("ana", "good luck all")]
    assert lines(lobby, "boss") == [] and lines(lobby, "sec") == []


def test_HR_CHAT_1_only_a_player_seated_at_the_table_chats_there(store):
    lobby, d = started(store)
    table = table_of(d)
    lobby.person("pat")
    assert lobby.ask("pat", "tournament_subscribe", tournament="sng", on=True)["ok"]
    refused = lobby.ask("pat", "tournament_chat", tournament="sng", table=table, text="hi")
    assert refused["error"]["code"] == "not_at_table"
    elsewhere = lobby.ask("ana", "tournament_chat", tournament="sng", table="sng-t99", text="hi")
    assert elsewhere["error"]["code"] == "not_at_table"
    unknown = lobby.ask("ana", "tournament_chat", tournament="nope", table=table, text="hi")
    assert unknown["error"]["code"] == "unknown_tournament"
    assert kept(lobby) == []


def test_HR_CHAT_2_links_and_abuse_are_refused_and_kept_and_one_line_a_second_across_cash_and_tournament_tables(
        store):
    lobby, d = started(store)
    table = table_of(d)
    blocked = lobby.ask("bo", "tournament_chat", tournament="sng", table=table, text="cheap chips at scam.com")
    assert (blocked["error"]["code"], blocked["error"]["rule"]) == ("chat_blocked", "HR-CHAT-2")
    lobby.clock.advance(1)
    assert lobby.ask("bo", "tournament_chat", tournament="sng", table=table, text="nice hand")["ok"]
    fast = lobby.ask("bo", "tournament_chat", tournament="sng", table=table, text="nice hand!!")
    assert (fast["error"]["code"], fast["error"]["rule"]) == ("chat_too_fast", "HR-CHAT-2")
    lobby.clock.advance(1)
    assert lobby.ask("bo", "tournament_chat", tournament="sng", table=table, text="again")["ok"]
    assert [line["text"] for line in lines(lobby, "ana")] == ["nice hand", "again"]
    assert [(c.text, c.blocked) for c in kept(lobby, player="bo")] == [
        ("again", False), ("nice hand", False), ("cheap chips at scam.com", True)]     # newest first
    assert lobby.room.chat_conduct is lobby.room.table_chat.conduct     # one pace for every table's chat


def test_HR_CHAT_3_a_mute_at_the_tournament_table_or_room_wide_is_honoured_and_the_line_is_kept_unshown(store):
    lobby, d = started(store)
    table = table_of(d)
    officer(lobby)
    assert lobby.ask("sec", "security_mute", player="ana", table=table, minutes=1, reason="abuse")["ok"]
    muted = lobby.ask("ana", "tournament_chat", tournament="sng", table=table, text="you all stink")
    assert (muted["error"]["code"], muted["error"]["rule"]) == ("muted", "HR-CHAT-3")
    assert "at this table" in muted["error"]["message"]
    assert lines(lobby, "bo") == []
    assert [(c.text, c.blocked) for c in kept(lobby, player="ana")] == [("you all stink", True)]
    lobby.clock.advance(61)                                 # the mute at the table is over
    assert lobby.ask("ana", "tournament_chat", tournament="sng", table=table, text="sorry")["ok"]
    lobby.clock.advance(1)
    assert lobby.ask("sec", "security_mute", player="ana", reason="threats")["ok"]      # room-wide, for good
    again = lobby.ask("ana", "tournament_chat", tournament="sng", table=table, text="hello?")
    assert again["error"]["code"] == "muted" and "in this room" in again["error"]["message"]
    assert [line["text"] for line in lines(lobby, "bo")] == ["sorry"]


def test_HR_CHAT_4_a_line_during_ones_own_tournament_hand_is_flagged_and_refused_where_the_event_closes_chat(store):
    lobby, d = started(store, block_chat_in_hand=1)
    table = table_of(d)
    hand = d.tables[table].hand.hand_id
    refused = lobby.ask("ana", "tournament_chat", tournament="sng", table=table, text="bo, fold this")
    assert (refused["error"]["code"], refused["error"]["rule"]) == ("chat_in_hand", "HR-CHAT-4")
    assert lines(lobby, "bo") == []
    (line,) = kept(lobby, player="ana")
    assert (line.hand_id, line.blocked) == (hand, True)
    flagged = lobby.room.store.audit_log.audit_records("chat_in_hand")
    assert [(r.data["player"], r.data["table"], r.data["tournament"], r.data["hand_id"], r.data["blocked"])
            for r in flagged] == [("ana", table, "sng", hand, True)]
    while d.tables[table].in_hand:                          # the timers play the hand out
        lobby.clock.advance(10)
    between = lobby.ask("ana", "tournament_chat", tournament="sng", table=table, text="gg")
    assert between["ok"], between                           # open again between hands
    assert [x["text"] for x in lines(lobby, "bo")] == ["gg"]


def test_HR_CHAT_4_a_line_in_ones_own_hand_is_flagged_but_shown_where_the_event_leaves_chat_open(store):
    lobby, d = started(store)
    table = table_of(d)
    hand = d.tables[table].hand.hand_id
    assert lobby.ask("ana", "tournament_chat", tournament="sng", table=table, text="what a flop")["ok"]
    assert [x["text"] for x in lines(lobby, "cy")] == ["what a flop"]
    lobby.room.recorder.flushed()
    flagged = lobby.room.store.audit_log.audit_records("chat_in_hand")
    assert [(r.data["player"], r.data["hand_id"], r.data["blocked"]) for r in flagged] == [("ana", hand, False)]
    while d.tables[table].in_hand:                          # the timers play the hand out: it is stored
        lobby.clock.advance(10)
    lobby.room.recorder.flushed()
    facts = [unpack_facts(f) for f in lobby.room.store.security.iter_hand_facts()]
    assert [(f.hand_id, set(f.chatted)) for f in facts] == [(hand, {"ana"})]     # for the collusion signals


def test_HR_CHAT_4_at_a_hand_another_process_plays_the_hall_reads_the_hand_and_keeps_and_shows_the_line(store):
    lobby = AwayLobby(store)
    d = lobby.started(block_chat_in_hand=1)
    lobby.clock.advance(1)                                  # the first hand goes away
    table = table_of(d)
    (hand,) = lobby.host.hands.values()
    hand_id = hand.play.hand.hand_id
    assert d.tables[table].away is not None and d.tables[table].play is None
    refused = lobby.ask("ana", "tournament_chat", tournament="sng", table=table, text="call me")
    assert refused["error"]["code"] == "chat_in_hand"
    (line,) = kept(lobby, player="ana")
    assert (line.table_id, line.hand_id, line.blocked) == (table, hand_id, True)
    lobby.host.stop()                                       # the process playing the hand is not asked: chat goes on
    lobby.person("pat")
    assert lobby.ask("pat", "tournament_chat", tournament="sng", table=table, text="hi")["error"]["code"] == (
        "not_at_table")
    lobby.live.discard("n2")
    lobby.clock.advance(1)                                  # its hand is void: between hands, chat is open
    assert d.tables[table].away is None
    assert lobby.ask("bo", "tournament_chat", tournament="sng", table=table, text="that hand is void")["ok"]
    assert [x["text"] for x in lines(lobby, "cy")] == ["that hand is void"]


def test_HR_CHAT_1_a_line_is_heard_at_its_own_tournament_table_and_by_nobody_at_another(store):
    lobby = Lobby(store)
    lobby.person("boss", role="director")
    created = lobby.ask("boss", "director_create", template="sit_and_go", id="sng", name="SNG", start_in=None,
                        settings={"min_players": 4, "max_players": 4, "table_size": 2})
    assert created["ok"], created
    for name in ("ana", "bo", "cy", "di"):
        lobby.person(name)
        assert lobby.ask(name, "tournament_register", tournament="sng")["ok"]
    lobby.person("pat")
    assert lobby.ask("pat", "tournament_subscribe", tournament="sng", on=True)["ok"]
    d = lobby.hall.directors["sng"]
    lobby.clock.advance(1)
    assert len(d.tables) == 2
    mine = d.table_of("ana")
    here = set(mine.seats.values())
    elsewhere = {"ana", "bo", "cy", "di"} - here
    assert lobby.ask("ana", "tournament_chat", tournament="sng", table=mine.id, text="table talk")["ok"]
    for name in here:
        assert [x["text"] for x in lines(lobby, name)] == ["table talk"]
    for name in (*elsewhere, "pat", "boss"):                # the other table, a follower, the director: nothing
        assert lines(lobby, name) == []
    other = next(t for t in d.tables if t != mine.id)
    refused = lobby.ask("ana", "tournament_chat", tournament="sng", table=other, text="hello over there")
    assert refused["error"]["code"] == "not_at_table"
