"""What the gateway's side asks of the money: the wallet's answers, in the table process beside it.

The wallet (:mod:`pokerroom.shell.wallet`) is the table process's
(docs/architecture.md, the process line); accounts, the histories and the
promotions desk serve requests in a gateway process and hold no wallet. They
ask here, on the bus, with records that say what happened or what is read:

* ``wallet.balance`` (:class:`~pokerroom.bus.records.WalletRead`): a player's
  cash, for a login's, a resume's and a history's answer;
* ``wallet.held`` (:class:`~pokerroom.bus.records.HeldRead`): what some
  accounts hold (promotions, the guarantees, the house's earnings); on
  several processes as committed in the database, whoever owns the escrow;
* ``wallet.welcome`` (:class:`~pokerroom.bus.records.WelcomeDeposit`): a new
  account's welcome balance (demo rooms);
* ``wallet.promotions`` (:class:`~pokerroom.bus.records.FundPromotions`): an
  admin's house money into promotions (STAFF-1).

Who can ask: only a service on the bus (a client cannot publish), and no
record names an amount to pay a player or an account to pay it into. Every
check is made again here, where the money is, from the store and the ledger,
so a forged record moves no more than the same request through the gateway:
the welcome amount is the room's rule, held to the stored account's limits
(AC-5), once per account ever (its reference names the account's id; the
stored deposits are read, and on several processes the database checks it
again under a lock in the transaction that pays it, so two processes asked
at once pay it once); a funding's admin is read from the store, its
source's funds from the ledger, a house deposit's bounds from the house
deposits kept here (:mod:`pokerroom.shell.house_deposits`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from twisted.internet import defer

from pokerroom import players
from pokerroom.bus import Bus
from pokerroom.bus.records import FundPromotions, HeldRead, WelcomeDeposit
from pokerroom.bus.subjects import WALLET_BALANCE, WALLET_HELD, WALLET_PROMOTIONS, WALLET_WELCOME
from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import PROMOTIONS
from pokerroom.shell.promotions_desk import ADMIN, SOURCES, fund_promotions

if TYPE_CHECKING:
    from pokerroom.shell.house_deposits import HouseDeposits
    from pokerroom.shell.recorder import Recorder
    from pokerroom.shell.wallet import Wallet


def welcome_reference(account: Any) -> str:
    """The welcome deposit's reference: the account's id, which a rename keeps, so it is paid once ever."""
    return f"welcome-{account.id}"


class WalletDesk:
    def __init__(self, bus: Bus, wallet: Wallet, recorder: Recorder, rules: players.AccountRules) -> None:
        self.bus = bus
        self.wallet = wallet
        self.recorder = recorder                # the store through the writer (accounts, stored deposits)
        self.store = recorder.store
        self.rules = rules
        self.welcomed: set[str] = set()         # references paid since start: before the store has them
        bus.respond(WALLET_BALANCE, lambda read: {"balance": wallet.balance(read.player)}, shared=True)
        bus.respond(WALLET_HELD, self._held, shared=True)
        bus.respond(WALLET_WELCOME, self._welcome, shared=True)

    def install_promotions(self, house_deposits: HouseDeposits) -> None:
        """Answer ``wallet.promotions``, bounded by the house deposits of this process (STAFF-1)."""
        self.bus.respond(WALLET_PROMOTIONS, lambda asked: self._fund(asked, house_deposits), shared=True)

    def _held(self, read: HeldRead) -> dict | defer.Deferred:
        """One process: its ledger's balances. Several (one of them answers): an escrow account (a guarantee) is
        in the memory of the process that owns its event, perhaps another, so every account is read as committed
        in the database, behind this process's own writes asked before."""
        if not isinstance(read, HeldRead):
            raise RuleViolation("unknown_read", "wallet.held answers a HeldRead only")
        if self.wallet.escrow_elsewhere:
            accounts = tuple(read.accounts)
            return self.recorder.write(self.store.ledger.balances, accounts, quiet=False).addCallback(
                lambda held: {"held": held})
        return {"held": {account: self.wallet.held(account) for account in read.accounts}}

    def _account(self, name: str) -> defer.Deferred:
        """The stored account ``name`` stands for, read through the writer (it sees every write asked before)."""
        return self.recorder.write(self.store.accounts.find_account, players.nickname_key(name), quiet=False)

    def _welcome(self, asked: WelcomeDeposit) -> defer.Deferred:
        def gather() -> tuple[Any, bool]:
            account = self.store.accounts.find_account(players.nickname_key(asked.player))
            paid = account is not None and bool(
                self.store.cashier.transfer_references("deposit", [welcome_reference(account)]))
            return account, paid

        def pay(found: tuple[Any, bool]) -> dict | defer.Deferred:
            account, paid = found
            if account is None:
                raise RuleViolation("no_such_player", f"there is no account {asked.player}")
            if account.closed:
                raise RuleViolation("account_closed", "this account is closed", "AC-1")
            reference = welcome_reference(account)
            refused = RuleViolation("already_welcomed", f"{account.nickname} was given the welcome balance already")
            if paid or reference in self.welcomed:
                raise refused
            if not self.rules.welcome_balance:
                return {"balance": self.wallet.balance(account.nickname)}
            self.welcomed.add(reference)
            # its limits (AC-5); once ever, checked again by the database where several processes pay (there, a
            # Deferred: its locked move off the reactor)
            paid = defer.maybeDeferred(self.wallet.deposit_once, account.nickname, self.rules.welcome_balance,
                                       account, reference, refused)
            return paid.addCallback(lambda _: {"balance": self.wallet.balance(account.nickname)})

        return self.recorder.write(gather, quiet=False).addCallback(pay)

    def _fund(self, asked: FundPromotions, house_deposits: HouseDeposits) -> defer.Deferred:
        def checked(account: Any) -> dict | defer.Deferred:
            if account is None or account.closed or account.role != ADMIN:
                raise RuleViolation("forbidden", "only an admin can move house money into promotions", "STAFF-1")
            source, amount = asked.source, asked.amount
            if source not in SOURCES:
                raise RuleViolation("bad_field", f"promotions are funded from {', '.join(sorted(SOURCES))}, "
                                                 f"not {source}")
            if amount <= 0:
                raise RuleViolation("amount_out_of_range", f"a funding is a positive amount, not {amount}")
            if source == "deposit":                         # world moves; an admin is trusted only this far
                house_deposits.check(account.nickname, amount)
                house_deposits.made(account.nickname, amount)   # counted as asked: one asked meanwhile with it
            else:
                have = self.wallet.held(SOURCES[source])
                if have < amount:
                    raise RuleViolation("insufficient_funds", f"{source} holds {have}, not {amount}", "STAFF-1")

            def not_moved() -> None:
                if source == "deposit":
                    house_deposits.unmade(account.nickname, amount)

            try:                                            # locked: off the reactor with a money thread
                t = fund_promotions(self.wallet, self.recorder, source, amount, account.nickname, asked.reason)
            except BaseException:
                not_moved()
                raise

            def answered(t: Any) -> dict:
                return {"transfer": t.number, "balance": self.wallet.held(PROMOTIONS)}

            if isinstance(t, defer.Deferred):
                return t.addCallbacks(answered, lambda failure: (not_moved(), failure)[1])
            return answered(t)

        return self._account(asked.by).addCallback(checked)
