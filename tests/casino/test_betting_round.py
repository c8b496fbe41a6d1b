"""One round's bets from the first chip to the last payout (CR-2, CR-3, CR-4, CR-5), and the same life cycle
through the tables: every refusal changes nothing and every staked chip is settled exactly once.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerroom.casino.betting import (
    CLOSED,
    DEALING,
    OPEN,
    SETTLED,
    TRANSITIONS,
    VOID,
    Bet,
    BettingRound,
    Limits,
    limits_for,
)
from pokerroom.casino.events import BetPlaced, BettingClosed, RoundOpened, RoundSettled, RoundVoided, Staked
from pokerroom.casino.punto_banco import BaccaratTable
from pokerroom.casino.roulette_table import RouletteTable
from pokerroom.casino.shoe import stacked
from pokerroom.casino.table import CasinoRules
from pokerroom.errors import RuleViolation
from tests.support.refusals import refused

LIMITS = Limits(100, 10_000)
RICH = 10**9
STATES = (OPEN, CLOSED, DEALING, SETTLED, VOID)
PATH = {OPEN: [], CLOSED: [CLOSED], DEALING: [CLOSED, DEALING], SETTLED: [CLOSED, DEALING, SETTLED],
        VOID: [VOID]}


def book(rnd: BettingRound) -> tuple:
    """Everything a refusal must leave alone."""
    return (rnd.state, rnd.window, tuple((b.player, b.market, b.amount, b.window, b.odds, b.seat, b.extra)
                                         for b in rnd.bets), tuple(sorted(rnd.staked.items())))


def round_in(state: str) -> BettingRound:
    rnd = BettingRound("t1", 7)
    rnd.place("ann", "player", 500, LIMITS, RICH)
    for step in PATH[state]:
        rnd._move(step)
    assert rnd.state == state
    return rnd


# ---------------------------------------------------------------------------------------------- CR-2


def test_CR_2_the_transition_table_is_the_documented_life_cycle():
    assert TRANSITIONS == {
        OPEN: {CLOSED, VOID},
        CLOSED: {DEALING, VOID},
        DEALING: {OPEN, SETTLED, VOID},
        SETTLED: set(),
        VOID: set(),
    }


@pytest.mark.parametrize(("start", "to"), list(itertools.product(STATES, STATES)))
def test_CR_2_every_state_change_follows_the_transitions_and_an_illegal_one_is_refused(start, to):
    rnd = round_in(start)
    before = book(rnd)
    if to in TRANSITIONS[start]:
        rnd._move(to)
        assert rnd.state == to
    else:
        error = refused(rnd._move, to, code="round_state")
        assert error.rule_id == "CR-2"
        assert f"round 7 is {start}" in error.message and to in error.message
        assert book(rnd) == before


def test_CR_2_the_public_steps_walk_the_life_cycle():
    rnd = BettingRound("t1", 3)
    assert rnd.state == OPEN and rnd.window == 1
    assert rnd.close() == [BettingClosed("t1", 3, 1)]
    refused(rnd.close, code="round_state")                   # closed twice
    refused(rnd.reopen, code="round_state")                  # a window reopens only from dealing
    rnd.dealing()
    rnd.reopen()
    assert rnd.state == OPEN and rnd.window == 2
    assert rnd.close() == [BettingClosed("t1", 3, 2)]
    rnd.dealing()
    rnd.settle(lambda bet: (0, ""), "done")
    assert rnd.state == SETTLED
    for step in (rnd.close, rnd.dealing, rnd.reopen):
        refused(step, code="round_state")
    refused(rnd.void, "too late", code="round_state")
    refused(rnd.settle, lambda bet: (0, ""), "again", code="round_state")
    assert rnd.state == SETTLED


@pytest.mark.parametrize("state", [CLOSED, DEALING, SETTLED, VOID])
def test_CR_2_no_bet_is_accepted_or_increased_after_no_more_bets(state):
    rnd = round_in(state)
    before = book(rnd)
    for market in ("player", "banker"):                 # an increase, and a new bet
        error = refused(rnd.place, "ann", market, 100, LIMITS, RICH, code="betting_closed")
        assert error.rule_id == "CR-2" and "no more bets" in error.message
    assert book(rnd) == before


def test_CR_2_a_settle_straight_from_open_is_refused():
    rnd = round_in(OPEN)
    before = book(rnd)
    refused(rnd.settle, lambda bet: (0, ""), "no", code="round_state")
    assert book(rnd) == before


# ---------------------------------------------------------------------------------------------- CR-3


@pytest.mark.parametrize(("code", "market", "amount", "message"), [
    ("below_minimum", "player", 99, "the minimum bet on player is 100; 99 is below it"),
    ("above_maximum", "tie", 10_001, "the maximum bet on tie is 10000; 10001 is above it"),
])
def test_CR_3_outside_the_limits_is_refused_with_its_own_reason_and_nothing_changes(code, market, amount, message):
    rnd = BettingRound("t1", 1)
    before = book(rnd)
    error = refused(rnd.place, "ann", market, amount, LIMITS, RICH, code=code)
    assert error.rule_id == "CR-3"
    assert error.message == message
    assert book(rnd) == before


def test_CR_3_chips_joining_a_bet_count_toward_the_maximum():
    rnd = BettingRound("t1", 1)
    rnd.place("ann", "player", 6_000, LIMITS, RICH)
    before = book(rnd)
    error = refused(rnd.place, "ann", "player", 4_001, LIMITS, RICH, code="above_maximum")
    assert "10001 is above it" in error.message and error.rule_id == "CR-3"
    assert book(rnd) == before
    rnd.place("ann", "player", 4_000, LIMITS, RICH)      # exactly the maximum is fine
    assert [b.amount for b in rnd.bets] == [10_000]
    rnd.place("bob", "player", 10_000, LIMITS, RICH)     # another player's bet is their own
    assert [b.amount for b in rnd.bets] == [10_000, 10_000]


def test_CR_3_chips_joining_a_bet_count_toward_the_minimum():
    rnd = BettingRound("t1", 1)
    rnd.place("ann", "player", 100, LIMITS, RICH)
    events = rnd.place("ann", "player", 1, LIMITS, RICH)
    assert events[0] == BetPlaced("t1", 1, "ann", "player", 101)
    assert events[1] == Staked("t1", 1, "ann", 1, "bet")


def test_CR_3_a_player_without_the_funds_is_refused_with_its_own_reason_and_nothing_changes():
    rnd = BettingRound("t1", 1)
    rnd.place("ann", "player", 300, LIMITS, 300)        # exactly the funds is enough
    before = book(rnd)
    error = refused(rnd.place, "ann", "player", 200, LIMITS, 199, code="insufficient_funds")
    assert error.rule_id == "CR-3"
    assert error.message == "you have 199 in your wallet; the bet needs 200"
    assert book(rnd) == before
    rnd.place("ann", "player", 200, LIMITS, 200)        # only the new chips need funds
    assert rnd.staked == {"ann": 500}


@pytest.mark.parametrize("amount", [0, -100, 150.0, True, "100", None])
def test_CR_3_an_amount_that_is_not_a_positive_whole_number_is_refused(amount):
    rnd = BettingRound("t1", 1)
    before = book(rnd)
    error = refused(rnd.place, "ann", "player", amount, LIMITS, RICH, code="bad_amount")
    assert error.rule_id == "CR-3"
    assert book(rnd) == before


def test_CR_3_each_refusal_has_a_distinct_code():
    rnd = BettingRound("t1", 1)
    codes = set()
    for amount, funds in ((50, RICH), (20_000, RICH), (500, 10), (0, RICH)):
        with pytest.raises(RuleViolation) as info:
            rnd.place("ann", "player", amount, LIMITS, funds)
        codes.add(info.value.code)
    rnd.close()
    with pytest.raises(RuleViolation) as info:
        rnd.place("ann", "player", 500, LIMITS, RICH)
    codes.add(info.value.code)
    assert codes == {"below_minimum", "above_maximum", "insufficient_funds", "bad_amount", "betting_closed"}


def test_CR_3_limits_are_checked_and_found_per_market_kind():
    with pytest.raises(ValueError):
        Limits(0, 100)
    with pytest.raises(ValueError):
        Limits(200, 100)
    straight = Limits(100, 1_000)
    assert limits_for({"straight": straight}, LIMITS, "straight:17") is straight
    assert limits_for({"straight": straight}, LIMITS, "split:17-20") is LIMITS


# ---------------------------------------------------------------------------------------------- BA-5 / BOB-2


def test_BA_5_chips_on_the_same_market_join_one_bet():
    rnd = BettingRound("t1", 1)
    assert rnd.place("ann", "banker", 100, LIMITS, RICH)[0].amount == 100
    assert rnd.place("ann", "banker", 250, LIMITS, RICH)[0].amount == 350
    assert len(rnd.bets) == 1 and rnd.bets[0].amount == 350 and rnd.staked == {"ann": 350}


def test_BOB_2_the_same_market_in_two_windows_is_two_bets_each_with_its_odds():
    rnd = BettingRound("t1", 1)
    rnd.place("ann", "player", 100, LIMITS, RICH, odds=195)
    rnd.close()
    rnd.dealing()
    rnd.reopen()
    placed = rnd.place("ann", "player", 200, LIMITS, RICH, odds=210)
    assert placed[0] == BetPlaced("t1", 1, "ann", "player", 200, 210)
    assert [(b.window, b.amount, b.odds) for b in rnd.bets] == [(1, 100, 195), (2, 200, 210)]
    rnd.place("ann", "player", 100, LIMITS, RICH, odds=999)     # joins window 2: keeps the odds it had
    assert [(b.window, b.amount, b.odds) for b in rnd.bets] == [(1, 100, 195), (2, 300, 210)]


# ---------------------------------------------------------------------------------------------- CR-4, CR-5


def test_CR_4_one_settlement_carries_every_bet_with_what_it_hands_back():
    rnd = BettingRound("t1", 9)
    rnd.place("ann", "player", 100, LIMITS, RICH)
    rnd.place("bob", "banker", 200, LIMITS, RICH)
    rnd.place("ann", "tie", 300, LIMITS, RICH)
    rnd.stake_more(rnd.bets[0], 100, "double")
    rnd.close()
    settled = rnd.settle(lambda bet: ({"player": 400, "banker": 0, "tie": 300}[bet.market], bet.market), "result")
    assert isinstance(settled, RoundSettled) and settled.round == 9 and settled.result == "result"
    assert [(p.player, p.market, p.staked, p.returned, p.detail) for p in settled.payouts] == [
        ("ann", "player", 200, 400, "player"), ("bob", "banker", 200, 0, "banker"), ("ann", "tie", 300, 300, "tie")]
    assert sum(p.staked for p in settled.payouts) == sum(rnd.staked.values()) == 700
    assert rnd.state == SETTLED


def test_CR_4_a_bet_the_game_adds_after_close_is_settled_too():
    rnd = BettingRound("t1", 1)
    rnd.place("ann", "main", 200, LIMITS, RICH)
    rnd.close()
    staked = rnd.add_bet(Bet("ann", "insurance", 100))
    assert staked == Staked("t1", 1, "ann", 100, "insurance")
    settled = rnd.settle(lambda bet: (0, "lost"), "dealer 20")
    assert [p.market for p in settled.payouts] == ["main", "insurance"] and rnd.staked == {"ann": 300}


@pytest.mark.parametrize("state", [OPEN, CLOSED, DEALING])
def test_CR_5_void_refunds_every_stake_exactly_and_pays_nothing(state):
    rnd = round_in(state)                                   # ann: 500 on player
    if state == OPEN:
        rnd.place("bob", "banker", 250, LIMITS, RICH)
        rnd.place("ann", "tie", 120, LIMITS, RICH)
        rnd.place("bob", "banker", 130, LIMITS, RICH)
        refunds = (("ann", 620), ("bob", 380))
    else:
        refunds = (("ann", 500),)
    voided = rnd.void("the card reader failed")
    assert voided == RoundVoided("t1", 7, "the card reader failed", refunds)
    assert rnd.state == VOID
    refused(rnd.settle, lambda bet: (bet.amount * 2, ""), "after the void", code="round_state")
    refused(rnd.void, "twice", code="round_state")


# ------------------------------------------------------------------------------- the same through the tables


def table_rules(game: str) -> CasinoRules:
    return CasinoRules(table_id=f"t-{game}", name=game, game=game, limits=Limits(100, 10_000),
                       market_limits={"tie": Limits(100, 2_000), "straight": Limits(100, 1_000)})


BACCARAT_MARKETS = ["player", "banker", "tie", "Player", "pair", ""]
ROULETTE_MARKETS = ["straight:17", "straight:0", "split:17-20", "split:20-17", "street:13-14-15", "corner:1-2-4-5",
                    "four", "line:1-6", "column:2", "dozen:3", "red", "black", "odd", "even", "low", "high",
                    "split:1-5", "straight:37", "corner:0-1-2-3", "column:4", "red:1", "straight:", "zero"]
AMOUNTS = [0, -1, 1, 99, 100, 150, 999, 1_000, 1_001, 2_000, 2_001, 5_000, 10_000, 10_001]
BETS = st.lists(st.tuples(st.sampled_from(["ann", "bob", "cat"]), st.integers(0, 10**6), st.sampled_from(AMOUNTS),
                          st.sampled_from([0, 100, 5_000, RICH])), max_size=25)


def play_through(table, bets, markets) -> None:
    opened = table.expire()
    assert isinstance(opened[-1], RoundOpened)
    staked = []
    for player, which, amount, funds in bets:
        market = markets[which % len(markets)]
        before = book(table.round)
        try:
            events = table.bet(player, market, amount, funds)
        except RuleViolation as e:
            assert e.code and e.message and e.rule_id        # a reason, and the rule it comes from
            assert book(table.round) == before              # a refusal changes nothing
            continue
        placed, stake = events
        assert isinstance(placed, BetPlaced) and isinstance(stake, Staked) and stake.amount == amount
        staked.append(stake)
    ended = table.expire()
    settled = [e for e in ended if isinstance(e, RoundSettled)]
    assert len(settled) == 1                                # CR-4: every bet settles at once
    payouts = settled[0].payouts
    assert len(payouts) == len(table.round.bets)
    assert sum(s.amount for s in staked) == sum(p.staked for p in payouts)
    for player in {s.player for s in staked}:
        assert sum(s.amount for s in staked if s.player == player) == \
            sum(p.staked for p in payouts if p.player == player)
    assert len({(p.player, p.market) for p in payouts}) == len(payouts)    # chips joined one bet per market
    for p in payouts:
        assert p.returned >= 0
    if isinstance(table, BaccaratTable):
        tie_stakes = [p.staked for p in payouts if p.market == "tie"]
        assert all(s <= 2_000 for s in tie_stakes)          # the per-market limit held across joined chips
    # and nothing more is taken once the round is over
    with pytest.raises(RuleViolation) as late:
        table.bet("ann", markets[0], 100, RICH)
    assert late.value.code == "betting_closed"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bets=BETS, pocket=st.integers(0, 36))
def test_CR_3_CR_4_roulette_stakes_are_settled_exactly_and_refusals_change_nothing(bets, pocket):
    table = RouletteTable(table_rules("roulette"), spin=lambda: (pocket, 4))
    play_through(table, bets, ROULETTE_MARKETS)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bets=BETS, front=st.lists(st.integers(0, 51), min_size=6, max_size=6))
def test_CR_3_CR_4_baccarat_stakes_are_settled_exactly_and_refusals_change_nothing(bets, front):
    table = BaccaratTable(table_rules("baccarat"), source=stacked(front))
    play_through(table, bets, BACCARAT_MARKETS)
