"""Infinite Blackjack: any number of players, one deal (RULES.md IB).

Theory of operation
-------------------
Everyone who bets gets the same first two cards and plays against the same
dealer. After that each player decides alone, at the same time as everyone
else, within one decision clock. Extra cards come from one *common sequence*
drawn from the shoe as far as anyone needs it: a player's n-th extra card is
the sequence's n-th card, whoever they are (IB-1) -- so players who make the
same choices get the same cards, and the shoe holds no per-player order. Once
everyone has finished (or the clock ran out and the room played the rest,
IB-6), the dealer draws after the longest run anyone took from the sequence.

The room plays a hand for its player when they cannot afford a double or split
(IB-5) or did not decide in time or are disconnected (IB-6, IB-11): hit while
the total is 11 or less, then stand. A disconnected player's round therefore
always completes, and its result waits in their bet history.

Side bets (IB-9) settle on their own pattern; each closes for the rest of the
shoe after its round limit (IB-10).
"""

from __future__ import annotations

from pokerroom.casino import blackjack_rules as bj
from pokerroom.casino import side_bets
from pokerroom.casino.betting import Bet
from pokerroom.casino.box_decisions import InfiniteDecisions
from pokerroom.casino.dealer import PLAY, Box, Dealer, DealerTable
from pokerroom.casino.events import CardDealt, ShoeShuffled
from pokerroom.casino.shoe import Shoe, ShoeSource, burn_by_first_card
from pokerroom.casino.table import CasinoRules
from pokerroom.errors import RuleViolation

MARKETS = ("main", *side_bets.ROUND_LIMITS)


class InfiniteDealer(Dealer):
    """A round of infinite blackjack: the one deal everyone shares, the common sequence of extra cards (IB-1),
    and the boxes still deciding, all at once."""

    def __init__(self, table: InfiniteBlackjackTable) -> None:
        super().__init__(table)
        self.first_two: tuple[int, int] = (0, 0)
        self.sequence: list[int] = []
        self.playing: list[Box] = []         # boxes still deciding
        self.undecided = 0                   # how many of them have not finished: the round goes on at 0

    def deal(self) -> list:
        t = self.table
        c1 = t.draw()
        events = [CardDealt(t.table_id, t.number, "player", c1)]
        events += self.deal_up()
        c2 = t.draw()
        events.append(CardDealt(t.table_id, t.number, "player", c2))
        events += self.deal_hole()
        self.first_two = (c1, c2)
        for bet in t.round.bets:
            if bet.market == "main":
                self.boxes[bet.player] = Box(bet.player, bet, [bj.PlayerHand((c1, c2), bet.amount)])
        return events

    def hit_card(self, box: Box, hand: int) -> int:
        while len(self.sequence) <= box.drawn:      # not announced: a card shown early tells others their hit
            self.sequence.append(self.table.draw())
        card = self.sequence[box.drawn]
        box.drawn += 1
        return card

    def next_decision(self) -> list:
        """Everyone decides at once; the round goes on when the last player is done."""
        self.playing = [b for b in self.boxes.values() if not b.done]
        self.undecided = len(self.playing)
        if not self.playing:
            return self.finish()
        return [self.decision_needed(self.playing[0], "")]      # everyone holds the same two cards

    def plays(self) -> bool:
        return True                         # IB-7 has no exception: the bust bonus needs the dealer's whole hand

    def verify_turn(self, box: Box) -> None:
        if self.step != PLAY or box.done:
            raise RuleViolation("no_decision", "you have no decision to make now", "IB-4")

    def short_of_funds(self, hand: bj.PlayerHand, move: str, funds: int) -> str:
        return "no_funds:" + bj.auto_move(hand)                 # IB-5

    def play(self, box: Box, move: str) -> list:
        auto = ""
        if move.startswith("no_funds:"):
            move, auto = move.split(":", 1)[1], "no_funds"
        events = self.move(box, move, auto)
        if box.done:                        # decide() refuses a finished box: each box gets here done once
            self.undecided -= 1
            if self.undecided == 0:
                events += self.finish()
        return events

    def out_of_time(self) -> list:
        """IB-6: the room plays every hand still open, hit to 11 then stand."""
        events: list = []
        for box in self.playing:
            while not box.done:
                events += self.move(box, bj.auto_move(box.hands[box.active]), "timeout")
        return events + self.finish()

    def side_returned(self, bet: Bet) -> tuple[int, str]:
        found = side_bets.outcome(bet.market, self.first_two, self.cards)
        back = 0 if found is None else bet.amount * (found[1] + 1)
        return back, found[0] if found else "lost"

    def finish(self) -> list:
        """The common sequence is shown once nobody can still act on it, then the dealer's hand."""
        t = self.table
        self.playing = []
        shown = [CardDealt(t.table_id, t.number, "sequence", c, index=i) for i, c in enumerate(self.sequence)]
        return shown + super().finish()


class InfiniteBlackjackTable(DealerTable):
    game = "infinite_blackjack"
    rule = "IB"
    house = bj.INFINITE
    rules_text = (
        "Eight decks. After a shuffle one card is shown and that many cards burned (A = 1, J/Q/K = 10); the cut "
        "card marks the last round before the shuffle.",
        "Every player gets the same first two cards and plays against one dealer; extra cards come from one common "
        "sequence, so the same choices get the same cards.",
        "Moves: hit, stand, double (initial or split hands except split aces, one card), split (equal value, once; "
        "split aces one card each), surrender (initial two cards, first move, dealer up card 2 to 9: lose half), "
        "insurance under an ace (half the bet, pays 2:1, even with a blackjack).",
        "Without funds for a double or split, or without a decision in time, the hand hits to 11 and stands.",
        "The dealer peeks under an ace or a ten; a dealer blackjack ends the round at once. The dealer hits 16 and "
        "stands on all 17s.",
        "Side bets close for the rest of the shoe after 40 rounds (Pairs) or 45 (the others).",
    )
    paytable = (("blackjack", "3:2"), ("win", "1:1"), ("insurance", "2:1"),
                *((f"pairs: {k}", f"{v}:1") for k, v in side_bets.PAIRS_PAYS.items()),
                *((f"bust bonus: {k}", f"{v}:1") for k, v in side_bets.BUST_BONUS_PAYS.items()),
                *((f"lucky trio: {k}", f"{v}:1") for k, v in side_bets.LUCKY_TRIO_PAYS.items()),
                *((f"poker trio: {k}", f"{v}:1") for k, v in side_bets.POKER_TRIO_PAYS.items()))

    dealer_kind = InfiniteDealer
    dealer: InfiniteDealer

    def __init__(self, rules: CasinoRules, source: ShoeSource | None = None) -> None:
        super().__init__(rules, source)
        self.shoe_rounds = 0                 # rounds dealt from this shoe (IB-10)
        self.decisions = InfiniteDecisions(self)

    # ------------------------------------------------------------------ shoe and markets

    def _new_shoe(self) -> list:
        self.shoe = Shoe.fresh(self.source, self.rules.decks, self.rules.behind_cut)
        shown = burn_by_first_card(self.shoe)                    # IB-2
        self.shoe_rounds = 0
        return [ShoeShuffled(self.table_id, self.rules.decks, self.shoe.burned, shown)]

    def closed_markets(self) -> tuple[str, ...]:
        # the round taking bets would be the shoe's (shoe_rounds + 1)-th dealt: closed once that is over the limit
        return tuple(m for m, limit in side_bets.ROUND_LIMITS.items() if self.shoe_rounds >= limit)

    def _closed_rule(self, market: str) -> str:
        return "IB-10"

    def _market(self, market: str, player: str, seat: int | None) -> str:
        if market not in MARKETS:
            raise RuleViolation("unknown_market", f"no market {market!r}: bet on {', '.join(MARKETS)}", "IB-9")
        if seat is not None:                # everyone plays the same hand: there is no seat to take
            raise RuleViolation("no_seats", "infinite blackjack has no seats to choose", "IB-1")
        return market

    def _deal(self) -> list:
        self.shoe_rounds += 1                                   # IB-10 counts rounds dealt, not rounds opened
        return super()._deal()

    def disconnect(self, player: str, at: float) -> list:
        """IB-11: the round completes without them -- their hands are played for them when the clock runs out."""
        return []

    def view(self, player: str | None) -> dict:
        out = super().view(player)
        dealer = self.dealer
        if dealer.cards:
            out["dealer"] = [dealer.cards[0], None]
            out["first_two"] = list(dealer.first_two)
        box = dealer.boxes.get(player or "")
        if box is not None:
            out["hands"] = [list(h.cards) for h in box.hands]
            out["active"] = box.active
        return out
