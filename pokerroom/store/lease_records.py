"""Table ownership (``store.leases``): which process owns each table, until when, and at which epoch (issue 21).

A lease row names a table (``cash:nl-1``, ``tournament:t-7``, ``casino:bj-1``),
the process (node) that owns it, when the lease runs out unless renewed, and an
**epoch**, a fencing number that grows at every new tenure: a process that took a
table over writes with a bigger epoch than the one it took it from, so whatever
the former owner still does with its old epoch can be told apart and refused:
:meth:`LeaseRecords.fence`, run in the same transaction as a table's writes,
refuses them unless the writer still holds the lease at its epoch.

Whose clock
-----------
Expiry is judged on the caller's clock: every call takes ``now``, the caller's
UTC seconds (the reactor's ``seconds()``, as every other time in the store). So
the rule is the same on SQLite and PostgreSQL, and a test drives expiry with a
``Clock`` instead of waiting. The database's ``now()`` would be one clock for all
processes, but a test could only reach an expiry by waiting in real time, and
SQLite has none to share. The price is that the machines' clocks must agree
(NTP keeps them within milliseconds): the keeper (:mod:`pokerroom.shell.leases`)
gives a lease up a margin before it runs out on its own clock, so a skew smaller
than that margin cannot make two owners at once, and the epoch fences the rest.
A call queued behind others runs with the ``now`` it was queued with, which is
never later than the time it lands: a renewal ends no later than its holder
believes, a taker judges an expiry no earlier than it happened.

Why upserts
-----------
A claim is one ``INSERT ... ON CONFLICT (resource) DO UPDATE ... WHERE`` (the
PostgreSQL and SQLite dialects' inserts): a new table's row is inserted, an
expired lease or the caller's own is overwritten, a live lease of another node
is left alone -- in one statement, with no read-then-write window. On
PostgreSQL concurrent claimers serialize on the row: a second inserter waits on
the primary key and then takes the update path, whose ``WHERE`` is evaluated on
the row as the first committed it (still live, so it loses). ``SELECT ... FOR
UPDATE`` could not lock the row a first claim is about to create. Renewal and
release are single ``UPDATE`` statements guarded by the node (and, for renewal,
by the lease being live), so a node that lost a lease cannot extend it. A claim
first locks the row ``FOR UPDATE``: the table writes in flight hold it ``FOR KEY
SHARE`` (:meth:`LeaseRecords.fence`), which a claim waits for and a renewal
does not.
SQLite is one process with one writer: its write lock serializes everything.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import case, delete, func, or_, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from pokerroom.store.models import TableLease
from pokerroom.store.transactions import Transactions

KINDS = ("cash", "tournament", "casino", "cashier")    # the tables' kinds; "cashier": the one settling process
NODE = "node:"                      # a node's own lease (the roster: which processes are alive), never taken over
RELEASED = 0.0                      # a released lease's expiry: ran out long ago, so any node may claim it at once
_FENCE = "lease fence"              # the key a passed fence is remembered by in its transaction
_CHUNK = 500                        # resources in one UPDATE ... IN (...)
_LEASES = TableLease.__table__
_INSERTS: dict[str, Callable[..., Any]] = {"postgresql": postgresql_insert, "sqlite": sqlite_insert}


def resource(kind: str, table_id: str) -> str:
    """The lease's name for a table: ``cash:nl-1``, ``tournament:t-7``, ``casino:bj-1`` (and the cashier's one
    settling process: ``cashier:settlements``)."""
    if kind not in KINDS:
        raise ValueError(f"no lease for a {kind!r} table (one of {', '.join(KINDS)})")
    return f"{kind}:{table_id}"


def node_resource(node: str) -> str:
    """The lease a live node holds on itself (``node:east-1``): the roster counts them."""
    if not node:
        raise ValueError("a node has a name")
    return NODE + node


Fence = tuple[str, str, int]        # (resource, node, epoch): what a table's writes are fenced by


@dataclass(frozen=True, slots=True)
class Lease:
    resource: str
    node: str
    epoch: int
    expires_at: float


class LeaseLost(Exception):
    """A write of a table whose lease this node no longer holds at this epoch: refused, nothing of it stored."""

    def __init__(self, resource: str, node: str, epoch: int) -> None:
        super().__init__(f"{node} no longer holds {resource} at epoch {epoch}")
        self.resource = resource
        self.node = node
        self.epoch = epoch


def _chunks(resources: Iterable[str]) -> Iterable[list[str]]:
    names = sorted(set(resources))
    for start in range(0, len(names), _CHUNK):
        yield names[start:start + _CHUNK]


class LeaseRecords:
    """The lease of every table: claimed, renewed and released by its owner; read by any process."""

    def __init__(self, core: Transactions) -> None:
        self.core = core

    def claim(self, resource: str, node: str, ttl: float, now: float) -> int | None:
        """The lease's epoch if ``node`` holds ``resource`` for ``ttl`` seconds from ``now``; None if another node's
        lease is still live.

        A new row starts at epoch 1; a lease taken over (another node's or the caller's own that ran out) gets the
        next epoch; the caller's own live lease is renewed at the same epoch.
        """
        return self.claim_all([resource], node, ttl, now).get(resource)

    def claim_all(self, resources: Iterable[str], node: str, ttl: float, now: float) -> dict[str, int]:
        """:meth:`claim` of each of ``resources`` in one transaction (a dead process's tables, taken over
        together): the epoch of each that ``node`` holds now; those another node holds live are left out."""
        names = sorted(set(resources))
        if not names:
            return {}
        with self.core.writing() as session:
            connection = session.connection()
            # the rows as their fenced writes left them: this waits for each one still open (they hold them FOR KEY
            # SHARE, which only this, a delete and a key's change wait for), so the new owner reads what they
            # wrote; in resource order, as every claimer locks them
            connection.execute(select(_LEASES.c.resource).where(_LEASES.c.resource.in_(names))
                               .order_by(_LEASES.c.resource).with_for_update())
            claim = _INSERTS[connection.dialect.name](_LEASES).values(
                [{"resource": name, "node": node, "expires_at": now + ttl, "epoch": 1} for name in names])
            ran_out = _LEASES.c.expires_at <= now
            new_tenure = or_(_LEASES.c.node != claim.excluded.node, ran_out)
            claim = claim.on_conflict_do_update(
                index_elements=[_LEASES.c.resource],
                set_={"node": claim.excluded.node, "expires_at": claim.excluded.expires_at,
                      "epoch": case((new_tenure, _LEASES.c.epoch + 1), else_=_LEASES.c.epoch)},
                where=or_(_LEASES.c.node == claim.excluded.node, ran_out))
            return {name: epoch for name, epoch in
                    connection.execute(claim.returning(_LEASES.c.resource, _LEASES.c.epoch)).all()}

    def renew(self, node: str, resources: Sequence[str], ttl: float, now: float) -> set[str]:
        """Those of ``resources`` that ``node`` still holds, each now until ``now + ttl``; a lease that ran out or
        went to another node is not renewed (it must be claimed again, at a new epoch)."""
        held: set[str] = set()
        with self.core.writing() as session:
            connection = session.connection()
            for chunk in _chunks(resources):
                held.update(connection.execute(
                    update(_LEASES).where(_LEASES.c.node == node, _LEASES.c.resource.in_(chunk),
                                          _LEASES.c.expires_at > now)
                    .values(expires_at=now + ttl).returning(_LEASES.c.resource)).scalars())
        return held

    def release(self, node: str, resources: Sequence[str]) -> None:
        """``node`` gives up ``resources`` (a clean stop): any node may claim them at once; the epoch is kept, so
        the next owner's is bigger."""
        with self.core.writing() as session:
            connection = session.connection()
            for chunk in _chunks(resources):
                connection.execute(update(_LEASES).where(_LEASES.c.node == node, _LEASES.c.resource.in_(chunk))
                                   .values(expires_at=RELEASED))

    def retire(self, node: str, resource: str) -> None:
        """``node``'s table is closed for good: its lease goes, so no node takes a table over that is no more (a
        table's id is never used again, so its epochs cannot restart under a live table)."""
        with self.core.writing() as session:
            session.connection().execute(delete(_LEASES).where(_LEASES.c.node == node,
                                                               _LEASES.c.resource == resource))

    def fence(self, resource: str, node: str, epoch: int) -> None:
        """Refuse (:class:`LeaseLost`) the transaction this runs in unless ``node`` holds ``resource`` at ``epoch``.

        The fencing check of a table's writes: run first in a
        :meth:`~pokerroom.store.transactions.Transactions.together` with them,
        so a former owner's late writes fail as a whole. On PostgreSQL it holds
        the lease row ``FOR KEY SHARE`` until the transaction ends, so a takeover's
        claim (which locks the row ``FOR UPDATE`` first) waits for a write already
        past this check to commit, and the new owner reads the tables' rows with
        it. The owner's own renewal (an ``UPDATE`` of the expiry, no key changed)
        does not wait for it: a renewal never queues behind the tables' writes in
        the database, nor deadlocks with a batch fencing several of its tables in
        another order (bench/cluster.py saw both make a live process lose its own
        leases). An expired lease nobody claimed yet still passes: no other node
        serves the table.
        """
        key = (_FENCE, resource, node, epoch)
        if self.core.checked(key):                  # passed earlier in this transaction, the row held since
            return
        with self.core.writing() as session:
            found = session.execute(select(_LEASES.c.node, _LEASES.c.epoch).where(_LEASES.c.resource == resource)
                                    .with_for_update(read=True, key_share=True)).first()
            if found is None or tuple(found) != (node, epoch):
                raise LeaseLost(resource, node, epoch)
        self.core.passed(key)

    def fenced(self, fences: Sequence[Fence], function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)``'s writes, in one transaction after the fence of each of ``fences`` (a table's
        lease as its writer holds it): all of it stored, or nothing (:class:`LeaseLost`). In a batch, each fence
        is read once however many of the table's writes the batch holds."""
        calls: list[tuple[Callable[..., Any], tuple]] = [(self.fence, fence) for fence in fences]
        return self.core.together([*calls, (function, args)])[-1]

    def leased(self, resource: str) -> bool:
        """Whether the room leases ``resource`` at all, held live or not (its owner gone, or let go, and another
        not yet playing it): a table that is not closed for good (:meth:`retire` deletes its lease)."""
        with self.core.reading() as session:
            return session.execute(select(_LEASES.c.resource).where(_LEASES.c.resource == resource)).first() is not None

    def leased_names(self) -> set[str]:
        """:meth:`leased` of every table at once: the name of each lease the room has but the nodes' own."""
        with self.core.reading() as session:
            return set(session.scalars(select(_LEASES.c.resource).where(_LEASES.c.resource.not_like(NODE + "%"))))

    def owner(self, resource: str, now: float) -> Lease | None:
        """The live lease of ``resource``, or None if nobody holds it at ``now``."""
        with self.core.reading() as session:
            row = session.execute(select(_LEASES).where(_LEASES.c.resource == resource,
                                                        _LEASES.c.expires_at > now)).first()
            return None if row is None else Lease(row.resource, row.node, row.epoch, row.expires_at)

    def held_by(self, node: str, now: float) -> list[Lease]:
        """The live leases of ``node``, by resource."""
        with self.core.reading() as session:
            rows = session.execute(select(_LEASES).where(_LEASES.c.node == node, _LEASES.c.expires_at > now)
                                   .order_by(_LEASES.c.resource)).all()
            return [Lease(row.resource, row.node, row.epoch, row.expires_at) for row in rows]

    def expired(self, now: float) -> list[str]:
        """The tables whose lease ran out by ``now`` (or was released): a takeover's candidates (a node's own
        lease is not one: a dead node is not taken over, it leaves the roster)."""
        with self.core.reading() as session:
            return list(session.scalars(select(_LEASES.c.resource).where(_LEASES.c.expires_at <= now,
                                                                         _LEASES.c.resource.not_like(NODE + "%"))
                                        .order_by(_LEASES.c.resource)))

    def watch(self, now: float, node: str) -> tuple[list[str], float | None]:
        """:meth:`expired` at ``now``, and when the next of the other nodes' table leases runs out unless renewed
        (None: none held): a watching node looks again then, not a beat later."""
        with self.core.reading() as session:
            soonest = session.scalar(select(func.min(_LEASES.c.expires_at))
                                     .where(_LEASES.c.expires_at > now, _LEASES.c.node != node,
                                            _LEASES.c.resource.not_like(NODE + "%")))
        return self.expired(now), soonest

    def nodes(self, now: float) -> list[str]:
        """The names of the nodes whose own lease (:func:`node_resource`) is live at ``now``: the room's
        processes that are alive."""
        with self.core.reading() as session:
            names = session.scalars(select(_LEASES.c.resource).where(_LEASES.c.resource.like(NODE + "%"),
                                                                      _LEASES.c.expires_at > now)
                                    .order_by(_LEASES.c.resource))
            return [name[len(NODE):] for name in names]
