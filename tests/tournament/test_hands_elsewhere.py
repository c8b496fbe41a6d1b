"""A tournament whose hands are dealt and played on other processes: the director plans each hand, another
process plays it on a :class:`~tournament.hand_in_play.HandInPlay`, and its result comes back -- or the hand is
void when that process dies (TR-REFUND-1). The same event, hand for hand, as if every hand were dealt beside the
director."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerroom.errors import RuleViolation
from pokerroom.poker.actions import Call, Check, Fold, Raise
from tests.poker.engine_drivers import stacked_deck
from tests.tournament.director_drivers import Room, observable, started, winning
from tournament import commands as tc
from tournament import director as td
from tournament import saved_state
from tournament.hand_in_play import HandInPlay, HandResult
from tournament.simulate import simulate

_LOCAL = (td.HandDealt, td.HandPlayed)
_AWAY = (td.HandSent, td.HandReturned, td.HandVoided)


def _run(players: int, seed: int, **options) -> tuple[list, object]:
    events: list = []
    report = simulate(players, seed=seed, on_events=events.extend, **options)
    return events, report


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(min_value=7, max_value=40), seed=st.integers(min_value=0, max_value=10_000))
def test_TR_PLAY_3_TR_PLAY_6_an_event_played_with_every_hand_sent_away_ends_exactly_as_one_dealt_here(players, seed):
    """Same seats, buttons, busts, places, bounties and payments, event for event: only the hand events differ."""
    here, report_here = _run(players, seed)
    away, report_away = _run(players, seed, elsewhere=True)
    assert [e for e in here if not isinstance(e, _LOCAL)] == [e for e in away if not isinstance(e, _AWAY)]
    assert sum(isinstance(e, td.HandSent) for e in away) == report_here.hands == report_away.hands
    assert sum(isinstance(e, td.HandReturned) for e in away) == report_away.hands
    assert report_away.entries == report_here.entries and report_away.busts == report_here.busts


def test_TR_REFUND_1_a_hand_voided_on_its_dead_process_leaves_every_stack_as_it_began_and_the_event_goes_on():
    """The simulation checks chips after every hand and the places and money at the end; a void hand neither
    creates nor loses a chip, busts nobody, and the table deals its next hand."""
    events, report = _run(40, 5, elsewhere=True, void=0.05)
    voided = [e for e in events if isinstance(e, td.HandVoided)]
    assert voided, "the chance gave no void hand: pick another seed"
    sent = {e.hand_id for e in events if isinstance(e, td.HandSent)}
    returned = {e.hand_id for e in events if isinstance(e, td.HandReturned)}
    assert {e.hand_id for e in voided} | returned == sent and not {e.hand_id for e in voided} & returned
    assert report.entries >= 40 and events[-1] == td.Finished(next(e.winner for e in events
                                                                     if isinstance(e, td.Finished)))


def _sent(room: Room) -> tuple[str, object]:
    d = room.director
    table_id = d.ready_tables()[0]
    room.apply(d.send_hand(table_id))
    return table_id, d.tables[table_id].away


def _play_away(room: Room, table_id: str, setup, holes: dict[str, str] | None = None) -> HandInPlay:
    """The hand played on 'another process': everyone named in ``holes`` shoves, the rest fold."""
    spare = iter(["2s4h", "2h5c", "4c6d", "5d7s", "6h7c", "2d4s"])
    given = holes or {}
    play = HandInPlay(table_id, setup, stacked_deck([given.get(p) or next(spare) for p in _dealing(setup)],
                                                     "AhKdQs8c3d"))
    assert {s.player_id for s in setup.seats} == set(room.director.tables[table_id].seats.values())
    while (turn := play.to_act()) is not None:
        player, legal = turn
        if player in given:
            action = Raise(legal.seat, legal.max_to) if legal.can_raise else Call(legal.seat)
        else:
            action = Check(legal.seat) if legal.can_check else Fold(legal.seat)
        play.act(player, action, legal.decision)
    return play


def _dealing(setup) -> list[str]:
    """Who the hand deals to, first left of the button first (the order the stacked deck gives cards)."""
    seats = sorted(s.seat for s in setup.seats)
    by_seat = {s.seat: s.player_id for s in setup.seats}
    return [by_seat[s] for s in sorted(seats, key=lambda s: (s <= setup.button_seat, s))]


def test_TR_PLAY_4_while_a_hand_is_away_its_table_takes_no_seat_change_and_no_action_here():
    room = started(["a", "b", "c", "d", "e", "f", "g", "h"], table_size=6)
    d = room.director
    table_id, setup = _sent(room)
    table = d.tables[table_id]
    assert table.in_hand and not d.can_deal(table_id) and table_id not in d.ready_tables()
    player = setup.seats[0].player_id
    with pytest.raises(RuleViolation) as e:
        table.unseat(player)
    assert (e.value.code, e.value.rule_id) == ("hand_running", "TR-PLAY-4")
    with pytest.raises(RuleViolation) as e:
        d.apply(tc.BreakTable(table_id))
    assert (e.value.code, e.value.rule_id) == ("hand_running", "TR-PLAY-4")
    with pytest.raises(RuleViolation) as e:
        d.act(player, Fold(setup.seats[0].seat))
    assert e.value.code == "no_hand" and "another process" in e.value.message
    assert d.stacks() == {s.player_id: s.stack for s in setup.seats} | {
        p: c for t in d.tables.values() if t.id != table_id for p, c in t.stacks.items()}


def test_TR_PLAY_6_a_result_from_away_busts_and_places_as_a_hand_dealt_here():
    room = started(["a", "b", "c"], table_size=6)
    d = room.director
    table_id, setup = _sent(room)
    order = _dealing(setup)
    shovers = order[:2]
    play = _play_away(room, table_id, setup, winning(shovers))
    room.apply(d.apply(tc.ReturnHand.of(play.result())))
    assert not d.tables[table_id].in_hand
    (bust,) = room.of(td.Busted)
    assert bust.player == shovers[1] and [e.players for e in room.of(td.Eliminated)] == [(shovers[1],)]
    assert d.tables[table_id].stacks[shovers[0]] == 2 * 1000
    assert sum(d.tables[table_id].stacks.values()) == 3 * 1000


def test_a_result_that_is_not_the_hand_sent_is_refused_and_changes_nothing():
    """A replayed, forged or garbled result (wrong hand, other players, chips made or lost, a dealing order or a
    bust that is not the hand's) changes nothing."""
    room = started(["a", "b", "c", "d"], table_size=6)
    d = room.director
    table_id, setup = _sent(room)
    result = _play_away(room, table_id, setup).result()
    before = observable(d), {t: dict(x.stacks) for t, x in d.tables.items()}
    some = result.dealing_order[0]
    forged = [
        HandResult(table_id, setup.hand_id + "0", result.start, result.end, result.dealing_order, {}),
        HandResult("nowhere", result.hand_id, result.start, result.end, result.dealing_order, {}),
        HandResult(table_id, result.hand_id, result.start, {**result.end, some: result.end[some] + 1},
                   result.dealing_order, {}),
        HandResult(table_id, result.hand_id, {**result.start, "mallory": 5}, {**result.end, "mallory": 5},
                   result.dealing_order, {}),
        HandResult(table_id, result.hand_id, result.start, result.end, result.dealing_order[1:], {}),
        HandResult(table_id, result.hand_id, result.start, result.end, result.dealing_order + ("zed",), {}),
        HandResult(table_id, result.hand_id, result.start, result.end, result.dealing_order, {some: ("zed",)}),
    ]
    for bad in forged:
        with pytest.raises(RuleViolation) as e:
            d.hand_returned(bad)
        assert e.value.code in ("no_hand_away", "bad_hand_result")
        assert (observable(d), {t: dict(x.stacks) for t, x in d.tables.items()}) == before
    room.apply(d.hand_returned(result))
    with pytest.raises(RuleViolation) as e:                  # the same result twice: the hand is no longer away
        d.hand_returned(result)
    assert e.value.code == "no_hand_away"


def test_TR_PLAY_6_a_result_hiding_a_bust_or_naming_another_buster_is_refused_and_changes_nothing():
    room = started(["a", "b", "c"], table_size=6)
    d = room.director
    table_id, setup = _sent(room)
    shovers = _dealing(setup)[:2]
    result = _play_away(room, table_id, setup, winning(shovers)).result()
    busted = shovers[1]
    assert result.eliminated_by == {busted: (shovers[0],)}
    before = observable(d), {t: dict(x.stacks) for t, x in d.tables.items()}
    third = next(p for p in result.start if p not in shovers)
    for bad in (HandResult(table_id, result.hand_id, result.start, result.end, result.dealing_order, {}),
                HandResult(table_id, result.hand_id, result.start, result.end, result.dealing_order,
                           {busted: (busted,)}),
                HandResult(table_id, result.hand_id, result.start, result.end, result.dealing_order,
                           {busted: (shovers[0],), third: (shovers[0],)}),
                HandResult(table_id, result.hand_id, result.start, result.end,
                           tuple(p for p in result.dealing_order if p != busted), result.eliminated_by)):
        with pytest.raises(RuleViolation) as e:
            d.hand_returned(bad)
        assert e.value.code == "bad_hand_result"
        assert (observable(d), {t: dict(x.stacks) for t, x in d.tables.items()}) == before
    room.apply(d.hand_returned(result))
    assert [e.players for e in room.of(td.Eliminated)] == [(busted,)]


def test_TR_REFUND_1_a_void_hand_keeps_the_stacks_it_began_with_and_the_next_hand_is_numbered_on():
    room = started(["a", "b", "c"], table_size=6)
    d = room.director
    table_id, setup = _sent(room)
    start = {s.player_id: s.stack for s in setup.seats}
    events = room.apply(d.apply(tc.VoidHand(table_id, setup.hand_id)))
    assert td.HandVoided(table_id, setup.hand_id, start) in events
    assert d.tables[table_id].stacks == start and not d.tables[table_id].in_hand
    with pytest.raises(RuleViolation) as e:                 # its result, arriving late, is refused
        d.hand_returned(HandResult(table_id, setup.hand_id, start, start, tuple(start), {}))
    assert e.value.code == "no_hand_away"
    _, again = _sent(room)
    assert again.hand_id != setup.hand_id and again.button_seat != setup.button_seat


def test_TR_REFUND_1_a_director_restored_while_a_hand_was_away_has_it_void_and_refuses_its_late_result():
    """A saved step keeps the stacks a hand away began with; after the director's own process dies, the hand is
    as void as a hand dealt beside it."""
    room = started(["a", "b", "c"], table_size=6)
    d = room.director
    table_id, setup = _sent(room)
    start = {s.player_id: s.stack for s in setup.seats}
    restored = saved_state.restore(saved_state.whole(d))
    table = restored.tables[table_id]
    assert not table.in_hand and table.stacks == start
    result = _play_away(room, table_id, setup).result()
    with pytest.raises(RuleViolation) as e:
        restored.hand_returned(result)
    assert e.value.code == "no_hand_away"


def test_TR_PLAY_4_a_directors_move_asked_while_the_hand_is_away_happens_when_it_is_voided():
    room = started(["a", "b", "c", "d", "e", "f", "g", "h", "i"], table_size=6)
    d = room.director
    source, target = sorted(d.tables, key=lambda t: -len(d.tables[t].seats))      # 5 and 4: balanced after
    room.apply(d.send_hand(source))
    away = d.tables[source].away
    mover = away.seats[0].player_id
    room.apply(d.apply(tc.MovePlayer(mover, target, "boss")))
    assert d.table_of(mover).id == source and d.balancing.waiting_for(mover) == source
    room.apply(d.apply(tc.VoidHand(source, away.hand_id)))
    assert d.table_of(mover).id == target and d.balancing.queued == []
