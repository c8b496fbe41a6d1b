"""Table leases on SQLite and PostgreSQL (issue 21): one owner per table, renewed while it lives, taken over at a
bigger epoch once it runs out, handed over at once when released -- and, on PostgreSQL, exactly one winner among
claimers racing from their own connections, as processes would."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import create_engine, inspect
from sqlalchemy.exc import OperationalError

from pokerroom.store.db import make_engine, migrate
from pokerroom.store.lease_records import LeaseLost, resource
from pokerroom.store.room_store import RoomStore
from tests.support.databases import postgres_database
from tests.support.migrations import differences, downgrade

TTL = 6.0
T0 = 1_000.0
NL1, T7, BJ1 = resource("cash", "nl-1"), resource("tournament", "t-7"), resource("casino", "bj-1")


def test_the_migration_builds_the_lease_table_as_the_model_has_it(engine):
    assert differences(engine, "table_leases") == []


def test_the_migration_goes_back_and_forth(engine):
    downgrade(engine, "0008_tournament_rows")
    assert "table_leases" not in inspect(engine).get_table_names()
    migrate(engine)
    assert RoomStore(engine).leases.claim(NL1, "a", TTL, T0) == 1


def test_a_lease_names_its_kind_of_table():
    assert (NL1, T7, BJ1) == ("cash:nl-1", "tournament:t-7", "casino:bj-1")
    with pytest.raises(ValueError, match="poker"):
        resource("poker", "x")


def test_of_two_nodes_claiming_one_table_exactly_the_first_holds_it_and_a_live_lease_is_not_taken(store):
    leases = store.leases
    assert leases.claim(NL1, "a", TTL, T0) == 1
    assert leases.claim(NL1, "b", TTL, T0) is None
    assert leases.claim(NL1, "b", TTL, T0 + TTL - 0.001) is None          # a moment before it runs out
    lease = leases.owner(NL1, T0 + 1)
    assert (lease.node, lease.epoch, lease.expires_at) == ("a", 1, T0 + TTL)
    assert leases.claim(NL1, "a", TTL, T0 + 2) == 1                        # its own: the same tenure, longer
    assert leases.owner(NL1, T0 + 2).expires_at == T0 + 2 + TTL
    assert [x.resource for x in leases.held_by("a", T0 + 2)] == [NL1] and leases.held_by("b", T0 + 2) == []


def test_an_expired_lease_is_taken_over_at_a_bigger_epoch(store):
    leases = store.leases
    leases.claim(T7, "a", TTL, T0)
    leases.claim(BJ1, "a", TTL, T0 + 3)
    assert leases.expired(T0 + TTL - 0.5) == []
    assert leases.expired(T0 + TTL) == [T7]                                # ran out; BJ1 still has 3 s
    assert leases.owner(T7, T0 + TTL) is None
    assert leases.claim(T7, "b", TTL, T0 + TTL) == 2
    assert leases.claim(T7, "c", TTL, T0 + TTL) is None                    # b's now, and live
    assert leases.owner(T7, T0 + TTL).node == "b" and leases.expired(T0 + TTL) == []
    assert leases.claim(T7, "b", TTL, T0 + 3 * TTL) == 3                   # b's own, but it ran out: a new tenure


def test_renewal_keeps_a_lease_and_a_node_that_lost_one_cannot_renew_it(store):
    leases = store.leases
    for name in (NL1, T7, BJ1):
        leases.claim(name, "a", TTL, T0)
    assert leases.renew("a", [NL1, T7, BJ1], TTL, T0 + 2) == {NL1, T7, BJ1}
    assert leases.renew("a", [NL1, T7, BJ1], TTL, T0 + 4) == {NL1, T7, BJ1}
    assert leases.expired(T0 + TTL + 1) == [] and leases.claim(NL1, "b", TTL, T0 + TTL + 1) is None
    assert leases.renew("a", [NL1, T7], TTL, T0 + 6) == {NL1, T7}
    assert leases.expired(T0 + 4 + TTL) == [BJ1]                            # not renewed since 4: ran out
    assert leases.claim(BJ1, "b", TTL, T0 + 4 + TTL) == 2
    assert leases.renew("a", [NL1, T7, BJ1], TTL, T0 + 4 + TTL) == {NL1, T7}    # BJ1 is b's: not renewed
    assert leases.owner(BJ1, T0 + 4 + TTL).node == "b"
    assert leases.renew("b", [NL1], TTL, T0 + 11) == set()                   # nobody renews a lease it never had
    assert leases.renew("a", [NL1], TTL, T0 + 100) == set()                  # ran out before it was renewed
    assert leases.owner(NL1, T0 + 100) is None


def test_a_released_lease_can_be_claimed_at_once_at_the_next_epoch(store):
    leases = store.leases
    leases.claim(NL1, "a", TTL, T0)
    leases.claim(T7, "a", TTL, T0)
    leases.claim(BJ1, "b", TTL, T0)
    leases.release("a", [NL1, T7, BJ1])                                     # BJ1 is not a's: left alone
    assert leases.expired(T0 + 1) == [NL1, T7] and leases.owner(BJ1, T0 + 1).node == "b"
    assert leases.held_by("a", T0 + 1) == []
    assert leases.claim(NL1, "b", TTL, T0 + 1) == 2
    assert leases.renew("a", [T7], TTL, T0 + 1) == set()                     # released is given up: claim again
    assert leases.claim(T7, "a", TTL, T0 + 1) == 2


def test_a_retired_lease_is_gone_and_only_its_owner_retires_it(store):
    leases = store.leases
    leases.claim(NL1, "a", TTL, T0)
    leases.retire("b", NL1)
    assert leases.owner(NL1, T0).node == "a"
    leases.retire("a", NL1)
    assert leases.owner(NL1, T0) is None and leases.expired(T0 + 100) == []       # no candidate for a takeover


def test_a_former_owners_writes_are_fenced_out_as_a_whole_once_its_table_was_taken_over(store):
    leases = store.leases
    epoch = leases.claim(NL1, "a", TTL, T0)
    store.together([(leases.fence, (NL1, "a", epoch)),
                    (store.tables.save_cash_table, ("nl-1", {"game": "nlhe"}, "a", T0))])
    assert [t.id for t in store.tables.open_cash_tables()] == ["nl-1"]
    assert leases.claim(NL1, "b", TTL, T0 + TTL) == epoch + 1
    with pytest.raises(LeaseLost, match="a no longer holds cash:nl-1 at epoch 1"):
        store.together([(leases.fence, (NL1, "a", epoch)),
                        (store.tables.cash_table_closed, ("nl-1", T0 + TTL))])
    assert [t.id for t in store.tables.open_cash_tables()] == ["nl-1"]     # nothing of the fenced write landed
    with pytest.raises(LeaseLost):
        leases.fence(resource("cash", "never-claimed"), "a", 1)
    leases.fence(NL1, "b", epoch + 1)                                       # the new owner's pass


def test_a_takeover_waits_for_a_write_already_past_the_fence_on_postgresql():
    with postgres_database() as url:
        engine = make_engine(url)
        migrate(engine)
        owner = RoomStore(engine)
        # the taker gives up waiting for a lock after 0.3 s instead of waiting for ever
        taker = RoomStore(create_engine(url, connect_args={"options": "-c lock_timeout=300"}))
        try:
            owner.leases.claim(NL1, "a", TTL, T0)
            outcome = []

            def takeover_meanwhile() -> None:
                try:
                    outcome.append(taker.leases.claim(NL1, "b", TTL, T0 + 60))
                except OperationalError as e:
                    outcome.append("lock timeout" in str(e))

            owner.together([(owner.leases.fence, (NL1, "a", 1)), (takeover_meanwhile, ())])
            assert outcome == [True]                            # the claim could not pass the open write
            assert taker.leases.claim(NL1, "b", TTL, T0 + 60) == 2      # committed: now it goes
        finally:
            engine.dispose()
            taker.engine.dispose()


def test_claiming_several_at_once_takes_only_those_that_ran_out_each_at_its_next_epoch(store):
    """A dead process's tables are claimed in one transaction: each that ran out (or is new) is the claimer's, at a
    bigger epoch; one another node holds live is left out, untouched."""
    leases = store.leases
    leases.claim(NL1, "a", TTL, T0)
    leases.claim(T7, "a", TTL, T0)
    leases.claim(BJ1, "c", TTL, T0 + TTL)                  # live until T0 + 2 TTL
    new = resource("cash", "nl-2")
    assert leases.claim_all([NL1, T7, BJ1, new], "b", TTL, T0 + TTL) == {NL1: 2, T7: 2, new: 1}
    assert leases.owner(BJ1, T0 + TTL).node == "c" and leases.owner(BJ1, T0 + TTL).epoch == 1
    assert leases.claim_all([], "b", TTL, T0 + TTL) == {}


def test_a_renewal_does_not_wait_for_the_owners_own_open_fenced_write_on_postgresql():
    """A live owner's renewal never queues behind its tables' writes in the database: they hold the lease row FOR
    KEY SHARE, which the renewal (no key changed) passes and only a claim waits for (bench/cluster.py once saw a
    renewal wait there, and deadlock with a batch fencing two tables, and the live process lose its tables)."""
    with postgres_database() as url:
        engine = make_engine(url)
        migrate(engine)
        owner = RoomStore(engine)
        renewer = RoomStore(create_engine(url, connect_args={"options": "-c lock_timeout=300"}))
        try:
            owner.leases.claim(NL1, "a", TTL, T0)
            renewed = []
            owner.together([(owner.leases.fence, (NL1, "a", 1)),
                            (lambda: renewed.append(renewer.leases.renew("a", [NL1], TTL, T0 + 1)), ())])
            assert renewed == [{NL1}]                           # renewed while the fenced write was open
            assert owner.leases.owner(NL1, T0 + 1).expires_at == T0 + 1 + TTL
        finally:
            engine.dispose()
            renewer.engine.dispose()


CLAIMERS = 8


def test_claimers_racing_from_their_own_connections_leave_exactly_one_owner_on_postgresql():
    with postgres_database() as url:
        first = make_engine(url)
        migrate(first)
        first.dispose()
        stores = [RoomStore(make_engine(url)) for _ in range(CLAIMERS)]
        try:
            for store in stores:                                # connected before the race, as a running room is
                store.leases.owner(NL1, T0)
            # rounds 0-1: a new table each; rounds 2-3: the first table's lease, run out, taken over
            names = [resource("cash", "race-0"), resource("cash", "race-1")] * 2
            times = [T0, T0, T0 + 10 * TTL, T0 + 20 * TTL]
            won_epochs = []
            for name, now in zip(names, times, strict=True):
                barrier = threading.Barrier(CLAIMERS)
                results: list = [None] * CLAIMERS

                def claim(i: int, name: str = name, now: float = now, barrier: threading.Barrier = barrier,
                          results: list = results) -> None:
                    barrier.wait()
                    results[i] = stores[i].leases.claim(name, f"node-{i}", TTL, now)

                threads = [threading.Thread(target=claim, args=(i,)) for i in range(CLAIMERS)]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join(30)
                winners = [i for i, epoch in enumerate(results) if epoch is not None]
                assert len(winners) == 1, results
                lease = stores[0].leases.owner(name, now)
                assert lease.node == f"node-{winners[0]}" and lease.epoch == results[winners[0]]
                won_epochs.append((name, lease.epoch))
            assert won_epochs == [(names[0], 1), (names[1], 1), (names[0], 2), (names[1], 2)]
        finally:
            for store in stores:
                store.engine.dispose()
