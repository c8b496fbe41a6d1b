"""Table events as wire data and what each viewer may see of them; the room config file."""

from __future__ import annotations

import json

import pytest

from pokerroom.poker import events as he
from pokerroom.poker.redact import Viewer
from pokerroom.table import events as te
from pokerroom.table import redact, table_event_from_dict, table_event_to_dict
from pokerroom.table.config import load_tables, tables_from_config
from tests.table.scenario import Scenario


def a_played_hand() -> Scenario:
    game = Scenario(button="A")
    game.sit("A", "B", "C")
    game.play_hand()
    return game


def test_table_events_round_trip_through_json_and_have_gapless_seq():
    game = a_played_hand()
    assert [e.seq for e in game.log] == list(range(1, len(game.log) + 1))
    for event in game.log:
        wire = json.loads(json.dumps(table_event_to_dict(event)))
        assert table_event_from_dict(wire) == event


def test_HR_RNG_2_hole_cards_reach_only_their_owner_and_the_deck_nobody_at_the_table():
    game = a_played_hand()
    dealt = [e for e in game.log if isinstance(e, te.HandEvent) and isinstance(e.event, he.HoleCardsDealt)]
    for event in dealt:
        mine = redact(event, Viewer.player(event.event.seat))
        other = redact(event, Viewer.player(event.event.seat % 3 + 1))
        assert mine.event.cards == event.event.cards and other.event.cards == ()
        assert redact(event, Viewer.observer()).event.cards == ()
    deck = [e for e in game.log if isinstance(e, te.HandEvent) and isinstance(e.event, he.DeckRevealed)]
    assert deck and all(redact(e, Viewer.player(1)) is None for e in deck)
    assert redact(deck[0], Viewer.security(), hand_ended=True) == deck[0]
    seated = game.of_type(te.PlayerSeated)[0]
    assert redact(seated, Viewer.observer()) is seated


def test_the_room_config_loads_every_table_with_its_rake_and_house_rules():
    tables = {t.table_id: t for t in load_tables()}
    assert {"nl-aldebaran", "plo-capella", "fl-deneb"} <= set(tables)
    plo = tables["plo-capella"]
    assert plo.variant.code == "PLO" and plo.decision_times.preflop == 25      # its own (HR-TIME-1)
    assert tables["nl-aldebaran"].decision_times.river == 25                    # the variant default
    assert plo.rake is not None and plo.rake.cap_for(2) == 50 and plo.rake.cap_for(6) == 150
    assert plo.hit_and_run.blocks == (0, 300, 900, 1800, 3600) and plo.hit_and_run.window == 12 * 3600
    assert plo.table_limit("mobile") == 4 and plo.rat_hole_period == 3600 and plo.owed_posts_memory == 600


@pytest.mark.parametrize(("change", "message"), [
    ({"variant": "STUD"}, "unknown variant"),
    ({"rake": "nope"}, "unknown rake schedule"),
    ({"min_buy_in": 1}, "at least one big blind"),
    ({"seats": 11}, "2 to 10 seats"),
])
def test_a_bad_table_in_the_config_is_refused_with_its_name(change, message):
    table = {"id": "x", "variant": "NLHE", "small_blind": 1, "big_blind": 2,
             "min_buy_in": 40, "max_buy_in": 200}
    with pytest.raises(ValueError, match=message) as error:
        tables_from_config({"tables": [table | change]})
    assert "'x'" in str(error.value)


def test_SEC_2_the_table_redaction_also_guards_engine_events_passed_on_their_own():
    game = a_played_hand()
    dealt = [e.event for e in game.log if isinstance(e, te.HandEvent) and isinstance(e.event, he.HoleCardsDealt)]
    assert all(redact(e, Viewer.player(9)).cards == () for e in dealt)
    deck = [e.event for e in game.log if isinstance(e, te.HandEvent) and isinstance(e.event, he.DeckRevealed)]
    assert redact(deck[0], Viewer.player(1)) is None
