"""What the cashier asks of the money, answered in the table process beside the wallet.

The cashier (:mod:`pokerroom.shell.cashier`) talks to the payment provider
and the players in a gateway process; the wallet is the table process's
(docs/architecture.md, the process line). Each movement the cashier needs is
asked here as a record of what happened, never "move X from A to B":

* ``wallet.may_deposit`` (:class:`~pokerroom.bus.records.DepositAllowed`):
  the stored account's limits against the day's deposits (AC-5);
* ``wallet.deposit`` (:class:`~pokerroom.bus.records.DepositApproved`): an
  approved deposit credited, as its stored ``cashier_deposit_asked`` record
  says, never one refused, once;
* ``wallet.hold`` (:class:`~pokerroom.bus.records.WithdrawalHold`): a
  withdrawal's money into its own payout account, stored before the
  provider is asked; a reference is held once ever;
* ``wallet.settle`` (:class:`~pokerroom.bus.records.WithdrawalSettled`): a
  held withdrawal paid out to the world or returned to the player's cash;
* ``wallet.payouts`` (:class:`~pokerroom.bus.records.PayoutsRead`): every
  held withdrawal, for the cashier's start;
* ``wallet.credit`` (:class:`~pokerroom.bus.records.AdminCredit`): an admin's
  credit, bounded with the house deposits (STAFF-1).

A forged record pays nobody more than the same request through the cashier
could: the checks that decide an amount are made again here, from the store
and the ledger -- the limits (AC-5), the funds, a closed or frozen account in
the store, the asked deposit's player and amount, a reference held once, the
admin's role and the house deposits' bounds. What the bus cannot prove is the
provider's answer: a forged ``DepositApproved`` can credit only a deposit the
player asked for, at its amount, once; a forged ``WithdrawalSettled`` moves
only the held amount, to the world or back to its player.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from twisted.internet import defer
from twisted.python.failure import Failure

from pokerroom import players
from pokerroom.bus import Bus
from pokerroom.bus.records import (
    AdminCredit,
    DepositAllowed,
    DepositApproved,
    PayoutsRead,
    WithdrawalHold,
    WithdrawalSettled,
)
from pokerroom.bus.subjects import (
    WALLET_CREDIT,
    WALLET_DEPOSIT,
    WALLET_HOLD,
    WALLET_MAY_DEPOSIT,
    WALLET_PAYOUTS,
    WALLET_SETTLE,
)
from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import WORLD, Kind, cash, parse, payout
from pokerroom.shell.cashier import new_reference
from pokerroom.shell.in_turn import then

if TYPE_CHECKING:
    from pokerroom.shell.house_deposits import HouseDeposits
    from pokerroom.shell.recorder import Recorder
    from pokerroom.shell.wallet import Wallet

ADMIN = "admin"


def _positive(amount: int) -> None:
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise RuleViolation("amount_out_of_range", f"an amount of money is a positive whole number, not {amount}")


def _settled_meanwhile(failure: Failure) -> dict | Failure:
    """A settlement whose payout was settled by another while its money was in flight: nothing left to settle."""
    failure.trap(RuleViolation)
    if failure.value.code != "insufficient_funds":
        return failure
    return {"settled": False}


def _unmade(failure: Failure, house_deposits: HouseDeposits, by: str, amount: int) -> Failure:
    house_deposits.unmade(by, amount)
    return failure


def _listed(held: dict[str, int]) -> dict:
    """``wallet.payouts``' answer: each payout account holding money as ``[player, reference, amount]``, in order."""
    out = []
    for account, balance in sorted(held.items()):
        found = parse(account)
        if balance > 0:
            out.append([found.player, found.place, balance])
    return {"held": out}


def _reference(reference: str) -> None:
    if not reference or ":" in reference or len(reference) > 64:
        raise RuleViolation("bad_reference", "a cashier reference is a short name with no colon")


class CashierMoves:
    def __init__(self, bus: Bus, wallet: Wallet, recorder: Recorder) -> None:
        self.bus = bus
        self.wallet = wallet
        self.recorder = recorder                # the store through the writer; the audit log
        self.store = recorder.store
        self.credited: set[str] = set()         # deposit references credited since start (before the store has them)
        self.held: set[str] = set()             # withdrawal references held since start
        bus.respond(WALLET_MAY_DEPOSIT, self._may_deposit, shared=True)
        bus.respond(WALLET_DEPOSIT, self._deposit, shared=True)
        bus.respond(WALLET_HOLD, self._hold, shared=True)
        bus.respond(WALLET_SETTLE, self._settle, shared=True)
        bus.respond(WALLET_PAYOUTS, self._payouts, shared=True)

    def install_credits(self, house_deposits: HouseDeposits) -> None:
        """Answer ``wallet.credit``, bounded by the house deposits of this process (STAFF-1)."""
        self.bus.respond(WALLET_CREDIT, lambda asked: self._credit(asked, house_deposits), shared=True)

    def _stored(self, gather: Callable[[], Any]) -> defer.Deferred:
        return self.recorder.write(gather, quiet=False)

    def _account(self, name: str) -> Any:
        """(On the writer.) The stored account ``name`` stands for, in any letter case, or None."""
        return self.store.accounts.find_account(players.nickname_key(name))

    # ------------------------------------------------------------------ deposits

    def _may_deposit(self, asked: DepositAllowed) -> defer.Deferred:
        def checked(account: Any) -> None:
            _positive(asked.amount)
            if account is None:
                raise RuleViolation("no_such_player", f"there is no account {asked.player}")
            self.wallet.check_deposit(account.nickname, asked.amount, account)          # AC-5

        return self._stored(lambda: self._account(asked.player)).addCallback(checked)

    def _deposit(self, asked: DepositApproved) -> defer.Deferred:
        reference = asked.reference

        def gather() -> tuple[list, bool, bool]:
            audit_log = self.store.audit_log
            mine = [r.data for r in audit_log.audit_records_naming("cashier_deposit_asked", reference)]
            refused = bool(audit_log.audit_records_naming("cashier_deposit_refused", reference))
            credited = bool(self.store.cashier.transfer_references("deposit", [reference]))
            return mine, refused, credited

        def credit(found: tuple[list, bool, bool]) -> defer.Deferred:
            mine, refused, credited = found
            if [(d.get("player"), int(d.get("amount", 0))) for d in mine] != [(asked.player, asked.amount)]:
                raise RuleViolation("no_such_deposit", f"no deposit {reference} of {asked.amount} was asked for "
                                                       f"by {asked.player}")
            settled = RuleViolation("deposit_settled", f"deposit {reference} is settled already")
            if refused or credited or reference in self.credited:
                raise settled
            self.credited.add(reference)
            # once ever by its reference: on several processes the database checks again, under a lock on it, in
            # the transaction that stores it (two processes settling one deposit at once credit it once)
            paid = defer.maybeDeferred(self.wallet.deposit_once, asked.player, asked.amount, None, reference, settled)
            paid.addErrback(self._uncredited, reference)
            return paid.addCallback(lambda t: {"transfer": t.number, "balance": self.wallet.balance(asked.player),
                                               "today": self.wallet.deposits_today(asked.player)})

        return self._stored(gather).addCallback(credit)

    def _uncredited(self, failure: Failure, reference: str) -> Failure:
        """A credit refused (settled by another process meanwhile) or failed: not credited here."""
        if not (failure.check(RuleViolation) and failure.value.code == "deposit_settled"):
            self.credited.discard(reference)
        return failure

    # ------------------------------------------------------------------ withdrawals

    def _hold(self, asked: WithdrawalHold) -> defer.Deferred:
        player, amount, reference = asked.player, asked.amount, asked.reference
        _positive(amount)
        _reference(reference)

        def gather() -> tuple[Any, bool]:
            return self._account(player), bool(self.store.cashier.transfer_references("withdrawal held",
                                                                                     [reference]))

        def hold(found: tuple[Any, bool]) -> defer.Deferred:
            account, used = found
            if account is None or account.nickname != player:
                raise RuleViolation("no_such_player", f"there is no account {player}")
            if account.closed:
                raise RuleViolation("account_closed", "this account is closed", "AC-1")
            if account.frozen:
                raise RuleViolation("account_frozen", "your account is frozen while the security team reviews it: "
                                    "no money leaves it until then; contact support", "SEC-4")
            if used or reference in self.held:
                raise RuleViolation("bad_reference", f"withdrawal {reference} was held already")
            have = self.wallet.balance(player)
            if have < amount:                               # chips at tables, entries and stakes are not cash
                raise RuleViolation("insufficient_funds", f"your wallet holds {have}, not {amount}: chips at a "
                                    "table, tournament entries and casino stakes come back to it first")
            self.held.add(reference)
            try:                                            # locked: off the reactor with a money thread
                moved = self.wallet.moved(cash(player), payout(reference, player), amount, "withdrawal held",
                                          reference, store=False)
            except RuleViolation:
                self.held.discard(reference)
                raise
            moved = defer.maybeDeferred(lambda: moved).addErrback(self._not_held, reference)
            moved.addCallback(lambda t: self.recorder.write(self.store.ledger.save_transfers, [t], quiet=False))
            return moved.addCallback(lambda _: {"balance": self.wallet.balance(player)})    # before the provider

        return self._stored(gather).addCallback(hold)

    def _not_held(self, failure: Failure, reference: str) -> Failure:
        """The hold refused where the money moves (spent meanwhile by another process): its reference free again."""
        self.held.discard(reference)
        return failure

    def _settle(self, asked: WithdrawalSettled) -> dict | defer.Deferred:
        held = payout(asked.reference, asked.player)
        if asked.amount <= 0 or self.wallet.held(held) != asked.amount:     # settled meanwhile, or not this one
            return {"settled": False}
        if asked.paid:                                  # locked: off the reactor with a money thread
            t = self.wallet.moved(held, WORLD, asked.amount, "withdrawal", asked.reference)
        else:
            t = self.wallet.moved(held, cash(asked.player), asked.amount, "withdrawal returned", asked.reference)
        answer = then(t, lambda t: {"settled": True, "transfer": t.number,
                                    "balance": self.wallet.balance(asked.player)})
        return answer.addErrback(_settled_meanwhile) if isinstance(answer, defer.Deferred) else answer

    def _payouts(self, read: PayoutsRead) -> dict | defer.Deferred:
        """Every withdrawal held and not settled. One process: its ledger's, the truth (a hold or a settlement still
        in the writer's queue counted). Several (any one of them answers, and any may have held one): the database's,
        read behind this process's own writes asked before, off the reactor thread -- as ``wallet.held``."""
        if self.wallet.escrow_elsewhere:
            stored = self.recorder.write(self.store.ledger.held_in, Kind.PAYOUT, quiet=False)
            return stored.addCallback(_listed)
        return _listed({account: balance for account, balance in self.wallet.books.balances.items()
                        if balance and (found := parse(account)) is not None and found.kind is Kind.PAYOUT})

    # ------------------------------------------------------------------ an admin's credit

    def _credit(self, asked: AdminCredit, house_deposits: HouseDeposits) -> defer.Deferred:
        def gather() -> tuple[Any, Any]:
            return self._account(asked.by), self._account(asked.player)

        def credit(found: tuple[Any, Any]) -> dict | defer.Deferred:
            admin, account = found
            if admin is None or admin.closed or admin.role != ADMIN:
                raise RuleViolation("forbidden", "only an admin can credit a wallet", "STAFF-1")
            if account is None:
                raise RuleViolation("no_such_player", f"there is no account {asked.player}")
            name = account.nickname
            if account.closed:
                raise RuleViolation("account_closed", f"{name}'s account is closed", "AC-1")
            if account.role in players.SECURITY_ROLES or account.nickname_key == admin.nickname_key:
                raise RuleViolation("staff_may_not_play", f"{name} is a staff account: staff are not credited, "
                                    "and no admin credits themselves", "STAFF-1")
            _positive(asked.amount)
            house_deposits.check(admin.nickname, asked.amount)
            house_deposits.made(admin.nickname, asked.amount)   # counted as asked: one asked meanwhile with it
            reference = new_reference("c")
            try:                                            # locked: off the reactor with a money thread
                t = self.wallet.credited(name, asked.amount, reference)
            except BaseException:
                house_deposits.unmade(admin.nickname, asked.amount)
                raise
            if isinstance(t, defer.Deferred):
                return t.addCallbacks(lambda t: credited(admin, name, reference, t),
                                      lambda failure: _unmade(failure, house_deposits, admin.nickname, asked.amount))
            return credited(admin, name, reference, t)

        def credited(admin: Any, name: str, reference: str, t: Any) -> dict:
            self.recorder.audit("wallet_credited", by=admin.nickname, player=name, amount=asked.amount,
                                reason=asked.reason, payment=asked.payment, reference=reference, transfer=t.number)
            return {"player": name, "reference": reference, "transfer": t.number,
                    "balance": self.wallet.balance(name), "today": self.wallet.deposits_today(name)}

        return self._stored(gather).addCallback(credit)
