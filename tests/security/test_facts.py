"""What one finished hand says about pairs of players (SEC-3, HR-CHAT-4, TR-PLAY-5, TR-PLAY-6).

Hands are played through the real engine with stacked decks (players p1..pn
at seats 1..n, the button on the last seat), so every fact is read from events
exactly as the room writes them.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.poker import Bet, Call, Check, Fold, Hand, Raise, RakeSchedule
from pokerroom.poker.events import HandEnded
from pokerroom.security.facts import HandFacts, flows_between, hand_facts, is_strong
from pokerroom.store.security_records import pack_facts, unpack_facts
from tests.poker.engine_drivers import random_action, setup, stacked_deck

WEAK = ["2c3d", "4h6s", "7c9d", "8hTs", "2s5h", "3c7h"]
RAKE = RakeSchedule(Fraction(5, 100), ((2, 4),))


def play(stacks, actions, *, holes=None, board="", rake=None) -> Hand:
    hand = Hand(setup(stacks, rake=rake), stacked_deck(holes or WEAK[:len(stacks)], board))
    for action in actions:
        if callable(action):                    # a step of play, e.g. check_down
            action(hand)
        else:
            hand.apply(action)
    return hand


def check_down(hand: Hand) -> None:
    while not hand.ended:
        hand.apply(Check(hand.legal_actions().seat))


def facts_of(hand: Hand, **kw) -> HandFacts:
    kw.setdefault("table_id", "t1")
    kw.setdefault("game_key", "NLHE 1/2")
    kw.setdefault("at", 1_700_000_000.0)
    return hand_facts(hand.events, **kw)


def idx(name: str, f: HandFacts) -> int:
    return f.players.index(name)


# ----------------------------------------------------------------------------- chip dumping


def test_SEC_3_a_fold_after_ten_big_blinds_to_the_pot_winner_is_a_dump():
    # three-handed: the button p3 acts first, then p1 (small blind), p2 (big blind)
    hand = play([200, 200, 200], [Fold(3), Raise(1, 24), Raise(2, 60), Fold(1)])
    f = facts_of(hand)
    assert f.dumps == ((idx("p1", f), idx("p2", f), 24),)
    assert f.strong_folds == ()
    assert not f.showdown
    assert f.net[idx("p1", f)] == -24 and f.net[idx("p2", f)] == 24
    assert f.flows == ((idx("p1", f), idx("p2", f), 24),)


def test_SEC_3_a_small_fold_is_not_a_dump_but_a_third_of_the_stack_is():
    small = facts_of(play([200, 200, 200], [Fold(3), Raise(1, 6), Raise(2, 18), Fold(1)]))
    assert small.dumps == ()
    short = facts_of(play([30, 200, 200], [Fold(3), Raise(1, 10), Raise(2, 30), Fold(1)]))
    assert short.dumps == ((0, 1, 10),)          # 10 chips is 5 big blinds, but a third of p1's 30


def test_SEC_3_no_dump_when_the_bettor_does_not_win_without_showdown():
    hand = play([200, 200, 200], [Call(3), Raise(1, 24), Raise(2, 60), Call(3), Fold(1), check_down])
    f = facts_of(hand)
    assert f.showdown
    assert f.dumps == ()


def test_SEC_3_a_timed_out_fold_is_not_a_dump():
    hand = play([200, 200, 200], [Fold(3), Raise(1, 24), Raise(2, 60), lambda h: h.timeout(1)])
    assert facts_of(hand).dumps == ()


@pytest.mark.parametrize(("holes", "strong"), [("QhQd", True), ("KcKs", True), ("AsKs", True), ("AsKd", False),
                                               ("JhJd", False)])
def test_SEC_3_folding_QQ_plus_or_AKs_to_a_raise_before_the_flop_is_a_strong_fold(holes, strong):
    hand = play([200, 200, 200], [Fold(3), Call(1), Raise(2, 8), Fold(1)], holes=[holes, "7c2d", "8h3s"])
    f = facts_of(hand)
    assert f.strong_folds == (((0, 1, 2),) if strong else ())


def test_SEC_3_folding_a_flush_on_the_flop_is_a_strong_fold():
    hand = play([200, 200, 200], [Fold(3), Call(1), Check(2), Check(1), Bet(2, 4), Fold(1)],
                holes=["AhKh", "7c2d", "8d3s"], board="2h7h9h Tc 3d")
    assert facts_of(hand).strong_folds == ((0, 1, 2),)


@pytest.mark.parametrize(("holes", "strong"), [("2c3c", False), ("Tc2d", True)])
def test_SEC_3_a_river_straight_that_only_plays_the_board_is_not_strong(holes, strong):
    river = [Fold(3), Call(1), Check(2)] + [Check(1), Check(2)] * 2 + [Check(1), Bet(2, 4), Fold(1)]
    hand = play([200, 200, 200], river, holes=[holes, "AhAd", "KdKs"], board="5s6d7c 8h 9s")
    assert facts_of(hand).strong_folds == (((0, 1, 2),) if strong else ())


def test_SEC_3_is_strong_reads_omaha_with_two_hole_cards():
    from pokerroom.cards import parse

    # a four-flush in hand but only one heart on board: no flush in Omaha
    assert not is_strong(parse("AhKhQhJh"), parse("2h7c9d"), omaha=True)
    assert is_strong(parse("AhKh2c3d"), parse("2h7h9h"), omaha=True)
    assert not is_strong(parse("AhKhQhJh"), (), omaha=True)     # no pre-flop rule for Omaha


# ----------------------------------------------------------------------------- squeeze


def test_SEC_3_alternating_raises_around_a_caller_are_a_squeeze():
    # four-handed: p3 first, p4 on the button, p1 small blind, p2 big blind
    actions = [Raise(3, 6), Call(4), Fold(1), Raise(2, 18), Raise(3, 40), Fold(4), Fold(2)]
    f = facts_of(play([200] * 4, actions))
    assert f.squeezes == ((idx("p2", f), idx("p3", f)),)


def test_SEC_3_no_squeeze_without_a_caller_still_in():
    actions = [Raise(3, 6), Fold(4), Fold(1), Raise(2, 18), Raise(3, 40), Fold(2)]
    assert facts_of(play([200] * 4, actions)).squeezes == ()


# ----------------------------------------------------------------------------- soft play


def test_SEC_3_postflop_decisions_are_counted_per_opponent_live_heads_up_and_multiway():
    actions = [Call(3), Call(1), Check(2),
               Bet(1, 4), Call(2), Fold(3),             # flop: multiway
               Check(1), Bet(2, 8), Call(1),            # turn: heads-up
               Check(1), Check(2)]                      # river
    f = facts_of(play([200] * 3, actions))
    p1, p2, p3 = (idx(p, f) for p in ("p1", "p2", "p3"))
    assert f.postflop[p1] == (3, 0, 1, 1)
    assert f.postflop[p2] == (2, 1, 1, 0)
    assert f.postflop[p3] == (0, 0, 1, 0)
    soft = {(a, b): counts for a, b, *counts in f.soft}
    assert soft[p1, p2] == [3, 0, 1, 1]
    assert soft[p1, p3] == [0, 0, 1, 1]
    assert soft[p2, p1] == [2, 1, 1, 0]
    assert soft[p3, p1] == soft[p3, p2] == [0, 0, 1, 0]
    assert (p2, p3) in soft and (p3, p1) in soft and len(soft) == 6


def test_SEC_3_an_all_in_player_cannot_be_bet_into():
    # p3 is all-in pre-flop; p1 and p2 bet on: p3 is in no soft-play count as the one bet into
    actions = [Raise(3, 10), Call(1), Call(2), Bet(1, 10), Call(2), check_down]
    f = facts_of(play([200, 200, 10], actions))
    assert all(b != idx("p3", f) for _, b, *_ in f.soft)


# ----------------------------------------------------------------------------- tournaments (TR-PLAY-5, TR-PLAY-6)


def bounty_hand(*, bet_on_flop: bool = False) -> Hand:
    flop = [Bet(1, 10), Call(2)] if bet_on_flop else [Check(1), Check(2)]
    return play([200, 200, 10], [Raise(3, 10), Call(1), Call(2), *flop, check_down])


def test_TR_PLAY_6_checking_it_down_after_a_third_players_all_in_is_recorded_in_bounty_tournaments():
    f = facts_of(bounty_hand(), tournament="T1", bounty=True)
    assert f.bounty and f.showdown
    assert f.bounty_check_downs == ((idx("p1", f), idx("p2", f), idx("p3", f)),)


def test_TR_PLAY_6_no_check_down_fact_outside_bounty_tournaments_or_after_a_bet():
    assert facts_of(bounty_hand(), tournament="T1", bounty=False).bounty_check_downs == ()
    cash = facts_of(bounty_hand(), bounty=True)
    assert cash.bounty_check_downs == () and not cash.bounty
    assert facts_of(bounty_hand(bet_on_flop=True), tournament="T1", bounty=True).bounty_check_downs == ()


def test_TR_PLAY_5_timed_out_players_are_recorded_in_tournaments_only():
    def time_out_everyone(hand: Hand) -> None:
        while not hand.ended:
            hand.timeout(hand.legal_actions().seat)

    hand = play([200] * 4, [time_out_everyone])
    tournament = facts_of(hand, tournament="T1")
    assert tournament.timed_out == tuple(sorted(idx(p, tournament) for p in ("p1", "p3", "p4")))
    assert facts_of(hand).timed_out == ()          # a cash table: no tournament, no sit-out fact


# ----------------------------------------------------------------------------- chat (HR-CHAT-4)


def test_HR_CHAT_4_chat_during_the_hand_keeps_every_author_seated_or_not():
    hand = play([200] * 3, [Fold(3), Fold(1)])
    f = facts_of(hand, chatted=["railbird", "p2", "railbird"])
    assert f.chatted == ("p2", "railbird")
    assert f.players == ("p1", "p2", "p3")


# ----------------------------------------------------------------------------- chip flow


def test_SEC_3_chip_flows_split_each_loss_among_the_winners_net_of_rake():
    # p1 and p3 lose 7 and 5; p2 wins 9 and p4 wins 1 after 2 chips of rake
    assert sum(c for _, _, c in flows_between([-7, 9, -5, 1])) == 10
    flows = flows_between([-7, 9, -5, 1])
    out = {}
    into = {}
    for a, b, c in flows:
        out[a] = out.get(a, 0) + c
        into[b] = into.get(b, 0) + c
    assert into == {1: 9, 3: 1}
    assert out[0] in (5, 6) and out[2] in (4, 5) and out[0] + out[2] == 10
    assert flows_between([0, 0]) == () and flows_between([-3, 0]) == ()


def test_SEC_3_flows_of_a_raked_showdown_conserve_chips():
    hand = play([200] * 3, [Raise(3, 20), Call(1), Call(2), check_down], holes=["AhAd", "KhKd", "2c7s"],
                board="3s8dJc 4h 9c", rake=RAKE)
    f = facts_of(hand)
    assert f.rake > 0 and f.showdown
    assert sum(f.net) == -f.rake
    losses = -sum(n for n in f.net if n < 0)
    assert sum(c for _, _, c in f.flows) == losses - f.rake
    assert f.pot == 60 and f.big_blind == 2


@st.composite
def results(draw):
    """A hand's net results: losers, winners and players who broke even, summing to minus a rake of 0 or more."""
    losses = draw(st.lists(st.integers(1, 10_000), min_size=1, max_size=5))
    rake = draw(st.integers(0, min(sum(losses) - 1, 60)))
    won = sum(losses) - rake
    winners = draw(st.integers(1, min(4, won)))
    cuts = sorted(draw(st.sets(st.integers(1, won - 1), min_size=winners - 1, max_size=winners - 1))) \
        if winners > 1 else []
    wins = [b - a for a, b in zip([0, *cuts], [*cuts, won], strict=True)]
    net = [-x for x in losses] + wins + [0] * draw(st.integers(0, 2))
    return draw(st.permutations(net))


@given(results())
def test_SEC_3_property_flows_out_of_losers_equal_their_losses_net_of_their_rake_share(net):
    flows = flows_between(net)
    lost = -sum(n for n in net if n < 0)
    won = sum(n for n in net if n > 0)
    out: dict[int, int] = {}
    into: dict[int, int] = {}
    for a, b, chips in flows:
        assert net[a] < 0 < net[b] and chips > 0
        out[a] = out.get(a, 0) + chips
        into[b] = into.get(b, 0) + chips
    assert into == {j: n for j, n in enumerate(net) if n > 0}            # winners get exactly their winnings
    for i, n in enumerate(net):
        if n < 0:
            exact = Fraction(-n * won, lost)                             # the loss less its share of the rake
            assert abs(out.get(i, 0) - exact) < 1
    assert sum(out.values()) == won


def random_hand(seed: int, players: int, rake: RakeSchedule | None) -> Hand:
    rng = random.Random(seed)
    stacks = [rng.randint(20, 400) for _ in range(players)]
    hand = Hand(setup(stacks, rake=rake), rng.sample(range(52), 52))
    while not hand.ended:
        hand.apply(random_action(hand.legal_actions(), rng))
    return hand


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.integers(2, 6), st.booleans())
def test_SEC_3_property_any_engine_hand_conserves_chips_in_its_facts_and_round_trips(seed, players, raked):
    hand = random_hand(seed, players, RAKE if raked else None)
    f = facts_of(hand, tournament="T9" if seed % 2 else None, bounty=seed % 3 == 0, chatted=["p1", "rail"])
    ended = [e for e in hand.events if isinstance(e, HandEnded)][0]
    assert sum(f.net) == -ended.rake == -f.rake
    assert sum(c for _, _, c in f.flows) == -sum(n for n in f.net if n < 0) - f.rake
    assert len(f.postflop) == len(f.players) == len(f.net)
    for a, b, chips in f.dumps + f.strong_folds:
        assert a != b and chips >= 0
    assert unpack_facts(pack_facts(f)) == f


# ----------------------------------------------------------------------------- packing


def test_SEC_3_pack_unpack_round_trip_is_exact_and_small():
    hand = play([200] * 6, [Raise(3, 6), Call(4), Call(5), Call(6), Fold(1), Call(2), check_down],
                holes=WEAK, board="AhKd5c 9s Qd")
    f = facts_of(hand, tournament="T1", bounty=True, chatted=["p4", "railbird"])
    data = pack_facts(f)
    assert isinstance(data, bytes) and len(data) < 300
    back = unpack_facts(data)
    assert back == f and type(back.players) is tuple and type(back.soft[0]) is tuple


names = st.text(st.characters(codec="utf-8"), min_size=1, max_size=12)
small = st.integers(0, 2**31)


@given(st.builds(
    HandFacts, names, names, names, st.none() | names, st.booleans(), st.floats(allow_nan=False),
    st.lists(names, max_size=9).map(tuple), small, small, small, st.booleans(),
    st.lists(st.integers(-2**40, 2**40), max_size=9).map(tuple),
    st.lists(st.tuples(small, small, small), max_size=5).map(tuple),
    st.lists(st.tuples(small, small, small, small), max_size=5).map(tuple),
    st.lists(st.tuples(small, small, small, small, small, small), max_size=5).map(tuple),
    st.lists(st.tuples(small, small, small), max_size=3).map(tuple),
    st.lists(st.tuples(small, small, small), max_size=3).map(tuple),
    st.lists(st.tuples(small, small), max_size=3).map(tuple),
    st.lists(st.tuples(small, small, small), max_size=3).map(tuple),
    st.lists(small, max_size=4).map(tuple),
    st.lists(names, max_size=4).map(tuple)))
def test_SEC_3_property_packing_round_trips_any_facts(f):
    assert unpack_facts(pack_facts(f)) == f


def test_SEC_3_unpack_refuses_another_format_and_a_void_hand_has_no_facts():
    import msgpack

    with pytest.raises(ValueError, match="format"):
        unpack_facts(msgpack.packb((99, "h")))
    hand = play([200] * 3, [Fold(3)])
    with pytest.raises(ValueError, match="not ended"):
        hand_facts(hand.events, table_id="t", game_key="g", at=0.0)
