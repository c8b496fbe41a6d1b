"""Blackjack card rules shared by the live table and Infinite Blackjack (RULES.md BJ, IB)."""

from dataclasses import replace
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokerroom.cards import parse_card
from pokerroom.casino.blackjack_rules import (
    INFINITE,
    LIVE,
    PlayerHand,
    auto_move,
    busted,
    card_value,
    check_move,
    dealer_finish,
    dealer_hits,
    dealer_must_play,
    dealer_peeks,
    insurance_cost,
    insurance_offered,
    insurance_returned,
    is_blackjack,
    legal_moves,
    may_insure,
    settle,
    total,
)
from pokerroom.errors import RuleViolation

OBO = replace(LIVE, lose_all_on_dealer_blackjack=False)  # BJ-9 configured: original bet only


def c(text: str) -> tuple[int, ...]:
    """Cards from text, repeats allowed (a shoe has eight of each)."""
    return tuple(parse_card(text[i:i + 2]) for i in range(0, len(text), 2))


def hand(text: str, bet: int = 100, **kw) -> PlayerHand:
    return PlayerHand(c(text), bet, **kw)


def moves(h: PlayerHand, up: str = "9c", rules=LIVE, first: bool = True, hands: int = 1) -> set[str]:
    return set(legal_moves(h, c(up)[0], rules, first, hands))


# BJ-1 ------------------------------------------------------------------------------------------------------------


def test_BJ_1_card_values():
    assert [card_value(c(r + "h")[0]) for r in "23456789TJQKA"] == [2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 1]
    for bad in (-1, 52, True, "As"):
        with pytest.raises(ValueError):
            card_value(bad)


@pytest.mark.parametrize(("text", "expected"), [
    ("", (0, False)), ("AsKd", (21, True)), ("AsAd", (12, True)), ("As5d", (16, True)), ("AsKd5c", (16, False)),
    ("AsAdAhAc", (14, True)), ("AsAsAsAs7c", (21, True)), ("Th9d", (19, False)), ("ThQdKc", (30, False)),
])
def test_BJ_1_totals_count_an_ace_eleven_unless_that_busts(text, expected):
    assert total(c(text)) == expected


def test_BJ_1_blackjack_is_ace_and_ten_value_as_first_two_cards_of_an_unsplit_hand():
    for ten in "TJQK":
        assert is_blackjack(c("As" + ten + "d"))
        assert is_blackjack(c(ten + "dAs"))
        assert not is_blackjack(c("As" + ten + "d"), split=True)
    assert not is_blackjack(c("As5d5c"))
    assert not is_blackjack(c("KsTd"))
    assert not is_blackjack(c("AsAd"))
    assert busted(c("KsQd2c")) and not busted(c("KsAdAc"))


def _brute_total(cards):
    """Every ace as 1 or 11: the highest sum not over 21, else the lowest; soft when an ace counts 11."""
    values = [card_value(x) for x in cards]
    aces = values.count(1)
    hard = sum(values)
    sums = {hard + 10 * k for k in range(aces + 1)}
    fitting = [s for s in sums if s <= 21]
    best = max(fitting) if fitting else min(sums)
    return best, best != hard


@given(st.lists(st.integers(0, 51), max_size=12))
def test_BJ_1_total_agrees_with_trying_every_ace_as_one_or_eleven(cards):
    assert total(cards) == _brute_total(cards)


# BJ-5, BJ-6, BJ-7 ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["AsKd", "As4d6c", "Ts5d6c", "7s7d7h"])
def test_BJ_5_no_more_cards_at_21_or_blackjack(text):
    h = hand(text)
    assert h.done and moves(h) == set()
    with pytest.raises(RuleViolation) as e:
        check_move("hit", h, c("9c")[0], LIVE, True, 1)
    assert (e.value.code, e.value.rule_id) == ("illegal_move", "BJ-5")


def test_BJ_4_hit_and_stand_on_an_open_hand():
    assert moves(hand("Ts2d3c")) == {"hit", "stand"}
    assert moves(hand("Ts6d"), up="Kc") == {"hit", "stand", "double"}
    assert moves(hand("Ts6d").stand()) == set()
    assert moves(hand("TsQd2c")) == set()  # bust
    with pytest.raises(RuleViolation) as e:
        check_move("dance", hand("Ts6d"), c("9c")[0], LIVE, True, 1)
    assert (e.value.code, e.value.rule_id) == ("unknown_move", "BJ-4")


def test_BJ_6_double_only_on_first_two_cards_of_an_unsplit_hand():
    assert "double" in moves(hand("5s6d"))
    assert "double" in moves(hand("As7d"))
    assert "double" not in moves(hand("2s3d6c"))
    split_hand = hand("5s", from_split=True).with_card(c("6d")[0])
    assert "double" not in moves(split_hand, hands=2)
    with pytest.raises(RuleViolation) as e:
        check_move("double", split_hand, c("9c")[0], LIVE, False, 2)
    assert e.value.rule_id == "BJ-6"


def test_BJ_6_double_is_one_card_and_up_to_the_original_bet():
    doubled = hand("5s6d").double(c("2c")[0])
    assert doubled.stake == 200 and len(doubled.cards) == 3 and doubled.done and moves(doubled) == set()
    assert hand("5s6d").double(c("2c")[0], extra=40).stake == 140
    for extra in (0, 101):
        with pytest.raises(ValueError):
            hand("5s6d").double(c("2c")[0], extra=extra)
    with pytest.raises(RuleViolation) as e:
        check_move("hit", doubled, c("9c")[0], LIVE, False, 1)
    assert e.value.rule_id == "BJ-6"


def test_BJ_7_split_two_first_cards_of_equal_value():
    assert "split" in moves(hand("8s8d"))
    assert "split" in moves(hand("KsTd"))
    assert "split" in moves(hand("AsAd"))
    assert "split" not in moves(hand("8s9d"))
    assert "split" not in moves(hand("8s8d8c"))


def test_BJ_7_one_split_only():
    first, second = hand("8s8d").split()
    assert (first.cards, first.bet, second.cards, second.bet) == (c("8s"), 100, c("8d"), 100)
    assert not first.split_extra and second.split_extra
    resplit = first.with_card(c("8h")[0])
    assert "split" not in moves(resplit, hands=2)
    with pytest.raises(RuleViolation) as e:
        check_move("split", resplit, c("9c")[0], LIVE, False, 2)
    assert e.value.rule_id == "BJ-7"


def test_BJ_7_split_hand_waits_for_its_second_card():
    first, _ = hand("8s8d").split()
    assert not first.done and moves(first, hands=2) == set()
    with pytest.raises(RuleViolation) as e:
        check_move("stand", first, c("9c")[0], LIVE, False, 2)
    assert e.value.rule_id == "BJ-7"


def test_BJ_7_split_aces_get_one_card_each():
    first, second = hand("AsAd").split()
    assert first.split_aces and second.split_aces
    first, second = first.with_card(c("5c")[0]), second.with_card(c("9h")[0])
    assert first.done and second.done
    assert moves(first, hands=2) == moves(second, hands=2) == set()
    assert moves(first, rules=INFINITE, hands=2) == set()
    with pytest.raises(RuleViolation) as e:
        check_move("hit", first, c("9c")[0], LIVE, False, 2)
    assert e.value.rule_id == "BJ-7"


def test_BJ_7_ace_and_ten_after_a_split_is_21_not_blackjack():
    first, _ = hand("AsAd").split()
    twenty_one = first.with_card(c("Kc")[0])
    assert twenty_one.total == 21 and not twenty_one.blackjack
    assert settle(twenty_one, c("Ts9d"), LIVE) == 200  # 1:1, not 3:2
    assert settle(twenty_one, c("Ts5d6h"), LIVE) == 100  # push with a dealer 21
    assert settle(twenty_one, c("AhTd"), LIVE) == 0  # loses to a dealer blackjack


# BJ-8, BJ-9 ------------------------------------------------------------------------------------------------------


def test_BJ_8_insurance_offered_under_an_ace_costs_half_and_pays_two_to_one():
    assert insurance_offered(c("Ac")[0])
    assert not any(insurance_offered(c(r + "c")[0]) for r in "23456789TJQK")
    assert insurance_cost(100) == 50 and insurance_cost(25) == 12
    assert insurance_returned(50, c("AcKd")) == 150
    assert insurance_returned(50, c("Ac9d")) == 0
    assert insurance_returned(50, c("Ac5d5h")) == 0
    assert not may_insure(hand("AsKd"), c("Ac")[0], LIVE)
    assert may_insure(hand("Ts9d"), c("Ac")[0], LIVE)


def test_BJ_9_dealer_peeks_under_an_ace_only():
    assert dealer_peeks(c("Ac")[0], LIVE)
    assert not any(dealer_peeks(c(r + "c")[0], LIVE) for r in "23456789TJQK")


def test_BJ_9_dealer_blackjack_takes_doubles_and_splits_too():
    dealer = c("KcAd")
    doubled = hand("5s6d").double(c("Tc")[0])  # 21, not blackjack
    first, second = hand("8s8d").split()
    first, second = first.with_card(c("3c")[0]).double(c("Tc")[0]), second.with_card(c("Kc")[0])
    assert settle(doubled, dealer, LIVE) == 0
    assert settle(first, dealer, LIVE) == settle(second, dealer, LIVE) == 0


def test_BJ_9_configured_to_lose_the_original_bet_only():
    dealer = c("KcAd")
    doubled = hand("5s6d").double(c("Tc")[0])
    assert settle(doubled, dealer, OBO) == 100
    assert settle(hand("5s6d").double(c("Tc")[0], extra=30), dealer, OBO) == 30
    first, second = hand("8s8d").split()
    first, second = first.with_card(c("3c")[0]).double(c("Tc")[0]), second.with_card(c("Kc")[0])
    # the seat put up 100 (original) + 100 (split) + 100 (double on the first hand): loses 100, gets 200 back
    assert settle(first, dealer, OBO) == 100
    assert settle(second, dealer, OBO) == 100
    assert settle(hand("AsKd"), dealer, OBO) == 100
    assert settle(hand("9s9d"), dealer, OBO) == 0


# BJ-10, BJ-11, IB-7 ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "hits"), [
    ("Tc6d", True), ("Tc7d", False), ("Ac6d", False), ("Ac5d", True), ("AcAd4h", True), ("AcAd5h", False),
    ("2c3d4h5s", True), ("2c3d4h5s3c", False), ("Tc6dAh", False), ("Tc6d5h", False), ("Tc", True), ("Ac", True),
    ("Tc6d8h", False),
])
def test_BJ_10_IB_7_dealer_draws_to_16_and_stands_on_all_17s(text, hits):
    assert dealer_hits(c(text)) is hits


def test_BJ_10_dealer_finish_draws_until_17_or_more():
    draws = iter(c("2c3d4hKs"))
    assert dealer_finish(c("Tc4d"), lambda: next(draws)) == c("Tc4d2c3d")
    draws = iter(c("Ad9s"))
    assert dealer_finish(c("As5d"), lambda: next(draws)) == c("As5dAd")  # soft 17 stands
    assert dealer_finish(c("Ts7d"), lambda: pytest.fail("no draw on 17")) == c("Ts7d")


def test_BJ_11_dealer_plays_only_while_a_hand_depends_on_it():
    assert not dealer_must_play([hand("TsQd2c"), hand("AsKd"), hand("Ts6d").surrender()])
    assert dealer_must_play([hand("TsQd2c"), hand("Ts6d").stand()])
    first, _ = hand("AsAd").split()
    assert dealer_must_play([first.with_card(c("Kc")[0])])  # split 21 is not blackjack


# BJ-12, IB-8 -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [LIVE, INFINITE])
def test_BJ_12_IB_8_settlement(rules):
    assert settle(hand("AsKd"), c("Ts9d"), rules) == 250  # 3:2
    assert settle(hand("AsKd", bet=5), c("Ts9d"), rules) == 12  # 5 + 7.5 rounded down
    assert settle(hand("AsKd"), c("Ts5d6c"), rules) == 250  # blackjack beats a three-card 21
    assert settle(hand("Ts9d"), c("Ts8d"), rules) == 200  # 1:1
    assert settle(hand("Ts9d"), c("Ts9h"), rules) == 100  # push
    assert settle(hand("Ts8d"), c("Ts9h"), rules) == 0
    assert settle(hand("AsKd"), c("AhQd"), rules) == 100  # both blackjack push
    assert settle(hand("Ts5d6c"), c("AhQd"), rules) == 0  # dealer blackjack beats a non-blackjack 21
    assert settle(hand("TsQd2c"), c("Ts6d8h"), rules) == 0  # a busted player loses even if the dealer busts
    assert settle(hand("Ts6d"), c("Ts6d8h"), rules) == 200
    assert settle(hand("5s6d").double(c("Tc")[0]), c("Ts9d"), rules) == 400
    assert settle(hand("5s6d").double(c("2c")[0]), c("Ts9d"), rules) == 0
    with pytest.raises(ValueError, match="not finished"):
        settle(hand("Ts9d"), c("Ts5d"), rules)


def test_IB_8_surrender_returns_half_the_bet():
    assert settle(hand("Ts6d").surrender(), c("Ts9d"), INFINITE) == 50
    assert settle(hand("Ts6d", bet=25).surrender(), c("Ts9d"), INFINITE) == 12


# IB-3, IB-4 ------------------------------------------------------------------------------------------------------


def test_IB_3_dealer_blackjack_ends_the_round_blackjacks_push_everything_else_loses():
    assert dealer_peeks(c("Ac")[0], INFINITE) and dealer_peeks(c("Kc")[0], INFINITE)
    assert not dealer_peeks(c("9c")[0], INFINITE)
    dealer = c("TcAd")
    assert settle(hand("AsKd"), dealer, INFINITE) == 100
    assert settle(hand("Ts9d"), dealer, INFINITE) == 0
    assert settle(hand("5s6d"), dealer, INFINITE) == 0
    assert insurance_returned(50, c("AdTc")) == 150


@pytest.mark.parametrize("up", list("23456789TJQKA"))
def test_IB_4_surrender_against_every_dealer_up_rank(up):
    offered = up in "23456789"
    assert ("surrender" in moves(hand("Ts6d"), up=up + "h", rules=INFINITE)) is offered
    assert "surrender" not in moves(hand("Ts6d"), up=up + "h", rules=LIVE)


def test_IB_4_surrender_only_on_the_initial_two_cards_before_any_other_move():
    up = c("9h")[0]
    assert "surrender" not in moves(hand("Ts6d"), up="9h", rules=INFINITE, first=False)
    assert "surrender" not in moves(hand("2s3d6c"), up="9h", rules=INFINITE)
    first, _ = hand("8s8d").split()
    assert "surrender" not in moves(first.with_card(c("8c")[0]), up="9h", rules=INFINITE, hands=2)
    with pytest.raises(RuleViolation) as e:
        check_move("surrender", hand("Ts6d"), c("Th")[0], INFINITE, True, 1)
    assert e.value.rule_id == "IB-4"
    with pytest.raises(RuleViolation) as e:
        check_move("surrender", hand("Ts6d"), up, LIVE, True, 1)
    assert e.value.rule_id == "BJ-4"
    check_move("surrender", hand("Ts6d"), up, INFINITE, True, 1)


def test_IB_4_double_on_split_hands_but_not_split_aces():
    first, _ = hand("8s8d").split()
    split_hand = first.with_card(c("3c")[0])
    assert moves(split_hand, rules=INFINITE, first=False, hands=2) == {"hit", "stand", "double"}
    after = split_hand.double(c("Tc")[0])
    assert after.done and moves(after, rules=INFINITE, hands=2) == set()  # automatic stand after double-after-split
    aces, _ = hand("AsAd").split()
    aces = aces.with_card(c("5c")[0])
    assert moves(aces, rules=INFINITE, hands=2) == set()
    with pytest.raises(RuleViolation) as e:
        check_move("double", aces, c("9c")[0], INFINITE, False, 2)
    assert e.value.rule_id == "IB-4"


def test_IB_4_automatic_stand_at_21_after_a_double_and_after_split_aces_card():
    assert hand("Ts5d6c").done and hand("AsKd").done
    assert hand("5s6d").double(c("2c")[0]).done
    first, _ = hand("AsAd").split()
    assert first.with_card(c("2c")[0]).done
    assert not hand("Ts5d").done


def test_IB_4_insurance_allowed_even_with_a_blackjack():
    assert may_insure(hand("AsKd"), c("Ac")[0], INFINITE)
    assert not may_insure(hand("AsKd"), c("Kc")[0], INFINITE)


# IB-5, IB-6 ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "move"), [
    ("5s6d", "hit"), ("2s3d", "hit"), ("2s3d4c2h", "hit"), ("Ts2d", "stand"), ("As2d", "stand"), ("AsAd", "stand"),
    ("AsAdAc", "stand"), ("AsAd9c", "stand"), ("As5dKc", "stand"), ("Ts6d", "stand"), ("5s5d", "hit"),
])
def test_IB_5_IB_6_auto_move_hits_to_11_then_stands(text, move):
    assert auto_move(hand(text)) == move


def test_IB_6_auto_move_played_to_the_end_stands_above_11():
    for first, second in product(range(0, 52, 3), repeat=2):
        h = PlayerHand((first, second), 100)
        draws = iter(c("2c2d2h2s3c3d3h3s"))
        while auto_move(h) == "hit":
            h = h.with_card(next(draws))
        assert h.total > 11
