"""Infinite Blackjack's side bets: what each pattern pays, and their exact odds (RULES.md IB-9, IB-10).

Pure: no I/O, no clock, no randomness. Each bet is a function of the cards it
watches returning ``(pattern, pays)`` -- the highest pattern only, ``pays`` to
one -- or ``None`` when it loses. :func:`returned` turns that into money.

:func:`exact_frequencies` counts every deal from a full shoe (no simulation),
so the paytables' returns (:func:`rtp`) are exact ``Fraction`` s that the
published rules can be checked against.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement, product
from math import factorial, perm, prod

from pokerroom.cards import DECK_SIZE, rank_of, suit_of
from pokerroom.casino.blackjack_rules import busted, dealer_hits, total

Result = tuple[str, int] | None

PAIRS_PAYS = {"mixed pair": 5, "coloured pair": 10, "perfect pair": 30}
BUST_BONUS_PAYS = {"3 cards": 1, "4 cards": 2, "5 cards": 9, "6 cards": 50, "7 cards": 100, "8+ cards": 250}
LUCKY_TRIO_PAYS = {"19 or 20": 2, "21": 3, "suited 21": 10, "6-7-8": 30, "7-7-7": 50,
                   "suited 6-7-8": 100, "suited 7-7-7": 200}
POKER_TRIO_PAYS = {"flush": 5, "straight": 10, "three of a kind": 30, "straight flush": 40,
                   "suited three of a kind": 100}
PAYTABLES: dict[str, dict[str, int]] = {"pairs": PAIRS_PAYS, "bust_bonus": BUST_BONUS_PAYS,
                                        "lucky_trio": LUCKY_TRIO_PAYS, "poker_trio": POKER_TRIO_PAYS}
ROUND_LIMITS = {"pairs": 40, "bust_bonus": 45, "lucky_trio": 45, "poker_trio": 45}
"""IB-10: after this many rounds of a shoe the bet closes until the shuffle."""

_RED = frozenset({1, 2})  # diamonds, hearts
_SIX, _SEVEN, _EIGHT = 4, 5, 6  # ranks
_SIX_SEVEN_EIGHT = [_SIX, _SEVEN, _EIGHT]


def _paid(table: Mapping[str, int], pattern: str) -> tuple[str, int]:
    return pattern, table[pattern]


def pairs(c1: int, c2: int) -> Result:
    """The player's first two cards: same rank, and the closer the suits the more it pays."""
    if rank_of(c1) != rank_of(c2):
        return None
    s1, s2 = suit_of(c1), suit_of(c2)
    if s1 == s2:
        return _paid(PAIRS_PAYS, "perfect pair")
    return _paid(PAIRS_PAYS, "coloured pair" if (s1 in _RED) == (s2 in _RED) else "mixed pair")


def bust_bonus(dealer_cards: Sequence[int]) -> Result:
    """Only a dealer bust wins, and the more cards it took the more it pays."""
    if not busted(dealer_cards):
        return None
    return _paid(BUST_BONUS_PAYS, _bust_pattern(len(dealer_cards)))


def _bust_pattern(cards: int) -> str:
    return "8+ cards" if cards >= 8 else f"{cards} cards"


def lucky_trio(c1: int, c2: int, up: int) -> Result:
    """The player's two cards and the dealer's up card as a blackjack total (aces best not over 21)."""
    suited = suit_of(c1) == suit_of(c2) == suit_of(up)
    ranks = sorted((rank_of(c1), rank_of(c2), rank_of(up)))
    prefix = "suited " if suited else ""
    if ranks == [_SEVEN] * 3:
        return _paid(LUCKY_TRIO_PAYS, prefix + "7-7-7")
    if ranks == _SIX_SEVEN_EIGHT:
        return _paid(LUCKY_TRIO_PAYS, prefix + "6-7-8")
    best = total((c1, c2, up))[0]
    if best == 21:
        return _paid(LUCKY_TRIO_PAYS, prefix + "21")
    return _paid(LUCKY_TRIO_PAYS, "19 or 20") if best in (19, 20) else None


def _straight(ranks: Sequence[int]) -> bool:
    """Three ranks in a row, the ace high (Q-K-A) or low (A-2-3) but never both (K-A-2)."""
    low, mid, high = sorted(ranks)
    return (mid == low + 1 and high == mid + 1) or (low, mid, high) == (0, 1, 12)


def poker_trio(c1: int, c2: int, up: int) -> Result:
    """The same three cards as a three-card poker hand (IB-9)."""
    suited = suit_of(c1) == suit_of(c2) == suit_of(up)
    ranks = (rank_of(c1), rank_of(c2), rank_of(up))
    if ranks[0] == ranks[1] == ranks[2]:
        return _paid(POKER_TRIO_PAYS, "suited three of a kind" if suited else "three of a kind")
    if _straight(ranks):
        return _paid(POKER_TRIO_PAYS, "straight flush" if suited else "straight")
    return _paid(POKER_TRIO_PAYS, "flush") if suited else None


SIDE_BETS: dict[str, Callable[..., Result]] = {"pairs": pairs, "bust_bonus": bust_bonus,
                                               "lucky_trio": lucky_trio, "poker_trio": poker_trio}


def outcome(bet: str, player_cards: Sequence[int], dealer_cards: Sequence[int]) -> Result:
    """One side bet on a finished deal: the player's first two cards and the dealer's whole hand."""
    if bet == "bust_bonus":
        return bust_bonus(dealer_cards)
    if bet == "pairs":
        return pairs(player_cards[0], player_cards[1])
    return SIDE_BETS[bet](player_cards[0], player_cards[1], dealer_cards[0])


def returned(bet: str, stake: int, player_cards: Sequence[int], dealer_cards: Sequence[int]) -> int:
    """Stake plus winnings for a winning side bet, 0 for a losing one (CR-4)."""
    result = outcome(bet, player_cards, dealer_cards)
    return 0 if result is None else stake * (result[1] + 1)


def rtp(bet: str, frequencies: Mapping[str, Fraction]) -> Fraction:
    """Return per unit staked: the sum over patterns of probability times (pays + 1)."""
    pays = PAYTABLES[bet]
    return sum((p * (pays[pattern] + 1) for pattern, p in frequencies.items()), Fraction(0))


def exact_frequencies(decks: int = 8) -> dict[str, dict[str, Fraction]]:
    """The exact probability of each winning pattern, by counting every deal from a full shoe of ``decks`` decks.

    Pairs: the player's first two cards drawn without replacement. Lucky Trio
    and Poker Trio: the first three cards (player, player, dealer up), over
    each multiset of the 52 card kinds with the number of ordered draws that
    give it. Bust Bonus: the dealer's whole hand (up card, hole card, draws
    while :func:`dealer_hits`) from a full shoe, the player's cards ignored --
    in play they come out of the same shoe, so the true odds shift slightly.
    """
    if decks < 1:
        raise ValueError("a shoe has at least one deck")
    shoe = DECK_SIZE * decks
    out = {"pairs": {pattern: Fraction(n, perm(shoe, 2)) for pattern, n in _pair_counts(decks).items()},
           "bust_bonus": _bust_frequencies(decks)}
    for bet, counts in _trio_counts(decks).items():
        out[bet] = {pattern: Fraction(n, perm(shoe, 3)) for pattern, n in counts.items()}
    return {bet: dict(sorted(patterns.items(), key=lambda kv: PAYTABLES[bet][kv[0]])) for bet, patterns in out.items()}


def _pair_counts(decks: int) -> Counter[str]:
    """Ordered two-card draws winning each Pairs pattern."""
    counts: Counter[str] = Counter()
    for c1, c2 in product(range(DECK_SIZE), repeat=2):
        result, ways = pairs(c1, c2), decks * (decks - (c1 == c2))
        if result is not None and ways:
            counts[result[0]] += ways
    return counts


def _trio_counts(decks: int) -> dict[str, Counter[str]]:
    """Ordered three-card draws winning each pattern; both bets are blind to the cards' order."""
    counts: dict[str, Counter[str]] = {"lucky_trio": Counter(), "poker_trio": Counter()}
    for kinds in combinations_with_replacement(range(DECK_SIZE), 3):
        repeats = Counter(kinds).values()
        # the multiset's orders, each drawn in falling(decks, k) ways for a kind repeated k times
        ways = factorial(3) // prod(factorial(k) for k in repeats) * prod(perm(decks, k) for k in repeats)
        if not ways:
            continue
        for bet, result in (("lucky_trio", lucky_trio(*kinds)), ("poker_trio", poker_trio(*kinds))):
            if result is not None:
                counts[bet][result[0]] += ways
    return counts


# a card of each blackjack value 1 (ace) .. 10, to ask dealer_hits about a hand known by its values
_CARD_OF_VALUE = (12 * 4, *((v - 2) * 4 for v in range(2, 11)))


def _bust_frequencies(decks: int) -> dict[str, Fraction]:
    """The dealer's hand by values, memoised on the multiset drawn (the order only decides when it stops)."""
    in_shoe = (4 * decks,) * 9 + (16 * decks,)  # aces, 2..9, ten-values
    shoe = DECK_SIZE * decks

    @cache
    def busts(drawn: tuple[int, ...]) -> tuple[tuple[int, Fraction], ...]:
        hand = [_CARD_OF_VALUE[v] for v, k in enumerate(drawn) for _ in range(k)]
        if not dealer_hits(hand):
            return ((len(hand), Fraction(1)),) if busted(hand) else ()
        left = shoe - len(hand)
        dist: Counter[int] = Counter()
        for v, k in enumerate(drawn):
            if in_shoe[v] == k:
                continue
            p = Fraction(in_shoe[v] - k, left)
            for n, q in busts(drawn[:v] + (k + 1,) + drawn[v + 1:]):
                dist[n] += p * q
        return tuple(dist.items())

    freq: Counter[str] = Counter()
    for n, p in busts((0,) * 10):
        freq[_bust_pattern(n)] += p
    return dict(freq)
