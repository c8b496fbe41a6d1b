"""A tournament's commands as records: one ``Director.apply`` by type, the same records on the bus, the hall's
timers carrying typed commands (no method names as strings) and refusals kept whole."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pytest
from twisted.internet.task import Clock

from pokerroom.bus.records import RECORDS, packb, unpackb
from pokerroom.bus.strict import StrictBus
from pokerroom.bus.subjects import tournament_command
from pokerroom.errors import RuleViolation
from pokerroom.players import AccountRules
from pokerroom.shell.composition import RoomServices
from pokerroom.shell.promotions_desk import fund_promotions
from tests.support.clocked_room import request
from tests.support.hall_lobby import Lobby, hall_of
from tests.support.hall_lobby import started as hall_started
from tests.tournament.director_drivers import Room, spec, started
from tournament import commands as tc
from tournament import director as td
from tournament.structure import Break

# one value of every command, as a process on the other side of the bus would send it
EVERY = (tc.LevelUp(), tc.StartBreak(), tc.EndBreak(), tc.Start(), tc.CatchUp(), tc.Deal("t-1", tuple(range(52))),
         tc.SendHand("t-1"), tc.ReturnHand("t-1", "t-1-4", {"ana": 100, "bob": 50}, {"ana": 150, "bob": 0},
                                            ("bob", "ana"), {"bob": ("ana",)}),
         tc.VoidHand("t-1", "t-1-4"), tc.DealExpired(), tc.Timeout("ana"), tc.Act("ana", "raise", 300, "d-1"),
         tc.MuckChoice("ana", False),
         tc.Register("ana", 1000, "", False),
         tc.Unregister("ana", 12.5), tc.Rebuy("ana", 1000), tc.AddOn("ana", 1000),
         tc.SellShares("ana", "bob", 10, 20, 5000), tc.ProposeDeal("ana", "icm", 0), tc.AnswerDeal("bob", True),
         tc.Pause("boss", "a dispute"), tc.Resume("boss"), tc.Cancel("not enough players"),
         tc.RemovePlayer("ana"), tc.MovePlayer("ana", "t-2", "boss"), tc.BreakTable("t-2"), tc.BalanceNow(),
         tc.DecideDeal(True, "boss", "fair"), tc.Broadcast("five minutes", "boss"))


def test_every_tournament_command_is_a_bus_record_that_survives_a_brokers_round_trip():
    assert {type(c) for c in EVERY} == set(tc.APPLY)                # every command the director takes, tested
    declared = set(RECORDS.values())
    for command in EVERY:
        assert type(command) in declared
        assert unpackb(packb(command)) == command


@dataclass(frozen=True, slots=True)
class Sabotage:
    """A record the director has no handler for."""

    player: str


def test_a_command_of_no_known_type_is_refused_with_a_code_and_changes_nothing():
    room = started(["a", "b", "c"])
    d = room.director
    before = (d.state, d.clock.level, sorted(d.entries))
    for stranger in (Sabotage("a"), "level_up", {"type": "level_up"}, None):
        with pytest.raises(RuleViolation) as e:
            d.apply(stranger)
        assert e.value.code == "unknown_command" and "tournament has no command" in e.value.message
    assert (d.state, d.clock.level, sorted(d.entries)) == before


def test_TR_PLAY_1_TR_PLAY_2_the_clock_names_its_next_command_as_a_record_and_applying_it_moves_the_clock():
    room = started([f"p{i}" for i in range(8)], breaks=(Break(2, 300),))
    d = room.director
    assert d.clock.next_command() == (tc.LevelUp(), 600) and d.clock.schedule() == ("level_up", 600)
    room.apply(d.apply(unpackb(packb(d.clock.next_command()[0]))))      # as it would come over the bus
    assert d.clock.level == 2 and room.of(td.LevelStarted)[-1].big_blind == 200
    assert d.clock.next_command() == (tc.StartBreak(), 600)
    room.apply(d.apply(tc.StartBreak()))
    assert d.clock.on_break and d.clock.next_command() == (tc.EndBreak(), 300)
    room.apply(d.apply(tc.EndBreak()))
    assert d.clock.level == 3 and not d.clock.on_break


def test_TR_PLAY_2_a_refused_record_keeps_its_code_sentence_and_rule():
    room = started(["a", "b", "c"])
    d = room.director
    with pytest.raises(RuleViolation) as e:
        d.apply(tc.EndBreak())
    assert (e.value.code, e.value.rule_id, e.value.message) == ("not_on_break", "TR-PLAY-2",
                                                                 "the tournament is not on a break")


def test_TR_REG_6_a_players_records_register_act_and_are_refused_as_the_methods_were():
    room = Room(spec())
    for p in ("a", "b"):
        room.fund(p)
        room.apply(room.director.apply(tc.Register(p, room.cash(p))))
    d = room.director
    with pytest.raises(RuleViolation) as e:
        d.apply(tc.Register("a", room.cash("a")))
    assert e.value.code == "already_registered" and e.value.rule_id == "TR-REG-6"
    room.apply(d.apply(tc.Start()))
    table = d.tables[room.only_table()]
    room.apply(d.apply(tc.Deal(table.id, tuple(range(52)))))
    player, legal = table.to_act()
    with pytest.raises(RuleViolation) as e:                     # a raise to less than the least raise
        d.apply(tc.Act(player, "raise", legal.min_to - 1, None))
    assert e.value.code and e.value.amounts                     # its amounts kept, for the shell to price
    room.apply(d.apply(tc.Act(player, "fold", None, None)))          # heads-up: the fold ends the hand
    assert table.hand is None and len(room.of(td.HandPlayed)) == 1


def test_TR_PLAY_1_the_halls_level_clock_holds_a_typed_command_and_sends_it_when_due(store):
    lobby, d = hall_started(store, level_seconds=100)
    command, at = lobby.hall.timers.clock["sng"]
    assert command == tc.LevelUp() and dataclasses.is_dataclass(command)
    assert lobby.hall.runner("sng").timer.pending.command == command    # the one Timer waits for it
    lobby.clock.advance(at - lobby.clock.seconds())
    assert d.clock.level == 2
    assert lobby.hall.timers.clock["sng"][0] in (tc.LevelUp(), tc.StartBreak())


class StrictLobby(Lobby):
    """The hall's lobby on the strict bus: every request a service sends is a broker's round trip, a later turn."""

    def __init__(self, store) -> None:   # noqa: ANN001
        self.clock = Clock()
        self.room = RoomServices([], store, self.clock, account_rules=AccountRules(), bus=StrictBus(self.clock))
        self.room.startService()
        self.hall = hall_of(self.room, decision_seconds=10, between_hands=1, clock_scale=1)
        self.hall.install()
        fund_promotions(self.room.wallet, self.room.recorder, "deposit", 10_000_000, "house",
                        "guarantees of the tests' events")
        self.rid = 0
        self.people = {}

    def ask(self, who: str, kind: str, /, **fields) -> dict:
        self.rid += 1
        return request(self.room, self.people[who][0], kind, self.rid, **fields)


def strict_answer(lobby: StrictLobby, asked):   # noqa: ANN001, ANN201
    out: list = []
    asked.addBoth(out.append)           # (``called`` is true of a Deferred still waiting on one it chained)
    for _ in range(20):
        if out:
            break
        lobby.clock.advance(0)
    assert out, "no answer came"
    return out[0].value if hasattr(out[0], "raiseException") else out[0]


def test_TR_REG_1_a_tournaments_commands_go_as_requests_on_the_strict_bus_and_refusals_keep_their_codes(store):
    lobby = StrictLobby(store)
    lobby.create()
    for name in ("ana", "bo", "cy"):
        lobby.person(name)
        assert lobby.ask(name, "tournament_register", tournament="sng")["ok"]
    d = lobby.hall.directors["sng"]
    assert d.state == td.RUNNING
    paused = lobby.ask("boss", "director_pause", tournament="sng", reason="a dispute")
    assert paused["ok"] and d.clock.paused and "sng" in lobby.hall.timers.paused_left   # the clock held too
    again = lobby.ask("boss", "director_pause", tournament="sng", reason="twice")
    assert not again["ok"] and (again["error"]["code"], again["error"]["rule"]) == ("paused", "TR-REG-1")
    bus = lobby.room.bus
    refused = strict_answer(lobby, bus.request(tournament_command("sng"), tc.Resume("boss")))
    assert refused == {} and not d.clock.paused
    for stranger in (tc.LevelUp(), tc.Deal("t", tuple(range(52))), tc.Register("ana", 10**9)):
        refused = strict_answer(lobby, bus.request(tournament_command("sng"), stranger))
        assert isinstance(refused, RuleViolation) and refused.code == "unknown_command"
    assert d.clock.level == 1
    gone = lobby.ask("ana", "tournament_rebuy", tournament="no-such-event")
    assert not gone["ok"] and gone["error"]["code"] == "unknown_tournament"
