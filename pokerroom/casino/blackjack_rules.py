"""The card rules of blackjack, shared by the live table (RULES.md BJ) and Infinite Blackjack (IB).

Pure: no I/O, no clock, no randomness. Cards are the ints of :mod:`pokerroom.cards`
(a shoe repeats them); the table deals and passes them in. What differs between
the two games is a handful of switches in :class:`HouseRules` (:data:`LIVE`,
:data:`INFINITE`); everything else -- totals, the dealer's drawing rule, which
moves a hand may make, what a finished hand returns -- is one set of functions.

A :class:`PlayerHand` is immutable: a move gives a new hand. :func:`legal_moves`
says what a hand may do (BJ-5/6/7, IB-4) and :func:`check_move` refuses anything
else with a :class:`~pokerroom.errors.RuleViolation` naming the rule. Funds are
the caller's job: it checks the player can cover a double or a split and, when
not (IB-5) or when time runs out (IB-6), plays :func:`auto_move`.

Money is integer minor units. :func:`settle` gives what a hand hands back (stake
plus winnings, 0 when lost), the same convention as the other casino games.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from pokerroom.cards import DECK_SIZE, rank_of
from pokerroom.errors import RuleViolation

ACE_RANK = 12
TEN_RANKS = frozenset({8, 9, 10, 11})  # ten, jack, queen, king
MOVES = frozenset({"hit", "stand", "double", "split", "surrender"})
ILLEGAL_MOVE = "illegal_move"


def card_value(card: int) -> int:
    """BJ-1: 2-10 at face value, J/Q/K 10, ace 1 (:func:`total` decides when an ace counts 11)."""
    if type(card) is not int or not 0 <= card < DECK_SIZE:
        raise ValueError(f"not a card: {card!r} (cards are ints 0..51)")
    rank = rank_of(card)
    if rank == ACE_RANK:
        return 1
    return 10 if rank in TEN_RANKS else rank + 2


_VALUE = tuple(card_value(c) for c in range(DECK_SIZE))    # card_value of every card, for the hot paths
# Totals of hands seen lately: at Infinite Blackjack thousands of players hold the same cards (IB-1).
_TOTALS: dict[tuple[int, ...], tuple[int, bool]] = {}
_TOTALS_KEPT = 65_536


def is_ace(card: int) -> bool:
    return rank_of(card) == ACE_RANK


def is_ten_value(card: int) -> bool:
    return rank_of(card) in TEN_RANKS


def total(cards: Iterable[int]) -> tuple[int, bool]:
    """Best total and whether it is soft (BJ-1).

    At most one ace can count 11 (two would make 22), so the best total is the
    hard total plus 10 when there is an ace and that does not bust.
    """
    known = _TOTALS.get(cards) if type(cards) is tuple else None
    if known is not None:
        return known
    hard, ace = 0, False
    for c in cards:
        v = _VALUE[c] if type(c) is int and 0 <= c < DECK_SIZE else card_value(c)   # card_value raises
        hard += v
        ace = ace or v == 1
    found = (hard + 10, True) if ace and hard + 10 <= 21 else (hard, False)
    if type(cards) is tuple:
        if len(_TOTALS) >= _TOTALS_KEPT:
            _TOTALS.clear()
        _TOTALS[cards] = found
    return found


def is_blackjack(cards: Sequence[int], split: bool = False) -> bool:
    """Ace and a ten-value card as the first two cards of an unsplit hand (BJ-1, BJ-7, IB-4)."""
    return not split and len(cards) == 2 and total(cards)[0] == 21


def busted(cards: Iterable[int]) -> bool:
    return total(cards)[0] > 21


def dealer_hits(cards: Iterable[int]) -> bool:
    """The dealer draws to 16 and stands on every 17, soft 17 included (BJ-10, IB-7)."""
    return total(cards)[0] < 17


def dealer_finish(cards: Sequence[int], draw: Callable[[], int]) -> tuple[int, ...]:
    """The dealer's hand completed by the house rule, drawing with ``draw`` (BJ-10, IB-7)."""
    hand = list(cards)
    while dealer_hits(hand):
        hand.append(draw())
    return tuple(hand)


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The switches on which the live table and Infinite Blackjack differ.

    ``game`` is the rule prefix that refusals name ("BJ" or "IB").
    ``surrender`` is IB-4's: initial two cards, before any other move, and the
    dealer's up card neither an ace nor ten-valued. ``peek_on_ace`` /
    ``peek_on_ten``: whether the dealer checks the hole card for blackjack
    before the players act (BJ-9 peeks under an ace only, after insurance; IB-3
    ends the round at once on a dealer blackjack, so it checks under both).
    ``lose_all_on_dealer_blackjack``: BJ-9's default, doubles and split bets
    lost too; False loses the original bet only. ``insurance_with_blackjack``:
    IB-4 allows insurance on a blackjack; BJ-8 does not say so, and the live
    table offers it only to hands that can still lose to a dealer blackjack.
    """

    game: str
    surrender: bool
    double_after_split: bool
    peek_on_ace: bool
    peek_on_ten: bool
    lose_all_on_dealer_blackjack: bool
    insurance_with_blackjack: bool


LIVE = HouseRules(game="BJ", surrender=False, double_after_split=False, peek_on_ace=True, peek_on_ten=False,
                  lose_all_on_dealer_blackjack=True, insurance_with_blackjack=False)
INFINITE = HouseRules(game="IB", surrender=True, double_after_split=True, peek_on_ace=True, peek_on_ten=True,
                      lose_all_on_dealer_blackjack=True, insurance_with_blackjack=True)


def dealer_peeks(dealer_up: int, rules: HouseRules) -> bool:
    """Whether the dealer checks for blackjack before the players act (BJ-9, IB-3)."""
    return (rules.peek_on_ace and is_ace(dealer_up)) or (rules.peek_on_ten and is_ten_value(dealer_up))


@dataclass(frozen=True, slots=True)
class PlayerHand:
    """One hand on a seat; a split makes two.

    ``bet`` is the hand's own stake; ``doubled`` the extra stake a double put on
    (0 when none; BJ-6 allows up to the bet). ``split_extra`` marks the hand of
    a split that carries the equal extra bet rather than the original, which
    matters only when a dealer blackjack takes the original bet alone (BJ-9).
    The methods are bare transitions: :func:`check_move` says whether the
    move is allowed.
    """

    cards: tuple[int, ...]
    bet: int
    doubled: int = 0
    from_split: bool = False
    split_aces: bool = False
    split_extra: bool = False
    surrendered: bool = False
    stood: bool = False

    @property
    def stake(self) -> int:
        return self.bet + self.doubled

    @property
    def total(self) -> int:
        return total(self.cards)[0]

    @property
    def blackjack(self) -> bool:
        return is_blackjack(self.cards, self.from_split)

    @property
    def done(self) -> bool:
        """No decision is left: stood, surrendered, doubled, busted, at 21, or split aces with their card.

        A split hand still waiting for its second card is not done, but has no
        move either: the table deals that card (BJ-7).
        """
        return (self.stood or self.surrendered or bool(self.doubled) or self.total >= 21
                or (self.split_aces and len(self.cards) >= 2))

    def _but(self, cards: tuple[int, ...] | None = None, doubled: int | None = None, surrendered: bool = False,
             stood: bool = False) -> PlayerHand:
        """This hand with new cards, a double, a surrender or a stand: ``dataclasses.replace`` without its cost."""
        return PlayerHand(self.cards if cards is None else cards, self.bet,
                          self.doubled if doubled is None else doubled, self.from_split, self.split_aces,
                          self.split_extra, self.surrendered or surrendered, self.stood or stood)

    def with_card(self, card: int) -> PlayerHand:
        """The hand with one more card: a hit, or the second card a split hand is dealt."""
        card_value(card)
        return self._but(cards=(*self.cards, card))

    def stand(self) -> PlayerHand:
        return self._but(stood=True)

    def double(self, card: int, extra: int | None = None) -> PlayerHand:
        """The extra stake (the full bet unless less is given, BJ-6) and exactly one card."""
        extra = self.bet if extra is None else extra
        if not 0 < extra <= self.bet:
            raise ValueError(f"a double puts on between 1 and {self.bet}, not {extra}")
        card_value(card)
        return self._but(cards=(*self.cards, card), doubled=extra)

    def surrender(self) -> PlayerHand:
        return self._but(surrendered=True)

    def split(self) -> tuple[PlayerHand, PlayerHand]:
        """Two one-card hands, the second on an equal extra bet; each then gets its second card (BJ-7)."""
        if len(self.cards) != 2:
            raise ValueError("only a two-card hand splits")
        aces = is_ace(self.cards[0])
        first = PlayerHand((self.cards[0],), self.bet, from_split=True, split_aces=aces)
        return first, replace(first, cards=(self.cards[1],), split_extra=True)


def legal_moves(hand: PlayerHand, dealer_up: int, rules: HouseRules, first_decision: bool,
                hands_in_seat: int) -> frozenset[str]:
    """The moves this hand may make now, funds aside (BJ-5, BJ-6, BJ-7, IB-4).

    ``first_decision``: nothing has been decided on the seat yet (IB-4's
    surrender "before any other move"). ``hands_in_seat`` > 1 means the seat
    has split, and there is one split only.
    """
    if hand.done or len(hand.cards) < 2:
        return frozenset()
    moves = {"hit", "stand"}
    if len(hand.cards) == 2:
        if not hand.from_split or rules.double_after_split:
            moves.add("double")
        if (not hand.from_split and hands_in_seat == 1
                and card_value(hand.cards[0]) == card_value(hand.cards[1])):
            moves.add("split")
        if (rules.surrender and first_decision and not hand.from_split and hands_in_seat == 1
                and not is_ace(dealer_up) and not is_ten_value(dealer_up)):
            moves.add("surrender")
    return frozenset(moves)


def check_move(move: str, hand: PlayerHand, dealer_up: int, rules: HouseRules, first_decision: bool,
               hands_in_seat: int) -> None:
    """Refuse a move :func:`legal_moves` does not allow, saying why and under which rule."""
    if move in legal_moves(hand, dealer_up, rules, first_decision, hands_in_seat):
        return
    live = rules.game == "BJ"
    if move not in MOVES:
        raise RuleViolation("unknown_move", f"no such move {move!r}: choose from {', '.join(sorted(MOVES))}",
                            "BJ-4" if live else "IB-4")
    if len(hand.cards) < 2:
        why, rule = "a split hand gets its second card first", "BJ-7"
    elif hand.done:
        if hand.total == 21 and not hand.doubled:
            why, rule = "a hand with 21 takes no more decisions", "BJ-5"
        elif hand.split_aces:
            why, rule = "split aces get one card each", "BJ-7"
        elif hand.doubled:
            why, rule = "a doubled hand gets exactly one card", "BJ-6"
        else:
            why, rule = "this hand has no decision to make", "BJ-4"
    elif move == "double":
        why = "double only on the first two cards" + ("" if rules.double_after_split else " of an unsplit hand")
        rule = "BJ-6"
    elif move == "split":
        why, rule = "split only two first cards of equal value, and once", "BJ-7"
    else:
        why = ("no surrender at this table" if not rules.surrender else
               "surrender only on the initial two cards, before any other move, against a dealer 2 to 9")
        rule = "BJ-4"
    raise RuleViolation(ILLEGAL_MOVE, f"cannot {move}: {why}", rule if live else "IB-4")


def auto_move(hand: PlayerHand) -> str:
    """The system's play for a hand that cannot afford its move or ran out of time (IB-5, IB-6).

    Hit while the best total (aces 11 unless that busts) is 11 or less, else stand.
    """
    return "hit" if hand.total <= 11 else "stand"


def insurance_offered(dealer_up: int) -> bool:
    """Insurance is offered when the dealer shows an ace (BJ-8, IB-4)."""
    return is_ace(dealer_up)


def may_insure(hand: PlayerHand, dealer_up: int, rules: HouseRules) -> bool:
    """Insurance for this hand: an ace up, and a blackjack only where the rules allow it."""
    return insurance_offered(dealer_up) and (rules.insurance_with_blackjack or not hand.blackjack)


def insurance_cost(bet: int) -> int:
    """Half the original bet, rounded down to the minor unit (BJ-8, IB-4)."""
    return bet // 2


def insurance_returned(insurance_stake: int, dealer_cards: Sequence[int]) -> int:
    """Insurance pays 2:1 when the dealer has blackjack, else it is lost (BJ-8, IB-8)."""
    return 3 * insurance_stake if is_blackjack(dealer_cards) else 0


def dealer_must_play(hands: Iterable[PlayerHand]) -> bool:
    """Whether any hand still depends on the dealer's total (BJ-11): not all busted, blackjack or surrendered."""
    return any(not (h.surrendered or h.blackjack or busted(h.cards)) for h in hands)


def settle(hand: PlayerHand, dealer_cards: Sequence[int], rules: HouseRules) -> int:
    """What the hand hands back, stake included; 0 when lost (BJ-9, BJ-12, IB-3, IB-8).

    Blackjack pays 3:2 rounded down to the minor unit; other wins 1:1; equal
    totals and two blackjacks push; a dealer blackjack beats any other 21; a
    bust loses even when the dealer busts; a surrender returns half the bet.
    """
    if hand.surrendered:
        return hand.bet // 2
    if busted(hand.cards):
        return 0
    player_bj, dealer_bj = hand.blackjack, is_blackjack(dealer_cards)
    if dealer_bj:
        if player_bj:
            return hand.stake
        if rules.lose_all_on_dealer_blackjack:
            return 0
        return hand.doubled + (hand.bet if hand.split_extra else 0)
    if player_bj:
        return hand.stake + hand.stake * 3 // 2
    if dealer_hits(dealer_cards):
        raise ValueError("the dealer's hand is not finished: settle after the dealer stands or busts")
    dealer_total, player_total = total(dealer_cards)[0], hand.total
    if dealer_total > 21 or player_total > dealer_total:
        return 2 * hand.stake
    return hand.stake if player_total == dealer_total else 0
