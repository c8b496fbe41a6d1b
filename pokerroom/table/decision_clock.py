"""The clock of one decision: thinking time, reconnect time, time bank, then the table acts (HR-TIME, HR-DC).

Theory of operation
-------------------
The table starts a :class:`DecisionClock` whenever the hand waits for a
player. It never reads a clock: the shell schedules the clock's ``deadline``
with ``IReactorTime.callLater`` and sends the command the phase expects
(``timeout`` in ``THINKING`` and ``RECONNECT``, ``time_bank_expired`` in
``TIME_BANK``). Each command moves the clock along one row of ``_NEXT``::

    THINKING  --timeout-->           RECONNECT  (disconnected, reconnect time set)
                                     TIME_BANK  (time bank left)
                                     ACT        (check if free, else fold)
    RECONNECT --timeout-->           TIME_BANK | ACT
    TIME_BANK --time_bank_expired--> ACT

A player sitting out or leaving gets no reconnect time and no time bank
(HR-DC-1): their decision time ends in ``ACT``.
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerroom.poker.quick_init import quick_init

THINKING = "thinking"
RECONNECT = "reconnect"
TIME_BANK = "time_bank"
ACT = "act"

TIMEOUT = "timeout"
TIME_BANK_EXPIRED = "time_bank_expired"

# phase -> the command that ends it
EXPECTS = {THINKING: TIMEOUT, RECONNECT: TIMEOUT, TIME_BANK: TIME_BANK_EXPIRED}
# phase -> phases that may follow, in order of preference
_NEXT = {THINKING: (RECONNECT, TIME_BANK, ACT), RECONNECT: (TIME_BANK, ACT), TIME_BANK: (ACT,)}


@quick_init
@dataclass(frozen=True, slots=True)
class DecisionClock:
    seat: int
    phase: str
    started_at: float
    deadline: float

    def next_phase(self, *, disconnected: bool, reconnect_seconds: float, time_bank: float,
                   playing: bool) -> str:
        """Where the clock goes when this phase runs out."""
        for phase in _NEXT[self.phase]:
            if phase == RECONNECT and playing and disconnected and reconnect_seconds > 0:
                return phase
            if phase == TIME_BANK and playing and time_bank > 0:
                return phase
            if phase == ACT:
                return phase
        raise AssertionError("every phase ends in ACT")
