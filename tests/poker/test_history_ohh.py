"""Open Hand History JSON: structure, dead posts, side pots, hero versus security copies."""

from __future__ import annotations

import json

from pokerroom.poker import Call, Check, Fold, Hand, Post, Raise, Stakes
from pokerroom.poker.history import to_ohh
from tests.poker.engine_drivers import setup, stacked_deck


def _side_pot_hand() -> Hand:
    hand = Hand(setup([3, 500, 500, 40], stakes=Stakes(1, 2), table_name="Alpha", max_seats=6,
                      owed_posts=(Post(3, "dead_small_blind", 1), Post(3, "entry", 2))),
                stacked_deck(["AsAd", "KsKh", "QsQh", "JsJh"], "2h3d9c7d8s"))
    for action in (Check(3), Call(4), Call(1), Raise(2, 100), Fold(3), Call(4), Call(1)):
        hand.apply(action)
    return hand


def test_header_players_and_rounds():
    doc = to_ohh(_side_pot_hand().events)
    json.dumps(doc)
    ohh = doc["ohh"]
    assert ohh["game_type"] == "Holdem" and ohh["bet_limit"]["bet_type"] == "NL"
    assert (ohh["small_blind_amount"], ohh["big_blind_amount"], ohh["ante_amount"]) == (1, 2, 0)
    assert ohh["dealer_seat"] == 4 and ohh["table_size"] == 6 and ohh["game_number"] == "hand-1"
    assert ohh["players"][0] == {"id": 1, "seat": 1, "name": "p1", "display": "p1", "starting_stack": 3}
    assert [r["street"] for r in ohh["rounds"]] == ["Preflop", "Flop", "Turn", "River", "Showdown"]
    assert ohh["rounds"][1]["cards"] == ["2h", "3d", "9c"]
    pre = ohh["rounds"][0]["actions"]
    assert [(a["player_id"], a["action"], a.get("amount")) for a in pre[:4]] == [
        (1, "Post SB", 1), (2, "Post BB", 2), (3, "Post Dead", 1), (3, "Post BB", 2)]
    assert pre[4] == {"action_number": 5, "player_id": 1, "action": "Dealt Cards", "cards": ["As", "Ad"]}
    assert {"action_number": 14, "player_id": 4, "action": "Call", "amount": 38, "is_allin": True} in pre
    assert [n for n, a in enumerate(pre, 1) if a["action_number"] != n] == []


def test_side_pots_and_wins():
    pots = to_ohh(_side_pot_hand().events)["ohh"]["pots"]
    assert [(p["number"], p["amount"], p["rake"]) for p in pots] == [(0, 12, 0), (1, 74, 0)]
    assert pots[0]["player_wins"][0]["player_id"] == 1 and pots[0]["player_wins"][0]["win_amount"] == 12
    assert pots[1]["player_wins"][0]["player_id"] == 2 and pots[1]["player_wins"][0]["win_amount"] == 74


def test_hero_copy_hides_other_hole_cards_and_money_units():
    doc = to_ohh(_side_pot_hand().events, hero="p2", minor_units_per_unit=100)["ohh"]
    assert doc["hero_player_id"] == 2
    pre = doc["rounds"][0]["actions"]
    dealt = {a["player_id"]: a.get("cards") for a in pre if a["action"] == "Dealt Cards"}
    assert dealt == {1: None, 2: ["Ks", "Kh"], 3: None, 4: None}
    assert doc["big_blind_amount"] == 0.02 and doc["pots"][1]["amount"] == 0.74
