"""Cash tables: pure house-rule logic around the hand engine (seats, button, posting, clock, leaving).

Build a :class:`CashTable` from :class:`TableRules` and a :class:`SeatingHistory`
port, send it commands with the current time, and fan out the events it
returns (through :func:`redact`). The shell schedules :meth:`CashTable.next_deadline`.
See ``docs/house-rules.md``.
"""

from pokerroom.table.blinds import BIG, SMALL, THIRD, Positions
from pokerroom.table.cash_table import CashTable, Deadline, SeatedPlayer, SeatState, TableSnapshot
from pokerroom.table.events import TableEvent, redact, table_event_from_dict, table_event_to_dict
from pokerroom.table.rules import DecisionTimes, HitAndRunRules, TableRules, TimeBankRules
from pokerroom.table.seating_history import Departure, InMemorySeatingHistory, SeatingHistory

__all__ = [
    "BIG", "SMALL", "THIRD",
    "CashTable", "Deadline", "DecisionTimes", "Departure", "HitAndRunRules", "InMemorySeatingHistory",
    "Positions", "SeatState", "SeatedPlayer", "SeatingHistory", "TableEvent", "TableRules", "TableSnapshot",
    "TimeBankRules", "redact",
    "table_event_from_dict", "table_event_to_dict",
]
