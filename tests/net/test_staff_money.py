"""Staff cannot create money (STAFF-1) and every wallet movement is watched (AC-6), over real sockets.

Today's review minted 10**12 into a winner's wallet with one ``director_create``; each test here
repeats a part of that against a real server and reads the stored ledger with ``pokerroom ledger check``.
"""

from __future__ import annotations

import pytest

from pokerroom.money.ledger import PROMOTIONS, cash
from pokerroom.store.db import make_engine, sqlite_url
from pokerroom.store.room_store import RoomStore
from tests.net.ledger_check import assert_ledger_sound
from tests.net.server_process import FAST_ROOM, FAST_TOURNAMENTS, Player, Server, serving
from tests.net.tournament_bots import TournamentBot
from tests.support.refusals import refused
from tests.support.socket_play import PASSWORD, director, sign_up, staff
from tests.support.waiting import wait_until
from tournament.director import guarantee_account

DEMO_PROMOTIONS = 1_000_000                 # what a demo room's house keeps in promotions (pokerroom.app)
BOUNDS = """max_guarantee = 10_000_000
guarantee_approval_above = 3_000_000
"""
CONFIG = FAST_TOURNAMENTS.replace("[accounts]\n", "[accounts]\naml_threshold = 1_000_000\n", 1) + BOUNDS
assert FAST_TOURNAMENTS.startswith(FAST_ROOM) and FAST_TOURNAMENTS.rstrip().endswith("clock_scale = 0.0008")


@pytest.fixture
def server(tmp_path):
    with serving(tmp_path, CONFIG, "--max-rate", "500") as s:
        yield s


def admin(server: Server) -> Player:
    return staff(server, "root", "admin")


def sit_and_go(td: Player, tid: str, guarantee: int) -> dict:
    return td.request("director_create", template="sit_and_go", id=tid, name=tid, start_in=None,
                      settings={"buy_in": 0, "fee": 0, "guarantee": guarantee, "min_players": 2, "max_players": 2})


def test_STAFF_1_the_minting_attack_is_refused_and_a_director_cannot_fund_promotions(server, tmp_path):
    td = director(server)
    refused(sit_and_go(td, "mint", 10**12), code="over_limit", rule="STAFF-1")  # above the configured bound
    refused(sit_and_go(td, "mint", DEMO_PROMOTIONS + 1),  # within it, not covered
            code="guarantee_not_covered", rule="STAFF-1")
    refused(td.request("admin_fund_promotions", source="deposit", amount=10**9, reason="mine"),
            code="forbidden", rule="STAFF-1")
    refused(td.request("admin_fund_promotions", source="house:fees", amount=1, reason="mine"),
            code="forbidden", rule="STAFF-1")
    assert not td.request("tournament_details", tournament="mint")["ok"]      # nothing was created
    player = sign_up(server.url, "ana")[0]
    refused(player.request("admin_fund_promotions", source="deposit", amount=1, reason="me"),
            code="forbidden", rule="STAFF-1")
    server.stop()
    store = RoomStore(make_engine(sqlite_url(tmp_path / "data")))
    assert store.ledger.load_ledger().balance(PROMOTIONS) == DEMO_PROMOTIONS
    assert_ledger_sound(tmp_path / "data")


def test_STAFF_1_AC_6_a_covered_guarantee_pays_its_overlay_from_promotions_and_world_moves_only_for_deposits(
        server, tmp_path):
    root = admin(server)
    funded = root.request("admin_fund_promotions", source="deposit", amount=1_500_000, reason="spring freeroll")
    assert funded["ok"] and funded["balance"] == DEMO_PROMOTIONS + 1_500_000
    td = director(server)
    created = sit_and_go(td, "free", 2_000_000)                               # a freeroll: all of it overlay
    assert created["ok"] and not created["tournament"]["awaiting_approval"], created
    assert root.request("admin_promotions")["held"] == {"free": 2_000_000}
    bots = []
    for i, name in enumerate(("free_a", "free_b")):
        p = sign_up(server.url, name)[0]
        assert p.request("tournament_register", tournament="free")["ok"]
        bots.append(TournamentBot(p, name, "free", seed=i))
    for bot in bots:
        bot.start()
    assert wait_until(lambda: all(b.finished.is_set() or b.failure for b in bots),
                      timeout=120), "timed out waiting for the freeroll to finish"
    assert not [b.failure for b in bots if b.failure]
    assert wait_until(lambda: root.request("tournament_details", tournament="free")["tournament"]["state"]
                      == "finished", timeout=120), "the room did not pay the prizes"   # after a bot's last hand
    server.stop()
    store = RoomStore(make_engine(sqlite_url(tmp_path / "data")))
    ledger = store.ledger.load_ledger()
    assert ledger.balance(cash("free_a")) + ledger.balance(cash("free_b")) == 2 * 100_000 + 2_000_000
    assert ledger.balance(PROMOTIONS) == DEMO_PROMOTIONS + 1_500_000 - 2_000_000
    assert ledger.balance(guarantee_account("free")) == 0
    flags = [r.data for r in store.audit_log.audit_records("aml_flag")]               # AC-6: the tournament path too
    assert any(f["reason"] == "guarantee overlay" and f["size"] == 2_000_000 for f in flags), flags
    (record,) = [r.data for r in store.audit_log.audit_records("promotions_funded") if r.data["by"] == "root"]
    assert record["reason"] == "spring freeroll" and record["amount"] == 1_500_000
    assert_ledger_sound(tmp_path / "data")


def test_STAFF_1_a_guarantee_above_the_limit_waits_for_an_admins_approval(server, tmp_path):
    root = admin(server)
    assert root.request("admin_fund_promotions", source="deposit", amount=3_000_000, reason="the series")["ok"]
    td = director(server)
    created = sit_and_go(td, "big", 3_500_000)
    assert created["ok"] and created["tournament"]["awaiting_approval"]
    player = sign_up(server.url, "ana")[0]
    refused(player.request("tournament_register", tournament="big"), code="awaiting_approval", rule="STAFF-1")
    refused(td.request("director_start", tournament="big"), code="awaiting_approval", rule="STAFF-1")
    refused(td.request("admin_approve_tournament", tournament="big", reason="trust me"),
            code="forbidden", rule="STAFF-1")
    assert root.request("admin_promotions")["awaiting_approval"] == ["big"]
    approved = root.request("admin_approve_tournament", tournament="big", reason="the series main event")
    assert approved["ok"] and not approved["tournament"]["awaiting_approval"]
    assert player.request("tournament_register", tournament="big")["ok"]
    cancelled = td.request("director_cancel", tournament="big", reason="rained off", confirm=True)
    assert cancelled["ok"]
    assert wait_until(lambda: root.request("admin_promotions")["balance"] == DEMO_PROMOTIONS + 3_000_000,
                      timeout=10), "the guarantee did not come back to promotions"


@pytest.fixture
def capped_server(tmp_path):
    (tmp_path / "room.toml").write_text(CONFIG + "max_events_per_director = 2\nmax_creates_per_director_hour = 3\n")
    s = Server(tmp_path, "--max-rate", "500").start()
    yield s
    s.stop()


def test_STAFF_1_STAFF_2_a_rogue_director_or_admin_is_held_to_their_share_over_real_sockets(capped_server, tmp_path):
    server = capped_server
    root = admin(server)
    refused(root.request("admin_fund_promotions", source="deposit", amount=10_000_001, reason="a lot"),
            code="over_limit", rule="STAFF-1")
    assert root.request("admin_fund_promotions", source="deposit", amount=3_000_000, reason="the series")["ok"]
    own = sit_and_go(root, "own", 3_500_000)                                  # an admin is a director too
    assert own["ok"] and own["tournament"]["awaiting_approval"]
    refused(root.request("admin_approve_tournament", tournament="own", reason="trust me"),
            code="own_event", rule="STAFF-1")
    td = director(server)
    assert sit_and_go(td, "a", 0)["ok"] and sit_and_go(td, "b", 0)["ok"]
    refused(sit_and_go(td, "c", 0), code="too_many_events", rule="STAFF-1")  # the director's own cap
    sign_up(server.url, "tdir2")[0].close()
    server.grant("tdir2", "director")
    other = Player(server.url)
    assert other.request("login", nickname="tdir2", password=PASSWORD)["ok"]
    assert sit_and_go(other, "theirs", 0)["ok"]                               # not locked out
    assert td.request("director_cancel", tournament="a", reason="loop", confirm=True)["ok"]
    assert sit_and_go(td, "c", 0)["ok"]                                      # three creations this hour
    assert td.request("director_cancel", tournament="c", reason="loop", confirm=True)["ok"]
    loop = sit_and_go(td, "d", 0)
    refused(loop, code="too_many_events", rule="STAFF-1")
    assert "an hour" in loop["error"]["message"]
    sign_up(server.url, "ana")[0].close()
    spam = td.request("director_add_player", tournament="b", player="ana", reason="chips at evil . com")
    assert spam["error"]["code"] == "chat_blocked" and spam["error"]["rule"] == "HR-CHAT-2"
    invite = root.request("director_add_player", tournament="own", player="ana", reason="the series")
    refused(invite, code="awaiting_approval", rule="STAFF-1")


@pytest.fixture
def daily_capped_server(tmp_path):
    (tmp_path / "room.toml").write_text(CONFIG + "max_house_deposits_per_admin_day = 20_000_000\n"
                                                 "max_house_deposits_per_day = 25_000_000\n")
    s = Server(tmp_path, "--max-rate", "500").start()
    yield s
    s.stop()


def _refusals_audited(server: Server, command: str, count: int) -> list:
    store = RoomStore(make_engine(sqlite_url(server.tmp / "data")))
    records = lambda: [r.data for r in store.audit_log.audit_records("staff_refused") if r.data["command"] == command]  # noqa: E731
    assert wait_until(lambda: len(records()) == count, timeout=10), records()
    return records()


def test_STAFF_1_house_deposits_are_bounded_per_admin_and_in_total_per_day_and_each_refusal_is_audited(
        daily_capped_server, tmp_path):
    """Issue 33, finding 5: the bound was per deposit, so three deposits of 10,000,000 brought in 30,000,000."""
    root = admin(daily_capped_server)
    for _ in range(2):
        assert root.request("admin_fund_promotions", source="deposit", amount=10_000_000, reason="the series")["ok"]
    third = refused(root.request("admin_fund_promotions", source="deposit", amount=10_000_000, reason="and more"),
                    code="over_limit", rule="STAFF-1")
    assert "24 hours" in third["error"]["message"]
    other = staff(daily_capped_server, "root2", "admin")
    assert other.request("admin_fund_promotions", source="deposit", amount=5_000_000, reason="the series")["ok"]
    refused(other.request("admin_fund_promotions", source="deposit", amount=1, reason="one more"),
            code="over_limit", rule="STAFF-1")                    # every admin's together: 25,000,000 a day
    assert root.request("admin_promotions")["balance"] == DEMO_PROMOTIONS + 25_000_000
    audited = _refusals_audited(daily_capped_server, "admin_fund_promotions", 2)
    assert [(r["by"], r["code"], r["amount"]) for r in audited] == [("root", "over_limit", 10_000_000),
                                                                   ("root2", "over_limit", 1)]
    assert_ledger_sound(tmp_path / "data")


def test_STAFF_1_an_admin_the_events_creator_made_cannot_approve_its_guarantee_and_the_refusal_is_audited(
        server, tmp_path):
    """Issue 33, finding 5: an admin refused approval of their own event made one of their own accounts an admin
    with admin_set_role, and that account approved it."""
    root = admin(server)
    assert root.request("admin_fund_promotions", source="deposit", amount=3_000_000, reason="the series")["ok"]
    created = sit_and_go(root, "mine", 3_500_000)                 # an admin directs too
    assert created["ok"] and created["tournament"]["awaiting_approval"]
    refused(root.request("admin_approve_tournament", tournament="mine", reason="mine"), code="own_event",
            rule="STAFF-1")
    sign_up(server.url, "sockpuppet")[0].close()
    assert root.request("admin_set_role", player="sockpuppet", role="admin", reason="help")["ok"]
    puppet = Player(server.url)
    assert puppet.request("login", nickname="sockpuppet", password=PASSWORD)["ok"]
    refused(puppet.request("admin_approve_tournament", tournament="mine", reason="looks fine"),
            code="granted_by_creator", rule="STAFF-1")
    sign_up(server.url, "puppet_two")[0].close()                   # one more link: root -> sockpuppet -> puppet_two
    assert puppet.request("admin_set_role", player="puppet_two", role="admin", reason="help")["ok"]
    second = Player(server.url)
    assert second.request("login", nickname="puppet_two", password=PASSWORD)["ok"]
    refused(second.request("admin_approve_tournament", tournament="mine", reason="looks fine"),
            code="granted_by_creator", rule="STAFF-1")
    assert root.request("admin_promotions")["awaiting_approval"] == ["mine"]
    audited = _refusals_audited(server, "admin_approve_tournament", 3)
    assert [(r["by"], r["code"]) for r in audited] == [("root", "own_event"), ("sockpuppet", "granted_by_creator"),
                                                      ("puppet_two", "granted_by_creator")]
    other = staff(server, "root2", "admin")                       # an admin the creator did not make approves it
    assert other.request("admin_approve_tournament", tournament="mine", reason="the series")["ok"]
    assert_ledger_sound(tmp_path / "data")
