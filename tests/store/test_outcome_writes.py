"""One write per outcome, on SQLite and PostgreSQL: a casino round's record and the money settling it land together,
round numbers come from the store (CR-7), and a tournament step stands or falls with the hands that caused it."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import IntegrityError

from pokerroom.money import WORLD, Ledger, cash
from pokerroom.money.accounts import casino_escrow


def _staked(ledger: Ledger, table: str, number: int, player: str = "gus") -> list:
    return [ledger.move(cash(player), casino_escrow(table, player), 100, "casino bet", f"{table}#{number}", 1.0)]


def test_CR_7_a_round_that_took_stakes_and_never_finished_keeps_its_number_used(store):
    ledger = Ledger()
    store.ledger.save_transfers([ledger.move(WORLD, cash("gus"), 10_000, "deposit", "gus", 0.0)])
    store.casino.save_casino_round("ro_1", 5, "roulette", "17 black", False, [], [], [], 1.0)
    assert store.casino.last_casino_round("ro_1") == 5
    # round 6 took a bet; the room died before the spin
    store.ledger.save_transfers(_staked(ledger, "ro_1", 6))
    store.ledger.save_transfers(_staked(ledger, "roX1", 40))           # a table whose id the LIKE wildcard would match
    store.ledger.save_transfers(_staked(ledger, "ro_10", 90))          # a table whose id starts with this one's
    assert store.casino.last_casino_round("ro_1") == 6
    assert store.casino.last_casino_round("roulette-new") == 0
    store.ledger.save_transfers([ledger.move(cash("gus"), casino_escrow("rx", "gus"), 100, "buy-in", "ro_1#x", 2.0),
                                 ledger.move(cash("gus"), casino_escrow("rx", "gus"), 100, "buy-in", "ro_1#9²", 2.0)])
    # another id's reference is no round of this table
    assert store.casino.last_casino_round("ro_1") == 6


def test_CR_4_a_round_and_its_settlement_are_one_transaction(store):
    ledger = Ledger()
    store.ledger.save_transfers([ledger.move(WORLD, cash("gus"), 10_000, "deposit", "gus", 0.0)])
    store.ledger.save_transfers(_staked(ledger, "ro", 1))
    settle = ledger.move(casino_escrow("ro", "gus"), cash("gus"), 100, "casino round", "ro#1", 2.0)
    store.casino.save_casino_round("ro", 1, "roulette", "0 green", False, [], [("gus", "red", 100, 100, "")], [settle],
                                   2.0)
    with pytest.raises(IntegrityError):                         # the same round again: refused whole, its money too
        store.casino.save_casino_round("ro", 1, "roulette", "0 green", False, [], [], [ledger.move(
            WORLD, cash("gus"), 1, "deposit", "gus", 3.0)], 3.0)
    stored = store.ledger.load_ledger()
    assert stored.balance(cash("gus")) == 10_000 and store.ledger.ledger_check()
    assert store.casino.casino_round("ro", 1).result == "0 green"


def test_a_tournament_step_and_the_hands_that_caused_it_land_together_or_not_at_all(store):
    hand = (("sng-t1-1", "sng-t1", 1.0, {"sam": 400, "sid": 400}, "sng"),
            ("sng-t1-1", 2.0, {"sam": 800, "sid": 0}, 0, [{"type": "hand_started"}], None, None, [1.0]))
    broken_step = ("sng", "SnG", "running", None, "tdir", [], 2.0)      # no saved rows: the step cannot be stored
    with pytest.raises(AttributeError):
        store.together([(store.hands.hand_started, hand[0]), (store.hands.hand_ended, hand[1]),
                        (store.tournaments.save_tournament, broken_step)])
    # neither the hand nor the step
    assert store.hands.hands_of("sam", 5) == [] and store.tournaments.tournament("sng") is None
    store.together([(store.hands.hand_started, hand[0]), (store.hands.hand_ended, hand[1])])
    (stored,) = store.hands.hands_of("sam", 5)
    assert stored.end_stacks == {"sam": 800, "sid": 0} and store.audit_log.verify_audit().intact
