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

A hand is dealt here (:meth:`start_hand`: the table keeps it as a
:class:`~tournament.hand_in_play.HandInPlay`) or sent away
(:meth:`send_hand`): on a room of several processes the director plans the
hand -- seats, button, blinds, the stacks -- and another process deals and
plays the same :class:`~tournament.hand_in_play.HandInPlay`; until its result
comes back (:meth:`hand_returned`) or it is void (:meth:`hand_voided`,
TR-REFUND-1) the table is in that hand exactly as if it were dealt here.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from pokerroom.errors import RuleViolation
from pokerroom.poker import events as ev
from pokerroom.poker.actions import Action, LegalActions
from pokerroom.poker.hand import Hand
from pokerroom.poker.hand_setup import HandSetup, Seat
from pokerroom.poker.variants import Stakes, Variant
from pokerroom.table.blinds import NoHand, Positions, SeatView, plan_hand
from tournament.hand_in_play import HandInPlay, HandResult, dealt_stacks
from tournament.seating import Table as Layout

__all__ = ["HandResult", "TournamentTable"]


class TournamentTable:
    __slots__ = ("id", "size", "variant", "layout", "seats", "stacks", "positions", "hand_number", "draw", "play",
                 "away")

    def __init__(self, table_id: str, size: int, variant: Variant, draw: Callable[[Sequence[int]], int]) -> None:
        self.id = table_id
        self.size = size
        self.variant = variant
        self.layout = Layout(table_id, size)    # the seat map the balancing functions read and move
        self.seats: dict[int, str] = self.layout.players
        self.stacks: dict[str, int] = {}
        self.positions: Positions | None = None
        self.hand_number = 0
        self.draw = draw
        self.play: HandInPlay | None = None     # the hand dealt here (:attr:`hand` is its engine)
        self.away: HandSetup | None = None      # the hand sent to another process to play, until it comes back

    def __getstate__(self) -> dict:
        """Between hands, always: a stored table keeps the stacks of the hand in play's start, never its deck."""
        state = {name: getattr(self, name) for name in self.__slots__}
        state["play"] = None
        return state

    def __setstate__(self, state: dict) -> None:
        """A table pickled before ``hand`` was read from ``play`` carries a "hand" key (always None): skipped."""
        for name, value in state.items():
            if name != "hand":
                setattr(self, name, value)

    # ------------------------------------------------------------------ queries

    @property
    def hand(self) -> Hand | None:
        """The engine of the hand dealt here, None between hands or while the hand is away."""
        return None if self.play is None else self.play.hand

    @property
    def in_hand(self) -> bool:
        """A hand is in play here or away: seats and stacks wait for its end (TR-PLAY-4)."""
        return self.hand is not None or self.away is not None

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
        if self.play is not None:
            return dict(self.play.start)
        if self.away is not None:
            return dealt_stacks(self.away)
        return dict(self.stacks)

    def to_act(self) -> tuple[str, LegalActions] | None:
        return None if self.play is None else self.play.to_act()

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
        if self.in_hand:
            raise RuleViolation("hand_running", f"table {self.id} is in a hand; seats change between hands",
                                "TR-PLAY-4")

    # ------------------------------------------------------------------ dealing

    def plan_hand(self, stakes: Stakes, label: str = "", showing: Collection[str] = ()) -> HandSetup | None:
        """The next hand's seats, button and blinds, everyone seated with chips dealt in (TR-PLAY-7, HR-DC-3);
        None when fewer than two can play. The button moves here, whoever deals the hand. ``showing``: players
        who turned auto-muck off (SD-2)."""
        self._verify_between_hands()
        views = [SeatView(seat, self.stacks[p]) for seat, p in sorted(self.seats.items()) if self.stacks[p] > 0]
        plan = plan_hand(views, max_seats=self.size, stakes=stakes, previous=self.positions, draw=self.draw)
        if isinstance(plan, NoHand):
            return None
        self.positions = plan.positions
        self.layout.big_blind = self.big_blind_seat     # where balancing aims a player moved in (TR-PLAY-4)
        self.hand_number += 1
        dealt = tuple(Seat(s, self.seats[s], self.stacks[self.seats[s]]) for s in plan.dealt)
        return HandSetup(f"{self.id}-{self.hand_number}", self.variant, stakes, dealt, plan.button, plan.blinds,
                         plan.posts, table_name=label or self.id, max_seats=self.size,
                         show_at_showdown=frozenset(s.seat for s in dealt if s.player_id in showing))

    def start_hand(self, stakes: Stakes, deck: Sequence[int], label: str = "",
                   showing: Collection[str] = ()) -> list[ev.Event]:
        """Deal the next hand here; [] when fewer than two can play."""
        setup = self.plan_hand(stakes, label, showing)
        if setup is None:
            return []
        play = self.play = HandInPlay(self.id, setup, deck)
        return list(play.hand.events)

    def send_hand(self, stakes: Stakes, label: str = "", showing: Collection[str] = ()) -> HandSetup | None:
        """Plan the next hand for another process to deal and play; the table is in that hand until
        :meth:`hand_returned` or :meth:`hand_voided`."""
        setup = self.plan_hand(stakes, label, showing)
        self.away = setup
        return setup

    def act(self, player: str, action: Action, decision: str | None = None) -> list[ev.Event]:
        """The player's action; ``decision`` (a client's) must name their current decision (``stale_decision``)."""
        return self._in_play().act(player, action, decision)

    def timeout(self, player: str) -> list[ev.Event]:
        """The player's time ran out or they are away: check if free, else fold (HR-DC-1, TR-PLAY-5)."""
        return self._in_play().timeout(player)

    def _in_play(self) -> HandInPlay:
        if self.play is None:
            where = "; its hand is played on another process" if self.away is not None else ""
            raise RuleViolation("no_hand", f"table {self.id} has no hand in play{where}", "BET-1")
        return self.play

    def finish_hand(self) -> HandResult:
        """Take the ended hand's stacks; the table is between hands again."""
        result = self._in_play().result()
        self.stacks.update(result.end)
        self.play = None
        return result

    def hand_returned(self, result: HandResult) -> None:
        """The hand sent away ended: take its stacks. It must be the hand sent, dealt to the players sent with
        the stacks sent, conserve their chips, name each of them once in its dealing order, and name as busted
        exactly those left with none, each by players who have chips (a result that does not is refused and
        changes nothing). Which of those won the pot that busted someone is as the playing process says: it is the
        room's own, on the room's own bus."""
        away = self.away
        if away is None or result.hand_id != away.hand_id or result.table_id != self.id:
            raise RuleViolation("no_hand_away", f"table {self.id} has no hand {result.hand_id} away", "TR-PLAY-4")
        start = dealt_stacks(away)
        end = result.end
        if (result.start != start or set(end) != set(start) or sum(end.values()) != sum(start.values())
                or min(end.values()) < 0 or len(result.dealing_order) != len(start)
                or set(result.dealing_order) != set(start)
                or set(result.eliminated_by) != {p for p, chips in end.items() if chips == 0}
                or any(w not in end or end[w] == 0 for winners in result.eliminated_by.values() for w in winners)):
            raise RuleViolation("bad_hand_result", f"hand {result.hand_id}'s result does not match the hand sent "
                                "(its players, their chips, who busted or who busted them)", "TR-PLAY-4")
        self.stacks.update(result.end)
        self.away = None

    def hand_voided(self, hand_id: str) -> dict[str, int]:
        """The hand sent away is void (the process playing it died): every stack stays as it began
        (TR-REFUND-1); those stacks."""
        away = self.away
        if away is None or hand_id != away.hand_id:
            raise RuleViolation("no_hand_away", f"table {self.id} has no hand {hand_id} away", "TR-PLAY-4")
        self.away = None
        return dealt_stacks(away)
