"""One occupied seat of a cash table: the player, their stack and the options and debts the table keeps for them."""

from __future__ import annotations

from dataclasses import dataclass

from pokerroom.table.blinds import SeatView


@dataclass(slots=True)
class SeatedPlayer:
    """One occupied seat. Mutable: the table is its only owner."""

    seat: int
    player_id: str
    stack: int
    time_bank: float
    new: bool = True                        # not dealt in since sitting (HR-POST-1)
    owes: str | None = None                 # most expensive missed blind (HR-MB-1..3)
    sitting_out: bool = False
    sat_out_at: float = 0.0
    wait_for_big_blind: bool = False
    auto_post_blinds: bool = True
    sit_out_next_hand: bool = False
    sit_out_next_big_blind: bool = False
    auto_muck: bool = True                  # off: show a beaten hand at showdown
    connected: bool = True
    leaving: bool = False
    hands_played: int = 0                   # dealt in since sitting (HR-HNR-1)
    hands_since_refill: int = 0             # HR-TIME-4

    def view(self) -> SeatView:
        skip_big = self.sit_out_next_big_blind or not self.auto_post_blinds
        return SeatView(self.seat, self.stack, self.sitting_out, self.new, self.owes, self.wait_for_big_blind,
                        skip_big, not self.auto_post_blinds)
