"""Money in a running tournament: bounties, deals, staking, satellites and cancellation refunds.

Every expected amount is worked out by hand in the comments, and the ledger that posts the director's
payments must balance after each test (TR-PLAY-6, TR-DEAL, TR-STAKE, TR-PRIZE-5/6, TR-REFUND).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import HOUSE_FEES, is_wallet
from tests.tournament.director_drivers import Room, bust_one, spec, started, winning
from tournament import director as td
from tournament.refunds import BEFORE_THE_MONEY, IN_THE_MONEY, NOT_STARTED


def test_TR_PLAY_6_a_bounty_won_before_the_money_is_held_until_the_bubble_bursts():
    # 5 players, 2 paid. Each pays 900 + 500 bounty + 100 fee. In the money: no more players left than
    # places paid (TR-REG-4, TR-REFUND-3), so the bubble bursts when the third player busts.
    room = started(["a", "b", "c", "d", "e"], bounty=500)
    d = room.director
    bust_one(room, winner="a")                               # 4 left
    won = room.of(td.BountyWon)[-1]
    assert won.winner == "a" and won.cash == 500 and won.held
    assert room.cash("a") == 100_000 - 1500                  # held, not paid
    assert d.entries["a"].held == 500
    bust_one(room, winner="a")                               # 3 left: still held
    assert not room.of(td.BubbleBurst) and d.entries["a"].held == 1000
    bust_one(room, winner="a")                               # 2 left: the bubble bursts
    assert room.of(td.BubbleBurst)[-1].held_bounties_paid == 1500
    assert room.cash("a") == 100_000 - 1500 + 1500


def test_TR_PLAY_6_progressive_knockout_pays_a_share_and_puts_the_rest_on_the_winners_head():
    room = started(["a", "b", "c", "d"], bounty=500, progressive_share=Fraction(1, 2))
    bust_one(room, winner="a")
    won = room.of(td.BountyWon)[-1]
    assert (won.cash, won.onto_head) == (250, 250)
    assert room.director.entries["a"].own_bounty == 750


def test_TR_PLAY_6_a_split_pot_splits_the_bounty_equally_rounded_down():
    from tournament.bounties import knockout
    ko = knockout(501, ["a", "b"])
    assert ko.cash == {"a": 250, "b": 250} and ko.remainder == 1
    pko = knockout(501, ["a", "b"], Fraction(1, 2))
    assert pko.cash == {"a": 125, "b": 125} and pko.onto_head == {"a": 125, "b": 125} and pko.remainder == 1


def test_TR_PLAY_6_cancelled_before_the_money_pays_held_bounties_and_refunds_own_bounties():
    room = started(["a", "b", "c", "d", "e"], bounty=500)
    bust_one(room, winner="a")
    room.apply(room.director.cancel("server maintenance"))
    assert room.ledger.balance(td.bounty_account("t")) == 0
    refunds = room.of(td.Cancelled)[-1].refunds
    # a holds 500 won and 500 on their head: both in their refund, besides fee and pool share
    pool_share = {p: refunds[p] - 100 - (1000 if p == "a" else 500) for p in refunds}
    assert all(share > 0 for share in pool_share.values())
    assert room.ledger.check()


def test_TR_DEAL_1_a_deal_pauses_play_and_needs_every_remaining_player():
    room = started(["a", "b", "c", "d", "e", "f", "g"], deals=True)   # 3 paid: 3150 / 1890 / 1260
    d = room.director
    with pytest.raises(RuleViolation) as e:
        d.deal_desk.propose_deal("a", "icm")
    assert e.value.code == "deal_before_money" and e.value.rule_id == "TR-DEAL-1"
    while len(d.entries) > 3:
        bust_one(room)
    proposer = next(iter(d.entries))
    room.apply(d.deal_desk.propose_deal(proposer, "chip_chop"))
    offer = room.of(td.DealOffered)[-1]
    assert d.ready_tables() == []                                # play pauses
    assert sum(offer.amounts.values()) + offer.remainder == 3150 + 1890 + 1260
    first, *others = offer.amounts
    room.apply(d.deal_desk.answer_deal(first, True))
    room.apply(d.deal_desk.answer_deal(others[0], False))                  # one decline: play resumes
    assert room.of(td.DealFailed) and d.ready_tables()
    room.apply(d.deal_desk.propose_deal(proposer, "icm"))
    room.apply(d.deal_desk.deal_expired())                                 # nobody answered in time
    assert room.of(td.DealFailed)[-1].reason == "time ran out" and d.ready_tables()
    room.apply(d.deal_desk.propose_deal(proposer, "icm"))
    offer = room.of(td.DealOffered)[-1]
    for player in offer.amounts:
        room.apply(d.deal_desk.answer_deal(player, True))
    assert d.state == td.FINISHED
    for player, amount in offer.amounts.items():
        assert room.cash(player) == 100_000 - 1000 + amount
    assert room.ledger.balance(td.pool_account("t")) == 0 and room.ledger.check()


def test_TR_DEAL_3_an_amount_left_to_play_for_goes_to_the_winner_of_the_rest():
    room = started(["a", "b", "c", "d", "e"], deals=True)
    d = room.director
    while len(d.entries) > 2:
        bust_one(room)
    proposer = next(iter(d.entries))
    room.apply(d.deal_desk.propose_deal(proposer, "icm", left_to_play_for=300))
    offer = room.of(td.DealOffered)[-1]
    for player in offer.amounts:
        room.apply(d.deal_desk.answer_deal(player, True))
    assert d.state == td.RUNNING and d.eliminations.prizes[:2] == (300, 0)
    while d.state == td.RUNNING:
        bust_one(room)
    assert room.cash(d.eliminations.winner) == 100_000 - 1000 + offer.amounts[d.eliminations.winner] + 300
    assert room.ledger.balance(td.pool_account("t")) == 0


def test_TR_STAKE_3_winnings_are_split_in_proportion_to_the_shares():
    room = Room(spec())
    room.register("a", "b", "c")
    room.fund("backer")
    room.apply(room.director.registration.sell_shares("a", "backer", Fraction(25), Fraction("1.2"),
                                                      room.cash("backer")))
    room.apply(room.director.registration.start())
    d = room.director
    table = room.only_table()
    order = room.dealing_order(table)
    room.deal(table, winning(["a"] + [p for p in order if p != "a"]))
    room.shove_all(table)
    # a wins 2,700 (3 entries, 3-entry bracket pays one place): 25% = 675 to the backer, 2,025 to a,
    # and the 300 price (25% of 1,000 at 1.2) from escrow to a.
    assert d.eliminations.winner == "a"
    assert room.cash("backer") == 100_000 - 300 + 675
    assert room.cash("a") == 100_000 - 1000 + 2025 + 300
    assert room.ledger.balance(td.stakes_account("t")) == 0


def test_TR_PRIZE_5_satellite_seats_and_tournament_money_for_a_player_already_in_the_target():
    # 5 x 900 = 4,500: four seats of 1,100 and 100 in cash for fifth place; seats to "daily" (fee 100)
    satellite = dict(satellite_target="daily", satellite_seat_value=1100, satellite_seat_fee=100)
    room = Room(spec(**satellite), holds_target_seat=lambda p: p == "a")
    room.register("a", "b", "c", "d", "e")
    room.apply(room.director.registration.start())
    d = room.director
    assert d.eliminations.prizes == (1100, 1100, 1100, 1100, 100)
    bust_one(room)                                               # 4 left: all would win a seat (TR-PRIZE-6)
    assert d.state == td.FINISHED
    seats = {e.player: e.as_tournament_money for e in room.of(td.SeatWon)}
    assert len(seats) == 4 and seats.get("a", True) is True
    if "a" in seats:
        assert room.ledger.balance(td.tournament_money("a")) == 1000      # T$: 1,100 less the fee of 100
    for player in (p for p in seats if p != "a"):
        assert room.ledger.balance(td.ticket_account("daily", player)) == 1100
    assert room.ledger.balance(td.pool_account("t")) == 0


def test_TR_REFUND_2_a_cancelled_tournament_not_yet_started_gives_everything_back():
    room = Room(spec(bounty=300))
    room.register("a", "b")
    room.fund("backer")
    room.apply(room.director.registration.sell_shares("a", "backer", Fraction(50), Fraction(1), room.cash("backer")))
    room.apply(room.director.cancel("not enough players"))
    assert room.of(td.Cancelled)[-1].case == NOT_STARTED
    assert room.cash("a") == room.cash("b") == room.cash("backer") == 100_000
    assert room.ledger.balance(HOUSE_FEES) == 0


def test_TR_REFUND_3_cancelled_before_the_money_fee_back_and_the_pool_half_even_half_by_chips():
    room = started(["a", "b", "c", "d", "e"])
    d = room.director
    order = bust_one(room)                                       # 4 left with 5,000 chips between them
    stacks = d.stacks()
    preview = d.refund_preview()
    room.apply(d.cancel("server failure"))
    # pool 4,500: 2,250 evenly (562.5 each) and 2,250 by chips; fee 100 back
    for player, chips in stacks.items():
        exact = Fraction(4500, 2) / 4 + Fraction(4500, 2) * chips / 5000 + 100
        assert room.of(td.Cancelled)[-1].refunds[player] == int(exact)
        assert room.cash(player) == 100_000 - 1000 + int(exact)
    assert preview.case == BEFORE_THE_MONEY and preview.amounts == room.of(td.Cancelled)[-1].refunds
    assert order and room.ledger.balance(td.pool_account("t")) == 0 and room.ledger.check()


def test_TR_REFUND_4_cancelled_in_the_money_everyone_gets_the_next_prize_and_the_rest_by_chips():
    room = started(["a", "b", "c", "d", "e", "f", "g"])          # 7 entries pay 3: 50/30/20 of 6,300
    d = room.director
    while len(d.entries) > 3:
        bust_one(room)
    stacks = d.stacks()
    assert d.eliminations.prizes == (3150, 1890, 1260)
    room.apply(d.cancel("server failure"))
    refund = room.of(td.Cancelled)[-1]
    assert refund.case == IN_THE_MONEY
    # each gets 1,260 (third prize); 3150 + 1890 + 1260 - 3 x 1260 = 2,520 by chips; plus the 100 fee
    for player, chips in stacks.items():
        assert refund.refunds[player] == int(1260 + Fraction(2520) * chips / sum(stacks.values()) + 100)
    assert room.ledger.balance(td.pool_account("t")) == 0 and room.ledger.check()


def test_TR_REFUND_5_a_guarantee_not_met_is_not_paid_on_cancellation():
    room = started(["a", "b", "c", "d", "e"], guarantee=10_000)   # 4,500 collected, 5,500 overlay
    d = room.director
    bust_one(room)
    stacks = d.stacks()
    room.apply(d.cancel("server failure"))
    refunds = room.of(td.Cancelled)[-1].refunds
    assert sum(refunds.values()) <= 4500 + 4 * 100                 # only collected money and fees
    for player, chips in stacks.items():
        assert refunds[player] == int(Fraction(2250, 4) + Fraction(2250) * chips / 5000 + 100)
    assert room.ledger.balance(td.pool_account("t")) == 0


def test_TR_REFUND_6_backers_of_a_refunded_player_share_the_refund():
    room = Room(spec())
    room.register("a", "b", "c", "d")
    room.fund("backer")
    room.apply(room.director.registration.sell_shares("a", "backer", Fraction(40), Fraction(1), room.cash("backer")))
    room.apply(room.director.registration.start())
    d = room.director
    room.apply(d.cancel("server failure"))
    # nobody busted: each gets 100 + 3,600 / 4 = 1,000; the backer gets 40% of a's 1,000 = 400,
    # and a gets 600 plus the 400 price from escrow.
    assert room.cash("backer") == 100_000 - 400 + 400
    assert room.cash("a") == 100_000 - 1000 + 600 + 400


def test_TR_REFUND_7_refunds_are_rounded_down_and_recorded_with_the_reason():
    room = started(["a", "b", "c"], buy_in=1001, fee=99)         # 3,003 among 3 equal stacks: 1,001 each
    d = room.director
    room.apply(d.cancel("server failure"))
    reasons = {e.reason for e in room.events if isinstance(e, td.Payment) and is_wallet(e.target)}
    assert any(r.startswith("refund TR-REFUND-3") for r in reasons)
    assert room.ledger.balance(td.pool_account("t")) == 0 and room.ledger.check()
