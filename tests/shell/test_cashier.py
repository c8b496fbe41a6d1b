"""The cashier in process with a fake payment provider: approve, refuse, fail, fall silent, a restart between.

Whatever the provider does, no money is lost or made: the ledger balances, ``world`` holds minus what the
players hold (every wallet and every withdrawal still held), and the store has exactly what memory has.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.money.accounts import WORLD, Kind, cash, parse
from pokerroom.protocol.schema import ProtocolError, parse_request
from pokerroom.shell.cashier import RETRY_FIRST
from pokerroom.shell.payments import CashierBounds, Payment, PlayMoney
from pokerroom.store.db import make_engine, migrate, sqlite_url
from pokerroom.store.room_store import RoomStore
from tests.support.cashier_room import (
    BOUNDS,
    FakeProvider,
    account,
    ask,
    assert_conserved,
    cashier_room,
    funded,
    players_hold,
    refusal,
)
from tests.support.clocked_room import request, resolved

# ---------------------------------------------------------------------- deposits


def test_an_approved_deposit_is_credited_with_its_references_and_stored(store):
    provider = FakeProvider("approve")
    room, _, _ = cashier_room(store, provider)
    ana = account(room, "ana")
    answer = ask(room, ana, "deposit", amount=5_000)
    assert answer["ok"] and answer["balance"] == 5_000 and answer["amount"] == 5_000
    reference = answer["reference"]
    assert provider.calls == [("deposit", "ana", 5_000, reference)]
    (t,) = [t for t in room.wallet.books.transfers if t.reference == reference]
    assert t.reason == "deposit" and {(p.account, p.amount) for p in t.postings} == {(WORLD, -5_000),
                                                                                    (cash("ana"), 5_000)}
    (asked,) = store.audit_log.audit_records("cashier_deposit_asked")
    (done,) = store.audit_log.audit_records("cashier_deposit")
    assert asked.data["reference"] == done.data["reference"] == reference
    assert done.data["provider_reference"] == f"fake-{reference}" and done.data["transfer"] == t.number
    assert_conserved(room)


def test_a_refused_deposit_credits_nothing(store):
    room, _, _ = cashier_room(store, FakeProvider("refuse"))
    ana = account(room, "ana")
    answer = ask(room, ana, "deposit", amount=5_000)
    assert refusal(answer)[0] == "payment_refused" and "card declined" in answer["error"]["message"]
    assert room.wallet.balance("ana") == 0 and room.wallet.books.balance(WORLD) == 0
    assert [r.data["amount"] for r in store.audit_log.audit_records("cashier_deposit_refused")] == [5_000]
    assert_conserved(room)


def test_a_failing_provider_credits_nothing_until_it_answers_and_then_exactly_once(store):
    provider = FakeProvider("fail", "approve")
    room, _, clock = cashier_room(store, provider)
    ana = account(room, "ana")
    assert refusal(ask(room, ana, "deposit", amount=700))[0] == "payment_unavailable"
    assert room.wallet.balance("ana") == 0
    clock.advance(RETRY_FIRST)                               # asked again, with the same reference: approved
    assert room.wallet.balance("ana") == 700
    (told,) = [m for m in ana.connection.sent if m.get("type") == "cashier"]     # nobody's request waited for it
    assert told == {"type": "cashier", "kind": "deposit", "reference": provider.calls[0][3], "amount": 700,
                    "status": "credited", "balance": 700}
    assert len({reference for *_, reference in provider.calls}) == 1
    clock.advance(10 * RETRY_FIRST)
    assert room.wallet.balance("ana") == 700 and len(provider.calls) == 2
    assert_conserved(room)


def test_a_silent_provider_times_out_and_a_restart_credits_what_it_took_once(store):
    room, cashier, clock = cashier_room(store, FakeProvider("silent", then="silent"))
    ana = account(room, "ana")
    pending = request(room, ana, "deposit", amount=900)
    clock.advance(BOUNDS.provider_seconds)
    assert refusal(resolved(pending))[0] == "payment_unavailable"
    cashier.stop()
    (asked,) = store.audit_log.audit_records("cashier_deposit_asked")   # stored before the provider was asked
    # The room stops; the provider took the money meanwhile. At the next start it is asked again and credited.
    provider = FakeProvider("approve")
    again, _, _ = cashier_room(store, provider, clock)
    assert again.wallet.balance("ana") == 900
    assert provider.calls == [("deposit", "ana", 900, asked.data["reference"])]
    third, _, _ = cashier_room(store, FakeProvider(), clock)     # and never twice
    assert third.wallet.balance("ana") == 900
    assert_conserved(third)


# ---------------------------------------------------------------------- withdrawals


def test_an_approved_withdrawal_leaves_the_wallet_for_the_world(store):
    provider = FakeProvider("approve")
    room, _, _ = cashier_room(store, provider)
    ana = funded(room)
    answer = ask(room, ana, "withdraw", amount=4_000)
    assert answer["ok"] and answer["status"] == "paid" and answer["balance"] == 6_000
    reference = answer["reference"]
    assert [t.reason for t in room.wallet.books.transfers if t.reference == reference] == ["withdrawal held",
                                                                                       "withdrawal"]
    assert room.wallet.books.balance(WORLD) == -6_000 and provider.moved == {reference: 4_000}
    assert store.audit_log.audit_records("cashier_withdrawal")[0].data["provider_reference"] == f"fake-{reference}"
    assert_conserved(room)


def test_a_refused_withdrawal_is_back_in_the_wallet(store):
    room, _, _ = cashier_room(store, FakeProvider("refuse"))
    ana = funded(room)
    answer = ask(room, ana, "withdraw", amount=4_000)
    assert refusal(answer)[0] == "payment_refused" and "back in your wallet" in answer["error"]["message"]
    assert room.wallet.balance("ana") == 10_000 and room.wallet.books.balance(WORLD) == -10_000
    assert [t.reason for t in room.wallet.books.transfers][-2:] == ["withdrawal held", "withdrawal returned"]
    assert_conserved(room)


def test_a_failing_provider_holds_the_withdrawal_outside_the_wallet_until_it_answers(store):
    provider = FakeProvider("fail", "approve")
    room, _, clock = cashier_room(store, provider)
    ana = funded(room)
    answer = ask(room, ana, "withdraw", amount=4_000)
    assert answer["ok"] and answer["status"] == "pending" and answer["balance"] == 6_000
    assert ask(room, ana, "withdraw", amount=6_001)["error"]["code"] == "insufficient_funds"   # not spendable twice
    assert_conserved(room)                                   # held: still the player's, not the world's
    clock.advance(RETRY_FIRST)
    assert room.wallet.books.balance(WORLD) == -6_000 and provider.moved == {answer["reference"]: 4_000}
    assert [(m["kind"], m["status"], m["balance"]) for m in ana.connection.sent if m.get("type") == "cashier"] == \
        [("withdrawal", "paid", 6_000)]
    assert_conserved(room)


def test_a_withdrawal_held_when_the_room_stopped_is_paid_once_after_the_restart(store):
    room, cashier, clock = cashier_room(store, FakeProvider("silent"))
    ana = funded(room)
    pending = request(room, ana, "withdraw", amount=3_000)
    clock.advance(BOUNDS.provider_seconds)
    assert resolved(pending)["status"] == "pending"
    cashier.stop()
    provider = FakeProvider("approve")
    again, _, _ = cashier_room(store, provider, clock)          # the held payout names its reference and player
    assert [(what, player, amount) for what, player, amount, _ in provider.calls] == [("pay_out", "ana", 3_000)]
    assert again.wallet.balance("ana") == 7_000 and again.wallet.books.balance(WORLD) == -7_000
    third, _, _ = cashier_room(store, FakeProvider("approve"), clock)
    assert third.wallet.books.balance(WORLD) == -7_000
    assert_conserved(third)


def test_a_restart_returns_a_held_withdrawal_the_provider_refuses(store):
    room, cashier, clock = cashier_room(store, FakeProvider("silent"))
    ana = funded(room)
    request(room, ana, "withdraw", amount=3_000)
    cashier.stop()
    again, _, _ = cashier_room(store, FakeProvider("refuse"), clock)
    assert again.wallet.balance("ana") == 10_000
    assert_conserved(again)


def test_only_the_wallets_cash_is_withdrawn_never_chips_at_a_table(store):
    room, _, _ = cashier_room(store, FakeProvider())
    ana = funded(room, amount=1_000)
    assert ask(room, ana, "join", table="t1", buy_in=600)["ok"]
    answer = ask(room, ana, "withdraw", amount=500)
    assert refusal(answer)[0] == "insufficient_funds" and "holds 400" in answer["error"]["message"]
    assert room.wallet.balance("ana") == 400 and room.wallet.books.balance(WORLD) == -1_000
    assert ask(room, ana, "withdraw", amount=400)["ok"]
    assert_conserved(room)


def test_amounts_are_bounded_and_a_player_asks_one_at_a_time_and_a_few_a_minute(store):
    provider = FakeProvider("silent")
    slow = CashierBounds(min_deposit=10, max_deposit=1_000, min_withdrawal=50, max_withdrawal=500,
                         requests_per_minute=3, requests_burst=3)
    room, _, clock = cashier_room(store, provider, bounds=slow)
    ana = funded(room)
    assert refusal(ask(room, ana, "deposit", amount=1_001))[0] == "amount_out_of_range"
    assert refusal(ask(room, ana, "withdraw", amount=49))[0] == "amount_out_of_range"
    first = request(room, ana, "deposit", amount=100)           # the provider has not answered
    assert refusal(ask(room, ana, "withdraw", amount=100))[0] == "cashier_busy"
    clock.advance(slow.provider_seconds)
    assert refusal(resolved(first))[0] == "payment_unavailable"
    provider.then = "approve"
    for _ in range(3):                                      # a burst of 3 (the refusals above took none)
        assert ask(room, ana, "withdraw", amount=100)["ok"]
    assert refusal(ask(room, ana, "withdraw", amount=100))[0] == "cashier_too_fast"   # then 3 a minute
    clock.advance(20)
    assert ask(room, ana, "withdraw", amount=100)["ok"]
    assert len([c for c in provider.calls if c[0] == "pay_out"]) == 4     # refusals never reach the provider
    assert_conserved(room)


def test_SEC_4_a_frozen_account_neither_deposits_nor_withdraws(store):
    provider = FakeProvider()
    room, _, _ = cashier_room(store, provider)
    ana = funded(room)
    room.moderation.freeze("ana")
    assert refusal(ask(room, ana, "withdraw", amount=100)) == ("account_frozen", "SEC-4")
    assert refusal(ask(room, ana, "deposit", amount=100)) == ("account_frozen", "SEC-4")
    assert provider.calls == [] and room.wallet.balance("ana") == 10_000


def test_SEC_2_staff_accounts_do_not_deposit(store):
    room, _, _ = cashier_room(store, FakeProvider())
    root = account(room, "root", role="admin")
    assert refusal(ask(room, root, "deposit", amount=100)) == ("staff_may_not_play", "SEC-2")


# ---------------------------------------------------------------------- the rules


def test_AC_2_a_player_from_a_newly_restricted_country_may_withdraw_but_not_deposit(store):
    room, _, _ = cashier_room(store, FakeProvider())
    ana = funded(room, country="IR")
    room.account_rules.countries.discard("IR")              # restricted at run time (AC-2)
    assert refusal(ask(room, ana, "deposit", amount=100)) == ("restricted_country", "AC-2")
    assert "may still withdraw" in ask(room, ana, "deposit", amount=100)["error"]["message"]
    assert ask(room, ana, "withdraw", amount=10_000)["ok"]
    assert room.wallet.balance("ana") == 0


def test_AC_5_a_self_excluded_player_may_withdraw_but_not_deposit(store):
    room, _, _ = cashier_room(store, FakeProvider())
    ana = funded(room)
    assert ask(room, ana, "self_exclude", days=30)["ok"]
    assert refusal(ask(room, ana, "deposit", amount=100)) == ("self_excluded", "AC-5")
    assert ask(room, ana, "withdraw", amount=2_500)["ok"]


def test_AC_5_the_stored_deposit_limit_binds_whichever_connection_set_it(store):
    room, _, clock = cashier_room(store, FakeProvider())
    phone = account(room, "ana")
    assert ask(room, phone, "deposit_limit", amount=1_000)["ok"]
    laptop = account(room, "ana")                            # another session: it never heard of the limit
    assert ask(room, laptop, "deposit", amount=600)["ok"]
    answer = ask(room, laptop, "deposit", amount=500)
    assert refusal(answer) == ("deposit_limit", "AC-5") and "600 deposited" in answer["error"]["message"]
    again, _, _ = cashier_room(store, FakeProvider(), clock)     # a restart remembers the day's deposits
    assert refusal(ask(again, account(again, "ana"), "deposit", amount=500)) == ("deposit_limit", "AC-5")
    clock.advance(86_400)
    assert ask(again, account(again, "ana"), "deposit", amount=1_000)["ok"]


def test_AC_6_large_deposits_and_withdrawals_raise_an_aml_flag(store):
    room, _, _ = cashier_room(store, FakeProvider(), aml_threshold=50_000)
    ana = account(room, "ana")
    assert ask(room, ana, "deposit", amount=49_999)["ok"]
    assert [f for f in store.audit_log.audit_records("aml_flag")] == []
    assert ask(room, ana, "deposit", amount=50_000)["ok"]
    assert ask(room, ana, "withdraw", amount=60_000)["ok"]
    flagged = [t.reason for f in store.audit_log.audit_records("aml_flag") for t in room.wallet.books.transfers
               if t.number == f.data.get("transfer")]
    assert "deposit" in flagged and "withdrawal" in flagged


def test_AC_6_a_days_small_deposits_that_add_up_to_the_threshold_raise_one_flag(store):
    room, _, clock = cashier_room(store, FakeProvider(), aml_threshold=10_000)
    ana = account(room, "ana")
    for _ in range(3):
        assert ask(room, ana, "deposit", amount=3_000)["ok"]
        clock.advance(600)
    assert store.audit_log.audit_records("aml_flag") == []
    assert ask(room, ana, "deposit", amount=3_000)["ok"]      # 12,000 in the day: structured
    assert ask(room, ana, "deposit", amount=3_000)["ok"]      # flagged once, when the sum crosses it
    (flag,) = store.audit_log.audit_records("aml_flag")
    assert flag.data == {"pattern": "structured", "player": "ana", "what": "deposit", "count": 4,
                         "total": 12_000, "threshold": 10_000}
    for _ in range(4):
        assert ask(room, ana, "withdraw", amount=3_000)["ok"]
    assert [f.data["what"] for f in store.audit_log.audit_records("aml_flag")] == ["deposit", "withdrawal"]


# ---------------------------------------------------------------------- the admin's credit


def test_STAFF_1_an_admin_credit_is_a_bounded_audited_deposit_and_nobody_else_may_make_one(store):
    room, _, _ = cashier_room(store, FakeProvider())
    ana = funded(room, amount=100)
    root = account(room, "root", role="admin")
    td = account(room, "td", role="director")
    for who in (ana, td):
        mine = ask(room, who, "admin_credit", player="ana", amount=500, reason="mine", payment="psp-1")
        assert refusal(mine) == ("forbidden", "STAFF-1")
    with pytest.raises(ProtocolError, match="needs payment"):       # a credit names the outside payment (STAFF-1)
        parse_request({"type": "admin_credit", "rid": 1, "player": "ana", "amount": 500, "reason": "gift"})
    answer = ask(room, root, "admin_credit", player="ANA", amount=500, reason="refund: card charged, deposit failed",
                 payment="psp-123")
    assert answer["ok"] and answer["player"] == "ana" and answer["balance"] == 600
    (credit,) = store.audit_log.audit_records("wallet_credited")
    assert credit.data["by"] == "root" and credit.data["reason"].startswith("refund") and \
        credit.data["payment"] == "psp-123"
    (t,) = [t for t in room.wallet.books.transfers if t.number == answer["transfer"]]
    assert t.reason == "deposit" and room.wallet.books.balance(WORLD) == -600
    # bounded: 50,000 each, 80,000 a day per admin -- counted with the admin's house deposits
    assert refusal(ask(room, root, "admin_credit", player="ana", amount=50_001, reason="x", payment="psp-1")) == \
        ("over_limit", "STAFF-1")
    assert ask(room, root, "admin_credit", player="ana", amount=50_000, reason="x", payment="psp-1")["ok"]
    assert refusal(ask(room, root, "admin_credit", player="ana", amount=30_000, reason="x", payment="psp-1")) == \
        ("over_limit", "STAFF-1")
    assert [r.data["code"] for r in store.audit_log.audit_records("staff_refused")] == ["over_limit", "over_limit"]
    assert_conserved(room)


def test_STAFF_1_no_admin_credits_themselves_or_another_staff_account_or_a_closed_one(store):
    room, _, _ = cashier_room(store, FakeProvider())
    root = account(room, "root", role="admin")
    account(room, "sec", role="security")
    account(room, "gone", closed=True)
    for target, code in (("root", "staff_may_not_play"), ("sec", "staff_may_not_play"), ("gone", "account_closed"),
                         ("nobody", "no_such_player")):
        answer = ask(room, root, "admin_credit", player=target, amount=100, reason="x", payment="psp-1")
        assert refusal(answer)[0] == code
    assert room.wallet.books.balance(WORLD) == 0


def test_STAFF_1_the_admins_credits_and_house_deposits_share_one_days_bound_across_a_restart(store):
    room, _, clock = cashier_room(store, FakeProvider())
    account(room, "ana")
    root = account(room, "root", role="admin")
    assert ask(room, root, "admin_credit", player="ana", amount=50_000, reason="x", payment="psp-1")["ok"]
    again, _, _ = cashier_room(store, FakeProvider(), clock)
    root = account(again, "root", role="admin")
    assert refusal(ask(again, root, "admin_credit", player="ana", amount=40_000, reason="x", payment="psp-1")) == \
        ("over_limit", "STAFF-1")
    assert ask(again, root, "admin_credit", player="ana", amount=30_000, reason="x", payment="psp-1")["ok"]


# ---------------------------------------------------------------------- a property over random sequences


STEPS = st.lists(st.tuples(st.sampled_from(["deposit", "withdraw"]), st.sampled_from(["ana", "bo"]),
                           st.integers(10, 5_000), st.sampled_from(["approve", "refuse", "fail", "silent"]),
                           st.booleans()), max_size=12)


@settings(max_examples=20)
@given(STEPS)
def test_money_is_conserved_over_any_sequence_of_deposits_withdrawals_and_provider_answers(steps):
    with tempfile.TemporaryDirectory() as tmp:
        engine = make_engine(sqlite_url(Path(tmp)))
        migrate(engine)
        try:
            store = RoomStore(engine)
            provider = FakeProvider(then="approve")
            room, cashier, clock = cashier_room(store, provider)
            sessions = {name: account(room, name) for name in ("ana", "bo")}
            for kind, name, amount, answer, restart in steps:
                provider.answers = [answer]
                request(room, sessions[name], kind, amount=amount)
                clock.advance(BOUNDS.provider_seconds)
                assert -room.wallet.books.balance(WORLD) == players_hold(room)
                if restart:                                  # the room stops and starts on the same store
                    cashier.stop()
                    room, cashier, _ = cashier_room(store, provider, clock)
                    sessions = {n: account(room, n) for n in sessions}
            clock.advance(RETRY_FIRST * 4)                   # every silent answer asked again until it answers
            # what the outside gave minus what it got back is what the players hold: nothing made, nothing lost
            took = sum(a for r, a in provider.moved.items() if r.startswith("d-"))
            paid = sum(a for r, a in provider.moved.items() if r.startswith("w-"))
            assert -room.wallet.books.balance(WORLD) == took - paid == players_hold(room)
            assert not any(parse(a).kind is Kind.PAYOUT for a, v in room.wallet.books.balances.items() if v)
            assert_conserved(room)
        finally:
            engine.dispose()


@pytest.mark.parametrize("key,value", [("min_deposit", 0), ("max_withdrawal", 1.5), ("nonsense", 1)])
def test_a_bad_cashier_config_is_refused_naming_the_key(key, value):
    with pytest.raises(ValueError, match=key):
        CashierBounds.from_config({"cashier": {key: value}})


def test_the_play_money_provider_approves_within_its_bounds():
    money = PlayMoney(CashierBounds(min_deposit=10, max_deposit=100))
    assert money.authorise_deposit("ana", 100, "d-1") == Payment(True, "play-d-1")
    assert not money.authorise_deposit("ana", 101, "d-2").approved
    assert money.pay_out("ana", 500, "w-1").approved
