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
from pokerroom.casino.blackjack import PLAY, Box, DealerTable
from pokerroom.casino.box_decisions import InfiniteDecisions
from pokerroom.casino.events import CardDealt, ShoeShuffled
from pokerroom.casino.shoe import Shoe, ShoeSource, burn_by_first_card
from pokerroom.casino.table import DECIDING, WAITING, CasinoRules
from pokerroom.errors import RuleViolation

MARKETS = ("main", *side_bets.ROUND_LIMITS)


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

    def __init__(self, rules: CasinoRules, source: ShoeSource | None = None) -> None:
        super().__init__(rules, source)
        self.shoe_rounds = 0                 # rounds dealt from this shoe (IB-10)
        self.first_two: tuple[int, int] = (0, 0)
        self.sequence: list[int] = []
        self.playing: list[Box] = []         # boxes still deciding
        self.undecided = 0                   # how many of them have not finished: the round goes on at 0
        self.decisions = InfiniteDecisions(self)

    # ------------------------------------------------------------------ shoe and markets

    def _new_shoe(self) -> list:
        self.shoe = Shoe.fresh(self.source, self.rules.decks, self.rules.behind_cut)
        shown = burn_by_first_card(self.shoe)                    # IB-2
        self.shoe_rounds = 0
        return [ShoeShuffled(self.table_id, self.rules.decks, self.shoe.burned, shown)]

    def open_round(self) -> list:
        events = super().open_round()
        self.sequence = []
        self.playing = []
        self.undecided = 0
        return events

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

    # ------------------------------------------------------------------ the deal

    def _deal(self) -> list:
        self._to_dealing()
        self.shoe_rounds += 1                                   # IB-10 counts rounds dealt, not rounds opened
        c1 = self._draw()
        events = [CardDealt(self.table_id, self.number, "player", c1)]
        events += self._deal_dealer_up()
        c2 = self._draw()
        events.append(CardDealt(self.table_id, self.number, "player", c2))
        events += self._deal_hole()
        self.first_two = (c1, c2)
        for bet in self.round.bets:
            if bet.market == "main":
                box = Box(bet.player, bet, [bj.PlayerHand((c1, c2), bet.amount)])
                self.boxes[bet.player] = box
        return events + self._after_deal()

    def _hit_card(self, box: Box, hand: int) -> int:
        while len(self.sequence) <= box.drawn:      # not announced: a card shown early tells others their hit
            self.sequence.append(self._draw())
        card = self.sequence[box.drawn]
        box.drawn += 1
        return card

    def _next_decision(self) -> list:
        """Everyone decides at once; the round goes on when the last player is done."""
        self.playing = [b for b in self.boxes.values() if not b.done]
        self.undecided = len(self.playing)
        if not self.playing:
            return self._finish()
        return [self._decision_needed(self.playing[0], "")]      # everyone holds the same two cards

    def _dealer_plays(self) -> bool:
        return True                         # IB-7 has no exception: the bust bonus needs the dealer's whole hand

    # ------------------------------------------------------------------ decisions

    def decide(self, player: str, move: str, hand: int, funds: int, decision: str | None = None) -> list:
        self.decisions.verify(player, decision)
        box = self.boxes.get(player)
        if box is None or self.phase not in (DECIDING, WAITING):
            raise RuleViolation("no_decision", "you have no hand in play", "IB-4")
        if move in ("insurance", "no_insurance"):
            return self._dealt(lambda: self._insure(box, move, funds))
        if self.step != PLAY or box.done:
            raise RuleViolation("no_decision", "you have no decision to make now", "IB-4")
        if hand != box.active:
            raise RuleViolation("not_this_hand", f"hand {box.active} is the one to play", "IB-4")
        move = self._check(box, move, funds)
        return self._dealt(lambda: self._decided(box, move))

    def _short_of_funds(self, hand: bj.PlayerHand, move: str, funds: int) -> str:
        return "no_funds:" + bj.auto_move(hand)                 # IB-5

    def _decided(self, box: Box, move: str) -> list:
        auto = ""
        if move.startswith("no_funds:"):
            move, auto = move.split(":", 1)[1], "no_funds"
        events = self._move(box, move, 0, auto)
        if box.done:                        # decide() refuses a finished box: each box gets here done once
            self.undecided -= 1
            if self.undecided == 0:
                events += self._finish()
        return events

    def _timed_out(self) -> list:
        """IB-6: the room plays every hand still open, hit to 11 then stand."""
        if self.step != PLAY:                              # insurance: no answer is a "no"
            for box in self.boxes.values():
                box.answered = True
            return self._peek()
        events: list = []
        for box in self.playing:
            while not box.done:
                events += self._move(box, bj.auto_move(box.hands[box.active]), 0, "timeout")
        return events + self._finish()

    def disconnect(self, player: str, at: float) -> list:
        """IB-11: the round completes without them -- their hands are played for them when the clock runs out."""
        return []

    # ------------------------------------------------------------------ settlement

    def _side_returned(self, bet: Bet) -> tuple[int, str]:
        found = side_bets.outcome(bet.market, self.first_two, self.dealer)
        back = 0 if found is None else bet.amount * (found[1] + 1)
        return back, found[0] if found else "lost"

    def _finish(self) -> list:
        """The common sequence is shown once nobody can still act on it, then the dealer's hand."""
        self.playing = []
        shown = [CardDealt(self.table_id, self.number, "sequence", c, index=i) for i, c in enumerate(self.sequence)]
        return shown + super()._finish()

    def view(self, player: str | None) -> dict:
        out = super().view(player)
        if self.dealer:
            out["dealer"] = [self.dealer[0], None]
            out["first_two"] = list(self.first_two)
        box = self.boxes.get(player or "")
        if box is not None:
            out["hands"] = [list(h.cards) for h in box.hands]
            out["active"] = box.active
        return out
