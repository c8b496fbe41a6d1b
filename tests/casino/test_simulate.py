"""``pokerroom simulate-casino``: bots at every game through the real tables, the money checked every round,
the measured RTP beside the exact one -- and the casino's one money path (:mod:`pokerroom.casino.money`)."""

from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import replace

import pytest

from pokerroom.cards import parse
from pokerroom.casino import blackjack_rules as bj
from pokerroom.casino import simulate as sim
from pokerroom.casino.betting import BettingRound
from pokerroom.casino.events import Payout, RoundOpened, RoundSettled, RoundVoided, Staked
from pokerroom.casino.infinite_blackjack import InfiniteBlackjackTable
from pokerroom.casino.money import casino_transfers
from pokerroom.cli import main
from pokerroom.money.ledger import HOUSE_CASINO, WORLD, Ledger, Posting, cash, casino_escrow, check_postings

BET_TYPES = {
    "baccarat": ["player", "banker", "tie"],
    "bet_on_baccarat": ["player", "banker", "tie", "player_pair", "banker_pair", "any_pair", "perfect_pair",
                        "small", "big"],
    "blackjack": ["main"],
    "infinite_blackjack": ["main", "pairs", "bust_bonus", "lucky_trio", "poker_trio"],
    "roulette": ["straight", "split", "street", "corner", "four", "line", "column", "dozen", "red", "black", "odd",
                 "even", "low", "high"],
}
ROUNDS = {"baccarat": 80, "bet_on_baccarat": 12, "blackjack": 60, "infinite_blackjack": 60, "roulette": 40}


@pytest.mark.parametrize("game", sorted(BET_TYPES))
def test_every_game_runs_with_its_money_checked_and_reports_one_line_per_bet_type(game):
    report = sim.simulate(game, ROUNDS[game], players=2, seed=11)
    assert [m.market for m in report.markets] == BET_TYPES[game]
    lines = report.lines()
    market_lines = [line for line in lines if line.startswith("  ")]
    assert [line.split()[0] for line in market_lines] == BET_TYPES[game]
    assert lines[-1].startswith("checks passed after every round")
    assert report.rounds == ROUNDS[game] and report.voided == 0
    for m in report.markets:
        assert m.tally.staked > 0 and m.tally.rounds <= report.rounds
        assert ("inside CI" in m.line()) == (m.exact.value is not None)
    assert report.house == sum(m.tally.staked - m.tally.returned for m in report.markets)


def test_a_seed_repeats_a_run_exactly():
    first = sim.simulate("infinite_blackjack", 30, players=3, seed=7)
    again = sim.simulate("infinite_blackjack", 30, players=3, seed=7)
    assert first.lines()[2:] == again.lines()[2:]        # all but the header's timing
    assert first.house == again.house


def test_without_a_seed_the_tables_draw_from_the_secure_sources():
    report = sim.simulate("roulette", 5)
    assert "secure RNG" in report.lines()[0]
    assert len(report.markets) == len(BET_TYPES["roulette"])


def test_exact_values_come_from_the_engine():
    roulette = sim.exact_values(sim.table_for("roulette"))
    assert set(roulette) == set(BET_TYPES["roulette"])
    assert {e.value for e in roulette.values()} == {sim.Fraction(36, 37)}
    bob = sim.exact_values(sim.table_for("bet_on_baccarat"))
    assert {e.value for e in bob.values()} == {sim.Fraction(95, 100)}
    baccarat = sim.exact_values(sim.table_for("baccarat"))
    assert 0.9894 < baccarat["banker"].value < 0.9895 and 0.8563 < baccarat["tie"].value < 0.8565
    ib = sim.exact_values(sim.table_for("infinite_blackjack"))
    assert ib["main"].value is None and "99.46%" in ib["main"].text
    assert all(0.9 < ib[bet].value < 1 for bet in sim.SIDE_BETS)


def test_the_bots_play_the_fixed_strategy():
    def hand(text: str) -> bj.PlayerHand:
        return bj.PlayerHand(parse(text), 100)

    every = {"hit", "stand", "double", "split"}
    assert sim.basic_move(hand("AsAd"), every) == "split"
    assert sim.basic_move(hand("8s8d"), every) == "split"
    assert sim.basic_move(hand("8s8d"), {"hit", "stand"}) == "hit"
    assert sim.basic_move(hand("TsTd"), every) == "stand"
    assert sim.basic_move(hand("6s5d"), every) == "double"
    assert sim.basic_move(hand("6s5d"), {"hit", "stand"}) == "hit"
    assert sim.basic_move(hand("Ts6d"), every) == "hit"
    assert sim.basic_move(hand("As6d"), every) == "stand"          # soft 17


def test_the_checks_catch_a_table_that_leaves_a_stake_on_the_table(monkeypatch):
    real = BettingRound.settle

    def short(self, returned, result):
        settled = real(self, returned, result)
        first, *rest = settled.payouts
        return RoundSettled(settled.table, settled.round, settled.result,
                            (Payout(first.player, first.market, first.staked - 1, first.returned), *rest))

    monkeypatch.setattr(BettingRound, "settle", short)
    with pytest.raises(sim.SimulationError, match="casino stake accounts are not empty"):
        sim.simulate("baccarat", 3, seed=1)


def test_the_report_flags_a_round_that_announces_other_closed_markets_than_it_refuses(monkeypatch):
    real = InfiniteBlackjackTable.open_round

    def announces_all_open(self):
        return [replace(e, closed_markets=()) if type(e) is RoundOpened else e for e in real(self)]

    monkeypatch.setattr(InfiniteBlackjackTable, "open_round", announces_all_open)
    monkeypatch.setattr(InfiniteBlackjackTable, "closed_markets", lambda self: ("pairs",))
    report = sim.simulate("infinite_blackjack", 4, seed=2)
    assert [number for number, _, _ in report.misannounced] == [1, 2, 3, 4]
    assert any(line.startswith("WARNING: in 4 rounds") for line in report.lines())
    assert "pairs" not in [m.market for m in report.markets]         # the bots bet what the table takes


def test_bad_arguments_are_refused(capsys):
    with pytest.raises(ValueError, match="seven"):
        sim.simulate("blackjack", 1, players=8)
    assert main(["simulate-casino", "--game", "blackjack", "--rounds", "2", "--players", "8"]) == 2
    assert "at most 7" in capsys.readouterr().err


def test_the_command_runs_as_a_module():
    done = subprocess.run([sys.executable, "-m", "pokerroom.cli", "simulate-casino", "--game", "baccarat",
                           "--rounds", "50", "--players", "2", "--seed", "3"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("baccarat at sim-baccarat: 50 rounds (0 void), 2 bots, seed 3")
    assert [line.split()[0] for line in lines if line.startswith("  ")] == ["player", "banker", "tie"]
    assert lines[-1].startswith("checks passed after every round")


# ------------------------------------------------------------------------------ the money path

def test_casino_transfers_stakes_settles_and_refunds_through_the_ledger():
    ledger = Ledger()
    for player in ("ann", "bob"):
        ledger.move(WORLD, cash(player), 1_000, "deposit", "test", 0.0)
    staked = [Staked("t1", 1, "ann", 100, "bet"), Staked("t1", 1, "bob", 200, "bet"),
              Staked("t1", 1, "ann", 100, "double")]
    made = casino_transfers(ledger, staked, 1.0)
    assert len(made) == 3 and [t.reference for t in made] == ["t1#1"] * 3
    assert ledger.balance(casino_escrow("t1", "ann")) == 200 and ledger.balance(cash("bob")) == 800
    settled = RoundSettled("t1", 1, "dealer 20", (Payout("ann", "main", 200, 400), Payout("bob", "main", 200, 0)))
    [transfer] = casino_transfers(ledger, [settled], 2.0)
    assert transfer.reason == "casino round"
    assert ledger.balance(cash("ann")) == 1_200 and ledger.balance(cash("bob")) == 800
    assert ledger.balance(HOUSE_CASINO) == 0
    assert not any(ledger.balance(casino_escrow("t1", p)) for p in ("ann", "bob"))
    casino_transfers(ledger, [Staked("t1", 2, "bob", 300, "bet")], 3.0)
    [refund] = casino_transfers(ledger, [RoundVoided("t1", 2, "fault", (("bob", 300),))], 4.0)
    assert refund.reason == "casino round void" and ledger.balance(cash("bob")) == 800
    assert casino_transfers(ledger, [RoundSettled("t1", 3, "no bets", ())], 5.0) == []
    assert ledger.check()


def test_a_settled_round_is_the_same_transfer_as_three_postings_per_payout():
    """The floor's original rule: per payout, stake off the table, return to the wallet, the rest to the house."""
    rng = random.Random(4)
    for _ in range(500):
        players = [f"p{i}" for i in range(rng.randint(1, 5))]
        payouts = tuple(Payout(rng.choice(players), rng.choice(["main", "pairs"]), rng.randint(1, 500),
                               rng.choice([0, rng.randint(0, 2_000)])) for _ in range(rng.randint(1, 10)))
        per_payout = []
        for p in payouts:
            per_payout += (Posting(casino_escrow("t", p.player), -p.staked), Posting(cash(p.player), p.returned),
                           Posting(HOUSE_CASINO, p.staked - p.returned))
        ledger = Ledger()
        for player in {p.player for p in payouts}:
            stake = sum(p.staked for p in payouts if p.player == player)
            ledger.move(WORLD, casino_escrow("t", player), stake, "stakes", "test", 0.0)
        [made] = casino_transfers(ledger, [RoundSettled("t", 1, "r", payouts)], 0.0)
        assert made.postings == check_postings(per_payout)
