"""The cashier's store path on SQLite and PostgreSQL: deposits and withdrawals read back by whose account moved,
references found, and a held withdrawal and an unanswered deposit finished once after a restart."""

from __future__ import annotations

from pokerroom.money.accounts import PROMOTIONS, WORLD, cash, payout
from pokerroom.money.ledger import Ledger
from pokerroom.shell.cashier import RETRY_FIRST
from tests.support.cashier_room import BOUNDS, FakeProvider, account, assert_conserved, cashier_room, funded
from tests.support.clocked_room import request, resolved


def test_AC_5_AC_6_world_movements_name_the_player_whose_account_moved_not_the_reference(store):
    ledger = Ledger()
    store.ledger.save_transfers([
        ledger.move(WORLD, cash("ana"), 700, "deposit", "d-1", 10.0),
        ledger.move(WORLD, PROMOTIONS, 5_000, "deposit", "promotions by root", 11.0),     # the house's: nobody's
        ledger.move(cash("ana"), payout("w-1", "ana"), 300, "withdrawal held", "w-1", 12.0),
        ledger.move(payout("w-1", "ana"), WORLD, 300, "withdrawal", "w-1", 13.0),
        ledger.move(WORLD, cash("bo"), 50, "deposit", "bo", 14.0),
    ])
    assert store.cashier.deposits_since(10.5) == [("bo", 50, 14.0)]
    assert store.cashier.deposits_since(0) == [("ana", 700, 10.0), ("bo", 50, 14.0)]
    assert store.cashier.world_movements_since("withdrawal", 0) == [("ana", 300, 13.0)]
    assert store.cashier.transfer_references("deposit", ["d-1", "d-2", "w-1"]) == {"d-1"}


def test_a_held_withdrawal_and_an_unanswered_deposit_finish_once_after_a_restart(store):
    room, cashier, clock = cashier_room(store, FakeProvider("silent", "silent"))
    ana = funded(room)
    bo = account(room, "bo")
    held = request(room, ana, "withdraw", amount=4_000)
    asked = request(room, bo, "deposit", amount=900)
    clock.advance(BOUNDS.provider_seconds)
    assert resolved(held)["status"] == "pending" and resolved(asked)["error"]["code"] == "payment_unavailable"
    cashier.stop()
    provider = FakeProvider()
    again, cashier, _ = cashier_room(store, provider, clock)
    assert sorted(what for what, *_ in provider.calls) == ["deposit", "pay_out"]
    assert again.wallet.balance("ana") == 6_000 and again.wallet.balance("bo") == 900
    clock.advance(RETRY_FIRST * 8)
    third, _, _ = cashier_room(store, FakeProvider(), clock)
    assert third.wallet.books.balance(WORLD) == -6_900 and len(provider.calls) == 2
    assert_conserved(third)
