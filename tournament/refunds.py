"""What each player gets back when a tournament is cancelled or the server failed during it (TR-REFUND).

Pure arithmetic over the state at the start of the interrupted hands: the
director (or the restart after a crash) gathers that state and pays the
result through the ledger with the case as its reason. Three cases:

- **Not started** (TR-REFUND-2): every registrant gets buy-in and fee back.
- **Started, not in the money** (TR-REFUND-3): each remaining player gets the
  fee of their live entry, plus the prize pool collected so far shared half
  evenly and half by chips. Eliminated players get nothing more.
- **In the money** (TR-REFUND-4, with its interpretation): with ``k`` players
  left, each gets the prize of place ``k``; what the places 1..k pay beyond
  ``k`` times that is shared by chips; fees are refunded too.

Only money collected is shared: prizes must be those of the collected pool,
not of a guarantee that was not reached (TR-REFUND-5). Bounties (TR-PLAY-6,
interpretation): bounties a player holds are paid to them and their own bounty
is refunded to them. Every amount is rounded down once per player
(TR-PRIZE-3, TR-REFUND-7); the remainder goes to the rounding account.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from tournament.prizes import descending, round_down

NOT_STARTED, BEFORE_THE_MONEY, IN_THE_MONEY = "TR-REFUND-2", "TR-REFUND-3", "TR-REFUND-4"


class RefundError(ValueError):
    """State a refund cannot be computed from."""

    rule = "TR-REFUND-7"


@dataclass(frozen=True)
class Remaining:
    """A player still in when play stopped."""

    player: str
    chips: int                 # at the start of the interrupted hand
    fee: int                   # the fee of their live entry
    bounty_held: int = 0       # bounties won and held until the money (TR-PLAY-6)
    own_bounty: int = 0        # the bounty on their own head


@dataclass(frozen=True)
class Refund:
    case: str                          # the rule the amounts follow: the ledger's reason
    amounts: dict[str, int]            # player -> minor units
    remainder: int                     # to the rounding account

    @property
    def total(self) -> int:
        return sum(self.amounts.values()) + self.remainder


def before_the_start(registrations: Mapping[str, tuple[int, int]]) -> Refund:
    """TR-REFUND-2: ``registrations`` maps each registrant to (prize-pool part, fee) they paid."""
    for player, parts in registrations.items():
        if any(type(x) is not int or x < 0 for x in parts):
            raise RefundError(f"{player} paid an amount that is not whole minor units, zero or more")
    return Refund(NOT_STARTED, {p: pool + fee for p, (pool, fee) in registrations.items()}, 0)


def after_the_start(remaining: Sequence[Remaining], prize_pool: int, prizes: Sequence[int]) -> Refund:
    """TR-REFUND-3 or -4 for the players in ``remaining``; ``prizes`` pays places 1.. of the collected pool."""
    _check(remaining, prize_pool, prizes)
    k = len(remaining)
    chips = sum(r.chips for r in remaining)
    if k <= len(prizes):                                     # "in the money": no more players than places
        unpaid = list(prizes[:k])
        floor_prize = unpaid[-1]
        by_chips = Fraction(sum(unpaid) - k * floor_prize)
        shares = {r.player: floor_prize + by_chips * r.chips / chips for r in remaining}
        case, shared = IN_THE_MONEY, sum(unpaid)
    else:
        half = Fraction(prize_pool, 2)
        shares = {r.player: half / k + half * r.chips / chips for r in remaining}
        case, shared = BEFORE_THE_MONEY, prize_pool
    owed = shared + sum(r.fee + r.bounty_held + r.own_bounty for r in remaining)
    amounts, remainder = round_down([shares[r.player] + r.fee + r.bounty_held + r.own_bounty for r in remaining],
                                    owed)                   # one award per player: rounded down once
    return Refund(case, {r.player: a for r, a in zip(remaining, amounts, strict=True)}, remainder)


def _check(remaining: Sequence[Remaining], prize_pool: int, prizes: Sequence[int]) -> None:
    if not remaining:
        raise RefundError("nobody remains to refund: a finished tournament has nothing to refund")
    if len({r.player for r in remaining}) != len(remaining):
        raise RefundError("a player appears twice among the remaining")
    for r in remaining:
        if any(type(x) is not int or x < 0 for x in (r.chips, r.fee, r.bounty_held, r.own_bounty)):
            raise RefundError(f"{r.player}'s chips, fee and bounties must be whole numbers, zero or more")
    if not any(r.chips for r in remaining):
        raise RefundError("the remaining players hold no chips")
    if type(prize_pool) is not int or prize_pool < 0 or any(type(p) is not int or p < 0 for p in prizes):
        raise RefundError("the prize pool and prizes are whole minor units, zero or more")
    if sum(prizes) > prize_pool:
        raise RefundError("the prizes pay more than was collected: only collected money is shared "
                          "(TR-REFUND-5)")
    if not descending(prizes):
        raise RefundError("prizes must not grow with the place")
