"""Bet on Baccarat (RULES.md BOB): the markets, how each settles, and their exact prices.

Pure: no I/O, no clock, no randomness. The draw itself is a Punto Banco coup
(BOB-1: six decks, BA values and drawing rules), dealt by
:func:`pokerroom.casino.baccarat.deal_coup`.

Theory of operation of the pricing
----------------------------------
Odds are re-priced at the start of each of the three betting rounds (BOB-2)
from the exact unknown pool -- ``remaining[card]`` copies of each of the 52
cards, burned cards nobody saw included (BOB-3) -- and the cards already shown
(none, the player's first, then also the banker's first). The unknown cards
of the coup are a uniformly random sequence drawn from that pool without
replacement, so:

* Player, Banker, Tie, Small and Big depend on point values only, and come
  from :func:`pokerroom.casino.baccarat.coup_odds`, the same exact enumeration
  that gives the Punto Banco house edges (see its module docstring).
* The pair markets depend only on the first four cards -- card 1 is the
  player's first, 2 the banker's first, 3 the player's second, 4 the banker's
  second; third cards never count -- and have closed forms over the rank
  counts (pairs) or the card counts (perfect pairs). A side whose first card
  is shown pairs when its second card is of that class: ``n[k] / N``. A side
  with neither card shown pairs with ``S2 / (N)_2``, ``S2 = sum n (n - 1)``.
  Both sides pairing (for Any Pair and Perfect Pair, by inclusion-exclusion)
  counts the ordered ways to pick the unknown cards, kept apart by whether the
  two sides pair in the same class.

Every probability is an exact :class:`~fractions.Fraction`. A market pays
``stake * odds // 100`` on a win, the odds being decimal odds in hundredths
fixed when the bet is placed (BOB-2, BOB-3).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from pokerroom.cards import DECK_SIZE
from pokerroom.casino.baccarat import Coup, coup_odds, point_value
from pokerroom.errors import RuleViolation

DECKS = 6                   # BOB-1
MARKETS = ("player", "banker", "tie", "player_pair", "banker_pair", "any_pair", "perfect_pair", "small", "big")
WIN, LOSE, PUSH = "win", "lose", "push"
MIN_ODDS = 101              # decimal odds 1.01, in hundredths: anything shorter is not offered
UNKNOWN_MARKET = "unknown_market"

_VALUE = [point_value(c) for c in range(DECK_SIZE)]


def new_pool(decks: int = DECKS) -> list[int]:
    """The unknown pool of a fresh shoe: ``decks`` copies of each of the 52 cards (BOB-1)."""
    return [decks] * DECK_SIZE


def _check_market(market: str) -> None:
    if market not in MARKETS:
        raise RuleViolation(UNKNOWN_MARKET, f"Bet on Baccarat has no {market!r} market: "
                            f"bet on {', '.join(MARKETS)}", "BOB-3")


def _pairs(a: int, b: int) -> bool:
    return a >> 2 == b >> 2


def outcome(market: str, coup: Coup) -> str:
    """BOB-3: ``"win"``, ``"lose"`` or ``"push"`` for a bet on ``market`` once the coup is dealt.

    Player and Banker push on a tie. Pairs look at each side's first two cards
    only; a perfect pair is the same rank and suit (the same card from two
    decks) on either side. Small is a four-card coup, Big one of five or six.
    """
    _check_market(market)
    if market in ("player", "banker", "tie"):
        winner = coup.winner
        if winner == "tie" and market != "tie":
            return PUSH
        return WIN if winner == market else LOSE
    player_pair = _pairs(*coup.player[:2])
    banker_pair = _pairs(*coup.banker[:2])
    won = {
        "player_pair": player_pair,
        "banker_pair": banker_pair,
        "any_pair": player_pair or banker_pair,
        "perfect_pair": coup.player[0] == coup.player[1] or coup.banker[0] == coup.banker[1],
        "small": coup.cards_dealt == 4,
        "big": coup.cards_dealt > 4,
    }[market]
    return WIN if won else LOSE


def paid(stake: int, odds: int) -> int:
    """A winning bet's return, stake included: stake x decimal odds (hundredths), rounded down (BOB-3)."""
    if type(stake) is not int or type(odds) is not int or stake < 0 or odds < 100:
        raise ValueError(f"need a whole stake and odds in hundredths of at least 100, not {stake!r} at {odds!r}")
    return stake * odds // 100


def returned(market: str, coup: Coup, stake: int, odds: int) -> int:
    """What a bet placed at ``odds`` hands back once the coup is dealt: its return, the stake, or 0."""
    result = outcome(market, coup)
    if result == WIN:
        return paid(stake, odds)
    return stake if result == PUSH else 0


def _check_pool(remaining: Sequence[int], shown: tuple[int, ...]) -> tuple[list[int], tuple[int, ...]]:
    pool = [int(n) for n in remaining]
    if len(pool) != DECK_SIZE or min(pool) < 0:
        raise ValueError("the unknown pool is 52 non-negative counts, one per card")
    cards = tuple(shown)
    if len(cards) > 2 or any(type(c) is not int or not 0 <= c < DECK_SIZE for c in cards):
        raise ValueError(f"shown cards are up to two cards (the player's first, then the banker's): {shown!r}")
    return pool, cards


def _side_pairs(n: Sequence[int], first: int | None, total: int) -> Fraction:
    """P(a side's first two cards fall in one class), ``first`` being its shown first card's class or None."""
    if first is not None:
        return Fraction(n[first], total)
    return Fraction(sum(k * (k - 1) for k in n), total * (total - 1))


def _both_pair(n: Sequence[int], player: int | None, banker: int | None, total: int) -> Fraction:
    """P(both sides' first two cards pair within a class), each side's shown first class or None."""
    s2 = sum(k * (k - 1) for k in n)
    if player is None and banker is None:   # four unknown cards
        ways = s2 * s2 - sum((k * (k - 1)) ** 2 for k in n) + sum(k * (k - 1) * (k - 2) * (k - 3) for k in n)
        return Fraction(ways, total * (total - 1) * (total - 2) * (total - 3))
    if player is None or banker is None:    # one side needs its shown class once, the other any class twice
        k = n[banker if player is None else player]
        ways = k * (s2 - k * (k - 1)) + k * (k - 1) * (k - 2)
        return Fraction(ways, total * (total - 1) * (total - 2))
    ways = n[player] * (n[player] - 1) if player == banker else n[player] * n[banker]
    return Fraction(ways, total * (total - 1))


def probabilities(remaining: Sequence[int], shown: tuple[int, ...] = ()) -> dict[str, Fraction]:
    """The exact probability that each market wins (BOB-2, BOB-3).

    ``remaining[card]`` is how many copies of ``card`` are still unknown (the
    undealt shoe plus burned cards nobody saw); ``shown`` is the coup's cards
    already shown, in deal order: the player's first, then the banker's first.
    Shown cards are not in ``remaining``. Player and Banker are the chances of
    winning outright; with Tie the three sum to 1, as do Small and Big.
    """
    pool, cards = _check_pool(remaining, shown)
    total = sum(pool)
    values = [0] * 10
    for card, count in enumerate(pool):
        values[_VALUE[card]] += count
    coup = coup_odds(values, [_VALUE[c] for c in cards])     # checks the pool can finish the coup

    ranks = [sum(pool[4 * r:4 * r + 4]) for r in range(13)]
    player_rank = cards[0] >> 2 if len(cards) > 0 else None
    banker_rank = cards[1] >> 2 if len(cards) > 1 else None
    player_card = cards[0] if len(cards) > 0 else None
    banker_card = cards[1] if len(cards) > 1 else None
    player_pair = _side_pairs(ranks, player_rank, total)
    banker_pair = _side_pairs(ranks, banker_rank, total)
    perfect = (_side_pairs(pool, player_card, total) + _side_pairs(pool, banker_card, total)
               - _both_pair(pool, player_card, banker_card, total))
    return {
        "player": coup.player,
        "banker": coup.banker,
        "tie": coup.tie,
        "player_pair": player_pair,
        "banker_pair": banker_pair,
        "any_pair": player_pair + banker_pair - _both_pair(ranks, player_rank, banker_rank, total),
        "perfect_pair": perfect,
        "small": coup.four_cards,
        "big": coup.five_or_six_cards,
    }


def _odds(win: Fraction, push: Fraction, margin: Fraction) -> int | None:
    if win == 0:
        return None
    odds = math.floor((1 - margin - push) * 100 / win)
    return odds if odds >= MIN_ODDS else None


def price(remaining: Sequence[int], shown: tuple[int, ...], margin: Fraction) -> dict[str, int | None]:
    """Decimal odds in hundredths for every market at the start of a betting round (BOB-2).

    The odds return ``1 - margin`` per unit staked: ``p_win * odds + p_tie = 1 - margin``
    for Player and Banker (returned on a tie), ``p * odds = 1 - margin`` for the
    others, rounded down to the hundredth. A market is closed (``None``) when it
    cannot win given the cards shown (BOB-3), and also when its odds would come
    out below 1.01 (:data:`MIN_ODDS`), where a winning bet would hand back no more than its stake.
    """
    margin = Fraction(margin)
    if not 0 <= margin < 1:
        raise ValueError(f"the house margin is a fraction in [0, 1), not {margin}")
    p = probabilities(remaining, shown)
    return {
        market: _odds(p[market], p["tie"] if market in ("player", "banker") else Fraction(0), margin)
        for market in MARKETS
    }
