"""The wallet: the one path money takes between a player's wallet and anything else.

Every transfer the ledger makes -- cash tables, tournaments, the casino,
staking, staff -- passes :meth:`Wallet.record_transfers`, in ledger order, to
be stored and to flag the large ones (AC-6). Deposits check the player's own
limits (AC-5). The ledger lives in memory; the store has every transfer, and
the ledger is loaded from it at start, after crash recovery.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

from pokerroom import players
from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import WORLD, cash
from pokerroom.money.ledger import Ledger, Transfer
from pokerroom.shell.recorder import Recorder

LEDGER_KEEP = 1_000                 # transfers kept in memory; the store has them all
DAY = 86_400.0


class Wallet:
    currency = "USD"                            # the unit of every wallet: the cash tables' (config/room.toml)

    log = Logger()

    def __init__(self, recorder: Recorder, reactor: IReactorTime, account_rules: players.AccountRules,
                 standing_of: Callable[[str], Any]) -> None:
        self.recorder = recorder
        self.reactor = reactor
        self.account_rules = account_rules
        self.standing_of = standing_of          # player -> their session (limits, exclusion), or None
        self.ledger = Ledger(LEDGER_KEEP)
        self._deposits: dict[str, deque] = {}   # player -> (at, amount) of the last day (AC-5)

    def load(self, ledger: Ledger, deposits: list[tuple[str, int, float]]) -> None:
        """At start (after crash recovery): the ledger as stored, and the last day's deposits."""
        self.ledger = ledger
        for player, amount, at in deposits:
            self._remember_deposit(player, amount, at)

    def balance(self, player_id: str) -> int:
        """A player's cash balance (what a buy-in, a stake or a registration is checked against)."""
        return self.ledger.balance(cash(player_id))

    def verify_funds(self, player_id: str, amount: int) -> None:
        have = self.ledger.balance(cash(player_id))
        if have < amount:
            raise RuleViolation("insufficient_funds", "you have {have} in your wallet, not {need}",
                                amounts={"have": have, "need": amount}).priced(self.currency)

    def record_transfers(self, *transfers: Transfer, store: bool = True) -> None:
        """Store the transfers (in ledger order) and flag the large ones (AC-6).

        ``store=False``: the caller has them stored in a transaction of its own (a hand's settlement with the
        hand, the hall's with its tournament's state).
        """
        if store and transfers:
            self.recorder.write(self.recorder.store.ledger.save_transfers, list(transfers))
        for t in transfers:
            if players.aml_flag(t.size, self.account_rules):
                self.log.warn("AML flag: transfer {number} of {size} ({reason} {reference})", number=t.number,
                              size=t.size, reason=t.reason, reference=t.reference)
                self.recorder.audit("aml_flag", t.at, transfer=t.number, size=t.size, reason=t.reason,
                                    reference=t.reference, postings=[[p.account, p.amount] for p in t.postings])

    def move(self, source: str, target: str, amount: int, reason: str, reference: str, *,
             store: bool = True) -> Transfer:
        """One transfer in the ledger, recorded (and flagged) at once."""
        t = self.ledger.move(source, target, amount, reason, reference, self.reactor.seconds())
        self.record_transfers(t, store=store)
        return t

    def check_deposit(self, player_id: str, amount: int, limits: Any = None) -> None:
        """Refuse a deposit the player's own limits forbid (AC-5): self-excluded, or over the 24-hour limit.

        ``limits`` is what the store holds of the player (``excluded_until``, ``deposit_limit``): the cashier reads
        the account afresh, so a limit set from another connection -- or with no connection at all -- binds.
        Without it, the player's session (the demo's welcome balance, the in-process tests)."""
        now = self.reactor.seconds()
        limits = self.standing_of(player_id) if limits is None else limits
        if limits is None:
            return
        if limits.excluded_until is not None and now < limits.excluded_until:
            raise RuleViolation("self_excluded", "you have excluded yourself: no deposits", "AC-5")
        if limits.deposit_limit is not None:
            recent = self.deposited_today(player_id)
            if recent + amount > limits.deposit_limit:
                raise RuleViolation("deposit_limit", f"your deposit limit is {limits.deposit_limit} a day; "
                                                     f"{recent} deposited in the last 24 hours", "AC-5")

    def deposit(self, player_id: str, amount: int, *, reference: str | None = None, limits: Any = None) -> Transfer:
        """Money in from outside (the cashier; play money in a demo room), within the player's limits (AC-5)."""
        self.check_deposit(player_id, amount, limits)
        return self.credit(player_id, amount, reference or player_id)

    def credit(self, player_id: str, amount: int, reference: str) -> Transfer:
        """Money in from outside that is the room's already (a provider approved it; an admin's credit): no limit
        refuses it now -- it counts toward the day's deposits (AC-5) -- and it is stored and flagged (AC-6)."""
        now = self.reactor.seconds()
        t = self.ledger.move(WORLD, cash(player_id), amount, "deposit", reference, now)
        self._remember_deposit(player_id, amount, now)
        self.record_transfers(t)
        return t

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
