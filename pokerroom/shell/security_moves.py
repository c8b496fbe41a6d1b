"""What the security desk asks of the table process: whether a player is idle, and a rename's move of the wallet.

The security desk (:mod:`pokerroom.shell.security_desk`) serves the team's
requests in a gateway process; the cash tables and the wallet are the table
process's (docs/architecture.md, the process line). The desk asks them on the
bus, and this responder answers in the table process:

* ``security.idle`` (:class:`~pokerroom.bus.records.IdleRead`): answered None
  when nothing of the player's would stay behind under their old name -- no
  seat or place on a waiting list at a cash table, no money in an account of
  theirs but the wallet -- else refused ``player_busy`` (AC-3);
* ``security.rename`` (:class:`~pokerroom.bus.records.Rename`): the account
  renamed with its wallet in one transaction, the check above made again in
  the same call (so no seat or chips can slip in between), the wallet's
  balance moved to the new name (flagged at once, AC-6; stored with the
  rename, undone in memory if the rename is not), then what reached the old
  name meanwhile, and the day's deposits (AC-5). Answered ``{"moved": <the
  balance moved>}`` once stored.

Who can ask: only a service on the bus (a client cannot publish); the desk
asks after its role check (SEC-4), once per team request. Neither request
takes money anywhere but from the named player's wallet to the same account's
new name, and the store refuses a name that is taken (``nickname_taken``), so
a forged request can do no more than the desk itself could.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from twisted.internet import defer

from pokerroom.bus import Bus
from pokerroom.bus.records import IdleRead, Rename
from pokerroom.bus.subjects import SECURITY_IDLE, SECURITY_RENAME
from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import PLAYER_KINDS, Kind, cash, parse

if TYPE_CHECKING:
    from pokerroom.shell.table_host import TableHost
    from pokerroom.shell.wallet import Wallet
    from pokerroom.store.room_store import RoomStore

_AWAY_FROM_WALLET = PLAYER_KINDS - {Kind.WALLET}    # a player's money besides the wallet: chips, stakes, tickets, T$


def busy(player: str, where: str) -> RuleViolation:
    """The refusal of a rename while something of the player's would stay under the old name (AC-3)."""
    return RuleViolation("player_busy", f"{player} {where}: rename them once they have left every table and "
                                        "tournament and hold money only in their wallet (freeze them first)", "AC-3")


def _held_away(account: str, player: str) -> bool:
    """Whether ``account`` is the player's money somewhere other than their wallet."""
    read = parse(account)
    return read is not None and read.kind in _AWAY_FROM_WALLET and read.player == player


class SecurityMoves:
    def __init__(self, bus: Bus, wallet: Wallet, host: TableHost, store: RoomStore,
                 write: Callable[..., defer.Deferred]) -> None:
        self.wallet = wallet
        self.host = host                    # the cash tables of this process: their seats and waiting lists
        self.store = store
        self.write = write                  # the recorder's writer: the rename and its move in one transaction
        bus.respond(SECURITY_IDLE, self._idle)
        bus.respond(SECURITY_RENAME, self._rename)

    def verify_idle(self, player: str) -> None:
        """Nothing of the player's may stay behind under the old name: no seat, place in a queue, or money
        anywhere but the wallet (table and casino chips, T$, tickets, stakes)."""
        tables = [t for t, runner in sorted(self.host.runners.items())
                  if runner.table.seat_of(player) is not None or player in runner.table.waiting_list]
        if tables:
            raise busy(player, f"at {tables[0]}")
        money = sorted(a for a, balance in self.wallet.books.balances.items() if balance and _held_away(a, player))
        if money:
            raise busy(player, f"holds {money[0]}")

    def _idle(self, read: IdleRead) -> None:
        self.verify_idle(read.player)

    def _rename(self, rename: Rename) -> defer.Deferred:
        old, new, wallet = rename.old, rename.new, self.wallet
        self.verify_idle(old)                               # again, in the call that moves the money
        balance = wallet.balance(old)
        moved = [wallet.move(cash(old), cash(new), balance, "nickname reset", old, store=False)] if balance else []

        def undo(failure: Any) -> Any:                      # not stored: the ledger in memory goes back as it was
            if moved:
                wallet.move(cash(new), cash(old), balance, "nickname reset undone", old, store=False)
            return failure

        def stored(_: Any) -> dict:
            late = wallet.balance(old)                      # money that reached the old name meanwhile follows
            if late:
                wallet.move(cash(old), cash(new), late, "nickname reset", old)     # stored, flagged
            wallet.renamed(old, new)                        # AC-5: the day's deposits still count
            return {"moved": balance + late}

        d = self.write(self.store.security.rename_account, old, new, rename.key, rename.reason, rename.by,
                       rename.at, moved, quiet=False)
        return d.addCallbacks(stored, undo)
