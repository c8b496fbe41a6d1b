"""The directors' desk for cash tables, on a Clock: open a table (the config's rules, stored, back after a
restart), see its seats and waiting list, close it (the hand in play ends, everyone stands up with their chips
through the ledger, and nobody's leaving counts for hit-and-run: HR-HNR-1, HR-STAKE-3, HR-STAKE-4)."""

from __future__ import annotations

from fractions import Fraction

from twisted.internet.task import Clock

from pokerroom.money import cash
from pokerroom.money.ledger import table_escrow
from tests.support.clocked_room import TABLES, deposit, make_room, player, request, with_token
from tests.support.clocked_room import resolved as answer
from tests.support.directors_desk import directors_desk

NEW = {"id": "nl-new", "name": "New", "game": "NLHE", "small_blind": 10, "big_blind": 20, "min_buy_in": 800,
       "max_buy_in": 2000, "seats": 6, "reason": "the room is busy"}


def desk_room(store, clock: Clock):                                   # noqa: ANN001
    room = make_room(store, clock)
    desk = directors_desk(room, TABLES, restore=True)
    boss, boss_connection = player(room, "boss")
    boss.role = "director"
    return room, desk, boss, boss_connection


def test_a_director_opens_a_table_players_join_and_it_is_back_after_a_restart(store):
    clock = Clock()
    room, desk, boss, _ = desk_room(store, clock)
    opened = answer(request(room, boss, "director_open_table", **NEW))
    assert opened["ok"], opened
    assert opened["table"]["table"] == "nl-new" and opened["table"]["players"] == []
    lobby = request(room, boss, "lobby_list")
    assert "nl-new" in {t["table"] for t in lobby["tables"]}
    ana, _ = player(room, "ana")
    assert request(room, ana, "join", table="nl-new", buy_in=1000)["ok"]
    tables = request(room, boss, "director_tables")
    row = next(t for t in tables["tables"] if t["table"] == "nl-new")
    assert row["players"] == [{"seat": 1, "player": "ana", "stack": 1000, "sitting_out": False, "connected": True}]
    assert row["opened_by_director"] and row["big_blind"] == 20
    room.recorder.flushed()
    record = next(r for r in store.audit_log.audit_records("director_command") if r.data["command"] == "open table")
    assert record.data["by"] == "boss" and record.data["reason"] == "the room is busy"
    again, _, _, _ = desk_room(store, Clock())                        # a restart: the table is open again
    assert "nl-new" in again.tables.runners and again.tables.runners["nl-new"].table.rules.stakes.big_blind == 20


def test_HR_STAKE_4_a_table_that_could_not_run_or_an_id_in_use_is_refused_with_a_sentence(store):
    room, _, boss, _ = desk_room(store, Clock())
    for changes, code in [({"small_blind": 20}, "bad_table"), ({"min_buy_in": 10}, "bad_table"),
                          ({"max_buy_in": 500}, "bad_table"), ({"id": "t1"}, "table_exists"),
                          ({"id": "roulette-altair#7"}, "bad_field"), ({"id": "nl new"}, "bad_field")]:
        refused = answer(request(room, boss, "director_open_table", **{**NEW, **changes}))
        assert not refused["ok"] and refused["error"]["code"] == code, changes
        assert refused["error"]["message"]
    ana, _ = player(room, "ana")
    for kind, fields in [("director_open_table", NEW), ("director_tables", {}),
                         ("director_close_table", {"table": "t1", "reason": "x"})]:
        refused = answer(request(room, ana, kind, **fields))
        assert not refused["ok"] and refused["error"]["code"] == "forbidden"
    assert set(room.tables.runners) == {"t1"} and not room.tables.runners["t1"].table.closing


def test_HR_HNR_1_closing_a_table_ends_the_hand_in_play_then_stands_everyone_up_with_their_chips(store):
    clock = Clock()
    room, desk, boss, _ = desk_room(store, clock)
    assert answer(request(room, boss, "director_open_table", **{**NEW, "seats": 3}))["ok"]
    seated = {}
    for name in ("ana", "bob", "cyd"):
        session, connection = player(room, name)
        session.role = "player"
        deposit(room, name, 10_000)
        assert request(room, session, "join", table="nl-new", buy_in=1000)["ok"]
        seated[name] = (session, connection)
    dan, _ = player(room, "dan")
    deposit(room, "dan", 10_000)
    assert request(room, dan, "waiting_list", table="nl-new", on=True)["ok"]
    assert request(room, boss, "director_tables")["tables"][-1]["waiting_list"] == ["dan"]
    watcher, watcher_connection = player(room, "eve")
    assert request(room, watcher, "observe", table="nl-new", on=True)["ok"]
    total = sum(room.wallet.books.balance(cash(p)) for p in seated) + 3 * 1000
    table = room.tables.runners["nl-new"].table
    clock.advance(5)                                                  # the first hand is dealt
    assert table.hand is not None
    closed = answer(request(room, boss, "director_close_table", table="nl-new", reason="too quiet"))
    assert closed == {**closed, "ok": True, "closed": False}          # a hand is running: it plays out first
    assert room.tables.runners["nl-new"].table.waiting_list == []            # nobody waits for a closing table
    refused = request(room, dan, "waiting_list", table="nl-new", on=True)
    assert not refused["ok"] and refused["error"]["code"] == "table_closing"
    for _ in range(200):                                               # everyone times out: the hand ends
        if "nl-new" not in room.tables.runners:
            break
        clock.advance(1)
    assert "nl-new" not in room.tables.runners
    assert {"type": "table_closed", "table": "nl-new"} in watcher_connection.sent
    assert sum(room.wallet.books.balance(cash(p)) for p in seated) == total - table.rake     # every chip back
    assert all(room.wallet.books.balance(table_escrow("nl-new", p)) == 0 for p in seated)
    for name in seated:                                               # not a departure of theirs: no HR-HNR,
        assert room.history.departures(name, table.rules.game_key, 0) == []   # no HR-STAKE-3 minimum
        assert room.history.tables_seated(name) == 0
    lobby = request(room, boss, "lobby_list")
    assert "nl-new" not in {t["table"] for t in lobby["tables"]}
    again, _, again_boss, _ = desk_room(store, Clock())
    settled = []
    for name in seated:                                               # histories still show the closed table
        session, _ = player(again, name)
        history = answer(request(again, session, "bet_history", limit=100))["transfers"]
        assert {"buy_in", "cash_out"} <= {t["reason"] for t in history if t["reference"] == "nl-new"}
        assert sum(t["tables"] for t in history) == 0                 # every chip in at the table came out
        settled += [t for t in history if t["reference"].startswith("nl-new-")]
    assert settled                                                    # the blinds' hand settlement is there too
    assert "nl-new" not in again.tables.runners                              # closed for good, and the id stays used
    reused = answer(request(again, again_boss, "director_open_table", **NEW))
    assert not reused["ok"] and reused["error"]["code"] == "table_exists"


def test_closing_an_empty_config_table_removes_it_at_once_and_lobby_subscribers_are_told(store):
    clock = Clock()
    room, _, boss, boss_connection = desk_room(store, clock)
    assert request(room, boss, "lobby_subscribe", on=True)["ok"]
    closed = answer(request(room, boss, "director_close_table", table="t1", reason="maintenance"))
    assert closed["ok"] and closed["closed"] is True and "t1" not in room.tables.runners
    clock.advance(1.0)
    update = [m for m in boss_connection.sent if m.get("type") == "lobby_update"][-1]
    assert update["closed"] == ["t1"]
    missing = answer(request(room, boss, "director_close_table", table="t1", reason="again"))
    assert not missing["ok"] and missing["error"]["code"] == "no_such_table"


def test_a_player_who_was_away_when_their_table_closed_resumes_with_their_chips_in_the_wallet(store):
    clock = Clock()
    room, _, boss, _ = desk_room(store, clock)
    ana, _ = player(room, "ana")
    with_token(room, ana)
    assert request(room, ana, "join", table="t1", buy_in=1000)["ok"]
    room.gateway.disconnected(ana)                                            # away: the seat and the session stay
    assert answer(request(room, boss, "director_close_table", table="t1", reason="maintenance"))["closed"]
    assert room.wallet.books.balance(cash("ana")) == 10_000 and "t1" not in ana.tables
    back = room.gateway.connected(type(boss.connection)(), "10.0.0.9")
    resumed = answer(request(room, back, "resume", token=ana.token, tables={"t1": 3}))
    assert resumed["ok"] and resumed["tables"] == {"t1": "closed"} and resumed["balance"] == 10_000
    room.gateway.disconnected(back)                                           # and leaving again raises nothing


def test_HR_RAKE_1_a_directors_table_takes_the_rake_of_its_stake_level_and_config_ids_stay_the_operators(store):
    config = {"rake": {"micro": {"percent": "5", "caps": [[2, 50]]}, "low": {"percent": "4", "caps": [[2, 100]]}},
              "tables": [{**TABLES["tables"][0], "rake": "micro"},
                         {**TABLES["tables"][0], "id": "t2", "small_blind": 25, "big_blind": 50, "min_buy_in": 2000,
                          "max_buy_in": 5000, "rake": "low"}]}
    room = make_room(store, Clock())
    directors_desk(room, config)
    boss, _ = player(room, "boss")
    boss.role = "admin"
    assert answer(request(room, boss, "director_open_table", **NEW))["ok"]          # big blind 20: micro
    assert room.tables.runners["nl-new"].table.rules.rake.rate == Fraction(5, 100)
    bigger = {**NEW, "id": "nl-big", "small_blind": 50, "big_blind": 100, "min_buy_in": 4000, "max_buy_in": 10000}
    assert answer(request(room, boss, "director_open_table", **bigger))["ok"]       # big blind 100: low
    assert room.tables.runners["nl-big"].table.rules.rake.rate == Fraction(4, 100)
    unknown = answer(request(room, boss, "director_open_table", **{**NEW, "id": "nl-x", "rake": "huge"}))
    assert not unknown["ok"] and unknown["error"]["rule"] == "HR-RAKE-1"
    assert answer(request(room, boss, "director_close_table", table="t1", reason="quiet"))["ok"]
    reused = answer(request(room, boss, "director_open_table", **{**NEW, "id": "t1"}))   # closed, still the config's
    assert not reused["ok"] and reused["error"]["code"] == "table_exists"


def test_a_restarted_table_numbers_its_hands_on_from_the_stored_ones(store):
    clock = Clock()
    room, _, _, _ = desk_room(store, clock)
    for name in ("ana", "bob"):
        session, _ = player(room, name)
        assert request(room, session, "join", table="t1", buy_in=1000)["ok"]
    table = room.tables.runners["t1"].table
    while table.hand_number < 2 or table.hand is not None:            # two hands played out on their timers
        clock.advance(5)
    room.recorder.flushed()
    stored = {h.hand_id for h in store.hands.hands_of("ana", 10)}
    assert {"t1-1", "t1-2"} <= stored
    again, _, _, _ = desk_room(store, Clock())
    # ana and bob still sat when it stopped: hand 3 may have been dealt and shown before its start was stored,
    # so its number is skipped too -- the next hand is t1-4, never t1-1 or t1-3 again
    assert again.tables.runners["t1"].table.hand_number == table.hand_number + 1


def test_directors_open_at_most_the_configured_number_of_cash_tables_at_once(store):
    room, desk, boss, _ = desk_room(store, Clock())
    desk.max_opened = 2
    for n in (1, 2):
        assert answer(request(room, boss, "director_open_table", **{**NEW, "id": f"nl-new{n}"}))["ok"]
    refused = answer(request(room, boss, "director_open_table", **{**NEW, "id": "nl-new3"}))
    assert not refused["ok"] and refused["error"]["code"] == "too_many_tables" and refused["error"]["message"]
    assert "nl-new3" not in room.tables.runners
    assert answer(request(room, boss, "director_close_table", table="nl-new1", reason="quiet"))["ok"]
    assert answer(request(room, boss, "director_open_table", **{**NEW, "id": "nl-new3"}))["ok"]   # room again


def test_STAFF_2_one_director_takes_at_most_their_share_of_the_cash_tables_and_others_still_open(store):
    room, desk, boss, _ = desk_room(store, Clock())
    desk.max_opened, desk.max_per_director = 4, 2
    for n in (1, 2):
        assert answer(request(room, boss, "director_open_table", **{**NEW, "id": f"nl-boss{n}"}))["ok"]
    refused = answer(request(room, boss, "director_open_table", **{**NEW, "id": "nl-boss3"}))
    assert not refused["ok"] and refused["error"]["code"] == "too_many_tables"
    assert "of yours" in refused["error"]["message"] and "nl-boss3" not in room.tables.runners
    other, _ = player(room, "deputy")
    other.role = "director"
    assert answer(request(room, other, "director_open_table", **{**NEW, "id": "nl-deputy1"}))["ok"]   # not locked out
    assert answer(request(room, boss, "director_close_table", table="nl-boss1", reason="quiet"))["ok"]
    assert answer(request(room, boss, "director_open_table", **{**NEW, "id": "nl-boss3"}))["ok"]    # a share again
    restarted, again, boss_again, _ = desk_room(store, Clock())         # the share survives a restart
    assert again.opened_by == {"nl-boss2": "boss", "nl-boss3": "boss", "nl-deputy1": "deputy"}
    again.max_per_director = 2
    refused = answer(request(restarted, boss_again, "director_open_table", **{**NEW, "id": "nl-boss4"}))
    assert not refused["ok"] and refused["error"]["code"] == "too_many_tables"
