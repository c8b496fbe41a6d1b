"""The lobby's view of a running field -- players left, average stack, each player's rank -- kept as hands end.

Sorting 100,000 stacks for every lobby request costs the field; a hand changes
about nine. :class:`Standings` keeps every player in chip order in blocks of
at most ``BLOCK`` (a sorted list split in pieces: an update is a binary search
and a short ``memmove`` in one block), so a rank is the blocks before the
player's plus a search in its own, and the total of chips is kept as it goes.
The director tells it which tables a command touched; it reads their stacks
(between hands: the stacks the hand in play began with, as the lobby always
showed them).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from collections.abc import Iterable, Mapping

BLOCK = 512


class Standings:
    """Players by chips, most first (equal stacks by name), with the chips in play."""

    __slots__ = ("block", "blocks", "firsts", "chips", "members", "total")

    def __init__(self, block: int = BLOCK) -> None:
        self.block = block
        self.blocks: list[list[tuple[int, str]]] = []      # keys (-chips, player), sorted across the blocks
        self.firsts: list[tuple[int, str]] = []            # each block's first key
        self.chips: dict[str, int] = {}
        self.members: dict[str, set[str]] = {}              # table -> its players as last read
        self.total = 0

    def __len__(self) -> int:
        return len(self.chips)

    @property
    def average(self) -> int:
        """The average stack, rounded down (0 with nobody left)."""
        return self.total // len(self.chips) if self.chips else 0

    # ------------------------------------------------------------------ keeping it true

    def read(self, tables: Mapping[str, Mapping[str, int]], touched: Iterable[str]) -> None:
        """Read the stacks of the ``touched`` tables (``tables``: table -> player -> chips; a closed table is
        absent): players no longer at any of them left the field or moved to another of them."""
        seen: dict[str, int] = {}
        before: set[str] = set()
        for table_id in touched:
            before |= self.members.pop(table_id, set())
            stacks = tables.get(table_id)
            if stacks:
                seen.update(stacks)
                self.members[table_id] = set(stacks)
        for player in before - seen.keys():
            self.remove(player)
        for player, chips in seen.items():
            if self.chips.get(player) != chips:
                self.set(player, chips)

    def set(self, player: str, chips: int) -> None:
        if player in self.chips:
            self._take((-self.chips[player], player))
            self.total -= self.chips[player]
        self.chips[player] = chips
        self.total += chips
        self._put((-chips, player))

    def remove(self, player: str) -> None:
        chips = self.chips.pop(player, None)
        if chips is not None:
            self.total -= chips
            self._take((-chips, player))

    def _put(self, key: tuple[int, str]) -> None:
        if not self.blocks:
            self.blocks.append([key])
            self.firsts.append(key)
            return
        i = max(0, bisect_right(self.firsts, key) - 1)
        block = self.blocks[i]
        insort(block, key)
        self.firsts[i] = block[0]
        half = self.block
        if len(block) > 2 * half:
            self.blocks[i:i + 1] = [block[:half], block[half:]]
            self.firsts[i:i + 1] = [block[0], block[half]]

    def _take(self, key: tuple[int, str]) -> None:
        i = max(0, bisect_right(self.firsts, key) - 1)
        block = self.blocks[i]
        del block[bisect_left(block, key)]
        if block:
            self.firsts[i] = block[0]
        else:
            del self.blocks[i]
            del self.firsts[i]

    # ------------------------------------------------------------------ the lobby's questions

    def rank(self, player: str) -> int | None:
        """1 for the chip leader; players with equal stacks are ranked by name. None if not in the field."""
        chips = self.chips.get(player)
        if chips is None:
            return None
        key = (-chips, player)
        i = max(0, bisect_right(self.firsts, key) - 1)
        return sum(len(b) for b in self.blocks[:i]) + bisect_left(self.blocks[i], key) + 1

    def top(self, count: int) -> list[tuple[str, int]]:
        """The ``count`` biggest stacks, most first."""
        shown: list[tuple[str, int]] = []
        for block in self.blocks:
            for chips, player in block[:count - len(shown)]:
                shown.append((player, -chips))
            if len(shown) >= count:
                break
        return shown
