"""Each tournament decision on a :class:`~pokerroom.table.decision_clock.DecisionClock` (HR-TIME, HR-DC-3/4).

The phases are the cash tables': the decision's own time (``THINKING``), then
reconnect time for a player who is away in the late stage (``RECONNECT``,
HR-DC-4, as :meth:`~tournament.director.Director.reconnect_time` grants it:
once per hand), then the entry's time bank (``TIME_BANK``, HR-TIME-2), then the
director checks or folds for them (``ACT``: HR-TIME-3, HR-DC-3, TR-PLAY-5).
Where a cash table keeps its clock itself, a tournament table is the pure
director's, so the hall keeps one clock per table here; a
:class:`DecisionRunner` names its deadline to the room's one
:class:`~pokerroom.shell.runner.Timer` (the cash and casino tables' too),
which fires it.

The time bank belongs to the entry (HR-TIME-4): seconds, set from the
structure's ``time_bank`` when the entry registers, consumed by the seconds a
player spends in ``TIME_BANK`` and refilled by the room's :class:`BankRefill`
every so many hands dealt to the entry, up to a cap. The
clock's start reaches clients as it always has: ``to_act`` on the hand's push,
``reconnect_time_started`` to the table and ``time_bank_started`` to the player
(``tournament_event`` s, see docs/protocol.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pokerroom.shell.runner import Timer
from pokerroom.table.decision_clock import ACT, RECONNECT, THINKING, TIME_BANK, DecisionClock
from tournament import commands as tc
from tournament import director as td
from tournament.events import tables_named
from tournament.table import TournamentTable

if TYPE_CHECKING:
    from pokerroom.shell.tournaments.hall import TournamentHall


@dataclass(frozen=True, slots=True)
class BankRefill:
    """``seconds`` more in an entry's time bank every ``every_hands`` hands dealt to it, up to ``cap`` (HR-TIME-4);
    ``[tournaments] time_bank`` in room.toml. No refill by default: the structure's bank lasts the event."""

    seconds: float = 0.0
    every_hands: int = 10
    cap: float = 60.0

    def __post_init__(self) -> None:
        if self.seconds < 0 or self.every_hands < 1 or self.cap < 0:
            raise ValueError("tournament time bank: refill_seconds and cap_seconds at least 0, every_hands at "
                             "least 1")

    @classmethod
    def from_config(cls, settings: dict) -> BankRefill:
        return cls(float(settings.get("refill_seconds", 0)), int(settings.get("every_hands", 10)),
                   float(settings.get("cap_seconds", 60)))


@dataclass(frozen=True, slots=True)
class Decision:
    """The decision a table waits for: whose it is, which point of the hand, and its clock -- equal decisions are
    the same deadline to the timer."""

    player: str
    marker: int                 # the hand's event count when it began: a later count is another decision
    clock: DecisionClock

    @property
    def at(self) -> float:
        return self.clock.deadline

    @property
    def deals(self) -> bool:
        return False


class DecisionRunner:
    """A tournament table's decision clock as the one :class:`~pokerroom.shell.runner.Timer` runs it: its deadline
    is the decision the table waits for; firing it starts the next phase or has the director act (the commands it
    causes go through the hall's one path, which publishes them)."""

    def __init__(self, decisions: TournamentDecisions, key: tuple[str, str]) -> None:
        self.decisions = decisions
        self.key = key

    @property
    def table_id(self) -> str:
        return self.key[1]

    def apply(self, command: tc.TournamentCommand, now: float) -> list:
        return self.decisions.hall.command(self.decisions.hall.director(self.key[0]), command)

    def next_deadline(self) -> Decision | None:
        return self.decisions.waiting.get(self.key)

    def fire(self, deadline: Decision, now: float) -> list:
        self.decisions.ran_out(self.key, deadline)
        return []


class TournamentDecisions:
    def __init__(self, hall: TournamentHall, decision_seconds: float, refill: BankRefill | None = None) -> None:
        self.hall = hall
        self.reactor = hall.reactor
        self.decision_seconds = decision_seconds
        self.refill = refill or BankRefill()
        self.waiting: dict[tuple[str, str], Decision] = {}          # (tournament, table) -> its decision
        self.timers: dict[tuple[str, str], Timer] = {}              # (tournament, table) -> its one timer
        self.banks: dict[tuple[str, str], float] = {}               # (tournament, player) -> seconds left
        self.hands_since_refill: dict[tuple[str, str], int] = {}    # (tournament, player) -> hands dealt

    # ------------------------------------------------------------------ time banks

    def entered(self, tid: str, player: str, seconds: float) -> None:
        """A new entry (a re-entry too) comes with the structure's full time bank (HR-TIME-4)."""
        self.banks[(tid, player)] = float(seconds)
        self.hands_since_refill[(tid, player)] = 0

    def hand_dealt(self, tid: str, players: Iterable[str]) -> None:
        """Count a hand for each entry dealt in; every ``every_hands`` the bank gets its refill, to the cap."""
        refill = self.refill
        for player in players:
            key = (tid, player)
            hands = self.hands_since_refill.get(key, 0) + 1
            self.hands_since_refill[key] = hands % refill.every_hands
            if hands >= refill.every_hands and refill.seconds:
                bank = self.bank(tid, player)
                self.banks[key] = max(bank, min(refill.cap, bank + refill.seconds))

    def banks_left(self, tid: str, banks: dict[str, float]) -> None:
        """What a hand played on another process left in its players' banks (:mod:`~.hands_away`)."""
        for player, seconds in banks.items():
            self.banks[(tid, player)] = max(0.0, float(seconds))

    def bank(self, tid: str, player: str) -> float:
        """Seconds left in the player's time bank in ``tid``."""
        return self.banks.get((tid, player), 0.0)

    def to_act(self, d: td.Director, table: TournamentTable) -> dict | None:
        """Whose turn it is, with their decision's seconds and their time bank: the ``to_act`` of a hand push."""
        turn = table.to_act()
        if turn is None:
            return None
        player = turn[0]
        current = self.waiting.get((d.spec.id, table.id))
        if current is not None and current.player == player and current.marker == len(table.hand.events):
            deadline = current.clock.deadline       # the decision's clock runs on
        else:
            deadline = self.reactor.seconds() + self.decision_seconds   # the clock :meth:`set` starts next
        return {"player": player, "seat": table.seat_of(player), "seconds": self.decision_seconds,
                "deadline": deadline, "time_bank": self.bank(d.spec.id, player)}

    def acted(self, tid: str, table_id: str, player: str) -> None:
        """The player acted: what they spent of their time bank is gone, the rest stays for later decisions."""
        current = self.waiting.get((tid, table_id))
        if current is None or current.player != player or current.clock.phase != TIME_BANK:
            return
        bank = self.bank(tid, player)
        used = min(bank, max(0.0, self.reactor.seconds() - current.clock.started_at))
        self.banks[(tid, player)] = bank - used

    # ------------------------------------------------------------------ the clocks

    def set(self, d: td.Director, events: list) -> None:
        """After every command: a clock for each table the command left waiting on a player, none where its
        hand ended; only the tables its events name can have changed."""
        tid = d.spec.id
        for table_id in tables_named(events):
            table = d.tables.get(table_id)
            if table is None or table.hand is None:
                self._cancel((tid, table_id))
            else:
                self._start(d, table_id)

    def stop(self, tid: str) -> None:
        for key in [k for k in self.timers if k[0] == tid]:
            self._cancel(key)

    def forget(self, tid: str) -> None:
        """An event left the memory: its clocks and its entries' time banks go too."""
        self.stop(tid)
        for keyed in (self.banks, self.hands_since_refill):
            for key in [k for k in keyed if k[0] == tid]:
                del keyed[key]

    def _start(self, d: td.Director, table_id: str) -> None:
        tid = d.spec.id
        table = d.tables[table_id]
        turn = table.to_act()
        if turn is None:
            return
        player, marker = turn[0], len(table.hand.events)
        current = self.waiting.get((tid, table_id))
        if current is not None and current.player == player and current.marker == marker:
            return                                  # the same decision: its clock runs on
        now = self.reactor.seconds()
        self._wait(tid, table_id, player, marker,
                   DecisionClock(table.seat_of(player), THINKING, now, now + self.decision_seconds))

    def _wait(self, tid: str, table_id: str, player: str, marker: int, clock: DecisionClock) -> None:
        key = (tid, table_id)
        self.waiting[key] = Decision(player, marker, clock)
        timer = self.timers.get(key)
        if timer is None:
            timer = self.timers[key] = Timer(DecisionRunner(self, key), self.reactor, _published, name=key)
        timer.arm()

    @staticmethod
    def _after(clock: DecisionClock, phase: str, seconds: float) -> DecisionClock:
        """The next phase starts where ``clock`` ended -- not when the reactor got round to it, so a late
        reactor never takes anyone's seconds (as :class:`~pokerroom.shell.runner.Timer` does)."""
        return DecisionClock(clock.seat, phase, clock.deadline, clock.deadline + seconds)

    def ran_out(self, key: tuple[str, str], decision: Decision) -> None:
        """The phase's time is up (the table's timer says): the next phase starts, or the director acts for the
        player."""
        tid, table_id = key
        player, marker = decision.player, decision.marker
        d = self.hall.directors.get(tid)
        current = self.waiting.get(key)
        table = None if d is None else d.tables.get(table_id)
        if (table is None or table.hand is None or current is None or current.player != player
                or current.marker != marker or len(table.hand.events) != marker):
            return
        clock = current.clock
        connected = self.hall.feed.online(player)
        reconnect = d.reconnect_time(player, connected) if clock.phase == THINKING else 0   # spends it (HR-DC-4)
        bank = self.bank(tid, player)
        phase = clock.next_phase(disconnected=not connected, reconnect_seconds=reconnect, time_bank=bank,
                                 playing=True)          # away or not, a tournament player is dealt in (HR-DC-3)
        if phase == RECONNECT:
            self._wait(tid, table_id, player, marker, self._after(clock, RECONNECT, reconnect))
            self.hall.feed.push_to_hand(tid, table_id, {"type": "tournament_event", "tournament": tid, "event": {
                "type": "reconnect_time_started", "player": player, "seconds": reconnect,
                "deadline": clock.deadline + reconnect}})
            return
        if phase == TIME_BANK:
            self._wait(tid, table_id, player, marker, self._after(clock, TIME_BANK, bank))
            self.hall.feed.push_to(player, {"type": "tournament_event", "tournament": tid, "event": {
                "type": "time_bank_started", "player": player, "seconds": bank,
                "deadline": clock.deadline + bank}})
            return
        assert phase == ACT
        if clock.phase == TIME_BANK:
            self.banks[(tid, player)] = 0.0         # spent to the last second
        del self.waiting[key]
        self.hall.command(d, tc.Timeout(player))    # HR-DC-1, TR-PLAY-5: check, else fold

    def _cancel(self, key: tuple[str, str]) -> None:
        """No decision at the table any more: its clock and timer go."""
        self.waiting.pop(key, None)
        timer = self.timers.pop(key, None)
        if timer is not None:
            timer.stop()


def _published(events: object) -> None:
    """A decision's events went out through the hall's one path already (:meth:`TournamentHall.command`)."""
