"""A tournament whose hands a table process plays, on a Clock: the hall sends each hand away, forwards the
players' actions, takes the result back, and voids a hand whose process died (TR-PLAY-4, TR-REFUND-1, HR-DC-2)."""

from __future__ import annotations

from twisted.internet import defer

from pokerroom.bus.records import RESUMED
from tests.support.hall_lobby import AwayLobby
from tournament import director as td
from tournament.events import HandDealt, HandReturned, HandSent, HandVoided

PLAYERS = AwayLobby.PLAYERS


def played_out(lobby: AwayLobby, d: td.Director, limit: int = 5_000) -> None:
    """Everyone checks or calls, acting on what their own frames say, until the event ends (the blinds rise
    every second)."""
    for _ in range(limit):
        if d.state != td.RUNNING:
            return
        turn = lobby.turn()
        if turn is None:
            lobby.clock.advance(1)
            continue
        name, legal = turn
        action = {"action": "check"} if legal["can_check"] else {"action": "call"}
        answer = lobby.ask(name, "tournament_act", tournament="sng", decision=legal["decision"], **action)
        assert answer["ok"], answer
        assert all(t.play is None for t in d.tables.values())       # the director never plays a hand itself


def seen_holes(lobby: AwayLobby) -> list[str]:
    """Each hole card a player was sent of a seat not theirs (SEC-2): none."""
    found = []
    for name in PLAYERS:
        for frame in lobby.frames(name):
            for event in frame.get("events", ()):
                if event["type"] == "hole_cards_dealt" and event["cards"] and event["seat"] != frame.get("seat"):
                    found.append(f"{name} saw seat {event['seat']}'s cards")
    return found


def test_TR_PLAY_4_a_sit_and_go_whose_hands_a_table_process_plays_runs_to_the_end_with_every_chip(store):
    lobby = AwayLobby(store)
    d = lobby.started(level_seconds=1)
    chips = 3 * d.spec.starting_stack
    played_out(lobby, d)
    assert d.state == td.FINISHED
    sent, returned = lobby.of(HandSent), lobby.of(HandReturned)
    assert len(sent) > 1 and [e.hand_id for e in returned] == [e.hand_id for e in sent]
    assert not lobby.of(HandDealt)                                  # no hand was dealt beside the director
    assert sum(returned[-1].end.values()) == chips                 # the last hand's players hold every chip
    assert {r.hand_id for r in store.hands.hands_of("ana", 1_000)} >= {e.hand_id for e in returned
                                                                         if "ana" in e.end}   # stored where played
    assert seen_holes(lobby) == []
    assert lobby.host.hands == {} and lobby.host.by_player == {}       # hands and players forgotten once over


def test_TR_REFUND_1_a_hand_whose_process_died_is_void_every_stack_as_it_began_and_play_goes_on(store):
    lobby = AwayLobby(store)
    d = lobby.started()
    lobby.clock.advance(1)                                          # the first hand goes away
    (table,) = d.tables.values()
    (hand,) = lobby.host.hands.values()
    began = {s.player_id: s.stack for s in table.away.seats}
    name, legal = lobby.turn()
    assert lobby.ask(name, "tournament_act", tournament="sng", decision=legal["decision"], action="call")["ok"]
    lobby.host.stop()                                               # its process dies mid-hand ...
    unreached = lobby.ask(name, "tournament_act", tournament="sng", decision=legal["decision"], action="fold")
    assert (unreached["error"]["code"], unreached["error"]["rule"]) == ("hand_unreachable", "TR-REFUND-1")
    lobby.live.discard("n2")                                        # ... and its node lease runs out
    lobby.clock.advance(1)
    (voided,) = lobby.of(HandVoided)
    assert voided.hand_id == hand.play.hand.hand_id and voided.stacks == began
    assert table.away is None and dict(table.stacks) == began       # every stack as the hand began
    assert [e["hand_id"] for e in lobby.pushes(name, "hand_voided")] == [voided.hand_id]   # its players are told
    for _ in range(5):                  # nobody takes the next hand (void: nothing of it was dealt), then dealt here
        lobby.clock.advance(1)
    assert lobby.of(HandDealt) and not lobby.host.hands
    refused = lobby.ask(name, "tournament_act", tournament="sng", decision=legal["decision"], action="call")
    assert not refused["ok"]


def test_HR_DC_2_a_player_back_gets_the_hand_played_away_so_far_with_their_legal_and_acts_on_it(store):
    lobby = AwayLobby(store)
    d = lobby.started()
    lobby.clock.advance(1)
    name, _ = lobby.turn()
    session, connection = lobby.people[name]
    connection.sent.clear()
    lobby.room.gateway.returned(session, RESUMED)                  # back on a new connection
    (frame,) = lobby.frames(name)
    assert frame["seat"] == d.table_of(name).seat_of(name) and frame["to_act"]["player"] == name
    dealt = [e for e in frame["events"] if e["type"] == "hole_cards_dealt"]
    assert all(bool(e["cards"]) == (e["seat"] == frame["seat"]) for e in dealt)   # own cards only
    answer = lobby.ask(name, "tournament_act", tournament="sng", decision=frame["legal"]["decision"],
                       action="check" if frame["legal"]["can_check"] else "call")
    assert answer["ok"], answer
    stale = lobby.ask(name, "tournament_act", tournament="sng", decision=frame["legal"]["decision"], action="fold")
    assert stale["error"]["code"] in ("stale_decision", "not_your_turn")     # BET-1: acted once


def test_HR_DC_2_a_player_gone_is_away_only_at_their_own_hand_played_away_and_back_is_not(store):
    """The hand host looks a player up among the hands they are dealt into: gone, away there (and nobody else
    is); back, present again; its hands forgotten, the host keeps nothing of anyone."""
    lobby = AwayLobby(store)
    lobby.started()
    lobby.clock.advance(1)
    (hand,) = lobby.host.hands.values()
    name = hand.play.seats[min(hand.play.seats)]
    session, _ = lobby.people[name]
    lobby.room.gateway.disconnected(session)
    lobby.clock.advance(0)                                          # the bus delivers in the next turn
    assert hand.away == {name}
    lobby.room.gateway.returned(session, RESUMED)                   # (the hand so far: the test above)
    lobby.clock.advance(0)
    assert hand.away == set()
    assert set(lobby.host.by_player) == set(hand.play.seats.values())
    lobby.host.stop()                                               # every hand here forgotten
    assert lobby.host.hands == {} and lobby.host.by_player == {}


def test_HR_DC_3_a_player_at_a_hand_played_away_who_does_not_act_spends_their_bank_then_is_checked_or_folded(store):
    lobby = AwayLobby(store)
    lobby.started(time_bank=20)
    lobby.clock.advance(1)
    (hand,) = lobby.host.hands.values()
    name, _ = lobby.turn()
    lobby.clock.advance(10)                                         # the decision's own 10 s
    assert hand.play.to_act()[0] == name
    assert lobby.pushes(name, "time_bank_started")[-1]["seconds"] == 20
    lobby.clock.advance(20)                                         # the bank too: folded or checked
    assert hand.play.ended or hand.play.to_act()[0] != name
    assert hand.banks[name] == 0


def test_BET_1_a_hand_played_away_refuses_an_action_out_of_turn_and_changes_nothing(store):
    lobby = AwayLobby(store)
    lobby.started()
    lobby.clock.advance(1)
    (hand,) = lobby.host.hands.values()
    name, legal = lobby.turn()
    other = next(p for p in PLAYERS if p != name)
    before = len(hand.play.hand.events)
    refused = lobby.ask(other, "tournament_act", tournament="sng", decision=legal["decision"], action="fold")
    assert refused["error"]["code"] == "stale_decision" and refused["error"]["rule"] == "BET-1"   # not theirs
    assert len(hand.play.hand.events) == before


def test_TR_REFUND_1_the_live_nodes_are_read_afresh_at_each_look_and_the_hand_is_void_once_a_read_misses_its_process(
        store):
    """A read of the live nodes (the leases, on a room of several processes) answers later; one at a time; a failed
    read voids nothing; the hand is void as soon as a read no longer counts its process."""
    lobby = AwayLobby(store)
    reads: list[defer.Deferred] = []
    lobby.hall.away.live_nodes = lambda: (reads.append(defer.Deferred()), reads[-1])[1]
    d = lobby.started()
    lobby.clock.advance(1)                                          # the first hand goes away
    (table,) = d.tables.values()
    began = {s.player_id: s.stack for s in table.away.seats}
    lobby.host.stop()                                               # its process dies mid-hand
    lobby.clock.advance(1)
    lobby.clock.advance(5)
    assert len(reads) == 1                                          # no second read while the first is on its way
    reads[0].callback({"n1", "n2"})                                 # its lease not yet run out: nothing void
    assert table.away is not None and not lobby.of(HandVoided)
    lobby.clock.advance(1)
    reads[1].errback(RuntimeError("the leases could not be read"))  # a failed read voids nothing, and looks again
    assert table.away is not None and not lobby.of(HandVoided)
    lobby.clock.advance(1)
    reads[2].callback({"n1"})                                       # n2's lease is gone
    (voided,) = lobby.of(HandVoided)
    assert voided.stacks == began and table.away is None and dict(table.stacks) == began
