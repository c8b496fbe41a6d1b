"""One tournament table: seats, stacks and the hand in play, and nothing else (TR-PLAY-5/7, HR-DC-3).

Theory of operation
-------------------
The director owns who sits where; a :class:`TournamentTable` only deals. It is
pure: commands in, hand events out, no clock and no I/O. Players are placed
and removed only between hands (:meth:`seat`, :meth:`unseat`; TR-PLAY-4).

Every seated player with chips is dealt in at once wherever they sit, with no
entry post, even on the button or in the blinds (TR-PLAY-7); the blinds move
by the dead-button rule of :func:`pokerroom.table.blinds.plan_hand`, which
also keeps anyone from posting the big blind twice in a row heads-up. Players
who are away are dealt in too and keep posting (HR-DC-3, TR-PLAY-5); the
shell's timer answers for them with :meth:`timeout` (check, else fold).

When a hand ends the table hands the director a :class:`HandResult`: the
stacks at the start (the ones elimination order and refunds use,
TR-PLAY-3, TR-REFUND-3), the stacks at the end, the dealing order, and for
each player who busted the winners of the pot that eliminated them (the
highest pot they could win; TR-PLAY-6).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pokerroom.errors import RuleViolation
from pokerroom.poker import events as ev
from pokerroom.poker.actions import Action, LegalActions, verify_decision
from pokerroom.poker.hand import Hand
from pokerroom.poker.hand_setup import HandSetup, Seat
from pokerroom.poker.variants import Stakes, Variant
from pokerroom.table.blinds import NoHand, Positions, SeatView, plan_hand
from tournament.seating import Table as Layout


@dataclass(frozen=True)
class HandResult:
    table_id: str
    hand_id: str
    start: dict[str, int]                       # player -> chips when the hand began
    end: dict[str, int]                         # player -> chips when it ended
    dealing_order: tuple[str, ...]              # from the first seat left of the button
    eliminated_by: dict[str, tuple[str, ...]]   # busted player -> winners of the pot that busted them

    @property
    def busted(self) -> list[str]:
        return [p for p in self.dealing_order if self.end[p] == 0]


class TournamentTable:
    __slots__ = ("id", "size", "variant", "layout", "seats", "stacks", "positions", "hand", "hand_number", "draw",
                 "_start", "_order")

    def __init__(self, table_id: str, size: int, variant: Variant, draw: Callable[[Sequence[int]], int]) -> None:
        self.id = table_id
        self.size = size
        self.variant = variant
        self.layout = Layout(table_id, size)    # the seat map the balancing functions read and move
        self.seats: dict[int, str] = self.layout.players
        self.stacks: dict[str, int] = {}
        self.positions: Positions | None = None
        self.hand: Hand | None = None
        self.hand_number = 0
        self.draw = draw
        self._start: dict[str, int] = {}
        self._order: tuple[str, ...] = ()

    def __getstate__(self) -> dict:
        """Between hands, always: a stored table keeps the stacks of the hand in play's start, never its deck."""
        state = {name: getattr(self, name) for name in self.__slots__}
        state["hand"] = None
        return state

    def __setstate__(self, state: dict) -> None:
        for name, value in state.items():
            setattr(self, name, value)

    # ------------------------------------------------------------------ queries

    @property
    def in_hand(self) -> bool:
        return self.hand is not None

    @property
    def big_blind_seat(self) -> int:
        """The seat of the last hand's big blind (where balancing aims the moved player), or 1 before any."""
        return self.positions.blinds[1] if self.positions else 1

    def seat_of(self, player: str) -> int:
        for seat, who in self.seats.items():
            if who == player:
                return seat
        raise RuleViolation("not_seated", f"{player} has no seat at table {self.id}", "TR-PLAY-4")

    def start_stacks(self) -> dict[str, int]:
        """Stacks at the start of the hand in play, or now between hands (TR-REFUND-3)."""
        return dict(self._start) if self.hand is not None else dict(self.stacks)

    def to_act(self) -> tuple[str, LegalActions] | None:
        hand = self.hand
        if hand is None or hand.ended:
            return None
        seat = hand.to_act()
        legal = hand.legal_actions()
        return (self.seats[seat], legal) if seat is not None and legal is not None else None

    # ------------------------------------------------------------------ seating, between hands only

    def seat(self, player: str, seat: int, chips: int) -> None:
        self._verify_between_hands()
        if seat in self.seats or not 1 <= seat <= self.size:
            raise RuleViolation("seat_taken", f"seat {seat} at table {self.id} is not free", "TR-PLAY-4")
        self.seats[seat] = player
        self.stacks[player] = chips

    def unseat(self, player: str) -> int:
        """Take a player off the table; return their chips."""
        self._verify_between_hands()
        del self.seats[self.seat_of(player)]
        return self.stacks.pop(player)

    def add_chips(self, player: str, chips: int) -> None:
        """Rebuy and add-on chips arrive between hands (HR-STAKE-2)."""
        self._verify_between_hands()
        self.seat_of(player)
        self.stacks[player] += chips

    def _verify_between_hands(self) -> None:
        if self.hand is not None:
            raise RuleViolation("hand_running", f"table {self.id} is in a hand; seats change between hands",
                                "TR-PLAY-4")

    # ------------------------------------------------------------------ dealing

    def start_hand(self, stakes: Stakes, deck: Sequence[int], label: str = "") -> list[ev.Event]:
        """Deal everyone seated with chips (TR-PLAY-7, HR-DC-3); [] when fewer than two can play."""
        self._verify_between_hands()
        views = [SeatView(seat, self.stacks[p]) for seat, p in sorted(self.seats.items()) if self.stacks[p] > 0]
        plan = plan_hand(views, max_seats=self.size, stakes=stakes, previous=self.positions, draw=self.draw)
        if isinstance(plan, NoHand):
            return []
        self.positions = plan.positions
        self.layout.big_blind = self.big_blind_seat     # where balancing aims a player moved in (TR-PLAY-4)
        self.hand_number += 1
        dealt = tuple(Seat(s, self.seats[s], self.stacks[self.seats[s]]) for s in plan.dealt)
        setup = HandSetup(f"{self.id}-{self.hand_number}", self.variant, stakes, dealt, plan.button, plan.blinds,
                          plan.posts, table_name=label or self.id, max_seats=self.size)
        self.hand = Hand(setup, deck)
        self._start = {s.player_id: s.stack for s in dealt}
        self._order = self.hand.player_ids
        return list(self.hand.events)

    def act(self, player: str, action: Action, decision: str | None = None) -> list[ev.Event]:
        """The player's action; ``decision`` (a client's) must name their current decision (``stale_decision``)."""
        if decision is not None:
            hand = self.hand
            mine = hand is not None and not hand.ended and self.seats.get(hand.to_act()) == player
            verify_decision(hand.decision() if mine else None, decision)
        hand = self._verify_turn(player, getattr(action, "seat", None))
        return hand.apply(action)

    def timeout(self, player: str) -> list[ev.Event]:
        """The player's time ran out or they are away: check if free, else fold (HR-DC-1, TR-PLAY-5)."""
        hand = self._verify_turn(player, None)
        return hand.timeout(hand.to_act())

    def _verify_turn(self, player: str, seat: int | None) -> Hand:
        hand = self.hand
        if hand is None or hand.ended:
            raise RuleViolation("no_hand", f"table {self.id} has no hand in play", "BET-1")
        turn = hand.to_act()
        if self.seats.get(turn) != player or (seat is not None and seat != turn):
            raise RuleViolation("not_your_turn", f"it is not {player}'s turn at table {self.id}", "BET-1")
        return hand

    def finish_hand(self) -> HandResult:
        """Take the ended hand's stacks; the table is between hands again."""
        hand = self.hand
        if hand is None or not hand.ended:
            raise RuleViolation("hand_running", f"the hand at table {self.id} has not ended", "BET-1")
        by_seat = hand.stacks_by_seat()
        for seat, chips in by_seat.items():
            self.stacks[self.seats[seat]] = chips
        eliminated_by = _eliminators(hand, by_seat)
        self.hand = None
        return HandResult(self.id, hand.hand_id, self._start, {self.seats[s]: c for s, c in by_seat.items()},
                          self._order, {self.seats[s]: tuple(self.seats[w] for w in winners)
                                        for s, winners in eliminated_by.items()})


def _eliminators(hand: Hand, end: dict[int, int]) -> dict[int, tuple[int, ...]]:
    """For each seat left with no chips, the winners of the highest pot it could win (TR-PLAY-6)."""
    busted = {s for s, chips in end.items() if chips == 0}
    if not busted:
        return {}
    eligible: dict[int, tuple[int, ...]] = {}
    winners: dict[int, list[int]] = {}
    for e in hand.events:
        if isinstance(e, ev.PotFormed):
            eligible[e.pot] = e.seats
        elif isinstance(e, ev.PotAwarded):
            winners.setdefault(e.pot, [])
            winners[e.pot] += [s for s, share in zip(e.seats, e.shares, strict=True)
                               if share > 0 and s not in winners[e.pot]]
    result = {}
    for seat in busted:
        pots = [k for k, seats in eligible.items() if seat in seats]
        pot = max(pots) if pots else max(winners, default=0)
        result[seat] = tuple(w for w in winners.get(pot, ()) if w != seat)
    return result
