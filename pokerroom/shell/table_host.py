"""The table host: every cash table's runner and timer, and each event published once per audience.

Theory of operation
-------------------
Each table is a :class:`~pokerroom.shell.cash_runner.TableRunner` (the one
runner interface, :class:`~pokerroom.shell.runner.Runner`) on the one
:class:`~pokerroom.shell.runner.Timer`. Every event a table emits passes
through :meth:`TableHost._table_events`, in order, which runs the runner's
pipeline, and that is the only place where the outside world learns of it:

* money -- a seat taken, chips added, a player leaving and a hand's end move
  money through the wallet (buy-in: wallet to table escrow; hand end: escrow
  to end-of-hand stacks and rake to the house), so ledger and tables never
  disagree;
* the record -- the events as they happened, with those transfers, go to the
  recorder of this process through its port
  (:class:`~pokerroom.shell.recorder.TableRecording`), in this call: no money
  or hand record rests on a bus delivery. A plain copy
  (:class:`~pokerroom.bus.records.TableBatch`) goes to
  :func:`~pokerroom.bus.subjects.table_full` for whoever listens (the demo's
  narrator, the security team);
* the audiences -- each batch is redacted here, once: the public frame (as an
  observer sees it) goes to the table's public stream, encoded once for its
  observers; each seated player gets every frame on their seat's stream
  (:func:`~pokerroom.bus.subjects.table_seat`), the public one or, when their
  own hole cards are in the batch or it starts their decision, one of their
  own (their seat's cards only if they were dealt them in that hand, never a
  later occupant's). One subject per seated player keeps their frames in the
  table's order on any bus. The gateway forwards these and redacts nothing.

Commands and reads come as requests on the bus, the same records a process
on the other side of it would send: ``table.<id>.command`` carries a record
of :mod:`pokerroom.table.commands` (answered ``{"seat": …}`` once the frames
it caused are out, or refused with its ``RuleViolation``), and
``table.<id>.snapshot``, ``.catch_up`` and ``.players`` answer reads with
plain data. Each change of a table's lobby line goes out whole on
``lobby.changed``.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable
from typing import Any

import msgpack
from twisted.internet import defer
from twisted.internet.interfaces import IReactorTime

from pokerroom.bus import Bus
from pokerroom.bus.records import (
    CatchUpRead,
    ChatRead,
    DeskRead,
    Frame,
    LedgerTransfer,
    LobbyLine,
    PlayersRead,
    ResumeRead,
    SessionEvent,
    SessionGone,
    SnapshotRead,
    TableBatch,
    WhereRead,
)
from pokerroom.bus.subjects import (
    CASH_TABLES_DESK,
    CASH_TABLES_KNOWN,
    CASH_TABLES_RESUME,
    CASH_TABLES_WHERE,
    LOBBY_CHANGED,
    LOBBY_LINES,
    LOBBY_WANTED,
    SESSION_EVENTS,
    table_announce,
    table_catch_up,
    table_chat,
    table_closed,
    table_command,
    table_full,
    table_keep_chat,
    table_players,
    table_public,
    table_snapshot,
)
from pokerroom.errors import RuleViolation
from pokerroom.gateway.metrics import Metrics
from pokerroom.money.accounts import cash, table_escrow
from pokerroom.poker import events as he
from pokerroom.protocol.wire_form import whole
from pokerroom.shell.audiences import announce, publish
from pokerroom.shell.cash_runner import TableRunner
from pokerroom.shell.display_names import DisplayNames
from pokerroom.shell.every_node import answer_every_gather
from pokerroom.shell.outcome_hold import OutcomeHold
from pokerroom.shell.recorder import TableRecording
from pokerroom.shell.runner import Timer
from pokerroom.shell.wallet import Wallet
from pokerroom.table import CashTable, SeatingHistory, TableRules
from pokerroom.table import commands as tc
from pokerroom.table.decision_clock import TIME_BANK
from pokerroom.table.events import table_event_from_dict

REPLAY = 64                         # a resume's gap of more events than this gets a snapshot, not a replay
MOVED_KEPT = 3_600.0                # how long a table taken over here tells a resume from before it (seconds)
# Commands only a seated player may send (refused ``not_seated`` before the table sees them)...
_SEATED = frozenset({tc.Leave, tc.SitOut, tc.SitIn, tc.SetOptions, tc.AddChips, tc.Act})
# ...and those answered at once, not after an outcome waiting for its commit.
_AT_ONCE = frozenset({tc.AddChips, tc.JoinWaitingList, tc.LeaveWaitingList})


@dataclasses.dataclass(frozen=True, slots=True)
class Moved:
    """A table taken over here (issue 21): the ``table_moved`` its players were told, the table's seq when they
    were (its numbering starts again here), and until when a resume from before it is told too."""

    push: dict
    seq: int
    until: float


def _here(answer: dict, runner: TableRunner) -> dict:
    """``answer``, if ``runner``'s table is still played here."""
    if runner.dropped:
        raise RuleViolation("no_such_table", "that table is played by another process now: ask again")
    return answer


class TableHost:
    def __init__(self, reactor: IReactorTime, bus: Bus, wallet: Wallet, recording: TableRecording,
                 history: SeatingHistory, metrics: Metrics, *,
                 display_names: DisplayNames, shuffle: Callable[[], list[int]] | None = None,
                 landed: Callable[[], defer.Deferred] = lambda: defer.succeed(None),
                 seating: Callable[[str], SeatingHistory] | None = None) -> None:
        self.reactor = reactor
        self.bus = bus
        self.wallet = wallet
        self.recording = recording              # the recorder of this process: every batch, in the batch's call
        self.history = history
        # each table's view of the history: what it records is its play, fenced by its lease (none: the one history)
        self._seating = seating or (lambda _table: history)
        self.metrics = metrics
        self.display_names = display_names      # AC-4: players showing their verified name
        self.runners: dict[str, TableRunner] = {}
        self.known_tables: set[str] = set()     # every cash table id, open or since closed
        self._hands_played: dict[str, int] = {}  # table -> its newest stored hand's number
        self._shuffle = shuffle
        self._landed = landed                    # fires when every write asked for so far has committed
        self._moved: dict[str, Moved] = {}       # the tables taken over here, while a resume may need telling
        self._retired: list[Callable[[str], object]] = []     # told when a table leaves the room (its lease goes)
        bus.subscribe(SESSION_EVENTS, self._session_event)
        bus.subscribe(LOBBY_WANTED, lambda _subject, _: self._lobby_lines())   # a gateway process has started
        # reads every node answers for its own tables, gathered and merged by the asker (shell.every_node)
        answer_every_gather(bus, CASH_TABLES_KNOWN, lambda _: sorted(self.known_tables))
        answer_every_gather(bus, CASH_TABLES_RESUME, self._resume_read)
        answer_every_gather(bus, CASH_TABLES_WHERE, self._where_read)
        answer_every_gather(bus, CASH_TABLES_DESK, self._desk_read)
        answer_every_gather(bus, LOBBY_LINES, self._lines_read)

    # ------------------------------------------------------------------ tables

    def add_table(self, rules: TableRules, *, announce: bool = True) -> TableRunner:
        """Open a cash table (at start from the config; later, a director's) and show it in the lobby."""
        if rules.table_id in self.runners:
            raise RuleViolation("table_exists", f"there is already a table {rules.table_id}")
        kwargs = {"shuffle": self._shuffle} if self._shuffle else {}
        hold = OutcomeHold(self.bus)
        runner = TableRunner(CashTable(rules, self._seating(rules.table_id), **kwargs), self.wallet, self.metrics,
                             public=table_public(rules.table_id), stream=table_full(rules.table_id), hold=hold,
                             game_key=rules.game_key)
        runner.timer = Timer(runner, self.reactor, lambda events: self._table_events(runner, events),
                             shown=lambda: hold.after(None))
        runner.table.hand_number = self._hands_played.get(rules.table_id, 0)
        self.runners[rules.table_id] = runner
        self.known_tables.add(rules.table_id)
        self.metrics.tables.set(len(self.runners))
        table_id = rules.table_id
        runner.answering = [
            self.bus.respond(table_command(table_id), lambda command: self._commanded(runner, command)),
            self.bus.respond(table_snapshot(table_id), lambda read: self._snapshot_read(runner, read)),
            self.bus.respond(table_catch_up(table_id), lambda read: self._catch_up_read(runner, read)),
            self.bus.respond(table_players(table_id), lambda read: self._players_read(runner, read)),
            self.bus.respond(table_chat(table_id), lambda read: self._chat_read(runner, read)),
            self.bus.respond(table_keep_chat(table_id), lambda line: self.recording.chat_kept(table_id, line)),
            self.bus.respond(table_announce(table_id), lambda said: self.announce(runner, said.message))]
        self._lobby_line(runner, news=announce)
        return runner

    def restore_known(self, table_ids: set[str]) -> None:
        """At start: every cash table id stored, closed ones too (players' histories include them; an id is never
        used again)."""
        self.known_tables |= table_ids

    def restore_hand_numbers(self, numbers: dict[str, int]) -> None:
        """At start: a hand id is never used twice at a table."""
        self._hands_played = numbers
        for table_id, runner in self.runners.items():
            runner.table.hand_number = numbers.get(table_id, 0)

    def when_retired(self, told: Callable[[str], object]) -> None:
        """``told(table_id)`` once a table has closed and left the room for good."""
        self._retired.append(told)

    def number_from(self, table_id: str, hand_number: int) -> None:
        """A table opened here from what another process left (issue 21): its next hand is numbered after this."""
        self._hands_played[table_id] = hand_number
        runner = self.runners.get(table_id)
        if runner is not None:
            runner.table.hand_number = hand_number

    def reseat(self, table_id: str, player: str, seat: int | None, stack: int) -> object:
        """A player of a table taken over, seated again with the stack the void hand started with (TR-REFUND-1):
        the chips leave their wallet and the table seats them in one step, as a buy-in does (with a money thread:
        a Deferred, seated once the money is taken)."""
        runner = self.runner(table_id)
        return self.wallet.funded(cash(player), [(table_escrow(table_id, player), stack, "buy_in")], table_id,
                                  lambda _: self._still_here(runner, tc.Reseat(player, seat, stack)))

    def drop_table(self, table_id: str) -> None:
        """This process no longer owns the table (its lease went to another): it stops answering for it and its
        timer at once, and says nothing -- the table goes on where its new owner opens it, from the database."""
        runner = self.runners.pop(table_id, None)
        self._moved.pop(table_id, None)
        if runner is None:
            return
        runner.dropped = True
        runner.timer.stop()
        for answering in runner.answering:
            answering.cancel()
        self.metrics.tables.set(len(self.runners))

    def stop(self) -> None:
        """The room is stopping: no table's timer fires again (the tables keep their state, as a crash would)."""
        for runner in self.runners.values():
            if runner.timer is not None:
                runner.timer.stop()

    def close_table(self, table_id: str) -> list:
        """Close a cash table: no new hand; everyone stands up with their chips once no hand is running.

        When the last player is up the table leaves the room (:meth:`_retire`).
        """
        runner = self.runner(table_id)
        events = self.command(runner, tc.Close())
        if table_id in self.runners:                    # lobby subscribers see it closing (or gone: _retire)
            self._lobby_line(runner)
        return events

    def _retire(self, runner: TableRunner) -> None:
        table_id = runner.table.table_id
        self.drop_table(table_id)                       # nothing of it fires or answers here any more
        self.announce(runner, {"type": "table_closed", "table": table_id}, runner.hold)
        runner.hold.publish(table_closed(table_id), table_id)      # after the last frames: sessions forget it
        self.recording.table_closed(table_id)
        self.bus.publish(LOBBY_CHANGED, LobbyLine(table_id, None))
        for told in self._retired:
            told(table_id)

    def runner(self, table_id: str) -> TableRunner:
        runner = self.runners.get(table_id)
        if runner is None:
            raise RuleViolation("no_such_table", f"there is no table {table_id}")
        return runner

    def command(self, runner: TableRunner, command: tc.TableCommand) -> list:
        """Apply one command record at the table (its events published); a refusal priced in the table's money."""
        try:
            return runner.timer.command(command)
        except RuleViolation as refusal:            # its amounts in the table's money (a sentence in "$4.00")
            raise refusal.priced(runner.table.rules.currency) from None

    def _commanded(self, runner: TableRunner, command: Any) -> dict | defer.Deferred:
        """``table.<id>.command``: the command applied, answered with the player's seat after the frames it caused
        (an outcome's wait for its commit); a refusal changes nothing and is raised to the requester."""
        kind = type(command)
        if kind is tc.Reseat:                           # the host's own, after a takeover: never a request's
            raise RuleViolation("unknown_command", "a table takes no Reseat by request")
        player = getattr(command, "player", None)       # a field of most commands; Close and the timers' have none
        if kind in _SEATED and runner.table.seat_of(player) is None:
            raise RuleViolation("not_seated", f"you are not seated at {runner.table.table_id}")
        if kind is tc.Close:                            # a director's: the lobby sees it closing, or gone
            self.close_table(runner.table.table_id)
            return {"seat": None, "closed": runner.table.table_id not in self.runners}
        if kind is tc.Sit or kind is tc.AddChips:       # the buy-in from the wallet, which lives beside the host:
            table_id = runner.table.table_id            # its check and its move one step (several processes)
            amount, reason = (command.buy_in, "buy_in") if kind is tc.Sit else (command.amount, "add_chips")
            funded = self.wallet.funded(cash(player), [(table_escrow(table_id, player), amount, reason)], table_id,
                                        lambda _: self._still_here(runner, command))
            if isinstance(funded, defer.Deferred):      # its locked move off the reactor (several processes)
                return funded.addCallback(lambda _: self._seat_answer(runner, kind, player))
        else:
            self.command(runner, command)
        return self._seat_answer(runner, kind, player)

    def _still_here(self, runner: TableRunner, command: tc.TableCommand) -> None:
        """A funded command, applied if its table is still played here once its money was taken (a lease lost
        meanwhile: refused, and its money goes back by the wallet's fence or the new owner's recovery)."""
        if self.runners.get(runner.table.table_id) is not runner:
            raise RuleViolation("no_such_table", "that table is played by another process now: ask again")
        self.command(runner, command)

    @staticmethod
    def _seat_answer(runner: TableRunner, kind: type, player: str | None) -> dict | defer.Deferred:
        """The player's seat; an outcome's after its frames. A table dropped meanwhile (a write of the command
        refused by its lease's fence: another process plays it, and nothing of the command was stored) is
        ``no_such_table``, not an answer for what did not happen."""
        answer = {"seat": runner.table.seat_of(player) if player is not None else None}
        if kind in _AT_ONCE:
            return _here(answer, runner)
        held = runner.hold.after(answer)
        return held.addCallback(_here, runner) if isinstance(held, defer.Deferred) else _here(held, runner)

    def _session_event(self, subject: str, event: SessionEvent) -> None:
        """Disconnected, or left the session they were signed in on: at every table they sit at, disconnected
        (HR-DC-1); logged in or resumed: connected again there. A session a newer login took over is not theirs
        any more: its end changes nothing (the gateway says so in ``current``)."""
        if isinstance(event, SessionGone):
            if not event.current:
                return
            command: type[tc.Disconnect] | type[tc.Reconnect] = tc.Disconnect
        else:
            command = tc.Reconnect
        for table_id in event.tables:
            runner = self.runners.get(table_id)
            if runner is not None and runner.table.seat_of(event.player) is not None:
                self.command(runner, command(event.player))

    # ------------------------------------------------------------------ what a viewer is shown

    def _lobby_lines(self) -> None:
        """Every open table's lobby line again, not as news: for a lobby feed that started after this host."""
        for runner in self.runners.values():
            self._lobby_line(runner, news=False)

    def _lobby_line(self, runner: TableRunner, news: bool = True) -> None:
        self.bus.publish(LOBBY_CHANGED, LobbyLine(runner.table.table_id, self.summary(runner), news))

    def summary(self, runner: TableRunner) -> dict:
        """The table's lobby line."""
        rules, table = runner.table.rules, runner.table
        pots = list(runner.pots)
        return {"table": rules.table_id, "name": rules.name, "game": rules.variant.code,
                "small_blind": rules.stakes.small_blind, "big_blind": rules.stakes.big_blind,
                "currency": rules.currency, "seats": rules.max_seats, "taken": len(table.players),
                "waiting": len(table.waiting_list), "average_pot": sum(pots) // len(pots) if pots else 0,
                "min_buy_in": rules.min_buy_in, "max_buy_in": rules.max_buy_in, "closing": table.closing}

    def snapshot(self, table_id: str, player_id: str | None) -> dict:
        """The table as ``player_id`` may see it now (an observer's view for anyone not seated)."""
        table = self.runner(table_id).table
        snap = table.snapshot(table.viewer(player_id))
        clock = snap.clock
        seats = [dataclasses.asdict(s) for s in snap.seats]
        for seat in seats:
            name = self.display_names.get(seat["player"])
            if name is not None:
                seat["name"] = name                     # AC-4: the verified real name
        now = self.reactor.seconds()
        seated = table.players.get(clock[0]) if clock is not None else None
        time_bank = None
        if seated is not None:                          # the bank counting down now, or what waits after the clock
            time_bank = max(0.0, clock[2] - now) if clock[1] == TIME_BANK else seated.time_bank
        message = {"type": "table_snapshot", "table": table.table_id, "seq": snap.seq, "seats": seats,
                   "hand": [he.event_to_dict(e) for e in snap.hand_events],
                   "board": list(snap.board), "second_board": list(snap.second_board),
                   "pots": [{"amount": amount, "seats": list(eligible)} for amount, eligible in snap.pots],
                   "to_act": None if clock is None else clock[0],
                   "deadline": None if clock is None else clock[2],
                   "phase": None if clock is None else clock[1],
                   "seconds_left": None if clock is None else max(0.0, clock[2] - now),
                   "time_bank": time_bank,
                   "button": None if snap.positions is None else snap.positions.button,
                   "waiting_list": list(snap.waiting_list)}
        if seated is not None and player_id is not None and seated.player_id == player_id:
            legal = table.legal_actions(player_id)
            if legal is not None:                       # your turn: what you may do, as a decision's frame says
                message["legal"] = legal.to_wire()
        return message

    def _snapshot_read(self, runner: TableRunner, read: SnapshotRead) -> dict | defer.Deferred:
        """``table.<id>.snapshot``: now, or once an outcome waiting for its commit is shown (a snapshot never shows
        stacks a crash could still take back); ``no_such_table`` if the table has closed by then."""
        table_id = runner.table.table_id
        shown = runner.hold.after(None)
        if shown is None:
            return self.snapshot(table_id, read.player)
        return shown.addCallback(lambda _: self.snapshot(table_id, read.player))

    def _catch_up_read(self, runner: TableRunner, read: CatchUpRead) -> dict | defer.Deferred:
        """``table.<id>.catch_up``: the frames missed, or a snapshot when those cannot show the table whole -- seq 0
        (the viewer knows nothing), a gap the log does not hold or too long to replay, or the player dealt into
        the running hand (the snapshot has their own cards and, on their turn, their ``legal``: HR-DC-2)."""
        table = runner.table
        seat = table.seat_of(read.player) if read.player is not None else None
        moved = self.moved_since(table.table_id, read.last_seq)
        missed = None
        if read.last_seq and moved is None and not (seat is not None and table.dealt_in(seat)):
            missed = self.catch_up(table.table_id, read.player, read.last_seq)
        if missed is None:
            told = {} if moved is None else {"moved": moved}     # after the snapshot, in words
            snapshot = self._snapshot_read(runner, SnapshotRead(read.player))
            if isinstance(snapshot, defer.Deferred):
                return snapshot.addCallback(lambda shown: {"snapshot": shown, **told})
            return {"snapshot": snapshot, **told}
        return {"frames": missed}

    def moved_to_here(self, table_id: str, push: dict) -> None:
        """A table taken over here with players (issue 21): everyone at it told in words, ``push``, after the frames
        seating them again; remembered for :data:`MOVED_KEPT` seconds, for those who hear it only when they resume
        (:meth:`moved_since`)."""
        runner = self.runner(table_id)
        self._moved[table_id] = Moved(push, runner.table.seq, self.reactor.seconds() + MOVED_KEPT)
        self.announce(runner, push, runner.hold)

    def moved_since(self, table_id: str, last_seq: int) -> dict | None:
        """The ``table_moved`` a resume with ``last_seq`` at ``table_id`` missed, if the table was taken over here
        lately and that seq is from before: 0 (nothing seen), one before the takeover's, or one beyond the table's
        newest (the dead process's numbering: it starts again here). None otherwise."""
        moved = self._moved.get(table_id)
        if moved is None:
            return None
        if self.reactor.seconds() > moved.until:
            del self._moved[table_id]
            return None
        runner = self.runners.get(table_id)
        if runner is None or moved.seq <= last_seq <= runner.table.seq:
            return None
        return dict(moved.push)

    def _resume_read(self, read: ResumeRead) -> dict:
        """``tables.resume``: a resume naming a table it cannot resume is refused before anything changes (a client
        must know). Each named table must be one the session watches or the player sits at (after a restart the
        room knows only the seat); a table closed since is no error (the caller answers ``closed``); ``seq`` may
        not be beyond the table's newest event. Which of the named, watched and other tables are still open here.

        A gathered read: this node judges the tables it has (``refused``: ``[table, code, sentence]``) and names
        those it has never known (``unknown``: another node's, or nobody's); the asker refuses the first table in
        id order that a node refused or no node knows (:func:`~pokerroom.shell.every_node.resumable`), as one
        process did."""
        watched = set(read.watched)
        unknown, refused = [], []
        for table_id, seq in sorted(read.tables):
            runner = self.runners.get(table_id)
            if runner is None:
                if table_id not in self.known_tables:
                    unknown.append(table_id)
                continue
            table = runner.table
            if table_id not in watched and table.seat_of(read.player) is None:
                refused.append([table_id, "not_watching", f"you do not watch {table_id}; resume without it, then "
                                                          "observe it"])
            # beyond the newest at a table taken over lately: the dead process's seq, caught up with a snapshot
            elif seq > table.seq and self.moved_since(table_id, seq) is None:
                refused.append([table_id, "bad_seq", f"{table_id} has sent no event {seq} yet (its newest is "
                                                     f"{table.seq}); resume with the last seq you saw, or 0 for a "
                                                     "snapshot"])
        asked = {table_id for table_id, _ in read.tables} | watched | set(read.others)
        seated = self._where_read(WhereRead(read.player))["seated"]          # a session from elsewhere: its seats
        return {"open": sorted(table_id for table_id in asked if table_id in self.runners), "unknown": unknown,
                "refused": refused, "seated": seated}

    def _lines_read(self, _: object) -> list[LobbyLine]:
        """``lobby.lines``: this node's open tables' lobby lines, for a lobby feed that starts after they opened
        (a node started late has heard none of them on ``lobby.changed``)."""
        return [LobbyLine(table_id, self.summary(runner), news=False) for table_id, runner in self.runners.items()]

    def _where_read(self, read: WhereRead) -> dict:
        """``tables.where``: the tables ``read.player`` sits at (and of those, where they are standing up after the
        hand) or waits for, in id order."""
        seated, leaving, waiting = [], [], []
        player = read.player
        for table_id, runner in self.runners.items():      # each resume asks: one look a table, sorted after
            table = runner.table
            if table.seat_of(player) is not None:
                seated.append(table_id)
                if table.player(player).leaving:
                    leaving.append(table_id)
            if table.waiting_list and player in table.waiting_list:
                waiting.append(table_id)
        return {"seated": sorted(seated), "leaving": sorted(leaving), "waiting": sorted(waiting)}

    def _desk_read(self, read: DeskRead) -> list[dict]:
        """``tables.desk``: every open table's lobby line with its seats and waiting list, for the directors."""
        out = []
        for runner in self.runners.values():
            table = runner.table
            out.append({**self.summary(runner),
                        "players": [{"seat": p.seat, "player": p.player_id, "stack": p.stack,
                                     "sitting_out": p.sitting_out, "connected": p.connected}
                                    for p in sorted(table.players.values(), key=lambda p: p.seat)],
                        "waiting_list": list(table.waiting_list)})
        return out

    def _chat_read(self, runner: TableRunner, read: ChatRead) -> dict:
        """``table.<id>.chat``: the running hand, whether the player is in it, and whether this table closes chat
        to the players in the hand (HR-CHAT-4)."""
        hand = runner.table.hand
        return {"hand": hand.hand_id if hand is not None else None,
                "in_hand": hand is not None and read.player in runner.players,
                "closed_in_hand": runner.table.rules.block_chat_in_hand}

    def _players_read(self, runner: TableRunner, read: PlayersRead) -> list[str]:
        """``table.<id>.players``: who sits at the table, by seat."""
        return [p.player_id for _, p in sorted(runner.table.players.items())]

    def announce(self, runner: TableRunner, message: dict, bus: Any = None) -> None:
        """A frame for everyone at the table (a chat line, its closing): its observers and each seated player, on
        the streams they hear the table on."""
        announce(bus or self.bus, runner.public, message, *runner.seated_now())

    def catch_up(self, table_id: str, player_id: str | None, last_seq: int) -> list[Frame] | None:
        """The frames ``player_id`` missed after ``last_seq``, as they may see them; None if the log no longer
        holds them all or they are more than :data:`REPLAY` events (the client gets a snapshot instead)."""
        runner = self.runner(table_id)
        log = runner.log
        first = runner.log_seq - len(log) + 1
        if not log or first > last_seq + 1 or runner.log_seq - last_seq > REPLAY:
            return None
        held = runner.hold.first_held()         # an outcome not yet stored is shown to nobody: it follows live
        shown = len(log) if held is None else max(0, held - first + 1)
        packed = list(itertools.islice(log, max(0, last_seq + 1 - first), shown))
        dicts = [msgpack.unpackb(as_bytes, strict_map_key=False) for as_bytes in packed]    # the wire form
        missed = [table_event_from_dict(whole(as_dict)) for as_dict in dicts]
        out = []
        for head, audiences in runner.frames(missed, dicts, packed):
            public, everyone, own = audiences.frames(head, "events")
            out.append(own.get(player_id, everyone) if player_id is not None else everyone)
        return out

    # ------------------------------------------------------------------ a table's events

    def _table_events(self, runner: TableRunner, events: list) -> None:
        """The table pipeline of a cash table's batch: its money, its record (the recorder's port, in this call;
        a plain copy on the table's full stream), then its frames -- behind an outcome's commit when it settled
        money."""
        table = runner.table
        table_id = table.table_id
        now = self.reactor.seconds()
        transfers = runner.transfers(events)
        full = runner.full(events, transfers, now)
        self.recording.record(full)                         # queues the writes
        moved = tuple([(i, LedgerTransfer.of(t)) for i, t in transfers.items()]) if transfers else ()
        self.bus.publish(runner.stream, TableBatch(table_id, runner.game_key, table.rules.currency, now,
                                                   tuple(full.dicts), moved))
        if runner.outcome:
            runner.hold.until(self._landed(), events[0].seq - 1)
        seated, seats = runner.seated_now(runner.left)
        way = runner.hold.way()                             # the bus, or behind an outcome's commit
        for head, audiences in runner.audiences(events):    # frames stay small
            publish(way, runner.public, head, "events", audiences, seated, seats)
        if table.closing and not table.players and table.hand is None and table_id in self.runners:
            self._retire(runner)
        elif runner.lobby:                                  # a seat, the waiting list or a hand's end changed
            self._lobby_line(runner)
