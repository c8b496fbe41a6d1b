"""A tournament's definition: game, money, stacks, levels, breaks and entry rules (TR-REG, TR-PLAY-1/2).

Definitions come from ``config/structures/*.toml`` or from a director at run
time as the same dictionary (:meth:`TournamentSpec.from_dict`). Money is in
minor units, chips are whole numbers, durations in seconds. A bad definition
raises :class:`StructureError` with one sentence naming the field, so a
director sees what to fix before anyone registers.

Buy-in (TR-REG-2) is ``buy_in`` to the prize pool plus ``bounty`` (to the
bounty escrow, knockout events only) plus ``fee`` to the house; the lobby
shows all three.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields, replace
from fractions import Fraction
from pathlib import Path

from pokerroom.poker.variants import VARIANTS, Stakes


class StructureError(ValueError):
    """A tournament definition that cannot be run, in a sentence."""

    rule = "TR-PLAY-1"


@dataclass(frozen=True)
class Level:
    """A blind level (TR-PLAY-1): blinds, ante or big-blind ante, and how long it lasts."""

    small_blind: int
    big_blind: int
    ante: int = 0
    big_blind_ante: bool = False
    seconds: int = 600

    def stakes(self) -> Stakes:
        return Stakes(self.small_blind, self.big_blind, self.ante, self.big_blind_ante)


@dataclass(frozen=True)
class Break:
    """A scheduled break after a level (TR-PLAY-2)."""

    after_level: int            # 1-based: the break follows this level
    seconds: int = 300


@dataclass(frozen=True)
class TournamentSpec:
    id: str
    name: str
    game: str = "NLHE"
    buy_in: int = 1000                  # to the prize pool (TR-REG-2)
    fee: int = 100                      # to the house (HR-RAKE-3)
    bounty: int = 0                     # to the bounty escrow: a knockout tournament (TR-PLAY-6)
    progressive_share: Fraction = Fraction(1)  # of a bounty won, the share paid to the winner (PKO < 1)
    starting_stack: int = 10_000
    levels: tuple[Level, ...] = ()
    breaks: tuple[Break, ...] = ()
    table_size: int = 9
    min_players: int = 2
    max_players: int = 10_000
    start_at: float | None = None       # scheduled start (TR-REG-1); None: a sit & go, starting when full
    late_registration_levels: int = 0   # levels after the start during which entries are taken (TR-REG-4)
    unregister_until: int | None = 0    # seconds before the start unregistering ends; None forbids (TR-REG-5)
    re_entries: int = 0                 # entries after the first, per player (TR-REG-6)
    rebuys: int = 0                     # rebuys per entry, while at or below the starting stack
    rebuy_levels: int = 0               # levels during which rebuys are open
    add_on_stack: int = 0               # chips of the one add-on at the end of the rebuy period; 0: none
    add_on_cost: int = 0                # to the prize pool
    guarantee: int = 0                  # TR-PRIZE-2
    payouts: str = "standard"           # config/payouts/<name>.toml
    remainder_to_top: bool = False      # TR-PRIZE-3: rounding onto the first prize rather than recorded
    time_bank: int = 30                 # seconds per entry
    disconnect_protection: int = 60     # HR-DC-4: late-stage extra seconds for a disconnected player; 0: none
    late_stage_players: int = 0         # HR-DC-4: the late stage starts at this many players left; 0: in the money
    deals: bool = False                 # TR-DEAL-1
    director_approves_deals: bool = False   # a deal every player accepted waits for the director's approval
    deal_seconds: int = 120             # the time every player has to accept a deal
    block_chat_in_hand: bool = False    # HR-CHAT-4: players dealt into a table's hand may not chat there until it ends
    satellite_target: str = ""          # TR-PRIZE-5: seats to this tournament instead of cash
    satellite_seat_value: int = 0       # the target's buy-in plus fee
    satellite_seat_fee: int = 0         # the target's fee: what a seat holder's T$ leaves out
    currency: str = "USD"

    def __post_init__(self) -> None:
        if self.game not in VARIANTS:
            raise StructureError(f"game {self.game!r} is not one of {sorted(VARIANTS)}")
        for name in ("buy_in", "fee", "bounty", "starting_stack", "guarantee", "add_on_cost", "add_on_stack",
                     "re_entries", "rebuys", "rebuy_levels", "late_registration_levels", "time_bank",
                     "disconnect_protection", "late_stage_players"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise StructureError(f"{name} must be a whole number, zero or more, not {value!r}")
        if self.starting_stack <= 0:
            raise StructureError("the starting stack must be at least one chip")
        if not self.levels:
            raise StructureError("a tournament needs at least one blind level")
        for i, level in enumerate(self.levels, 1):
            try:
                level.stakes()
            except ValueError as e:
                raise StructureError(f"level {i}: {e}") from None
            if level.seconds <= 0:
                raise StructureError(f"level {i} must last at least one second")
        for b in self.breaks:
            if not 1 <= b.after_level <= len(self.levels) or b.seconds <= 0:
                raise StructureError(f"a break after level {b.after_level} for {b.seconds} s is not in the structure")
        if not 2 <= self.table_size <= 10:
            raise StructureError("tables seat 2 to 10 players")
        cards = self.table_size * VARIANTS[self.game].hole_cards + 5 + 3      # hole cards, board and burns
        if cards > 52:
            raise StructureError(f"a full table of {self.table_size} at {self.game} needs {cards} cards; "
                                 f"seat at most {(52 - 8) // VARIANTS[self.game].hole_cards}")
        if not 2 <= self.min_players <= self.max_players:
            raise StructureError("the field must allow at least two players and no fewer than its minimum")
        if not 0 <= self.progressive_share <= 1:
            raise StructureError("the progressive knockout share is between 0 and 1")
        if self.satellite_target and self.satellite_seat_value <= self.satellite_seat_fee:
            raise StructureError("a satellite names the value of its seats, above the target's fee")

    @property
    def entry_cost(self) -> int:
        """What a player pays to enter: pool, bounty and fee (TR-REG-2)."""
        return self.buy_in + self.bounty + self.fee

    @property
    def sit_and_go(self) -> bool:
        return self.start_at is None

    def level(self, number: int) -> Level:
        """Level ``number`` (1-based); past the last, the last one continues."""
        return self.levels[min(number, len(self.levels)) - 1]

    def break_after(self, number: int) -> Break | None:
        return next((b for b in self.breaks if b.after_level == number), None)

    def edited(self, **changes: object) -> TournamentSpec:
        """A copy with fields changed, checked again (directors edit before the start)."""
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            raise StructureError(f"a tournament has no field {sorted(unknown)[0]!r}")
        return replace(self, **_coerced(changes))

    @classmethod
    def from_dict(cls, data: dict) -> TournamentSpec:
        data = dict(data)
        try:
            levels = tuple(Level(**lv) for lv in data.pop("levels", ()))
            breaks = tuple(Break(**b) for b in data.pop("breaks", ()))
        except TypeError as e:
            raise StructureError(f"a level or break has an unknown field: {e}") from None
        unknown = set(data) - {f.name for f in fields(cls)}
        if unknown:
            raise StructureError(f"a tournament has no field {sorted(unknown)[0]!r}")
        if "id" not in data or "name" not in data:
            raise StructureError("a tournament needs an id and a name")
        return cls(levels=levels, breaks=breaks, **_coerced(data))

    @classmethod
    def load(cls, path: str | Path, **overrides: object) -> TournamentSpec:
        with open(path, "rb") as f:
            data = tomllib.load(f)
        data.update(overrides)
        return cls.from_dict(data)


def _coerced(data: dict) -> dict:
    if "progressive_share" in data:
        data = {**data, "progressive_share": Fraction(str(data["progressive_share"]))}
    return data


STRUCTURES = Path(__file__).resolve().parents[1] / "config" / "structures"
PAYOUTS = Path(__file__).resolve().parents[1] / "config" / "payouts"

