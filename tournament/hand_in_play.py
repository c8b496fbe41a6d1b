"""A tournament hand and the seats it was dealt to: what acts, times out and ends, here or on another process.

A :class:`~tournament.table.TournamentTable` plays its hand through one of
these when the hand is dealt beside its director; when the director sends the
hand away (:meth:`Director.send_hand <tournament.director.Director.send_hand>`,
a room on several processes), the process that plays it builds the same
object from the director's :class:`~pokerroom.poker.hand_setup.HandSetup`
and its own deck, and gives the director back :meth:`result`. Both ways
take the same checks and make the same :class:`HandResult`, so a tournament
plays out the same wherever its hands are dealt (``tests/tournament``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from pokerroom.errors import RuleViolation
from pokerroom.poker import events as ev
from pokerroom.poker.actions import Action, LegalActions, verify_decision
from pokerroom.poker.hand import Hand
from pokerroom.poker.hand_setup import BlindSeats, HandSetup, Post, Seat
from pokerroom.poker.variants import Stakes, Variant


def dealt_stacks(setup: HandSetup) -> dict[str, int]:
    """Each dealt player's stack as the hand began: the start a :class:`HandResult` reports and refunds use
    (TR-PLAY-3, TR-REFUND-3)."""
    return {s.player_id: s.stack for s in setup.seats}


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


class HandInPlay:
    __slots__ = ("table_id", "hand", "seats", "start")

    def __init__(self, table_id: str, setup: HandSetup, deck: Sequence[int]) -> None:
        self.table_id = table_id
        self.hand = Hand(setup, deck)
        self.seats = {s.seat: s.player_id for s in setup.seats}
        self.start = dealt_stacks(setup)

    @property
    def ended(self) -> bool:
        return self.hand.ended

    def to_act(self) -> tuple[str, LegalActions] | None:
        hand = self.hand
        if hand.ended:
            return None
        seat = hand.to_act()
        legal = hand.legal_actions()
        return (self.seats[seat], legal) if seat is not None and legal is not None else None

    def act(self, player: str, action: Action, decision: str | None = None) -> list[ev.Event]:
        """The player's action; ``decision`` (a client's) must name their current decision (``stale_decision``)."""
        hand = self.hand
        if decision is not None:
            mine = not hand.ended and self.seats.get(hand.to_act()) == player
            verify_decision(hand.decision() if mine else None, decision)
        self._verify_turn(player, getattr(action, "seat", None))
        return hand.apply(action)

    def timeout(self, player: str) -> list[ev.Event]:
        """The player's time ran out or they are away: check if free, else fold (HR-DC-1, TR-PLAY-5)."""
        self._verify_turn(player, None)
        return self.hand.timeout(self.hand.to_act())

    def _verify_turn(self, player: str, seat: int | None) -> None:
        hand = self.hand
        if hand.ended:
            raise RuleViolation("no_hand", f"table {self.table_id} has no hand in play", "BET-1")
        turn = hand.to_act()
        if self.seats.get(turn) != player or (seat is not None and seat != turn):
            raise RuleViolation("not_your_turn", f"it is not {player}'s turn at table {self.table_id}", "BET-1")

    def result(self) -> HandResult:
        """The ended hand's stacks, dealing order and who busted whom (TR-PLAY-3, TR-PLAY-6)."""
        hand = self.hand
        if not hand.ended:
            raise RuleViolation("hand_running", f"the hand at table {self.table_id} has not ended", "BET-1")
        by_seat = hand.stacks_by_seat()
        seats = self.seats
        return HandResult(self.table_id, hand.hand_id, dict(self.start), {seats[s]: c for s, c in by_seat.items()},
                          hand.player_ids, {seats[s]: tuple(seats[w] for w in winners)
                                            for s, winners in _eliminators(hand, by_seat).items()})


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


def setup_to_plain(setup: HandSetup) -> dict[str, Any]:
    """A tournament hand's plan as plain data (the bus carries it to the process that plays it); no deck, no rake."""
    if setup.rake is not None or setup.run_it_twice:
        raise ValueError("a tournament hand has no rake and no second board")
    return {"hand_id": setup.hand_id, "variant": asdict(setup.variant), "stakes": asdict(setup.stakes),
            "seats": [[s.seat, s.player_id, s.stack] for s in setup.seats], "button_seat": setup.button_seat,
            "blinds": None if setup.blinds is None else [setup.blinds.small, setup.blinds.big, setup.blinds.third],
            "owed_posts": [[p.seat, p.kind, p.amount] for p in setup.owed_posts],
            "table_name": setup.table_name, "max_seats": setup.max_seats,
            "show_at_showdown": sorted(setup.show_at_showdown)}


def setup_from_plain(plain: dict[str, Any]) -> HandSetup:
    """The plan :func:`setup_to_plain` wrote, whole again (its checks are the engine's, when it is dealt)."""
    blinds = plain["blinds"]
    return HandSetup(plain["hand_id"], Variant(**plain["variant"]), Stakes(**plain["stakes"]),
                     tuple(Seat(seat, player, stack) for seat, player, stack in plain["seats"]), plain["button_seat"],
                     None if blinds is None else BlindSeats(*blinds),
                     tuple(Post(seat, kind, amount) for seat, kind, amount in plain["owed_posts"]),
                     table_name=plain["table_name"], max_seats=plain["max_seats"],
                     show_at_showdown=frozenset(plain.get("show_at_showdown", ())))
