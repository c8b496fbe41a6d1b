"""House money in tournaments on a Clock (STAFF-1): guarantees held from promotions, bounds, an admin's approval
and funding; and the one wallet path flagging tournament transfers (AC-6)."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerroom.money.ledger import HOUSE_FEES, PROMOTIONS, WORLD
from pokerroom.shell.house_deposits import HouseDeposits
from pokerroom.shell.promotions_desk import PromotionsDesk
from pokerroom.shell.tournaments.hall_line import HallLine
from tests.support.clocked_room import deposit
from tests.support.hall_lobby import Lobby
from tests.support.refusals import refused
from tournament import director as td
from tournament.bounds import EventBounds

FUNDED = 10_000_000                         # what Lobby puts in promotions


def lobby_with_desk(store) -> Lobby:
    lobby = Lobby(store)
    room = lobby.room
    room.wallet_desk.install_promotions(HouseDeposits(room.reactor, room.store, lambda: lobby.hall.bounds))
    line = HallLine(room.bus, lobby.hall.bounds.keep_ended_minutes)
    room.gateway.serve(PromotionsDesk(room.bus, room.recorder, line))
    lobby.person("boss", role="director")
    lobby.person("root", role="admin")
    return lobby


def create(lobby: Lobby, tid: str = "sng", **settings) -> dict:
    return lobby.ask("boss", "director_create", template="sit_and_go", id=tid, name=tid.upper(), start_in=None,
                     settings={"min_players": 3, "max_players": 3, **settings})


def test_STAFF_1_the_minting_attack_is_refused_and_world_does_not_move(store):
    lobby = lobby_with_desk(store)
    world = lobby.room.wallet.books.balance(WORLD)
    refused(create(lobby, buy_in=0, fee=0, guarantee=10**12, min_players=2, max_players=2),
            code="over_limit", rule="STAFF-1")
    refused(create(lobby, guarantee=FUNDED + 1),  # within bounds, not covered
            code="guarantee_not_covered", rule="STAFF-1")
    assert "sng" not in lobby.hall.directors and lobby.room.wallet.books.balance(WORLD) == world
    assert lobby.room.wallet.books.balance(PROMOTIONS) == FUNDED


def test_STAFF_1_buy_in_and_fee_have_configured_bounds(store):
    lobby = lobby_with_desk(store)
    bounds = lobby.hall.bounds
    refused(create(lobby, buy_in=bounds.max_buy_in + 1), code="over_limit", rule="STAFF-1")
    refused(create(lobby, fee=bounds.max_fee + 1), code="over_limit", rule="STAFF-1")
    assert create(lobby, buy_in=bounds.max_buy_in, fee=bounds.max_fee)["ok"]


def test_STAFF_1_a_guarantee_is_held_for_its_event_and_all_of_it_returns_on_cancel(store):
    lobby = lobby_with_desk(store)
    ledger = lobby.room.wallet.books
    assert create(lobby, "a", guarantee=6_000_000, buy_in=0, fee=0)["ok"]        # awaiting approval, still held
    assert ledger.balance(PROMOTIONS) == FUNDED - 6_000_000 and ledger.balance(td.guarantee_account("a")) == 6_000_000
    refused(create(lobby, "b", guarantee=4_500_000),  # the same money is not counted twice
            code="guarantee_not_covered", rule="STAFF-1")
    assert lobby.ask("boss", "director_edit", tournament="a", settings={"guarantee": 1_000})["ok"]
    assert ledger.balance(PROMOTIONS) == FUNDED - 1_000 and ledger.balance(td.guarantee_account("a")) == 1_000
    assert not lobby.hall.directors["a"].awaiting_approval                       # lowered under the limit
    assert lobby.ask("boss", "director_cancel", tournament="a", reason="no interest", confirm=True)["ok"]
    assert ledger.balance(PROMOTIONS) == FUNDED and ledger.balance(td.guarantee_account("a")) == 0
    assert ledger.check()


def test_STAFF_1_an_overlay_is_paid_from_promotions_and_what_is_left_returns(store):
    lobby = lobby_with_desk(store)
    ledger = lobby.room.wallet.books
    assert create(lobby, guarantee=5_000, buy_in=1_000, fee=0, level_seconds=1)["ok"]
    for name in ("ana", "bo", "cy"):                                   # 3,000 collected: a 2,000 overlay
        lobby.person(name)
        assert lobby.ask(name, "tournament_register", tournament="sng")["ok"]
    d = lobby.hall.directors["sng"]
    lobby.clock.advance(0)
    assert d.state == td.RUNNING
    for _ in range(10_000):                                            # everyone shoves or calls until one is left
        if d.state != td.RUNNING:
            break
        turns = [t.to_act() for t in d.tables.values() if t.to_act() is not None]
        if not turns:
            lobby.clock.advance(1)                                     # the next hand
            continue
        player, legal = turns[0]
        action = ({"action": "raise", "to": legal.max_to} if legal.can_raise else
                  {"action": "call"} if legal.call_added else {"action": "check"})
        assert lobby.ask(player, "tournament_act", tournament="sng", decision=legal.decision, **action)["ok"]
    assert d.state == td.FINISHED
    (paid,) = [t for t in ledger.transfers if t.reason == "guarantee overlay"]
    assert {p.account: p.amount for p in paid.postings} == {td.guarantee_account("sng"): -2_000,
                                                             td.pool_account("sng"): 2_000}
    assert ledger.balance(PROMOTIONS) == FUNDED - 2_000 and ledger.balance(td.guarantee_account("sng")) == 0
    assert all(t.reason in ("deposit", "withdrawal") for t in ledger.transfers
               if any(p.account == WORLD for p in t.postings))
    assert store.ledger.ledger_problems() == []


def test_STAFF_1_a_guarantee_above_the_limit_waits_for_an_admins_approval(store):
    lobby = lobby_with_desk(store)
    answer = create(lobby, guarantee=lobby.hall.bounds.approval_above + 1)
    assert answer["ok"] and answer["tournament"]["awaiting_approval"]
    lobby.person("ana")
    refused(lobby.ask("ana", "tournament_register", tournament="sng"), code="awaiting_approval", rule="STAFF-1")
    refused(lobby.ask("boss", "director_start", tournament="sng"), code="awaiting_approval", rule="STAFF-1")
    refused(lobby.ask("boss", "admin_approve_tournament", tournament="sng", reason="mine"),
            code="forbidden", rule="STAFF-1")
    assert lobby.ask("root", "admin_approve_tournament", tournament="sng", reason="the spring series")["ok"]
    assert lobby.ask("ana", "tournament_register", tournament="sng")["ok"]
    (record,) = store.audit_log.audit_records("tournament_approved")
    assert record.data["by"] == "root" and record.data["reason"] == "the spring series"
    refused(lobby.ask("root", "admin_approve_tournament", tournament="sng", reason="again"),
            code="not_awaiting_approval", rule="STAFF-1")


def test_STAFF_1_an_event_never_approved_is_cancelled_at_its_start_time_and_its_money_returns(store):
    lobby = lobby_with_desk(store)
    assert lobby.ask("boss", "director_create", template="sit_and_go", id="later", name="Later", start_in=60,
                     settings={"guarantee": lobby.hall.bounds.approval_above + 1})["ok"]
    lobby.clock.advance(61)
    assert lobby.hall.directors["later"].state == td.CANCELLED
    assert lobby.room.wallet.books.balance(PROMOTIONS) == FUNDED


def test_STAFF_1_only_an_admin_funds_promotions_with_a_logged_reason(store):
    lobby = lobby_with_desk(store)
    ledger = lobby.room.wallet.books
    refused(lobby.ask("boss", "admin_fund_promotions", source="deposit", amount=10**9, reason="mine"),
            code="forbidden", rule="STAFF-1")
    refused(lobby.ask("boss", "admin_promotions"), code="forbidden", rule="STAFF-1")
    refused(lobby.ask("root", "admin_fund_promotions", source="house:fees", amount=1, reason="none yet"),
            code="insufficient_funds", rule="STAFF-1")
    assert ledger.balance(PROMOTIONS) == FUNDED
    assert create(lobby, buy_in=1_000, fee=500)["ok"]
    for name in ("ana", "bo"):
        lobby.person(name)
        lobby.ask(name, "tournament_register", tournament="sng")
    answer = lobby.ask("root", "admin_fund_promotions", source="house:fees", amount=1_000, reason="fees to freerolls")
    assert answer["ok"] and answer["balance"] == FUNDED + 1_000 and ledger.balance(HOUSE_FEES) == 0
    assert lobby.ask("root", "admin_fund_promotions", source="deposit", amount=50, reason="house deposit")["ok"]
    records = store.audit_log.audit_records("promotions_funded")
    assert [(r.data["by"], r.data["source"], r.data["amount"], r.data["reason"]) for r in records[-2:]] == [
        ("root", "house:fees", 1_000, "fees to freerolls"), ("root", "deposit", 50, "house deposit")]
    seen = lobby.ask("root", "admin_promotions")
    assert seen["balance"] == FUNDED + 1_050 and seen["awaiting_approval"] == []
    assert store.ledger.ledger_problems() == []


def test_AC_6_a_large_tournament_transfer_is_flagged_like_a_cash_table_one(store):
    lobby = lobby_with_desk(store)
    threshold = lobby.room.account_rules.aml_threshold
    assert create(lobby, buy_in=threshold, fee=0)["ok"]
    lobby.person("ana")
    deposit(lobby.room, "ana", threshold)
    before = len(store.audit_log.audit_records("aml_flag"))
    assert lobby.ask("ana", "tournament_register", tournament="sng")["ok"]
    flags = store.audit_log.audit_records("aml_flag")[before:]
    assert [(f.data["reason"], f.data["size"], f.data["reference"]) for f in flags] == [
        ("tournament buy-in", threshold, "sng")]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.tuples(st.sampled_from(["create", "cancel", "edit"]), st.integers(0, 5),
                                st.integers(0, 4_000_000)), max_size=12))
def test_STAFF_1_promotions_and_the_events_holds_always_add_up_and_world_never_pays(store, steps):
    lobby = lobby_with_desk(store)
    ledger = lobby.room.wallet.books
    total, world, first = ledger.balance(PROMOTIONS), ledger.balance(WORLD), ledger.count
    made: list[str] = []
    for what, pick, amount in steps:
        if what == "create":
            tid = f"e{len(made)}-{ledger.count}"
            covered = amount <= ledger.balance(PROMOTIONS)
            answer = create(lobby, tid, guarantee=amount)
            assert answer["ok"] == covered, answer
            if covered:
                made.append(tid)
        elif made:
            tid = made[pick % len(made)]
            if what == "cancel":
                lobby.ask("boss", "director_cancel", tournament=tid, reason="property", confirm=True)
            else:
                lobby.ask("boss", "director_edit", tournament=tid, settings={"guarantee": amount})
        held = sum(ledger.balance(td.guarantee_account(t)) for t in made)
        assert ledger.balance(PROMOTIONS) + held == total and ledger.balance(PROMOTIONS) >= 0
        for t in made:
            d = lobby.hall.directors[t]
            expected = d.spec.guarantee if d.state == td.REGISTERING else 0
            assert ledger.balance(td.guarantee_account(t)) == expected
    assert ledger.balance(WORLD) == world                     # nothing here deposits: world did not move
    assert not [t for t in ledger.transfers if t.number > first and any(p.account == WORLD for p in t.postings)]


def test_STAFF_1_a_director_opens_at_most_the_configured_number_of_events_at_once(store):
    lobby = lobby_with_desk(store)
    lobby.hall.bounds = dataclasses.replace(lobby.hall.bounds, max_open_events=2)
    assert create(lobby, "one")["ok"] and create(lobby, "two")["ok"]
    refused(create(lobby, "three"), code="too_many_events", rule="STAFF-1")
    assert "three" not in lobby.hall.directors
    lobby.hall.directors["one"].state = td.FINISHED              # an event that has ended no longer counts
    assert create(lobby, "three")["ok"]


def test_STAFF_1_one_director_holds_at_most_their_share_of_open_events_and_others_still_create(store):
    lobby = lobby_with_desk(store)
    lobby.hall.bounds = dataclasses.replace(lobby.hall.bounds, max_open_events=3, max_events_per_director=2)
    assert create(lobby, "one")["ok"] and create(lobby, "two")["ok"]
    answer = create(lobby, "three")
    refused(answer, code="too_many_events", rule="STAFF-1")
    assert "of yours" in answer["error"]["message"]
    lobby.person("deputy", role="director")
    assert lobby.ask("deputy", "director_create", template="sit_and_go", id="theirs", name="Theirs",
                     start_in=None)["ok"]                                # the other director is not locked out
    refused(lobby.ask("root", "director_create", template="sit_and_go", id="four", name="Four", start_in=None),
            code="too_many_events", rule="STAFF-1")  # the room-wide cap still holds


def test_STAFF_1_a_create_and_cancel_loop_is_refused_past_the_directors_hourly_rate(store):
    lobby = lobby_with_desk(store)
    lobby.hall.bounds = dataclasses.replace(lobby.hall.bounds, max_creates_per_hour=3)
    for n in range(3):
        assert create(lobby, f"loop{n}")["ok"]
        assert lobby.ask("boss", "director_cancel", tournament=f"loop{n}", reason="loop", confirm=True)["ok"]
        lobby.clock.advance(60)
    answer = create(lobby, "loop3")
    refused(answer, code="too_many_events", rule="STAFF-1")
    assert "an hour" in answer["error"]["message"] and "loop3" not in lobby.hall.directors
    lobby.clock.advance(3600 - 3 * 60 + 1)                               # the first creation is an hour old
    assert create(lobby, "loop3")["ok"]


def test_STAFF_1_an_ended_event_leaves_the_lobby_and_the_memory_after_the_grace_period_the_store_keeps_it(store):
    lobby = lobby_with_desk(store)
    keep = lobby.hall.bounds.keep_ended_minutes * 60
    lobby.person("ana")
    assert create(lobby, "gone")["ok"]
    assert lobby.ask("ana", "tournament_subscribe", tournament="gone", on=True)["ok"]
    assert lobby.ask("boss", "director_cancel", tournament="gone", reason="quiet", confirm=True)["ok"]
    lobby.clock.advance(keep - 1)                                        # still shown, as ended, during the grace
    details = lobby.ask("ana", "tournament_details", tournament="gone")
    assert details["ok"] and details["tournament"]["state"] == td.CANCELLED
    lobby.clock.advance(1)
    hall = lobby.hall
    assert "gone" not in hall.directors and "gone" not in hall.created_by and "gone" not in hall.feed.watchers
    assert "gone" not in hall.retire_call
    assert not [c for c in lobby.clock.getDelayedCalls() if getattr(c.func, "__self__", None) is hall]
    assert [t["id"] for t in lobby.ask("ana", "tournament_list")["tournaments"]] == []
    answer = lobby.ask("ana", "tournament_details", tournament="gone")
    assert not answer["ok"] and answer["error"]["code"] == "unknown_tournament"
    assert "minutes after it ends" in answer["error"]["message"]
    assert store.tournaments.tournament("gone").state == td.CANCELLED                # the store keeps it
    assert not create(lobby, "gone")["ok"]                               # and its id is never reused
    assert lobby.ask("root", "admin_promotions")["ok"]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.tuples(st.sampled_from(["create", "cancel", "wait"]), st.integers(0, 7_200)),
                      max_size=30))
def test_STAFF_1_the_hall_only_holds_open_events_and_those_ended_within_the_grace_period(store, steps):
    lobby = lobby_with_desk(store)
    hall = lobby.hall
    hall.bounds = dataclasses.replace(hall.bounds, max_creates_per_hour=5, keep_ended_minutes=10,
                                       max_events_per_director=4)
    ended_at: dict[str, float] = {}
    for n, (what, amount) in enumerate(steps):
        if what == "create":
            create(lobby, f"e{n}")
        elif what == "cancel" and hall.directors:
            tid = sorted(hall.directors)[amount % len(hall.directors)]
            if lobby.ask("boss", "director_cancel", tournament=tid, reason="property", confirm=True)["ok"]:
                ended_at[tid] = lobby.clock.seconds()
        else:
            lobby.clock.advance(amount)
        now = lobby.clock.seconds()
        for tid, d in hall.directors.items():
            assert d.state in (td.REGISTERING, td.RUNNING) or now - ended_at[tid] < 600
        assert set(hall.created_by) == set(hall.directors)
        assert sum(1 for d in hall.directors.values() if d.state == td.REGISTERING) <= 4   # the director's share
    assert set(hall.quota.recent) <= {"boss"} and len(hall.quota.recent.get("boss", ())) <= 5


def test_STAFF_1_an_admin_does_not_approve_the_event_they_created(store):
    lobby = lobby_with_desk(store)
    lobby.person("other_admin", role="admin")
    guarantee = lobby.hall.bounds.approval_above + 1
    assert lobby.ask("root", "director_create", template="sit_and_go", id="mine", name="Mine", start_in=None,
                     settings={"guarantee": guarantee})["ok"]
    refused(lobby.ask("root", "admin_approve_tournament", tournament="mine", reason="trust me"),
            code="own_event", rule="STAFF-1")
    assert lobby.hall.directors["mine"].awaiting_approval and not store.audit_log.audit_records("tournament_approved")
    assert lobby.ask("other_admin", "admin_approve_tournament", tournament="mine", reason="the series")["ok"]


def test_STAFF_1_one_house_deposit_into_promotions_is_bounded_and_audited(store):
    lobby = lobby_with_desk(store)
    ledger, bound = lobby.room.wallet.books, lobby.hall.bounds.max_house_deposit
    world, before = ledger.balance(WORLD), len(store.audit_log.audit_records("promotions_funded"))
    refused(lobby.ask("root", "admin_fund_promotions", source="deposit", amount=bound + 1, reason="a lot"),
            code="over_limit", rule="STAFF-1")
    assert ledger.balance(WORLD) == world and ledger.balance(PROMOTIONS) == FUNDED
    assert lobby.ask("root", "admin_fund_promotions", source="deposit", amount=bound, reason="the series")["ok"]
    assert ledger.balance(PROMOTIONS) == FUNDED + bound
    (record,) = store.audit_log.audit_records("promotions_funded")[before:]
    assert (record.data["by"], record.data["amount"], record.data["source"]) == ("root", bound, "deposit")


def test_STAFF_1_the_directors_shares_and_the_house_deposit_bound_are_read_from_the_config():
    shipped = tomllib.loads((Path(__file__).parents[2] / "config" / "room.toml").read_text())
    bounds = EventBounds.from_config(shipped)
    assert (bounds.max_events_per_director, bounds.max_creates_per_hour, bounds.keep_ended_minutes,
            bounds.max_house_deposit) == (20, 30, 60, 10_000_000)
    assert shipped["house_rules"]["max_tables_per_director"] == 10
    mine = EventBounds.from_config({"tournaments": {"max_events_per_director": 3, "max_creates_per_director_hour": 4,
                                                    "keep_ended_minutes": 5, "max_house_deposit": 6}})
    assert (mine.max_events_per_director, mine.max_creates_per_hour, mine.keep_ended_minutes,
            mine.max_house_deposit) == (3, 4, 5, 6)
    with pytest.raises(ValueError, match="keep_ended_minutes"):
        EventBounds.from_config({"tournaments": {"keep_ended_minutes": -1}})
