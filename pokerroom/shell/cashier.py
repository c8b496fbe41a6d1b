"""The cashier: money into and out of the room through a payment provider, and an admin's credit.

Theory of operation
-------------------
Every movement is a ledger transfer made through the wallet service, and
``world`` -- the outside -- moves only for ``deposit`` and ``withdrawal``
(STAFF-1). The wallet is the table process's: the cashier holds none and asks
each movement and balance on the bus (:mod:`pokerroom.shell.cashier_moves`
answers beside the wallet, reading again what makes each one due). Nothing is lost whatever order a crash cuts:

* **Deposit.** The player's stored account is read through the writer (so a
  limit or an exclusion set from any connection binds, AC-5); the request is
  refused for a closed, frozen or staff account, a restricted country (AC-2), a
  self-exclusion or the 24-hour limit (AC-5). Then a ``cashier_deposit_asked``
  record with the cashier's reference is stored -- *before* the provider is
  asked -- and only an approval credits the wallet (``world -> cash``, reason
  ``deposit``, the reference on the transfer). A provider that does not answer
  is asked again with the same reference, later and at the next start, until
  it approves (credited) or refuses: a charge the room took is always credited.
* **Withdrawal.** The amount leaves the wallet first, into the withdrawal's own
  ``payout:<reference>:<player>`` account, and that transfer is stored before
  the provider is asked: money the provider may be paying is never in the
  wallet too. Approved: ``payout -> world`` (``withdrawal``). Refused: back to
  the wallet. No answer: it stays held and is asked about again, later and at
  every start (each held ``payout`` balance names its reference and player).
  Only the wallet's cash is taken -- never chips at a table, a tournament entry
  or a casino stake -- and a restricted country (AC-2) or a self-exclusion
  (AC-5) does not stop a withdrawal; a frozen account (SEC-4) does.
* **Admin credit.** An admin credits a player's wallet with money the room
  received from outside, naming that payment, for a stated reason (a refund of
  a failed payment): ``world -> cash`` as a deposit, bounded with the house
  deposits (:mod:`house_deposits`), audited with who, whom, how much, why and
  which payment; it only ever adds to a wallet.

One process settles. What is unanswered is asked again by one process of the
room: alone, this one; on leases (several processes), the holder of the lease
``cashier:settlements`` (:meth:`Cashier.settle_through`, held by the process's
lease keeper, taken over by another process when its holder dies). The holder
asks at start (or at its takeover) about every held withdrawal and unsettled
deposit, and schedules the retries; another process's request the provider
left unanswered is handed to it on the bus (``cashier.pending``), and whatever
that misses is found by the next holder's start. Two asks of one reference
(a former holder's late answer, a request's own answer beside a start) settle
it once: a withdrawal only while its payout account holds it, a deposit once
ever by its reference (the database checks under a lock, ``deposit_settled``).

Providers must be idempotent on the reference (:mod:`pokerroom.shell.payments`).
Each request is one at a time per player and rate-limited per player; amounts
are bounded by ``[cashier]``. Deposits and withdrawals at or above the AML
threshold are flagged by the wallet (AC-6); so is a day's run of smaller ones
that adds up to it (structuring).
"""

from __future__ import annotations

import secrets
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from twisted.internet import defer
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger
from twisted.python.failure import Failure

from pokerroom import players
from pokerroom.bus import NoResponder
from pokerroom.bus.records import (
    AdminCredit,
    CashierPending,
    DepositAllowed,
    DepositApproved,
    Frame,
    HeldRead,
    PayoutsRead,
    WalletRead,
    WithdrawalHold,
    WithdrawalSettled,
)
from pokerroom.bus.subjects import (
    CASHIER_PENDING,
    WALLET_BALANCE,
    WALLET_CREDIT,
    WALLET_DEPOSIT,
    WALLET_HELD,
    WALLET_HOLD,
    WALLET_MAY_DEPOSIT,
    WALLET_PAYOUTS,
    WALLET_SETTLE,
    player_stream,
)
from pokerroom.errors import RuleViolation
from pokerroom.gateway.throttle import BucketsByKey
from pokerroom.money.accounts import payout
from pokerroom.protocol.schema import Request, ok
from pokerroom.shell.payments import CashierBounds, Payment, PaymentProvider, as_payment

if TYPE_CHECKING:
    from pokerroom.bus import Bus
    from pokerroom.security.moderation import Moderation
    from pokerroom.shell.play_check import PlayCheck
    from pokerroom.shell.recorder import Recorder
    from pokerroom.shell.tenancy import Tenancy
    from pokerroom.store.room_store import RoomStore

DAY = 86_400.0
CASHIER, SETTLEMENTS = "cashier", "settlements"      # the lease of the one settling process: cashier:settlements
RETRY_FIRST, RETRY_MOST = 30.0, 3600.0       # seconds between asking a silent provider again (doubling)
ADMIN = "admin"


def new_reference(kind: str) -> str:
    """A cashier reference: unique, no colon (it names a payout account), short enough for a ledger row."""
    return f"{kind}-{secrets.token_hex(8)}"


class Cashier:
    log = Logger()

    def __init__(self, reactor: IReactorTime, store: RoomStore, recorder: Recorder, rules: players.AccountRules,
                 play_check: PlayCheck, moderation: Moderation, bus: Bus, provider: PaymentProvider,
                 bounds: CashierBounds) -> None:
        self.reactor = reactor
        self.store = store
        self.recorder = recorder                            # the store through the writer, the audit log, commits
        self.rules = rules
        self.play_check = play_check                        # who may play (AC-2's account check)
        self.moderation = moderation                        # the security team's freezes
        self.bus = bus                                      # a player's notices; the money, asked (cashier_moves)
        self.provider = provider
        self.bounds = bounds
        self.asks = BucketsByKey(bounds.requests_per_minute / 60, bounds.requests_burst)
        self.busy: set[str] = set()                         # players with a deposit or withdrawal being answered
        self.withdrawn: dict[str, deque] = {}               # player -> (at, amount) of the last day (AC-6)
        self.retrying: dict[str, Any] = {}                  # reference -> its scheduled retry (a DelayedCall)
        self.waits: dict[str, float] = {}                   # reference -> seconds before its next retry
        self.settling = True                                # this process asks again (alone; or the lease's holder)
        self.tenancy: Tenancy | None = None                 # on leases: where the settling lease is held
        self.pending: Any = None                            # the others' unanswered requests, heard

    def settle_through(self, tenancy: Tenancy) -> None:
        """On leases: only the holder of ``cashier:settlements`` settles what is unanswered, asked for at start."""
        self.tenancy = tenancy
        self.settling = False
        tenancy.serve(CASHIER, self._take, self._drop)

    # ------------------------------------------------------------------ start

    def recover(self) -> None:
        """At start (after the ledger is loaded): the day's withdrawals (AC-6); then, alone, what is unanswered
        settled (:meth:`settle_unsettled`); on leases, the settling lease asked for (won: settled then)."""
        now = self.reactor.seconds()
        for player, amount, at in self.store.cashier.world_movements_since("withdrawal", now - DAY):
            self._remember(self.withdrawn, player, amount, at)
        self.pending = self.bus.subscribe(CASHIER_PENDING, self._heard_pending)
        if self.tenancy is None:
            self.settle_unsettled()
            return
        self.tenancy.hold(CASHIER, SETTLEMENTS).addErrback(
            lambda failure: self.log.failure("asking for the cashier's settling lease failed", failure))

    def _take(self, _: str) -> None:
        """This process holds ``cashier:settlements`` now (won at start, or taken over from one that died)."""
        self.log.info("this process settles the cashier's unanswered deposits and withdrawals")
        self.settling = True
        self.settle_unsettled()

    def _drop(self, _: str) -> None:
        """The lease is another process's now: no more retries here (its holder asks about what is unsettled)."""
        self.settling = False
        self._cancel_retries()

    def _heard_pending(self, _: str, pending: CashierPending) -> None:
        if self.settling:
            self._retry(pending.kind, pending.player, pending.amount, pending.reference)

    def settle_unsettled(self) -> None:
        """Every held withdrawal and every deposit the provider was asked about without an answer stored, asked
        again with its reference."""

        def held(read: dict) -> None:
            for player, reference, amount in read["held"]:
                self._settle_withdrawal(player, amount, reference, True)

        self.bus.request(WALLET_PAYOUTS, PayoutsRead()).addCallback(held).addErrback(
            lambda failure: self.log.failure("the held withdrawals were not read", failure))
        # the deposits' records read on the writer's thread: at a live takeover of the settling lease the reactor
        # must not wait on a read of every deposit ever asked (its own lease renewals run on it)
        unsettled = self.recorder.write(self._unsettled_deposits, quiet=False)
        unsettled.addCallback(self._ask_again).addErrback(
            lambda failure: self.log.failure("the unsettled deposits were not read", failure))

    def _unsettled_deposits(self) -> list[tuple[str, int, str]]:
        """(player, amount, reference) of each deposit the provider was asked about with no answer stored: neither
        refused nor credited."""
        answered = {r.data.get("reference") for r in self.store.audit_log.audit_records("cashier_deposit_refused")}
        asked = [r for r in self.store.audit_log.audit_records("cashier_deposit_asked")
                 if r.data.get("reference") not in answered]
        credited = self.store.cashier.transfer_references("deposit", [r.data["reference"] for r in asked])
        return [(r.data["player"], int(r.data["amount"]), r.data["reference"]) for r in asked
                if r.data["reference"] not in credited]

    def _ask_again(self, deposits: list[tuple[str, int, str]]) -> None:
        for player, amount, reference in deposits:
            self._settle_deposit(player, amount, reference, True)

    # ------------------------------------------------------------------ the requests

    def _on_deposit(self, session: Any, request: Request, amount: int) -> defer.Deferred:
        player = session.player_id
        self._admit(player, amount, self.bounds.min_deposit, self.bounds.max_deposit, "deposit")
        d = self.play_check.account(player)

        def allowed(account: Any) -> defer.Deferred:
            self._may_deposit(account)
            limits = self.bus.request(WALLET_MAY_DEPOSIT, DepositAllowed(player, amount))   # AC-5, by the wallet
            return limits.addCallback(lambda _: asked())

        def asked() -> defer.Deferred:
            reference = new_reference("d")
            data = {"player": player, "amount": amount, "reference": reference, "provider": self.provider.name}
            stored = self.recorder.write(self.store.audit, "cashier_deposit_asked", data,
                                         self.reactor.seconds(), quiet=False)    # before the provider is asked
            return stored.addCallback(lambda _: self._settle_deposit(player, amount, reference))

        def answered(outcome: tuple[str, Any]) -> defer.Deferred:
            status, detail = outcome
            if status == "refused":
                raise RuleViolation("payment_refused", f"the payment service refused the deposit: {detail}")
            if status == "pending":
                raise RuleViolation("payment_unavailable", "the payment service did not answer; nothing is credited "
                                    "yet: if your payment was taken, it is credited once the service answers")
            return self._balance(player).addCallback(
                lambda balance: ok(request, amount=amount, reference=detail.reference, balance=balance))

        d.addCallback(allowed).addCallback(self._landed).addCallback(answered)
        return self._one_at_a_time(player, d)

    def _on_withdraw(self, session: Any, request: Request, amount: int) -> defer.Deferred:
        player = session.player_id
        self._admit(player, amount, self.bounds.min_withdrawal, self.bounds.max_withdrawal, "withdrawal")
        d = self.play_check.account(player)

        def allowed(account: Any) -> defer.Deferred:
            if account.closed:
                raise RuleViolation("account_closed", "this account is closed", "AC-1")
            if account.frozen or player in self.moderation.frozen:
                raise RuleViolation("account_frozen", "your account is frozen while the security team reviews it: "
                                    "no money leaves it until then; contact support", "SEC-4")
            reference = new_reference("w")
            # the funds read and the hold stored by the wallet's side, before the provider is asked
            hold = self.bus.request(WALLET_HOLD, WithdrawalHold(player, amount, reference))
            return hold.addCallback(lambda _: self._settle_withdrawal(player, amount, reference))

        def answered(outcome: tuple[str, Any]) -> defer.Deferred:
            status, detail = outcome
            if status == "refused":
                raise RuleViolation("payment_refused", f"the payment service refused the withdrawal: {detail}; "
                                                       "the money is back in your wallet")
            return self._balance(player).addCallback(
                lambda balance: ok(request, amount=amount, reference=detail.reference if status == "paid" else detail,
                                   status=status, balance=balance))

        d.addCallback(allowed).addCallback(self._landed).addCallback(answered)
        return self._one_at_a_time(player, d)

    def _on_admin_credit(self, session: Any, request: Request, player: str, amount: int, reason: str,
                         payment: str) -> defer.Deferred:
        """An admin credits a wallet with money the room received from outside -- ``payment`` names it (a refund of
        a payment the provider took while the deposit failed) -- bounded with the house deposits, audited, never a
        debit (STAFF-1: no staff command creates money; STAFF-2: none takes it)."""
        by = session.player_id
        if session.role != ADMIN:
            raise RuleViolation("forbidden", "only an admin can credit a wallet", "STAFF-1")

        def refused(refusal: RuleViolation, name: str) -> RuleViolation:
            self.recorder.audit("staff_refused", by=by, command="admin_credit", code=refusal.code,
                                reason=refusal.message, player=name, amount=amount)
            return refusal

        def found(account: Any) -> defer.Deferred:
            name = account.nickname
            if account.closed:
                raise refused(RuleViolation("account_closed", f"{name}'s account is closed", "AC-1"), name)
            if account.role in players.SECURITY_ROLES or players.nickname_key(name) == players.nickname_key(by):
                raise refused(RuleViolation("staff_may_not_play", f"{name} is a staff account: staff are not "
                                            "credited, and no admin credits themselves", "STAFF-1"), name)
            # the wallet's side reads both accounts and the house deposits' bounds again, then credits
            d = self.bus.request(WALLET_CREDIT, AdminCredit(name, amount, by, reason, payment))

            def failed(failure: Failure) -> Failure:
                if failure.check(NoResponder):
                    raise RuleViolation("forbidden", "this room has no house deposits to bound a credit by",
                                        "STAFF-1")
                if failure.check(RuleViolation):
                    raise refused(failure.value, name)
                return failure

            return d.addCallbacks(lambda credited: credit_done(name, credited), failed)

        def credit_done(name: str, credited: dict) -> dict:
            self._structuring(name, "deposit", list(credited["today"]))
            return ok(request, player=name, amount=amount, reference=credited["reference"],
                      transfer=credited["transfer"], balance=credited["balance"])

        return self.play_check.account(player).addCallback(found)

    # ------------------------------------------------------------------ checks

    def _admit(self, player: str, amount: int, low: int, high: int, what: str) -> None:
        """Bounds, one request at a time, a few a minute: a client hammering the cashier costs it nothing."""
        if not low <= amount <= high:
            raise RuleViolation("amount_out_of_range", f"a {what} is {low} to {high}, not {amount}")
        if player in self.busy:
            raise RuleViolation("cashier_busy", "your last deposit or withdrawal is still being answered")
        if not self.asks.take(player, self.reactor.seconds()):
            raise RuleViolation("cashier_too_fast", f"at most {self.bounds.requests_per_minute:g} deposits and "
                                                    "withdrawals a minute; wait a little")

    def _may_deposit(self, account: Any) -> None:
        """Who may bring money in: not closed, staff, frozen, restricted (AC-2) or excluded/over limit (AC-5)."""
        if account.closed:
            raise RuleViolation("account_closed", "this account is closed", "AC-1")
        if account.role in players.SECURITY_ROLES:
            raise RuleViolation("staff_may_not_play", "security and admin accounts do not play or deposit", "SEC-2")
        if account.frozen or account.nickname in self.moderation.frozen:
            raise RuleViolation("account_frozen", "your account is frozen while the security team reviews it; "
                                                  "contact support", "SEC-4")
        if account.country not in self.rules.countries:
            raise RuleViolation("restricted_country", f"deposits from {account.country} are not allowed any more; "
                                                      "you may still withdraw", "AC-2")

    def _balance(self, player: str) -> defer.Deferred:
        """The player's cash as the wallet holds it now (the table process's: asked)."""
        return self.bus.request(WALLET_BALANCE, WalletRead(player)).addCallback(lambda read: read["balance"])

    def _landed(self, outcome: Any) -> defer.Deferred:
        """``outcome`` once every write asked for so far has committed: an answer never shows money the store
        could still lose (docs/operations.md, "Durable before visible")."""
        return self.recorder.landed().addCallback(lambda _: outcome)

    def _announce(self, player: str, kind: str, reference: str, amount: int, status: str) -> None:
        """A settlement nobody's request is waiting for (a retry, a restart): a ``cashier`` push on the player's
        stream once it is stored (lost if they are offline: their wallet shows it at the next login)."""
        def push(balance: int) -> None:
            message = {"type": "cashier", "kind": kind, "reference": reference, "amount": amount, "status": status,
                       "balance": balance}
            self.bus.publish(player_stream(player), Frame.of(message))

        self.recorder.landed().addCallback(lambda _: self._balance(player)).addCallback(push)

    def _one_at_a_time(self, player: str, d: defer.Deferred) -> defer.Deferred:
        self.busy.add(player)

        def done(result: Any) -> Any:
            self.busy.discard(player)
            return result

        return d.addBoth(done)

    # ------------------------------------------------------------------ the provider's answers

    def _ask(self, ask: Callable[[str, int, str], Any], player: str, amount: int, reference: str) -> defer.Deferred:
        """The provider's :class:`Payment`, or None when it fails or is silent past ``provider_seconds``."""
        d = defer.maybeDeferred(ask, player, amount, reference)
        d.addTimeout(self.bounds.provider_seconds, self.reactor)

        def failed(failure: Any) -> None:
            self.log.failure("the payment provider failed on {reference}", failure, reference=reference)
            return None

        return d.addCallback(as_payment).addErrback(failed)

    def _settle_deposit(self, player: str, amount: int, reference: str, announce: bool = False) -> defer.Deferred:
        """Ask until answered: ("credited", Payment), ("refused", reason) or, while silent, ("pending", reference);
        ``announce``: no request waits for the answer, so the player is told with a push."""
        def answered(payment: Payment | None) -> Any:
            if payment is None:
                self._retry("deposit", player, amount, reference)
                return "pending", reference
            self.waits.pop(reference, None)
            if not payment.approved:
                self.recorder.audit("cashier_deposit_refused", player=player, amount=amount, reference=reference,
                                    reason=payment.reason)
                if announce:
                    self._announce(player, "deposit", reference, amount, "refused")
                return "refused", payment.reason or "no reason given"
            credit = self.bus.request(WALLET_DEPOSIT, DepositApproved(player, amount, reference))
            return credit.addCallbacks(credited, settled_meanwhile, callbackArgs=(payment,))

        def settled_meanwhile(failure: Failure) -> Any:
            failure.trap(RuleViolation)
            if failure.value.code != "deposit_settled":    # credited by a retry and a start overlapping
                return failure
            return "pending", reference

        def credited(done: dict, payment: Payment) -> tuple[str, Any]:
            self.recorder.audit("cashier_deposit", player=player, amount=amount, reference=reference,
                                provider=self.provider.name, provider_reference=payment.provider_reference,
                                transfer=done["transfer"])
            self._structuring(player, "deposit", list(done["today"]))
            if announce:
                self._announce(player, "deposit", reference, amount, "credited")
            return "credited", _Done(reference, payment)

        return self._ask(self.provider.authorise_deposit, player, amount, reference).addCallback(answered)

    def _settle_withdrawal(self, player: str, amount: int, reference: str, announce: bool = False) -> defer.Deferred:
        """Ask until answered: ("paid", done), ("refused", reason: the money is back) or ("pending", reference);
        ``announce`` as for deposits."""
        held = payout(reference, player)

        def answered(payment: Payment | None) -> defer.Deferred:
            read = self.bus.request(WALLET_HELD, HeldRead((held,)))
            return read.addCallback(lambda found: decided(payment, found["held"][held]))

        def decided(payment: Payment | None, holding: int) -> Any:
            if holding != amount:                   # settled meanwhile (a retry and a start overlapping)
                return "pending", reference
            if payment is None:
                self._retry("withdrawal", player, amount, reference)
                return "pending", reference
            self.waits.pop(reference, None)
            settle = self.bus.request(WALLET_SETTLE, WithdrawalSettled(player, amount, reference, payment.approved))
            return settle.addCallback(settled, payment)

        def settled(done: dict, payment: Payment) -> tuple[str, Any]:
            if not done["settled"]:
                return "pending", reference
            if not payment.approved:
                self.recorder.audit("cashier_withdrawal_refused", player=player, amount=amount, reference=reference,
                                    reason=payment.reason, transfer=done["transfer"])
                if announce:
                    self._announce(player, "withdrawal", reference, amount, "returned")
                return "refused", payment.reason or "no reason given"
            self.recorder.audit("cashier_withdrawal", player=player, amount=amount, reference=reference,
                                provider=self.provider.name, provider_reference=payment.provider_reference,
                                transfer=done["transfer"])
            self._remember(self.withdrawn, player, amount, self.reactor.seconds())
            self._structuring(player, "withdrawal")
            if announce:
                self._announce(player, "withdrawal", reference, amount, "paid")
            return "paid", _Done(reference, payment)

        return self._ask(self.provider.pay_out, player, amount, reference).addCallback(answered)

    def _retry(self, kind: str, player: str, amount: int, reference: str) -> None:
        """Ask a silent provider again later, doubling the wait (one retry scheduled per reference) -- here if
        this process settles, else by the one that does (handed to it on the bus)."""
        if not self.settling:
            self.bus.publish(CASHIER_PENDING, CashierPending(kind, player, amount, reference))
            return
        if reference in self.retrying:
            return
        waits = self.waits.setdefault(reference, RETRY_FIRST)
        self.waits[reference] = min(RETRY_MOST, waits * 2)
        settle = self._settle_deposit if kind == "deposit" else self._settle_withdrawal

        def run() -> None:
            self.retrying.pop(reference, None)
            if self.settling:
                settle(player, amount, reference, True)

        self.retrying[reference] = self.reactor.callLater(waits, run)

    def stop(self) -> None:
        """No more retries in this process (what is still unanswered is asked again at the next start)."""
        if self.pending is not None:
            self.pending.cancel()
            self.pending = None
        self._cancel_retries()

    def _cancel_retries(self) -> None:
        for call in self.retrying.values():
            if call.active():
                call.cancel()
        self.retrying.clear()

    # ------------------------------------------------------------------ AML (AC-6)

    def _structuring(self, player: str, what: str, deposits: list[int] | None = None) -> None:
        """AC-6: a day's deposits (``deposits``, as the wallet counts them) or withdrawals that reach the AML
        threshold only together -- each below it -- raise a flag once the sum crosses it (a single large one is
        flagged by the wallet)."""
        threshold = self.rules.aml_threshold
        if deposits is not None:
            recent = deposits
        else:
            now = self.reactor.seconds()
            recent = [a for at, a in self.withdrawn.get(player, ()) if at > now - DAY]
        if len(recent) < 2 or recent[-1] >= threshold:
            return
        total, before = sum(recent), sum(recent[:-1])
        if before < threshold <= total:
            self.recorder.audit("aml_flag", pattern="structured", player=player, what=what, count=len(recent),
                                total=total, threshold=threshold)

    def _remember(self, memory: dict[str, deque], player: str, amount: int, at: float) -> None:
        recent = memory.setdefault(player, deque())
        recent.append((at, amount))
        while recent and recent[0][0] <= at - DAY:
            recent.popleft()


class _Done:
    """A settled request: the cashier's reference and the provider's answer."""

    __slots__ = ("reference", "payment")

    def __init__(self, reference: str, payment: Payment) -> None:
        self.reference = reference
        self.payment = payment
