"""What the gateway's side asks of the money is answered by the wallet desk beside the wallet, on the strict bus (a
broker's later turn), and a record forged on the bus moves no more than the same request through the gateway: the
welcome deposit once per account within its stored limits (AC-5), an admin's promotions funding bounded and read
again where the money is (STAFF-1), and the cashier's asks: an asked deposit credited once at its amount, a
withdrawal's reference held once, only what is held settled."""

from __future__ import annotations

from twisted.internet import defer
from twisted.internet.task import Clock

from pokerroom.bus.records import (
    AdminCredit,
    DepositAllowed,
    DepositApproved,
    FundPromotions,
    HeldRead,
    PayoutsRead,
    WalletRead,
    WelcomeDeposit,
    WithdrawalHold,
    WithdrawalSettled,
)
from pokerroom.bus.strict import StrictBus
from pokerroom.bus.subjects import (
    WALLET_BALANCE,
    WALLET_CREDIT,
    WALLET_DEPOSIT,
    WALLET_HELD,
    WALLET_HOLD,
    WALLET_MAY_DEPOSIT,
    WALLET_PAYOUTS,
    WALLET_PROMOTIONS,
    WALLET_SETTLE,
    WALLET_WELCOME,
)
from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import HOUSE_RAKE, PROMOTIONS, WORLD, Kind, cash, payout
from pokerroom.players import AccountRules
from pokerroom.shell.composition import RoomServices
from pokerroom.shell.house_deposits import HouseDeposits
from pokerroom.store.room_store import RoomStore
from tests.support.clocked_room import deposit, resolved
from tests.support.inline_threads import InlineClock, InlinePool
from tournament.bounds import EventBounds

WELCOME = 100_000


def strict_money_room(store: RoomStore, clock: Clock, **rules) -> RoomServices:   # noqa: ANN003
    room = RoomServices([], store, clock, account_rules=AccountRules(**rules), bus=StrictBus(clock))
    room.startService()
    return room


def stored(room: RoomServices, name: str, role: str = "player", **fields) -> None:   # noqa: ANN003
    key = name.casefold()
    room.store.accounts.create_account(name, key, "not-a-hash", "1990-01-01", "NL", room.reactor.seconds())
    if role != "player":
        room.store.sessions.set_role(key, role, room.reactor.seconds())
    if fields:
        room.store.accounts.update_account(key, **fields)


def later(room: RoomServices, subject: str, record: object) -> object:
    """``record`` asked on ``subject``: not answered in the call, answered (or refused) once the bus has turned."""
    asked = room.bus.request(subject, record)
    assert isinstance(asked, defer.Deferred) and not asked.called, "answered in the call"
    out: list = []
    asked.addBoth(out.append)
    resolved(None)
    assert out, "never answered"
    if hasattr(out[0], "value"):
        return out[0].value
    return out[0]


def test_a_balance_and_held_accounts_are_read_on_a_later_turn(store):
    clock = Clock()
    room = strict_money_room(store, clock)
    deposit(room, "ana", 7_000)
    assert later(room, WALLET_BALANCE, WalletRead("ana")) == {"balance": 7_000}
    assert later(room, WALLET_BALANCE, WalletRead("nobody")) == {"balance": 0}
    assert later(room, WALLET_HELD, HeldRead((PROMOTIONS, HOUSE_RAKE))) == {"held": {PROMOTIONS: 0, HOUSE_RAKE: 0}}


def test_AC_5_a_forged_welcome_deposit_pays_the_rooms_amount_once_per_account(store):
    clock = Clock()
    room = strict_money_room(store, clock, welcome_balance=WELCOME)
    stored(room, "ana")
    assert later(room, WALLET_WELCOME, WelcomeDeposit("ana")) == {"balance": WELCOME}
    again = later(room, WALLET_WELCOME, WelcomeDeposit("ANA"))             # any letter case: the same account
    assert isinstance(again, RuleViolation) and again.code == "already_welcomed"
    assert room.wallet.balance("ana") == WELCOME
    # two at once, before the first is stored: still once
    stored(room, "bo")
    first, second = (room.bus.request(WALLET_WELCOME, WelcomeDeposit("bo")) for _ in range(2))
    out: list = []
    first.addBoth(out.append)
    second.addBoth(out.append)
    resolved(None)
    assert out[0] == {"balance": WELCOME} and out[1].value.code == "already_welcomed"
    assert room.wallet.balance("bo") == WELCOME
    nobody = later(room, WALLET_WELCOME, WelcomeDeposit("ghost"))
    assert isinstance(nobody, RuleViolation) and nobody.code == "no_such_player"


def test_AC_5_a_forged_welcome_deposit_is_held_to_the_stored_accounts_limits(store):
    clock = Clock()
    clock.advance(1_000)
    room = strict_money_room(store, clock, welcome_balance=WELCOME)
    stored(room, "cy", excluded_until=clock.seconds() + 3_600)
    excluded = later(room, WALLET_WELCOME, WelcomeDeposit("cy"))
    assert isinstance(excluded, RuleViolation) and excluded.code == "self_excluded" and excluded.rule_id == "AC-5"
    stored(room, "di", deposit_limit=WELCOME - 1)
    limited = later(room, WALLET_WELCOME, WelcomeDeposit("di"))
    assert isinstance(limited, RuleViolation) and limited.code == "deposit_limit"
    assert room.wallet.balance("cy") == room.wallet.balance("di") == 0
    assert room.wallet.books.balance(cash("di")) == 0


def test_STAFF_1_a_forged_promotions_funding_is_checked_where_the_money_is(store):
    clock = Clock()
    clock.advance(1_000)
    room = strict_money_room(store, clock)
    bounds = EventBounds(max_house_deposit=50_000, max_house_deposits_per_admin_day=80_000,
                         max_house_deposits_per_day=100_000)
    room.wallet_desk.install_promotions(HouseDeposits(room.reactor, room.store, lambda: bounds))
    stored(room, "root", "admin")
    stored(room, "boss", "director")
    world = room.wallet.books.balance(WORLD)
    for by in ("boss", "ghost"):                                  # the role is read from the store, not the record
        refused = later(room, WALLET_PROMOTIONS, FundPromotions("deposit", 1_000, by, "mine"))
        assert isinstance(refused, RuleViolation) and refused.code == "forbidden" and refused.rule_id == "STAFF-1"
    over = later(room, WALLET_PROMOTIONS, FundPromotions("deposit", 50_001, "root", "a lot"))
    assert isinstance(over, RuleViolation) and over.code == "over_limit"
    short = later(room, WALLET_PROMOTIONS, FundPromotions(HOUSE_RAKE, 1, "root", "rake"))
    assert isinstance(short, RuleViolation) and short.code == "insufficient_funds"
    odd = later(room, WALLET_PROMOTIONS, FundPromotions("house:chips", 1, "root", "what"))
    assert isinstance(odd, RuleViolation) and odd.code == "bad_field"
    negative = later(room, WALLET_PROMOTIONS, FundPromotions("deposit", -5, "root", "backwards"))
    assert isinstance(negative, RuleViolation) and negative.code == "amount_out_of_range"
    assert room.wallet.books.balance(WORLD) == world and room.wallet.held(PROMOTIONS) == 0
    funded = later(room, WALLET_PROMOTIONS, FundPromotions("deposit", 50_000, "root", "freeroll"))
    assert funded["balance"] == 50_000 == room.wallet.held(PROMOTIONS)
    day = later(room, WALLET_PROMOTIONS, FundPromotions("deposit", 40_000, "root", "and more"))
    assert isinstance(day, RuleViolation) and day.code == "over_limit"       # the admin's day: 80,000
    assert room.wallet.held(PROMOTIONS) == 50_000


# ---------------------------------------------------------------------- the cashier's asks (cashier_moves)


def asked_deposit(room: RoomServices, player: str, amount: int, reference: str) -> None:
    """The cashier's stored ask of a deposit, as it writes it before the provider is asked."""
    room.store.audit("cashier_deposit_asked", {"player": player, "amount": amount, "reference": reference,
                                               "provider": "test"}, room.reactor.seconds())


def test_AC_5_a_deposits_limits_are_read_by_the_wallets_side_from_the_stored_account(store):
    clock = Clock()
    clock.advance(1_000)
    room = strict_money_room(store, clock)
    stored(room, "ana", deposit_limit=5_000)
    deposit(room, "ana", 4_000)
    assert later(room, WALLET_MAY_DEPOSIT, DepositAllowed("ana", 1_000)) is None
    over = later(room, WALLET_MAY_DEPOSIT, DepositAllowed("ana", 1_001))
    assert isinstance(over, RuleViolation) and over.code == "deposit_limit" and over.rule_id == "AC-5"


def test_a_forged_deposit_credit_pays_only_an_asked_deposit_at_its_amount_once(store):
    clock = Clock()
    room = strict_money_room(store, clock)
    stored(room, "ana")
    asked_deposit(room, "ana", 2_000, "d-1")
    for forged in (DepositApproved("ana", 9_999, "d-1"), DepositApproved("bo", 2_000, "d-1"),
                   DepositApproved("ana", 2_000, "d-nothing")):
        refused = later(room, WALLET_DEPOSIT, forged)
        assert isinstance(refused, RuleViolation) and refused.code == "no_such_deposit"
    credited = later(room, WALLET_DEPOSIT, DepositApproved("ana", 2_000, "d-1"))
    assert credited["balance"] == 2_000 and list(credited["today"]) == [2_000]
    again = later(room, WALLET_DEPOSIT, DepositApproved("ana", 2_000, "d-1"))
    assert isinstance(again, RuleViolation) and again.code == "deposit_settled"
    asked_deposit(room, "ana", 3_000, "d-2")
    room.store.audit("cashier_deposit_refused", {"player": "ana", "amount": 3_000, "reference": "d-2"},
                     clock.seconds())
    refused = later(room, WALLET_DEPOSIT, DepositApproved("ana", 3_000, "d-2"))
    assert isinstance(refused, RuleViolation) and refused.code == "deposit_settled"
    assert room.wallet.balance("ana") == 2_000 and room.wallet.books.balance(WORLD) == -2_000


def test_a_forged_withdrawal_holds_only_the_players_cash_once_and_settles_only_what_is_held(store):
    clock = Clock()
    room = strict_money_room(store, clock)
    stored(room, "ana")
    stored(room, "ice", frozen=True)
    deposit(room, "ana", 1_000)
    deposit(room, "ice", 1_000)
    short = later(room, WALLET_HOLD, WithdrawalHold("ana", 1_001, "w-1"))
    assert isinstance(short, RuleViolation) and short.code == "insufficient_funds"
    frozen = later(room, WALLET_HOLD, WithdrawalHold("ice", 500, "w-ice"))
    assert isinstance(frozen, RuleViolation) and frozen.code == "account_frozen"
    assert later(room, WALLET_HOLD, WithdrawalHold("ana", 600, "w-1")) == {"balance": 400}
    twice = later(room, WALLET_HOLD, WithdrawalHold("ana", 100, "w-1"))
    assert isinstance(twice, RuleViolation) and twice.code == "bad_reference"
    assert later(room, WALLET_PAYOUTS, PayoutsRead()) == {"held": [["ana", "w-1", 600]]}
    assert later(room, WALLET_SETTLE, WithdrawalSettled("ana", 601, "w-1", False)) == {"settled": False}
    assert later(room, WALLET_SETTLE, WithdrawalSettled("ice", 600, "w-1", False)) == {"settled": False}
    returned = later(room, WALLET_SETTLE, WithdrawalSettled("ana", 600, "w-1", False))
    assert returned["settled"] and returned["balance"] == 1_000
    assert later(room, WALLET_SETTLE, WithdrawalSettled("ana", 600, "w-1", True)) == {"settled": False}
    assert later(room, WALLET_PAYOUTS, PayoutsRead()) == {"held": []}
    assert room.wallet.books.balance(WORLD) == -2_000                   # nothing left the room


def test_STAFF_1_a_forged_admin_credit_reads_both_accounts_and_the_bounds_where_the_money_is(store):
    clock = Clock()
    clock.advance(1_000)
    room = strict_money_room(store, clock)
    bounds = EventBounds(max_house_deposit=50_000, max_house_deposits_per_admin_day=80_000,
                         max_house_deposits_per_day=100_000)
    room.cashier_moves.install_credits(HouseDeposits(room.reactor, room.store, lambda: bounds))
    stored(room, "root", "admin")
    stored(room, "ana")
    stored(room, "sec", "security")
    for forged, code in ((AdminCredit("ana", 1_000, "ana", "mine", "p"), "forbidden"),
                         (AdminCredit("root", 1_000, "root", "mine", "p"), "staff_may_not_play"),
                         (AdminCredit("sec", 1_000, "root", "x", "p"), "staff_may_not_play"),
                         (AdminCredit("ana", 50_001, "root", "x", "p"), "over_limit"),
                         (AdminCredit("ana", -1, "root", "x", "p"), "amount_out_of_range")):
        refused = later(room, WALLET_CREDIT, forged)
        assert isinstance(refused, RuleViolation) and refused.code == code, (forged, refused)
    assert room.wallet.books.balance(WORLD) == 0
    credited = later(room, WALLET_CREDIT, AdminCredit("ANA", 50_000, "root", "refund", "psp-1"))
    assert credited["player"] == "ana" and credited["balance"] == 50_000
    (audit,) = store.audit_log.audit_records("wallet_credited")
    assert audit.data["by"] == "root" and audit.data["payment"] == "psp-1"
    day = later(room, WALLET_CREDIT, AdminCredit("ana", 40_000, "root", "x", "p"))
    assert isinstance(day, RuleViolation) and day.code == "over_limit"


def test_one_processs_held_withdrawals_count_a_hold_and_a_settlement_still_in_the_writers_queue(store):
    """``wallet.payouts`` (the cashier's start) on one process is its ledger's truth: a hold not yet stored is
    listed, one settled (not yet stored either) is not -- the database, read around the writer, says otherwise."""
    clock, writer = InlineClock(), InlinePool()
    room = RoomServices([], store, clock, account_rules=AccountRules(), bus=StrictBus(clock), writer=writer)
    room.startService()
    deposit(room, "ana", 1_000)
    room.wallet.move(cash("ana"), payout("w-0", "ana"), 300, "withdrawal held", "w-0")
    clock.advance(1)
    assert room.store.ledger.held_in(Kind.PAYOUT) == {payout("w-0", "ana"): 300}    # stored
    writer.slow = True                                  # the writer falls behind from here
    room.wallet.move(cash("ana"), payout("w-1", "ana"), 600, "withdrawal held", "w-1")
    room.wallet.move(payout("w-0", "ana"), WORLD, 300, "withdrawal", "w-0")
    clock.advance(1)
    assert room.store.ledger.held_in(Kind.PAYOUT) == {payout("w-0", "ana"): 300}    # neither move stored yet
    assert later(room, WALLET_PAYOUTS, PayoutsRead()) == {"held": [["ana", "w-1", 600]]}
    writer.catch_up()
    assert room.store.ledger.held_in(Kind.PAYOUT) == {payout("w-1", "ana"): 600}    # the same, once stored
