"""Live Blackjack: seven seats, one dealer, decisions in seat order (RULES.md BJ).

Theory of operation
-------------------
Once betting closes the round is dealt as BJ-3 says -- a card up to each seat
with a bet, left to right, one up to the dealer, a second to each seat, the
dealer's second face down -- and then runs through two decision phases, each
on the table's decision clock:

* **insurance** (BJ-8), only under an ace: every seat that may insure answers
  at once; no answer is a "no". Then the dealer peeks under the ace (BJ-9) and
  a dealer blackjack settles the round at once;
* **play** (BJ-4), seat by seat, hand by hand: hit, stand, double, split as
  :func:`~pokerroom.casino.blackjack_rules.legal_moves` allows. No answer in
  time stands the hand. Hands at 21 are not asked (BJ-5).

Then the dealer turns the hole card and draws to 16 unless every hand is
already decided (BJ-10, BJ-11), and every bet settles at once (BJ-12).

Disconnection (CR-6): a round that reaches a disconnected player's hand while
no connected player has a hand in the round *waits* for them -- the phase is
``waiting`` and the shell's timer is 24 hours from the disconnection. The
player who logs in again carries on where they left; after 24 hours the round
is cancelled and every bet refunded. While connected players share the round,
BJ-4's clock applies to everyone: the table never holds other players' money
for an absent one.
"""

from __future__ import annotations

from pokerroom.casino import blackjack_rules as bj
from pokerroom.casino.box_decisions import INSURANCE, LiveDecisions
from pokerroom.casino.dealer import PLAY, Box, Dealer, DealerTable
from pokerroom.casino.events import CardDealt, RoundWaiting
from pokerroom.casino.shoe import ShoeSource
from pokerroom.casino.table import BETTING, DAY, DECIDING, WAITING, CasinoRules
from pokerroom.errors import RuleViolation

__all__ = ["BlackjackTable", "LiveDealer", "INSURANCE", "PLAY"]


class LiveDealer(Dealer):
    """A round of live blackjack: the seats dealt in, left to right, and whose hand is to play (BJ-3, BJ-4)."""

    def __init__(self, table: BlackjackTable) -> None:
        super().__init__(table)
        self.seats_in_round: dict[int, str] = {}
        self.turn: tuple[int, int] | None = None        # (seat, hand) whose decision the clock runs for

    def deal(self) -> list:
        t = self.table
        events: list = []
        order = sorted((b.seat, b) for b in t.round.bets if b.market == "main")
        self.seats_in_round = {seat: bet.player for seat, bet in order}
        for _, bet in order:
            self.boxes[bet.player] = Box(bet.player, bet)
        for seat, bet in order:                                   # BJ-3: left to right
            card = t.draw()
            self.boxes[bet.player].hands.append(bj.PlayerHand((card,), bet.amount))
            events.append(CardDealt(t.table_id, t.number, "hand", card, index=seat))
        events += self.deal_up()
        for seat, bet in order:
            box = self.boxes[bet.player]
            box.hands[0] = box.hands[0].with_card(t.draw())
            events.append(CardDealt(t.table_id, t.number, "hand", box.hands[0].cards[1], index=seat))
        return events + self.deal_hole()

    def hit_card(self, box: Box, hand: int) -> int:
        """Live: the card goes face up on the seat, for everyone at the table to see."""
        t = self.table
        card = t.draw()
        t.announced.append(CardDealt(t.table_id, t.number, "hand", card, index=box.main.seat, hand=hand))
        return card

    def to_act(self) -> Box | None:
        """The box whose hand the clock runs for, in the play step."""
        return self.boxes[self.seats_in_round[self.turn[0]]] if self.turn is not None else None

    def next_decision(self) -> list:
        for box in (self.boxes[p] for _, p in sorted(self.seats_in_round.items())):
            box.advance()
            if box.done:
                continue
            self.turn = (box.main.seat, box.active)
            return [self.decision_needed(box, box.player)]     # the table then asks whether it waits (CR-6)
        self.turn = None
        return self.finish()

    def verify_turn(self, box: Box) -> None:
        if self.step != PLAY or self.turn is None or self.seats_in_round.get(self.turn[0]) != box.player:
            raise RuleViolation("not_your_turn", "it is not your turn: players decide in seat order", "BJ-4")

    def play(self, box: Box, move: str) -> list:
        return self.move(box, move) + self.next_decision()

    def out_of_time(self) -> list:
        return self.move(self.to_act(), "stand", auto="timeout") + self.next_decision()    # BJ-4

    def key(self) -> tuple:
        return (self.step, self.turn)


class BlackjackTable(DealerTable):
    game = "blackjack"
    rule = "BJ"
    rules_text = (
        "Eight decks; the cut card marks the last round before the shuffle.",
        "Cards 2-10 count their face value, J/Q/K 10, an ace 1 or 11. Blackjack is an ace and a ten-value card "
        "as the first two cards of an unsplit hand.",
        "Each seat with a bet gets a card face up, then the dealer; a second card to each seat; the dealer's "
        "second card face down.",
        "Players decide in seat order: stand, hit, double (first two cards, once, one card), split (equal value, "
        "once; split aces get one card each). No answer in time: the hand stands.",
        "Insurance is offered under a dealer ace, costs half the bet and pays 2:1. The dealer peeks only under an "
        "ace; with a ten up, a dealer blackjack found later takes every bet on a hand, doubles and splits too.",
        "The dealer draws to 16 and stands on all 17s.",
    )
    paytable = (("blackjack", "3:2"), ("win", "1:1"), ("insurance", "2:1"), ("push", "stake returned"))

    dealer_kind = LiveDealer
    dealer: LiveDealer

    def __init__(self, rules: CasinoRules, source: ShoeSource | None = None) -> None:
        super().__init__(rules, source)
        self.seats: dict[int, str] = {}
        self.decisions = LiveDecisions(self)

    def join(self, player: str, seat: int | None) -> list:
        self.away.pop(player, None)
        mine = self.seat_of(player)
        if seat is None or seat == mine:
            return []
        if mine is not None:
            raise RuleViolation("already_seated", f"you already sit in seat {mine}", "BJ-3")
        if not 1 <= seat <= self.rules.seats:
            raise RuleViolation("no_such_seat", f"seats are 1 to {self.rules.seats}", "BJ-3")
        if seat in self.seats:
            raise RuleViolation("seat_taken", f"seat {seat} is taken", "BJ-3")
        self.seats[seat] = player
        if self.phase == WAITING:                   # someone wants to play: BJ-4's clock runs again
            self.phase = DECIDING
        return []

    def leave(self, player: str) -> list:
        seat = self.seat_of(player)
        if seat is not None and player in self.dealer.boxes and self.phase in (DECIDING, WAITING):
            raise RuleViolation("hand_in_play", "your hand is in play; leave after the round", "CR-6")
        if self.round is not None and self.phase == BETTING and self.round.of(player):
            raise RuleViolation("bet_placed", "your bet is on the table; bets cannot be cancelled", "CR-2")
        if seat is not None:
            del self.seats[seat]
        return []

    def seat_of(self, player: str) -> int | None:
        return next((s for s, p in self.seats.items() if p == player), None)

    def _market(self, market: str, player: str, seat: int | None) -> str:
        if market != "main":
            raise RuleViolation("unknown_market", "live blackjack takes one bet a seat: main", "BJ-3")
        if self.seat_of(player) is None:
            raise RuleViolation("not_seated", "take a seat before betting", "BJ-3")
        return market

    def _place(self, player: str, market: str, amount: int, funds: int, seat: int | None) -> list:
        return self.round.place(player, market, amount, self.rules.limits_for(market), funds,
                                seat=self.seat_of(player))

    def _waiting_check(self) -> list:
        """CR-6: the player to act is away and no connected player shares the round: wait for them."""
        dealer = self.dealer
        if self.phase not in (DECIDING, WAITING) or dealer.step != PLAY or dealer.turn is None:
            return []
        player = dealer.seats_in_round[dealer.turn[0]]
        alone = all(p in self.away for p in dealer.boxes) and all(p in self.away for p in self.seats.values())
        if player in self.away and alone:           # nobody connected shares the round or waits for a seat
            if self.phase != WAITING:
                self.phase = WAITING
                self.wait_until = self.round_away[player] + DAY
                return [RoundWaiting(self.table_id, self.number, player, self.wait_until)]
        return []

    def reconnect(self, player: str) -> list:
        self.away.pop(player, None)
        if self.phase == WAITING and player in self.dealer.boxes:   # a player of the round is back: BJ-4's clock
            self.phase = DECIDING
            box = self.dealer.to_act()                  # the hand waited for: its clock runs now
            if not box.done:
                return [self.dealer.decision_needed(box, box.player)]
        return []

    def view(self, player: str | None) -> dict:
        out = super().view(player)
        dealer = self.dealer
        out["seats"] = {str(s): p for s, p in sorted(self.seats.items())}
        if dealer.cards:
            out["dealer"] = [dealer.cards[0]] + ([None] if len(dealer.cards) > 1 else [])
        out["hands"] = {p: [list(h.cards) for h in b.hands] for p, b in dealer.boxes.items()}
        if dealer.turn is not None and self.phase in (DECIDING, WAITING) and dealer.step == PLAY:
            out["to_act"] = dealer.seats_in_round.get(dealer.turn[0])
        return out

    def open_round(self) -> list:
        for seat, player in list(self.seats.items()):   # a seat is not kept for someone gone since the last round
            if player in self.away:
                del self.seats[seat]
        return super().open_round()
