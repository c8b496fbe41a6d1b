"""The benches' own tables: six-max No-Limit Hold'em at 5/10, dealt from a seeded deck, the same in every bench
(and in an older checkout a bench compares against: nothing here imports the room)."""

from __future__ import annotations

import random
from collections.abc import Callable


def seeded_shuffle(seed: int) -> Callable[[], list[int]]:
    """A table's shuffle that deals the same decks in the same order on every run."""
    deck_rng = random.Random(seed)

    def shuffle() -> list[int]:
        deck = list(range(52))
        deck_rng.shuffle(deck)
        return deck

    return shuffle


def six_max_config(tables: int) -> dict:
    """The room config's ``tables`` for ``tables`` six-seat NLHE tables ``t1``...``tN``."""
    return {"tables": [{"id": f"t{i}", "variant": "NLHE", "small_blind": 5, "big_blind": 10,
                        "min_buy_in": 400, "max_buy_in": 1000, "seats": 6} for i in range(1, tables + 1)]}
