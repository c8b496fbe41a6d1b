"""The admin lobby's tournament requests on a Clock: templates and the payout preview, the settings that stand
for more (level length, PKO share, game, satellite target), balancing now, the director's approval of a deal,
broadcasts and the activity log (TR-PLAY-1, TR-PLAY-4, TR-PLAY-6, TR-DEAL-1, TR-PRIZE-5)."""

from __future__ import annotations

from fractions import Fraction

from pokerroom.money.accounts import cash
from tests.support.clocked_room import resolved
from tests.support.hall_lobby import Lobby, between_hands_in_the_money
from tournament import director as td
from tournament.structure import STRUCTURES

answer = resolved                 # the answer, whether the room gave it at once or as a Deferred (the store's reads)


def full_sit_and_go(store, **settings) -> Lobby:                  # noqa: ANN001
    """A three-player sit & go made by "boss" and filled by ana, bob and cyd: it has started."""
    lobby = Lobby(store)
    lobby.create(**settings)
    for name in ("ana", "bob", "cyd"):
        lobby.person(name)
        assert lobby.ask(name, "tournament_register", tournament="sng")["ok"]
    return lobby


def test_templates_describe_every_structure_with_the_games_and_settings_a_director_may_use(store):
    lobby = Lobby(store)
    lobby.person("boss", role="director")
    lobby.person("ana")
    refused = lobby.ask("ana", "director_templates")
    assert not refused["ok"] and refused["error"]["code"] == "forbidden"
    got = lobby.ask("boss", "director_templates")
    assert got["ok"]
    names = {t["template"] for t in got["templates"]}
    assert names == {p.stem for p in STRUCTURES.glob("*.toml")}
    daily = next(t for t in got["templates"] if t["template"] == "daily")
    assert daily["name"] != "daily"                                 # the template's own name, as in the file
    assert daily["levels"][0]["big_blind"] > daily["levels"][0]["small_blind"] and daily["pko_percent"] == 100
    assert "NLHE" in got["games"] and {"level_seconds", "pko_percent", "buy_in", "guarantee"} <= set(got["settings"])


def test_TR_PRIZE_1_the_payout_preview_is_what_that_many_entrants_are_then_paid(store):
    lobby = Lobby(store)
    lobby.person("boss", role="director")
    preview = lobby.ask("boss", "director_preview", template="sit_and_go", entrants=3,
                        settings={"min_players": 3, "max_players": 3, "buy_in": 500})
    assert preview["ok"] and preview["prize_pool"] == 3 * 500
    assert sum(preview["payouts"]) + preview["remainder"] == 1500                  # TR-PRIZE-3
    assert preview["payouts"] == sorted(preview["payouts"], reverse=True)
    lobby.create(buy_in=500)
    for name in ("ana", "bo", "cy"):
        lobby.person(name)
        assert lobby.ask(name, "tournament_register", tournament="sng")["ok"]
    assert list(lobby.hall.directors["sng"].eliminations.provisional_prizes()) == preview["payouts"]
    bad = lobby.ask("boss", "director_preview", template="sit_and_go", entrants=10, settings={"table_size": 40})
    assert not bad["ok"] and bad["error"]["code"] == "bad_structure" and bad["error"]["rule"] == "TR-PLAY-1"


def test_TR_PLAY_1_a_level_length_game_and_knockout_share_are_set_when_creating(store):
    lobby = Lobby(store)
    lobby.person("boss", role="director")
    made = lobby.ask("boss", "director_create", template="knockout", id="pko", name="PKO", start_in=600,
                     game="PLO", settings={"level_seconds": 90, "pko_percent": 50, "deals": 1})
    assert made["ok"], made
    spec = lobby.hall.directors["pko"].spec
    assert {level.seconds for level in spec.levels} == {90} and spec.game == "PLO"
    assert spec.progressive_share == Fraction(1, 2) and spec.deals is True
    too_much = lobby.ask("boss", "director_edit", tournament="pko", settings={"pko_percent": 101})
    assert not too_much["ok"] and too_much["error"]["rule"] == "TR-PLAY-6"
    assert lobby.ask("boss", "director_edit", tournament="pko", settings={"level_seconds": 30})["ok"]
    assert {level.seconds for level in lobby.hall.directors["pko"].spec.levels} == {30}


def test_TR_PRIZE_5_a_satellite_names_its_target_and_its_seats_are_worth_the_targets_entry(store):
    lobby = Lobby(store)
    lobby.person("boss", role="director")
    assert lobby.ask("boss", "director_create", template="daily", id="main", name="Main", start_in=3600)["ok"]
    made = lobby.ask("boss", "director_create", template="sit_and_go", id="sat", name="Sat", start_in=None,
                     satellite_target="main")
    assert made["ok"], made
    main, sat = lobby.hall.directors["main"].spec, lobby.hall.directors["sat"].spec
    assert sat.satellite_target == "main" and sat.satellite_seat_value == main.entry_cost
    missing = lobby.ask("boss", "director_create", template="sit_and_go", id="sat2", name="Sat2", start_in=None,
                        satellite_target="nowhere")
    assert not missing["ok"] and missing["error"]["code"] == "unknown_tournament"


def test_TR_PLAY_4_balance_now_evens_the_tables_a_move_left_uneven(store):
    lobby = Lobby(store)
    lobby.create(min_players=6, max_players=6, table_size=4)
    for name in ("ana", "bob", "cyd", "dia", "eda", "fay"):
        lobby.person(name)
        assert lobby.ask(name, "tournament_register", tournament="sng")["ok"]
    d = lobby.hall.directors["sng"]
    first, second = d.tables.values()
    assert len(first.seats) == len(second.seats) == 3
    mover = next(iter(first.seats.values()))
    assert lobby.ask("boss", "director_move_player", tournament="sng", player=mover, table=second.id,
                     reason="a seat by the window")["ok"]
    assert sorted(len(t.seats) for t in d.tables.values()) == [2, 4]
    assert lobby.ask("boss", "director_balance", tournament="sng", reason="tables uneven")["ok"]
    assert sorted(len(t.seats) for t in d.tables.values()) == [3, 3]
    names = ("ana", "bob", "cyd", "dia", "eda", "fay")
    balanced = [p for p in names if lobby.pushes(p, "seated")[-1]["reason"] == "balance"]
    assert len(balanced) == 1                              # the player moved is told, and only they
    lobby.person("zed")
    refused = lobby.ask("zed", "director_balance", tournament="sng", reason="because")
    assert not refused["ok"] and refused["error"]["code"] == "forbidden"


def test_TR_PLAY_4_a_move_asked_during_a_hand_is_answered_queued_and_made_when_the_hand_ends(store):
    lobby = Lobby(store)
    lobby.create(min_players=5, max_players=5, table_size=4)
    for name in ("ana", "bob", "cyd", "dia", "eda"):
        lobby.person(name)
        assert lobby.ask(name, "tournament_register", tournament="sng")["ok"]
    d = lobby.hall.directors["sng"]
    source, target = sorted(d.tables.values(), key=lambda t: -len(t.seats))         # 3 and 2
    lobby.clock.advance(1)                                                            # both deal their first hand
    assert source.in_hand
    mover = next(iter(source.seats.values()))
    answer = lobby.ask("boss", "director_move_player", tournament="sng", player=mover, table=target.id,
                       reason="a seat by the window")
    waits = d.balancing.waiting_for(mover)
    assert answer["ok"] and answer["queued"] == f"moves when the hand at table {waits} ends"
    assert d.entries[mover].table == source.id
    for _ in range(60):                                         # the timers play the hand out: everyone folds
        if not d.balancing.queued:
            break
        lobby.clock.advance(10)
    assert d.entries[mover].table == target.id
    assert lobby.pushes(mover, "seated")[-1]["reason"] == "director"
    (record,) = [r for r in lobby.ask("boss", "director_activity")["records"] if r["command"] == "move player"]
    assert record["details"]["queued"] == waits


def test_TR_DEAL_1_a_deal_every_player_accepted_waits_for_the_directors_approval(store):
    lobby, d = between_hands_in_the_money(store, director_approves_deals=1)
    lobby.person("boss", role="director")
    assert lobby.ask("ana", "deal_propose", tournament="sng", kind="chip_chop")["ok"]
    early = lobby.ask("boss", "director_deal", tournament="sng", decision="approve", reason="looks fair")
    assert not early["ok"] and early["error"]["code"] == "deal_not_agreed" and early["error"]["rule"] == "TR-DEAL-1"
    for name in ("ana", "bo", "cy"):
        assert lobby.ask(name, "deal_answer", tournament="sng", accept=True)["ok"]
    waiting = lobby.pushes("bo", "deal_awaiting_approval")
    assert waiting and d.deal_desk.pending_deal is not None and not lobby.pushes("bo", "deal_made")
    again = lobby.ask("bo", "deal_answer", tournament="sng", accept=True)
    assert not again["ok"] and again["error"]["code"] == "already_answered"
    level = d.clock.level
    lobby.clock.advance(10_000)                                      # no time limit while the director decides,
    assert d.deal_desk.pending_deal is not None and d.clock.level == level           # and the level clock stays held
    shown = lobby.ask("boss", "tournament_list")["tournaments"][0]["deal"]
    assert shown["awaiting_approval"] and shown["amounts"] == waiting[-1]["amounts"]
    assert shown["accepted"] == sorted(["ana", "bo", "cy"])
    before = {p: lobby.room.wallet.books.balance(cash(p)) for p in ("ana", "bo", "cy")}
    assert lobby.ask("boss", "director_deal", tournament="sng", decision="approve", reason="looks fair")["ok"]
    made = lobby.pushes("cy", "deal_made")[-1]
    assert made["amounts"] == waiting[-1]["amounts"] and d.state == td.FINISHED
    paid = {p: lobby.room.wallet.books.balance(cash(p)) - before[p] for p in before}
    assert paid == made["amounts"]


def test_TR_DEAL_1_a_director_cancels_a_deal_and_play_resumes(store):
    lobby, d = between_hands_in_the_money(store)
    lobby.person("boss", role="director")
    assert lobby.ask("ana", "deal_propose", tournament="sng", kind="icm")["ok"]
    assert lobby.ask("boss", "director_deal", tournament="sng", decision="cancel", reason="collusion suspected")["ok"]
    assert d.deal_desk.pending_deal is None
    assert lobby.pushes("ana", "deal_failed")[-1]["reason"] == "cancelled by boss: collusion suspected"
    again = lobby.ask("boss", "director_deal", tournament="sng", decision="cancel", reason="twice")
    assert not again["ok"] and again["error"]["code"] == "no_deal"
    lobby.clock.advance(2)
    assert any(t.hand is not None for t in d.tables.values())        # the next hand is dealt


def test_a_broadcast_reaches_entrants_and_watchers_and_every_command_is_in_the_activity_log(store):
    lobby = Lobby(store)
    lobby.create()
    lobby.person("ana")
    lobby.person("watcher")
    assert lobby.ask("ana", "tournament_register", tournament="sng")["ok"]
    assert lobby.ask("watcher", "tournament_subscribe", tournament="sng", on=True)["ok"]
    assert lobby.ask("boss", "director_broadcast", tournament="sng", text="Starting in five minutes")["ok"]
    for name in ("ana", "watcher"):
        assert lobby.pushes(name, "broadcast")[-1] == {"type": "broadcast", "text": "Starting in five minutes",
                                                       "by": "boss"}
    assert lobby.ask("boss", "director_pause", tournament="sng", reason="not yet")["ok"] is False   # not running
    assert lobby.ask("boss", "director_create", template="daily", id="other", name="Other", start_in=60)["ok"]
    log = answer(lobby.ask("boss", "director_activity", limit=10))
    assert log["ok"]
    commands = [(r["command"], r["tournament"], r["by"]) for r in log["records"]]
    assert commands[0] == ("create", "other", "boss")                # newest first
    assert ("broadcast", "sng", "boss") in commands and commands[-1] == ("create", "sng", "boss")
    broadcast = next(r for r in log["records"] if r["command"] == "broadcast")
    assert broadcast["reason"] == "Starting in five minutes" and broadcast["at"] == lobby.clock.seconds()
    only = answer(lobby.ask("boss", "director_activity", tournament="other"))
    assert [r["command"] for r in only["records"]] == ["create"]
    refused = answer(lobby.ask("ana", "director_activity"))
    assert not refused["ok"] and refused["error"]["code"] == "forbidden"


def test_TR_PLAY_1_the_summary_carries_the_time_left_on_the_clock_held_while_paused(store):
    lobby = full_sit_and_go(store, level_seconds=100)
    lobby.person("dee")
    assert [t["registered"] for t in lobby.ask("dee", "tournament_list")["tournaments"]] == [False]
    lobby.clock.advance(30)
    summary = lobby.ask("ana", "tournament_list")["tournaments"][0]
    assert summary["registered"] is True
    assert summary["next"] == ["level_up", 100] and summary["clock_left"] == 70
    assert lobby.ask("boss", "director_pause", tournament="sng", reason="a dispute")["ok"]
    lobby.clock.advance(500)
    assert lobby.ask("ana", "tournament_list")["tournaments"][0]["clock_left"] == 70


def test_a_refused_director_command_is_not_in_the_activity_log(store):
    lobby = Lobby(store)
    lobby.create()
    lobby.person("ana")
    assert lobby.ask("ana", "tournament_register", tournament="sng")["ok"]
    refused = lobby.ask("boss", "director_edit", tournament="sng", settings={"starting_stack": 3000})
    assert not refused["ok"] and refused["error"]["rule"] == "TR-REG-2"
    log = answer(lobby.ask("boss", "director_activity"))
    assert [r["command"] for r in log["records"]] == ["create"]


def test_TR_PLAY_1_a_table_size_the_deck_cannot_deal_is_refused_before_anyone_registers(store):
    lobby = Lobby(store)
    lobby.person("boss", role="director")
    refused = lobby.ask("boss", "director_create", template="daily", id="plo5", name="PLO5", start_in=60, game="PLO5",
                        settings={"table_size": 9})
    assert not refused["ok"] and refused["error"]["code"] == "bad_structure" and "52" not in refused["error"]["message"]
    assert "seat at most 8" in refused["error"]["message"]
    assert lobby.ask("boss", "director_create", template="daily", id="plo5", name="PLO5", start_in=60, game="PLO5",
                     settings={"table_size": 8})["ok"]


def test_HR_TIME_1_everyone_at_a_tournament_table_is_told_whose_turn_it_is_and_their_time(store):
    lobby = full_sit_and_go(store, time_bank=20)
    lobby.clock.advance(1)                                           # the first hand is dealt
    (table,) = lobby.hall.directors["sng"].tables.values()
    player, _ = table.to_act()
    for name in ("ana", "bob", "cyd"):
        frames = [m for m in lobby.people[name][1].sent if m.get("type") == "tournament_table_events"]
        assert frames[-1]["to_act"] == {"player": player, "seat": table.seat_of(player), "seconds": 10,
                                        "deadline": lobby.clock.seconds() + 10, "time_bank": 20.0}
        assert ("legal" in frames[-1]) == (name == player)
