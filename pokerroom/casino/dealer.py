"""What both blackjack games share: the dealer's round and the table that runs one after another (RULES.md BJ, IB).

A :class:`DealerTable` is a :class:`~pokerroom.casino.table.CasinoTable`
whose rounds, once betting closes, are run by a :class:`Dealer`: a part made
fresh for each round, holding that round's state -- the boxes (each player's
hands and insurance), the dealer's cards and the step (insurance, then play).
The dealer deals, takes insurance and peeks (BJ-8, BJ-9), applies each move to
a hand, finishes its own hand (BJ-10, BJ-11) and says what every bet returns
(BJ-12); each game's subclass says the rest: how the cards go out, whose
decision is open, where a hit card comes from. The table keeps what outlives a
round (the shoe, the seats, the history) and answers the commands; the dealer
reads the table (its round of bets, its rules, its shoe through
:meth:`~pokerroom.casino.table.CasinoTable.draw`) and changes only its own state.
Split so that neither the table nor the dealer is one class of seventy methods
(issue #35).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from pokerroom.cards import format as show
from pokerroom.casino import blackjack_rules as bj
from pokerroom.casino.betting import Bet
from pokerroom.casino.box_decisions import INSURANCE, BoxDecisions
from pokerroom.casino.events import CardDealt, Decided, DecisionNeeded, HoleCardRevealed
from pokerroom.casino.shoe import ShoeSource
from pokerroom.casino.table import DECIDING, WAITING, CasinoRules, CasinoTable
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


class Dealer:
    """One round at a dealer table after betting closed: its boxes, the dealer's cards, insurance, the moves."""

    def __init__(self, table: DealerTable) -> None:
        self.table = table
        self.boxes: dict[str, Box] = {}
        self.cards: list[int] = []          # the dealer's: the up card, the hole card, then the draws
        self.step = INSURANCE

    # ------------------------------------------------------------------ dealing

    def deal(self) -> list:
        """The game's deal, once betting closed: the boxes and their first cards, the dealer's two."""
        raise NotImplementedError

    def deal_up(self) -> list:
        t = self.table
        self.cards = [t.draw()]
        return [CardDealt(t.table_id, t.number, "dealer", self.cards[0])]

    def deal_hole(self) -> list:
        t = self.table
        self.cards.append(t.draw())
        return [CardDealt(t.table_id, t.number, "dealer", None, face_up=False)]

    def after_deal(self) -> list:
        """Insurance under an ace, then the peek; otherwise straight to play."""
        t = self.table
        if bj.insurance_offered(self.cards[0]) and any(t.decisions.may_insure(b) for b in self.boxes.values()):
            self.step = INSURANCE
            return [DecisionNeeded(t.table_id, t.number, "", INSURANCE, t.rules.decision_seconds,
                                   moves=("insurance", "no_insurance"), decision=t.decisions.insurance())]
        return self.peek()

    def insure(self, box: Box, move: str, funds: int) -> list:
        t = self.table
        if self.step != INSURANCE:
            raise RuleViolation("no_insurance_now", "insurance is offered only under an ace, before any other "
                                                    "decision", f"{t.rule}-8")
        if box.answered or not t.decisions.may_insure(box):
            raise RuleViolation("no_insurance_now", "you have no insurance decision to make", f"{t.rule}-8")
        cost = bj.insurance_cost(box.main.amount)
        if move == "insurance" and cost > funds:            # refused before anything changes
            raise RuleViolation("insufficient_funds", "insurance costs {need}; you have {have}", f"{t.rule}-8",
                                amounts={"need": cost, "have": funds})
        box.answered = True
        events: list = [Decided(t.table_id, t.number, box.player, 0, move)]
        if move == "insurance":
            box.insurance = Bet(box.player, "insurance", cost, seat=box.main.seat)
            events.append(t.round.add_bet(box.insurance))
        if all(b.answered or not t.decisions.may_insure(b) for b in self.boxes.values()):
            events += self.peek()
        return events

    def peek(self) -> list:
        """Insurance is closed; the dealer checks for blackjack where the rules say (BJ-9, IB-3)."""
        if bj.dealer_peeks(self.cards[0], self.table.house) and bj.is_blackjack(self.cards):
            return self.finish()
        self.step = PLAY
        for box in self.boxes.values():
            box.advance()
        return self.next_decision()

    def finish(self) -> list:
        """The dealer's hand, then every bet at once."""
        t = self.table
        events: list = [HoleCardRevealed(t.table_id, t.number, self.cards[1])]
        if not bj.is_blackjack(self.cards) and self.plays():
            before = len(self.cards)
            self.cards = list(bj.dealer_finish(self.cards, t.draw))
            events += [CardDealt(t.table_id, t.number, "dealer", c) for c in self.cards[before:]]
        total = bj.total(self.cards)[0]
        if bj.is_blackjack(self.cards):
            result, tally = "dealer blackjack", "dealer blackjack"
        elif total > 21:
            result, tally = f"dealer busts with {total}", "dealer bust"
        else:
            result, tally = f"dealer {total}", f"dealer {total}"
        return events + [t.settle_round(f"{result} ({show(self.cards, ' ')})", tally)]

    def plays(self) -> bool:
        """Whether the dealer draws (BJ-11: not when every hand is already decided)."""
        return bj.dealer_must_play(h for b in self.boxes.values() for h in b.hands)

    def returned(self, bet: Bet) -> tuple[int, str]:
        if bet.market == "insurance":
            back = bj.insurance_returned(bet.amount, self.cards)
            return back, "dealer blackjack" if back else "no dealer blackjack"
        if bet.market == "main":
            hands = self.boxes[bet.player].hands               # one box a player: a seat each at the live table
            back = sum(bj.settle(h, self.cards, self.table.house) for h in hands)
            return back, " / ".join(_hand_text(h) for h in hands)
        return self.side_returned(bet)

    def side_returned(self, bet: Bet) -> tuple[int, str]:
        raise AssertionError(bet.market)

    # ------------------------------------------------------------------ decisions and moves

    def verify_turn(self, box: Box) -> None:
        """Refuse a play move of ``box``'s player when no play decision of theirs is open."""
        raise NotImplementedError

    def check(self, box: Box, move: str, funds: int) -> str:
        """The move to make: ``move`` itself, or what the table plays instead; refusals raised."""
        hand = box.hands[box.active]
        bj.check_move(move, hand, self.cards[0], self.table.house, not box.moved, len(box.hands))
        if move in ("double", "split") and hand.bet > funds:
            return self.short_of_funds(hand, move, funds)
        return move

    def short_of_funds(self, hand: bj.PlayerHand, move: str, funds: int) -> str:
        raise RuleViolation("insufficient_funds", f"a {move} needs {{need}} more; you have {{have}}",
                            "BJ-6" if move == "double" else "BJ-7", amounts={"need": hand.bet, "have": funds})

    def play(self, box: Box, move: str) -> list:
        """A checked play move of the box's player, and what follows from it."""
        raise NotImplementedError

    def move(self, box: Box, move: str, auto: str = "") -> list:
        """Apply one move to the box's active hand; the caller has checked it is legal and affordable."""
        t = self.table
        i = box.active
        hand = box.hands[i]
        events: list = []
        if move == "stand":
            box.hands[i] = hand.stand()
        elif move == "hit":
            box.hands[i] = hand.with_card(self.hit_card(box, i))
        elif move == "double":
            events.append(t.round.stake_more(box.main, hand.bet, "double"))
            box.hands[i] = hand.double(self.hit_card(box, i))
        elif move == "surrender":
            box.hands[i] = hand.surrender()
        elif move == "split":
            events.append(t.round.stake_more(box.main, hand.bet, "split"))
            first, second = hand.split()
            box.hands[i:i + 1] = [first.with_card(self.hit_card(box, i)), second]
            box.hands[i + 1] = second.with_card(self.hit_card(box, i + 1))
        box.moved = True
        box.moves += 1
        events.append(Decided(t.table_id, t.number, box.player, i, move, auto, box.hands[i].cards))
        box.advance()
        return events

    def hit_card(self, box: Box, hand: int) -> int:
        raise NotImplementedError

    def next_decision(self) -> list:
        raise NotImplementedError

    def decision_needed(self, box: Box, who: str) -> DecisionNeeded:
        """The play decision due on the box's active hand, with the moves it may make (BJ-4, IB-4)."""
        t = self.table
        moves = bj.legal_moves(box.hands[box.active], self.cards[0], t.house, not box.moved, len(box.hands))
        return DecisionNeeded(t.table_id, t.number, who, PLAY, t.rules.decision_seconds, box.active,
                              tuple(sorted(moves)), t.decisions.play(box))

    def timed_out(self) -> list:
        """The decision clock ran out: insurance unanswered is a "no" (BJ-8); a play decision, the game's."""
        if self.step == INSURANCE:
            for box in self.boxes.values():
                box.answered = True
            return self.peek()
        return self.out_of_time()

    def out_of_time(self) -> list:
        raise NotImplementedError

    def key(self) -> tuple:
        """Whose decision the deciding phase's clock runs for (see :meth:`CasinoTable.due`)."""
        return (self.step,)


class DealerTable(CasinoTable):
    """A blackjack game's table: its rounds, each run by a fresh :class:`Dealer` of the game's kind."""

    house: bj.HouseRules = bj.LIVE
    rule = "BJ"
    deals_without_bets = False
    decisions: BoxDecisions             # each game's: whose decision is open and its id
    dealer_kind: type[Dealer] = Dealer  # the game's dealer, made fresh each round

    def __init__(self, rules: CasinoRules, source: ShoeSource | None = None) -> None:
        super().__init__(rules, source)
        self.house = replace(self.house, lose_all_on_dealer_blackjack=rules.lose_all_on_dealer_blackjack,
                             double_after_split=rules.double_after_split or self.house.double_after_split)
        self.dealer = self.dealer_kind(self)

    def open_round(self) -> list:
        self.dealer = self.dealer_kind(self)
        return super().open_round()

    def _deal(self) -> list:
        self._to_dealing()
        events = self.dealer.deal()
        self.phase = DECIDING
        return events + self.dealer.after_deal()

    def decide(self, player: str, move: str, hand: int, funds: int, decision: str | None = None) -> list:
        self.decisions.verify(player, decision)
        dealer = self.dealer
        box = dealer.boxes.get(player)
        if box is None or self.phase not in (DECIDING, WAITING):
            raise RuleViolation("no_decision", "you have no hand in play", f"{self.rule}-4")
        if move in ("insurance", "no_insurance"):
            return self._dealt(lambda: dealer.insure(box, move, funds))
        dealer.verify_turn(box)
        if hand != box.active:
            raise RuleViolation("not_this_hand", f"hand {box.active} is the one to play", f"{self.rule}-4")
        move = dealer.check(box, move, funds)
        if self.phase == WAITING:                   # the player waited for is back: BJ-4's clock again
            self.phase = DECIDING
        return self._dealt(lambda: dealer.play(box, move))

    def _timed_out(self) -> list:
        return self.dealer.timed_out()

    def _returned(self, bet: Bet) -> tuple[int, str]:
        return self.dealer.returned(bet)

    def _turn(self) -> tuple:
        return self.dealer.key()


def _hand_text(hand: bj.PlayerHand) -> str:
    if hand.surrendered:
        return "surrendered"
    t = hand.total
    return "blackjack" if hand.blackjack else (f"bust {t}" if t > 21 else str(t))
