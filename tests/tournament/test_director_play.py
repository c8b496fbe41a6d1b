"""The director running play: levels, breaks, dealing in, balancing, places and prizes (TR-PLAY, TR-PRIZE)."""

from __future__ import annotations

import pytest

from pokerroom.errors import RuleViolation
from pokerroom.poker import Call, Check
from pokerroom.poker import events as ev
from tests.tournament.director_drivers import Room, bust_one, spec, started, winning
from tournament import commands as tc
from tournament import director as td
from tournament.structure import Break, Level


def test_TR_PLAY_1_levels_advance_on_the_clock_and_the_next_hand_uses_the_new_blinds():
    room = started(["a", "b", "c"])
    d = room.director
    assert d.clock.schedule() == ("level_up", 600)
    table = room.only_table()
    posted = [e for e in room.deal(table)[0].events if isinstance(e, ev.Posted)]
    assert sorted(p.added for p in posted) == [50, 100]
    room.check_down(table)
    room.apply(d.clock.level_up())
    assert room.of(td.LevelStarted)[-1].big_blind == 200
    posted = [e for e in room.deal(table)[0].events if isinstance(e, ev.Posted)]
    assert sorted(p.added for p in posted) == [100, 200]


def test_TR_PLAY_2_a_break_stops_new_hands_while_the_hand_in_play_finishes():
    room = started([f"p{i}" for i in range(8)], breaks=(Break(1, 300),))
    d = room.director
    assert d.clock.schedule() == ("start_break", 600)
    first, second = sorted(d.tables)
    room.deal(first)
    room.apply(d.clock.start_break())
    assert d.ready_tables() == [] and d.tables[first].in_hand
    with pytest.raises(RuleViolation) as e:
        d.deal(second, list(range(52)))
    assert e.value.code == "table_waiting" and e.value.rule_id == "TR-PLAY-2"
    room.check_down(first)                                  # the hand in play is played out
    assert not d.tables[first].in_hand
    assert d.clock.schedule() == ("end_break", 300)
    room.apply(d.clock.end_break())
    assert d.clock.level == 2 and sorted(d.ready_tables()) == [first, second]


def test_TR_PLAY_2_hand_for_hand_on_the_bubble_each_table_waits_for_the_others():
    # 14 players, 11-20 entries pay 5: hand-for-hand starts with 6 left, on two tables of four seats.
    room = started([f"p{i:02d}" for i in range(14)], table_size=4)
    d = room.director
    while len(d.entries) > 6:
        bust_one(room)
    assert d.hand_for_hand and room.of(td.HandForHand)[-1].on
    tables = d.ready_tables()
    assert len(tables) == 2
    room.deal(tables[0])
    room.check_down(tables[0])
    assert d.ready_tables() == [tables[1]]                  # the first table waits for the second
    room.deal(tables[1])
    room.check_down(tables[1])
    assert sorted(d.ready_tables()) == sorted(tables)       # the round is over: both deal again


def test_TR_PLAY_3_two_busted_in_one_hand_finish_by_starting_stack():
    room = started(["a", "b", "c", "d"])
    d = room.director
    table = room.only_table()
    order = room.dealing_order(table)
    # the first hand: everyone all in; the winner takes all, the others finish by stacks (all equal: order)
    room.deal(table, winning(order))
    room.shove_all(table)
    finished = room.of(td.Eliminated)
    places = {p: e.places for e in finished for p in e.players}
    assert places[order[0]] == (1,)
    assert [places[p] for p in order[1:]] == [(2,), (3,), (4,)]     # equal stacks: dealing order
    assert d.state == td.FINISHED and d.eliminations.winner == order[0]


def test_TR_PLAY_7_a_late_registrant_is_dealt_in_at_once_without_posting():
    room = started(["a", "b", "c"], late_registration_levels=2)
    table = room.only_table()
    room.deal(table)
    room.check_down(table)
    room.register("late")
    hand = room.deal(table)[0].events
    dealt = [e.player for e in hand if isinstance(e, ev.SeatDealtIn)]
    posts = [e for e in hand if isinstance(e, ev.Posted) and e.kind not in (ev.POST_SMALL_BLIND, ev.POST_BIG_BLIND)]
    assert "late" in dealt and posts == []


def test_TR_PLAY_5_HR_DC_3_an_away_player_keeps_posting_and_is_checked_or_folded_on_time():
    room = started(["a", "b", "c"])
    d = room.director
    table = room.only_table()
    room.deal(table)
    player, legal = d.tables[table].to_act()
    events = room.apply(d.timeout(player))[0].events
    taken = [e for e in events if isinstance(e, ev.ActionTaken)]
    assert taken[0].action == (ev.CHECK if legal.can_check else ev.FOLD) and taken[0].timed_out
    seat = d.tables[table].seat_of(player)
    dealt_in, posted = 0, 0
    for _ in range(4):          # the away player times out every decision; they are still dealt in and post
        while (turn := d.tables[table].to_act()) is not None:
            who, legal = turn
            room.apply(d.timeout(who) if who == player else
                       d.act(who, Call(legal.seat) if legal.call_added else Check(legal.seat)))
        (hand,) = [e for e in room.deal(table) if isinstance(e, td.HandDealt)]
        dealt_in += any(isinstance(e, ev.HoleCardsDealt) and e.seat == seat for e in hand.events)
        posted += any(isinstance(e, ev.Posted) and e.seat == seat for e in hand.events)
    assert dealt_in == 4 and posted >= 2                 # three-handed: a blind in two hands of every three


def test_TR_PLAY_4_players_move_only_between_hands_and_tables_stay_within_one():
    room = started([f"p{i:02d}" for i in range(13)], table_size=6)   # 5, 4, 4
    d = room.director
    while len(d.tables) > 2:
        bust_one(room)
        for e in room.events:
            if isinstance(e, td.Seated) and e.reason in ("break", "balance"):
                assert not d.tables[e.table].in_hand
        sizes = [len(t.seats) for t in d.tables.values() if not t.in_hand]
        assert max(sizes) - min(sizes) <= 1 or any(t.in_hand for t in d.tables.values())
    assert room.of(td.TableClosed)
    with pytest.raises(RuleViolation) as e:
        d.tables[d.ready_tables()[0]].seat("x", 99, 10)
    assert e.value.rule_id == "TR-PLAY-4"


def test_TR_PRIZE_1_prizes_are_fixed_when_registration_closes_and_paid_by_place():
    room = started(["a", "b", "c", "d", "e"], late_registration_levels=1)
    d = room.director
    assert d.eliminations.prizes is None and d.eliminations.provisional_prizes() == (2925, 1575)   # 4,500: 65% / 35%
    room.register("f")
    room.apply(d.clock.level_up())
    fixed = room.of(td.PrizesFixed)[-1]
    assert fixed.entries == 6 and fixed.prizes == (3510, 1890) and d.eliminations.prizes == (3510, 1890)


def test_TR_PRIZE_2_a_guarantee_tops_the_pool_up_only_when_entries_do_not_reach_it():
    room = started(["a", "b", "c"], guarantee=5000)
    fixed = room.of(td.PrizesFixed)[-1]
    assert fixed.collected == 2700 and fixed.overlay == 2300 and sum(fixed.prizes) == 5000
    room = started(["a", "b", "c"], guarantee=1000)
    assert room.of(td.PrizesFixed)[-1].overlay == 0


def test_TR_PRIZE_3_rounding_is_recorded_in_the_rounding_account():
    room = started(["a", "b", "c", "d", "e"], buy_in=901, fee=99)     # 4,505 at 65/35: 2928.25 and 1576.75
    fixed = room.of(td.PrizesFixed)[-1]
    assert fixed.prizes == (2928, 1576) and fixed.remainder == 1
    assert room.ledger.balance(td.ROUNDING) == 1


def test_TR_PRIZE_3_the_first_prize_can_take_the_rounding_instead():
    room = started(["a", "b", "c", "d", "e"], buy_in=901, fee=99, remainder_to_top=True)
    assert room.of(td.PrizesFixed)[-1].prizes == (2929, 1576)


def test_a_whole_tournament_pays_every_place_once_and_empties_its_accounts():
    room = started(["a", "b", "c", "d", "e", "f", "g"])
    d = room.director
    while d.state == td.RUNNING:
        bust_one(room)
    places = sorted(p for e in room.of(td.Eliminated) for p in e.places)
    assert places == list(range(1, 8))
    prizes = {p: e.prize for e in room.of(td.Eliminated) for p in e.players}
    assert sorted(prizes.values(), reverse=True)[:3] == list(d.eliminations.prizes)
    assert room.ledger.balance(td.pool_account("t")) == 0 and room.ledger.check()
    assert room.cash(d.eliminations.winner) == 100_000 - 1000 + d.eliminations.prizes[0]


def test_director_commands_out_of_turn_change_nothing():
    room = started(["a", "b", "c"])
    d = room.director
    with pytest.raises(RuleViolation) as e:
        d.clock.end_break()
    assert e.value.rule_id == "TR-PLAY-2"
    with pytest.raises(RuleViolation):
        d.act("a", object())
    with pytest.raises(RuleViolation):
        room.register("a")
    assert d.clock.level == 1 and len(d.entries) == 3


def test_levels_past_the_structure_repeat_the_last():
    room = started(["a", "b"], levels=(Level(10, 20, seconds=60),))
    d = room.director
    room.apply(d.clock.level_up())
    assert room.of(td.LevelStarted)[-1].big_blind == 20 and d.clock.level == 2


def test_TR_PRIZE_4_the_room_may_substitute_a_prize_of_equal_or_greater_value():
    room = started(["a", "b", "c", "d", "e", "f", "g"])        # 3,150 / 1,890 / 1,260
    d = room.director
    with pytest.raises(RuleViolation) as e:
        d.eliminations.substitute_prize(1, "a seat at the festival", 3000, by="td")
    assert e.value.code == "bad_substitute" and e.value.rule_id == "TR-PRIZE-4"
    room.house_adds(3500 - 3150)                                # STAFF-1: the top-up is house money, held first
    room.apply(d.eliminations.substitute_prize(1, "a seat at the festival", 3500, by="td"))
    while d.state == td.RUNNING:
        bust_one(room)
    package = room.of(td.PackageAwarded)[-1]
    assert package.player == d.eliminations.winner and package.value == 3500
    assert room.ledger.balance(td.PACKAGES) == 3500 and room.ledger.balance(td.pool_account("t")) == 0
    assert room.cash(d.eliminations.winner) == 100_000 - 1000
    assert room.ledger.balance(td.guarantee_account("t")) == 0  # the top-up came from the house's money held


def test_TR_PLAY_4_a_director_breaks_a_table_and_moves_a_player_between_hands_only():
    room = started([f"p{i:02d}" for i in range(12)], table_size=6)          # two full tables
    d = room.director
    first, second = sorted(d.tables)
    room.deal(first)
    with pytest.raises(RuleViolation) as e:
        d.balancing.break_table(second)
    assert e.value.code == "hand_running" and e.value.rule_id == "TR-PLAY-4"
    room.check_down(first)
    with pytest.raises(RuleViolation) as e:
        d.balancing.break_table(second)                                               # no room for six more
    assert e.value.code == "bad_break"
    player = next(iter(d.tables[first].seats.values()))
    with pytest.raises(RuleViolation):
        d.balancing.move_player(player, second, by="td")                              # the other table is full
    with pytest.raises(RuleViolation) as e:
        d.balancing.break_table("no-such-table")
    assert e.value.code == "bad_break"


def test_TR_REG_5_a_director_removes_a_registrant_whatever_the_unregistering_rules():
    room = Room(spec(unregister_until=None))
    room.register("a", "b")
    room.apply(room.director.registration.remove("a"))
    assert room.cash("a") == 100_000 and "a" not in room.director.entries
    assert room.director.spec.unregister_until is None                     # the rules are unchanged


def _uneven_pair(room: Room) -> tuple[str, str]:
    """The fuller and the emptier of two tables (5 and 4): a move from the first leaves them balanced."""
    first, second = sorted(room.director.tables, key=lambda t: -len(room.director.tables[t].seats))
    return first, second


def test_TR_PLAY_4_a_directors_move_asked_during_a_hand_waits_for_its_end_and_then_happens():
    room = started([f"p{i}" for i in range(9)], table_size=6)
    d = room.director
    source, target = _uneven_pair(room)
    room.deal(source)
    mover = next(iter(d.tables[source].seats.values()))
    room.apply(d.apply(tc.MovePlayer(mover, target, "td")))
    assert d.table_of(mover).id == source and d.balancing.waiting_for(mover) == source    # queued, not refused
    assert not [e for e in room.of(td.Seated) if e.reason == "director"]
    room.check_down(source)
    assert d.table_of(mover).id == target and d.balancing.queued == []
    (moved,) = [e for e in room.of(td.Seated) if e.reason == "director"]
    assert (moved.player, moved.source, moved.table) == (mover, source, target)
    assert sorted(len(t.seats) for t in d.tables.values()) == [4, 5]


def test_TR_PLAY_4_a_player_queued_to_move_who_busts_in_the_hand_is_not_moved():
    room = started([f"p{i}" for i in range(9)], table_size=6)
    d = room.director
    source, target = _uneven_pair(room)
    order = room.dealing_order(source)
    winner, loser = order[:2]
    room.deal(source, winning([winner, loser]))
    room.apply(d.apply(tc.MovePlayer(loser, target, "td")))
    room.shove_all(source, only=[winner, loser])
    assert loser not in d.entries and d.balancing.queued == []
    assert not [e for e in room.of(td.Seated) if e.reason == "director"]
    assert loser not in d.tables[target].seats.values()
