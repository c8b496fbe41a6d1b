"""The room's lifecycle, as Twisted services: what each service does when the room starts and when it stops.

The composition root (:class:`pokerroom.shell.composition.RoomServices`) is a
``MultiService``; these are its children, started in the order they are added
and stopped in the reverse order. The writer is added first, so it is the last
to stop: whatever the others asked of the store on their way out lands first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from twisted.application.service import Service
from twisted.internet import defer
from twisted.logger import Logger

from pokerroom.money.accounts import Kind, parse
from pokerroom.shell.responsible_gaming import DAY
from pokerroom.shell.wallet import LEDGER_KEEP
from pokerroom.store.hand_records import Recovery

if TYPE_CHECKING:
    from twisted.internet.interfaces import IReactorTime
    from twisted.python.threadpool import ThreadPool

    from pokerroom.security.moderation import Moderation
    from pokerroom.shell.recorder import Recorder
    from pokerroom.shell.seating_store import StoredSeatingHistory
    from pokerroom.shell.table_host import TableHost
    from pokerroom.shell.wallet import Wallet
    from pokerroom.store.room_store import RoomStore

log = Logger()

SHUTDOWN_FLUSH_SECONDS = 10.0    # how long a stopping room waits for its writer to land what is queued


class Step(Service):
    """One service's part in the lifecycle: ``start`` when the room starts, ``stop`` (if any) when it stops."""

    def __init__(self, name: str, start: Callable[[], object] | None = None,
                 stop: Callable[[], object] | None = None) -> None:
        self.setName(name)
        self.start = start
        self.stop = stop
        self.stopping: defer.Deferred | None = None     # the stop's Deferred, once the room stops

    def startService(self) -> None:  # noqa: N802 - Twisted's name
        super().startService()
        if self.start is not None:
            self.start()

    def stopService(self) -> defer.Deferred | None:  # noqa: N802 - Twisted's name
        super().stopService()
        if self.stop is not None:
            self.stopping = defer.maybeDeferred(self.stop)
            return self.stopping
        return None


class Writer(Service):
    """The store's one writer thread: started with the room; at stop, what is queued lands (a few seconds at most)
    and then the thread ends."""

    name = "writer"

    def __init__(self, recorder: Recorder, reactor: IReactorTime, pool: ThreadPool | None,
                 timeout: float = SHUTDOWN_FLUSH_SECONDS) -> None:
        self.recorder = recorder
        self.reactor = reactor
        self.pool = pool                    # None: a test's room, whose writes run inline
        self.timeout = timeout

    def startService(self) -> None:  # noqa: N802 - Twisted's name
        super().startService()
        if self.pool is not None:
            self.pool.start()

    def stopService(self) -> defer.Deferred:  # noqa: N802 - Twisted's name
        super().stopService()
        d = self.recorder.flushed()
        d.addTimeout(self.timeout, self.reactor)
        d.addErrback(lambda failure: log.failure("the writer did not finish before the room stopped", failure))
        if self.pool is not None:
            d.addCallback(lambda _: self.pool.stop())
        return d


class Restores(Service):
    """At start, before anything else reads them: recover from any crash, then load the ledger, the hand numbers
    and the seating memory (blocking; before the room listens). The table side's: only the process that runs the
    tables and holds the wallet recovers them."""

    name = "restores"
    recovery: Recovery | None = None

    def __init__(self, store: RoomStore, reactor: IReactorTime, wallet: Wallet, tables: TableHost,
                 history: StoredSeatingHistory, *, recover_all: bool = True) -> None:
        self.store = store
        self.recover_all = recover_all      # False on several processes: each table recovers when its lease is won
        self.reactor = reactor
        self.wallet = wallet
        self.tables = tables
        self.history = history

    def startService(self) -> None:  # noqa: N802 - Twisted's name
        super().startService()
        store, now = self.store, self.reactor.seconds()
        ledger = self.wallet.prepare(store.ledger.load_ledger(LEDGER_KEEP))
        # one process: every table it left; several: none here -- a table is recovered by whoever wins its lease
        self.recovery = recovery = store.hands.recover(ledger, now) if self.recover_all else Recovery((), ())
        self.wallet.load(ledger, store.cashier.deposits_since(now - DAY), recovery.returned)
        self.tables.restore_hand_numbers(self.hand_numbers(recovery))
        self.tables.restore_known(store.tables.cash_table_ids())        # players' histories include closed ones
        self.history.restore(store.tables.refusals_since(now - 2 * 12 * 3600),
                             store.tables.departures_since(now - 24 * 3600),
                             store.tables.arrivals_since(now - 24 * 3600))
        if recovery.voided_hands:
            log.warn("recovered from a crash: voided {hands}", hands=", ".join(recovery.voided_hands))

    def hand_numbers(self, recovery: Recovery) -> dict[str, int]:
        """Each table's newest stored hand number -- one more where players still sat when the room stopped: the
        hand they were dealt may have been shown before its start was stored, and its number is not used again
        (a later hand is never shown before the end of the one before it is stored)."""
        numbers = self.store.hands.last_hand_numbers()
        sat = {account.place for account in (parse(t.reference) for t in recovery.returned)
               if account is not None and account.kind is Kind.TABLE}
        return {**numbers, **{table: numbers.get(table, 0) + 1 for table in sat}}


class Decisions(Service):
    """At start: the security team's standing decisions (mutes, linked accounts, frozen accounts) loaded into the
    moderation, which is the gateway side's (every service that decides on it is there: docs/architecture.md)."""

    name = "standing decisions"

    def __init__(self, store: RoomStore, reactor: IReactorTime, moderation: Moderation) -> None:
        self.store = store
        self.reactor = reactor
        self.moderation = moderation

    def startService(self) -> None:  # noqa: N802 - Twisted's name
        super().startService()
        store = self.store
        for mute in store.security.active_mutes(self.reactor.seconds()):
            self.moderation.mute(mute.player_id, mute.table_id, mute.until, mute.reason)
        for restriction in store.security.restrictions():
            self.moderation.link(restriction.a, restriction.b)
        self.moderation.restore_frozen(store.security.frozen_accounts())
