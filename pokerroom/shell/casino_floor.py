"""The casino floor: every casino table on the room's reactor -- timers, ledger, store and fan-out.

Theory of operation
-------------------
Casino tables (:mod:`pokerroom.casino`) are pure. The floor is their thin
shell, built once by the composition root (:mod:`pokerroom.shell.composition`)
with what it uses, and stopped with it (its round timers cancelled). Every
command is a record of :mod:`pokerroom.casino.commands` applied by the
table's one ``apply``: a player's (join, leave, bet, decide) and an operator's void come
as requests on ``casino.<id>.command`` (:func:`~pokerroom.bus.subjects.casino_command`),
which the gateway's side sends (:class:`~pokerroom.shell.casino_play.CasinoPlay`:
the may-play check, the streams, the claims) and the floor answers with plain
data (a refusal: the RuleViolation, code and amounts kept), as a cash table's
host does; a bet's or a decision's funds are its own wallet's word (on several
processes a bet's stake is taken under the database's lock first, on the money
thread where there is one, and the table's next commands wait their turn meanwhile:
:class:`~pokerroom.shell.in_turn.InTurn`). The floor's
timer and the session records apply theirs in place (a disconnection, a
reconnection: from the records alone); it holds no gateway. Every
command's events go through :meth:`CasinoFloor._run`, the table pipeline of
its :class:`~pokerroom.shell.casino_runner.CasinoRunner` (the cash tables'
interface, :class:`~pokerroom.shell.runner.Runner`), which

1. moves the money the events name, through the room's ledger only:
   :class:`~pokerroom.casino.events.Staked` from the wallet to the player's
   stake account at the table (``casino:<table>:<player>``); a settled round
   in one transfer (stakes off the table, what each bet hands back to the
   wallets, the difference to ``house:casino``, CR-4); a voided round in one
   refund (CR-5). After a crash, stakes still on a table are refunded by the
   room's recovery: the round they were on never finished;
2. stores a finished round's result, cards and every bet (results history,
   bet history: CR-7; claims: BOB-6) with the transfer settling or refunding
   it, in one transaction, through the recorder's port
   (:class:`~pokerroom.shell.recorder.TableRecording`), as a cash table's
   hands go;
3. sends the events: public ones to everyone at the table, a player's own
   stakes, bets and decisions to that player only, and a settled round's
   payouts to each player as their own -- a finished round's events (and the
   table's after them) only once its transaction has committed
   (:mod:`~pokerroom.shell.outcome_hold`), so a crash never takes back a
   payout a player saw;
4. arms the table's one :class:`~pokerroom.shell.runner.Timer` for what its
   :meth:`~pokerroom.casino.table.CasinoTable.due` asks for (betting, a
   decision, the pause between rounds, or the 24 hours a round waits for a
   disconnected player, CR-6).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING, Any

from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

from pokerroom.bus.records import (
    CasinoRead,
    Frame,
    LobbySection,
    MembershipsRead,
    SessionBack,
    SessionEvent,
    SessionGone,
)
from pokerroom.bus.subjects import (
    CASINO_MEMBERSHIPS,
    CASINO_PLAYING,
    CASINO_TABLES,
    LOBBY_SECTION,
    LOBBY_WANTED,
    SESSION_EVENTS,
    casino_command,
    casino_public,
    casino_read,
    casino_seat,
    player_stream,
)
from pokerroom.casino import commands as cc
from pokerroom.casino.table import CasinoTable
from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import cash, casino_escrow
from pokerroom.shell.audiences import publish
from pokerroom.shell.casino_runner import CasinoRunner
from pokerroom.shell.every_node import answer_every_gather
from pokerroom.shell.in_play import answer_in_play
from pokerroom.shell.in_turn import InTurn, then
from pokerroom.shell.outcome_hold import OutcomeHold
from pokerroom.shell.runner import Timer
from pokerroom.shell.table_host import MOVED_KEPT

if TYPE_CHECKING:
    from pokerroom.bus import Bus
    from pokerroom.shell.recorder import Recorder
    from pokerroom.shell.wallet import Wallet
    from pokerroom.store.room_store import RoomStore

# The commands ``casino.<id>.command`` takes: a player's and an operator's (the staff check is the request's), and a
# returning member's reconnect (sent once their session follows the seat's stream); the timer's and a disconnection
# are the floor's own, applied in place.
_REQUESTED = frozenset({cc.Join, cc.Leave, cc.Bet, cc.Decide, cc.Reconnect, cc.Void})
_MEMBERS = frozenset({cc.Bet, cc.Decide, cc.Reconnect})     # refused ``not_at_table`` before the table sees them
_FUNDED = frozenset({cc.Bet, cc.Decide})         # their funds read from the floor's wallet


@dataclasses.dataclass(slots=True)
class Moved:
    """A casino table taken over here (issue 21) with stakes on its round in play: each bettor's own
    ``table_moved`` not yet told on a return of theirs, and until when it is."""

    pushes: dict[str, dict]
    until: float


class CasinoFloor:
    """The casino tables' shell: their requests, timers, money, records and frames; built once by the composition
    root with what it uses, and stopped with the room (its round timers cancelled)."""

    log = Logger()

    def __init__(self, tables: Iterable[CasinoTable], *, clock: IReactorTime, store: RoomStore, bus: Bus,
                 wallet: Wallet, recorder: Recorder) -> None:
        self.reactor = clock                        # the casino's timers: the room's reactor, or a test's Clock
        self.store = store                          # read at start (round numbers); written by the recorder
        self.bus = bus
        self.wallet = wallet                        # the stakes, the settlements, a bettor's funds and balance
        self.recorder = recorder                    # the writer, and its port for every round's end (as cash hands)
        self.tables: dict[str, CasinoTable] = {}
        self.members: dict[str, set[str]] = {}                                  # players who joined
        self.runners: dict[str, CasinoRunner] = {}
        self.timers: dict[str, Timer] = {}                                      # each table's one timer
        self.holds: dict[str, OutcomeHold] = {}                                 # each table's frames
        self.answering: dict[str, list] = {}                                    # each table's responders
        self.moved: dict[str, Moved] = {}               # tables taken over here: bettors not yet told on a return
        self.in_turn = InTurn()                                                 # each table's commands in order
        self.listed: tuple[dict, ...] | None = None                            # the lobby section as last sent
        self.installed = self.started = False
        self.stopped = False                                                   # the room has stopped: no timer
        for table in tables:
            self.add(table)

    # ------------------------------------------------------------------ composition

    def install(self) -> None:
        """Answer the tables' requests, hear of sessions and send the lobby section (the players' requests are
        :class:`~pokerroom.shell.casino_play.CasinoPlay`'s, on the gateway's side)."""
        self.installed = True
        for table in self.tables.values():
            self._answer(table)
        # reads every node answers for its own casino tables, gathered and merged by the asker (shell.every_node)
        answer_every_gather(self.bus, CASINO_TABLES, lambda _: self.listing())
        answer_every_gather(self.bus, CASINO_MEMBERSHIPS, self.memberships)  # CR-6: a returning player's tables
        answer_in_play(self.bus, CASINO_PLAYING, self.playing)          # SEC-2, AC-3: asked before a promotion
        self.bus.subscribe(SESSION_EVENTS, self._session_event)
        self.bus.subscribe(LOBBY_WANTED, lambda _subject, _: self._lobby_section(again=True))   # a new gateway
        self._lobby_section()

    def moved_to_here(self, table_id: str, pushes: dict[str, dict]) -> None:
        """A table taken over here with its round in play void (CR-5): each bettor told in words, ``pushes`` (their
        own ``table_moved``, with their stakes), on their own stream -- which their connection follows wherever in
        the room it is, one made again before the takeover included -- and once more on their first login or
        resume within :data:`MOVED_KEPT` seconds (:meth:`_tell_moved`: they may have been on the process that
        stopped). Their membership of the table went with that process: they join again to play."""
        self.moved[table_id] = Moved(dict(pushes), self.reactor.seconds() + MOVED_KEPT)
        for player, push in sorted(pushes.items()):
            self.bus.publish(player_stream(player), Frame.of(push))

    def _tell_moved(self, player: str) -> None:
        """A player back: each takeover of the last hour that refunded their stakes, told once more, and forgotten
        for them."""
        now = self.reactor.seconds()
        for table_id, moved in sorted(self.moved.items()):
            push = moved.pushes.pop(player, None) if now <= moved.until else None
            if push is not None:
                self.bus.publish(player_stream(player), Frame.of(push))
            if now > moved.until or not moved.pushes:
                del self.moved[table_id]

    def add(self, table: CasinoTable) -> None:
        """A table played here from now on (at start; or, on several processes, once its lease is won)."""
        table_id = table.table_id
        self.tables[table_id] = table
        self.members[table_id] = set()
        self.runners[table_id] = runner = CasinoRunner(table, self.reactor, self.wallet)
        self.timers[table_id] = Timer(runner, self.reactor, lambda events: self._run(table, events))
        self.holds[table_id] = OutcomeHold(self.bus)
        if self.installed:
            self._answer(table)
            self._lobby_section()
        if self.started and not self.stopped:
            self._first_round(table)

    def drop(self, table_id: str) -> None:
        """This process no longer owns the table (its lease went elsewhere): no timer, no answer, at once; its new
        owner goes on from the database (the round in play void, its stakes refunded, CR-5)."""
        if self.tables.pop(table_id, None) is None:
            return
        self.timers.pop(table_id).stop()
        for answering in self.answering.pop(table_id, ()):
            answering.cancel()
        for part in (self.members, self.runners, self.holds):
            part.pop(table_id, None)

    def _answer(self, table: CasinoTable) -> None:
        self.answering[table.table_id] = [
            self.bus.respond(casino_command(table.table_id), lambda command: self._commanded(table, command)),
            self.bus.respond(casino_read(table.table_id), lambda read: self._read(table, read))]

    def playing(self, player: str) -> bool:
        """A bet of the player's is in an open round."""
        return any(player in table.players() for table in self.tables.values())

    def start(self) -> None:
        """Open every table's first round, numbered on from the last one stored or staked on (CR-7: numbers are
        never reused, a round a crash voided included)."""
        self.started = True
        for table in self.tables.values():
            self._first_round(table)

    def _first_round(self, table: CasinoTable) -> None:
        table.number = self.store.casino.last_casino_round(table.table_id)
        self.timers[table.table_id].arm()

    def stop(self) -> None:
        """The room is stopping: no round timer fires again and no session event moves a table (the tables keep
        their state, as a crash would: stakes still on a table are refunded by the next start's recovery)."""
        self.stopped = True
        for timer in self.timers.values():
            timer.stop()

    def memberships(self, read: object) -> dict:
        """``casino.memberships``: the ids of the tables the player is a member of (CR-6: a returning player's
        session follows them and sends each a ``Reconnect``). A read: nothing changes, nothing private is told;
        anything but a :class:`MembershipsRead` is refused."""
        if not isinstance(read, MembershipsRead):
            raise RuleViolation("unknown_read", f"casino.memberships answers a MembershipsRead, not "
                                                f"{type(read).__name__}")
        return {"tables": [table_id for table_id, members in self.members.items() if read.player in members]}

    def listing(self) -> list[dict]:
        return [t.summary() for t in self.tables.values()]

    def _lobby_section(self, again: bool = False) -> None:
        """The lobby's casino section, sent whole on ``lobby.section`` when it has changed, or ``again`` for a
        gateway process that started after the floor (the lobby feed, in the gateway's process, keeps the copy it
        answers ``lobby_list`` with)."""
        lines = tuple(self.listing())
        if again or lines != self.listed:
            self.listed = lines
            self.bus.publish(LOBBY_SECTION, LobbySection("casino", lines))

    def _read(self, table: CasinoTable, read: CasinoRead) -> dict:
        """``casino.<id>.read``: the table's rules, or its results history (CR-7), as plain data."""
        if read.what == "rules":
            return table.describe()
        if read.what == "history":
            return {"results": [list(r) for r in table.results], "statistics": table.statistics()}
        raise RuleViolation("unknown_read", f"a casino table has no {read.what!r} to read")

    # ------------------------------------------------------------------ the one path of every command

    def _apply(self, table: CasinoTable, command: cc.CasinoCommand) -> list:
        """Apply one command record at the table and run its events (its timer armed again)."""
        return self.timers[table.table_id].command(command)

    def _commanded(self, table: CasinoTable, command: Any) -> Any:
        """``casino.<id>.command``: the command applied, answered with plain data once the frames it caused are
        out (a settling decision: after the settlement's commit); a refusal changes nothing and is raised to the
        requester, its amounts in the table's money. The table's commands go in the order they came: one arriving
        while a bet's money is taken off the reactor waits for it (:class:`~pokerroom.shell.in_turn.InTurn`)."""
        kind = type(command)
        if kind not in _REQUESTED:
            raise RuleViolation("unknown_command", f"a casino table takes no {kind.__name__} by request")
        return self.in_turn.run(table.table_id, lambda: self._taken(table, command))

    def _taken(self, table: CasinoTable, command: Any) -> Any:
        """A command in its turn: a bet's stake taken by the wallet as the table applies it (its check and its move
        one step on several processes: :meth:`~pokerroom.shell.wallet.Wallet.funded`; a Deferred with a money
        thread), a decision's funds the balance; then its answer."""
        kind = type(command)
        table_id = table.table_id
        player = getattr(command, "player", None)
        self._still_here(table)
        if kind in _MEMBERS and player not in self.members[table_id]:
            raise RuleViolation("not_at_table", f"join {table_id} first")
        number = table.number
        if kind is cc.Bet:
            applied = self.wallet.funded(cash(player), [(casino_escrow(table_id, player), command.amount,
                                                         "casino bet")], f"{table_id}#{number}",
                                         partial(self._apply_funded, table, command), verify=False)
        else:
            applied = self._apply_funded(table, command, self.wallet.balance(player) if kind is cc.Decide else None)
        return then(applied, lambda events: self._answered(table, command, number, events))

    def _still_here(self, table: CasinoTable) -> None:
        """A command whose turn came (or whose stake was taken) after the table left this process: refused as
        for a table played elsewhere (a stake taken goes back: the wallet's funding)."""
        if self.tables.get(table.table_id) is not table:
            raise RuleViolation("unknown_table", "that casino table is played by another process now: ask again")

    def _apply_funded(self, table: CasinoTable, command: Any, funds: int | None) -> list:
        """Apply a requested command at the table with the funds the wallet gave it (a bet's, a decision's: the
        wallet's word, whatever the record says) and run its events."""
        self._still_here(table)
        kind = type(command)
        if kind in _FUNDED:
            command = dataclasses.replace(command, funds=funds)
        try:
            events = table.apply(command)
        except RuleViolation as refusal:
            raise refusal.priced(table.rules.currency) from None
        if kind is cc.Join:
            self.members[table.table_id].add(command.player)
        elif kind is cc.Leave:
            self.members[table.table_id].discard(command.player)   # the seat's stream stays open: their leaving's
        self._run(table, events)                                     # frames
        return events

    def _answered(self, table: CasinoTable, command: Any, number: int, events: list) -> Any:
        """A command's answer, once the frames it caused are out."""
        kind = type(command)
        table_id = table.table_id
        player = getattr(command, "player", None)
        if kind is cc.Join:
            answer = table.view(player)
        elif kind is cc.Bet:
            placed = events[0]
            answer = {"round": table.number, "market": placed.market, "amount": placed.amount, "odds": placed.odds,
                      "balance": self.wallet.balance(player)}
        elif kind is cc.Decide:
            answer = {"decision": table.decision_of(player)}
        elif kind is cc.Void:
            answer = {"round": number}
        elif kind is cc.Reconnect:
            answer = {**table.view(player), "decision": table.decision_of(player)}     # the casino_state (CR-6)
        else:
            answer = {}
        hold = self.holds.get(table_id)                 # gone: the table left this process since (its lease)
        return answer if hold is None else hold.after(answer)

    def _run(self, table: CasinoTable, events: list) -> list:
        """The table pipeline of a casino batch: its money, each round's end stored through the recorder's port
        (the frames after it wait for its commit), the frames, and the table's one timer armed again."""
        table_id = table.table_id
        runner = self.runners[table_id]
        hold = self.holds[table_id]
        now = self.reactor.seconds()
        transfers = runner.transfers(events)
        for round_end in runner.full(events, transfers, now):
            hold.until(self.recorder.record_round(round_end))
        members = self.members[table_id]
        for head, audiences in runner.audiences(events):
            seated = (*members, *(p for p in audiences.own if p not in members))   # who bet hears of it, left or not
            publish(hold, casino_public(table_id), head, "events", audiences, seated,
                    tuple((player, casino_seat(table_id, player)) for player in seated))
        if not self.stopped:
            self.timers[table_id].arm()
        self._lobby_section()
        return events

    # ------------------------------------------------------------------ connections

    def _session_event(self, subject: str, event: SessionEvent) -> None:
        """A member's connection closed (not one a newer login took over): their round may wait for them (CR-6),
        from the record alone. Their coming back is a ``Reconnect`` the gateway's side sends once their session
        follows the seat's stream, so the frames it makes (the decision asked again) reach them. A player back
        (a login or a resume) whose stakes a takeover here refunded within the hour is told it (CR-5)."""
        if not self.stopped and isinstance(event, SessionBack):
            self._tell_moved(event.player)
        elif not self.stopped and isinstance(event, SessionGone) and event.current:
            now = self.reactor.seconds()
            for table_id, members in self.members.items():
                if event.player in members:
                    self._apply(self.tables[table_id], cc.Disconnect(event.player, now))
