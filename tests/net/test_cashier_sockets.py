"""The cashier over real sockets: deposit, withdraw, an admin's credit, the wallet read back, the ledger checked.

The room is ``serve --demo`` (the built-in play-money provider); afterwards ``pokerroom ledger check`` reads the
stored ledger as the operator does, and the stored wallet must be what the answers said.
"""

from __future__ import annotations

import pytest

from pokerroom.money.ledger import WORLD, cash
from pokerroom.store.db import make_engine, sqlite_url
from pokerroom.store.room_store import RoomStore
from tests.net.ledger_check import assert_ledger_sound
from tests.net.server_process import FAST_ROOM, Player, serving
from tests.support.refusals import refused
from tests.support.socket_play import PASSWORD, sign_up, staff

WELCOME = 100_000                           # the demo's welcome balance (a deposit too)
CASHIER = """
[cashier]
min_deposit = 100
max_deposit = 50_000
min_withdrawal = 100
max_withdrawal = 50_000
requests_per_minute = 600
requests_burst = 100
"""


@pytest.fixture
def server(tmp_path):
    with serving(tmp_path, FAST_ROOM + CASHIER, "--max-rate", "500") as s:
        yield s


def wallet(player: Player) -> int:
    """The wallet as the player reads it (``bet_history``'s balance)."""
    answer = player.request("bet_history", limit=5)
    assert answer["ok"]
    return answer["balance"]


def test_deposit_and_withdraw_move_the_wallet_and_the_stored_ledger_balances(server, tmp_path):
    ana, _ = sign_up(server.url, "ana")
    deposit = ana.request("deposit", amount=5_000)
    assert deposit["ok"] and deposit["balance"] == WELCOME + 5_000 == wallet(ana)
    paid = ana.request("withdraw", amount=30_000)
    assert paid["ok"] and paid["status"] == "paid" and paid["balance"] == WELCOME - 25_000 == wallet(ana)
    moves = ana.request("bet_history", limit=4)["transfers"]
    assert [(t["reason"], t["wallet"]) for t in moves] == [("withdrawal held", -30_000), ("deposit", 5_000),
                                                           ("deposit", WELCOME)]
    refused(ana.request("deposit", amount=50_001), code="amount_out_of_range", rule="")
    assert ana.request("withdraw", amount=30_000)["ok"]                       # 45,000 left
    # only the wallet's cash: 1,000 bought in at the table is not there to withdraw
    assert ana.request("join", table="t1", buy_in=1_000)["ok"]
    refused(ana.request("withdraw", amount=45_000), code="insufficient_funds", rule="")
    assert wallet(ana) == 44_000
    again = Player(server.url)                               # a new login reads the same wallet
    assert again.request("login", nickname="ana", password=PASSWORD)["balance"] == 44_000
    server.stop()
    assert_ledger_sound(tmp_path / "data")
    stored = RoomStore(make_engine(sqlite_url(tmp_path / "data"))).ledger.load_ledger()
    assert stored.balance(cash("ana")) == 44_000
    withdrawals = [t for t in stored.transfers if t.reason == "withdrawal"]
    assert [p.amount for t in withdrawals for p in t.postings if p.account == WORLD] == [30_000, 30_000]


def test_AC_5_a_self_excluded_player_may_withdraw_and_the_stored_limit_binds_every_connection(server):
    ana, _ = sign_up(server.url, "ana")
    phone = Player(server.url)
    assert phone.request("login", nickname="ana", password=PASSWORD)["ok"]    # the laptop's login is closed
    assert phone.request("deposit_limit", amount=WELCOME + 2_000)["ok"]      # the welcome balance counts
    laptop = Player(server.url)
    assert laptop.request("login", nickname="ana", password=PASSWORD)["ok"]
    refused(laptop.request("deposit", amount=2_001), code="deposit_limit", rule="AC-5")
    assert laptop.request("deposit", amount=2_000)["ok"]
    assert laptop.request("self_exclude", days=7)["ok"]
    refused(laptop.request("deposit", amount=100), code="self_excluded", rule="AC-5")
    assert laptop.request("withdraw", amount=50_000)["ok"]
    assert wallet(laptop) == WELCOME + 2_000 - 50_000


def test_STAFF_1_an_admin_credits_a_wallet_audited_and_a_player_cannot(server, tmp_path):
    ana, _ = sign_up(server.url, "ana")
    refused(ana.request("admin_credit", player="ana", amount=1_000, reason="mine", payment="psp-1"), code="forbidden",
            rule="STAFF-1")
    root = staff(server, "root", "admin")
    credit = root.request("admin_credit", player="ana", amount=1_000, reason="refund: card charged, deposit failed",
                          payment="psp-42")
    assert credit["ok"] and credit["balance"] == WELCOME + 1_000 == wallet(ana)
    refused(root.request("admin_credit", player="root", amount=1_000, reason="me", payment="psp-1"),
            code="staff_may_not_play", rule="STAFF-1")
    (record,) = root.request("security_audit", kind="wallet_credited")["records"]
    assert {k: record["data"][k] for k in ("by", "player", "amount", "payment")} == \
        {"by": "root", "player": "ana", "amount": 1_000, "payment": "psp-42"}
    assert record["data"]["reason"].startswith("refund")
    server.stop()
    assert_ledger_sound(tmp_path / "data")


def test_a_client_hammering_the_cashier_is_slowed_and_moves_only_what_was_answered(tmp_path):
    with serving(tmp_path, FAST_ROOM, "--max-rate", "500") as server:     # the default: 6 a minute
        ana, _ = sign_up(server.url, "ana")
        answers = [ana.request("deposit", amount=100) for _ in range(8)]
        assert [a["ok"] for a in answers] == [True] * 6 + [False] * 2
        assert {a["error"]["code"] for a in answers[6:]} == {"cashier_too_fast"}
        assert wallet(ana) == WELCOME + 600
        server.stop()
        assert_ledger_sound(tmp_path / "data")


def test_AC_6_large_and_structured_deposits_and_withdrawals_are_flagged_for_the_security_team(tmp_path):
    config = FAST_ROOM.replace("[accounts]\n", "[accounts]\naml_threshold = 200_000\n", 1) + CASHIER
    with serving(tmp_path, config, "--max-rate", "500") as server:
        ana, _ = sign_up(server.url, "ana")                 # the welcome 100,000 is a deposit of the day too
        for _ in range(2):
            assert ana.request("deposit", amount=50_000)["ok"]     # 200,000 in the day, each below 200,000
        officer = staff(server, "sec", "security")
        flags = [r["data"] for r in officer.request("security_audit", kind="aml_flag")["records"]
                 if "pattern" in r["data"]]             # (the demo house's own deposit is flagged for its size)
        assert [(f["pattern"], f["player"], f["what"], f["total"]) for f in flags] == \
            [("structured", "ana", "deposit", 200_000)]
        server.stop()
