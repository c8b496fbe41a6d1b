"""The acceptance run of issue #9: bots at four real cash tables, one guilty pair planted (SEC-3).

``pokerroom.security.simulate`` plays the hands through ``CashTable`` with a
seeded deck; the guilty pair sits together, never bets into each other after
the flop and dumps chips; a household shares an IP address and plays honestly.
"""

from __future__ import annotations

import pytest

from pokerroom.security import simulate as sim
from pokerroom.security.signals import FLAG_THRESHOLD

HANDS = 3000                # about two seconds here; the guilty pair has some 700 hands together
FALSE_POSITIVE_BOUND = 0.02


@pytest.fixture(scope="module")
def report() -> sim.SimulationReport:
    return sim.run(HANDS, seed=1)


def test_SEC_3_planted_collusion_ranks_the_guilty_pair_first(report):
    assert report.hands == HANDS
    assert report.guilty_rank == 1 and report.top[0].players == tuple(sorted(sim.GUILTY))
    guilty = report.guilty
    assert guilty.score >= FLAG_THRESHOLD
    leading = guilty.leading(3)
    assert "soft_play" in leading and "chip_dumping" in leading
    assert report.household_rank > 3
    assert report.household.score < FLAG_THRESHOLD
    assert report.false_positive_rate < FALSE_POSITIVE_BOUND
    assert report.honest_pairs > 300            # nearly every pair of the 28 players met


def test_SEC_3_the_reviewer_sees_why_with_the_hands_behind_it(report):
    soft = report.guilty.signals["soft_play"]
    assert "colluder1 bet or raised" in soft.why and soft.hands
    dumping = report.guilty.signals["chip_dumping"]
    assert "colluder1 folded to colluder2's bet or raise" in dumping.why and dumping.hands
    text = sim.format_report(report)
    assert "seeded deck (seed 1)" in text
    assert "guilty pair colluder1 + colluder2: rank 1" in text
    assert f"threshold {FLAG_THRESHOLD:.2f}" in text
    assert text.count("\n") > 12


def test_SEC_3_the_simulation_repeats_exactly_with_its_seed():
    first, again = sim.run(200, seed=5), sim.run(200, seed=5)
    assert [(e.players, e.score) for e in first.top] == [(e.players, e.score) for e in again.top]


def test_SEC_3_the_command_line_prints_the_report(capsys):
    assert sim.main(["--hands", "120", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("planted collusion: 120 hands") and "false positives:" in out
