"""Side pots, splitting, showdown order and mucking, run it twice (HR-TIE-1..3, HR-STAKE-1, TDA showdown)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pokerroom.poker import PLO, Bet, Call, Check, Fold, Hand, Post, Raise, RunItTwice, Stakes
from pokerroom.poker.events import (
    BoardDealt,
    CardsExposed,
    HandEnded,
    HandMucked,
    HandShown,
    PotAwarded,
    PotFormed,
    RunItTwiceAnswered,
    RunItTwiceDecided,
    RunItTwiceOffered,
)
from pokerroom.poker.pots import side_pots, split_pot
from tests.poker.engine_drivers import setup, stacked_deck


def of(h: Hand, kind) -> list:
    return [e for e in h.events if isinstance(e, kind)]


def final_stacks(h: Hand) -> dict[int, int]:
    return dict(of(h, HandEnded)[0].stacks)


def check_down(h: Hand) -> None:
    while not h.ended:
        legal = h.legal_actions()
        h.apply(Check(legal.seat))


def test_POT_1_side_pots_by_contribution_level_with_folded_chips():
    # Positions 0..3 put in 50, 100, 150, 150; position 3 folded after putting in 150.
    pots = side_pots([50, 100, 150, 150], [True, True, True, False])
    assert pots == [(200, (0, 1, 2)), (150, (1, 2)), (100, (2,))]
    assert side_pots([10, 10], [True, True]) == [(20, (0, 1))]


def test_HR_MB_1_dead_money_goes_to_the_main_pot_not_to_a_contribution_level():
    assert side_pots([2, 2, 10, 10], [True, True, True, True], dead_money=1) == [(9, (0, 1, 2, 3)),
                                                                                (16, (2, 3))]
    assert side_pots([0, 2], [True, False], dead_money=1) == [(3, (0,))]
    # A player all-in on a dead post alone can win the dead money, and nothing more.
    assert side_pots([0, 2, 2], [True, True, True], dead_money=1) == [(1, (0, 1, 2)), (4, (1, 2))]
    assert side_pots([0, 2, 2], [True, True, True]) == [(4, (1, 2))]


def test_HR_MB_2_an_all_in_dead_poster_who_loses_leaves_the_dead_blind_to_the_winner():
    # Seat 3 owes a live big blind and a dead small blind and has exactly 3 chips: all-in on posting.
    deck = stacked_deck(["7h2s", "AcAd", "8d3c", "KcKd"], "9c5d4hTsJc")
    owed = (Post(3, "entry", 2), Post(3, "dead_small_blind", 1))
    h = Hand(setup([100, 100, 3, 100], owed_posts=owed), deck)
    h.apply(Call(4))
    h.apply(Fold(1))
    h.apply(Check(2))
    check_down(h)
    assert [(e.amount, e.seats) for e in of(h, PotFormed)] == [(8, (2, 3, 4))]
    assert final_stacks(h) == {1: 99, 2: 106, 3: 0, 4: 98}


def test_POT_1_big_blind_ante_is_dead_money_even_when_the_big_blind_is_all_in():
    deck = stacked_deck(["KcKd", "7h2s", "AcAd"], "9c5d4hTsJc")
    h = Hand(setup([100, 3, 100], stakes=Stakes(1, 2, ante=2, big_blind_ante=True)), deck)
    h.apply(Call(3))
    h.apply(Call(1))
    check_down(h)
    # The big blind (seat 2) put in 2 + 1 dead: the main pot is 3 * 2 + 1 and seat 3's aces take it.
    assert [(e.amount, e.seats) for e in of(h, PotFormed)] == [(7, (1, 2, 3))]
    assert final_stacks(h) == {1: 98, 2: 0, 3: 105}


def test_HR_TIE_3_split_gives_odd_chips_one_at_a_time_clockwise_from_the_first_winner():
    assert split_pot(7, [2, 0]) == [4, 3]
    assert split_pot(8, [0, 1, 2]) == [3, 3, 2]          # the interpretation's example: never 4/2/2
    assert split_pot(11, [1, 2, 3]) == [4, 4, 3]
    assert split_pot(13, [0, 2, 3, 5]) == [4, 3, 3, 3]


@given(st.integers(0, 10**9), st.integers(1, 9))
def test_HR_TIE_3_odd_chips_go_one_each_to_the_first_winners_in_button_order(amount: int, ties: int):
    shares = split_pot(amount, list(range(ties)))
    assert sum(shares) == amount                           # no chip lost or made
    assert max(shares) - min(shares) <= 1                  # never two odd chips to one player
    assert shares == sorted(shares, reverse=True)          # the extra chips go to the earliest in button order
    assert shares.count(amount // ties + 1) == amount % ties


def test_HR_STAKE_1_multiway_side_pots_with_three_all_ins_of_different_sizes():
    # Seats 1..4 (button 4) with 50, 100, 150 and 1000 chips; best hand is the shortest stack.
    deck = stacked_deck(["AcAd", "KcKd", "QcQd", "7h2s"], "2c5d9hTs3c")
    h = Hand(setup([50, 100, 150, 1000]), deck)
    h.apply(Raise(3, 150))       # UTG all-in
    h.apply(Call(4))
    h.apply(Call(1))             # all-in for 50
    h.apply(Call(2))             # all-in for 100
    assert h.ended
    assert [(e.amount, e.seats) for e in of(h, PotFormed)] == [(200, (1, 2, 3, 4)), (150, (2, 3, 4)),
                                                              (100, (3, 4))]
    assert [(e.pot, e.seats, e.shares) for e in of(h, PotAwarded)] == [(0, (1,), (200,)), (1, (2,), (150,)),
                                                                     (2, (3,), (100,))]
    assert final_stacks(h) == {1: 200, 2: 150, 3: 100, 4: 850}
    assert [e.seat for e in of(h, CardsExposed)] == [1, 2, 3, 4]     # all-in, action complete: face up


def test_HR_TIE_3_odd_chip_goes_to_the_first_tied_winner_left_of_the_button():
    # Button seat 2: dealing order is 3, 1, 2. Seats 3 and 1 tie on a royal flush board; pot 7.
    deck = stacked_deck(["2c3c", "4d5d", "6h7h"], "AsKsQsJsTs")
    h = Hand(setup([100, 100, 100], button=2, stakes=Stakes(1, 2, ante=1)), deck)
    h.apply(Fold(2))
    h.apply(Call(3))
    h.apply(Check(1))
    check_down(h)
    award = of(h, PotAwarded)[0]
    assert (award.amount, award.seats, award.shares) == (7, (3, 1), (4, 3))
    assert final_stacks(h) == {3: 101, 1: 100, 2: 99}


def test_HR_TIE_3_each_side_pot_is_split_on_its_own():
    # Five seats, button 5, a royal flush on board: every hand still in ties.
    deck = stacked_deck(["2c3d", "4c5d", "6h7d", "8c9d", "2d3c"], "AsKsQsJsTs")
    h = Hand(setup([100, 100, 10, 100, 100]), deck)
    h.apply(Raise(3, 10))        # seat 3 all-in
    h.apply(Call(4))
    h.apply(Call(5))
    h.apply(Fold(1))             # leaves its small blind: main pot 1 + 4 * 10 = 41
    h.apply(Call(2))
    h.apply(Bet(2, 5))           # flop
    h.apply(Call(4))
    h.apply(Call(5))
    h.apply(Bet(2, 20))          # turn
    h.apply(Call(4))
    h.apply(Fold(5))             # leaves 5 in the side pot: 25 + 25 + 5 = 55
    check_down(h)
    assert [(e.amount, e.seats) for e in of(h, PotFormed)] == [(41, (2, 3, 4)), (55, (2, 4))]
    # Each pot is split on its own, odd chips one at a time clockwise from the first winner left of the
    # button (seat 2, then seat 3): 41 three ways is 14/14/13, never 15/13/13.
    awards = [(e.pot, e.seats, e.shares) for e in of(h, PotAwarded)]
    assert awards == [(0, (2, 3, 4), (14, 14, 13)), (1, (2, 4), (28, 27))]


def test_HR_TIE_1_higher_pair_wins():
    deck = stacked_deck(["KcKd", "AcAd"], "2h7s9dJc3h")
    h = Hand(setup([100, 100], button=2), deck)
    h.apply(Call(2))
    h.apply(Check(1))
    check_down(h)
    assert of(h, PotAwarded)[0].seats == (2,)


def test_HR_TIE_2_kickers_decide_within_the_best_five_cards_only():
    deck = stacked_deck(["Qc3s", "Jc4s"], "AsAdKh7c2d")
    h = Hand(setup([100, 100], button=2), deck)
    h.apply(Call(2))
    h.apply(Check(1))
    check_down(h)
    assert of(h, PotAwarded)[0].seats == (1,)                      # A-A-K-Q-7 beats A-A-K-J-7
    deck = stacked_deck(["2c3d", "4c5d"], "AsAhKdQcJs")
    h = Hand(setup([100, 100], button=2), deck)
    h.apply(Call(2))
    h.apply(Check(1))
    check_down(h)
    assert of(h, PotAwarded)[0].seats == (1, 2)                    # the board plays: a tie


def test_HR_TIE_1_omaha_uses_exactly_two_hole_cards():
    # Seat 1 holds four hearts but the board has only two: no flush. Seat 2's pair of kings wins.
    deck = stacked_deck(["AhQh3h4h", "KcKd8c9d"], "JhTh2s7c5d")
    h = Hand(setup([100, 100], button=2, variant=PLO), deck)
    h.apply(Call(2))
    h.apply(Check(1))
    check_down(h)
    assert of(h, PotAwarded)[0].seats == (2,)


def test_HR_TIE_1_five_card_omaha_deals_five_and_still_uses_exactly_two():
    from pokerroom.poker import PLO5
    from pokerroom.poker.events import HoleCardsDealt
    # Seat 1: five spades but two on board, so no flush (a 2-3 straight); seat 2: a 7-8 straight.
    deck = stacked_deck(["AsKsQs2s3s", "7c8d9hQdKd"], "JsTs4h5d6c")
    h = Hand(setup([100, 100], button=2, variant=PLO5), deck)
    assert [len(e.cards) for e in of(h, HoleCardsDealt)] == [5, 5]
    h.apply(Call(2))
    h.apply(Check(1))
    check_down(h)
    shown = {e.seat: e.category for e in of(h, HandShown)}
    assert shown[1] != "FLUSH"
    assert of(h, PotAwarded)[0].seats == (2,)


def test_SD_1_SD_2_last_aggressor_shows_first_and_a_beaten_hand_may_muck():
    deck = stacked_deck(["AcAd", "KcKd", "7h2s"], "2c5d9hTs3c")
    h = Hand(setup([100, 100, 100]), deck)
    for a in (Call(3), Call(1), Check(2)):
        h.apply(a)
    for _ in range(2):
        for seat in (1, 2, 3):
            h.apply(Check(seat))
    h.apply(Check(1))
    h.apply(Bet(2, 10))          # seat 2 is the river's last aggressor
    h.apply(Call(3))
    h.apply(Call(1))
    shown = [(e.seat, e.description) for e in of(h, HandShown)]
    assert shown[0][0] == 2
    # Seat 3 (7-2, beaten by the shown kings) mucks; seat 1's aces beat the kings and show.
    assert [e.seat for e in of(h, HandMucked)] == [3]
    assert [s for s, _ in shown] == [2, 1]
    assert of(h, PotAwarded)[0].seats == (1,)


def test_SD_1_without_a_river_bet_showdown_starts_left_of_the_button():
    deck = stacked_deck(["7h2s", "KcKd", "AcAd"], "2c5d9hTs3c")
    h = Hand(setup([100, 100, 100]), deck)
    for a in (Call(3), Call(1), Check(2)):
        h.apply(a)
    check_down(h)
    # Seat 1 shows first (a pair of deuces); seat 2's kings beat it, then seat 3's aces beat those.
    assert [e.seat for e in of(h, HandShown)] == [1, 2, 3]
    assert of(h, HandMucked) == []


def test_SD_2_an_all_in_loser_cannot_muck():
    deck = stacked_deck(["7h2s", "AcAd"], "KcQd9hTs3c")
    h = Hand(setup([100, 50], button=2), deck)
    for a in (Call(2), Check(1)):
        h.apply(a)
    h.apply(Check(1))
    h.apply(Bet(2, 48))          # all-in on the flop
    h.apply(Call(1))
    assert {e.seat for e in of(h, HandShown)} == {1, 2}
    assert of(h, HandMucked) == []


def test_SD_2_an_uncontested_pot_needs_no_show():
    deck = stacked_deck(["7h2s", "AcAd", "KcKd"], "KhQd9hTs3c")
    h = Hand(setup([100, 100, 100]), deck)
    for a in (Call(3), Call(1), Check(2)):
        h.apply(a)
    h.apply(Bet(1, 10))
    h.apply(Fold(2))
    h.apply(Fold(3))
    assert h.ended and of(h, HandShown) == [] and of(h, HandMucked) == []
    assert [(e.seats, e.amount, e.rank) for e in of(h, PotAwarded)] == [((1,), 6, 0)]


def run_twice_hand(answers) -> Hand:
    # Seats 1 (SB) and 2 (BB) get all-in pre-flop; seat 3 folds after its ante. Pot 203.
    deck = stacked_deck(["AcAd", "KcKd", "2h3h"], "4s7h9cTdJs" + "Ks8h5c2d3s")
    h = Hand(setup([101, 101, 101], stakes=Stakes(1, 2, ante=1), run_it_twice=True), deck)
    h.apply(Fold(3))
    h.apply(Raise(1, 100))
    h.apply(Call(2))
    for seat, agree in answers:
        h.apply(RunItTwice(seat, agree))
    return h


def test_SD_3_run_it_twice_when_every_all_in_player_agrees():
    h = run_twice_hand([(1, True), (2, True)])
    assert of(h, RunItTwiceOffered)[0].seats == (1, 2)
    assert of(h, RunItTwiceDecided)[0].runs == 2
    boards = [(e.run, e.street) for e in of(h, BoardDealt)]
    assert boards == [(1, "flop"), (1, "turn"), (1, "river"), (2, "flop"), (2, "turn"), (2, "river")]
    awards = [(e.run, e.amount, e.seats) for e in of(h, PotAwarded)]
    assert awards == [(1, 102, (1,)), (2, 101, (2,))]              # the odd chip of the halves goes to run 1
    assert final_stacks(h) == {1: 102, 2: 101, 3: 100}


def test_SD_3_run_it_twice_needs_everyone_one_no_means_one_board():
    h = run_twice_hand([(1, False)])
    assert [(e.seat, e.agree) for e in of(h, RunItTwiceAnswered)] == [(1, False)]
    assert of(h, RunItTwiceDecided)[0].runs == 1
    assert {e.run for e in of(h, BoardDealt)} == {1}
    assert final_stacks(h) == {1: 203, 2: 0, 3: 100}


def test_HR_TIME_3_no_answer_to_run_it_twice_is_a_no():
    h = run_twice_hand([(1, True)])
    assert h.legal_actions().run_it_twice and h.to_act() == 2
    events = h.timeout(2)
    assert (events[0].agree, events[0].timed_out) == (False, True)
    assert of(h, RunItTwiceDecided)[0].runs == 1


def test_SD_3_run_it_twice_vote_refuses_betting_commands():
    import pytest

    from pokerroom.errors import RuleViolation
    h = run_twice_hand([])
    with pytest.raises(RuleViolation) as caught:
        h.apply(Check(1))
    assert caught.value.code == "answer_run_it_twice"
