"""The wallet of a room on several processes: shared accounts' money moves under the database's lock.

Theory of operation
-------------------
With one process, the wallet's in-memory ledger is the truth of every
balance. With several over one PostgreSQL database, each process would
believe a player's whole balance is its own. So the accounts split in two
(:data:`~pokerroom.money.accounts.SHARED_KINDS`):

* **shared** -- a player's wallet, T$ and tickets, a withdrawal's payout, the
  room's own (world, the house's): any process may move them, and their truth
  is their ``ledger_balances`` row;
* **escrow** -- a table's chips, a casino round's stakes, a tournament's pools:
  the one process that owns the table or the event keeps them in memory, exact,
  as the single-process wallet does.

A transfer that takes money out of a shared account that may not owe (a
buy-in, a registration, a stake, a withdrawal's hold, a promotions funding)
could spend a balance another process is spending: it is stored at once, in
one transaction that locks the rows of its accounts, refuses the overdraft and
writes it (:meth:`~pokerroom.store.ledger_records.LedgerRecords.post_locked`).
It comes back marked ``stored``, so the caller's own batch (a table's, a
round's, a step's, a rename's) does not write it again. A transfer that only
pays into shared accounts cannot overdraw them: it goes with what caused it,
as with one process (a hand's settlement and its rake, a round's settlement, a
tournament's prizes), the balance rows added to atomically. One the wallet
stores itself (a deposit, a credit) is stored at once too, so every process
sees it when the call returns. A shared account's balance is read from its row,
afresh; escrow balances from memory.

Transfer numbers are unique across processes: each process takes a block of
:data:`NUMBER_BLOCK` numbers at a time from the ``ledger_numbers`` row (locked
for it), so a move costs no round trip for its number and numbers never
collide; within a process they rise, across processes they interleave.

A command whose money leaves a wallet (a buy-in, a bet, an entry) runs inside
:meth:`SharedWallet.funding`: its payments are taken in one locked transaction
before it runs, its own moves take those transfers, and what it is refused goes
back -- so the funds checked and the money moved are one step.

On several processes a locked move that touches a table's, a casino round's
or an event's escrow is fenced by that lease, in its transaction
(:meth:`~pokerroom.store.lease_records.LeaseRecords.fenced`): a process that
lost the table moves nothing, the table stops here, and the command is
refused as for a table that is not here.

Where it runs. A locked move waits for its rows' locks, as long as another
process holds them: on the reactor thread a burst of sign-ups and buy-ins held
the reactor for seconds (lease renewals landed too late, p99 grew). With a
money thread (:meth:`SharedWallet.move_off_reactor`, a served room's), a command's
funding (:meth:`SharedWallet.funded`: a buy-in, chips added, a reseat, a casino
stake, a tournament entry, rebuy, add-on or share), a single locked move
(:meth:`SharedWallet.moved`: a withdrawal's hold and settlement, a promotions
funding), a credit (:meth:`SharedWallet.credited`) and the welcome deposit
(:meth:`SharedWallet.deposit_once`) run their transaction there and answer a
Deferred; the ledger here (numbers, escrow checks, what was kept) is read and
changed on the reactor only, before and after, so this process's copy of a
shared balance moves in commit order. What still moves on the reactor thread
(:meth:`move`, :meth:`transfer`, :meth:`funding`: a rename's, a takeover's
escrow recovery) is one transaction there, as is everything of a test's room
without threads (docs/architecture.md, money across processes).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from functools import partial

from twisted.internet import defer, threads
from twisted.internet.interfaces import IReactorTime
from twisted.python.failure import Failure
from twisted.python.threadpool import ThreadPool

from pokerroom import players
from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import SHARED, WORLD, cash, is_shared
from pokerroom.money.ledger import MAY_OWE, Ledger, Posting, Transfer, check_postings
from pokerroom.shell.recorder import Recorder
from pokerroom.shell.wallet import Limits, Wallet, short_of_funds
from pokerroom.store.lease_records import LeaseLost

NUMBER_BLOCK = 100                  # transfer numbers a process takes at a time


class SharedWallet(Wallet):
    """The wallet for a room on several processes over one database (see the module's docstring)."""

    escrow_elsewhere = True             # a table's or event's escrow is its owner's, perhaps another process's

    def __init__(self, recorder: Recorder, reactor: IReactorTime, account_rules: players.AccountRules) -> None:
        super().__init__(recorder, reactor, account_rules)
        self.ledger_store = recorder.store.ledger
        self._numbers: Iterator[int] = iter(())
        self._prepaid: dict[tuple[str, str, int], Transfer] = {}   # what a command's money took before it ran
        self.money: ThreadPool | None = None   # the money thread: locked moves off the reactor (None: inline)
        self._ledger.share(SHARED, self._next_number)

    def move_off_reactor(self, money: ThreadPool) -> None:
        """From now on the welcome and the cash buy-ins take their locked transactions on ``money`` (a served
        room's money thread), answering Deferreds."""
        self.money = money

    def prepare(self, ledger: Ledger) -> Ledger:
        """Shared accounts guarded by the database, and numbers from its blocks -- crash recovery's transfers too,
        so they never take a number another process holds."""
        ledger.share(SHARED, self._next_number)
        return ledger

    def load(self, ledger: Ledger, deposits: list[tuple[str, int, float]], recovered: Iterable[Transfer] = ()) -> None:
        super().load(self.prepare(ledger), deposits, recovered)

    def _next_number(self) -> int:
        number = next(self._numbers, None)
        if number is None:
            self._numbers = iter(self.ledger_store.reserve_numbers(NUMBER_BLOCK))
            number = next(self._numbers)
        return number

    # ------------------------------------------------------------------ reading: shared accounts from their rows

    def balance(self, player_id: str) -> int:
        return self.held(cash(player_id))

    def held(self, account: str) -> int:
        if is_shared(account):
            return self.ledger_store.balances((account,))[account]
        return self._ledger.balance(account)

    def verify_funds(self, player_id: str, amount: int) -> None:
        have = self.balance(player_id)
        if have < amount:
            raise short_of_funds(have, amount).priced(self.currency)

    # ------------------------------------------------------------------ moving money

    def move(self, source: str, target: str, amount: int, reason: str, reference: str, *,
             store: bool = True) -> Transfer:
        if type(amount) is not int or amount <= 0:
            raise RuleViolation("bad_amount", f"an amount is a positive whole number of minor units, not {amount!r}")
        return self.transfer((Posting(source, -amount), Posting(target, amount)), reason, reference, store=store)

    def moved(self, source: str, target: str, amount: int, reason: str, reference: str, *,
              store: bool = True) -> Transfer | defer.Deferred:
        """:meth:`move`; with a money thread, a locked one (money out of a shared account, or stored by the wallet)
        answers a Deferred of the transfer, its transaction on that thread."""
        if self.money is None or type(amount) is not int or amount <= 0:
            return self.move(source, target, amount, reason, reference, store=store)
        merged = check_postings((Posting(source, -amount), Posting(target, amount)))
        if not _locks(merged, store):
            return self.move(source, target, amount, reason, reference, store=store)
        return self._post_later([(merged, reason)], reference).addCallback(lambda transfers: transfers[0])

    def transfer(self, postings: Iterable[Posting], reason: str, reference: str, *, store: bool = True) -> Transfer:
        merged = check_postings(postings)
        if self._prepaid and len(merged) == 2:
            paid, taken = sorted(merged, key=lambda p: p.amount)
            prepaid = self._prepaid.pop((paid.account, taken.account, taken.amount), None)
            if prepaid is not None:                 # the command's money, moved before it ran (:meth:`funding`)
                return prepaid
        if not _locks(merged, store):
            return super().transfer(merged, reason, reference, store=store)
        return self._post_locked(merged, reason, reference)

    def _post_locked(self, merged: tuple[Posting, ...], reason: str, reference: str) -> Transfer:
        return self._post_all_locked([(merged, reason)], reference)[0]

    def deposit_once(self, player_id: str, amount: int, limits: Limits | None, reference: str,
                     refused: RuleViolation) -> Transfer | defer.Deferred:
        """The deposit paid once ever by its reference, across processes: the database checks that no deposit of
        it is stored, under a lock on the reference, in the transaction that stores this one (``refused`` if one
        is). With a money thread: a Deferred of the transfer."""
        self.check_deposit(player_id, amount, limits)
        made = [(check_postings((Posting(WORLD, -amount), Posting(cash(player_id), amount))), "deposit")]
        if self.money is not None:                  # off the reactor: a Deferred of the transfer
            return self._post_later(made, reference, once=refused).addCallback(self._deposited, player_id, amount)
        return self._deposited(self._post_all_locked(made, reference, once=refused), player_id, amount)

    def credited(self, player_id: str, amount: int, reference: str) -> Transfer | defer.Deferred:
        """:meth:`credit`; with a money thread, a Deferred of the transfer, its transaction on that thread."""
        if self.money is None:
            return self.credit(player_id, amount, reference)
        moved = self.moved(WORLD, cash(player_id), amount, "deposit", reference)
        return moved.addCallback(lambda t: self._deposited([t], player_id, amount))

    def _deposited(self, transfers: list[Transfer], player_id: str, amount: int) -> Transfer:
        self._remember_deposit(player_id, amount, transfers[0].at)
        return transfers[0]

    def _post_all_locked(self, made: list[tuple[tuple[Posting, ...], str]], reference: str, *,
                         once: RuleViolation | None = None) -> list[Transfer]:
        """Escrow checked here, shared accounts locked and checked in the database, all in one transaction:
        stored there, kept here, flagged (AC-6); ``once``: see :meth:`LedgerRecords.post_locked`."""
        asked = self._asked(made, reference)
        try:
            self._lock_and_store(*asked, once)
        except LeaseLost as lost:                   # another process plays the table now: nothing moved
            raise self._lost(lost) from None
        return self._kept(asked[0])

    def _post_later(self, made: list[tuple[tuple[Posting, ...], str]], reference: str, *,
                    once: RuleViolation | None = None) -> defer.Deferred:
        """:meth:`_post_all_locked` with its transaction on the money thread: the reactor turns while the rows'
        locks are waited for; the ledger here is read and kept on the reactor, before and after."""
        try:
            asked = self._asked(made, reference)
        except RuleViolation:
            return defer.fail()
        d = threads.deferToThreadPool(self.reactor, self.money, self._lock_and_store, *asked, once)
        d.addCallbacks(lambda _: self._kept(asked[0]), self._lost_later)
        return d

    def _asked(self, made: list[tuple[tuple[Posting, ...], str]],
               reference: str) -> tuple[list[Transfer], set[str], tuple]:
        """The transfers numbered and their escrow checked here, the accounts the database guards, the fences."""
        ledger, at = self._ledger, self.reactor.seconds()
        for merged, _ in made:
            ledger.verify(merged)
        transfers = [Transfer(ledger.next_number(), merged, reason, reference, at) for merged, reason in made]
        guarded = {p.account for t in transfers for p in t.postings
                   if p.amount < 0 and p.account not in MAY_OWE and is_shared(p.account)}
        return transfers, guarded, self._fences(transfers)

    def _lock_and_store(self, transfers: list[Transfer], guarded: set[str], fences: tuple,
                        once: RuleViolation | None) -> None:
        """The one transaction (any thread: it touches only the store): a leased table's escrow fenced in it."""
        post = partial(self.ledger_store.post_locked, once=once)
        if fences:
            self.recorder.store.leases.fenced(fences, post, transfers, guarded)
        else:
            post(transfers, guarded)

    def _kept(self, transfers: list[Transfer]) -> list[Transfer]:
        transfers = [replace(t, stored=True) for t in transfers]
        for t in transfers:
            self._ledger.posted(t)
        self._recorded(tuple(transfers), store=False)
        return transfers

    def _lost(self, lost: LeaseLost) -> RuleViolation:
        self.recorder.refused(lost)                 # the table stops here, as a lost lease does
        return _moved(lost.resource)

    def _lost_later(self, failure: Failure) -> Failure:
        if failure.check(LeaseLost):
            raise self._lost(failure.value)
        return failure

    def funded(self, source: str, legs: Sequence[tuple[str, int, str]], reference: str,
               run: Callable[[int], object], *, verify: bool = True) -> object:
        """:meth:`funding` around ``run(funds)``; with a money thread, a Deferred of its result: the legs taken in
        one locked transaction there, ``run`` on the reactor once they are (its moves take them), and what it
        is refused or leaves given back there too, before the Deferred fires."""
        if self.money is None or not _takes(legs):
            return super().funded(source, legs, reference, run, verify=verify)

        def taken(transfers: list[Transfer]) -> defer.Deferred:
            keys = self._prepay(source, legs, transfers)
            ran = defer.maybeDeferred(run, self.held(source) + _total(legs))
            ran.addBoth(lambda result: self._given_back(keys, legs, reference).addCallback(lambda _: result))
            return ran

        def short(failure: Failure) -> object:
            failure.trap(RuleViolation)
            return run(self._short_of(failure.value, source, legs, verify))

        return self._post_later(_taking(source, legs), reference).addCallbacks(taken, short)

    def _given_back(self, keys: list[tuple[str, str, int]], legs: Sequence[tuple[str, int, str]],
                    reference: str) -> defer.Deferred:
        """What a command did not move of its funding, back to its source in one locked transaction (off the
        reactor); nothing to give back: fired at once."""
        back = self._unspent(keys, legs)
        return self._post_later(back, reference) if back else defer.succeed(None)

    @contextmanager
    def funding(self, source: str, legs: Sequence[tuple[str, int, str]], reference: str, *,
                verify: bool = True) -> Iterator[int]:
        """The check and the move in one locked transaction: every leg goes from ``source`` to its target before
        the command runs, the command's own moves of them take those transfers, and what the command is refused
        (or does not move) goes back. Yields the funds the command may count on: what was taken plus what is
        left. Short of the money: refused here (``verify``), or the command runs with the funds there are and
        its table or director refuses it in its own words and order (a casino bet's limits before its funds)."""
        if not _takes(legs):
            yield self.held(source)                     # nothing to take: the command refuses it in its words
            return
        try:
            taken = self._post_all_locked(_taking(source, legs), reference)
        except RuleViolation as refused:
            yield self._short_of(refused, source, legs, verify)
            return
        keys = self._prepay(source, legs, taken)
        try:
            yield self.held(source) + _total(legs)
        finally:
            back = self._unspent(keys, legs)
            if back:
                self._post_all_locked(back, reference)

    # the steps :meth:`funding` and :meth:`funded` share: taken, kept for the command's moves, short, given back

    def _prepay(self, source: str, legs: Sequence[tuple[str, int, str]],
                taken: list[Transfer]) -> list[tuple[str, str, int]]:
        """The legs' transfers, taken before the command ran, kept for its own moves of them (:meth:`transfer`)."""
        keys = [(source, target, amount) for target, amount, _ in legs]
        self._prepaid.update(zip(keys, taken, strict=True))
        return keys

    def _short_of(self, refused: RuleViolation, source: str, legs: Sequence[tuple[str, int, str]],
                  verify: bool) -> int:
        """The funding refused: short of the money, refused in the wallet's words (``verify``) or the funds there
        are, for the command to refuse in its own; any other refusal (a table moved away) raised as it is."""
        if refused.code != "insufficient_funds":
            raise refused
        if verify:
            raise short_of_funds(self.held(source), _total(legs)).priced(self.currency) from None
        return self.held(source)

    def _unspent(self, keys: list[tuple[str, str, int]],
                 legs: Sequence[tuple[str, int, str]]) -> list[tuple[tuple[Posting, ...], str]]:
        """What the command did not move of its funding (refused, or moved less): each leg back to its source."""
        return [(check_postings((Posting(target, -amount), Posting(source, amount))), reason + " returned")
                for (source, target, amount), (_, _, reason) in zip(keys, legs, strict=True)
                if self._prepaid.pop((source, target, amount), None) is not None]


def _takes(legs: Sequence[tuple[str, int, str]]) -> bool:
    """Whether a funding takes anything: legs of positive whole amounts (else the command refuses it itself)."""
    return bool(legs) and all(type(amount) is int and amount > 0 for _, amount, _ in legs)


def _total(legs: Sequence[tuple[str, int, str]]) -> int:
    return sum(amount for _, amount, _ in legs)


def _taking(source: str, legs: Sequence[tuple[str, int, str]]) -> list[tuple[tuple[Posting, ...], str]]:
    """A funding's legs as the transfers that take them from ``source``."""
    return [(check_postings((Posting(source, -amount), Posting(target, amount))), reason)
            for target, amount, reason in legs]


def _locks(merged: tuple[Posting, ...], store: bool) -> bool:
    """Whether a transfer is stored under the lock now: it takes money out of a shared account that may not owe,
    or it is the wallet's own to store and touches a shared account (seen by every process when it returns)."""
    for p in merged:
        if is_shared(p.account) and (store or (p.amount < 0 and p.account not in MAY_OWE)):
            return True
    return False


def _moved(leased: str) -> RuleViolation:
    """The refusal of a move whose table another process took over (its lease's fence refused it)."""
    kind = leased.partition(":")[0]
    if kind == "casino":
        return RuleViolation("unknown_table", "that casino table is played by another process now: ask again")
    if kind == "tournament":
        return RuleViolation("unknown_tournament", "that tournament is directed by another process now: ask again")
    return RuleViolation("no_such_table", "that table is played by another process now: ask again")

