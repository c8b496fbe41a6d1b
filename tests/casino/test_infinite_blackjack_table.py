"""The Infinite Blackjack table driven through its commands, from stacked shoes (RULES.md IB, CR).

Every shoe starts with the IB-2 burn: ``As`` shown, so one card (``2c``) burned.
Then the deal -- player card, dealer up card, player card, hole card -- and then
the common sequence of extra cards, then the dealer's draws. Stakes are 100
minor units unless a test says otherwise.
"""

from __future__ import annotations

from collections import Counter
from functools import partial

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pokerroom.casino import blackjack_rules as bj
from pokerroom.casino import side_bets
from pokerroom.casino.betting import Limits
from pokerroom.casino.events import (
    BettingClosed,
    CardDealt,
    Decided,
    DecisionNeeded,
    HoleCardRevealed,
    LastRound,
    RoundOpened,
    RoundSettled,
    RoundVoided,
    ShoeShuffled,
    Staked,
)
from pokerroom.casino.infinite_blackjack import InfiniteBlackjackTable
from pokerroom.casino.shoe import blackjack_count, stacked
from pokerroom.casino.table import CasinoRules
from pokerroom.errors import RuleViolation
from tests.casino.drivers import c, card, dealer_draws, of, paid, settled
from tests.support.refusals import refused

RICH = 10_000_000
BET = 100
BURN = "As 2c"
SIDE_BETS = ("pairs", "bust_bonus", "lucky_trio", "poker_trio")


def rules(**kw) -> CasinoRules:
    return CasinoRules(table_id="ib1", name="Infinite Blackjack", game="infinite_blackjack",
                       limits=Limits(100, 100_000), **kw)


def table(shoe: str, **kw) -> InfiniteBlackjackTable:
    """A table whose shoe is ``shoe`` (burn included) and then the rest of eight decks in order."""
    return InfiniteBlackjackTable(rules(**kw), source=stacked(c(shoe)))


def start(deal: str, players=("ann",), bet: int = BET, sides: dict[str, int] | None = None,
          **kw) -> tuple[InfiniteBlackjackTable, list]:
    """Each player bets ``bet`` on main (and ``sides``); returns the table and the deal's events."""
    t = table(f"{BURN} {deal}", **kw)
    t.open_round()
    for p in players:
        t.bet(p, "main", bet, RICH)
        for market, amount in (sides or {}).items():
            t.bet(p, market, amount, RICH)
    return t, t.expire()


def details(events: list) -> dict[tuple[str, str], str]:
    return {(p.player, p.market): p.detail for p in settled(events).payouts}


def hands(t: InfiniteBlackjackTable, player: str) -> list[list[int]]:
    return t.view(player)["hands"]


def finish(t: InfiniteBlackjackTable) -> list:
    """Let the clock run until the round is settled."""
    events: list = []
    while t.phase not in ("settled", "idle"):
        events += t.expire()
    return events


def state(t: InfiniteBlackjackTable) -> tuple:
    """Everything a refused command must leave as it was."""
    bets = [(b.player, b.market, b.amount, b.extra, b.seat) for b in t.round.bets] if t.round else []
    return (t.phase, t.dealer.step, repr(t.dealer.boxes), [b.player for b in t.dealer.playing], bets,
            dict(t.round.staked) if t.round else {}, t.shoe.position if t.shoe else None, list(t.dealer.sequence),
            {p: t.view(p) for p in ("ann", "bob", "cat", "zed")}, t.due(), t.shoe_rounds)


# IB-1 ---------------------------------------------------------------------------------------------------------------


def test_IB_1_everyone_shares_the_first_two_cards_and_the_dealer():
    t, deal = start("5c 9d 6h 5h 2s 3c 4d Kc", players=("ann", "bob", "cat", "dan"))
    assert [(e.to, e.card, e.face_up) for e in of(deal, CardDealt)] == [
        ("player", card("5c"), True), ("dealer", card("9d"), True), ("player", card("6h"), True),
        ("dealer", None, False)]
    assert all(hands(t, p) == [c("5c 6h")] for p in ("ann", "bob", "cat", "dan"))
    assert [(d.who, d.phase) for d in of(deal, DecisionNeeded)] == [("", "play")]      # everyone at once


def test_IB_1_the_same_choices_get_the_same_cards_and_the_nth_extra_card_is_the_sequences_nth():
    # 11 against 9 + 5; the common sequence is 2s 3c 4d, and the dealer draws Kc after it
    t, _ = start("5c 9d 6h 5h 2s 3c 4d Kc", players=("ann", "bob", "cat", "dan"))
    events: list = []
    for player, move in (("ann", "hit"), ("bob", "hit"), ("cat", "double"), ("dan", "hit"), ("dan", "hit"),
                         ("ann", "hit"), ("dan", "hit"), ("bob", "hit"), ("ann", "stand"), ("bob", "stand")):
        events += t.decide(player, move, 0, RICH)
    assert hands(t, "ann") == hands(t, "bob") == [c("5c 6h 2s 3c")]
    assert hands(t, "cat") == [c("5c 6h 2s")]
    assert hands(t, "dan") == [c("5c 6h 2s 3c 4d")]
    assert not of(events, CardDealt)                     # the sequence is not shown ahead of anyone's move
    end = t.decide("dan", "stand", 0, RICH)
    assert dealer_draws(end) == c("Kc")                  # after the longest run anyone took: 14 + K = bust
    assert paid(end) == {("ann", "main"): (100, 200), ("bob", "main"): (100, 200), ("cat", "main"): (200, 400),
                         ("dan", "main"): (100, 200)}


def test_IB_1_split_hands_draw_from_the_same_common_sequence():
    t, _ = start("8c 7s 8h Td 3c 2d Th 9s", players=("ann", "bob", "cat"))        # 8,8 against 17
    t.decide("ann", "split", 0, RICH)                    # 8+3c, 8+2d: sequence cards 1 and 2
    assert hands(t, "ann") == [c("8c 3c"), c("8h 2d")]
    t.decide("bob", "hit", 0, RICH)                      # bob's first extra card is the sequence's first
    assert hands(t, "bob") == [c("8c 8h 3c")]
    t.decide("ann", "double", 0, RICH)                   # double on a split hand (IB-4): the 3rd card, Th
    t.decide("ann", "hit", 1, RICH)                      # the 4th, 9s
    t.decide("bob", "stand", 0, RICH)
    t.decide("ann", "stand", 1, RICH)
    assert hands(t, "ann") == [c("8c 3c Th"), c("8h 2d 9s")]
    end = t.decide("cat", "stand", 0, RICH)
    assert dealer_draws(end) == []
    assert paid(end) == {("ann", "main"): (300, 600), ("bob", "main"): (100, 200), ("cat", "main"): (100, 0)}


def test_IB_1_there_are_no_seats():
    t = table(BURN)
    t.open_round()
    refused(t.bet, "ann", "main", BET, RICH, seat=3, code="no_seats", rule="IB-1", keeps=partial(state, t))
    refused(t.join, "ann", 3, code="no_seats", rule="", keeps=partial(state, t))


# IB-2 ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("shown", "count"), [("As", 1), ("2c", 2), ("7h", 7), ("Td", 10), ("Kd", 10)])
def test_IB_2_after_the_shuffle_the_first_card_is_shown_and_that_many_burned(shown, count):
    burned = " ".join("2d 3d 4d 5d 6d 7d 8d 9d Td Jd".split()[:count])
    t = table(f"{shown} {burned} 9c 8c Qc 7c")
    opened = t.open_round()
    assert opened[0] == ShoeShuffled("ib1", 8, count + 1, card(shown))
    assert blackjack_count(card(shown)) == count
    t.bet("ann", "main", BET, RICH)
    deal = t.expire()
    assert [e.card for e in of(deal, CardDealt)] == [*c("9c 8c Qc"), None]


def test_IB_2_the_cut_card_round_is_the_last_then_a_new_shoe_is_burned_again():
    t, deal = start("9c 8c Qc 7c Tc", behind_cut=416 - 6)       # the hole card is the 6th card out
    assert of(deal, LastRound) == [LastRound("ib1", 1)]
    first = t.shoe
    end = t.decide("ann", "stand", 0, RICH)
    assert paid(end) == {("ann", "main"): (100, 200)}            # 19 against 15 + 10
    opened = t.open_round()
    assert opened[0] == ShoeShuffled("ib1", 8, 2, card("As"))
    assert t.shoe is not first and t.shoe.position == 2
    t.bet("ann", "main", BET, RICH)
    assert [e.card for e in of(t.expire(), CardDealt)] == [*c("9c 8c Qc"), None]


# IB-3 ---------------------------------------------------------------------------------------------------------------


def test_IB_3_a_dealer_blackjack_under_a_ten_ends_the_round_at_once():
    t, deal = start("9c Kc 9d Ah", players=("ann", "bob"), sides={"pairs": 100})
    assert [type(e) for e in deal[-2:]] == [HoleCardRevealed, RoundSettled]
    assert not of(deal, DecisionNeeded)
    assert t.phase == "settled"
    assert settled(deal).result.startswith("dealer blackjack")
    assert paid(deal) == {("ann", "main"): (100, 0), ("ann", "pairs"): (100, 600),
                          ("bob", "main"): (100, 0), ("bob", "pairs"): (100, 600)}
    refused(t.decide, "ann", "hit", 0, RICH, code="no_decision", rule="IB-4", keeps=partial(state, t))


def test_IB_3_blackjacks_push_against_a_dealer_blackjack():
    _, deal = start("Ac Qs Kd Ah", players=("ann", "bob"))
    assert paid(deal) == {("ann", "main"): (100, 100), ("bob", "main"): (100, 100)}


def test_IB_3_under_an_ace_insurance_comes_first_and_pays_even_on_a_blackjack():
    t, deal = start("As Ad Kh Kc", players=("ann", "bob"))
    assert [(d.who, d.phase) for d in of(deal, DecisionNeeded)] == [("", "insurance")]
    insured = t.decide("ann", "insurance", 0, RICH)
    assert of(insured, Staked) == [Staked("ib1", 1, "ann", 50, "insurance")]
    assert not of(insured, HoleCardRevealed)
    events = t.decide("bob", "no_insurance", 0, RICH)
    assert [type(e) for e in events[-2:]] == [HoleCardRevealed, RoundSettled]
    assert paid(events) == {("ann", "main"): (100, 100), ("ann", "insurance"): (50, 150),
                            ("bob", "main"): (100, 100)}


def test_IB_3_insurance_pays_2_to_1_and_the_hand_loses_to_the_dealer_blackjack():
    t, _ = start("Tc Ad 9c Kc")
    events = t.decide("ann", "insurance", 0, RICH)
    assert paid(events) == {("ann", "main"): (100, 0), ("ann", "insurance"): (50, 150)}


def test_IB_3_without_a_dealer_blackjack_insurance_is_lost_and_play_goes_on():
    t, _ = start("Tc Ad 9c 7c")                                  # 19 against soft 18
    events = t.decide("ann", "insurance", 0, RICH)
    assert [d.phase for d in of(events, DecisionNeeded)] == ["play"]
    end = t.decide("ann", "stand", 0, RICH)
    assert paid(end) == {("ann", "main"): (100, 200), ("ann", "insurance"): (50, 0)}


# IB-4 ---------------------------------------------------------------------------------------------------------------


def test_IB_4_surrender_against_2_to_9_returns_half_the_bet():
    t, deal = start("Tc 9s 6d 8h", players=("ann", "bob"))      # 16 against 9 + 8
    assert "surrender" in of(deal, DecisionNeeded)[0].moves
    events = t.decide("ann", "surrender", 0, RICH)
    assert of(events, Decided) == [Decided("ib1", 1, "ann", 0, "surrender", "", tuple(c("Tc 6d")))]
    end = t.decide("bob", "stand", 0, RICH)
    assert paid(end) == {("ann", "main"): (100, 50), ("bob", "main"): (100, 0)}


def test_IB_4_no_surrender_against_a_ten():
    t, deal = start("Tc Ks 6d 7h")
    assert "surrender" not in of(deal, DecisionNeeded)[0].moves
    refused(t.decide, "ann", "surrender", 0, RICH, code="illegal_move", rule="IB-4", keeps=partial(state, t))


def test_IB_4_no_surrender_against_an_ace():
    t, _ = start("Tc As 6d 7h")
    events = t.expire()                                          # insurance declined by silence
    assert "surrender" not in of(events, DecisionNeeded)[0].moves
    refused(t.decide, "ann", "surrender", 0, RICH, code="illegal_move", rule="IB-4", keeps=partial(state, t))


def test_IB_4_no_surrender_after_another_move():
    t, _ = start("Tc 9s 2d 8h 3c")
    t.decide("ann", "hit", 0, RICH)
    refused(t.decide, "ann", "surrender", 0, RICH, code="illegal_move", rule="IB-4", keeps=partial(state, t))


def test_IB_4_split_aces_get_one_card_each_no_double_and_ace_ten_is_21_not_blackjack():
    t, _ = start("Ac 9s Ah Th Kd 5c", players=("ann", "bob"))    # A,A against 19
    events = t.decide("ann", "split", 0, RICH)
    assert of(events, Staked) == [Staked("ib1", 1, "ann", 100, "split")]
    assert hands(t, "ann") == [c("Ac Kd"), c("Ah 5c")]
    refused(t.decide, "ann", "double", 1, RICH, code="no_decision", rule="IB-4", keeps=partial(state, t))
    refused(t.decide, "ann", "hit", 0, RICH, code="no_decision", rule="IB-4", keeps=partial(state, t))
    end = t.decide("bob", "stand", 0, RICH)                       # soft 12 stands
    assert paid(end) == {("ann", "main"): (200, 200), ("bob", "main"): (100, 0)}     # 21 pays 1:1, 16 loses


def test_IB_4_one_split_only_and_moves_on_the_hand_in_turn():
    t, _ = start("8c 7s 8h Td 8d 2c", players=("ann", "bob"))
    t.decide("ann", "split", 0, RICH)                             # 8+8d and 8+2c
    refused(t.decide, "ann", "split", 0, RICH, code="illegal_move", rule="IB-4", keeps=partial(state, t))
    refused(t.decide, "ann", "hit", 1, RICH, code="not_this_hand", rule="IB-4", keeps=partial(state, t))
    refused(t.decide, "ann", "fold", 0, RICH, code="unknown_move", rule="IB-4", keeps=partial(state, t))


def test_IB_4_decisions_only_in_the_play_phase_by_players_in_the_round():
    t, _ = start("Tc As 6d 7h")
    refused(t.decide, "ann", "hit", 0, RICH,  # insurance first
            code="no_decision", rule="IB-4", keeps=partial(state, t))
    refused(t.decide, "zed", "no_insurance", 0, RICH, code="no_decision", rule="IB-4", keeps=partial(state, t))
    t.decide("ann", "no_insurance", 0, RICH)
    refused(t.decide, "ann", "insurance", 0, RICH, code="no_insurance_now", rule="IB-8", keeps=partial(state, t))


# IB-5 ---------------------------------------------------------------------------------------------------------------


def test_IB_5_a_double_without_the_funds_hits_at_11_or_less():
    t, _ = start("5c 9s 6d 8h 2c")                               # 11 against 17
    events = t.decide("ann", "double", 0, 99)
    assert not of(events, Staked)
    assert of(events, Decided) == [Decided("ib1", 1, "ann", 0, "hit", "no_funds", tuple(c("5c 6d 2c")))]
    end = t.decide("ann", "stand", 0, RICH)                      # still her hand to play: 13
    assert paid(end) == {("ann", "main"): (100, 0)}


def test_IB_5_a_split_without_the_funds_stands_above_11():
    t, _ = start("8c 9s 8h 8d")
    events = t.decide("ann", "split", 0, 0)
    assert not of(events, Staked)
    assert of(events, Decided) == [Decided("ib1", 1, "ann", 0, "stand", "no_funds", tuple(c("8c 8h")))]
    assert paid(events) == {("ann", "main"): (100, 0)}


def test_IB_5_split_aces_without_the_funds_stand_on_soft_12():
    t, _ = start("Ac 9s Ad 8d")
    events = t.decide("ann", "split", 0, 50)
    assert [(d.move, d.auto, d.cards) for d in of(events, Decided)] == [("stand", "no_funds", tuple(c("Ac Ad")))]
    assert paid(events) == {("ann", "main"): (100, 0)}


def test_IB_5_with_the_funds_the_double_is_made():
    t, _ = start("5c 9s 6d 8h 2c")
    events = t.decide("ann", "double", 0, 100)
    assert of(events, Staked) == [Staked("ib1", 1, "ann", 100, "double")]
    assert paid(events) == {("ann", "main"): (200, 0)}


# IB-6 ---------------------------------------------------------------------------------------------------------------


def test_IB_6_when_the_clock_runs_out_the_room_plays_every_open_hand_hit_to_11_then_stand():
    # 9 against 9 + 6; the sequence is 2h 3h, then the dealer draws Tc and busts
    t, _ = start("5c 9s 4d 6h 2h 3h Tc 7d", players=("ann", "bob", "cat"))
    t.decide("ann", "stand", 0, RICH)
    t.decide("cat", "hit", 0, RICH)                               # 11, then silence
    events = t.expire()
    assert [(d.player, d.move, d.auto, d.cards) for d in of(events, Decided)] == [
        ("bob", "hit", "timeout", tuple(c("5c 4d 2h"))), ("bob", "hit", "timeout", tuple(c("5c 4d 2h 3h"))),
        ("bob", "stand", "timeout", tuple(c("5c 4d 2h 3h"))),
        ("cat", "hit", "timeout", tuple(c("5c 4d 2h 3h"))), ("cat", "stand", "timeout", tuple(c("5c 4d 2h 3h")))]
    assert dealer_draws(events) == c("Tc")
    assert paid(events) == {(p, "main"): (100, 200) for p in ("ann", "bob", "cat")}


def test_IB_6_an_ace_counts_11_for_the_room_soft_13_stands():
    t, _ = start("Ac 9s 2d 8h")
    events = t.expire()
    assert of(events, Decided) == [Decided("ib1", 1, "ann", 0, "stand", "timeout", tuple(c("Ac 2d")))]
    assert paid(events) == {("ann", "main"): (100, 0)}


def test_IB_6_no_insurance_answer_in_time_is_a_no():
    t, _ = start("Tc As 9c 7c")
    events = t.expire()
    assert not of(events, Staked)
    assert [d.phase for d in of(events, DecisionNeeded)] == ["play"]


# IB-7 / IB-8 --------------------------------------------------------------------------------------------------------


def test_IB_7_the_dealer_stands_on_soft_17():
    t, _ = start("Tc 6d 8d Ah 5c")
    events = t.decide("ann", "stand", 0, RICH)
    assert dealer_draws(events) == []
    assert paid(events) == {("ann", "main"): (100, 200)}


def test_IB_7_the_dealer_hits_soft_16():
    t, _ = start("Tc 5d 8d Ah 2c")
    events = t.decide("ann", "stand", 0, RICH)
    assert dealer_draws(events) == c("2c")                       # soft 18
    assert paid(events) == {("ann", "main"): (100, 100)}


def test_IB_7_the_dealer_completes_the_hand_even_when_every_hand_busted():
    t, _ = start("Tc 6d 6h 7s Kc 9c", sides={"bust_bonus": 100})
    events = t.decide("ann", "hit", 0, RICH)                      # 26
    assert dealer_draws(events) == c("9c")                       # 13 + 9: bust in three cards
    assert paid(events) == {("ann", "main"): (100, 0), ("ann", "bust_bonus"): (100, 200)}


@pytest.mark.parametrize(("bet", "back"), [(100, 250), (101, 252)])
def test_IB_8_blackjack_pays_3_to_2(bet, back):
    _, deal = start("As 9c Kd 7c 5c", bet=bet)                   # settled at the deal: no decision to make
    assert dealer_draws(deal) == c("5c")
    assert paid(deal) == {("ann", "main"): (bet, back)}


@pytest.mark.parametrize(("hole", "back"), [("8h", 200), ("9h", 100)])     # 18 against 17 wins, against 18 pushes
def test_IB_8_a_win_pays_1_to_1_and_a_push_returns_the_bet(hole, back):
    t, _ = start(f"Tc 9d 8d {hole}")
    assert paid(t.decide("ann", "stand", 0, RICH)) == {("ann", "main"): (100, back)}


# IB-9 ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("deal", "market", "pattern", "back"), [
    ("8h 9c 8h 8c", "pairs", "perfect pair", 3100),
    ("8h 9c 8d 8c", "pairs", "coloured pair", 1100),
    ("8h 9c 8s 8c", "pairs", "mixed pair", 600),
    ("8h 9c 9h 8c", "pairs", "lost", 0),
    ("7h 7h 7h 7c 3c", "lucky_trio", "suited 7-7-7", 20100),
    ("6h 7h 8h 7c", "lucky_trio", "suited 6-7-8", 10100),
    ("6h 7h 8h 7c", "poker_trio", "straight flush", 4100),
    ("5c 7c 6c 7d", "poker_trio", "straight flush", 4100),
    ("5c 7c 6c 7d", "lucky_trio", "lost", 0),
    ("Ts Ad Kh 8c", "lucky_trio", "21", 400),
    ("Tc Td 9c 6h 8s", "bust_bonus", "3 cards", 200),
    ("Tc 2h 9c 3d 4s 5s Kd", "bust_bonus", "5 cards", 1000),
    ("Tc 9d 9c 8h", "bust_bonus", "lost", 0),
])
def test_IB_9_side_bets_settle_on_their_own_pattern(deal, market, pattern, back):
    t, deal_events = start(deal, sides={market: 100})
    events = deal_events + finish(t)                             # the main hand is played by the clock
    assert paid(events)[("ann", market)] == (100, back)
    assert details(events)[("ann", market)] == pattern


def test_IB_9_a_side_bet_wins_while_the_main_bet_loses():
    t, _ = start("8h Tc 8h 9c", sides={"pairs": 100, "bust_bonus": 100})     # 16 against 19
    events = finish(t)
    assert paid(events) == {("ann", "main"): (100, 0), ("ann", "pairs"): (100, 3100),
                            ("ann", "bust_bonus"): (100, 0)}


def test_IB_9_an_unknown_market_is_refused():
    t = table(BURN)
    t.open_round()
    refused(t.bet, "ann", "lucky", BET, RICH, code="unknown_market", rule="IB-9", keeps=partial(state, t))


# IB-10 --------------------------------------------------------------------------------------------------------------


def play_round(t: InfiniteBlackjackTable, markets=("main",)) -> list:   # noqa: ANN001
    """Open a round, bet 100 on each of ``markets`` and let the clock play it out; the events."""
    events = t.open_round()
    for m in markets:
        events += t.bet("ann", m, BET, RICH)
    return events + finish(t)


def test_IB_10_side_bets_close_after_their_round_limit_and_reopen_after_the_shuffle():
    t = table("")                                                 # the decks in order: 2c shown, 2d 2h burned
    for n in range(1, 41):
        events = play_round(t, ("main", *SIDE_BETS))
        assert of(events, RoundOpened)[0].closed_markets == ()
        assert settled(events).round == n
    opened = t.open_round()                                       # the 41st round of the shoe
    assert of(opened, RoundOpened)[0].closed_markets == ("pairs",)
    err = refused(t.bet, "ann", "pairs", BET, RICH, code="market_closed", rule="IB-10", keeps=partial(state, t))
    assert "pairs" in err.message
    for m in ("main", "bust_bonus", "lucky_trio", "poker_trio"):
        t.bet("ann", m, BET, RICH)
    finish(t)
    for _ in range(42, 46):
        play_round(t, ("main", "bust_bonus", "lucky_trio", "poker_trio"))
    opened = t.open_round()                                       # the 46th
    assert of(opened, RoundOpened)[0].closed_markets == SIDE_BETS
    for m in SIDE_BETS:
        refused(t.bet, "ann", m, BET, RICH, code="market_closed", rule="IB-10", keeps=partial(state, t))
    t.bet("ann", "main", BET, RICH)
    finish(t)
    for _ in range(200):                                          # on to the cut card and the shuffle
        events = play_round(t)
        if of(events, ShoeShuffled):
            break
    else:
        pytest.fail("the cut card never came out")
    assert of(events, RoundOpened)[0].closed_markets == ()
    play_round(t, ("main", *SIDE_BETS))


def test_IB_10_rounds_nobody_bet_on_do_not_use_up_the_side_bet_rounds():
    t = table("")
    for _ in range(50):                                           # an empty table: no bets, no cards
        t.open_round()
        t.expire()
    assert t.shoe.position == 3                                   # only the burn has left the shoe
    events = play_round(t, ("main", *SIDE_BETS))
    assert of(events, RoundOpened)[0].closed_markets == ()
    assert {p.market for p in settled(events).payouts} == {"main", *SIDE_BETS}


# IB-11 / IB-12 ------------------------------------------------------------------------------------------------------


def test_IB_11_a_disconnected_players_round_still_completes_and_settles():
    t, _ = start("5c 9s 6d 6h 2c Tc", players=("ann", "bob"))   # 11 against 9 + 6
    t.decide("bob", "stand", 0, RICH)
    assert t.disconnect("ann", 30.0) == []
    assert t.phase == "deciding"
    assert t.due().phase == "deciding" and t.due().after == t.rules.decision_seconds
    events = t.expire()                                           # ann's hand is played for her: hit, stand
    assert [(d.player, d.move, d.auto) for d in of(events, Decided)] == [
        ("ann", "hit", "timeout"), ("ann", "stand", "timeout")]
    assert paid(events) == {("ann", "main"): (100, 200), ("bob", "main"): (100, 200)}   # dealer busts with Tc
    assert t.results[-1][0] == 1
    t.reconnect("ann")
    assert t.view("ann")["hands"] == [c("5c 6d 2c")]             # what happened to her hand is there to see


def test_IB_11_a_lone_disconnected_player_is_not_waited_for():
    t, _ = start("5c 9s 6d 8h 2c")
    t.disconnect("ann", 30.0)
    assert t.phase == "deciding"
    assert paid(t.expire()) == {("ann", "main"): (100, 0)}


def test_IB_12_a_fault_mid_round_refunds_every_stake_and_pays_nothing():
    t, _ = start("5c As 6d 7h 2c", players=("ann", "bob"), sides={"pairs": 100})
    t.decide("ann", "insurance", 0, RICH)
    t.decide("bob", "no_insurance", 0, RICH)                     # soft 18: no dealer blackjack
    t.decide("ann", "double", 0, RICH)
    events = t.void("the video feed was lost")
    assert events == [RoundVoided("ib1", 1, "the video feed was lost", (("ann", 350), ("bob", 200)))]
    assert t.phase == "settled" and t.results[-1] == (1, "void")
    refused(t.decide, "bob", "stand", 0, RICH, code="no_decision", rule="IB-4", keeps=partial(state, t))
    refused(t.void, "again", code="no_round", rule="CR-5", keeps=partial(state, t))
    assert of(t.open_round(), RoundOpened)[0].round == 2


def test_IB_12_a_fault_during_betting_refunds_the_bets():
    t = table(BURN)
    t.open_round()
    t.bet("ann", "main", 300, RICH)
    t.bet("ann", "pairs", 100, RICH)
    assert t.void("fault") == [RoundVoided("ib1", 1, "fault", (("ann", 400),))]


# CR-2 / CR-3 / CR-4 -------------------------------------------------------------------------------------------------


def test_CR_2_a_bet_after_no_more_bets_is_refused():
    t = table(f"{BURN} Tc 9s 8d 8h")
    refused(t.bet, "ann", "main", BET, RICH,  # no round yet
            code="betting_closed", rule="CR-2", keeps=partial(state, t))
    t.open_round()
    t.bet("ann", "main", BET, RICH)
    deal = t.expire()
    assert deal[0] == BettingClosed("ib1", 1)
    for market in ("main", "pairs"):
        refused(t.bet, "bob", market, BET, RICH, code="betting_closed", rule="CR-2", keeps=partial(state, t))
    refused(t.bet, "ann", "main", BET, RICH, code="betting_closed", rule="CR-2", keeps=partial(state, t))


def test_CR_2_a_round_nobody_bet_on_deals_nothing():
    t = table(BURN)
    t.open_round()
    events = t.expire()
    assert not of(events, CardDealt)
    assert settled(events).payouts == ()


@pytest.mark.parametrize(("market", "amount", "funds", "code"), [
    ("main", 99, RICH, "below_minimum"), ("main", 100_001, RICH, "above_maximum"),
    ("main", 300, 299, "insufficient_funds"), ("pairs", 600, RICH, "above_maximum"),
    ("pairs", 50, RICH, "below_minimum"),
])
def test_CR_3_a_bet_outside_the_limits_or_the_funds_is_refused_with_its_reason(market, amount, funds, code):
    t = table(BURN, market_limits={"pairs": Limits(100, 500)})
    t.open_round()
    err = refused(t.bet, "ann", market, amount, funds, code=code, rule="CR-3", keeps=partial(state, t))
    assert err.message
    assert t.view("ann")["bets"] == []


def test_CR_4_every_bet_of_the_round_settles_in_one_RoundSettled():
    # 8,8 against A + 6 (soft 17); sequence 3c 2d Th; the dealer stands
    t = table(f"{BURN} 8c As 8s 6h 3c 2d Th")
    events = t.open_round()
    for p in ("ann", "bob", "cat"):
        events += t.bet(p, "main", BET, RICH)
        events += t.bet(p, "pairs", 100, RICH)
    events += t.bet("cat", "bust_bonus", 200, RICH)
    events += t.expire()
    events += t.decide("ann", "insurance", 0, RICH)
    events += t.expire()                                          # bob and cat: no insurance
    events += t.decide("ann", "split", 0, RICH)                   # 8+3c, 8+2d
    events += t.decide("ann", "double", 0, RICH)                  # 8+3+T = 21
    events += t.decide("ann", "stand", 1, RICH)                   # 10
    events += t.decide("bob", "stand", 0, RICH)
    events += t.expire()                                          # cat: 16 stands
    assert len(of(events, RoundSettled)) == 1
    assert paid(events) == {
        ("ann", "main"): (300, 400), ("ann", "pairs"): (100, 1100), ("ann", "insurance"): (50, 0),
        ("bob", "main"): (100, 0), ("bob", "pairs"): (100, 1100),
        ("cat", "main"): (100, 0), ("cat", "pairs"): (100, 1100), ("cat", "bust_bonus"): (200, 0)}
    staked: Counter = Counter()
    for s in of(events, Staked):
        staked[s.player] += s.amount
    for p in settled(events).payouts:
        staked[p.player] -= p.staked
    assert set(staked.values()) == {0}


# money is conserved, hands settle by the card rules, refusals change nothing (property) -----------------------------

POOL = st.one_of(st.integers(0, 51), st.sampled_from(c("As Ah Ac 8c 8d 8h 5c 6d Tc Kd Qh 2c 3c 9s 7h 7c")))
MOVES = ("hit", "stand", "double", "split", "surrender", "insurance", "no_insurance", "fold")
PLAYERS = ("ann", "bob", "cat")


@st.composite
def shoe_fronts(draw) -> list[int]:   # noqa: ANN001
    """The burn, a deal that pairs up and shows aces and tens often, and the cards to draw after it."""
    shown = draw(POOL)
    burned = draw(st.lists(POOL, min_size=blackjack_count(shown), max_size=blackjack_count(shown)))
    first = draw(POOL)
    up = draw(st.one_of(POOL, st.sampled_from(c("As Ad Kc Th"))))
    second = draw(st.one_of(POOL, st.sampled_from((first, first ^ 1, first ^ 2))))     # the same rank: a pair
    rest = draw(st.lists(POOL, min_size=32, max_size=32))
    return [shown, *burned, first, up, second, draw(POOL), *rest]


def legal_now(t: InfiniteBlackjackTable, player: str) -> tuple[str, ...]:
    box = t.dealer.boxes.get(player)
    if box is None or box.done:
        return ("stand",)
    if t.dealer.step == "insurance":
        return ("insurance", "no_insurance")
    moves = bj.legal_moves(box.hands[box.active], t.dealer.cards[0], bj.INFINITE, not box.moved, len(box.hands))
    return tuple(sorted(moves)) or ("stand",)


@settings(max_examples=300, deadline=None)
@given(front=shoe_fronts(), data=st.data())
def test_IB_1_IB_8_CR_4_money_is_conserved_and_refused_decisions_change_nothing(front, data):
    assume(max(Counter(front).values()) <= 8)
    source = stacked(front)
    shoe = source(8)
    t = InfiniteBlackjackTable(rules(), source=source)
    events = t.open_round()
    players = PLAYERS[:data.draw(st.integers(1, 3), label="players")]
    for p in players:
        events += t.bet(p, "main", data.draw(st.integers(100, 1000), label="bet"), RICH)
        for market in data.draw(st.lists(st.sampled_from(SIDE_BETS), unique=True, max_size=2), label="sides"):
            events += t.bet(p, market, data.draw(st.integers(100, 300), label="side"), RICH)
    events += t.expire()
    for _ in range(data.draw(st.integers(0, 40), label="steps")):
        if t.phase != "deciding":
            break
        kind = data.draw(st.sampled_from(("legal", "legal", "legal", "any", "clock")), label="kind")
        if kind == "clock":
            events += t.expire()
            continue
        who = data.draw(st.sampled_from((*players, "zed")), label="who")
        hand = t.view(who).get("active", 0)
        if kind == "legal":                     # a move the player may make now (funds aside), to reach deep play
            move = data.draw(st.sampled_from(legal_now(t, who)), label="move")
        else:
            move = data.draw(st.sampled_from(MOVES), label="move")
            hand = data.draw(st.sampled_from((hand, 0, 1, 2)), label="hand")
        funds = data.draw(st.sampled_from((RICH, RICH, RICH, 0, 149)), label="funds")
        before = state(t)
        try:
            events += t.decide(who, move, hand, funds)
        except RuleViolation:
            assert state(t) == before                            # a refused decision changes nothing
    events += finish(t)
    assert t.phase == "settled"
    result = settled(events)

    # CR-4: every bet once, in one RoundSettled; what went on the table is what the settlement accounts for
    staked, accounted = Counter(), Counter()
    for s in of(events, Staked):
        staked[s.player] += s.amount
    for p in result.payouts:
        accounted[p.player] += p.staked
    assert staked == accounted
    assert len(result.payouts) == len(t.round.bets)

    # IB-1 / IB-2: the deal and the common sequence, from the shoe itself
    b = 1 + blackjack_count(shoe[0])
    first_two, dealer = (shoe[b], shoe[b + 2]), [shoe[b + 1], shoe[b + 3]]
    sequence = shoe[b + 4:]
    longest = 0
    for p in players:
        hs = t.dealer.boxes[p].hands
        assert all(h.done for h in hs) or bj.is_blackjack(dealer)     # IB-3: a dealer blackjack ends it at once
        assert tuple(h.cards[0] for h in hs) == (first_two if len(hs) == 2 else first_two[:1])
        extra = [x for h in hs for x in h.cards[1:]]
        if len(hs) == 1:
            assert hs[0].cards[1] == first_two[1]
            extra = extra[1:]
        assert Counter(extra) == Counter(sequence[:len(extra)])   # the n-th extra card is the sequence's n-th
        longest = max(longest, len(extra))
        for h in hs:
            if h.doubled:
                assert h.doubled == h.bet and len(h.cards) == 3
    if not bj.is_blackjack(dealer):
        dealer = list(bj.dealer_finish(dealer, iter(sequence[longest:]).__next__))
    assert of(events, HoleCardRevealed)[0].card == dealer[1]
    assert dealer_draws(events) == dealer[2:]

    # IB-8 / IB-9: each bet returns what the card rules say for the final hands
    for pay in result.payouts:
        if pay.market == "main":
            expected = sum(bj.settle(h, dealer, bj.INFINITE) for h in t.dealer.boxes[pay.player].hands)
        elif pay.market == "insurance":
            expected = bj.insurance_returned(pay.staked, dealer)
        else:
            expected = side_bets.returned(pay.market, pay.staked, first_two, dealer)
        assert pay.returned == expected, pay
