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

from dataclasses import dataclass, field, replace

from pokerroom.cards import format as show
from pokerroom.casino import blackjack_rules as bj
from pokerroom.casino.betting import Bet
from pokerroom.casino.box_decisions import INSURANCE, BoxDecisions, LiveDecisions
from pokerroom.casino.events import CardDealt, Decided, DecisionNeeded, HoleCardRevealed, RoundWaiting
from pokerroom.casino.shoe import ShoeSource
from pokerroom.casino.table import BETTING, DAY, DECIDING, WAITING, CasinoRules, CasinoTable
from pokerroom.errors import RuleViolation

PLAY = "play"


@dataclass(slots=True)
class Box:
    """One player's place in a round: their hands, their insurance and how far they have played."""
    player: str
    main: Bet
    hands: list[bj.PlayerHand] = field(default_factory=list)
    active: int = 0
    moved: bool = False                 # any decision taken yet (surrender comes first, IB-4)
    insurance: Bet | None = None
    answered: bool = False              # insurance answered
    drawn: int = 0                      # infinite blackjack: cards taken from the common sequence
    moves: int = 0                      # play moves made on the box's hands (a decision id's count)

    @property
    def done(self) -> bool:
        return self.active >= len(self.hands)

    def advance(self) -> None:
        while self.active < len(self.hands) and self.hands[self.active].done:
            self.active += 1


class DealerTable(CasinoTable):
    """What both blackjack games share: the dealer's cards, insurance, the peek and the settlement."""

    house: bj.HouseRules = bj.LIVE
    rule = "BJ"
    deals_without_bets = False
    decisions: BoxDecisions             # each game's: whose decision is open and its id

    def __init__(self, rules: CasinoRules, source: ShoeSource | None = None) -> None:
        super().__init__(rules, source)
        self.house = replace(self.house, lose_all_on_dealer_blackjack=rules.lose_all_on_dealer_blackjack,
                             double_after_split=rules.double_after_split or self.house.double_after_split)
        self.boxes: dict[str, Box] = {}
        self.dealer: list[int] = []
        self.step = INSURANCE

    # ------------------------------------------------------------------ dealing

    def _deal_dealer_up(self) -> list:
        self.dealer = [self._draw()]
        return [CardDealt(self.table_id, self.number, "dealer", self.dealer[0])]

    def _deal_hole(self) -> list:
        self.dealer.append(self._draw())
        return [CardDealt(self.table_id, self.number, "dealer", None, face_up=False)]

    def _after_deal(self) -> list:
        """Insurance under an ace, then the peek; otherwise straight to play."""
        self.phase = DECIDING
        if bj.insurance_offered(self.dealer[0]) and any(self.decisions.may_insure(b) for b in self.boxes.values()):
            self.step = INSURANCE
            return [DecisionNeeded(self.table_id, self.number, "", INSURANCE, self.rules.decision_seconds,
                                   moves=("insurance", "no_insurance"), decision=self.decisions.insurance())]
        return self._peek()

    def _insure(self, box: Box, move: str, funds: int) -> list:
        if self.step != INSURANCE:
            raise RuleViolation("no_insurance_now", "insurance is offered only under an ace, before any other "
                                                    "decision", f"{self.rule}-8")
        if box.answered or not self.decisions.may_insure(box):
            raise RuleViolation("no_insurance_now", "you have no insurance decision to make", f"{self.rule}-8")
        cost = bj.insurance_cost(box.main.amount)
        if move == "insurance" and cost > funds:            # refused before anything changes
            raise RuleViolation("insufficient_funds", "insurance costs {need}; you have {have}", f"{self.rule}-8",
                                amounts={"need": cost, "have": funds})
        box.answered = True
        events: list = [Decided(self.table_id, self.number, box.player, 0, move)]
        if move == "insurance":
            box.insurance = Bet(box.player, "insurance", cost, seat=box.main.seat)
            events.append(self.round.add_bet(box.insurance))
        if all(b.answered or not self.decisions.may_insure(b) for b in self.boxes.values()):
            events += self._peek()
        return events

    def _peek(self) -> list:
        """Insurance is closed; the dealer checks for blackjack where the rules say (BJ-9, IB-3)."""
        if bj.dealer_peeks(self.dealer[0], self.house) and bj.is_blackjack(self.dealer):
            return self._finish()
        self.step = PLAY
        for box in self.boxes.values():
            box.advance()
        return self._next_decision()

    def _finish(self) -> list:
        """The dealer's hand, then every bet at once."""
        events: list = [HoleCardRevealed(self.table_id, self.number, self.dealer[1])]
        if not bj.is_blackjack(self.dealer) and self._dealer_plays():
            before = len(self.dealer)
            self.dealer = list(bj.dealer_finish(self.dealer, self._draw))
            events += [CardDealt(self.table_id, self.number, "dealer", c) for c in self.dealer[before:]]
        total = bj.total(self.dealer)[0]
        if bj.is_blackjack(self.dealer):
            result, tally = "dealer blackjack", "dealer blackjack"
        elif total > 21:
            result, tally = f"dealer busts with {total}", "dealer bust"
        else:
            result, tally = f"dealer {total}", f"dealer {total}"
        return events + [self._settle(f"{result} ({show(self.dealer, ' ')})", tally)]

    def _dealer_plays(self) -> bool:
        return bj.dealer_must_play(h for b in self.boxes.values() for h in b.hands)

    def _returned(self, bet: Bet) -> tuple[int, str]:
        if bet.market == "insurance":
            back = bj.insurance_returned(bet.amount, self.dealer)
            return back, "dealer blackjack" if back else "no dealer blackjack"
        if bet.market == "main":
            hands = self.boxes[bet.player].hands               # one box a player: a seat each at the live table
            back = sum(bj.settle(h, self.dealer, self.house) for h in hands)
            return back, " / ".join(_hand_text(h) for h in hands)
        return self._side_returned(bet)

    def _side_returned(self, bet: Bet) -> tuple[int, str]:
        raise AssertionError(bet.market)

    # ------------------------------------------------------------------ a move on a hand

    def _move(self, box: Box, move: str, funds: int, auto: str = "") -> list:
        """Apply one move to the box's active hand; the caller has checked it is legal and affordable."""
        i = box.active
        hand = box.hands[i]
        events: list = []
        if move == "stand":
            box.hands[i] = hand.stand()
        elif move == "hit":
            box.hands[i] = hand.with_card(self._hit_card(box, i))
        elif move == "double":
            events.append(self.round.stake_more(box.main, hand.bet, "double"))
            box.hands[i] = hand.double(self._hit_card(box, i))
        elif move == "surrender":
            box.hands[i] = hand.surrender()
        elif move == "split":
            events.append(self.round.stake_more(box.main, hand.bet, "split"))
            first, second = hand.split()
            box.hands[i:i + 1] = [first.with_card(self._hit_card(box, i)), second]
            box.hands[i + 1] = second.with_card(self._hit_card(box, i + 1))
        box.moved = True
        box.moves += 1
        events.append(Decided(self.table_id, self.number, box.player, i, move, auto, box.hands[i].cards))
        box.advance()
        return events

    def _hit_card(self, box: Box, hand: int) -> int:
        raise NotImplementedError

    def _check(self, box: Box, move: str, funds: int) -> str:
        """The move to make: ``move`` itself, or what the table plays instead; refusals raised."""
        hand = box.hands[box.active]
        bj.check_move(move, hand, self.dealer[0], self.house, not box.moved, len(box.hands))
        if move in ("double", "split") and hand.bet > funds:
            return self._short_of_funds(hand, move, funds)
        return move

    def _short_of_funds(self, hand: bj.PlayerHand, move: str, funds: int) -> str:
        raise RuleViolation("insufficient_funds", f"a {move} needs {{need}} more; you have {{have}}",
                            "BJ-6" if move == "double" else "BJ-7", amounts={"need": hand.bet, "have": funds})

    def _next_decision(self) -> list:
        raise NotImplementedError

    def _decision_needed(self, box: Box, who: str) -> DecisionNeeded:
        """The play decision due on the box's active hand, with the moves it may make (BJ-4, IB-4)."""
        moves = bj.legal_moves(box.hands[box.active], self.dealer[0], self.house, not box.moved, len(box.hands))
        return DecisionNeeded(self.table_id, self.number, who, PLAY, self.rules.decision_seconds, box.active,
                              tuple(sorted(moves)), self.decisions.play(box))

    def _turn(self) -> tuple:
        return (self.step,)

    def open_round(self) -> list:
        self.boxes = {}
        self.dealer = []
        self.step = INSURANCE
        return super().open_round()


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

    def __init__(self, rules: CasinoRules, source: ShoeSource | None = None) -> None:
        super().__init__(rules, source)
        self.seats: dict[int, str] = {}
        self.turn: tuple[int, int] | None = None        # (seat, hand) whose decision the clock runs for
        self.seats_in_round: dict[int, str] = {}
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
        if seat is not None and player in self.boxes and self.phase in (DECIDING, WAITING):
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

    def _deal(self) -> list:
        self._to_dealing()
        events: list = []
        order = sorted((b.seat, b) for b in self.round.bets if b.market == "main")
        self.seats_in_round = {seat: bet.player for seat, bet in order}
        for _, bet in order:
            self.boxes[bet.player] = Box(bet.player, bet)
        for seat, bet in order:                                   # BJ-3: left to right
            card = self._draw()
            self.boxes[bet.player].hands.append(bj.PlayerHand((card,), bet.amount))
            events.append(CardDealt(self.table_id, self.number, "hand", card, index=seat))
        events += self._deal_dealer_up()
        for seat, bet in order:
            box = self.boxes[bet.player]
            box.hands[0] = box.hands[0].with_card(self._draw())
            events.append(CardDealt(self.table_id, self.number, "hand", box.hands[0].cards[1], index=seat))
        events += self._deal_hole()
        return events + self._after_deal()

    def _hit_card(self, box: Box, hand: int) -> int:
        """Live: the card goes face up on the seat, for everyone at the table to see."""
        card = self._draw()
        self._announce.append(CardDealt(self.table_id, self.number, "hand", card, index=box.main.seat, hand=hand))
        return card

    def _ordered(self) -> list[Box]:
        return [self.boxes[p] for _, p in sorted(self.seats_in_round.items())]

    def _next_decision(self) -> list:
        for box in self._ordered():
            box.advance()
            if box.done:
                continue
            self.turn = (box.main.seat, box.active)
            return [self._decision_needed(box, box.player)] + self._waiting_check()
        self.turn = None
        return self._finish()

    def _turn(self) -> tuple:
        return (self.step, self.turn)

    def decide(self, player: str, move: str, hand: int, funds: int, decision: str | None = None) -> list:
        self.decisions.verify(player, decision)
        box = self.boxes.get(player)
        if box is None or self.phase not in (DECIDING, WAITING):
            raise RuleViolation("no_decision", "you have no hand in play", "BJ-4")
        if move in ("insurance", "no_insurance"):
            return self._dealt(lambda: self._insure(box, move, funds))
        if self.step != PLAY or self.turn is None or self.seats_in_round.get(self.turn[0]) != player:
            raise RuleViolation("not_your_turn", "it is not your turn: players decide in seat order", "BJ-4")
        if hand != box.active:
            raise RuleViolation("not_this_hand", f"hand {box.active} is the one to play", "BJ-4")
        move = self._check(box, move, funds)
        if self.phase == WAITING:
            self.phase = DECIDING
        return self._dealt(lambda: self._move(box, move, funds) + self._next_decision())

    def _timed_out(self) -> list:
        if self.step == INSURANCE:                       # no answer is a "no" (BJ-8)
            for box in self.boxes.values():
                box.answered = True
            return self._peek()
        box = self.boxes[self.seats_in_round[self.turn[0]]]
        return self._move(box, "stand", 0, auto="timeout") + self._next_decision()    # BJ-4

    def _waiting_check(self) -> list:
        """CR-6: the player to act is away and no connected player shares the round: wait for them."""
        if self.phase not in (DECIDING, WAITING) or self.step != PLAY or self.turn is None:
            return []
        player = self.seats_in_round[self.turn[0]]
        alone = all(p in self.away for p in self.boxes) and all(p in self.away for p in self.seats.values())
        if player in self.away and alone:           # nobody connected shares the round or waits for a seat
            if self.phase != WAITING:
                self.phase = WAITING
                self.wait_until = self.round_away[player] + DAY
                return [RoundWaiting(self.table_id, self.number, player, self.wait_until)]
        return []

    def reconnect(self, player: str) -> list:
        self.away.pop(player, None)
        if self.phase == WAITING and player in self.boxes:     # a player of the round is back: BJ-4's clock again
            self.phase = DECIDING
            box = self.boxes[self.seats_in_round[self.turn[0]]]    # the hand waited for: its clock runs now
            if not box.done:
                return [self._decision_needed(box, box.player)]
        return []

    def view(self, player: str | None) -> dict:
        out = super().view(player)
        out["seats"] = {str(s): p for s, p in sorted(self.seats.items())}
        if self.dealer:
            out["dealer"] = [self.dealer[0]] + ([None] if len(self.dealer) > 1 else [])
        out["hands"] = {p: [list(h.cards) for h in b.hands] for p, b in self.boxes.items()}
        if self.turn is not None and self.phase in (DECIDING, WAITING) and self.step == PLAY:
            out["to_act"] = self.seats_in_round.get(self.turn[0])
        return out

    def open_round(self) -> list:
        self.turn = None
        for seat, player in list(self.seats.items()):   # a seat is not kept for someone gone since the last round
            if player in self.away:
                del self.seats[seat]
        return super().open_round()

    def _void_round(self, reason: str) -> list:
        self.turn = None
        return super()._void_round(reason)


def _hand_text(hand: bj.PlayerHand) -> str:
    if hand.surrendered:
        return "surrendered"
    t = hand.total
    return "blackjack" if hand.blackjack else (f"bust {t}" if t > 21 else str(t))
