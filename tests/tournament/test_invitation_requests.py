"""The invitations across the process line (STAFF-2), on the strict bus: a director's ``director_add_player`` and a
player's answer are checked by the requests (a gateway process) and reach the hall only as records on
``tournament.<id>.command``; a player's list is ``tournaments.invitations``; the hall learns who is connected from
the session events, never from the gateway's sessions."""

from __future__ import annotations

from twisted.internet.defer import Deferred

from pokerroom.bus.records import LOGGED_IN, AnswerInvitation, InvitationsRead, Invite
from pokerroom.bus.strict import StrictBus
from pokerroom.bus.subjects import TOURNAMENTS_INVITATIONS, tournament_command
from pokerroom.errors import RuleViolation
from pokerroom.money.ledger import cash
from pokerroom.protocol.schema import parse_request
from tests.support.clocked_room import Connection, settle
from tests.support.hall_lobby import Lobby, asked


def requests_of(lobby: Lobby, monkeypatch) -> list:   # noqa: ANN001
    """Every request the room asks on its bus from now on, as (subject, payload) after the strict bus's round trip."""
    bus = lobby.room.bus
    assert isinstance(bus, StrictBus)
    seen: list = []
    request, gather = bus.request, bus.gather

    def spied(subject: str, payload: object) -> Deferred:
        seen.append((subject, payload))
        return request(subject, payload)

    def gathered(subject: str, payload: object, expected: int, **waits: object) -> Deferred:   # every node answers
        seen.append((subject, payload))
        return gather(subject, payload, expected, **waits)

    monkeypatch.setattr(bus, "request", spied)
    monkeypatch.setattr(bus, "gather", gathered)
    return seen


def invitations_shown(connection: Connection) -> list[dict]:
    return [m["invitation"] for m in connection.sent if m.get("type") == "tournament_invitation"]


def test_STAFF_2_a_directors_invitation_is_an_invite_record_on_the_events_command_subject_answered_later(
        store, monkeypatch):
    lobby = Lobby(store)
    lobby.create()
    lobby.person("bob")
    seen = requests_of(lobby, monkeypatch)
    boss = lobby.people["boss"][0]
    answer = lobby.room.gateway.handle(boss, parse_request({"type": "director_add_player", "rid": 1,
                                                            "tournament": "sng", "player": "BOB", "reason": "promo"}))
    out: list = []
    answer.addBoth(out.append)
    assert out == []                                    # the hall answers on a later turn
    settle(lobby.room)
    assert out[0]["ok"] and out[0]["invited"] and out[0]["player"] == "bob"
    assert (tournament_command("sng"), Invite("bob", "boss", "promo")) in seen   # the account's own name
    assert [i["tournament"] for i in invitations_shown(lobby.people["bob"][1])] == ["sng"]   # on bob's stream
    activity = lobby.ask("boss", "director_activity", tournament="sng")["records"]
    assert activity[0]["command"] == "invite player" and activity[0]["details"]["player"] == "bob"
    listed = lobby.ask("bob", "tournament_invitations")["invitations"]
    assert [i["tournament"] for i in listed] == ["sng"]
    assert (TOURNAMENTS_INVITATIONS, InvitationsRead("bob")) in seen


def test_STAFF_2_a_players_answer_is_an_answer_record_and_the_hall_pays_the_entry(store, monkeypatch):
    lobby = Lobby(store)
    lobby.create()
    lobby.person("bob")
    assert lobby.ask("boss", "director_add_player", tournament="sng", player="bob", reason="promo")["invited"]
    seen = requests_of(lobby, monkeypatch)
    accepted = lobby.ask("bob", "tournament_invitation_answer", tournament="sng", accept=True)
    assert accepted["ok"] and accepted["registered"] and accepted["balance"] == 100_000 - 500
    assert (tournament_command("sng"), AnswerInvitation("bob", True)) in seen
    assert "bob" in lobby.hall.directors["sng"].entries
    told = [m for m in lobby.people["boss"][1].sent if m.get("type") == "tournament_invitation_answered"]
    assert told and told[0]["answer"] == "accepted"


def test_STAFF_2_a_forged_answer_for_an_invitation_nobody_made_moves_nothing(store):
    lobby = Lobby(store)
    lobby.create()
    lobby.person("bob")
    refusal = asked(lobby, tournament_command("sng"), AnswerInvitation("bob", True))   # bob was never invited
    assert isinstance(refusal, RuleViolation) and refusal.code == "no_invitation" and refusal.rule_id == "STAFF-2"
    assert lobby.room.wallet.books.balance(cash("bob")) == 100_000
    assert "bob" not in lobby.hall.directors["sng"].entries


def test_STAFF_2_a_forged_invite_into_a_paid_event_only_invites_and_moves_nothing(store):
    lobby = Lobby(store)
    lobby.create()
    lobby.person("bob")
    answer = asked(lobby, tournament_command("sng"), Invite("bob", "mallory", "free money"))   # no director's request
    assert answer == {"player": "bob", "entered": False, "invited": True, "entry_cost": 500}
    assert lobby.room.wallet.books.balance(cash("bob")) == 100_000           # nothing is taken until bob accepts
    assert "bob" not in lobby.hall.directors["sng"].entries


def test_STAFF_2_a_frozen_player_is_refused_by_the_request_before_the_hall_is_asked(store, monkeypatch):
    lobby = Lobby(store)
    lobby.create()
    lobby.person("bob")
    assert lobby.ask("boss", "director_add_player", tournament="sng", player="bob", reason="promo")["invited"]
    lobby.room.moderation.freeze("bob")
    seen = requests_of(lobby, monkeypatch)
    refused = lobby.ask("bob", "tournament_invitation_answer", tournament="sng", accept=True)
    assert refused["error"]["code"] == "account_frozen"
    assert seen == []


def test_STAFF_2_a_players_list_is_asked_of_the_hall(store):
    lobby = Lobby(store)
    lobby.person("bob")
    assert asked(lobby, TOURNAMENTS_INVITATIONS, InvitationsRead("bob")) == {"invitations": []}


def test_HR_DC_4_the_hall_learns_who_is_connected_from_the_session_events_on_a_later_turn(store):
    lobby = Lobby(store)
    session = lobby.person("ana")
    assert lobby.hall.feed.online("ana")
    lobby.room.gateway.disconnected(session)                # the connection closes: a SessionGone, current
    assert lobby.hall.feed.online("ana")                    # not yet: the record arrives on a later turn
    settle(lobby.room)
    assert not lobby.hall.feed.online("ana")
    back = lobby.room.gateway.connected(Connection(), "10.0.0.1")
    lobby.room.gateway.identify(back, "ana")
    lobby.room.gateway.returned(back, LOGGED_IN)
    settle(lobby.room)
    assert lobby.hall.feed.online("ana")


def test_STAFF_2_an_offline_players_invitation_is_shown_when_they_log_in(store):
    lobby = Lobby(store)
    lobby.create()
    session = lobby.person("bob")
    lobby.room.gateway.disconnected(session)
    settle(lobby.room)
    assert lobby.ask("boss", "director_add_player", tournament="sng", player="bob", reason="promo")["invited"]
    connection = Connection()
    back = lobby.room.gateway.connected(connection, "10.0.0.1")
    lobby.room.gateway.identify(back, "bob")
    lobby.room.gateway.returned(back, LOGGED_IN)             # the hall hears it on session.events
    settle(lobby.room)
    assert [i["tournament"] for i in invitations_shown(connection)] == ["sng"]
