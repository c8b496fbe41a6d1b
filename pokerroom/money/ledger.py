"""A double-entry ledger: the only way money moves in the room (DESIGN.md idea 3, AC-6).

Theory of operation
-------------------
Every movement is a :class:`Transfer`: a set of :class:`Posting` s (account,
signed amount in minor units) that sums to zero, with a reason, a reference
(hand id, table id, tournament id ...) and a time. So the sum over all
accounts never changes from zero, and any account's balance is the sum of its
postings: :meth:`Ledger.check` replays every transfer and compares.

Accounts are named by what they hold (``world``, ``house:rake``, ``cash:<player>``,
``table:<table>:<player>`` ...); :mod:`pokerroom.money.accounts` makes and
reads every name, and the names it exports are re-exported here.

Only ``world`` and ``house:casino`` may go below zero: ``world`` is the room's
debt to the outside (minus everything deposited and not withdrawn), and
``house:casino`` is below zero whenever the players are ahead of the casino
(the house banks its games; its bankroll is outside the ledger). A transfer that would overdraw any
other account is refused with a :class:`~pokerroom.errors.RuleViolation` and
changes nothing. A hand settles once, at its end, in one transfer: each
player's escrow moves by (end stack - start stack) and the rake goes to the
house, which balances because chips are conserved in the hand.

The ledger is pure: it keeps its transfers and cached balances in memory.
The store writes the same transfers to the database in the transaction that
records what caused them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Container, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import (  # noqa: F401  (re-exported: the names callers import from here)
    HOUSE_CASINO,
    HOUSE_FEES,
    HOUSE_RAKE,
    PROMOTIONS,
    WORLD,
    cash,
    casino_escrow,
    table_escrow,
)

MAY_OWE = frozenset({WORLD, HOUSE_CASINO})
WORLD_REASONS = frozenset({"deposit", "withdrawal"})   # the only reasons ``world`` moves for (STAFF-1)


@dataclass(frozen=True, slots=True)
class Posting:
    """``amount`` added to ``account`` (negative: taken from it)."""

    account: str
    amount: int


@dataclass(frozen=True, slots=True)
class Transfer:
    """A balanced set of postings with why, what it refers to, and when."""

    number: int
    postings: tuple[Posting, ...]
    reason: str
    reference: str
    at: float
    stored: bool = field(default=False, compare=False)  # in the database already (a shared account's locked move):
                                                        # the store writes it once, so a caller's batch skips it

    @property
    def size(self) -> int:
        """The money moved: the sum of the positive postings."""
        return sum(p.amount for p in self.postings if p.amount > 0)


def check_postings(postings: Iterable[Posting]) -> tuple[Posting, ...]:
    """Postings merged per account, zeros dropped; ``ValueError`` unless whole numbers summing to zero."""
    merged: dict[str, int] = {}
    for p in postings:
        if type(p.amount) is not int or type(p.account) is not str or not p.account:
            raise ValueError(f"a posting is an account name and a whole number of minor units, not {p!r}")
        merged[p.account] = merged.get(p.account, 0) + p.amount
    if sum(merged.values()) != 0:
        raise ValueError(f"a transfer must balance; these postings sum to {sum(merged.values())}")
    out = tuple(Posting(a, v) for a, v in merged.items() if v)
    if not out:
        raise ValueError("a transfer must move some money")
    return out


class Ledger:
    """Every account's balance, and the most recent transfers.

    ``keep`` bounds the transfers held in memory (None: all of them); the
    store holds every one. What older transfers did is folded into
    ``opening`` -- the balances before the oldest transfer kept -- so
    :meth:`check` still proves, exactly, that the kept transfers lead from
    ``opening`` to the cached balances and that everything sums to zero.
    """

    def __init__(self, keep: int | None = None) -> None:
        self.transfers: deque[Transfer] = deque(maxlen=keep)
        self.balances: dict[str, int] = {}
        self.opening: dict[str, int] = {}
        self.count = 0                          # transfers ever made; the next one is number count + 1
        self.may_owe: Container[str] = MAY_OWE  # accounts whose overdraft this ledger does not refuse
        self.numbers: Callable[[], int] | None = None   # the next transfer's number (None: count + 1)

    @classmethod
    def restore(cls, balances: Mapping[str, int], recent: Iterable[Transfer], count: int,
                keep: int | None = None) -> Ledger:
        """A ledger from stored balances and the most recent transfers (oldest first)."""
        ledger = cls(keep)
        ledger.balances = {a: v for a, v in balances.items() if v}
        ledger.transfers.extend(recent)
        ledger.count = count
        ledger.opening = dict(ledger.balances)
        for t in ledger.transfers:
            for p in t.postings:
                ledger.opening[p.account] = ledger.opening.get(p.account, 0) - p.amount
        return ledger

    def share(self, guarded_elsewhere: Container[str], numbers: Callable[[], int]) -> None:
        """A room on several processes: the accounts in ``guarded_elsewhere`` are guarded by the database (their
        overdrafts refused there, under a lock), and transfer numbers, unique across processes, come from
        ``numbers``. Their balances here are only what this process has seen; the escrow ones stay exact."""
        self.may_owe = _Either(MAY_OWE, guarded_elsewhere)
        self.numbers = numbers

    def balance(self, account: str) -> int:
        return self.balances.get(account, 0)

    def adopt(self, balances: Mapping[str, int]) -> None:
        """Balances another process kept until now (the escrow of a table taken over), as stored: held here from
        now on. The opening moves with them, so :meth:`check` still replays the transfers kept."""
        for account, balance in balances.items():
            delta = balance - self.balances.get(account, 0)
            self.opening[account] = self.opening.get(account, 0) + delta
            if balance:
                self.balances[account] = balance
            else:
                self.balances.pop(account, None)

    def verify(self, merged: Iterable[Posting]) -> None:
        """Refuse an overdraft of an account this ledger guards, and change nothing."""
        balances, may_owe = self.balances, self.may_owe
        for p in merged:
            if p.account not in may_owe and balances.get(p.account, 0) + p.amount < 0:
                raise RuleViolation("insufficient_funds",
                                    f"{p.account} holds {balances.get(p.account, 0)}, cannot pay {-p.amount}")

    def next_number(self) -> int:
        return self.count + 1 if self.numbers is None else self.numbers()

    def posted(self, t: Transfer) -> None:
        """Keep a transfer checked and stored elsewhere (:meth:`verify` first, then the database's lock)."""
        self._keep(t)
        balances = self.balances
        for p in t.postings:
            balances[p.account] = balances.get(p.account, 0) + p.amount

    def transfer(self, postings: Iterable[Posting], reason: str, reference: str, at: float) -> Transfer:
        """Record a balanced transfer, or refuse it (overdraft) and change nothing."""
        return self._record(check_postings(postings), reason, reference, at)

    def _record(self, merged: tuple[Posting, ...], reason: str, reference: str, at: float) -> Transfer:
        """Postings already balanced and merged: refuse an overdraft, else keep the transfer and its balances."""
        balances, may_owe = self.balances, self.may_owe
        for p in merged:
            if p.account not in may_owe and balances.get(p.account, 0) + p.amount < 0:
                raise RuleViolation("insufficient_funds",
                                    f"{p.account} holds {balances.get(p.account, 0)}, cannot pay {-p.amount}")
        t = Transfer(self.count + 1 if self.numbers is None else self.numbers(), merged, reason, reference, at)
        self._keep(t)
        for p in merged:
            balances[p.account] = balances.get(p.account, 0) + p.amount
        return t

    def move(self, source: str, target: str, amount: int, reason: str, reference: str, at: float) -> Transfer:
        """The common two-posting transfer."""
        if type(amount) is not int or amount <= 0:
            raise RuleViolation("bad_amount",
                                f"an amount is a positive whole number of minor units, not {amount!r}")
        postings = (Posting(source, -amount), Posting(target, amount))
        if source == target or type(source) is not str or type(target) is not str or not source or not target:
            return self.transfer(postings, reason, reference, at)      # let check_postings refuse or merge it
        return self._record(postings, reason, reference, at)           # balanced and merged already: a hot path

    def settle_hand(self, table_id: str, hand_id: str, start: Mapping[str, int], end: Mapping[str, int],
                    rake: int, at: float) -> Transfer | None:
        """Move each player's escrow from their start to their end-of-hand stack; the rake to the house."""
        if set(start) != set(end):
            raise ValueError("a hand settles the same players it started with")
        postings = [Posting(table_escrow(table_id, p), end[p] - start[p]) for p in start]
        postings.append(Posting(HOUSE_RAKE, rake))
        if all(p.amount == 0 for p in postings):
            return None
        return self.transfer(postings, "hand", hand_id, at)

    def _keep(self, t: Transfer) -> None:
        transfers = self.transfers
        if transfers.maxlen is not None and len(transfers) == transfers.maxlen:
            for p in transfers[0].postings:                 # about to drop out of memory: fold it in
                self.opening[p.account] = self.opening.get(p.account, 0) + p.amount
        transfers.append(t)
        self.count = t.number

    def check(self) -> bool:
        """Every balance equals its opening plus its postings since, and all balances sum to zero."""
        replay: dict[str, int] = dict(self.opening)
        for t in self.transfers:
            if sum(p.amount for p in t.postings) != 0:
                return False
            for p in t.postings:
                replay[p.account] = replay.get(p.account, 0) + p.amount
        cached = {a: v for a, v in self.balances.items() if v}
        return {a: v for a, v in replay.items() if v} == cached and sum(cached.values()) == 0


class _Either:
    """Two containers as one (``x in`` either)."""

    __slots__ = ("first", "second")

    def __init__(self, first: Container[str], second: Container[str]) -> None:
        self.first, self.second = first, second

    def __contains__(self, name: object) -> bool:
        return name in self.first or name in self.second


class LedgerView:
    """A ledger to read, never to write: what the wallet shows of the one it keeps private (every movement goes
    through the wallet's mutators, which store and flag it; a view has no way to move money)."""

    __slots__ = ("_ledger",)

    def __init__(self, ledger: Ledger) -> None:
        self._ledger = ledger

    def balance(self, account: str) -> int:
        return self._ledger.balance(account)

    @property
    def balances(self) -> Mapping[str, int]:
        """Every account's balance, read-only (zeros may be left in)."""
        return MappingProxyType(self._ledger.balances)

    @property
    def transfers(self) -> tuple[Transfer, ...]:
        """The transfers held in memory, oldest first."""
        return tuple(self._ledger.transfers)

    @property
    def count(self) -> int:
        return self._ledger.count

    def check(self) -> bool:
        return self._ledger.check()
