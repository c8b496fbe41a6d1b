"""The tournament hall on a Clock: the level clock, decisions and time banks, deals' time limit, director
commands with their role check and audit, staking over the protocol (TR-PLAY-1/2, HR-DC-3, TR-DEAL-1, TR-STAKE-1)."""

from __future__ import annotations

from twisted.internet.defer import Deferred

from pokerroom.money.ledger import cash
from tests.support.hall_lobby import Lobby, between_hands_in_the_money, started
from tournament import director as td


def test_TR_PLAY_1_the_level_clock_runs_on_the_reactor_and_stops_while_paused(store):
    lobby = Lobby(store)
    lobby.create()
    for name in ("ana", "bo", "cy"):
        lobby.person(name)
        assert lobby.ask(name, "tournament_register", tournament="sng")["ok"]
    d = lobby.hall.directors["sng"]
    assert d.state == td.RUNNING and d.clock.level == 1                    # a sit & go starts when full
    lobby.clock.advance(200)
    assert lobby.ask("boss", "director_pause", tournament="sng", reason="a dispute")["ok"]
    lobby.clock.advance(1000)                                        # paused: the clock does not run
    assert d.clock.level == 1
    assert lobby.ask("boss", "director_resume", tournament="sng")["ok"]
    lobby.clock.advance(99)
    assert d.clock.level == 1
    lobby.clock.advance(2)                                           # 300 s of play in all
    assert d.clock.level == 2 and lobby.pushes("ana", "level_started")[-1]["level"] == 2


def test_HR_DC_3_an_absent_player_uses_their_time_bank_then_is_checked_or_folded(store):
    lobby = Lobby(store)
    lobby.create(time_bank=20)
    for name in ("ana", "bo", "cy"):
        lobby.person(name)
        lobby.ask(name, "tournament_register", tournament="sng")
    d = lobby.hall.directors["sng"]
    lobby.clock.advance(1)                                           # the first hand is dealt
    (table,) = d.tables.values()
    player, _ = table.to_act()
    lobby.clock.advance(10)                                          # the decision's 10 s: the bank starts
    assert table.to_act()[0] == player
    assert lobby.pushes(player, "time_bank_started")[-1]["seconds"] == 20
    lobby.clock.advance(20)                                          # the bank runs out too
    assert table.hand is None or table.to_act() is None or table.to_act()[0] != player
    assert lobby.hall.decisions.bank("sng", player) == 0


def test_TR_DEAL_1_a_deal_not_accepted_in_time_lapses_and_play_resumes(store):
    lobby, d = between_hands_in_the_money(store, deal_seconds=60)
    assert lobby.ask("ana", "deal_propose", tournament="sng", kind="chip_chop")["ok"]
    assert lobby.pushes("bo", "deal_offered")
    lobby.clock.advance(59)
    assert d.deal_desk.pending_deal is not None
    lobby.clock.advance(2)
    assert d.deal_desk.pending_deal is None and lobby.pushes("cy", "deal_failed")[-1]["reason"] == "time ran out"


def test_director_commands_need_the_role_and_are_recorded_with_who_and_why(store):
    lobby = Lobby(store)
    lobby.person("ana")
    refused = lobby.ask("ana", "director_create", template="sit_and_go", id="x", name="X", start_in=None)
    assert not refused["ok"] and refused["error"]["code"] == "forbidden"
    lobby.create()
    assert lobby.ask("boss", "director_edit", tournament="sng", settings={"starting_stack": 3000})["ok"]
    assert lobby.hall.directors["sng"].spec.starting_stack == 3000
    lobby.person("bob")
    invited = lobby.ask("boss", "director_add_player", tournament="sng", player="bob", reason="a promotion")
    assert invited["ok"] and invited["invited"] and lobby.room.wallet.books.balance(cash("bob")) == 100_000
    assert lobby.ask("bob", "tournament_invitation_answer", tournament="sng", accept=True)["ok"]
    assert lobby.room.wallet.books.balance(cash("bob")) < 100_000
    assert lobby.ask("boss", "director_remove_player", tournament="sng", player="bob", reason="wrong event")["ok"]
    assert lobby.room.wallet.books.balance(cash("bob")) == 100_000
    edited = lobby.ask("boss", "director_edit", tournament="sng", settings={"no_such_field": 1})
    assert not edited["ok"] and edited["error"]["code"] == "unknown_field"       # a nested map's names, as a request's
    assert edited["error"]["message"] == "settings has no 'no_such_field': director_templates lists the settings"
    lobby.room.recorder.flushed()
    commands = [(r.data["command"], r.data["by"], r.data.get("reason"))
                for r in store.audit_log.audit_records("director_command")]
    assert ("invite player", "boss", "a promotion") in commands and ("remove player", "boss", "wrong event") in commands


def test_TR_STAKE_1_shares_are_offered_and_bought_over_the_protocol(store):
    lobby = Lobby(store)
    lobby.create(min_players=4, max_players=4)
    lobby.person("ana")
    lobby.person("backer")
    assert lobby.ask("ana", "tournament_register", tournament="sng")["ok"]
    assert lobby.ask("ana", "stake_offer", tournament="sng", percent=50, markup_percent=110)["ok"]
    bought = lobby.ask("backer", "stake_buy", tournament="sng", seller="ana", percent=30)
    assert bought["ok"] and bought["balance"] == 100_000 - 165           # 30% of 500 at 1.1
    too_much = lobby.ask("backer", "stake_buy", tournament="sng", seller="ana", percent=30)
    assert not too_much["ok"] and too_much["error"]["rule"] == "TR-STAKE-1"


def test_TR_PLAY_2_the_lobby_shows_the_time_to_the_next_break(store):
    lobby = Lobby(store)
    lobby.create(break_after_level=2, break_seconds=120)
    for name in ("ana", "bo", "cy"):
        lobby.person(name)
        lobby.ask(name, "tournament_register", tournament="sng")
    summary = lobby.ask("ana", "tournament_list")["tournaments"][0]
    assert summary["next_break_in"] == 600                               # two 300 s levels
    lobby.clock.advance(100)
    assert lobby.ask("ana", "tournament_details", tournament="sng")["tournament"]["next_break_in"] == 500


def test_bad_director_settings_are_refused_with_a_sentence_not_a_server_error(store):
    lobby = Lobby(store)
    lobby.create()
    for settings in ({"levels": 5}, {"id": 1}, {"payouts": 3}, {"table_size": 40}):
        answer = lobby.ask("boss", "director_edit", tournament="sng", settings=settings)
        assert not answer["ok"] and answer["error"]["code"] == "bad_structure" and answer["error"]["message"]
    answer = lobby.ask("boss", "director_create", template="daily", id="d2", name="D2", start_in=None,
                       settings={"id": 1})
    assert not answer["ok"] and answer["error"]["code"] == "bad_structure"


def test_TR_DEAL_1_the_level_clock_stops_while_a_deal_is_on_the_table(store):
    lobby, d = between_hands_in_the_money(store, deal_seconds=600)
    level = d.clock.level
    assert lobby.ask("ana", "deal_propose", tournament="sng", kind="icm")["ok"]
    lobby.clock.advance(590)                                          # past the level's end: no level up
    assert d.clock.level == level and d.deal_desk.pending_deal is not None
    lobby.ask("bo", "deal_answer", tournament="sng", accept=False)
    assert d.deal_desk.pending_deal is None
    lobby.clock.advance(400)
    assert d.clock.level == level + 1                                       # the clock ran on after the deal failed


def test_TR_REFUND_3_a_bust_and_its_place_are_shown_only_once_the_step_that_made_them_is_stored(store):
    """Durable before visible: a player's own events (a bust, a place and its prize) wait behind the
    tournament's hold like the field's, so a crash before the step's commit never takes back a bust they saw."""
    lobby, d = started(store)
    stored = Deferred()
    lobby.hall.feed.hold("sng").until(stored)               # the step's write, not committed yet
    lobby.hall.feed.publish("sng", lobby.hall.runner("sng").audiences(
        [td.Busted("cy", next(iter(d.tables)), False), td.Eliminated(("cy",), (3,), 0)]))
    assert lobby.pushes("cy", "busted") == [] and lobby.pushes("cy", "eliminated") == []
    stored.callback(None)
    assert [e["player"] for e in lobby.pushes("cy", "busted")] == ["cy"]
    assert [e["places"] for e in lobby.pushes("cy", "eliminated")] == [[3]]
