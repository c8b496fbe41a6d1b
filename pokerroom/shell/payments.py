"""Payment providers: where the cashier's money comes from and goes to, outside the room.

The cashier (:mod:`pokerroom.shell.cashier`) asks a provider two things: may
this deposit be taken (``authorise_deposit``), and pay this withdrawal out
(``pay_out``). Each answer is a :class:`Payment` -- approved or refused, with the
provider's own reference for the record -- or a Deferred of one; a provider that
cannot answer raises (or fails its Deferred) and the cashier treats that as "not
done": a deposit is not credited, a withdrawal's held money stays held and is
asked about again, with the same reference, at the next start.

So every provider must be **idempotent on the cashier's reference**: asked twice
with one reference, it moves money once and answers the same both times. That is
what lets a restart finish whatever a crash interrupted without paying twice.

:class:`PlayMoney` is the built-in provider: play money, approved within the
bounds of the ``[cashier]`` config section.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Protocol

from twisted.internet import defer


@dataclass(frozen=True, slots=True)
class Payment:
    """A provider's answer: approved or not, its own reference (stored with the transfer), and why if refused."""

    approved: bool
    provider_reference: str = ""
    reason: str = ""


class PaymentProvider(Protocol):
    """What the cashier needs of a real payment service (docs/operations.md, "Cashier and payment providers")."""

    name: str

    def authorise_deposit(self, player: str, amount: int, reference: str) -> Payment | defer.Deferred:
        """Take ``amount`` minor units from the player's payment method; approved means the money is the room's."""

    def pay_out(self, player: str, amount: int, reference: str) -> Payment | defer.Deferred:
        """Send ``amount`` to the player's payment method; approved means it has left for good."""


@dataclass(frozen=True, slots=True)
class CashierBounds:
    """The ``[cashier]`` section: what one request may move, and how often a player may ask."""

    min_deposit: int = 100                  # minor units
    max_deposit: int = 10_000_000
    min_withdrawal: int = 100
    max_withdrawal: int = 10_000_000
    requests_per_minute: float = 6.0        # deposits and withdrawals together, per player
    requests_burst: float = 6.0
    provider_seconds: float = 30.0          # a provider that has not answered by then: "unavailable"

    @classmethod
    def from_config(cls, data: dict) -> CashierBounds:
        """``ValueError`` names an unknown key or a bad value."""
        section = dict(data.get("cashier", {}))
        known = {f.name: f for f in fields(cls)}
        for key, value in section.items():
            if key not in known:
                raise ValueError(f"[cashier] has no setting {key!r}")
            if type(value) not in (int, float) or value <= 0 or (known[key].type == "int" and type(value) is not int):
                raise ValueError(f"[cashier] {key} must be a positive {known[key].type}, not {value!r}")
        bounds = cls(**section)
        if bounds.min_deposit > bounds.max_deposit or bounds.min_withdrawal > bounds.max_withdrawal:
            raise ValueError("[cashier] a minimum is above its maximum")
        return bounds


class PlayMoney:
    """The built-in provider: play money, so every request within the cashier's bounds is approved.

    Its references are the cashier's own (nothing outside the room to name), which
    makes it idempotent for free.
    """

    name = "play_money"

    def __init__(self, bounds: CashierBounds) -> None:
        self.bounds = bounds

    def authorise_deposit(self, player: str, amount: int, reference: str) -> Payment:
        if not self.bounds.min_deposit <= amount <= self.bounds.max_deposit:
            return Payment(False, reason="outside the play-money bounds")
        return Payment(True, f"play-{reference}")

    def pay_out(self, player: str, amount: int, reference: str) -> Payment:
        if not self.bounds.min_withdrawal <= amount <= self.bounds.max_withdrawal:
            return Payment(False, reason="outside the play-money bounds")
        return Payment(True, f"play-{reference}")


def as_payment(answer: Any) -> Payment:
    """A provider's answer checked: anything but a :class:`Payment` is a provider fault (``TypeError``)."""
    if not isinstance(answer, Payment):
        raise TypeError("a payment provider answers with a Payment")
    return answer
