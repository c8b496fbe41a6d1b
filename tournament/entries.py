"""A tournament's states, its entries and the deal on the table: what the director keeps of each player.

Re-exported by :mod:`tournament.director`; :mod:`tournament.saved_state`
turns them into records.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tournament import deals, staking

REGISTERING, RUNNING, FINISHED, CANCELLED = "registering", "running", "finished", "cancelled"


@dataclass
class Entry:
    player: str
    number: int = 1              # which entry of this player
    fee: int = 0                 # the fee of this entry (TR-REFUND-3)
    paid_pool: int = 0           # to the prize pool: buy-in, rebuys, add-on
    paid_bounty: int = 0
    rebuys: int = 0
    add_on: bool = False
    own_bounty: int = 0          # the bounty on this entry's head (TR-PLAY-6)
    held: int = 0                # bounties won, in escrow until the money
    source: str = ""             # the account the entry was paid from
    ticket: bool = False         # won through a satellite or giveaway: cannot unregister (TR-REG-5)
    stakes: list[staking.Stake] = field(default_factory=list)
    table: str = ""
    place: tuple[int, ...] = ()
    ordinal: int = 0             # registrations before it: live entries keep this order when restored
    out: int | None = None       # its index among the busted, once busted (the saved records' order)


@dataclass
class Deal:
    kind: str
    left_to_play_for: int
    by: str
    offer: deals.DealOffer | None = None
    players: tuple[str, ...] = ()
    accepted: set[str] = field(default_factory=set)
