"""The live blackjack table driven through its commands, hand by hand from stacked shoes (RULES.md BJ, CR).

Every shoe below is written in the order the cards leave it: with one seat that
is player card, dealer up card, player card, hole card, then hits and the
dealer's draws (BJ-3). Stakes are 100 minor units unless a test says otherwise.
"""

from __future__ import annotations

from collections import Counter
from functools import partial

import pytest

from pokerroom.casino.betting import Limits
from pokerroom.casino.blackjack import BlackjackTable
from pokerroom.casino.events import (
    BettingClosed,
    CardDealt,
    Decided,
    DecisionNeeded,
    HoleCardRevealed,
    LastRound,
    RoundSettled,
    RoundVoided,
    RoundWaiting,
    Staked,
)
from pokerroom.casino.shoe import stacked
from pokerroom.casino.table import DAY, CasinoRules
from tests.casino.drivers import c, card, dealer_draws, of, paid, settled
from tests.support.refusals import refused

RICH = 10_000_000
BET = 100


def table(shoe: str, **rules) -> BlackjackTable:
    return BlackjackTable(CasinoRules(table_id="bj1", name="Live Blackjack", game="blackjack",
                                      limits=Limits(100, 100_000), **rules), source=stacked(c(shoe)))


def start(shoe: str, seats: dict[int, str] | None = None, bet: int = BET, **rules) -> tuple[BlackjackTable, list]:
    """A table with the given seats each betting ``bet``; returns it and the events of the deal."""
    t = table(shoe, **rules)
    t.open_round()
    for seat, player in (seats or {1: "ann"}).items():
        t.join(player, seat)
        t.bet(player, "main", bet, RICH)
    return t, t.expire()


def state(t: BlackjackTable) -> tuple:
    """Everything a refused command must leave as it was."""
    bets = [(b.player, b.market, b.amount, b.extra, b.seat) for b in t.round.bets] if t.round else []
    return (t.phase, t.dealer.step, t.dealer.turn, repr(t.dealer.boxes), bets, dict(t.round.staked) if t.round else {},
            t.shoe.position if t.shoe else None, dict(t.seats), {p: t.view(p) for p in ("ann", "bob", "cat")},
            t.due())


# BJ-2 ---------------------------------------------------------------------------------------------------------------


def test_BJ_2_eight_decks_by_default():
    t = table("")
    t.open_round()
    assert t.rules.decks == 8
    assert len(t.shoe.cards) == 416
    assert Counter(t.shoe.cards) == Counter({k: 8 for k in range(52)})
    assert t.shoe.cut == 416 - 7


def test_BJ_2_the_round_that_brings_out_the_cut_card_is_the_last_then_a_fresh_shoe():
    # cut card after the 6th card: the player's second hit brings it out
    t, deal = start("5h 9h 6c 8d 2d 3s Tc", behind_cut=416 - 6)
    assert not of(deal, LastRound)
    first_shoe = t.shoe
    assert not of(t.decide("ann", "hit", 0, RICH), LastRound)            # 5th card
    hit = t.decide("ann", "hit", 0, RICH)                                 # 6th card: the cut card is out
    assert of(hit, LastRound) == [LastRound("bj1", 1)]
    end = t.decide("ann", "stand", 0, RICH)                               # dealer 17 stands
    assert not of(end, LastRound)
    assert paid(end) == {("ann", "main"): (100, 0)}                       # 16 against 17
    t.open_round()
    assert t.shoe is not first_shoe and t.shoe.position == 0
    t.bet("ann", "main", BET, RICH)
    deal2 = t.expire()
    assert [e.card for e in of(deal2, CardDealt)] == [*c("5h 9h 6c"), None]    # the stacked shoe from the top
    assert not of(deal2, LastRound)


def test_BJ_2_before_the_cut_card_the_next_round_deals_on_from_the_same_shoe():
    t, _ = start("Th 9h 9c 8d  Jc 7d 8c Ks")
    shoe = t.shoe
    end = t.decide("ann", "stand", 0, RICH)                               # 19 against 17
    assert paid(end) == {("ann", "main"): (100, 200)}
    assert not of(end, LastRound)
    t.open_round()
    assert t.shoe is shoe
    t.bet("ann", "main", BET, RICH)
    deal = t.expire()
    assert [e.card for e in of(deal, CardDealt)] == [*c("Jc 7d 8c"), None]


# BJ-3 ---------------------------------------------------------------------------------------------------------------


def test_BJ_3_cards_go_left_to_right_then_the_dealer_up_then_second_cards_then_the_hole_face_down():
    t = table("2c 3d 4h 5s 6c Kd 7c")
    t.open_round()
    t.join("cat", 6)
    t.join("ann", 2)
    t.join("bob", 4)                                 # seated but no bet: dealt nothing
    t.bet("cat", "main", BET, RICH)
    t.bet("ann", "main", BET, RICH)
    deal = t.expire()
    assert [(e.to, e.card, e.face_up, e.index) for e in of(deal, CardDealt)] == [
        ("hand", card("2c"), True, 2), ("hand", card("3d"), True, 6), ("dealer", card("4h"), True, 0),
        ("hand", card("5s"), True, 2), ("hand", card("6c"), True, 6), ("dealer", None, False, 0)]
    assert t.view("bob")["dealer"] == [card("4h"), None]
    assert t.view("ann")["hands"] == {"ann": [c("2c 5s")], "cat": [c("3d 6c")]}
    events = deal + t.decide("ann", "stand", 0, RICH) + t.decide("cat", "stand", 0, RICH)
    reveal = events.index(HoleCardRevealed("bj1", 1, card("Kd")))
    assert all(e.card != card("Kd") for e in of(events[:reveal], CardDealt))   # the hole card stays hidden
    assert dealer_draws(events) == c("7c")                                     # 14 draws to 21
    assert paid(events) == {("ann", "main"): (100, 0), ("cat", "main"): (100, 0)}


# BJ-4 ---------------------------------------------------------------------------------------------------------------


def test_BJ_4_players_decide_in_seat_order_and_out_of_turn_is_refused():
    t, deal = start("Tc 9c 7d 6h 8s Th", {3: "bob", 1: "ann"})      # ann 16, bob 17, dealer 17
    assert [(d.who, d.hand) for d in of(deal, DecisionNeeded)] == [("ann", 0)]
    refused(t.decide, "bob", "stand", 0, RICH, code="not_your_turn", rule="BJ-4", keeps=partial(state, t))
    refused(t.decide, "ann", "stand", 1, RICH, code="not_this_hand", rule="BJ-4", keeps=partial(state, t))
    refused(t.decide, "cat", "stand", 0, RICH, code="no_decision", rule="BJ-4", keeps=partial(state, t))
    ann_clock = t.due()
    after = t.decide("ann", "stand", 0, RICH)
    assert [(d.who, d.phase) for d in of(after, DecisionNeeded)] == [("bob", "play")]
    assert t.due().key != ann_clock.key and t.due().after == t.rules.decision_seconds
    refused(t.decide, "ann", "hit", 0, RICH, code="not_your_turn", rule="BJ-4", keeps=partial(state, t))


def test_BJ_4_no_answer_in_time_stands_the_hand_as_it_is_and_play_moves_on():
    t, _ = start("Tc 9c 7d 6h 8s Th 5c", {1: "ann", 3: "bob"})      # ann 16, bob 17, dealer 17
    timed_out = t.expire()
    assert of(timed_out, Decided) == [Decided("bj1", 1, "ann", 0, "stand", "timeout", tuple(c("Tc 6h")))]
    assert [d.who for d in of(timed_out, DecisionNeeded)] == ["bob"]
    t.decide("bob", "hit", 0, RICH)                                  # 17 + 5 = 22
    # bob busted; ann's 16 still stands against the dealer
    assert t.phase == "settled"
    assert t.view("ann")["hands"]["ann"] == [c("Tc 6h")]


def test_BJ_4_a_timeout_stands_only_the_hand_whose_clock_ran_out():
    t, _ = start("Tc 9c 7d 6h 8s Th 5c 2d", {1: "ann", 3: "bob"})
    t.decide("ann", "hit", 0, RICH)                                  # 16 + 5 = 21: done (BJ-5)
    end = t.expire()                                                 # bob's 17 stands
    assert of(end, Decided) == [Decided("bj1", 1, "bob", 0, "stand", "timeout", tuple(c("9c 8s")))]
    assert dealer_draws(end) == []                                   # dealer 17
    assert paid(end) == {("ann", "main"): (100, 200), ("bob", "main"): (100, 100)}


# BJ-5 ---------------------------------------------------------------------------------------------------------------


def test_BJ_5_a_hand_with_21_or_blackjack_is_not_offered_more_cards():
    # ann 5+6, bob blackjack, cat 9+9; dealer 9 up, 8 in the hole
    t, deal = start("5c Ah 9d 9s 6d Kc 9h 8h Tc", {1: "ann", 2: "bob", 3: "cat"})
    assert [d.who for d in of(deal, DecisionNeeded)] == ["ann"]
    hit = t.decide("ann", "hit", 0, RICH)                            # 11 + 10 = 21
    assert of(hit, Decided)[0].cards == tuple(c("5c 6d Tc"))
    assert [d.who for d in of(hit, DecisionNeeded)] == ["cat"]       # ann at 21 and bob's blackjack skipped
    refused(t.decide, "ann", "hit", 0, RICH, code="not_your_turn", rule="BJ-4", keeps=partial(state, t))
    refused(t.decide, "bob", "hit", 0, RICH, code="not_your_turn", rule="BJ-4", keeps=partial(state, t))
    end = t.decide("cat", "stand", 0, RICH)
    assert paid(end) == {("ann", "main"): (100, 200), ("bob", "main"): (100, 250), ("cat", "main"): (100, 200)}
    assert t.view("ann")["hands"]["ann"] == [c("5c 6d Tc")]


# BJ-6 ---------------------------------------------------------------------------------------------------------------


def test_BJ_6_double_stakes_the_bet_again_for_exactly_one_card():
    t, _ = start("2c 9s 3d 8h 4h 5c")                                # 5 against 17
    events = t.decide("ann", "double", 0, RICH)
    assert of(events, Staked) == [Staked("bj1", 1, "ann", 100, "double")]
    assert of(events, Decided)[0].cards == tuple(c("2c 3d 4h"))      # one card, 9, and no more decisions
    assert not of(events, DecisionNeeded)
    assert dealer_draws(events) == []
    assert paid(events) == {("ann", "main"): (200, 0)}


def test_BJ_6_a_doubled_win_pays_on_both_stakes():
    t, _ = start("5c 9s 6d 8h Tc")
    events = t.decide("ann", "double", 0, RICH)                      # 11 + 10 = 21 against 17
    assert paid(events) == {("ann", "main"): (200, 400)}


def test_BJ_6_double_only_on_the_first_two_cards():
    t, _ = start("2c 9s 3d 8h 4h")
    t.decide("ann", "hit", 0, RICH)
    refused(t.decide, "ann", "double", 0, RICH, code="illegal_move", rule="BJ-6", keeps=partial(state, t))


def test_BJ_6_no_double_after_a_split_by_default():
    t, _ = start("8c 9s 8d 8h 3h 5c")                               # 8,8 against 17
    t.decide("ann", "split", 0, RICH)                                # 8+3 and 8+5
    assert t.view("ann")["hands"]["ann"] == [c("8c 3h"), c("8d 5c")]
    err = refused(t.decide, "ann", "double", 0, RICH, code="illegal_move", rule="BJ-6", keeps=partial(state, t))
    assert "unsplit" in err.message


def test_BJ_6_double_after_split_when_the_table_allows_it():
    t, _ = start("8c 9s 8d 8h 3h 5c Tc", double_after_split=True)
    t.decide("ann", "split", 0, RICH)
    events = t.decide("ann", "double", 0, RICH)                      # 8+3+10 = 21
    assert of(events, Staked) == [Staked("bj1", 1, "ann", 100, "double")]
    assert t.view("ann")["hands"]["ann"] == [c("8c 3h Tc"), c("8d 5c")]
    end = t.decide("ann", "stand", 1, RICH)                          # 13 loses to 17
    assert paid(end) == {("ann", "main"): (300, 400)}


def test_BJ_6_a_double_needs_the_funds():
    t, _ = start("5c 9s 6d 8h Tc")
    refused(t.decide, "ann", "double", 0, 99, code="insufficient_funds", rule="BJ-6", keeps=partial(state, t))
    events = t.decide("ann", "double", 0, 100)
    assert of(events, Staked) == [Staked("bj1", 1, "ann", 100, "double")]


# BJ-7 ---------------------------------------------------------------------------------------------------------------


def test_BJ_7_split_aces_get_one_card_each_and_ace_ten_is_21_not_blackjack():
    t, _ = start("Ac 9s Ad Th Kh Qs")                                # A,A against 19
    events = t.decide("ann", "split", 0, RICH)
    assert of(events, Staked) == [Staked("bj1", 1, "ann", 100, "split")]
    assert t.view("ann")["hands"]["ann"] == [c("Ac Kh"), c("Ad Qs")]
    assert not of(events, DecisionNeeded)                            # no decisions on split aces
    assert paid(events) == {("ann", "main"): (200, 400)}            # 1:1 each, not 3:2


def test_BJ_7_split_ace_and_ten_loses_to_a_dealer_blackjack():
    t, _ = start("Ac Kc Ad As Kh Qs")                                # ten up: no peek, dealer blackjack
    events = t.decide("ann", "split", 0, RICH)
    assert settled(events).result.startswith("dealer blackjack")
    assert paid(events) == {("ann", "main"): (200, 0)}


def test_BJ_7_each_split_hand_gets_a_second_card_and_is_played_in_turn_with_no_resplit():
    t, _ = start("8c 7s 8d Th 8h 3c Tc")                             # 8,8 against 17
    events = t.decide("ann", "split", 0, RICH)
    assert t.view("ann")["hands"]["ann"] == [c("8c 8h"), c("8d 3c")]
    assert [(d.who, d.hand) for d in of(events, DecisionNeeded)] == [("ann", 0)]
    assert "split" not in of(events, DecisionNeeded)[0].moves
    refused(t.decide, "ann", "split", 0, RICH,  # 8,8 again: one split only
            code="illegal_move", rule="BJ-7", keeps=partial(state, t))
    refused(t.decide, "ann", "hit", 1, RICH, code="not_this_hand", rule="BJ-4", keeps=partial(state, t))
    events = t.decide("ann", "stand", 0, RICH)
    assert [(d.who, d.hand) for d in of(events, DecisionNeeded)] == [("ann", 1)]
    end = t.decide("ann", "hit", 1, RICH)                            # 11 + 10 = 21
    assert t.view("ann")["hands"]["ann"] == [c("8c 8h"), c("8d 3c Tc")]
    assert paid(end) == {("ann", "main"): (200, 200)}               # 16 loses, 21 wins


def test_BJ_7_split_only_equal_values_and_with_the_funds():
    t, _ = start("8c 7s 9d Th")
    refused(t.decide, "ann", "split", 0, RICH, code="illegal_move", rule="BJ-7", keeps=partial(state, t))
    t2, _ = start("Kc 7s Qd Th")                                     # ten-values split
    refused(t2.decide, "ann", "split", 0, 99, code="insufficient_funds", rule="BJ-7", keeps=partial(state, t2))
    assert of(t2.decide("ann", "split", 0, 100), Staked) == [Staked("bj1", 1, "ann", 100, "split")]


# BJ-8 ---------------------------------------------------------------------------------------------------------------


def test_BJ_8_insurance_pays_2_to_1_when_the_dealer_has_blackjack():
    t, deal = start("9c As 9d Kh")                                    # 18 against an ace, blackjack below
    assert [(d.who, d.phase) for d in of(deal, DecisionNeeded)] == [("", "insurance")]
    assert not of(deal, HoleCardRevealed)
    events = t.decide("ann", "insurance", 0, RICH)
    assert of(events, Staked) == [Staked("bj1", 1, "ann", 50, "insurance")]
    assert of(events, HoleCardRevealed) == [HoleCardRevealed("bj1", 1, card("Kh"))]
    assert paid(events) == {("ann", "main"): (100, 0), ("ann", "insurance"): (50, 150)}


def test_BJ_8_insurance_is_lost_when_the_dealer_has_no_blackjack():
    t, _ = start("9c As 9d 6h")                                       # dealer soft 17
    events = t.decide("ann", "insurance", 0, RICH)
    assert [(d.who, d.phase) for d in of(events, DecisionNeeded)] == [("ann", "play")]
    end = t.decide("ann", "stand", 0, RICH)
    assert paid(end) == {("ann", "main"): (100, 200), ("ann", "insurance"): (50, 0)}


def test_BJ_8_insurance_costs_half_the_bet_rounded_down():
    t, _ = start("9c As 9d 6h", bet=151)
    assert of(t.decide("ann", "insurance", 0, RICH), Staked) == [Staked("bj1", 1, "ann", 75, "insurance")]


def test_BJ_8_insurance_only_under_an_ace():
    t, deal = start("9c Ts 9d 6h")
    assert [d.phase for d in of(deal, DecisionNeeded)] == ["play"]
    refused(t.decide, "ann", "insurance", 0, RICH, code="no_insurance_now", rule="BJ-8", keeps=partial(state, t))


def test_BJ_8_everyone_answers_insurance_once_and_silence_is_a_no():
    t, _ = start("9c 5c As 9d 5d Kh", {1: "ann", 2: "bob"})
    first = t.decide("ann", "insurance", 0, RICH)
    assert not of(first, HoleCardRevealed)                            # bob has not answered yet
    refused(t.decide, "ann", "insurance", 0, RICH, code="no_insurance_now", rule="BJ-8", keeps=partial(state, t))
    refused(t.decide, "ann", "no_insurance", 0, RICH, code="no_insurance_now", rule="BJ-8", keeps=partial(state, t))
    events = t.expire()                                               # bob's time ran out: no insurance
    assert not of(events, Staked)
    assert paid(events) == {("ann", "main"): (100, 0), ("ann", "insurance"): (50, 150), ("bob", "main"): (100, 0)}


def test_BJ_8_insurance_needs_the_funds_and_a_refusal_leaves_the_answer_open():
    t, _ = start("9c As 9d Kh")
    refused(t.decide, "ann", "insurance", 0, 49, code="insufficient_funds", rule="BJ-8", keeps=partial(state, t))
    events = t.decide("ann", "insurance", 0, 50)                      # still her decision to make
    assert paid(events) == {("ann", "main"): (100, 0), ("ann", "insurance"): (50, 150)}


def test_BJ_8_a_blackjack_is_not_offered_insurance_at_the_live_table():
    t, deal = start("As 9c Ad Kh Kc Qh", {1: "ann", 2: "bob"})       # ann blackjack, bob 19
    assert [d.phase for d in of(deal, DecisionNeeded)] == ["insurance"]
    refused(t.decide, "ann", "insurance", 0, RICH, code="no_insurance_now", rule="BJ-8", keeps=partial(state, t))
    events = t.decide("bob", "insurance", 0, RICH)                    # the last answer: the dealer peeks
    assert paid(events) == {("ann", "main"): (100, 100), ("bob", "main"): (100, 0), ("bob", "insurance"): (50, 150)}


# BJ-9 ---------------------------------------------------------------------------------------------------------------


def test_BJ_9_the_peek_under_an_ace_ends_the_round_at_once():
    t, _ = start("Tc Ad 9d Qh")
    events = t.expire()                                               # insurance closes unanswered
    assert [type(e) for e in events] == [HoleCardRevealed, RoundSettled]
    assert paid(events) == {("ann", "main"): (100, 0)}
    assert t.phase == "settled"
    refused(t.decide, "ann", "hit", 0, RICH, code="no_decision", rule="BJ-4", keeps=partial(state, t))


def test_BJ_9_no_blackjack_under_the_ace_and_play_goes_on():
    t, _ = start("Tc Ad 9d 9h 5c")
    events = t.expire()
    assert not of(events, HoleCardRevealed)
    assert [(d.who, d.phase) for d in of(events, DecisionNeeded)] == [("ann", "play")]


def test_BJ_9_no_peek_under_a_ten_and_a_late_dealer_blackjack_takes_the_double_too():
    t, deal = start("5c Kd 6d As 9h")                                  # 11 against a king, ace in the hole
    assert [d.phase for d in of(deal, DecisionNeeded)] == ["play"]   # no peek, no insurance
    events = t.decide("ann", "double", 0, RICH)                      # 20
    assert dealer_draws(events) == []
    assert paid(events) == {("ann", "main"): (200, 0)}


def test_BJ_9_a_late_dealer_blackjack_takes_both_split_hands():
    t, _ = start("8c Kd 8d As Tc 9c")
    t.decide("ann", "split", 0, RICH)
    t.decide("ann", "stand", 0, RICH)                                 # 18
    events = t.decide("ann", "stand", 1, RICH)                        # 17
    assert paid(events) == {("ann", "main"): (200, 0)}


def test_BJ_9_configured_to_take_the_original_bet_only_the_double_comes_back():
    t, _ = start("5c Kd 6d As 9h", lose_all_on_dealer_blackjack=False)
    events = t.decide("ann", "double", 0, RICH)
    assert paid(events) == {("ann", "main"): (200, 100)}


def test_BJ_9_configured_to_take_the_original_bet_only_the_split_bet_comes_back():
    t, _ = start("8c Kd 8d As Tc 9c", lose_all_on_dealer_blackjack=False)
    t.decide("ann", "split", 0, RICH)
    t.decide("ann", "stand", 0, RICH)
    events = t.decide("ann", "stand", 1, RICH)
    assert paid(events) == {("ann", "main"): (200, 100)}


# BJ-10 --------------------------------------------------------------------------------------------------------------


def test_BJ_10_the_dealer_stands_on_soft_17():
    t, _ = start("Tc 6d 8d Ah 5c")
    events = t.decide("ann", "stand", 0, RICH)                        # 18 against 6 + A
    assert dealer_draws(events) == []
    assert settled(events).result.startswith("dealer 17")
    assert paid(events) == {("ann", "main"): (100, 200)}


def test_BJ_10_the_dealer_draws_to_16_soft_or_hard():
    t, _ = start("Tc 5d 8d Ah 2c 9c")                                  # dealer soft 16 draws 2: soft 18
    events = t.decide("ann", "stand", 0, RICH)
    assert dealer_draws(events) == c("2c")
    assert paid(events) == {("ann", "main"): (100, 100)}
    t2, _ = start("Tc Td 8d 6h 5c Kc")                                 # hard 16 draws 5: 21
    events = t2.decide("ann", "stand", 0, RICH)
    assert dealer_draws(events) == c("5c")
    assert paid(events) == {("ann", "main"): (100, 0)}


# BJ-11 --------------------------------------------------------------------------------------------------------------


def test_BJ_11_when_every_hand_is_busted_the_dealer_draws_no_more():
    t, _ = start("Tc 9c 5d 6h 7s 7d Kc Qc 9s", {1: "ann", 2: "bob"})   # ann 16, bob 16, dealer 12
    t.decide("ann", "hit", 0, RICH)
    events = t.decide("bob", "hit", 0, RICH)
    assert dealer_draws(events) == []
    assert settled(events).result.startswith("dealer 12")
    assert paid(events) == {("ann", "main"): (100, 0), ("bob", "main"): (100, 0)}


def test_BJ_11_the_dealer_draws_while_one_hand_still_stands():
    t, _ = start("Tc 9c 5d 6h 7s 7d Kc 9s", {1: "ann", 2: "bob"})
    t.decide("ann", "hit", 0, RICH)                                   # ann busts
    events = t.decide("bob", "stand", 0, RICH)                        # bob 16; dealer 12 draws 9
    assert dealer_draws(events) == c("9s")
    assert paid(events) == {("ann", "main"): (100, 0), ("bob", "main"): (100, 0)}


def test_BJ_11_when_every_hand_is_blackjack_the_dealer_draws_no_more():
    t, deal = start("As 5d Kd 7h 9c")
    assert dealer_draws(deal) == []
    assert paid(deal) == {("ann", "main"): (100, 250)}


# BJ-12 --------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("bet", "back"), [(100, 250), (101, 252), (150, 375)])
def test_BJ_12_blackjack_pays_3_to_2_rounded_down(bet, back):
    _, deal = start("As 9d Kd 8h", bet=bet)
    assert paid(deal) == {("ann", "main"): (bet, back)}


def test_BJ_12_equal_totals_push():
    t, _ = start("Tc 9d 8d 9h")
    assert paid(t.decide("ann", "stand", 0, RICH)) == {("ann", "main"): (100, 100)}


def test_BJ_12_two_blackjacks_push():
    _, deal = start("As Td Kd Ah")
    assert settled(deal).result.startswith("dealer blackjack")
    assert paid(deal) == {("ann", "main"): (100, 100)}


def test_BJ_12_a_dealer_blackjack_beats_a_three_card_21():
    t, _ = start("5c Qd 6d Ah Tc")
    assert paid(t.decide("ann", "hit", 0, RICH)) == {("ann", "main"): (100, 0)}


def test_BJ_12_a_busted_player_loses_even_when_the_dealer_busts():
    t, _ = start("Tc 9c 6d 6h 6s Td Kc 9s", {1: "ann", 2: "bob"})    # ann 16, bob 15, dealer 16
    t.decide("ann", "hit", 0, RICH)                                   # ann 26
    events = t.decide("bob", "stand", 0, RICH)
    assert dealer_draws(events) == c("9s")                            # dealer 25
    assert paid(events) == {("ann", "main"): (100, 0), ("bob", "main"): (100, 200)}


def test_BJ_12_a_player_blackjack_beats_a_dealer_three_card_21():
    t, _ = start("As Tc 5d Kd 9c 6h Th", {1: "ann", 2: "bob"})        # ann blackjack, bob 19, dealer 11
    events = t.decide("bob", "stand", 0, RICH)
    assert dealer_draws(events) == c("Th")                            # dealer 21
    assert paid(events) == {("ann", "main"): (100, 250), ("bob", "main"): (100, 0)}


# CR-2 / CR-3 --------------------------------------------------------------------------------------------------------


def test_CR_2_a_bet_after_no_more_bets_is_refused():
    t = table("Tc 9c 7d 6h 8s Th")
    t.join("ann", 1)
    t.join("bob", 2)
    refused(t.bet, "ann", "main", BET, RICH,  # no round yet
            code="betting_closed", rule="CR-2", keeps=partial(state, t))
    t.open_round()
    t.bet("ann", "main", BET, RICH)
    deal = t.expire()
    assert deal[0] == BettingClosed("bj1", 1)
    refused(t.bet, "bob", "main", BET, RICH, code="betting_closed", rule="CR-2", keeps=partial(state, t))
    refused(t.bet, "ann", "main", BET, RICH, code="betting_closed", rule="CR-2", keeps=partial(state, t))
    assert t.view("ann")["bets"] == [{"market": "main", "amount": 100, "odds": None, "seat": 1}]


def test_CR_2_a_bet_cannot_be_taken_back_by_leaving_the_seat():
    t = table("")
    t.open_round()
    t.join("ann", 1)
    t.bet("ann", "main", BET, RICH)
    refused(t.leave, "ann", code="bet_placed", rule="CR-2", keeps=partial(state, t))
    assert t.seat_of("ann") == 1
    refused(t.join, "bob", 1, code="seat_taken", rule="BJ-3", keeps=partial(state, t))


def test_CR_6_a_player_may_not_leave_a_hand_in_play_but_may_once_the_round_has_settled():
    t, _ = start("Tc 9c 7d 6h 8s Th", {1: "ann", 2: "bob"})
    refused(t.leave, "ann", code="hand_in_play", rule="CR-6", keeps=partial(state, t))
    t.decide("ann", "stand", 0, RICH)
    t.decide("bob", "stand", 0, RICH)
    assert t.phase == "settled"
    assert t.leave("ann") == []                                      # the pause after the result
    assert t.seat_of("ann") is None
    t.join("cat", 1)
    assert t.seat_of("cat") == 1


def test_CR_2_a_round_nobody_bet_on_deals_nothing():
    t = table("")
    t.open_round()
    t.join("ann", 1)
    events = t.expire()
    assert not of(events, CardDealt)
    assert settled(events).payouts == ()
    assert t.phase == "settled"


@pytest.mark.parametrize(("amount", "funds", "code"), [
    (99, RICH, "below_minimum"), (100_001, RICH, "above_maximum"), (500, 499, "insufficient_funds"),
    (0, RICH, "bad_amount"), (-100, RICH, "bad_amount"),
])
def test_CR_3_a_bet_outside_the_limits_or_the_funds_is_refused_with_its_reason(amount, funds, code):
    t = table("")
    t.open_round()
    t.join("ann", 1)
    err = refused(t.bet, "ann", "main", amount, funds, code=code, rule="CR-3", keeps=partial(state, t))
    assert err.message
    assert t.round.bets == [] and t.view("ann")["bets"] == []


def test_CR_3_chips_added_to_a_bet_count_against_the_maximum():
    t = table("")
    t.open_round()
    t.join("ann", 1)
    t.bet("ann", "main", 60_000, RICH)
    refused(t.bet, "ann", "main", 50_000, RICH, code="above_maximum", rule="CR-3", keeps=partial(state, t))
    t.bet("ann", "main", 40_000, RICH)
    assert t.view("ann")["bets"] == [{"market": "main", "amount": 100_000, "odds": None, "seat": 1}]


def test_CR_3_live_blackjack_takes_a_seated_main_bet_only():
    t = table("")
    t.open_round()
    refused(t.bet, "ann", "main", BET, RICH, code="not_seated", rule="BJ-3", keeps=partial(state, t))
    t.join("ann", 1)
    refused(t.bet, "ann", "pairs", BET, RICH, code="unknown_market", rule="BJ-3", keeps=partial(state, t))


# CR-4 / CR-5 --------------------------------------------------------------------------------------------------------


def test_CR_4_every_bet_of_the_round_settles_in_one_RoundSettled():
    # ann 8,8 splits; bob 5,6 doubles; cat 9,9 insures and stands; dealer A + 7 (soft 18)
    t = table("8c 5d 9c Ah 8d 6d 9d 7s  2c 3c Kc 2h 5h")
    t.open_round()
    events: list = []
    for seat, player in ((1, "ann"), (2, "bob"), (3, "cat")):
        t.join(player, seat)
        events += t.bet(player, "main", BET, RICH)
    events += t.expire()
    events += t.decide("cat", "insurance", 0, RICH)
    events += t.decide("ann", "no_insurance", 0, RICH)
    events += t.decide("bob", "no_insurance", 0, RICH)               # dealer peeks: no blackjack
    events += t.decide("ann", "split", 0, RICH)                       # 8+2, 8+3
    events += t.decide("ann", "stand", 0, RICH)
    events += t.decide("ann", "hit", 1, RICH)                         # 11 + K = 21
    events += t.decide("bob", "double", 0, RICH)                      # 11 + 2 = 13
    events += t.decide("cat", "stand", 0, RICH)                       # 18; dealer soft 18 stands
    assert t.phase == "settled"
    assert len(of(events, RoundSettled)) == 1
    assert paid(events) == {("ann", "main"): (200, 200), ("bob", "main"): (200, 0),
                            ("cat", "main"): (100, 100), ("cat", "insurance"): (50, 0)}
    staked = Counter()
    for s in of(events, Staked):
        staked[s.player] += s.amount
    for p in settled(events).payouts:
        staked[p.player] -= p.staked
    assert set(staked.values()) == {0}


def test_CR_5_a_void_mid_round_refunds_every_stake_and_pays_nothing():
    t, _ = start("8c 5d 9c 8d 6d 7s 2c 3c", {1: "ann", 2: "bob"})
    t.decide("ann", "split", 0, RICH)
    events = t.void("the card reader failed")
    assert events == [RoundVoided("bj1", 1, "the card reader failed", (("ann", 200), ("bob", 100)))]
    assert t.phase == "settled"
    assert t.results[-1] == (1, "void")
    refused(t.decide, "ann", "stand", 0, RICH, code="no_decision", rule="BJ-4", keeps=partial(state, t))
    refused(t.void, "again", code="no_round", rule="CR-5", keeps=partial(state, t))
    t.open_round()
    assert t.round.number == 2 and t.dealer.boxes == {}


# CR-6 ---------------------------------------------------------------------------------------------------------------


def test_CR_6_a_lone_player_who_disconnects_on_their_turn_is_waited_for_24_hours():
    t, _ = start("5c 9s 6d 8h Tc")
    events = t.disconnect("ann", 1_000.0)
    assert events == [RoundWaiting("bj1", 1, "ann", 1_000.0 + DAY)]
    assert t.phase == "waiting"
    assert t.due().phase == "waiting" and t.due().at == 1_000.0 + 86_400
    back = t.reconnect("ann")
    assert t.phase == "deciding"
    assert [(d.who, d.phase, d.hand, d.moves) for d in back] == [("ann", "play", 0, ("double", "hit", "stand"))]
    end = t.decide("ann", "hit", 0, RICH)                              # 21: settles as if nothing happened
    assert paid(end) == {("ann", "main"): (100, 200)}


def test_CR_6_the_round_is_cancelled_and_every_stake_refunded_24_hours_after_the_disconnection():
    t, _ = start("8c 9s 8d 8h 3h 5c")
    t.decide("ann", "split", 0, RICH)
    t.decide("ann", "stand", 0, RICH)
    t.disconnect("ann", 50.0)                                          # on hand 1
    assert t.phase == "waiting"
    events = t.expire()
    assert events == [RoundVoided("bj1", 1, events[0].reason, (("ann", 200),))]
    assert "24 hours" in events[0].reason
    assert t.phase == "settled"


def test_CR_6_a_player_who_disconnected_before_their_turn_is_waited_for_when_it_comes():
    t = table("5c 9s 6d 8h Tc")
    t.open_round()
    t.join("ann", 1)
    t.bet("ann", "main", BET, RICH)
    assert t.disconnect("ann", 7.0) == []
    deal = t.expire()
    assert of(deal, RoundWaiting) == [RoundWaiting("bj1", 1, "ann", 7.0 + DAY)]
    assert t.phase == "waiting" and t.due().at == 7.0 + DAY


def test_CR_6_with_a_connected_player_in_the_round_the_decision_clock_runs_instead():
    t, _ = start("Tc 9c 7d 6h 8s Th", {1: "ann", 2: "bob"})
    assert t.disconnect("ann", 1.0) == []
    assert t.phase == "deciding"
    assert t.due().phase == "deciding" and t.due().after == t.rules.decision_seconds
    events = t.expire()
    assert of(events, Decided) == [Decided("bj1", 1, "ann", 0, "stand", "timeout", tuple(c("Tc 6h")))]
    assert [d.who for d in of(events, DecisionNeeded)] == ["bob"]


def test_CR_6_when_one_of_two_absent_players_comes_back_the_clock_runs_for_the_one_to_act():
    t, _ = start("Tc 9c 7d 6h 8s Th", {1: "ann", 2: "bob"})
    assert t.disconnect("bob", 1.0) == []                              # not his turn; ann is connected
    assert of(t.disconnect("ann", 2.0), RoundWaiting)                  # now nobody connected is in the round
    assert t.phase == "waiting"
    back = t.reconnect("bob")
    assert t.phase == "deciding"
    assert [d.who for d in back] == ["ann"]                            # it is still ann's turn
    refused(t.decide, "bob", "stand", 0, RICH, code="not_your_turn", rule="BJ-4", keeps=partial(state, t))
    events = t.expire()
    assert of(events, Decided)[0].auto == "timeout" and of(events, Decided)[0].player == "ann"


def test_CR_6_someone_outside_the_round_coming_back_does_not_end_the_wait():
    t, _ = start("5c 9s 6d 8h Tc")
    t.join("bob", 2)                                                   # seated, no bet this round
    t.disconnect("bob", 10.0)
    t.disconnect("ann", 20.0)
    assert t.phase == "waiting"
    assert t.reconnect("bob") == []
    assert t.phase == "waiting"
    assert t.due().phase == "waiting" and t.due().at == 20.0 + DAY
    assert [d.who for d in t.reconnect("ann")] == ["ann"]
    assert t.phase == "deciding"


def test_CR_6_the_24_hours_count_from_the_disconnection_of_the_player_waited_for():
    t = table("5c 9s 6d 8h Tc")
    t.join("bob", 2)
    t.disconnect("bob", 0.0)                                           # seated, no bet, gone for good
    t.open_round()
    t.join("ann", 1)
    t.bet("ann", "main", BET, RICH)
    t.expire()
    waiting = t.disconnect("ann", 50_000.0)
    assert waiting == [RoundWaiting("bj1", 1, "ann", 50_000.0 + DAY)]
    assert t.due().at == 50_000.0 + DAY
