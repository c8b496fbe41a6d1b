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
            raise RuleViolation("insufficient_funds", f"you have {have} in your wallet, not {amount}")

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

    def deposit(self, player_id: str, amount: int) -> Transfer:
        """Money in from outside (the cashier; play money in a demo room), within the player's limits (AC-5)."""
        now = self.reactor.seconds()
        session = self.standing_of(player_id)
        if session is not None:
            if session.excluded_until is not None and now < session.excluded_until:
                raise RuleViolation("self_excluded", "you have excluded yourself: no deposits", "AC-5")
            if session.deposit_limit is not None:
                recent = self.deposited_today(player_id)
                if recent + amount > session.deposit_limit:
                    raise RuleViolation("deposit_limit", f"your deposit limit is {session.deposit_limit} a day; "
                                                         f"{recent} deposited in the last 24 hours", "AC-5")
        t = self.ledger.move(WORLD, cash(player_id), amount, "deposit", player_id, now)
        self._remember_deposit(player_id, amount, now)
        self.record_transfers(t)
        return t

    def deposited_today(self, player_id: str) -> int:
        now = self.reactor.seconds()
        return sum(size for at, size in self._deposits.get(player_id, ()) if at > now - DAY)

    def renamed(self, old: str, new: str) -> None:
        """A nickname reset (SEC): the day's deposits still count under the new name (AC-5)."""
        if old in self._deposits:
            self._deposits[new] = self._deposits.pop(old)

    def _remember_deposit(self, player_id: str, amount: int, at: float) -> None:
        recent = self._deposits.setdefault(player_id, deque())
        recent.append((at, amount))
        while recent and recent[0][0] <= at - DAY:
            recent.popleft()
