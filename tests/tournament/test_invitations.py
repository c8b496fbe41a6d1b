"""Directors' invitations (STAFF-2): bounded so a director cannot flood anyone, never re-sent after a decline,
withdrawn when the event stops taking entries or its price changes -- and only the player's acceptance pays."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokerroom.errors import RuleViolation
from pokerroom.money.ledger import cash
from tests.support.hall_lobby import Lobby
from tournament import director as td
from tournament.invitations import Invitation, InvitationBook


def invitation(tournament: str, player: str) -> Invitation:
    return Invitation(tournament, player, "boss", "a promotion", 0.0, 500)


OPS = st.lists(st.tuples(st.sampled_from(["invite", "accept", "decline", "withdraw"]),
                         st.sampled_from(["e1", "e2", "e3"]), st.sampled_from(["ana", "bob", "cyd", "dan"])),
               max_size=60)


@given(OPS)
def test_STAFF_2_open_invitations_stay_within_their_bounds_and_a_decline_is_final(ops):
    book = InvitationBook(per_event=3, per_player=2)
    declined: set[tuple[str, str]] = set()
    for op, tournament, player in ops:
        try:
            if op == "invite":
                book.add(invitation(tournament, player))
                assert (tournament, player) not in declined
            elif op == "withdraw":
                book.withdraw(tournament)
            else:
                book.answered(book.get(tournament, player), op == "accept")
                if op == "decline":
                    declined.add((tournament, player))
        except RuleViolation as refusal:
            assert refusal.rule_id == "STAFF-2"
        assert all(sum(t == e for t, _ in book.open) <= 3 for e in ("e1", "e2", "e3"))
        assert all(len(book.of(p)) <= 2 for p in ("ana", "bob", "cyd", "dan"))


def test_STAFF_2_a_second_invitation_and_one_over_the_caps_are_refused():
    book = InvitationBook(per_event=2, per_player=1)
    book.add(invitation("e1", "ana"))
    for refused, code in ((invitation("e1", "ana"), "already_invited"),
                          (invitation("e2", "ana"), "too_many_invitations")):
        with pytest.raises(RuleViolation) as caught:
            book.add(refused)
        assert caught.value.code == code
    book.add(invitation("e1", "bob"))
    with pytest.raises(RuleViolation, match="open invitations"):
        book.add(invitation("e1", "cyd"))


def test_STAFF_2_an_invitation_whose_price_was_edited_is_withdrawn_not_paid(store):
    lobby = Lobby(store)
    lobby.create()
    lobby.person("bob")
    assert lobby.ask("boss", "director_add_player", tournament="sng", player="bob", reason="a promotion")["invited"]
    assert lobby.ask("boss", "director_edit", tournament="sng", settings={"buy_in": 50_000})["ok"]
    outdated = lobby.ask("bob", "tournament_invitation_answer", tournament="sng", accept=True)
    assert outdated["error"]["code"] == "invitation_outdated" and outdated["error"]["rule"] == "STAFF-2"
    assert lobby.room.wallet.books.balance(cash("bob")) == 100_000 and "bob" not in lobby.hall.directors["sng"].entries
    assert lobby.ask("bob", "tournament_invitations")["invitations"] == []
    again = lobby.ask("boss", "director_add_player", tournament="sng", player="bob", reason="at the new price")
    assert again["invited"]                                          # sent again, with what it costs now


def test_STAFF_2_an_event_that_starts_withdraws_its_invitations(store):
    lobby = Lobby(store)
    lobby.create()                                                   # a sit & go of three: it starts when full
    lobby.person("dan")
    assert lobby.ask("boss", "director_add_player", tournament="sng", player="dan", reason="a promotion")["invited"]
    for name in ("ana", "bo", "cy"):
        lobby.person(name)
        assert lobby.ask(name, "tournament_register", tournament="sng")["ok"]
    assert lobby.hall.directors["sng"].state == td.RUNNING
    withdrawn = [m for m in lobby.people["dan"][1].sent if m.get("type") == "tournament_invitation_withdrawn"]
    assert [m["tournament"] for m in withdrawn] == ["sng"]
    late = lobby.ask("dan", "tournament_invitation_answer", tournament="sng", accept=True)
    assert late["error"]["code"] == "no_invitation" and lobby.room.wallet.books.balance(cash("dan")) == 100_000


def test_STAFF_2_a_player_who_registers_on_their_own_pays_once_and_has_nothing_left_to_answer(store):
    lobby = Lobby(store)
    lobby.create()
    lobby.person("eve")
    assert lobby.ask("boss", "director_add_player", tournament="sng", player="EVE", reason="a promotion")["invited"]
    paid = lobby.ask("eve", "tournament_register", tournament="sng")
    assert paid["ok"] and lobby.ask("eve", "tournament_invitations")["invitations"] == []
    again = lobby.ask("eve", "tournament_invitation_answer", tournament="sng", accept=True)
    assert again["error"]["code"] == "no_invitation" and lobby.room.wallet.books.balance(cash("eve")) == paid["balance"]


def test_STAFF_1_no_invitation_into_an_event_awaiting_its_guarantees_approval(store):
    lobby = Lobby(store)
    lobby.create(guarantee=lobby.hall.bounds.approval_above + 1)
    lobby.person("bob")
    refused = lobby.ask("boss", "director_add_player", tournament="sng", player="bob", reason="a promotion")
    assert refused["error"]["code"] == "awaiting_approval" and refused["error"]["rule"] == "STAFF-1"
    assert "approve" in refused["error"]["message"]
    assert lobby.ask("bob", "tournament_invitations")["invitations"] == []
    assert not [m for m in lobby.people["bob"][1].sent if m.get("type") == "tournament_invitation"]


@pytest.mark.parametrize("reason", ["join at evil . com", "free chips: www.example.org", "you f.u.c.k"])
def test_STAFF_2_an_invitations_reason_passes_the_chat_filter_before_it_reaches_the_player(store, reason):
    lobby = Lobby(store)
    lobby.create()
    lobby.person("bob")
    refused = lobby.ask("boss", "director_add_player", tournament="sng", player="bob", reason=reason)
    assert refused["error"]["code"] == "chat_blocked" and refused["error"]["rule"] == "HR-CHAT-2"
    assert refused["error"]["message"]
    assert not [m for m in lobby.people["bob"][1].sent if m.get("type") == "tournament_invitation"]
    assert lobby.ask("boss", "director_add_player", tournament="sng", player="bob", reason="our promotion")["invited"]
