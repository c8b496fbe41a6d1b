"""The roulette table through its commands (RO, and CR as it applies): layout positions refused or joined at
placement, the spin only after betting closes and only when valid, every bet settled at once. The layout and
payout functions themselves are tested in test_roulette.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.casino import roulette
from pokerroom.casino.betting import Limits
from pokerroom.casino.events import BallLanded, BettingClosed, RoundOpened, RoundSettled, RoundVoided
from pokerroom.casino.roulette_table import MAX_RESPINS, RouletteTable, market_name, parse_market, secure_spin
from pokerroom.casino.table import CasinoRules
from pokerroom.errors import RuleViolation
from tests.casino.drivers import settled
from tests.support.refusals import refused

RICH = 10**9
LEGAL = roulette.all_legal_bets()


def rules(**kw) -> CasinoRules:
    return CasinoRules(table_id="rou-1", name="Roulette", game="roulette",
                       limits=kw.pop("limits", Limits(100, 100_000)),
                       market_limits=kw.pop("market_limits", {"straight": Limits(100, 1_000)}), **kw)


class Wheel:
    """A spin source that hands out the given (pocket, revolutions) in turn and counts the spins."""

    def __init__(self, *spins: tuple[int, int]) -> None:
        self.spins: Iterator[tuple[int, int]] = iter(spins)
        self.calls = 0

    def __call__(self) -> tuple[int, int]:
        self.calls += 1
        return next(self.spins)


def table(*spins: tuple[int, int], **kw) -> RouletteTable:
    t = RouletteTable(rules(**kw), spin=Wheel(*spins))
    t.expire()
    return t


def book(t: RouletteTable) -> tuple:
    rnd = t.round
    return (t.phase, t.number, rnd.state, tuple((b.player, b.market, b.amount) for b in rnd.bets),
            tuple(sorted(rnd.staked.items())))


def returns(t: RouletteTable, bets: dict[str, int]) -> dict[str, int]:
    for market, amount in bets.items():
        t.bet("ann", market, amount, RICH)
    return {p.market: p.returned for p in settled(t.expire()).payouts}


# ---------------------------------------------------------------------------------------------- RO-3, CR-4


def test_RO_3_zero_loses_every_outside_bet_and_pays_the_inside_bets_on_it():
    t = table((0, 5))
    outside = ["red", "black", "odd", "even", "low", "high", "column:1", "column:2", "column:3", "dozen:1",
               "dozen:2", "dozen:3"]
    for market in outside:
        t.bet("ann", market, 100, RICH)
    for market in ("straight:0", "split:0-2", "street:0-1-2", "four"):
        t.bet("ann", market, 100, RICH)
    events = t.expire()
    assert events[:2] == [BettingClosed("rou-1", 1), BallLanded("rou-1", 1, 0, "green")]
    back = {p.market: p.returned for p in settled(events).payouts}
    assert {m: back[m] for m in outside} == dict.fromkeys(outside, 0)
    assert {m: back[m] for m in ("straight:0", "split:0-2", "street:0-1-2", "four")} == {
        "straight:0": 3_600, "split:0-2": 1_800, "street:0-1-2": 1_200, "four": 900}
    assert settled(events).result == "0 green"


def test_CR_4_RO_2_RO_3_every_bet_covering_the_pocket_is_paid_at_the_published_odds():
    back = returns(table((17, 4)), {
        "straight:17": 100, "split:17-20": 100, "street:16-17-18": 100, "corner:17-18-20-21": 100,
        "line:13-18": 100, "column:2": 100, "dozen:2": 100, "black": 100, "odd": 100, "low": 100,
        "red": 100, "even": 100, "high": 100, "straight:18": 100, "dozen:1": 100, "column:3": 100})
    assert back == {
        "straight:17": 3_600, "split:17-20": 1_800, "street:16-17-18": 1_200, "corner:17-18-20-21": 900,
        "line:13-14-15-16-17-18": 600, "column:2": 300, "dozen:2": 300, "black": 200, "odd": 200, "low": 200,
        "red": 0, "even": 0, "high": 0, "straight:18": 0, "dozen:1": 0, "column:3": 0}


def test_CR_4_one_settlement_carries_every_players_bets():
    t = table((32, 6))
    t.bet("ann", "red", 500, RICH)
    t.bet("bob", "black", 300, RICH)
    t.bet("ann", "straight:32", 150, RICH)
    t.bet("cat", "dozen:3", 1_000, RICH)
    result = settled(t.expire())
    assert result.round == 1 and result.result == "32 red"
    assert [(p.player, p.market, p.staked, p.returned, p.detail) for p in result.payouts] == [
        ("ann", "red", 500, 1_000, "32 red"), ("bob", "black", 300, 0, "32 red"),
        ("ann", "straight:32", 150, 5_400, "32 red"), ("cat", "dozen:3", 1_000, 3_000, "32 red")]


def test_CR_4_the_wheel_spins_with_no_bets_and_the_result_is_kept():
    t = table((7, 3))
    result = settled(t.expire())
    assert result.payouts == () and list(t.results) == [(1, "7 red")]


# ---------------------------------------------------------------------------------------------- RO-4


def test_RO_4_the_ball_is_spun_only_after_betting_closes():
    wheel = Wheel((12, 5))
    t = RouletteTable(rules(), spin=wheel)
    t.expire()
    t.bet("ann", "red", 100, RICH)
    assert wheel.calls == 0
    t.expire()
    assert wheel.calls == 1


def test_RO_4_an_invalid_spin_is_spun_again_and_never_settled():
    wheel = Wheel((5, 2), (9, 0), (26, 1), (17, 3))
    t = RouletteTable(rules(), spin=wheel)
    t.expire()
    t.bet("ann", "straight:5", 100, RICH)
    t.bet("ann", "straight:9", 100, RICH)
    t.bet("ann", "straight:17", 100, RICH)
    events = t.expire()
    assert wheel.calls == 4
    assert [e for e in events if isinstance(e, BallLanded)] == [BallLanded("rou-1", 1, 17, "black")]
    assert {p.market: p.returned for p in settled(events).payouts} == {
        "straight:5": 0, "straight:9": 0, "straight:17": 3_600}
    assert t.statistics() == {"17": 1} and list(t.results) == [(1, "17 black")]


def test_RO_4_CR_5_a_wheel_giving_no_valid_spin_voids_the_round_and_refunds():
    wheel = Wheel(*[(n, 2) for n in range(MAX_RESPINS + 5)])
    t = RouletteTable(rules(), spin=wheel)
    t.expire()
    t.bet("ann", "straight:1", 100, RICH)
    t.bet("bob", "red", 400, RICH)
    events = t.expire()
    assert wheel.calls == MAX_RESPINS
    assert not [e for e in events if isinstance(e, (BallLanded, RoundSettled))]
    assert events[-1] == RoundVoided("rou-1", 1, f"no valid spin in {MAX_RESPINS} tries", (("ann", 100), ("bob", 400)))
    assert t.results[-1] == (1, "void") and t.phase == "settled"


def test_RO_4_HR_RNG_1_the_default_spin_is_a_pocket_and_a_valid_number_of_revolutions():
    spins = [secure_spin() for _ in range(2_000)]
    assert {p for p, _ in spins} == set(range(37))
    assert {r for _, r in spins} <= set(range(3, 9)) and min(r for _, r in spins) >= roulette.MIN_REVOLUTIONS


# ---------------------------------------------------------------------------------------------- RO-5


@pytest.mark.parametrize(("market", "why"), [
    ("split:1-5", "not adjacent"),
    ("split:0-4", "0 touches only 1, 2 and 3"),
    ("split:17-17", "more than once"),
    ("street:1-2-4", "do not form a street"),
    ("corner:1-2-3-4", "do not form a corner"),
    ("corner:0-1-2-3", "'four' bet"),
    ("line:1-5", "covers exactly 6 numbers"),
    ("line:34-39", "not on the layout"),
    ("straight:37", "number 37 is not on the layout"),
    ("straight:", "covers exactly 1 number"),
    ("straight:1-2", "covers exactly 1 number"),
    ("straight:-1", "cannot read"),
    ("straight:²", "cannot read"),
    ("straight:17.0", "cannot read"),
    ("split:17 20", "cannot read"),
    ("column:4", "no column 4"),
    ("dozen:", "names which one"),
    ("column", "names which one"),
    ("red:1", "takes no numbers"),
    ("four:0-1-2-3", "takes no numbers"),
    ("zero", "there is no 'zero' bet"),
    ("Red", "there is no 'Red' bet"),
    ("", "there is no '' bet"),
])
def test_RO_5_an_illegal_position_is_refused_at_placement_with_a_clear_reason(market, why):
    t = table((1, 3))
    t.bet("ann", "red", 100, RICH)
    error = refused(t.bet, "ann", market, 100, RICH, keeps=partial(book, t))
    assert (error.code, error.rule_id) == ("illegal_bet", "RO-5")
    assert why in error.message


@pytest.mark.parametrize("ways", [
    ["split:17-20", "split:20-17"],
    ["corner:1-2-4-5", "corner:5-4-2-1", "corner:2-5-1-4"],
    ["street:13-14-15", "street:15-13-14"],
    ["line:1-6", "line:6-1", "line:1-2-3-4-5-6", "line:6-5-4-3-2-1"],
    ["column:2", "column:02"],
    ["split:0-1", "split:1-0"],
])
def test_RO_5_one_position_written_several_ways_is_one_bet(ways):
    t = table((1, 3))
    names = {t.bet("ann", way, 100, RICH)[0].market for way in ways}
    assert len(names) == 1
    assert [(b.market, b.amount) for b in t.round.bets] == [(names.pop(), 100 * len(ways))]


def test_RO_5_every_legal_position_is_taken_under_one_name_that_reads_back_as_itself():
    names = {market_name(bet) for bet in LEGAL}
    assert len(names) == len(LEGAL) == 157
    for bet in LEGAL:
        assert parse_market(market_name(bet)) == bet


def test_CR_3_the_straight_up_limit_applies_to_every_number_and_joined_chips_count():
    t = table((1, 3))
    t.bet("ann", "straight:17", 600, RICH)
    error = refused(t.bet, "ann", "straight:17", 401, RICH, keeps=partial(book, t))
    assert (error.code, error.rule_id) == ("above_maximum", "CR-3")
    assert error.message == "the maximum bet on straight:17 is 1000; 1001 is above it"
    t.bet("ann", "straight:17", 400, RICH)
    t.bet("ann", "straight:0", 1_000, RICH)
    t.bet("ann", "split:17-20", 5_000, RICH)                  # other kinds keep the table's limits
    with pytest.raises(RuleViolation) as info:
        t.bet("ann", "red", 100_001, RICH)
    assert info.value.code == "above_maximum"


def test_CR_1_the_roulette_table_describes_its_rules_paytable_and_limits():
    described = table().describe()
    assert json.loads(json.dumps(described)) == described
    assert described["game"] == "roulette" and len(described["rules"]) >= 5
    assert dict(map(tuple, described["paytable"])) == {
        "straight": "35:1", "split": "17:1", "street": "11:1", "corner": "8:1", "four": "8:1", "line": "5:1",
        "column": "2:1", "dozen": "2:1", "red": "1:1", "black": "1:1", "odd": "1:1", "even": "1:1", "low": "1:1",
        "high": "1:1"}
    assert described["limits"] == {"default": [100, 100_000], "straight": [100, 1_000]}
    assert any("Zero loses every outside bet" in line for line in described["rules"])


def test_CR_7_spins_are_numbered_one_by_one_with_results_and_statistics():
    t = RouletteTable(rules(), spin=Wheel((17, 3), (0, 4), (17, 5), (32, 3)))
    opened = []
    for _ in range(4):
        opened += [e.round for e in t.expire() if isinstance(e, RoundOpened)]
        t.expire()
    assert opened == [1, 2, 3, 4]
    assert list(t.results) == [(1, "17 black"), (2, "0 green"), (3, "17 black"), (4, "32 red")]
    assert t.statistics() == {"17": 2, "0": 1, "32": 1}
    assert t.summary()["round"] == 4 and t.view(None)["results"][0] == [1, "17 black"]


# ---------------------------------------------------------------------------------------------- the edge


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(LEGAL), st.integers(1, 10_000)), min_size=1, max_size=12))
def test_RO_2_RO_3_over_every_pocket_the_house_keeps_exactly_1_in_37_of_every_stake(bets):
    stake, kept = 0, 0
    for pocket in roulette.POCKETS:                           # each pocket forced once
        t = RouletteTable(rules(limits=Limits(1, 10**7), market_limits={}), spin=lambda p=pocket: (p, 3))
        t.expire()
        staked = sum(t.bet("ann", market_name(bet), amount, RICH)[1].amount for bet, amount in bets)
        result = settled(t.expire())
        assert sum(p.staked for p in result.payouts) == staked
        kept += staked - sum(p.returned for p in result.payouts)
        stake += staked
    assert kept * 37 == stake                                 # the average over the pockets: 1/37 of the stake
