"""Rake: percentage per pot, rounded down, capped by players dealt in, main pot first, no flop no drop."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pokerroom.poker import Bet, Call, Fold, Hand, Raise, RakeSchedule
from pokerroom.poker.events import HandEnded, PotAwarded, PotFormed
from pokerroom.poker.rake import rake_pots
from tests.poker.engine_drivers import setup, stacked_deck

FIVE_PERCENT = RakeSchedule(Fraction(5, 100), caps=((2, 3), (3, 5), (5, 10)))


def test_HR_RAKE_1_cap_depends_on_players_dealt_in():
    assert [FIVE_PERCENT.cap_for(n) for n in (2, 3, 4, 5, 9)] == [3, 5, 5, 10, 10]
    assert RakeSchedule(Fraction(1, 20)).cap_for(6) is None
    assert RakeSchedule(Fraction(1, 20), caps=((3, 7),)).cap_for(2) == 7


def test_HR_RAKE_2_rake_is_rounded_down_per_pot():
    assert rake_pots(RakeSchedule(Fraction(5, 100)), [39, 59], 6, True) == [1, 2]


def test_HR_RAKE_2_rake_comes_from_the_main_pot_first():
    assert rake_pots(FIVE_PERCENT, [120, 200], 5, True) == [6, 4]
    assert rake_pots(FIVE_PERCENT, [400, 200], 5, True) == [10, 0]


def test_HR_RAKE_1_no_flop_no_drop():
    assert rake_pots(FIVE_PERCENT, [100], 3, False) == [0]
    no_drop_off = RakeSchedule(Fraction(5, 100), no_flop_no_drop=False)
    assert rake_pots(no_drop_off, [100], 3, False) == [5]
    assert rake_pots(None, [100], 3, True) == [0]


def test_HR_RAKE_1_a_rake_rate_must_be_a_fraction_below_one():
    with pytest.raises(ValueError):
        RakeSchedule(Fraction(3, 2))


def test_HR_RAKE_1_a_hand_that_ends_before_the_flop_pays_no_rake():
    h = Hand(setup([100, 100, 100], rake=FIVE_PERCENT), list(range(52)))
    h.apply(Raise(3, 60))
    h.apply(Call(1))
    h.apply(Fold(2))
    assert h.street_name == "flop"
    h.apply(Bet(1, 30))
    h.apply(Fold(3))                                     # the bet is returned, not raked
    assert of_pot(h) == [(122, 5)]                       # the flop came: 5% of 122 capped at 5 for 3 players
    h2 = Hand(setup([100, 100, 100], rake=FIVE_PERCENT), list(range(52)))
    h2.apply(Raise(3, 40))
    h2.apply(Fold(1))
    h2.apply(Fold(2))
    assert of_pot(h2) == [(5, 0)]
    assert dict(h2.events[-2].stacks)[3] == 103


def of_pot(h: Hand) -> list[tuple[int, int]]:
    return [(e.amount, e.rake) for e in h.events if isinstance(e, PotFormed)]


def test_HR_RAKE_2_rake_per_pot_is_recorded_and_chips_are_conserved():
    deck = stacked_deck(["AcAd", "KcKd", "QcQd", "7h2s"], "2c5d9hTs3c")
    schedule = RakeSchedule(Fraction(5, 100), caps=((2, 12),))
    h = Hand(setup([50, 100, 150, 1000], rake=schedule), deck)
    h.apply(Raise(3, 150))
    h.apply(Call(4))
    h.apply(Call(1))
    h.apply(Call(2))
    assert of_pot(h) == [(200, 10), (150, 2), (100, 0)]
    awards = [(e.pot, e.amount) for e in h.events if isinstance(e, PotAwarded)]
    assert awards == [(0, 190), (1, 148), (2, 100)]
    final = next(e for e in h.events if isinstance(e, HandEnded))
    assert final.rake == 12 and sum(s for _, s in final.stacks) + final.rake == 1300


def test_HR_RAKE_1_uncontested_pot_after_the_flop_is_raked():
    h = Hand(setup([100, 100], rake=RakeSchedule(Fraction(10, 100))), list(range(52)))
    h.apply(Raise(2, 40))
    h.apply(Call(1))
    h.apply(Bet(1, 10))
    h.apply(Fold(2))
    assert of_pot(h) == [(80, 8)]


def test_HR_RAKE_3_a_hand_without_a_rake_schedule_takes_no_rake():
    # tournament tables pass no schedule: the same hand that pays 8 above pays nothing
    h = Hand(setup([100, 100], rake=None), list(range(52)))
    h.apply(Raise(2, 40))
    h.apply(Call(1))
    h.apply(Bet(1, 10))
    h.apply(Fold(2))
    assert of_pot(h) == [(80, 0)]
    final = next(e for e in h.events if isinstance(e, HandEnded))
    assert final.rake == 0 and sum(s for _, s in final.stacks) == 200
