"""Casino tables from ``[[casino]]`` in the room config: the shipped file builds all five games (CR-1 for each),
and a bad entry is refused with the table's name in the message.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from pokerroom.casino.bet_on_baccarat_table import BetOnBaccaratTable
from pokerroom.casino.betting import Limits
from pokerroom.casino.blackjack import BlackjackTable
from pokerroom.casino.config import GAMES, build_table, casino_rules, tables_from_config
from pokerroom.casino.infinite_blackjack import InfiniteBlackjackTable
from pokerroom.casino.punto_banco import BaccaratTable
from pokerroom.casino.roulette_table import RouletteTable
from pokerroom.casino.table import CasinoRules
from pokerroom.errors import RuleViolation
from pokerroom.table.config import load_config

SHIPPED = {"baccarat-orion": BaccaratTable, "bob-lyra": BetOnBaccaratTable, "blackjack-vega": BlackjackTable,
           "infinite-sirius": InfiniteBlackjackTable, "roulette-altair": RouletteTable}


def entry(**kw) -> dict:
    return {"id": "t1", "name": "Table One", "game": "roulette", "min_bet": 100, "max_bet": 1_000, **kw}


@pytest.fixture(scope="module")
def shipped() -> dict:
    return {t.table_id: t for t in tables_from_config(load_config())}


def test_the_shipped_config_builds_one_table_of_each_game(shipped):
    assert {tid: type(t) for tid, t in shipped.items()} == SHIPPED
    assert sorted(t.game for t in shipped.values()) == sorted(GAMES)
    assert all(t.rules.currency == "USD" for t in shipped.values())


def test_the_shipped_config_keeps_each_tables_own_settings(shipped):
    bac, bob, rou = shipped["baccarat-orion"], shipped["bob-lyra"], shipped["roulette-altair"]
    assert bac.rules.limits == Limits(100, 500_000) and bac.rules.limits_for("tie") == Limits(100, 50_000)
    assert (bac.rules.decks, bac.rules.behind_cut) == (8, 7)                 # BA-1
    assert (bob.rules.decks, bob.rules.behind_cut) == (6, 0)                 # BOB-1
    assert bob.rules.margin == Fraction(5, 100) and bob.rules.betting_seconds == 10.0
    assert rou.rules.limits_for("straight:17") == Limits(100, 10_000) and rou.rules.limits_for("red") == Limits(
        100, 100_000)
    assert shipped["blackjack-vega"].rules.seats == 7 and shipped["blackjack-vega"].rules.decision_seconds == 12.0
    assert shipped["infinite-sirius"].rules.limits_for("pairs") == Limits(100, 10_000)


@pytest.mark.parametrize("table_id", sorted(SHIPPED))
def test_CR_1_every_shipped_table_describes_its_rules_paytable_and_limits(shipped, table_id):
    table = shipped[table_id]
    described = table.describe()
    assert json.loads(json.dumps(described)) == described                   # it goes over the wire as it is
    assert described["game"] == table.game
    assert described["rules"] and all(isinstance(line, str) and len(line) > 20 for line in described["rules"])
    assert described["paytable"] and all(len(row) == 2 and all(row) for row in described["paytable"])
    assert described["limits"]["default"] == [table.rules.limits.minimum, table.rules.limits.maximum]
    for market, limit in table.rules.market_limits.items():
        assert described["limits"][market] == [limit.minimum, limit.maximum]
    assert described["currency"] == "USD"


@pytest.mark.parametrize("table_id", sorted(SHIPPED))
def test_CR_2_every_shipped_table_opens_a_round_and_says_when_betting_closes(shipped, table_id):
    table = {t.table_id: t for t in tables_from_config(load_config())}[table_id]   # a fresh one
    assert table.due().phase == "idle" and table.due().after == 0.0
    events = table.expire()
    assert table.phase == "betting" and table.number == 1 and events
    assert table.due().after == table.rules.betting_seconds


def test_a_config_file_with_casino_tables_is_read(tmp_path: Path):
    path = tmp_path / "room.toml"
    path.write_text('[[casino]]\nid = "r"\ngame = "roulette"\nmin_bet = 50\nmax_bet = 500\n'
                    'limits = { straight = [50, 100] }\n\n'
                    '[[casino]]\nid = "b"\ngame = "baccarat"\nmin_bet = 100\nmax_bet = 900\ndecks = 6\n')
    tables = tables_from_config(load_config(path))
    assert [(t.table_id, t.game, t.rules.name) for t in tables] == [("r", "roulette", "r"), ("b", "baccarat", "b")]
    assert tables[0].rules.limits_for("straight:5") == Limits(50, 100)
    assert tables[1].rules.decks == 6 and tables[1].rules.behind_cut == 7
    assert tables_from_config({}) == []


def test_casino_rules_fill_in_each_games_defaults():
    rules = casino_rules(entry())
    assert rules == CasinoRules(table_id="t1", name="Table One", game="roulette", limits=Limits(100, 1_000),
                                decks=1, behind_cut=0)
    assert casino_rules(entry(margin_percent=2.5, game="bet_on_baccarat")).margin == Fraction(1, 40)
    assert casino_rules(entry(game="blackjack")).behind_cut == 104


@pytest.mark.parametrize(("bad", "why"), [
    ({"game": "craps"}, "unknown game 'craps'"),
    ({"colour": "red"}, "unknown key 'colour'"),
    ({"min_bet": 2_000}, "minimum <= maximum"),
    ({"min_bet": 0}, "0 < minimum"),
    ({"limits": {"straight": [500, 100]}}, "minimum <= maximum"),
    ({"limits": {"straight": [100]}}, "t1"),
    ({"limits": {"straigth": [100, 500]}}, "unknown market 'straigth'"),
    ({"limits": {"tie": [100, 500]}}, "unknown market 'tie'"),
    ({"decks": 0, "game": "baccarat"}, "decks must be at least 1"),
    ({"margin_percent": 100, "game": "bet_on_baccarat"}, "margin_percent"),
    ({"margin_percent": -1, "game": "bet_on_baccarat"}, "margin_percent"),
    ({"min_bet": "lots"}, "t1"),
])
def test_a_bad_entry_is_refused_naming_the_table(bad, why):
    with pytest.raises(ValueError) as info:
        tables_from_config({"casino": [entry(**bad)]})
    assert "casino table 't1'" in str(info.value) and why in str(info.value)


@pytest.mark.parametrize("missing", ["game", "min_bet", "max_bet"])
def test_an_entry_without_a_required_key_is_refused_naming_the_table(missing):
    bad = entry()
    del bad[missing]
    with pytest.raises(ValueError, match="casino table 't1'.*" + missing):
        tables_from_config({"casino": [bad]})


def test_an_entry_without_an_id_is_refused():
    bad = entry()
    del bad["id"]
    with pytest.raises(ValueError, match="'id'"):
        tables_from_config({"casino": [bad]})


def test_a_table_id_used_twice_is_refused_naming_it():
    with pytest.raises(ValueError, match="casino table id 't1' appears twice"):
        tables_from_config({"casino": [entry(), entry(game="baccarat")]})


def test_a_table_is_built_only_for_its_own_game():
    rules = casino_rules(entry(game="baccarat"))
    assert isinstance(build_table(rules), BaccaratTable)
    with pytest.raises(ValueError, match="table t1 is configured for baccarat, not roulette"):
        RouletteTable(rules)


@pytest.mark.parametrize(("table_id", "market"), [
    ("baccarat-orion", "player"), ("bob-lyra", "player"), ("infinite-sirius", "main"), ("roulette-altair", "red")])
def test_BA_5_a_seat_sent_to_a_seatless_table_is_refused_and_opens_no_second_bet(table_id, market):
    table = {t.table_id: t for t in tables_from_config(load_config())}[table_id]
    table.expire()
    table.bet("ann", market, 100, 10**6)
    with pytest.raises(RuleViolation) as info:
        table.bet("ann", market, 100, 10**6, seat=3)
    assert info.value.code == "no_seats" and "no seats" in info.value.message
    assert [(b.market, b.amount, b.seat) for b in table.round.bets] == [(market, 100, None)]
