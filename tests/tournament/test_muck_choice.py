"""A tournament player's auto-muck choice: kept by the director for the whole event, at whatever table, in hands
dealt here and sent away (SD-2); only their own cards are shown (SEC-2)."""

from __future__ import annotations

import pytest

from pokerroom.errors import RuleViolation
from pokerroom.poker.events import HandMucked, HandShown
from tests.tournament.director_drivers import started
from tournament import commands as tc
from tournament.events import HandDealt, HandPlayed
from tournament.hand_in_play import setup_from_plain, setup_to_plain

HOLES = {"ann": "AcAd", "bea": "KcKh", "cat": "7h2s"}           # on the board AhKdQs8c3d: cat's 7-2 is beaten


def engine_events(room) -> list:   # noqa: ANN001
    return [e for t in room.events if isinstance(t, HandDealt | HandPlayed) for e in t.events]


def test_SD_2_SEC_2_a_tournament_player_who_turned_auto_muck_off_shows_a_beaten_hand():
    room = started(["ann", "bea", "cat"])
    d = room.director
    room.apply(d.apply(tc.MuckChoice("cat", False)))
    assert d.showing == {"cat"}
    table = room.only_table()
    room.deal(table, HOLES)
    room.check_down(table)
    seat = d.tables[table].seat_of("cat")
    events = engine_events(room)
    assert seat in {e.seat for e in events if isinstance(e, HandShown)}
    assert seat not in {e.seat for e in events if isinstance(e, HandMucked)}
    room.apply(d.apply(tc.MuckChoice("cat", True)))                 # back on: from the next hand
    assert d.showing == set()


def test_SD_2_the_choice_reaches_a_hand_in_play_and_a_hand_sent_away():
    room = started(["ann", "bea", "cat"])
    d = room.director
    table = room.only_table()
    room.deal(table, HOLES)
    room.apply(d.apply(tc.MuckChoice("cat", False)))                # during the hand
    hand = d.tables[table].hand
    assert hand.position[d.tables[table].seat_of("cat")] in hand.showing
    room.check_down(table)
    room.apply(d.send_hand(table))
    setup = d.tables[table].away
    assert setup.show_at_showdown == {d.tables[table].seat_of("cat")}
    assert setup_from_plain(setup_to_plain(setup)) == setup


def test_SD_2_only_a_player_in_the_event_may_choose():
    room = started(["ann", "bea", "cat"])
    with pytest.raises(RuleViolation) as refused:
        room.director.apply(tc.MuckChoice("zed", False))
    assert refused.value.code == "not_playing"
