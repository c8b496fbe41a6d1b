"""What the tournament requests read of the hall, asked on the strict bus: the lobby's list and an event's page, a
cancellation's refund preview, an entrant's name, the staking offers and an entry's payment are requests the hall
answers with plain data (``tournaments.list``, ``tournament.<id>.read``, ``tournament.<id>.command``), so the
requests (a gateway process) hold no director. The asker is the request's session; the role and may-play checks
stay there, the rules with the director."""

from __future__ import annotations

from pokerroom.bus import NoResponder
from pokerroom.bus.records import (
    LOGGED_IN,
    BuyShares,
    CreateEvent,
    DetailsRead,
    EditEvent,
    Enter,
    OfferShares,
    RefundPreviewRead,
    TournamentsRead,
    Watch,
    packb,
    unpackb,
)
from pokerroom.bus.subjects import (
    TOURNAMENTS_CREATE,
    TOURNAMENTS_LIST,
    tournament_command,
    tournament_public,
    tournament_read,
)
from pokerroom.errors import RuleViolation
from tests.support.clocked_room import Connection, conform, deposit, request, settle
from tests.support.hall_lobby import Lobby, asked, started
from tournament import commands as tc
from tournament import director as td

ENTRY = 500                     # the sit & go template's buy-in and fee


def registering(store, *names: str) -> Lobby:   # noqa: ANN001
    """A three-seat sit & go "sng" that ``names`` (fewer than three) entered: still registering."""
    lobby = Lobby(store)
    lobby.create()
    for name in names:
        lobby.person(name)
        assert lobby.ask(name, "tournament_register", tournament="sng")["ok"]
    return lobby


def test_TR_REG_1_the_lobbys_list_is_the_halls_answer_on_tournaments_list(store):
    lobby = registering(store, "ana")
    mine = asked(lobby, TOURNAMENTS_LIST, TournamentsRead("ana"))
    assert [(t["id"], t["state"], t["entrants"], t["registered"]) for t in mine["tournaments"]] == [
        ("sng", td.REGISTERING, 1, True)]
    anonymous = asked(lobby, TOURNAMENTS_LIST, TournamentsRead(None))
    assert [t["registered"] for t in anonymous["tournaments"]] == [False]
    assert unpackb(packb(mine)) == mine                                  # plain data, as a broker carries it
    lobby.person("bo")
    listed = lobby.ask("bo", "tournament_list")
    assert listed["ok"] and listed["tournaments"] == anonymous["tournaments"]   # bo has not entered


def test_TR_PLAY_4_an_events_page_is_the_halls_answer_on_its_read_subject(store):
    lobby, d = started(store)
    page = asked(lobby, tournament_read("sng"), DetailsRead("bo"))
    assert page["tournament"]["id"] == "sng" and page["tournament"]["state"] == td.RUNNING
    assert page["players_left"] == 3 and {s["player"] for s in page["standings"]} == {"ana", "bo", "cy"}
    assert page["rank"] in (1, 2, 3)                                     # the asker's own rank
    table = d.entries["bo"].table
    assert "bo" in page["tables"][table]["seats"].values() and page["tables"][table]["in_hand"]
    assert asked(lobby, tournament_read("sng"), DetailsRead(None))["rank"] is None
    shown = lobby.ask("bo", "tournament_details", tournament="sng")
    assert shown["ok"] and shown["standings"] == page["standings"] and shown["rank"] == page["rank"]
    missing = asked(lobby, tournament_read("nowhere"), DetailsRead("bo"))
    gone = lobby.ask("bo", "tournament_details", tournament="nowhere")
    assert isinstance(missing, NoResponder) and gone["error"]["code"] == "unknown_tournament"


def test_TR_REFUND_2_a_directors_refund_preview_is_read_from_the_hall_and_the_cancel_answers_what_it_paid(store):
    lobby = registering(store, "ana", "bo")
    preview = asked(lobby, tournament_read("sng"), RefundPreviewRead())
    assert preview == {"case": preview["case"], "refunds": {"ana": ENTRY, "bo": ENTRY}, "remainder": 0}
    shown = lobby.ask("boss", "director_cancel", tournament="sng", reason="no field", confirm=False)
    assert shown["ok"] and (shown["case"], shown["refunds"]) == (preview["case"], preview["refunds"])
    assert lobby.hall.directors["sng"].state == td.REGISTERING           # a preview changes nothing
    done = lobby.ask("boss", "director_cancel", tournament="sng", reason="no field", confirm=True)
    assert done["ok"] and done["refunds"] == {"ana": ENTRY, "bo": ENTRY}
    assert lobby.hall.directors["sng"].state == td.CANCELLED and lobby.room.wallet.balance("ana") == 100_000
    nothing = asked(lobby, tournament_read("sng"), RefundPreviewRead())   # cancelled: nothing left to refund
    assert isinstance(nothing, RuleViolation) and nothing.rule_id == "TR-REFUND-7"
    stranger = asked(lobby, tournament_read("sng"), Enter("ana"))        # a command is no read
    assert isinstance(stranger, RuleViolation) and stranger.code == "unknown_command"


def test_SEC_1_a_player_reads_no_refund_preview_and_cancels_nothing_the_role_check_is_the_requests(store):
    lobby = registering(store, "ana", "bo")
    for confirm in (False, True):
        refused = lobby.ask("ana", "director_cancel", tournament="sng", reason="mine now", confirm=confirm)
        assert not refused["ok"] and refused["error"]["code"] == "forbidden" and "refunds" not in refused
    unknown = lobby.ask("ana", "director_cancel", tournament="nowhere", reason="probe", confirm=False)
    assert unknown["error"]["code"] == "forbidden"                      # no probing which events exist
    assert lobby.hall.directors["sng"].state == td.REGISTERING


def test_AC_3_a_director_names_an_entrant_in_any_letter_case_and_the_hall_resolves_it(store):
    lobby = registering(store, "ana", "bob")
    assert asked(lobby, tournament_command("sng"), tc.RemovePlayer("ANA")) == {}
    assert "ana" not in lobby.hall.directors["sng"].entries and lobby.room.wallet.balance("ana") == 100_000
    removed = lobby.ask("boss", "director_remove_player", tournament="sng", player="BoB", reason="wrong event")
    assert removed["ok"] and lobby.hall.directors["sng"].entries == {}
    stranger = asked(lobby, tournament_command("sng"), tc.RemovePlayer("nobody"))
    assert isinstance(stranger, RuleViolation) and stranger.code == "not_registered"


def test_TR_STAKE_1_offers_are_kept_by_the_hall_and_a_buyer_pays_the_offers_markup_from_its_own_cash(store):
    lobby = registering(store, "ana")
    lobby.person("cy")
    lobby.person("backer")
    outsider = asked(lobby, tournament_command("sng"), OfferShares("cy", 50, 110))    # cy has not entered
    assert isinstance(outsider, RuleViolation) and (outsider.code, outsider.rule_id) == ("not_registered", "TR-STAKE-1")
    assert asked(lobby, tournament_command("sng"), OfferShares("ana", 50, 110)) == {}
    bought = asked(lobby, tournament_command("sng"), BuyShares("ANA", "backer", 30))
    assert bought == {"balance": 100_000 - 165}                         # 30% of 500 at the offer's 1.1
    stake = lobby.hall.directors["sng"].entries["ana"].stakes[0]
    assert (stake.backer, stake.price) == ("backer", 165)
    more = asked(lobby, tournament_command("sng"), BuyShares("ana", "backer", 30))   # 20% left on offer
    assert isinstance(more, RuleViolation) and (more.code, more.rule_id) == ("no_offer", "TR-STAKE-1")
    by_request = lobby.ask("backer", "stake_buy", tournament="sng", seller="ana", percent=20)
    assert by_request["ok"] and by_request["balance"] == 100_000 - 165 - 110
    lobby.hall.answers.forget("sng")
    assert lobby.hall.answers.offers == {}


def test_TR_PRIZE_5_an_entry_is_paid_by_the_hall_and_answered_with_the_players_cash(store):
    lobby = registering(store)
    lobby.person("ana")
    lobby.person("bo")
    assert asked(lobby, tournament_command("sng"), Enter("ana")) == {"balance": 100_000 - ENTRY}
    assert "ana" in lobby.hall.directors["sng"].entries
    twice = asked(lobby, tournament_command("sng"), Enter("ana"))
    assert isinstance(twice, RuleViolation) and twice.rule_id == "TR-REG-6"
    entered = lobby.ask("bo", "tournament_register", tournament="sng")
    assert entered["ok"] and entered["balance"] == 100_000 - ENTRY == lobby.room.wallet.balance("bo")
    register = asked(lobby, tournament_command("sng"), tc.Register("cy", 10**9))   # funds named by the asker
    assert isinstance(register, RuleViolation) and register.code == "unknown_command"


def test_STAFF_2_a_player_who_may_not_play_is_refused_by_the_request_before_the_hall_is_asked(store):
    lobby = registering(store)
    lobby.person("ana")
    lobby.room.moderation.freeze("ana")
    refused = lobby.ask("ana", "tournament_register", tournament="sng")
    assert not refused["ok"] and refused["error"]["code"] == "account_frozen"
    assert "ana" not in lobby.hall.directors["sng"].entries and lobby.room.wallet.balance("ana") == 100_000


def test_TR_REFUND_2_an_event_refunded_on_restart_is_listed_and_its_page_is_answered_until_it_is_retired(store):
    before = registering(store, "ana")
    assert before.room.wallet.balance("ana") == 100_000 - ENTRY
    after = Lobby(store)                                                 # the server restarted on the same store
    refunded = after.hall.recover()
    assert list(refunded) == ["sng"] and after.room.wallet.balance("ana") == 100_000
    page = asked(after, tournament_read("sng"), DetailsRead("ana"))
    assert page["tournament"]["state"] == td.CANCELLED
    assert [t["id"] for t in asked(after, TOURNAMENTS_LIST, TournamentsRead("ana"))["tournaments"]] == ["sng"]
    after.clock.advance(after.hall.bounds.keep_ended_minutes * 60.0)
    assert isinstance(asked(after, tournament_read("sng"), DetailsRead("ana")), NoResponder)


def test_TR_REG_6_a_rebuy_is_paid_from_the_funds_the_hall_reads_never_from_a_figure_in_the_record(store):
    lobby, d = started(store, buy_in=90_000, rebuys=1, rebuy_levels=2)   # an entry leaves each of them 9,960
    table = next(iter(d.tables.values()))
    while table.hand is not None:                                        # a rebuy is bought between hands
        lobby.clock.advance(10)
    short = min(d.entries, key=d.chips)                                  # at or below the starting stack
    assert lobby.room.wallet.balance(short) == 100_000 - 90_040
    claimed = asked(lobby, tournament_command("sng"), tc.Rebuy(short, 10**9))
    assert isinstance(claimed, RuleViolation) and (claimed.code, claimed.rule_id) == ("insufficient_funds", "TR-REG-6")
    assert d.entries[short].rebuys == 0 and lobby.room.wallet.balance(short) == 100_000 - 90_040
    refused = lobby.ask(short, "tournament_rebuy", tournament="sng")
    assert not refused["ok"] and refused["error"]["code"] == "insufficient_funds"
    sale = asked(lobby, tournament_command("sng"), tc.SellShares(short, "boss", 50, 0, 10**9))   # its own markup
    assert isinstance(sale, RuleViolation) and sale.code == "unknown_command"


def test_TR_REG_6_a_rebuy_by_request_is_answered_with_the_cash_the_hall_left(store):
    lobby, d = started(store, rebuys=1, rebuy_levels=2)
    table = next(iter(d.tables.values()))
    while table.hand is not None:                                        # a rebuy is bought between hands
        lobby.clock.advance(10)
    short = min(d.entries, key=d.chips)
    answer = lobby.ask(short, "tournament_rebuy", tournament="sng")
    assert answer["ok"] and answer["balance"] == 100_000 - ENTRY - 460 == lobby.room.wallet.balance(short)
    assert d.entries[short].rebuys == 1


def test_TR_REG_6_the_events_page_tells_a_player_whether_a_rebuy_is_open_what_it_costs_and_what_they_used(store):
    """The player client offers its rebuy and add-on buttons from this page alone (lobby/static/player)."""
    lobby, d = started(store, rebuys=1, rebuy_levels=2, add_on_stack=1500, add_on_cost=300)
    table = next(iter(d.tables.values()))
    while table.hand is not None:                                        # a rebuy is bought between hands
        lobby.clock.advance(10)
    short = min(d.entries, key=d.chips)
    page = lobby.ask(short, "tournament_details", tournament="sng")
    assert page["tournament"]["rebuys_open"] is True
    assert {k: page["structure"][k] for k in ("rebuys", "rebuy_levels", "rebuy_cost", "add_on_stack", "add_on_cost")} \
        == {"rebuys": 1, "rebuy_levels": 2, "rebuy_cost": d.spec.buy_in, "add_on_stack": 1500, "add_on_cost": 300}
    assert page["you"] == {"rebuys": 0, "add_on": False, "table": table.id}
    assert lobby.ask(short, "tournament_rebuy", tournament="sng")["ok"]
    assert lobby.ask(short, "tournament_details", tournament="sng")["you"]["rebuys"] == 1
    assert lobby.ask("boss", "tournament_details", tournament="sng")["you"] is None      # not in the event


def test_TR_PRIZE_5_the_hall_creates_an_event_from_the_directors_words_and_looks_up_a_satellites_target(store):
    lobby = Lobby(store)
    lobby.person("boss", role="director")
    main = asked(lobby, TOURNAMENTS_CREATE, CreateEvent("daily", "main", "Main", 3600.0, {}, "boss"))
    assert main["tournament"]["id"] == "main" and lobby.hall.created_by["main"] == "boss"
    sat = asked(lobby, TOURNAMENTS_CREATE, CreateEvent("sit_and_go", "sat", "Sat", None, {"min_players": 3}, "boss",
                                                       satellite_target="main"))
    seat, entry = lobby.hall.directors["sat"].spec.satellite_seat_value, lobby.hall.directors["main"].spec.entry_cost
    assert sat["tournament"]["id"] == "sat" and seat == entry
    nowhere = asked(lobby, TOURNAMENTS_CREATE, CreateEvent("sit_and_go", "sat2", "Sat2", None, {}, "boss",
                                                           satellite_target="nowhere"))
    assert isinstance(nowhere, RuleViolation) and nowhere.code == "unknown_tournament"
    again = asked(lobby, TOURNAMENTS_CREATE, CreateEvent("sit_and_go", "main", "Main", None, {}, "boss"))
    assert isinstance(again, RuleViolation) and (again.code, again.rule_id) == ("tournament_exists", "TR-REG-1")
    lobby.person("ana")
    refused = lobby.ask("ana", "director_create", template="sit_and_go", id="mine", name="Mine", start_in=None)
    assert refused["error"]["code"] == "forbidden" and "mine" not in lobby.hall.directors


def test_TR_REG_2_an_event_is_edited_by_the_hall_before_anyone_registers(store):
    lobby = registering(store)
    edited = asked(lobby, tournament_command("sng"), EditEvent({"buy_in": 1_000}))
    assert edited["tournament"]["buy_in"] == 1_000 == lobby.hall.directors["sng"].spec.buy_in
    bad = asked(lobby, tournament_command("sng"), EditEvent({"no_such_field": 1}))
    assert isinstance(bad, RuleViolation) and bad.code == "unknown_field"
    lobby.person("ana")
    assert lobby.ask("ana", "tournament_register", tournament="sng")["ok"]
    late = asked(lobby, tournament_command("sng"), EditEvent({"buy_in": 2_000}))
    assert isinstance(late, RuleViolation) and (late.code, late.rule_id) == ("already_open", "TR-REG-2")
    refused = lobby.ask("ana", "director_edit", tournament="sng", settings={"buy_in": 1})
    assert refused["error"]["code"] == "forbidden" and lobby.hall.directors["sng"].spec.buy_in == 1_000


def test_TR_REG_1_watching_an_event_is_asked_of_the_hall_and_the_stream_is_let_go_of_when_it_is_retired(store):
    lobby = registering(store, "ana")
    assert asked(lobby, tournament_command("sng"), Watch("s-x", None, True)) == {}
    assert lobby.hall.feed.watchers["sng"] == {"s-x": None}
    assert asked(lobby, tournament_command("sng"), Watch("s-x", None, False)) == {}
    watcher = lobby.person("watcher")
    assert lobby.ask("watcher", "tournament_subscribe", tournament="sng", on=True)["ok"]
    assert lobby.hall.feed.watchers["sng"] == {watcher.id: "watcher"}
    assert tournament_public("sng") in watcher.streams                  # the gateway's side follows its stream
    assert lobby.ask("boss", "director_broadcast", tournament="sng", text="Soon")["ok"]
    assert lobby.pushes("watcher", "broadcast")[-1]["text"] == "Soon"
    assert lobby.ask("watcher", "tournament_subscribe", tournament="nowhere", on=True)["error"]["code"] == \
        "unknown_tournament"
    assert lobby.ask("boss", "director_cancel", tournament="sng", reason="quiet", confirm=True)["ok"]
    lobby.clock.advance(lobby.hall.bounds.keep_ended_minutes * 60.0)    # retired: it leaves the hall's memory
    settle(lobby.room)
    assert "sng" not in lobby.hall.feed.watchers and tournament_public("sng") not in watcher.streams


def test_TR_REG_1_a_connection_that_watched_before_logging_in_hears_each_event_once_as_an_entrant(store):
    lobby = registering(store)
    connection = Connection()
    session = lobby.room.gateway.connected(connection, "10.0.0.1")               # anonymous: it may watch
    assert conform(request(lobby.room, session, "tournament_subscribe", 1, tournament="sng", on=True))["ok"]
    assert lobby.hall.feed.watchers["sng"] == {session.id: None}
    store.accounts.create_account("ana", "ana", "-", "1990-01-01", "NL", 0.0)
    session.player_id, session.country, session.role = "ana", "NL", "player"
    lobby.room.gateway.identify(session, "ana")                          # then ana logs in on that connection
    lobby.room.gateway.returned(session, LOGGED_IN)
    deposit(lobby.room, "ana", 100_000)
    settle(lobby.room)
    assert lobby.hall.feed.watchers["sng"] == {session.id: "ana"}
    lobby.people["ana"] = (session, connection)
    assert lobby.ask("ana", "tournament_register", tournament="sng")["ok"]
    assert lobby.ask("boss", "director_broadcast", tournament="sng", text="Soon")["ok"]
    assert [e["text"] for e in lobby.pushes("ana", "broadcast")] == ["Soon"]   # once, not on both streams
