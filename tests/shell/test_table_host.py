"""The table host built alone on a strict bus: its commands and reads come as requests and go back as data.

Nothing here holds a reference to a table: a command is the record a process
on the other side of the bus would send (:mod:`pokerroom.table.commands`),
its answer plain data, a refusal the ``RuleViolation`` with its code, rule and
amounts; the lobby line goes out whole on ``lobby.changed``.
"""

from __future__ import annotations

import pytest
from twisted.internet import defer
from twisted.internet.task import Clock

from pokerroom.bus import NoResponder
from pokerroom.bus.records import (
    DISCONNECTED,
    LOGGED_IN,
    TAKEN_OVER,
    CatchUpRead,
    LobbyLine,
    PlayersRead,
    SessionBack,
    SessionGone,
    SnapshotRead,
)
from pokerroom.bus.subjects import (
    CASH_TABLES_KNOWN,
    LOBBY_CHANGED,
    SESSION_EVENTS,
    table_catch_up,
    table_command,
    table_players,
    table_snapshot,
)
from pokerroom.errors import RuleViolation
from pokerroom.gateway.metrics import Metrics
from pokerroom.players import AccountRules
from pokerroom.shell.display_names import DisplayNames
from pokerroom.shell.table_host import TableHost
from pokerroom.shell.wallet import Wallet
from pokerroom.table import InMemorySeatingHistory
from pokerroom.table import commands as tc
from pokerroom.table.config import tables_from_config
from tests.support.recording_bus import RecordingBus

TABLE = {"tables": [{"id": "t1", "variant": "NLHE", "small_blind": 5, "big_blind": 10, "min_buy_in": 400,
                     "max_buy_in": 1000, "seats": 6, "currency": "USD"}],
         "house_rules": {"between_hands_seconds": 2}}


class _Recorder:
    """What the wallet writes through, kept (the host's own moves go to the recorder's port with their batch)."""

    def __init__(self) -> None:
        self.writes: list = []
        self.store = self

    @property
    def ledger(self):   # noqa: ANN201 - the store's ledger part: the recorder double itself
        return self

    def save_transfers(self, transfers: list) -> None:
        pass

    fencing = False                 # one process: no lease fences its writes

    def write(self, function, *args, quiet: bool = True) -> defer.Deferred:   # noqa: ANN001
        self.writes.append((function, args))
        return defer.succeed(None)

    def write_fenced(self, fences: tuple, function, *args, quiet: bool = True) -> defer.Deferred:   # noqa: ANN001
        assert fences == ()
        return self.write(function, *args, quiet=quiet)

    def audit(self, kind: str, at: float | None = None, **data) -> None:
        pass


class _Recording:
    """The recorder's port, kept: what the host hands over in each batch's call."""

    def __init__(self, batches: list) -> None:
        self.batches = batches

    def record(self, batch) -> None:   # noqa: ANN001
        self.batches.append(batch)

    def table_closed(self, table_id: str) -> None:
        self.batches.append(("closed", table_id))


class Host:
    def __init__(self) -> None:
        self.clock = Clock()
        self.clock.advance(1000)
        self.bus = RecordingBus(self.clock)
        self.wallet = Wallet(_Recorder(), self.clock, AccountRules())
        self.recorded: list = []
        self.host = TableHost(self.clock, self.bus, self.wallet, _Recording(self.recorded), InMemorySeatingHistory(),
                              Metrics(), display_names=DisplayNames())
        self.runner = self.host.add_table(tables_from_config(TABLE)[0])
        for player in ("ann", "bob", "cat"):
            self.wallet.credit(player, 5000, player)

    def command(self, command: tc.TableCommand, table: str = "t1"):   # noqa: ANN201
        return self.bus.answer(self.bus.request(table_command(table), command))

    def read(self, subject: str, read):   # noqa: ANN001, ANN201
        return self.bus.answer(self.bus.request(subject, read))


@pytest.fixture
def host() -> Host:
    return Host()


def test_commands_come_by_request_and_the_answer_is_the_seat_taken(host):
    assert host.command(tc.Sit("ann", 3, 500)) == {"seat": 3}
    assert host.command(tc.Sit("bob", None, 600, "mobile", True)) == {"seat": 1}
    assert host.read(table_players("t1"), PlayersRead()) == ["bob", "ann"]
    assert host.wallet.balance("ann") == 4500                   # the buy-in moved through the wallet
    assert host.command(tc.SitOut("bob")) == {"seat": 1}
    assert host.runner.table.players[1].sitting_out


def test_HR_STAKE_4_a_refused_command_changes_nothing_and_comes_back_with_its_code_rule_and_amounts(host):
    host.command(tc.Sit("ann", 3, 500))
    seq, published = host.runner.table.seq, len(host.bus.published)
    with pytest.raises(RuleViolation) as refused:
        host.command(tc.Sit("bob", 2, 2000))
    r = refused.value
    assert (r.code, r.rule_id, r.amounts, r.currency) == ("buy_in_out_of_range", "HR-STAKE-4",
                                                          {"min": 400, "max": 1000, "given": 2000}, "USD")
    assert r.message == "the buy-in here is $4.00 to $10.00, not $20.00"
    assert host.runner.table.seq == seq and len(host.bus.published) == published
    assert host.wallet.balance("bob") == 5000 and host.runner.table.seat_of("bob") is None


def test_a_command_only_a_seated_player_may_send_is_refused_before_the_table_sees_it(host):
    host.command(tc.Sit("ann", 3, 500))
    seq = host.runner.table.seq
    for command in (tc.Leave("bob"), tc.Act("bob", "fold", None, None, None), tc.AddChips("bob", 100), tc.SitIn("bob")):
        with pytest.raises(RuleViolation) as refused:
            host.command(command)
        assert refused.value.code == "not_seated"
    assert host.runner.table.seq == seq


def test_a_table_the_host_does_not_run_has_no_responder(host):
    with pytest.raises(NoResponder):
        host.command(tc.Sit("ann", 3, 500), table="t2")


def test_BET_1_an_act_by_request_is_the_client_s_words_and_the_table_knows_the_seat(host):
    host.command(tc.Sit("ann", 1, 500))
    host.command(tc.Sit("bob", 2, 500))
    host.clock.advance(2)                                       # between hands: the hand is dealt
    table = host.runner.table
    legal = table.legal_actions(table.players[table.hand.to_act()].player_id)
    actor = table.players[legal.seat].player_id
    other = "bob" if actor == "ann" else "ann"
    with pytest.raises(RuleViolation) as refused:
        host.command(tc.Act(other, "call", None, None, None))
    assert (refused.value.code, refused.value.rule_id) == ("not_your_turn", "BET-1")
    with pytest.raises(RuleViolation) as refused:
        host.command(tc.Act(actor, "dance", None, None, None))
    assert (refused.value.code, refused.value.rule_id) == ("unknown_command", "BET-1")
    seq = table.seq
    assert host.command(tc.Act(actor, "fold", None, None, None)) == {"seat": legal.seat}
    assert table.seq > seq


def test_HR_DC_2_a_snapshot_and_a_catch_up_are_answered_as_plain_data(host):
    host.command(tc.Sit("ann", 1, 500))
    seq_after_ann = host.runner.table.seq
    host.command(tc.Sit("bob", 2, 500))
    snapshot = host.read(table_snapshot("t1"), SnapshotRead(None))
    assert snapshot["type"] == "table_snapshot" and snapshot["seq"] == host.runner.table.seq
    assert [s["player"] for s in snapshot["seats"] if s["player"]] == ["ann", "bob"]
    missed = host.read(table_catch_up("t1"), CatchUpRead(None, seq_after_ann))
    frames = [dict(f.message, **(f.extra or {})) for f in missed["frames"]]      # Frame records, as a frame goes
    assert [f["type"] for f in frames] == ["table_events"] and frames[-1]["seq"] == host.runner.table.seq
    assert all(e["seq"] > seq_after_ann for e in frames[0]["events"])
    assert host.read(table_catch_up("t1"), CatchUpRead("ann", 0))["snapshot"]["type"] == "table_snapshot"


def test_the_lobby_line_travels_whole_in_lobby_changed_and_its_removal_when_the_table_leaves(host):
    lines = host.bus.on(LOBBY_CHANGED)
    assert lines[0] == LobbyLine("t1", host.host.summary(host.runner), True)
    host.command(tc.Sit("ann", 1, 500))
    assert host.bus.on(LOBBY_CHANGED)[-1].line["taken"] == 1
    host.host.close_table("t1")
    assert host.bus.on(LOBBY_CHANGED)[-1] == LobbyLine("t1", None)
    with pytest.raises(NoResponder):                            # its requests went with it
        host.command(tc.Sit("bob", 2, 500))
    assert host.bus.answer(host.bus.gather(CASH_TABLES_KNOWN, None, 1)) == [{"node": "", "answer": ["t1"]}]   # named


# the session events across the process line: the host disconnects and reconnects seats from the records alone,
# published by a gateway it holds no reference to (none here), on a later turn (HR-DC-1, HR-DC-2)
def connected(host: Host, player: str) -> bool:
    table = host.runner.table
    return table.players[table.seat_of(player)].connected


def test_HR_DC_1_a_gone_record_disconnects_the_seat_on_a_later_turn_only_when_it_was_the_players_session():
    host = Host()
    host.command(tc.Sit("ann", 1, 500))
    host.bus.publish(SESSION_EVENTS, SessionGone("s2", "ann", TAKEN_OVER, False, ("t1",), 1))   # a newer login's
    host.clock.advance(0)
    assert connected(host, "ann")
    host.bus.publish(SESSION_EVENTS, SessionGone("s3", "ann", DISCONNECTED, True, ("t1",), 2))
    assert connected(host, "ann")                           # a message: the host hears it on a later turn
    host.clock.advance(0)
    assert not connected(host, "ann")


def test_HR_DC_2_a_back_record_reconnects_the_seat_at_the_tables_it_names():
    host = Host()
    host.command(tc.Sit("ann", 1, 500))
    host.bus.publish(SESSION_EVENTS, SessionGone("s3", "ann", DISCONNECTED, True, ("t1",), 2))
    host.clock.advance(0)
    assert not connected(host, "ann")
    host.bus.publish(SESSION_EVENTS, SessionBack("s4", "ann", LOGGED_IN, ("t1",), 3))
    host.clock.advance(0)
    assert connected(host, "ann")
