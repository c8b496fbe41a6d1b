"""What happens at a casino table, as small records of plain data.

Every casino table returns these from its commands (DESIGN.md idea 1). They
carry ints, strings, bools, ``None`` and tuples only, so the shell sends them
as they are (:func:`event_to_dict`). Three kinds matter to the shell:

* **money** -- :class:`Staked` (a player's money goes on the table: a bet, a
  double, a split, insurance), :class:`RoundSettled` (every bet of the round,
  what was staked and what is handed back, in one go: CR-4) and
  :class:`RoundVoided` (every stake refunded: CR-5). The shell posts them to
  the ledger and nowhere else does casino money move;
* **private** -- events about one player's own play (:data:`PRIVATE`) go only
  to that player; everything else is public to the table;
* **hidden** -- a card dealt face down (:class:`CardDealt` with ``face_up``
  false: the dealer's hole card) is sent without its card until
  :class:`HoleCardRevealed`; the shoe's order is never sent (HR-RNG-2).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from pokerroom.poker.events import wire_name


@dataclass(frozen=True, slots=True)
class ShoeShuffled:
    """A new shoe: ``burned`` cards burned face down per the game's procedure (IB-2, BOB-4)."""
    table: str
    decks: int
    burned: int
    shown: int | None = None            # IB-2: the card whose value set the burn, shown to all


@dataclass(frozen=True, slots=True)
class RoundOpened:
    table: str
    round: int
    seconds: float                      # betting time (CR-2)
    window: int = 1                     # Bet on Baccarat has three betting windows per draw (BOB-2)
    odds: tuple[tuple[str, int | None], ...] = ()   # BOB: the market prices of this window, hundredths
    closed_markets: tuple[str, ...] = ()             # markets taking no bets this round (IB-10, BOB-3)


@dataclass(frozen=True, slots=True)
class BetPlaced:
    table: str
    round: int
    player: str
    market: str
    amount: int                         # this bet's whole stake on the market after the chips added
    odds: int | None = None             # BOB: decimal odds in hundredths, fixed when placed (BOB-2)
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Staked:
    """Money moves from the player's wallet onto the table."""
    table: str
    round: int
    player: str
    amount: int
    why: str                            # "bet" | "double" | "split" | "insurance"


@dataclass(frozen=True, slots=True)
class BettingClosed:
    """No more bets (CR-2)."""
    table: str
    round: int
    window: int = 1


@dataclass(frozen=True, slots=True)
class CardDealt:
    table: str
    round: int
    to: str                             # "player" | "banker" | "dealer" | "hand" | "sequence"
    card: int | None                    # None when face down
    face_up: bool = True
    index: int = 0                      # blackjack: the seat (live) or the common sequence position (infinite)
    hand: int = 0                       # blackjack: the seat's hand after a split (0 or 1)


@dataclass(frozen=True, slots=True)
class HoleCardRevealed:
    table: str
    round: int
    card: int


@dataclass(frozen=True, slots=True)
class BallLanded:
    table: str
    round: int
    pocket: int
    colour: str


@dataclass(frozen=True, slots=True)
class DecisionNeeded:
    """A decision is due: ``who`` is a player (live blackjack) or empty for everyone in the round."""
    table: str
    round: int
    who: str
    phase: str                          # "insurance" | "play"
    seconds: float
    hand: int = 0
    moves: tuple[str, ...] = ()
    decision: str = ""                  # its id, sent back with the move (``casino_decide``; stale_decision)


@dataclass(frozen=True, slots=True)
class Decided:
    table: str
    round: int
    player: str
    hand: int
    move: str
    auto: str = ""                      # why the room chose: "timeout" (BJ-4, IB-6), "no_funds" (IB-5)
    cards: tuple[int, ...] = ()         # the hand after the move


@dataclass(frozen=True, slots=True)
class LastRound:
    """The cut card came out: this round is the last before the shuffle (BA-1, BJ-2, IB-2)."""
    table: str
    round: int


@dataclass(frozen=True, slots=True)
class Payout:
    player: str
    market: str
    staked: int
    returned: int                       # handed back, stake included; 0 when the bet lost
    detail: str = ""                    # the pattern or result that decided it


@dataclass(frozen=True, slots=True)
class RoundSettled:
    table: str
    round: int
    result: str                         # one line: "banker 7 - player 5", "17 red", "dealer 20"
    payouts: tuple[Payout, ...]


@dataclass(frozen=True, slots=True)
class RoundVoided:
    table: str
    round: int
    reason: str
    refunds: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class RoundWaiting:
    """The round waits for a disconnected player until ``until`` (CR-6)."""
    table: str
    round: int
    player: str
    until: float


PRIVATE = (Staked, BetPlaced, Decided)  # about one player's own money and play: theirs only
EVENT_TYPES = {wire_name(cls): cls for cls in (
    ShoeShuffled, RoundOpened, BetPlaced, Staked, BettingClosed, CardDealt, HoleCardRevealed, BallLanded,
    DecisionNeeded, Decided, LastRound, RoundSettled, RoundVoided, RoundWaiting)}


_WIRE = {cls: (name, tuple(f.name for f in dataclasses.fields(cls))) for name, cls in EVENT_TYPES.items()}


def event_to_dict(event: Any) -> dict[str, Any]:
    """``{"type": "card_dealt", ...}``; the names are worked out once per class (Infinite Blackjack sends thousands)."""
    name, fields = _WIRE[type(event)]
    out: dict[str, Any] = {"type": name}
    for field in fields:
        out[field] = getattr(event, field)
    if "payouts" in out:
        out["payouts"] = [dataclasses.asdict(p) for p in out["payouts"]]
    return out
