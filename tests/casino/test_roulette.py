"""Roulette: the wheel, the legal layout positions, what each bet returns, and the exact edge (RULES.md RO, CR-1).

``parse_bet`` checks a bet from the layout's geometry while ``all_legal_bets``
builds every bet by construction; holding the two against each other (and the
counts against the standard layout) is what makes the RO-5 checks trustworthy.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokerroom.casino.roulette import (
    BLACK,
    EVEN_MONEY_KINDS,
    INSIDE_KINDS,
    KINDS,
    PAYS,
    POCKETS,
    RED,
    Bet,
    Spin,
    all_legal_bets,
    colour,
    house_edge,
    parse_bet,
    returned,
    rules_text,
    settle_spin,
    valid_spin,
)
from pokerroom.errors import RuleViolation

LEGAL = all_legal_bets()
OUTSIDE = [bet for bet in LEGAL if bet.kind not in INSIDE_KINDS]
LEGAL_SETS: dict[str, set[frozenset[int]]] = {kind: set() for kind in KINDS}
for _bet in LEGAL:
    LEGAL_SETS[_bet.kind].add(_bet.numbers)


def rejected(kind: Any, numbers: list[int] | None = None, which: int | None = None) -> RuleViolation:
    """The refusal for a bet that must not be placed, checked to carry the RO-5 code and rule."""
    with pytest.raises(RuleViolation) as caught:
        parse_bet(kind, numbers, which)
    assert (caught.value.code, caught.value.rule_id) == ("illegal_bet", "RO-5")
    return caught.value


# RO-1: the wheel


def test_RO_1_the_wheel_has_37_pockets_numbered_0_to_36():
    assert list(POCKETS) == list(range(37))


def test_RO_1_eighteen_red_eighteen_black_and_zero_green():
    colours = Counter(colour(n) for n in POCKETS)
    assert colours == {"red": 18, "black": 18, "green": 1}
    assert colour(0) == "green"
    assert RED == {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}
    assert BLACK == set(range(1, 37)) - RED


def test_RO_1_colour_of_something_not_on_the_wheel_is_a_programming_error():
    for bad in (-1, 37, True):
        with pytest.raises(ValueError, match="pocket"):
            colour(bad)


# RO-2: inside bets


@pytest.mark.parametrize(
    ("kind", "count"),
    [("straight", 37), ("split", 60), ("street", 14), ("corner", 22), ("four", 1), ("line", 11)],
)
def test_RO_2_the_layout_has_the_standard_number_of_each_inside_bet(kind: str, count: int):
    assert len(LEGAL_SETS[kind]) == count


def test_RO_2_zero_splits_and_zero_streets_are_legal():
    assert {frozenset({0, 1}), frozenset({0, 2}), frozenset({0, 3})} <= LEGAL_SETS["split"]
    assert {frozenset({0, 1, 2}), frozenset({0, 2, 3})} <= LEGAL_SETS["street"]
    assert all(0 not in s for s in LEGAL_SETS["corner"] | LEGAL_SETS["line"])


def test_all_legal_bets_are_distinct_and_157_in_all():
    assert len(LEGAL) == len(set(LEGAL)) == 157


@pytest.mark.parametrize(
    ("kind", "numbers", "pays"),
    [
        ("straight", [0], 35),
        ("straight", [17], 35),
        ("split", [2, 1], 17),
        ("split", [8, 11], 17),
        ("split", [0, 3], 17),
        ("street", [34, 35, 36], 11),
        ("street", [2, 0, 3], 11),
        ("corner", [1, 2, 4, 5], 8),
        ("corner", [36, 32, 33, 35], 8),
        ("four", [3, 2, 1, 0], 8),
        ("line", [31, 32, 33, 34, 35, 36], 5),
    ],
)
def test_RO_2_inside_bets_cover_their_numbers_and_pay_the_published_odds(kind: str, numbers: list[int], pays: int):
    bet = parse_bet(kind, numbers, None)
    assert bet == Bet(kind, frozenset(numbers), pays)
    assert PAYS[kind] == pays


def test_RO_2_every_inside_bet_returns_stake_times_pays_plus_one_on_exactly_its_numbers():
    for bet in LEGAL:
        if bet.kind in INSIDE_KINDS:
            winners = {p for p in POCKETS if returned(bet, 100, p)}
            assert winners == bet.numbers
            assert {returned(bet, 100, p) for p in winners} == {100 * (bet.pays + 1)}


def test_RO_2_pays_are_35_17_11_8_8_5_to_one():
    assert [PAYS[k] for k in INSIDE_KINDS] == [35, 17, 11, 8, 8, 5]


# RO-3: outside bets


def test_RO_3_outside_bets_cover_columns_dozens_and_the_even_money_halves():
    assert parse_bet("column", None, 1).numbers == set(range(1, 35, 3))
    assert parse_bet("column", None, 3).numbers == {3 * r for r in range(1, 13)}
    assert parse_bet("dozen", None, 2).numbers == set(range(13, 25))
    expected = {
        "red": RED, "black": BLACK, "odd": set(range(1, 37, 2)), "even": set(range(2, 37, 2)),
        "low": set(range(1, 19)), "high": set(range(19, 37)),
    }
    for kind, numbers in expected.items():
        assert parse_bet(kind, None, None) == Bet(kind, frozenset(numbers), 1)


def test_RO_3_columns_and_dozens_pay_two_to_one_and_even_money_bets_one_to_one():
    assert {bet.pays for bet in OUTSIDE if bet.kind in ("column", "dozen")} == {2}
    assert {bet.pays for bet in OUTSIDE if bet.kind in EVEN_MONEY_KINDS} == {1}
    assert returned(parse_bet("dozen", None, 3), 250, 36) == 750
    assert returned(parse_bet("red", None, None), 250, 1) == 500
    assert returned(parse_bet("red", None, None), 250, 2) == 0


def test_RO_3_zero_loses_every_outside_bet():
    assert len(OUTSIDE) == 12
    assert all(returned(bet, 1_000, 0) == 0 for bet in OUTSIDE)


def test_RO_3_zero_wins_only_the_inside_bets_that_cover_it():
    winners = {(bet.kind, bet.numbers) for bet in LEGAL if returned(bet, 1, 0)}
    assert winners == {(bet.kind, bet.numbers) for bet in LEGAL if 0 in bet.numbers}
    assert len(winners) == 1 + 3 + 2 + 1  # straight 0, three splits, two streets, the four


# RO-4: valid spins


def test_RO_4_a_spin_is_valid_from_three_revolutions():
    assert [valid_spin(n) for n in (0, 1, 2, 3, 4, 40)] == [False, False, False, True, True, True]


def test_RO_4_an_invalid_spin_is_respun_and_never_settled():
    assert settle_spin(2, 17) is Spin.RESPIN
    assert settle_spin(0, 0) is Spin.RESPIN
    assert settle_spin(3, 17) == 17
    assert settle_spin(5, 0) == 0


def test_RO_4_a_result_off_the_wheel_is_a_programming_error():
    with pytest.raises(ValueError, match="pocket"):
        settle_spin(5, 37)
    with pytest.raises(ValueError, match="pocket"):
        returned(parse_bet("red", None, None), 10, -1)


# RO-5: bets are checked against the layout when placed


def test_RO_5_split_of_non_adjacent_numbers_is_rejected():
    err = rejected("split", [1, 5])
    assert err.message == "numbers 1 and 5 are not adjacent on the layout: a split covers two touching numbers"


@pytest.mark.parametrize(
    ("kind", "numbers", "which", "says"),
    [
        ("split", [3, 4], None, "not adjacent"),  # end of one row and start of the next
        ("split", [0, 4], None, "0 touches only 1, 2 and 3"),
        ("split", [5, 5], None, "number 5 appears more than once"),
        ("split", [1, 2, 3], None, "covers exactly 2 numbers, got 3"),
        ("straight", [37], None, "number 37 is not on the layout"),
        ("straight", [-1], None, "number -1 is not on the layout"),
        ("straight", [], None, "covers exactly 1 number, got 0"),
        ("straight", None, None, "a straight bet needs the number it covers"),
        ("line", None, None, "a line bet needs the 6 numbers it covers"),
        ("straight", [True], None, "not a number on the layout"),
        ("street", [3, 4, 5], None, "do not form a street"),
        ("street", [0, 1, 3], None, "do not form a street"),
        ("street", [1, 4, 7], None, "do not form a street"),
        ("corner", [2, 3, 4, 5], None, "do not form a corner"),
        ("corner", [1, 2, 7, 8], None, "do not form a corner"),
        ("corner", [3, 4, 6, 7], None, "do not form a corner"),
        ("corner", [0, 1, 2, 3], None, "'four' bet"),
        ("four", [1, 2, 4, 5], None, "covers exactly 0, 1, 2 and 3"),
        ("line", [1, 2, 3, 7, 8, 9], None, "do not form a line"),
        ("line", [0, 1, 2, 3, 4, 5], None, "do not form a line"),
        ("line", [1, 2, 3, 4, 5], None, "covers exactly 6 numbers, got 5"),
        ("split", [1, 2], 1, "takes no column or dozen choice"),
        ("column", None, None, "needs to say which column"),
        ("column", None, 4, "there is no column 4"),
        ("dozen", None, 0, "there is no dozen 0"),
        ("dozen", [1, 2], 1, "takes no numbers"),
        ("red", None, 1, "takes no column or dozen choice"),
        ("odd", [1], None, "takes no numbers"),
        ("basket", [0, 1, 2], None, "there is no 'basket' bet"),
        (["split"], [1, 2], None, "there is no ['split'] bet"),
    ],
)
def test_RO_5_illegal_layout_positions_are_rejected_with_a_clear_reason(
    kind: Any, numbers: list[int] | None, which: int | None, says: str
):
    err = rejected(kind, numbers, which)
    assert says in err.message
    assert str(err).endswith("(RO-5)")


def test_RO_5_every_legal_bet_is_accepted_in_any_order():
    for bet in LEGAL:
        if bet.kind in INSIDE_KINDS:
            assert parse_bet(bet.kind, sorted(bet.numbers, reverse=True), None) == bet
    for which in (1, 2, 3):
        assert parse_bet("column", None, which) in OUTSIDE
        assert parse_bet("dozen", None, which) in OUTSIDE


@given(
    kind=st.sampled_from(INSIDE_KINDS),
    numbers=st.lists(st.integers(-2, 38), min_size=0, max_size=7),
)
def test_RO_5_random_numbers_are_accepted_exactly_when_they_form_a_legal_bet(kind: str, numbers: list[int]):
    legal = len(set(numbers)) == len(numbers) and frozenset(numbers) in LEGAL_SETS[kind]
    try:
        bet = parse_bet(kind, numbers, None)
    except RuleViolation as err:
        assert not legal, err.message
        assert (err.code, err.rule_id) == ("illegal_bet", "RO-5")
    else:
        assert legal and bet.numbers == frozenset(numbers) and bet.pays == PAYS[kind]


@given(kind=st.sampled_from(INSIDE_KINDS), data=st.data())
def test_RO_5_nearby_sets_of_the_right_size_are_accepted_exactly_when_legal(kind: str, data: st.DataObject):
    """Random sets rarely hit a corner or a line, so these start from a legal bet and move one number."""
    start = data.draw(st.sampled_from(sorted(sorted(s) for s in LEGAL_SETS[kind])))
    slot = data.draw(st.integers(0, len(start) - 1))
    moved = data.draw(st.integers(0, 36).filter(lambda n: n not in start))
    numbers = [*start[:slot], moved, *start[slot + 1:]]
    legal = frozenset(numbers) in LEGAL_SETS[kind]
    try:
        parse_bet(kind, numbers, None)
    except RuleViolation:
        assert not legal
    else:
        assert legal


@given(kind=st.sampled_from(("column", "dozen")), which=st.integers(-3, 6))
def test_RO_5_a_column_or_dozen_is_accepted_exactly_for_1_2_or_3(kind: str, which: int):
    try:
        bet = parse_bet(kind, None, which)
    except RuleViolation as err:
        assert which not in (1, 2, 3) and err.rule_id == "RO-5"
    else:
        assert which in (1, 2, 3) and bet in OUTSIDE and len(bet.numbers) == 12


# Exact math


def test_the_house_edge_is_exactly_one_in_37_for_every_legal_bet():
    edges = {house_edge(bet) for bet in LEGAL}
    assert edges == {Fraction(1, 37)}
    assert all(type(house_edge(bet)) is Fraction for bet in LEGAL)


def test_returned_is_integer_minor_units_and_refuses_a_bad_stake():
    bet = parse_bet("straight", [7], None)
    assert returned(bet, 1, 7) == 36 and type(returned(bet, 1, 7)) is int
    assert returned(bet, 0, 7) == 0
    for bad in (-1, 1.5, Fraction(1, 2)):
        with pytest.raises(ValueError, match="stake"):
            returned(bet, bad, 7)  # type: ignore[arg-type]


# CR-1: rules and paytable for the client


def test_CR_1_rules_text_carries_rules_and_the_full_paytable_as_plain_data():
    text = rules_text()
    assert json.loads(json.dumps(text)) == text
    assert text["rules"] and all(isinstance(line, str) and line for line in text["rules"])
    table = {row["kind"]: row for row in text["paytable"]}
    assert list(table) == list(KINDS)
    assert {kind: row["pays"] for kind, row in table.items()} == PAYS
    assert {kind: row["covers"] for kind, row in table.items()} == {bet.kind: len(bet.numbers) for bet in LEGAL}
