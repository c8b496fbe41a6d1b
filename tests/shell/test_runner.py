"""The one table pipeline: every kind of table is a runner, and one Timer drives any of them on a Clock (HR-TIME-5,
CR-5, CR-6) -- here a casino table, which kept timers of its own before."""

from __future__ import annotations

from twisted.internet.task import Clock

from pokerroom.casino import commands as cc
from pokerroom.casino.betting import Limits
from pokerroom.casino.config import build_table
from pokerroom.casino.events import RoundSettled, RoundVoided
from pokerroom.casino.table import CasinoRules
from pokerroom.shell.cash_runner import TableRunner
from pokerroom.shell.casino_runner import CasinoRunner
from pokerroom.shell.runner import Clocked, Runner, Timer
from pokerroom.shell.tournaments.decisions import DecisionRunner
from pokerroom.shell.tournaments.runner import TournamentRunner
from pokerroom.shell.tournaments.timers import HandRunner


def baccarat() -> tuple[Clock, CasinoRunner, Timer, list]:
    rules = CasinoRules(table_id="bac", name="bac", game="baccarat", limits=Limits(100, 100_000), betting_seconds=10,
                        decision_seconds=5, pause_seconds=2)
    clock, published = Clock(), []
    runner = CasinoRunner(build_table(rules), clock, wallet=None)   # the timer moves no money: the floor does
    timer = Timer(runner, clock, published.extend)
    timer.arm()
    clock.advance(0)                                                # the first round opens at once
    return clock, runner, timer, published


def members(protocol: type) -> set[str]:
    return {name for base in protocol.__mro__ if base is not object for name in vars(base)
            if not name.startswith("_")}


def test_every_kind_of_table_and_the_tournament_is_a_runner_and_a_tournament_tables_clocks_run_on_the_same_timer():
    runner = members(Runner)
    assert runner >= {"apply", "next_deadline", "fire", "transfers", "full", "audiences"}
    for kind in (TableRunner, CasinoRunner, TournamentRunner):
        assert runner <= set(dir(kind)), kind
    for kind in (DecisionRunner, HandRunner):
        assert members(Clocked) <= set(dir(kind)), kind


def test_CR_a_casino_rounds_betting_time_keeps_its_deadline_while_players_join_and_bet_on_the_one_timer():
    clock, runner, timer, published = baccarat()
    assert timer.pending.at == 10.0 and runner.table.phase == "betting"
    clock.advance(4)
    timer.command(cc.Join("ana"))
    timer.command(cc.Bet("ana", "player", 100, 10_000))
    assert timer.pending.at == 10.0 and len(clock.getDelayedCalls()) == 1    # one call, not restarted by a bet
    clock.advance(5.9)
    assert runner.table.phase == "betting"
    clock.advance(0.1)
    assert any(isinstance(e, RoundSettled) for e in published)               # closed, dealt and settled
    assert timer.pending is not None and len(clock.getDelayedCalls()) == 1  # the pause before the next round


def test_CR_5_a_casino_table_that_fails_on_its_deadline_has_its_round_voided_and_plays_on():
    clock, runner, timer, published = baccarat()
    timer.command(cc.Join("ana"))
    timer.command(cc.Bet("ana", "player", 100, 10_000))
    table = runner.table
    dealt = table.apply

    def faulty(command):   # noqa: ANN001, ANN202
        if isinstance(command, cc.Expire):
            raise ValueError("the shoe jammed")
        return dealt(command)

    table.apply = faulty
    clock.advance(10)
    (voided,) = [e for e in published if isinstance(e, RoundVoided)]
    assert voided.refunds == (("ana", 100),) and "technical fault" in voided.reason
    table.apply = dealt
    assert timer.pending is not None                                         # the table goes on
    clock.advance(timer.pending.at - clock.seconds())
    assert table.number == 2
