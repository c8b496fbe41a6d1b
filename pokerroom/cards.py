"""Cards, decks and the secure shuffle.

Layout (documented because every other module and the C extension rely on it):
a card is an ``int`` in ``0..51``, ``card = rank * 4 + suit`` where
``rank`` is ``0..12`` for deuce..ace and ``suit`` is ``0..3`` for clubs,
diamonds, hearts, spades. ``"As"`` is ``12 * 4 + 3 == 51``; ``"2c"`` is ``0``.
A card set as a 64-bit mask has bit ``card`` set for each card.

Shuffles use :mod:`secrets` and an unbiased Fisher–Yates (HR-RNG-1): no
seedable generator exists here; tests pass an explicit deck order instead.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Sequence

RANKS = "23456789TJQKA"
SUITS = "cdhs"
RANK_NAMES = ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine",
              "Ten", "Jack", "Queen", "King", "Ace")
RANK_PLURALS = ("Twos", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights",
                "Nines", "Tens", "Jacks", "Queens", "Kings", "Aces")
DECK_SIZE = 52

_TEXT_TO_CARD = {r + s: ri * 4 + si for ri, r in enumerate(RANKS) for si, s in enumerate(SUITS)}
_CARD_TO_TEXT = {v: k for k, v in _TEXT_TO_CARD.items()}


def rank_of(card: int) -> int:
    return card >> 2


def suit_of(card: int) -> int:
    return card & 3


def parse_card(text: str) -> int:
    """One card from two characters, rank then suit (``"Td"``; ``"10d"`` also works)."""
    if not isinstance(text, str):
        raise ValueError(f"a card must be text like 'As', not {type(text).__name__}")
    t = text.strip()
    if t[:2] == "10":
        t = "T" + t[2:]
    key = t[:1].upper() + t[1:].lower()
    if key not in _TEXT_TO_CARD:
        raise ValueError(f"unknown card {text!r}: expected a rank from {RANKS} and a suit from {SUITS}")
    return _TEXT_TO_CARD[key]


def parse(text: str, count: int | None = None) -> tuple[int, ...]:
    """Cards from text such as ``"AsKd"``, ``"As Kd"`` or ``"As,Kd"``.

    Raises ``ValueError`` naming the problem: unknown card text, a duplicate,
    or (when ``count`` is given) the wrong number of cards.
    """
    if not isinstance(text, str):
        raise ValueError(f"cards must be text like 'AsKd', not {type(text).__name__}")
    compact = text.replace(",", "").replace(" ", "").replace("10", "T")
    if len(compact) % 2:
        raise ValueError(f"cannot read cards from {text!r}: each card is a rank and a suit, e.g. 'AsKd'")
    cards = tuple(parse_card(compact[i:i + 2]) for i in range(0, len(compact), 2))
    return validate(cards, count)


def validate(cards: Iterable[int], count: int | Sequence[int] | None = None) -> tuple[int, ...]:
    """Check card ints (range, duplicates, count) and return them as a tuple."""
    out = tuple(cards)
    for c in out:
        if type(c) is not int or not 0 <= c < DECK_SIZE:
            raise ValueError(f"not a card: {c!r} (cards are ints 0..51)")
    if len(set(out)) != len(out):
        dupes = sorted({format_card(c) for c in out if out.count(c) > 1})
        raise ValueError(f"duplicate card {', '.join(dupes)}")
    if count is not None:
        allowed = (count,) if isinstance(count, int) else tuple(count)
        if len(out) not in allowed:
            want = " or ".join(str(n) for n in allowed)
            raise ValueError(f"wrong number of cards: got {len(out)}, need {want}")
    return out


def format_card(card: int) -> str:
    try:
        return _CARD_TO_TEXT[card]
    except (KeyError, TypeError):
        raise ValueError(f"not a card: {card!r} (cards are ints 0..51)") from None


def format(cards: Iterable[int], sep: str = "") -> str:  # noqa: A001 - the natural name
    """Text for cards, ``format(parse("AsKd")) == "AsKd"``."""
    return sep.join(format_card(c) for c in cards)


def to_mask(cards: Iterable[int]) -> int:
    mask = 0
    for c in validate(cards):
        mask |= 1 << c
    return mask


def from_mask(mask: int) -> tuple[int, ...]:
    if mask < 0 or mask >> DECK_SIZE:
        raise ValueError(f"not a card mask: {mask:#x} (bits 0..51 only)")
    return tuple(c for c in range(DECK_SIZE) if mask >> c & 1)


def new_deck() -> list[int]:
    return list(range(DECK_SIZE))


class RandomDraws:
    """Unbiased whole numbers below ``n`` from the OS CSPRNG, 512 bits fetched at a time.

    The same rejection sampling as ``secrets.randbelow`` (draw ``n.bit_length()``
    bits, try again while the number is ``n`` or more), but the bits come from
    one ``secrets.token_bytes`` call for a whole deck rather than a system call
    for every card. Bits are never reused: a draw takes them off the pool.
    """

    __slots__ = ("pool", "bits")

    def __init__(self) -> None:
        self.pool = self.bits = 0

    def below(self, n: int) -> int:
        if n < 1:
            raise ValueError("draws are below a positive bound")
        k = n.bit_length()
        while True:
            if self.bits < k:
                self.pool, self.bits = int.from_bytes(secrets.token_bytes(64), "little"), 512
            r = self.pool & ((1 << k) - 1)
            self.pool >>= k
            self.bits -= k
            if r < n:
                return r


def shuffled_deck(cards: Sequence[int] | None = None) -> list[int]:
    """A Fisher–Yates shuffle driven by the OS CSPRNG (HR-RNG-1).

    Each draw is unbiased (rejection sampling, :class:`RandomDraws`), so every
    order is equally likely.
    """
    deck = new_deck() if cards is None else list(cards)
    below = RandomDraws().below
    for i in range(len(deck) - 1, 0, -1):
        j = below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deck_commitment(deck: Sequence[int], salt: bytes) -> str:
    """SHA-256 commitment to a deck order, publishable before the hand.

    Revealing ``salt`` and the order after the hand lets anyone check the deck
    was fixed in advance, without the commitment leaking the order (HR-RNG-2).
    """
    validate(deck)
    return hashlib.sha256(salt + bytes(deck)).hexdigest()


def new_commitment_salt() -> bytes:
    return secrets.token_bytes(16)


def verify_commitment(deck: Sequence[int], salt: bytes, digest: str) -> bool:
    return hmac.compare_digest(deck_commitment(deck, salt), digest)
