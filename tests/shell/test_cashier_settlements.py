"""The cashier's one settling process (issue 21): on several processes only the holder of the lease
``cashier:settlements`` asks the payment provider at start about what is unanswered; when it dies, the process that
takes the lease over asks about what is still unsettled -- and a deposit settled by both is credited once. Two rooms
on one database, on Clocks."""

from __future__ import annotations

import pytest

from pokerroom.bus.subjects import CASHIER_PENDING
from pokerroom.shell.cashier import RETRY_FIRST
from pokerroom.shell.leases import TTL
from pokerroom.shell.payments import Payment
from pokerroom.store.lease_records import resource
from tests.support.cashier_room import BOUNDS, FakeProvider, account
from tests.support.clocked_room import TABLES, request, resolved, settle
from tests.support.leased_rooms import nodes
from tests.support.together import shared_database

STEP = 0.5
SETTLEMENTS = resource("cashier", "settlements")


class Provider:
    """A payment provider that approves every deposit, and tells which process asked about which reference."""

    name = "test"

    def __init__(self, node: str, asked: list) -> None:
        self.node, self.asked = node, asked

    def authorise_deposit(self, player: str, amount: int, reference: str) -> Payment:
        self.asked.append((self.node, reference))
        return Payment(True, f"p-{reference}")

    def pay_out(self, player: str, amount: int, reference: str) -> Payment:
        self.asked.append((self.node, reference))
        return Payment(True, f"p-{reference}")


def run(seconds: float, *rooms) -> None:   # noqa: ANN002
    """Time passes for the living rooms, together."""
    for _ in range(round(seconds / STEP)):
        for room in rooms:
            room.reactor.advance(STEP)
            settle(room)


def asked_deposit(room, reference: str, amount: int = 500) -> None:   # noqa: ANN001
    """A deposit asked of the provider whose answer was never stored (its process stopped while asking)."""
    room.recorder.audit("cashier_deposit_asked", player="ana", amount=amount, reference=reference)
    settle(room)


def deposited(room, player: str = "ana") -> int:   # noqa: ANN001
    return sum(amount for who, amount, _ in room.store.cashier.world_movements_since("deposit", 0.0) if who == player)


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    with shared_database(request.param, tmp_path) as made:
        yield made


def test_only_the_lease_holder_asks_at_start_and_the_process_taking_it_over_asks_about_what_is_unsettled(url):
    asked: list = []

    def provider(room) -> None:   # noqa: ANN001
        room.cashier.provider = Provider(room.node, asked)

    with nodes(url, "a", config=TABLES, prepare=provider) as (a,):
        a.store.accounts.create_account("ana", "ana", "-", "1990-01-01", "NL", 0.0)
        asked_deposit(a, "dep-1")
    # a restart of the room: two processes, "a" first; dep-1 is still unanswered
    with nodes(url, "a", "b", config=TABLES, prepare=provider) as (a, b):
        assert a.store.leases.owner(SETTLEMENTS, a.reactor.seconds()).node == "a"
        assert asked == [("a", "dep-1")]                    # the holder asked; b, started after it, did not
        assert deposited(a) == 500
        assert a.cashier.settling and not b.cashier.settling

        asked_deposit(a, "dep-2", 300)                      # a is killed while asking: its clock turns no more
        run(TTL + TTL / 3 + 1, b)
        assert b.store.leases.owner(SETTLEMENTS, b.reactor.seconds()).node == "b"
        assert b.cashier.settling
        assert asked == [("a", "dep-1"), ("b", "dep-2")]    # b asked about what was still unsettled, once
        assert deposited(b) == 800

        a.cashier._settle_deposit("ana", 300, "dep-2", True)    # a wakes up and its answer lands too
        settle(a)
        assert asked[-1] == ("a", "dep-2") and deposited(b) == 800      # credited once


def test_a_request_the_provider_left_unanswered_on_another_process_is_asked_again_by_the_holder_only(url):
    """b takes ana's deposit and the provider is silent: b does not retry, it hands the deposit to the settling
    process (``cashier.pending``, here carried from b's bus to a's as NATS would), which asks again later."""
    providers = {"a": FakeProvider(), "b": FakeProvider("silent", then="silent")}

    def provider(room) -> None:   # noqa: ANN001
        room.cashier.provider = providers[room.node]
        room.cashier.bounds = BOUNDS

    with nodes(url, "a", "b", config=TABLES, prepare=provider) as (a, b):
        b.bus.subscribe(CASHIER_PENDING, lambda subject, pending: a.bus.publish(subject, pending))
        ana = account(b, "ana")
        pending = request(b, ana, "deposit", amount=900)
        run(BOUNDS.provider_seconds, a, b)
        assert resolved(pending)["error"]["code"] == "payment_unavailable"
        (reference,) = [call[3] for call in providers["b"].calls]
        run(RETRY_FIRST, a, b)                              # a, the holder, asks again: approved, credited once
        assert providers["a"].calls == [("deposit", "ana", 900, reference)]
        assert deposited(a) == 900
        run(4 * RETRY_FIRST, a, b)                          # and b never asks again
        assert len(providers["b"].calls) == 1 and len(providers["a"].calls) == 1
        assert a.cashier.settling and not b.cashier.settling
