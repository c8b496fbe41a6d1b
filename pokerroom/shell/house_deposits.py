"""House deposits: money an admin brings into the room from outside, bounded and audited (STAFF-1).

Two admin commands move ``world`` for the house: a deposit into promotions
(:mod:`pokerroom.shell.promotions_desk`) and a credit of a player's wallet (the
cashier's ``admin_credit``). Both are one kind of trust -- an admin saying money
came in -- so both count against the same bounds (``[tournaments]``
``max_house_deposit``, ``max_house_deposits_per_admin_day``,
``max_house_deposits_per_day``): one, one admin's in any 24 hours, every admin's
together. The day's count is read back from the audit log at start, so a
restart does not reset it.

It is kept beside the wallet, in the table process (the wallet desk's
promotions funding and cashier moves' credit check it where the money moves),
so a record forged on the bus is bounded like the admin's own request.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from twisted.internet.interfaces import IReactorTime

from pokerroom.errors import RuleViolation

if TYPE_CHECKING:
    from pokerroom.store.room_store import RoomStore

DAY = 24 * 3600


def _counted(record: Any) -> bool:
    """An audit record of a house deposit: a promotions funding from ``deposit``, or a wallet credit."""
    return record.kind == "wallet_credited" or record.data.get("source") == "deposit"


class HouseDeposits:
    """The last day's house deposits (at, by, amount), and the one check of their bounds."""

    def __init__(self, reactor: IReactorTime, store: RoomStore, bounds: Callable[[], Any]) -> None:
        self.reactor = reactor
        self.bounds = bounds                    # -> the hall's EventBounds (read at each check: config may change)
        self.recent: deque[tuple[float, str, int]] = deque()
        since = reactor.seconds() - DAY
        audit_log = store.audit_log                 # the last day's, read once at start (blocking)
        records = [*audit_log.audit_records("promotions_funded"), *audit_log.audit_records("wallet_credited")]
        for record in sorted(records, key=lambda r: r.at):
            if record.at > since and _counted(record):
                self.recent.append((record.at, record.data.get("by", ""), int(record.data.get("amount", 0))))

    def check(self, by: str, amount: int) -> None:
        """``over_limit`` (STAFF-1) if ``amount`` more from admin ``by`` would pass a bound."""
        bounds, now = self.bounds(), self.reactor.seconds()
        while self.recent and self.recent[0][0] <= now - DAY:
            self.recent.popleft()
        mine = sum(a for _, who, a in self.recent if who == by)
        everyone = sum(a for _, _, a in self.recent)
        for what, held, bound in (("one house deposit", 0, bounds.max_house_deposit),
                                  ("your house deposits in 24 hours", mine, bounds.max_house_deposits_per_admin_day),
                                  ("all admins' house deposits in 24 hours", everyone,
                                   bounds.max_house_deposits_per_day)):
            if held + amount > bound:
                raise RuleViolation("over_limit", f"{what} may come to at most {bound}; {held} already, {amount} "
                                    "asked: each deposit is audited", "STAFF-1")

    def made(self, by: str, amount: int) -> None:
        self.recent.append((self.reactor.seconds(), by, amount))

    def unmade(self, by: str, amount: int) -> None:
        """A deposit counted as it was asked (:meth:`made`) whose money did not move after all: not counted."""
        for entry in reversed(self.recent):
            if entry[1:] == (by, amount):
                self.recent.remove(entry)
                return
