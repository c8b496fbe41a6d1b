"""A tournament table deals everyone at once and moves the blinds by the dead-button rule (TR-PLAY-7, HR-DC-3)."""

from __future__ import annotations

import pickle
import random

from pokerroom.poker import events as ev
from pokerroom.poker.actions import Call, Check, Fold
from pokerroom.poker.variants import NLHE, Stakes
from tournament.table import TournamentTable

STAKES = Stakes(50, 100)


def big_blinds(table: TournamentTable, hands: int, rng: random.Random) -> list[str]:
    """Who posted the big blind in each of ``hands`` hands, everyone folding to it."""
    posted = []
    for _ in range(hands):
        deck = list(range(52))
        rng.shuffle(deck)
        events = table.start_hand(STAKES, deck)
        posted.append(next(table.seats[e.seat] for e in events if isinstance(e, ev.Posted)
                           and e.kind == ev.POST_BIG_BLIND))
        while (turn := table.to_act()) is not None:
            player, legal = turn
            action = Check(legal.seat) if legal.can_check else Fold(legal.seat)
            table.act(player, action)
        table.finish_hand()
    return posted


def test_TR_PLAY_7_a_player_moved_in_is_dealt_at_once_even_in_the_blinds_and_nobody_posts_twice():
    rng = random.Random(4)
    table = TournamentTable("t", 6, NLHE, rng.choice)
    for seat, player in ((1, "a"), (3, "b"), (5, "c")):
        table.seat(player, seat, 5000)
    first = big_blinds(table, 3, rng)
    assert sorted(first) == ["a", "b", "c"]                          # the big blind goes round
    table.seat("moved", 4, 5000)                                     # moved in between hands, anywhere
    events = table.start_hand(STAKES, list(range(52)))
    dealt = [e.player for e in events if isinstance(e, ev.SeatDealtIn)]
    extra = [e for e in events if isinstance(e, ev.Posted) and e.kind not in (ev.POST_SMALL_BLIND,
                                                                                ev.POST_BIG_BLIND)]
    assert "moved" in dealt and extra == []                          # dealt in at once, no entry post


def test_TR_PLAY_7_heads_up_nobody_posts_the_big_blind_twice_in_a_row():
    rng = random.Random(9)
    table = TournamentTable("t", 9, NLHE, rng.choice)
    for seat, player in ((2, "a"), (7, "b"), (8, "c")):
        table.seat(player, seat, 5000)
    big_blinds(table, 2, rng)
    table.unseat("c")                                                # busted: heads-up from here
    posted = big_blinds(table, 8, rng)
    assert all(x != y for x, y in zip(posted, posted[1:], strict=False))


def test_HR_DC_3_an_away_player_is_checked_when_free_and_folded_when_facing_a_bet():
    rng = random.Random(2)
    table = TournamentTable("t", 6, NLHE, rng.choice)
    for seat, player in ((1, "a"), (2, "b"), (3, "c")):
        table.seat(player, seat, 5000)
    table.start_hand(STAKES, list(range(52)))
    player, legal = table.to_act()
    assert not legal.can_check                                       # first to act pre-flop faces the big blind
    taken = [e for e in table.timeout(player) if isinstance(e, ev.ActionTaken)]
    assert taken[0].action == ev.FOLD and taken[0].timed_out
    while (turn := table.to_act()) is not None and not turn[1].can_check:
        table.act(turn[0], Call(turn[1].seat))
    if (turn := table.to_act()) is not None:
        taken = [e for e in table.timeout(turn[0]) if isinstance(e, ev.ActionTaken)]
        assert taken[0].action == ev.CHECK


def test_TR_REFUND_3_a_table_pickled_in_a_hand_comes_back_between_hands_with_the_stacks_it_began_with():
    """``hand`` is read from the hand in play, so a stored table drops both at once; a table stored before
    that (its state still names a "hand") restores the same."""
    rng = random.Random(3)
    table = TournamentTable("t", 6, NLHE, rng.choice)
    for seat, player in ((1, "a"), (2, "b"), (3, "c")):
        table.seat(player, seat, 5000)
    table.start_hand(STAKES, list(range(52)))
    player, legal = table.to_act()
    table.act(player, Call(legal.seat))
    assert table.hand is table.play.hand and table.hand.events
    restored = pickle.loads(pickle.dumps(table))
    assert restored.hand is None and restored.play is None and not restored.in_hand
    assert restored.start_stacks() == restored.stacks == {"a": 5000, "b": 5000, "c": 5000}
    old = TournamentTable.__new__(TournamentTable)
    old.__setstate__(table.__getstate__() | {"hand": None})
    assert old.hand is None and old.stacks == restored.stacks and old.hand_number == 1
