"""The shoe: n decks, one secure shuffle, a cut card, and a per-game burn.

Every casino card game draws from a :class:`Shoe`. Its order is fixed when it
is shuffled (HR-RNG-1, CR-8) and never leaves the pure core: events carry the
cards as they are dealt, never the cards to come (HR-RNG-2).

The cut card sits ``penetration`` cards into the shoe. When a draw passes it,
:attr:`Shoe.cut_card_out` turns true: the round being dealt is the last before
the shuffle (BA-1, BJ-2, IB-2), and the table shuffles before the next one.
Bet on Baccarat has no cut card; it replaces the shoe once fewer than
``minimum`` cards remain (BOB-4).

Burn procedures are functions of a fresh shoe:

* :func:`burn_by_first_card` -- IB-2: the first card is shown and that many
  further cards (A = 1, 2-10 face, J/Q/K = 10) are burned face down;
* :func:`burn_random` -- BOB-4: 3 to 6 cards, the count drawn at random.

Randomness enters as a source of whole shoes (``Callable[[int], list[int]]``
taking the number of decks) so tests stack the shoe; the default is
:func:`secure_shoe`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pokerroom.cards import DECK_SIZE, RandomDraws, shuffled_deck

ShoeSource = Callable[[int], list[int]]


def secure_shoe(decks: int) -> list[int]:
    """``decks`` 52-card decks in one Fisher–Yates shuffle from the OS CSPRNG (HR-RNG-1)."""
    return shuffled_deck(list(range(DECK_SIZE)) * decks)


def stacked(*parts: Sequence[int], decks: int = 8) -> ShoeSource:
    """A shoe source for tests: the given cards first, then the rest of ``decks`` decks in order."""
    front = [c for part in parts for c in part]

    def source(n: int) -> list[int]:
        rest = list(range(DECK_SIZE)) * n
        for c in front:
            rest.remove(c)
        return front + rest

    return source


class ShoeEmpty(Exception):
    """The shoe ran out mid-round: a malfunction that voids the round (CR-5)."""


class Shoe:
    __slots__ = ("cards", "position", "cut", "decks", "burned", "unseen")

    def __init__(self, cards: list[int], decks: int, cut: int) -> None:
        self.cards = cards
        self.decks = decks
        self.position = 0
        self.cut = cut                  # index of the first card behind the cut card
        self.burned = 0
        self.unseen: list[int] = []     # burned face down: nobody saw them (BOB-3 keeps them unknown)

    @classmethod
    def fresh(cls, source: ShoeSource, decks: int, behind_cut: int) -> Shoe:
        """A shuffled shoe with the cut card ``behind_cut`` cards from the back (0: no cut card)."""
        cards = source(decks)
        if len(cards) != decks * DECK_SIZE:
            raise ValueError(f"a {decks}-deck shoe holds {decks * DECK_SIZE} cards, not {len(cards)}")
        return cls(cards, decks, len(cards) - behind_cut if behind_cut else len(cards) + 1)

    def draw(self) -> int:
        if self.position >= len(self.cards):
            raise ShoeEmpty("the shoe is empty")
        card = self.cards[self.position]
        self.position += 1
        return card

    def burn(self, count: int) -> None:
        for _ in range(count):
            self.unseen.append(self.draw())
        self.burned += count

    @property
    def remaining(self) -> int:
        return len(self.cards) - self.position

    @property
    def cut_card_out(self) -> bool:
        return self.position >= self.cut

    def unknown_counts(self) -> list[int]:
        """How many of each of the 52 cards nobody has seen: the rest of the shoe plus unseen burns."""
        counts = [0] * DECK_SIZE
        for c in self.cards[self.position:]:
            counts[c] += 1
        for c in self.unseen:
            counts[c] += 1
        return counts


def blackjack_count(card: int) -> int:
    """A card's burn count under IB-2: A = 1, 2-10 face value, J/Q/K = 10."""
    rank = card >> 2
    return 1 if rank == 12 else min(rank + 2, 10)


def burn_by_first_card(shoe: Shoe) -> int:
    """IB-2: draw one card, show it, burn that many face down; the shown card is returned."""
    first = shoe.draw()
    shoe.burned += 1
    shoe.burn(blackjack_count(first))
    return first


def burn_random(shoe: Shoe, count: Callable[[], int] | None = None) -> int:
    """BOB-4: burn 3 to 6 cards face down, the number chosen at random; returns it."""
    n = count() if count is not None else 3 + RandomDraws().below(4)
    if not 3 <= n <= 6:
        raise ValueError(f"Bet on Baccarat burns 3 to 6 cards, not {n}")
    shoe.burn(n)
    return n
