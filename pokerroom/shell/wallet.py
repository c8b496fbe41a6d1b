"""The wallet: the one path money takes, and the only holder of the room's ledger.

Theory of operation
-------------------
The ledger is private to the wallet. Every movement -- cash tables,
tournaments, the casino, the cashier, promotions, the security desk -- is one
of the wallet's mutators (:meth:`~Wallet.move`, :meth:`~Wallet.transfer`,
:meth:`~Wallet.settle_hand`, :meth:`~Wallet.deposit`, :meth:`~Wallet.credit`),
and each of them, before it returns, has the transfer stored and the large
ones flagged (AC-6): no caller can move money and forget either. A caller that
stores the transfer in a transaction of its own, with what caused it (a
tournament's step, a casino round, a rename), says ``store=False``; a hand's
settlement is stored with the hand by the recorder. Everything else reads:
:meth:`~Wallet.balance`, :meth:`~Wallet.held` and :attr:`~Wallet.books`.

Deposits check the player's own limits (AC-5) as the store holds them, passed
in by the caller that read the account -- never a connection's session, so a
player with no session in this process is held to the same limits. The
ledger lives in memory; the store has every transfer, and the ledger is
loaded from it at start, after crash recovery. A room on several processes
uses :class:`~pokerroom.shell.shared_wallet.SharedWallet`, the same mutators
with wallets' money moved under the database's lock.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Protocol

from twisted.internet.defer import Deferred
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

from pokerroom import players
from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import WORLD, Kind, cash, is_shared, parse
from pokerroom.money.ledger import Ledger, LedgerView, Posting, Transfer
from pokerroom.shell.recorder import Recorder
from pokerroom.store.lease_records import Fence

LEDGER_KEEP = 1_000                 # transfers kept in memory; the store has them all
DAY = 86_400.0
_LEASED = {Kind.TABLE: "cash", Kind.CASINO: "casino", Kind.TOURNAMENT: "tournament"}   # escrow kind -> its lease


class Limits(Protocol):
    """A player's own limits as the store holds them (an account row): what a deposit is checked against (AC-5)."""

    @property
    def excluded_until(self) -> float | None: ...

    @property
    def deposit_limit(self) -> int | None: ...


class Wallet:
    currency = "USD"                            # the unit of every wallet: the cash tables' (config/room.toml)
    escrow_elsewhere = False                    # one process: every table's and event's escrow is in this ledger

    log = Logger()

    def __init__(self, recorder: Recorder, reactor: IReactorTime, account_rules: players.AccountRules) -> None:
        self.recorder = recorder
        self.reactor = reactor
        self.account_rules = account_rules
        self._ledger = Ledger(LEDGER_KEEP)
        self._deposits: dict[str, deque] = {}   # player -> (at, amount) of the last day (AC-5)

    def prepare(self, ledger: Ledger) -> Ledger:
        """The ledger as stored, made ready for this wallet before crash recovery posts to it (here: as it is)."""
        return ledger

    def load(self, ledger: Ledger, deposits: list[tuple[str, int, float]], recovered: Iterable[Transfer] = ()) -> None:
        """At start: the ledger as stored, the last day's deposits, and the transfers crash recovery made (stored
        by it already; flagged here, AC-6)."""
        self._ledger = ledger
        for player, amount, at in deposits:
            self._remember_deposit(player, amount, at)
        self._recorded(tuple(recovered), store=False)

    # ------------------------------------------------------------------ reading

    def balance(self, player_id: str) -> int:
        """A player's cash balance (what a buy-in, a stake or a registration is checked against)."""
        return self._ledger.balance(cash(player_id))

    def held(self, account: str) -> int:
        """What any account holds (a guarantee, promotions, a withdrawal's payout, a ticket)."""
        return self._ledger.balance(account)

    @property
    def books(self) -> LedgerView:
        """The ledger to read: balances, the recent transfers, :meth:`~pokerroom.money.ledger.Ledger.check`."""
        return LedgerView(self._ledger)

    def verify_funds(self, player_id: str, amount: int) -> None:
        have = self._ledger.balance(cash(player_id))
        if have < amount:
            raise short_of_funds(have, amount).priced(self.currency)

    def funded(self, source: str, legs: Sequence[tuple[str, int, str]], reference: str,
               run: Callable[[int], object], *, verify: bool = True) -> object:
        """``run(funds)`` inside :meth:`funding`, its result: here at once, on the calling thread; a room on
        several processes with a money thread answers a Deferred of it (its locked move off the reactor)."""
        with self.funding(source, legs, reference, verify=verify) as funds:
            return run(funds)

    @contextmanager
    def funding(self, source: str, legs: Sequence[tuple[str, int, str]], reference: str, *,
                verify: bool = True) -> Iterator[int]:
        """The money a command (a buy-in, chips added, a casino bet, a tournament entry) moves from ``source`` as
        it runs, as ``(target, amount, reason)`` legs: here, checked before it runs (``verify``; False: the table
        or the director checks the funds it is given), the command's own batch moving it (one process: nothing
        runs between); a room on several processes moves it first, under the database's lock
        (:class:`~pokerroom.shell.shared_wallet.SharedWallet`). Yields the funds the command may count on."""
        have = self.held(source)
        need = sum(amount for _, amount, _ in legs)
        if verify and have < need:
            raise short_of_funds(have, need).priced(self.currency)
        yield have

    def adopt(self, escrow: Mapping[str, int]) -> None:
        """The escrow of a table this process takes over from another, as the database holds it (issue 21): from
        now on this wallet's to move. Only escrow: a shared account's truth is its row, never a copy."""
        shared = [account for account in escrow if is_shared(account)]
        if shared:
            raise ValueError(f"only escrow is adopted, not {', '.join(shared)}")
        self._ledger.adopt(escrow)

    # ------------------------------------------------------------------ moving money: stored and flagged, always

    def move(self, source: str, target: str, amount: int, reason: str, reference: str, *,
             store: bool = True) -> Transfer:
        """One two-posting transfer, stored (``store=False``: the caller stores it with what caused it) and flagged
        (AC-6) before it returns; an overdraft is refused and changes nothing."""
        t = self._ledger.move(source, target, amount, reason, reference, self.reactor.seconds())
        self._recorded((t,), store)
        return t

    def moved(self, source: str, target: str, amount: int, reason: str, reference: str, *,
              store: bool = True) -> Transfer | Deferred:
        """:meth:`move`, here at once on the calling thread; a room on several processes with a money thread
        answers a Deferred of the transfer when it is a locked move (its transaction off the reactor)."""
        return self.move(source, target, amount, reason, reference, store=store)

    def transfer(self, postings: Iterable[Posting], reason: str, reference: str, *, store: bool = True) -> Transfer:
        """A balanced transfer of any shape (a casino round, a void), stored and flagged as :meth:`move` is."""
        t = self._ledger.transfer(postings, reason, reference, self.reactor.seconds())
        self._recorded((t,), store)
        return t

    def settle_hand(self, table_id: str, hand_id: str, start: Mapping[str, int], end: Mapping[str, int],
                    rake: int) -> Transfer | None:
        """A cash hand's one settling transfer (None: it moved nothing), flagged (AC-6); the recorder stores it
        with the hand, in one transaction (the table host hands it over in the hand's batch)."""
        t = self._ledger.settle_hand(table_id, hand_id, start, end, rake, self.reactor.seconds())
        if t is not None:
            self._recorded((t,), store=False)
        return t

    def _fences(self, transfers: Sequence[Transfer]) -> tuple[Fence, ...]:
        """The leases of the tables, rounds and events whose escrow the transfers touch, as held now (none on one
        process): a move between a wallet and a table lands only while this process owns the table."""
        if not self.recorder.fencing:
            return ()
        fences: set[Fence] = set()
        for t in transfers:
            for p in t.postings:
                account = parse(p.account)
                if account is not None and account.kind in _LEASED:
                    fences.update(self.recorder.fence_of(_LEASED[account.kind], account.place))
        return tuple(sorted(fences))

    def _recorded(self, transfers: tuple[Transfer, ...], store: bool) -> None:
        """Store the transfers (in ledger order) and flag the large ones (AC-6): every mutator ends here."""
        fences = self._fences(transfers)                # a table's escrow moved: only while its lease is held
        if store and transfers:
            self.recorder.write_fenced(fences, self.recorder.store.ledger.save_transfers, list(transfers))
        for t in transfers:
            if players.aml_flag(t.size, self.account_rules):
                self.log.warn("AML flag: transfer {number} of {size} ({reason} {reference})", number=t.number,
                              size=t.size, reason=t.reason, reference=t.reference)
                flag = {"transfer": t.number, "size": t.size, "reason": t.reason, "reference": t.reference,
                        "postings": [[p.account, p.amount] for p in t.postings]}
                self.recorder.write_fenced(fences, self.recorder.store.audit, "aml_flag", flag, t.at)

    def check_deposit(self, player_id: str, amount: int, limits: Limits | None) -> None:
        """Refuse a deposit the player's own limits forbid (AC-5): self-excluded, or over the 24-hour limit.

        ``limits`` is the player's account as the store holds it, read afresh by the caller (None: no account,
        no limits): a limit set from another connection, another process or no connection at all binds."""
        if limits is None:
            return
        now = self.reactor.seconds()
        if limits.excluded_until is not None and now < limits.excluded_until:
            raise RuleViolation("self_excluded", "you have excluded yourself: no deposits", "AC-5")
        if limits.deposit_limit is not None:
            recent = self.deposited_today(player_id)
            if recent + amount > limits.deposit_limit:
                raise RuleViolation("deposit_limit", f"your deposit limit is {limits.deposit_limit} a day; "
                                                     f"{recent} deposited in the last 24 hours", "AC-5")

    def deposit(self, player_id: str, amount: int, limits: Limits | None, *, reference: str | None = None) -> Transfer:
        """Money in from outside (the cashier; play money in a demo room), within the player's stored limits
        (AC-5)."""
        self.check_deposit(player_id, amount, limits)
        return self.credit(player_id, amount, reference or player_id)

    def deposit_once(self, player_id: str, amount: int, limits: Limits | None, reference: str,
                     refused: RuleViolation) -> Transfer:
        """A deposit paid once ever by its reference (a welcome balance). One process: its desk checks the stored
        deposits and its own since start on its one thread, so this is :meth:`deposit`; several processes
        (:class:`~pokerroom.shell.shared_wallet.SharedWallet`): the database checks, ``refused`` if paid."""
        return self.deposit(player_id, amount, limits, reference=reference)

    def credit(self, player_id: str, amount: int, reference: str) -> Transfer:
        """Money in from outside that is the room's already (a provider approved it; an admin's credit): no limit
        refuses it now -- it counts toward the day's deposits (AC-5) -- and it is stored and flagged (AC-6)."""
        t = self.move(WORLD, cash(player_id), amount, "deposit", reference)
        self._remember_deposit(player_id, amount, t.at)
        return t

    def credited(self, player_id: str, amount: int, reference: str) -> Transfer | Deferred:
        """:meth:`credit`, here at once; a room on several processes with a money thread answers a Deferred of the
        transfer (its locked transaction off the reactor)."""
        return self.credit(player_id, amount, reference)

    def deposited_today(self, player_id: str) -> int:
        return sum(self.deposits_today(player_id))

    def deposits_today(self, player_id: str) -> list[int]:
        """The player's deposits of the last 24 hours, oldest first (AC-5's limit, AC-6's structuring)."""
        now = self.reactor.seconds()
        return [size for at, size in self._deposits.get(player_id, ()) if at > now - DAY]

    def renamed(self, old: str, new: str) -> None:
        """A nickname reset (SEC): the day's deposits still count under the new name (AC-5)."""
        if old in self._deposits:
            self._deposits[new] = self._deposits.pop(old)

    def _remember_deposit(self, player_id: str, amount: int, at: float) -> None:
        recent = self._deposits.setdefault(player_id, deque())
        recent.append((at, amount))
        while recent and recent[0][0] <= at - DAY:
            recent.popleft()


def short_of_funds(have: int, need: int) -> RuleViolation:
    """The refusal of a move a wallet cannot pay, in the same words whichever wallet refuses it."""
    return RuleViolation("insufficient_funds", "you have {have} in your wallet, not {need}",
                         amounts={"have": have, "need": need})
