"""The cashier in process on a ``Clock``, with a fake payment provider that answers as a test tells it: a started
room serving a :class:`~pokerroom.shell.cashier.Cashier`, stored accounts logged in, and the one conservation check
(tests/shell/test_cashier.py, tests/store/test_cashier_records.py)."""

from __future__ import annotations

from twisted.internet import defer
from twisted.internet.task import Clock

from pokerroom.money.accounts import WORLD, Kind, parse
from pokerroom.shell.cashier import Cashier
from pokerroom.shell.house_deposits import HouseDeposits
from pokerroom.shell.payments import CashierBounds, Payment
from pokerroom.store.room_store import RoomStore
from tests.support.clocked_room import Connection, deposit, make_room, request, resolved, settle
from tournament.bounds import EventBounds

START = 1_000_000.0
BOUNDS = CashierBounds(min_deposit=10, max_deposit=100_000, min_withdrawal=10, max_withdrawal=100_000,
                       requests_per_minute=600, requests_burst=600)


class FakeProvider:
    """Answers as told (``approve``, ``refuse``, ``fail``, ``silent``), one per call, then ``then``; keeps calls.

    Idempotent on the reference, as a provider must be: a reference it has answered gets the same answer."""

    name = "fake"

    def __init__(self, *answers: str, then: str = "approve") -> None:
        self.answers = list(answers)
        self.then = then
        self.calls: list[tuple[str, str, int, str]] = []
        self.answered: dict[str, Payment] = {}
        self.moved: dict[str, int] = {}          # reference -> money it took (deposit) or paid (withdrawal)

    def _answer(self, what: str, player: str, amount: int, reference: str):   # noqa: ANN202
        self.calls.append((what, player, amount, reference))
        if reference in self.answered:
            return self.answered[reference]
        kind = self.answers.pop(0) if self.answers else self.then
        if kind == "fail":
            raise ConnectionError("the provider is down")
        if kind == "silent":
            return defer.Deferred()
        payment = Payment(kind == "approve", f"fake-{reference}", "" if kind == "approve" else "card declined")
        self.answered[reference] = payment
        if payment.approved:
            self.moved[reference] = amount
        return payment

    def authorise_deposit(self, player: str, amount: int, reference: str):   # noqa: ANN201
        return self._answer("deposit", player, amount, reference)

    def pay_out(self, player: str, amount: int, reference: str):   # noqa: ANN201
        return self._answer("pay_out", player, amount, reference)


def cashier_room(store: RoomStore, provider, clock: Clock | None = None, bounds: CashierBounds = BOUNDS,  # noqa: ANN001
                 **rules):   # noqa: ANN003, ANN201
    """A started room with a cashier, on ``clock`` (a restart: the same store, a new room)."""
    if clock is None:
        clock = Clock()
        clock.advance(START)
    room = make_room(store, clock, **rules)
    house = HouseDeposits(room.reactor, room.store, lambda: EventBounds(max_house_deposit=50_000,
                                                                        max_house_deposits_per_admin_day=80_000,
                                                                        max_house_deposits_per_day=100_000))
    room.cashier_moves.install_credits(house)                 # the admin's credits, bounded where the money is
    cashier = Cashier(room.reactor, room.store, room.recorder, room.account_rules, room.play_check, room.moderation,
                      room.bus, provider, bounds)
    room.gateway.serve(cashier)
    cashier.recover()
    settle(room)                                # its asks of the wallet's side answered (a broker's later turns)
    return room, cashier, clock


def account(room, name: str, country: str = "NL", role: str = "player", **fields):   # noqa: ANN001, ANN003, ANN201
    """A stored account and a session logged in on it (nothing in its wallet)."""
    key = name.casefold()
    if room.store.accounts.find_account(key) is None:
        room.store.accounts.create_account(name, key, "not-a-hash", "1990-01-01", country, room.reactor.seconds())
    if role != "player" or fields:
        room.store.accounts.update_account(key, role=role, **fields)
    session = room.gateway.connected(Connection(), "10.0.0.9")
    session.player_id, session.country, session.role = name, country, role
    room.gateway.identify(session, name)
    return session


def ask(room, session, kind: str, **fields) -> dict:   # noqa: ANN001
    return resolved(request(room, session, kind, **fields))


def refusal(answer: dict) -> tuple[str, str]:
    assert answer["ok"] is False, answer
    return answer["error"]["code"], answer["error"]["rule"]


def players_hold(room) -> int:   # noqa: ANN001
    """Every player's money: wallets, escrows, and withdrawals held for the provider."""
    return sum(v for a, v in room.wallet.books.balances.items()
               if (p := parse(a)) is not None and p.kind in (Kind.WALLET, Kind.PAYOUT, Kind.TABLE))


def assert_conserved(room) -> None:   # noqa: ANN001
    """What came in from outside and did not go out is what the players hold, in memory and in the store."""
    assert room.wallet.books.check()
    assert -room.wallet.books.balance(WORLD) == players_hold(room)
    assert room.store.ledger.ledger_check() and room.store.ledger.ledger_problems() == []
    assert room.store.ledger.load_ledger().balances == {a: v for a, v in room.wallet.books.balances.items() if v}


def funded(room, name: str = "ana", amount: int = 10_000, **fields):   # noqa: ANN001, ANN003, ANN201
    session = account(room, name, **fields)
    deposit(room, name, amount)
    return session
