"""Punto Banco (RULES.md BA): card values, the drawing tableau, the coup, payouts and the exact odds.

Pure: no I/O, no clock, no randomness. The table owns the shoe (and its cut
card, BA-1: see :mod:`pokerroom.casino.shoe`) and hands :func:`deal_coup` a
``draw`` callable; everything here is a function of the cards.

The drawing rules are written once, in :func:`player_draws` and
:func:`banker_draws`. The exact odds do not restate them: :func:`coup_odds`
reads them through a 10 x 11 drawing table built from those two functions.

Theory of operation of :func:`coup_odds`
----------------------------------------
Only point values (0..9) decide a coup's result and how many cards it takes,
so the unknown pool is a count per value. The first four cards (player,
banker, player, banker: BA-3) are enumerated at once as a numpy grid of value
sequences, each weighted by its number of ordered card sequences (a falling
product of the counts, without replacement); a side's two unknown cards are
taken in one order only and counted twice, so a full grid is 55 x 55 rows
rather than 10^4. For every sequence
the fifth card is then a vector over its 10 values; the sixth card (the
banker's third after the player's) is never enumerated: with the banker's
remaining-card counts rotated by its two-card total, a prefix sum tells how
many cards leave the banker below, level with or above the player's final
total, less the one card the player's third took. All sums are integers over
the common denominator ``N (N-1) .. (N-k+1)`` (k unknown cards dealt at
most), so the result is an exact :class:`~fractions.Fraction` at numpy speed.
Bet on Baccarat prices its result markets from the same function.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from pokerroom.errors import RuleViolation

DECKS = 8                       # BA-1
BEHIND_CUT = 7                  # BA-1: the cut card sits seven cards from the back
MARKETS = ("player", "banker", "tie")
COMMISSION_PERCENT = 5          # BA-5: on a Banker win
TIE_PAYS = 8                    # BA-5: 8 to 1
UNKNOWN_MARKET = "unknown_market"


def point_value(card: int) -> int:
    """BA-2: ace 1, deuce to nine their face, ten and court cards 0."""
    rank = card >> 2
    if rank == 12:
        return 1
    return rank + 2 if rank < 8 else 0


def points(cards: Sequence[int]) -> int:
    """BA-2: a hand's points, the sum of its card values modulo 10."""
    return sum(point_value(c) for c in cards) % 10


def is_natural(two_card_points: int) -> bool:
    """BA-4: a natural is 8 or 9 on a side's first two cards; both sides then stand."""
    return two_card_points >= 8


def player_draws(player_points: int) -> bool:
    """BA-4 for the player, when neither side has a natural: draw on 0-5, stand on 6-7."""
    _check_points(player_points)
    return player_points <= 5


def banker_draws(banker_points: int, player_third_value: int | None) -> bool:
    """BA-4 for the banker, when neither side has a natural.

    ``player_third_value`` is the point value (0..9) of the player's third
    card, or ``None`` when the player stood. A player who stood leaves the
    banker the player's rule (draw on 0-5). Otherwise the banker draws on 0-2;
    on 3 unless the third card is 8; on 4 if it is 2-7; on 5 if 4-7; on 6 if
    6-7; and stands on 7.
    """
    _check_points(banker_points)
    if player_third_value is None:
        return banker_points <= 5
    _check_points(player_third_value)
    t = player_third_value
    if banker_points <= 2:
        return True
    if banker_points == 3:
        return t != 8
    if banker_points == 4:
        return 2 <= t <= 7
    if banker_points == 5:
        return 4 <= t <= 7
    if banker_points == 6:
        return 6 <= t <= 7
    return False


def _check_points(value: int) -> None:
    if type(value) is not int or not 0 <= value <= 9:
        raise ValueError(f"baccarat points and card values are 0..9, not {value!r}")


@dataclass(frozen=True, slots=True)
class Coup:
    """One coup: each side's cards in the order dealt (two or three each)."""

    player: tuple[int, ...]
    banker: tuple[int, ...]

    @property
    def player_points(self) -> int:
        return points(self.player)

    @property
    def banker_points(self) -> int:
        return points(self.banker)

    @property
    def winner(self) -> str:
        """``"player"``, ``"banker"`` or ``"tie"``: the higher final total wins."""
        p, b = self.player_points, self.banker_points
        return "player" if p > b else "banker" if b > p else "tie"

    @property
    def cards_dealt(self) -> int:
        return len(self.player) + len(self.banker)


def finish_coup(p1: int, b1: int, p2: int, b2: int, draw: Callable[[], int]) -> Coup:
    """The coup from its first four cards (BA-3 order), drawing any third cards with ``draw`` (BA-4).

    The player's third card, when there is one, is drawn before the banker's.
    """
    player, banker = (p1, p2), (b1, b2)
    if is_natural(points(player)) or is_natural(points(banker)):
        return Coup(player, banker)
    third: int | None = None
    if player_draws(points(player)):
        card = draw()
        player += (card,)
        third = point_value(card)
    if banker_draws(points(banker), third):
        banker += (draw(),)
    return Coup(player, banker)


def deal_coup(draw: Callable[[], int]) -> Coup:
    """A whole coup from ``draw``: player, banker, player, banker, then third cards (BA-3, BA-4)."""
    p1 = draw()
    b1 = draw()
    p2 = draw()
    b2 = draw()
    return finish_coup(p1, b1, p2, b2, draw)


def returned(market: str, coup: Coup, stake: int) -> int:
    """BA-5: what a bet hands back, stake included; 0 when it lost.

    Player pays 1 to 1, Banker 1 to 1 less 5% of the win rounded down to the
    minor unit, Tie 8 to 1; a tie returns Player and Banker bets.
    """
    _check_market(market)
    if type(stake) is not int or stake < 0:
        raise ValueError(f"a stake is a whole number of minor units, not {stake!r}")
    winner = coup.winner
    if market == "tie":
        return stake * (TIE_PAYS + 1) if winner == "tie" else 0
    if winner == "tie":
        return stake
    if winner != market:
        return 0
    if market == "banker":
        return stake + stake * (100 - COMMISSION_PERCENT) // 100
    return 2 * stake


def _check_market(market: str) -> None:
    if market not in MARKETS:
        raise RuleViolation(UNKNOWN_MARKET, f"baccarat has no {market!r} bet: bet on {', '.join(MARKETS)}", "BA-5")


def value_counts(decks: int = DECKS) -> list[int]:
    """The point-value composition (counts of values 0..9) of ``decks`` full decks (BA-1, BA-2)."""
    return [16 * decks] + [4 * decks] * 9


# --- exact odds -------------------------------------------------------------------------------------------

# The drawing table the enumeration reads, built from the rule functions above so the rule lives in one place.
_PLAYER_DRAWS = np.array([player_draws(p) for p in range(10)])
_STOOD = 10  # column of _BANKER_DRAWS for "the player stood"
_BANKER_DRAWS = np.array([[banker_draws(b, t) for t in (*range(10), None)] for b in range(10)])
_VALUES = np.arange(10)
_PLUS = (_VALUES[:, None] + _VALUES) % 10       # _PLUS[t] = (t + v) % 10 for v = 0..9


@dataclass(frozen=True, slots=True)
class CoupOdds:
    """Exact chances of a coup's result and of its length."""

    player: Fraction
    banker: Fraction
    tie: Fraction
    four_cards: Fraction        # both sides stand on their first two cards
    five_or_six_cards: Fraction


@dataclass(frozen=True, slots=True)
class _Grid:
    """Everything about the first-four-card value sequences that does not depend on the pool's counts."""

    orders: np.ndarray          # per row: the value sequences it stands for (a side's two cards either way)
    factors: tuple[tuple[np.ndarray, np.ndarray], ...]  # per unknown position: its value, earlier copies of it
    used: np.ndarray            # rows x 10: values the unknown first cards take from the pool
    four: tuple[np.ndarray, np.ndarray, np.ndarray]     # rows standing on four cards: player, banker, tie wins
    alone: np.ndarray           # rows where the player stands and the banker draws
    alone_result: tuple[np.ndarray, np.ndarray, np.ndarray]     # by the banker's third value
    draws: np.ndarray           # rows where the player draws
    stands_result: tuple[np.ndarray, np.ndarray, np.ndarray]    # by the player's third value: banker stands
    banker_goes: np.ndarray     # by the player's third value: the banker draws a sixth card
    by_final: np.ndarray        # flat index: pool count for each banker final total
    at_player_final: np.ndarray     # flat index: the player's final total, per player third value
    same_card: tuple[np.ndarray, np.ndarray, np.ndarray]    # the banker's total had it drawn the player's card


def _results(player: np.ndarray, banker: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return player > banker, player < banker, player == banker


@functools.lru_cache(maxsize=128)
def _grid(dealt: tuple[int, ...]) -> _Grid:
    known = len(dealt)
    axes = [np.array([v]) if i < known else _VALUES for i, v in enumerate(dealt + (0,) * (4 - known))]
    cards = [a.ravel() for a in np.meshgrid(*axes, indexing="ij")]
    # Swapping a side's two unknown cards changes neither the points nor the number of card sequences:
    # keep one order of each such pair, counted twice when the two values differ.
    keep = np.ones(cards[0].size, dtype=bool)
    twice = np.zeros(cards[0].size, dtype=np.int64)
    for first, second in ((0, 2), (1, 3)):
        if first >= known:
            keep &= cards[first] <= cards[second]
            twice += cards[first] < cards[second]
    cards = [c[keep] for c in cards]
    rows = np.arange(cards[0].size)
    used = np.zeros((rows.size, 10), dtype=np.int64)
    factors = []
    for position in cards[known:]:
        factors.append((position, used[rows, position].copy()))
        used[rows, position] += 1
    p1, b1, p2, b2 = cards
    pp, bp = (p1 + p2) % 10, (b1 + b2) % 10

    natural = (pp >= 8) | (bp >= 8)
    draws = ~natural & _PLAYER_DRAWS[pp]
    stood = ~natural & ~draws
    alone = stood & _BANKER_DRAWS[bp, _STOOD]
    four = natural | (stood & ~alone)

    pd, bd = pp[draws], bp[draws]
    player_final = _PLUS[pd]
    goes = _BANKER_DRAWS[bd, :10]
    stands = [~goes & r for r in _results(player_final, bd[:, None])]
    offset = np.arange(pd.size)[:, None] * 10
    return _Grid(
        orders=(1 << twice[keep]),
        factors=tuple(factors),
        used=used,
        four=tuple(rows[four & r] for r in _results(pp, bp)),
        alone=rows[alone],
        alone_result=_results(pp[alone][:, None], _PLUS[bp[alone]]),
        draws=rows[draws],
        stands_result=tuple(stands),
        banker_goes=goes,
        by_final=offset + _PLUS[(10 - bd) % 10],
        at_player_final=offset + player_final,
        same_card=_results(player_final, _PLUS[bd]),
    )


def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


def coup_odds(counts: Sequence[int], dealt: Sequence[int] = ()) -> CoupOdds:
    """Exact odds of the coup given the unknown pool and the first cards already dealt.

    ``counts[v]`` is how many cards of point value ``v`` (0..9) are in the
    unknown pool; ``dealt`` holds the values of the coup's first cards already
    dealt, in deal order (player, banker, player, banker), which are not in the
    pool. The pool must hold enough cards to finish any coup. See the module
    docstring for how the enumeration works.
    """
    pool = [int(n) for n in counts]
    if len(pool) != 10 or min(pool) < 0:
        raise ValueError("the pool is ten non-negative counts, one per point value 0..9")
    fixed = tuple(int(v) for v in dealt)
    if len(fixed) > 4 or any(not 0 <= v <= 9 for v in fixed):
        raise ValueError(f"at most the first four cards' values (0..9) can be known, not {fixed}")
    total = sum(pool)
    unknown = 4 - len(fixed)            # unknown cards among the first four
    if total < unknown + 2:
        raise ValueError(f"a pool of {total} cards cannot finish a coup needing up to {unknown + 2} more")
    denominator = _falling(total, unknown + 2)
    # Every partial sum below is at most the denominator; past int64 the same code runs on Python ints.
    dtype: type = np.int64 if denominator < 2**62 else object
    c = np.array(pool, dtype=dtype)
    g = _grid(fixed)
    left = total - unknown              # cards in the pool once the first four are out

    weight = g.orders.astype(dtype)     # ordered card sequences giving the row's value sequences
    for value, earlier in g.factors:
        weight = weight * (c[value] - earlier)
    rest = c - g.used                   # the pool after each row's first four (negative only where weight is 0)

    def tally(w: np.ndarray, results: Sequence[np.ndarray], scale: int) -> list[int]:
        return [int((w * r).sum()) * scale for r in results]

    # Both sides stand on two cards.
    won = [int(weight[rows].sum()) * left * (left - 1) for rows in g.four]
    four_cards = sum(won)
    # The player stands and the banker draws: the fifth card (axis 1) is the banker's.
    extra = tally(weight[g.alone, None] * rest[g.alone], g.alone_result, left - 1)
    # The player draws the fifth card (axis 1: its value); the banker stands or draws the sixth.
    r = rest[g.draws]
    w5 = weight[g.draws, None] * r
    stands = tally(w5, g.stands_result, left - 1)
    # The sixth card: the banker's pool counts indexed by the banker's final total, then a prefix sum
    # counts the cards leaving the banker below or level with the player's final total.
    by_final = np.take(r, g.by_final)
    below = np.cumsum(by_final, axis=1) - by_final
    lower = np.take(below, g.at_player_final)
    level = np.take(by_final, g.at_player_final)
    higher = r.sum(axis=1)[:, None] - lower - level
    same_lower, same_higher, same_level = g.same_card    # the player's third card is no longer in the pool
    w6 = w5 * g.banker_goes
    sixth = [int((w6 * (lower - same_lower)).sum()), int((w6 * (higher - same_higher)).sum()),
             int((w6 * (level - same_level)).sum())]

    player, banker, tie = (a + b + s + x for a, b, s, x in zip(won, extra, stands, sixth, strict=True))
    return CoupOdds(
        player=Fraction(player, denominator),
        banker=Fraction(banker, denominator),
        tie=Fraction(tie, denominator),
        four_cards=Fraction(four_cards, denominator),
        five_or_six_cards=Fraction(player + banker + tie - four_cards, denominator),
    )


def exact_outcomes(counts: Sequence[int]) -> dict[str, Fraction]:
    """P(player wins), P(banker wins), P(tie) for a coup dealt from a pool of value counts 0..9.

    An eight-deck shoe is ``value_counts(8) == [128, 32, .., 32]``.
    """
    odds = coup_odds(counts)
    return {"player": odds.player, "banker": odds.banker, "tie": odds.tie}


def house_edge(market: str, probs: dict[str, Fraction]) -> Fraction:
    """The house's expected gain per unit staked on ``market`` (BA-5 payouts, exact 5% commission)."""
    _check_market(market)
    player, banker, tie = probs["player"], probs["banker"], probs["tie"]
    if market == "player":
        return banker - player
    if market == "banker":
        return player - banker * Fraction(100 - COMMISSION_PERCENT, 100)
    return (1 - tie) - TIE_PAYS * tie
