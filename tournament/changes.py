"""What a director changed since its state was last saved, so a step stores only that (DESIGN.md: no pickle).

The director marks a table or an entry whenever it touches one; marking is a
set or dict insertion, cheap enough for every hand. :mod:`tournament.saved_state`
takes the marks when it builds a step's records and starts them afresh. A new
director (or one nobody saved yet) is marked ``everything``.
"""

from __future__ import annotations

from tournament.entries import Entry


class Changes:
    """Tables, entries and the bulky terms (spec, prizes, break order) changed since the last save."""

    __slots__ = ("closed", "entries", "everything", "saved_prizes", "saved_spec", "tables", "terms", "withdrawn")

    def __init__(self) -> None:
        self.everything = True
        self.tables: set[str] = set()
        self.closed: set[str] = set()
        self.entries: dict[tuple[str, int], Entry] = {}       # (player, entry number) -> the Entry
        self.withdrawn: set[tuple[str, int]] = set()
        self.terms = False                                  # break order or substitutes changed in place
        self.saved_spec: object = None                      # the spec and prizes last saved: replaced, not mutated
        self.saved_prizes: object = None

    def table(self, table_id: str) -> None:
        self.tables.add(table_id)
        self.closed.discard(table_id)

    def table_closed(self, table_id: str) -> None:
        self.tables.discard(table_id)
        self.closed.add(table_id)

    def entry(self, entry: Entry) -> None:
        key = (entry.player, entry.number)
        self.entries[key] = entry
        self.withdrawn.discard(key)

    def entry_withdrawn(self, entry: Entry) -> None:
        key = (entry.player, entry.number)
        self.entries.pop(key, None)
        self.withdrawn.add(key)

    def taken(self) -> None:
        """The records were built: start counting afresh."""
        self.everything = self.terms = False
        self.tables, self.closed, self.entries, self.withdrawn = set(), set(), {}, set()
