"""The baccarat tables through their commands: Punto Banco (BA) and Bet on Baccarat (BOB), with the common
rules (CR) as they apply to them. The rule modules themselves are tested in test_baccarat.py and
test_bet_on_baccarat.py; here the shoe is stacked and the tables are driven as the shell drives them.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from functools import partial

import pytest

from pokerroom.cards import DECK_SIZE, parse_card
from pokerroom.casino import bet_on_baccarat as bob
from pokerroom.casino.bet_on_baccarat_table import BetOnBaccaratTable
from pokerroom.casino.betting import Limits
from pokerroom.casino.config import casino_rules
from pokerroom.casino.events import (
    BetPlaced,
    BettingClosed,
    CardDealt,
    LastRound,
    RoundOpened,
    RoundSettled,
    RoundVoided,
    ShoeShuffled,
    Staked,
    event_to_dict,
)
from pokerroom.casino.punto_banco import BaccaratTable
from pokerroom.casino.shoe import stacked
from pokerroom.casino.table import CasinoRules
from pokerroom.errors import RuleViolation
from tests.casino.drivers import of, settled
from tests.support.refusals import refused

RICH = 10**9


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


# BA-3 order: player, banker, player, banker, then the player's third and the banker's third.
TIE = cards("2c 4c 3c Tc 5c 6c")           # player 2+3=5 draws 5 -> 0; banker 4 draws on a 5 -> 4+6 = 0: tie
BANKER_NATURAL = cards("2c 9c 3c Td")       # player 5, banker 9: both stand
PLAYER_NATURAL = cards("9c 2c Tc 3c")       # player 9, banker 5
BANKER_ALONE = cards("7c 2c Tc 3c 4c")      # player 7 stands; banker 5 draws (player stood) 4: banker 9


def baccarat(*front: list[int], decks: int = 8, behind_cut: int = 7, source=None) -> BaccaratTable:
    rules = CasinoRules(table_id="bac-1", name="Baccarat", game="baccarat", limits=Limits(100, 100_000),
                        market_limits={"tie": Limits(100, 2_000)}, decks=decks, behind_cut=behind_cut)
    return BaccaratTable(rules, source=source or stacked(*front))


def bet_on_baccarat(*front: list[int], decks: int = 6, burn=lambda: 3) -> BetOnBaccaratTable:
    rules = CasinoRules(table_id="bob-1", name="Bet on Baccarat", game="bet_on_baccarat",
                        limits=Limits(100, 100_000), decks=decks, behind_cut=0, margin=Fraction(5, 100))
    return BetOnBaccaratTable(rules, source=stacked(*front), burn=burn)


def book(table) -> tuple:
    rnd = table.round
    return (table.phase, table.number, None if rnd is None else (
        rnd.state, rnd.window, tuple((b.player, b.market, b.amount, b.window, b.odds, b.seat) for b in rnd.bets),
        tuple(sorted(rnd.staked.items()))))


# ============================================================================================== Punto Banco


def test_BA_3_cards_come_player_banker_player_banker_then_the_thirds():
    table = baccarat(TIE, BANKER_ALONE)
    table.expire()
    dealt = of(table.expire(), CardDealt)
    assert [(d.to, d.card) for d in dealt] == list(zip(
        ["player", "banker", "player", "banker", "player", "banker"], TIE, strict=True))
    assert all(d.round == 1 and d.face_up for d in dealt)
    assert table.dealt == TIE
    table.expire()
    dealt = of(table.expire(), CardDealt)
    assert [(d.to, d.card) for d in dealt] == list(zip(
        ["player", "banker", "player", "banker", "banker"], BANKER_ALONE, strict=True))


def test_BA_5_a_tie_returns_player_and_banker_bets_and_pays_tie_8_to_1():
    table = baccarat(TIE)
    table.expire()
    table.bet("ann", "player", 300, RICH)
    table.bet("ann", "banker", 200, RICH)
    table.bet("bob", "tie", 150, RICH)
    result = settled(table.expire())
    assert result.result == "tie: player 0, banker 0"
    assert [(p.player, p.market, p.staked, p.returned) for p in result.payouts] == [
        ("ann", "player", 300, 300), ("ann", "banker", 200, 200), ("bob", "tie", 150, 1_350)]


def test_CR_4_BA_5_a_banker_win_pays_even_money_less_5_percent_rounded_down():
    table = baccarat(BANKER_NATURAL)
    table.expire()
    table.bet("ann", "banker", 1_010, RICH)      # 5% of 1010 is 50.5: the player gets 959, not 960
    table.bet("bob", "banker", 101, RICH)        # 95.95 -> 95
    table.bet("cat", "banker", 2_000, RICH)      # 1900 exactly
    table.bet("cat", "player", 500, RICH)
    table.bet("dan", "tie", 100, RICH)
    result = settled(table.expire())
    assert result.result == "banker wins: player 5, banker 9"
    assert [(p.player, p.market, p.returned) for p in result.payouts] == [
        ("ann", "banker", 1_969), ("bob", "banker", 196), ("cat", "banker", 3_900), ("cat", "player", 0),
        ("dan", "tie", 0)]


def test_CR_4_a_player_win_pays_even_money_and_everything_settles_in_one_event():
    table = baccarat(PLAYER_NATURAL)
    table.expire()
    table.bet("ann", "player", 700, RICH)
    table.bet("bob", "banker", 700, RICH)
    events = table.expire()
    assert [type(e) for e in events] == [BettingClosed] + [CardDealt] * 4 + [RoundSettled]
    result = settled(events)
    assert [(p.player, p.staked, p.returned, p.detail) for p in result.payouts] == [
        ("ann", 700, 1_400, "player"), ("bob", 700, 0, "player")]
    assert table.phase == "settled" and table.round.state == "settled"


def test_BA_5_more_chips_on_a_market_join_the_one_bet():
    table = baccarat(PLAYER_NATURAL)
    table.expire()
    assert table.bet("ann", "player", 100, RICH)[0].amount == 100
    placed, stake = table.bet("ann", "player", 400, RICH)
    assert placed == BetPlaced("bac-1", 1, "ann", "player", 500) and stake == Staked("bac-1", 1, "ann", 400, "bet")
    # a seat would open a second bet on the market
    error = refused(table.bet, "ann", "player", 100, RICH, seat=3, keeps=partial(book, table))
    assert error.code == "no_seats" and error.message == "baccarat has no seats to choose: bet without one"
    assert [(b.market, b.amount) for b in table.round.bets] == [("player", 500)]
    assert [(p.market, p.staked, p.returned) for p in settled(table.expire()).payouts] == [("player", 500, 1_000)]


@pytest.mark.parametrize("market", ["Player", "pair", "", "player_pair", "main"])
def test_BA_5_only_player_banker_and_tie_are_taken(market):
    table = baccarat()
    table.expire()
    error = refused(table.bet, "ann", market, 100, RICH, keeps=partial(book, table))
    assert error.code == "unknown_market" and error.rule_id == "BA-5"


def test_CR_3_per_market_limits_apply_at_the_table_and_joined_chips_count():
    table = baccarat()
    table.expire()
    table.bet("ann", "tie", 1_500, RICH)
    error = refused(table.bet, "ann", "tie", 501, RICH, keeps=partial(book, table))
    assert (error.code, error.rule_id) == ("above_maximum", "CR-3")
    assert error.message == "the maximum bet on tie is 2000; 2001 is above it"
    table.bet("ann", "player", 50_000, RICH)                 # the table's limits elsewhere
    with pytest.raises(RuleViolation) as info:
        table.bet("ann", "banker", 99, RICH)
    assert info.value.code == "below_minimum"
    with pytest.raises(RuleViolation) as info:
        table.bet("ann", "banker", 100, 99)
    assert info.value.code == "insufficient_funds" and "99" in info.value.message
    assert book(table)[2][2] == (("ann", "tie", 1_500, 1, None, None), ("ann", "player", 50_000, 1, None, None))


def test_CR_2_CR_3_a_late_bet_is_refused_and_changes_nothing():
    table = baccarat(PLAYER_NATURAL)
    with pytest.raises(RuleViolation) as info:                # no round open yet
        table.bet("ann", "player", 100, RICH)
    assert info.value.code == "betting_closed"
    table.expire()
    table.bet("ann", "player", 100, RICH)
    table.expire()                                            # no more bets, dealt and settled
    for market in ("player", "banker"):                       # neither an increase nor a new bet
        error = refused(table.bet, "ann", market, 100, RICH, keeps=partial(book, table))
        assert error.code == "betting_closed" and error.rule_id == "CR-2"
        assert "no more bets" in error.message


def test_CR_2_opening_a_round_while_one_is_in_play_is_refused():
    table = baccarat()
    table.expire()
    table.bet("ann", "player", 100, RICH)
    assert refused(table.open_round, keeps=partial(book, table)).code == "round_in_play"


def test_BA_1_eight_decks_and_the_coup_showing_the_cut_card_is_the_last_of_the_shoe():
    built = []

    def source(decks: int) -> list[int]:
        built.append(decks)
        return stacked()(decks)

    table = baccarat(source=source)
    table.expire()
    assert built == [8] and len(table.shoe.cards) == 8 * DECK_SIZE
    assert table.shoe.cut == 8 * DECK_SIZE - 7                # seven cards behind the cut card
    first_shoe, last = table.shoe, None
    while last is None:
        before = table.shoe.position
        events = table.expire()
        after = table.shoe.position
        if of(events, LastRound):
            assert of(events, LastRound) == [LastRound("bac-1", table.number)]
            assert before < table.shoe.cut <= after           # the cut card came out during this coup
            last = table.number
        else:
            assert after < table.shoe.cut
        assert settled(events).round == table.number
        table.expire()                                        # the next round opens
        if last is None:
            assert table.shoe is first_shoe
    assert built == [8, 8] and table.shoe is not first_shoe and table.shoe.position == 0
    assert table.number == last + 1
    dealt = of(table.expire(), CardDealt)                     # the next coup comes from the new shoe's front
    assert [d.card for d in dealt] == table.shoe.cards[:len(dealt)]
    assert not table.shoe.cut_card_out


def test_BA_1_a_shoe_from_the_config_has_eight_decks_and_the_cut_card_seven_from_the_back():
    rules = casino_rules({"id": "b", "game": "baccarat", "min_bet": 100, "max_bet": 1000})
    assert (rules.decks, rules.behind_cut) == (8, 7)
    table = BaccaratTable(rules)
    table.expire()
    assert len(table.shoe.cards) == 416 and table.shoe.cut == 409


def test_CR_5_a_shoe_running_out_mid_deal_voids_the_round_and_the_next_starts_a_new_shoe():
    built = []

    def source(decks: int) -> list[int]:
        built.append(decks)
        return stacked()(decks)

    table = baccarat(decks=1, behind_cut=0, source=source)   # no cut card: the one deck runs out
    voided = None
    while voided is None:
        table.expire()
        table.bet("ann", "player", 100, RICH)
        table.bet("bob", "tie", 200, RICH)
        events = table.expire()
        if of(events, RoundVoided):
            voided = of(events, RoundVoided)
            assert not of(events, RoundSettled) and not of(events, CardDealt)
    assert voided == [RoundVoided("bac-1", table.number, "the shoe ran out during the round",
                                  (("ann", 100), ("bob", 200)))]
    assert table.results[-1] == (table.number, "void") and table.phase == "settled"
    table.expire()
    assert built == [1, 1] and table.shoe.position == 0
    table.bet("ann", "player", 100, RICH)
    assert of(table.expire(), RoundSettled)                   # the new shoe deals normally


def test_CR_5_a_void_refunds_every_stake_and_pays_nothing():
    table = baccarat(PLAYER_NATURAL)
    table.expire()
    table.bet("ann", "player", 100, RICH)
    table.bet("ann", "player", 250, RICH)
    table.bet("bob", "banker", 400, RICH)
    assert table.void("the card reader failed") == [
        RoundVoided("bac-1", 1, "the card reader failed", (("ann", 350), ("bob", 400)))]
    assert table.phase == "settled" and table.round.state == "void"
    with pytest.raises(RuleViolation) as info:
        table.bet("ann", "player", 100, RICH)
    assert info.value.code == "betting_closed"
    with pytest.raises(RuleViolation) as info:
        table.void("again")
    assert (info.value.code, info.value.rule_id) == ("no_round", "CR-5")
    table.expire()
    assert table.number == 2 and table.round.bets == []


def test_CR_7_rounds_are_numbered_one_by_one_with_results_history_and_statistics():
    table = baccarat(PLAYER_NATURAL, BANKER_NATURAL, TIE, PLAYER_NATURAL)
    numbers = []
    for n in range(5):
        numbers += [e.round for e in table.expire() if isinstance(e, RoundOpened)]
        if n == 2:
            table.void("a technical fault")
        else:
            table.expire()
    assert numbers == [1, 2, 3, 4, 5]
    assert list(table.results) == [(1, "player wins: player 9, banker 5"), (2, "banker wins: player 5, banker 9"),
                                   (3, "void"), (4, "tie: player 0, banker 0"), (5, "player wins: player 9, banker 5")]
    assert table.statistics() == {"player": 2, "banker": 1, "tie": 1, "void": 1}
    assert table.view("ann")["results"][-1] == [5, "player wins: player 9, banker 5"]
    json.dumps(table.view("ann"))


def test_CR_1_the_baccarat_tables_describe_rules_paytable_and_limits():
    for table in (baccarat(), bet_on_baccarat()):
        described = table.describe()
        assert json.loads(json.dumps(described)) == described
        assert described["rules"] and all(isinstance(r, str) and r for r in described["rules"])
        assert described["limits"]["default"] == [100, 100_000]
        assert described["game"] == table.game
    assert baccarat().describe()["limits"]["tie"] == [100, 2_000]
    assert dict(map(tuple, baccarat().describe()["paytable"])) == {
        "player": "1:1", "banker": "1:1 less 5% commission on the win", "tie": "8:1"}
    assert [m for m, _ in bet_on_baccarat().describe()["paytable"]] == list(bob.MARKETS)


def test_the_table_events_are_plain_data():
    table = baccarat(TIE)
    events = table.expire()
    table.bet("ann", "tie", 100, RICH)
    events += table.expire()
    for event in events:
        out = event_to_dict(event)
        assert out["type"] and json.loads(json.dumps(out))["table"] == "bac-1"


# ============================================================================================== Bet on Baccarat

# burned: 2c 2d 2h; the draw: player Ac, banker Ad, player 7c, banker Ah -> player 8 beats 2, banker pair, small
BURN = cards("2c 2d 2h")
DRAW = cards("Ac Ad 7c Ah")


def odds_of(opened: RoundOpened) -> dict[str, int | None]:
    return dict(opened.odds)


def test_BOB_1_six_decks_from_the_config_and_no_cut_card():
    rules = casino_rules({"id": "bob", "game": "bet_on_baccarat", "min_bet": 100, "max_bet": 1000})
    assert (rules.decks, rules.behind_cut) == (6, 0)
    table = BetOnBaccaratTable(rules)
    events = []
    while table.number < 120:                 # past two shoes
        events += table.expire()
    shuffles = of(events, ShoeShuffled)
    assert len(shuffles) >= 2 and all(s.decks == 6 for s in shuffles)
    assert len(table.shoe.cards) == 6 * DECK_SIZE
    assert not of(events, LastRound)
    numbers = [n for n, _ in table.results]                  # every draw numbered; the last 100 kept
    assert table.phase == "betting" and numbers == list(range(table.number - 100, table.number))


def test_BOB_2_three_windows_a_draw_each_priced_and_a_bet_keeps_its_windows_odds():
    table = bet_on_baccarat(BURN, DRAW)
    margin = table.rules.margin
    shuffled, opened = table.expire()
    assert shuffled == ShoeShuffled("bob-1", 6, 3)
    assert (opened.round, opened.window) == (1, 1)
    w1 = odds_of(opened)
    assert list(w1) == list(bob.MARKETS)
    assert w1 == bob.price([6] * DECK_SIZE, (), margin)      # the burned cards are priced as unknown
    assert table.bet("ann", "player", 1_000, RICH)[0].odds == w1["player"]
    key1 = table.due().key

    events = table.expire()
    assert events[:2] == [BettingClosed("bob-1", 1, 1), CardDealt("bob-1", 1, "player", DRAW[0])]
    opened = events[2]
    assert (opened.round, opened.window) == (1, 2) and len(events) == 3
    w2 = odds_of(opened)
    unknown = [6] * DECK_SIZE
    unknown[DRAW[0]] -= 1
    assert w2 == bob.price(unknown, (DRAW[0],), margin)
    assert w2["player"] != w1["player"] and w2["banker"] != w1["banker"]      # re-priced on the card
    assert table.due().key != key1                            # a new window, a new betting clock
    placed, _ = table.bet("ann", "player", 1_000, RICH)       # the same market again: a second bet
    assert (placed.amount, placed.odds) == (1_000, w2["player"])
    table.bet("bob", "banker_pair", 100, RICH)
    assert [(b.market, b.window, b.amount, b.odds) for b in table.round.of("ann")] == [
        ("player", 1, 1_000, w1["player"]), ("player", 2, 1_000, w2["player"])]

    events = table.expire()
    assert events[:2] == [BettingClosed("bob-1", 1, 2), CardDealt("bob-1", 1, "banker", DRAW[1])]
    w3 = odds_of(events[2])
    assert events[2].window == 3 and w3 != w2
    table.bet("cat", "small", 500, RICH)
    table.bet("cat", "perfect_pair", 100, RICH)

    events = table.expire()
    assert events[:3] == [BettingClosed("bob-1", 1, 3), CardDealt("bob-1", 1, "player", DRAW[2]),
                          CardDealt("bob-1", 1, "banker", DRAW[3])]
    result = settled(events)
    assert result.result == "player wins: player 8, banker 2"
    assert [(p.player, p.market, p.staked, p.returned) for p in result.payouts] == [
        ("ann", "player", 1_000, 1_000 * w1["player"] // 100),
        ("ann", "player", 1_000, 1_000 * w2["player"] // 100),
        ("bob", "banker_pair", 100, 100 * w2["banker_pair"] // 100),
        ("cat", "small", 500, 500 * w3["small"] // 100),
        ("cat", "perfect_pair", 100, 0)]


def test_BOB_2_no_bet_joins_or_increases_an_earlier_windows_bet():
    table = bet_on_baccarat(BURN, DRAW)
    table.expire()
    table.bet("ann", "tie", 100, RICH)
    table.expire()
    table.bet("ann", "tie", 100, RICH)
    assert [(b.window, b.amount) for b in table.round.bets] == [(1, 100), (2, 100)]


def test_BOB_2_the_result_counts_the_tie_push_for_player_and_banker():
    table = bet_on_baccarat(BURN, TIE)
    for _ in range(3):
        table.expire()
    table.bet("ann", "player", 100, RICH)
    table.bet("ann", "banker", 100, RICH)
    table.bet("ann", "big", 100, RICH)
    result = settled(table.expire())
    assert dict(table.results) == {1: "tie: player 0, banker 0"}
    assert [(p.market, p.returned, p.detail) for p in result.payouts][:2] == [
        ("player", 100, "tie: returned"), ("banker", 100, "tie: returned")]
    assert result.payouts[2].returned > 100


# one deck so the ranks run out: burned 2c 2d 2h; draw 1 shows three aces; draw 2's player card is the last ace
ONE_DECK = cards("2c 2d 2h Ac Ad 7c Ah As 2s")


def test_BOB_3_a_market_that_cannot_win_is_closed_and_a_bet_on_it_refused():
    table = bet_on_baccarat(ONE_DECK, decks=1)
    opened = table.expire()[-1]
    assert "perfect_pair" in opened.closed_markets            # one deck: no two identical cards
    assert odds_of(opened)["perfect_pair"] is None
    with pytest.raises(RuleViolation) as info:
        table.bet("ann", "perfect_pair", 100, RICH)
    assert (info.value.code, info.value.rule_id) == ("market_closed", "BOB-3")
    assert info.value.message == "perfect_pair takes no bets this round"
    for _ in range(3):
        table.expire()                                        # draw 1: Ac Ad 7c Ah
    opened = table.expire()[-1]
    assert opened.round == 2 and "player_pair" not in opened.closed_markets
    table.bet("ann", "player_pair", 100, RICH)
    events = table.expire()                                   # the player's first card: the last ace
    assert events[1] == CardDealt("bob-1", 2, "player", parse_card("As"))
    assert events[2].closed_markets == ("player_pair", "perfect_pair")
    error = refused(table.bet, "ann", "player_pair", 100, RICH, keeps=partial(book, table))
    assert (error.code, error.rule_id) == ("market_closed", "BOB-3")
    table.bet("ann", "any_pair", 100, RICH)                   # the banker can still pair
    events = table.expire()                                   # banker's first: 2s, whose mates were burned
    assert events[1] == CardDealt("bob-1", 2, "banker", parse_card("2s"))
    w3 = odds_of(events[2])
    assert w3["banker_pair"] is not None and "banker_pair" not in events[2].closed_markets   # burned = unknown
    assert w3["player_pair"] is None
    assert [(b.market, b.window) for b in table.round.bets] == [("player_pair", 1), ("any_pair", 2)]


@pytest.mark.parametrize("market", ["Player", "pair", "perfect", ""])
def test_BOB_3_an_unknown_market_is_refused(market):
    table = bet_on_baccarat(BURN, DRAW)
    table.expire()
    error = refused(table.bet, "ann", market, 100, RICH, keeps=partial(book, table))
    assert (error.code, error.rule_id) == ("unknown_market", "BOB-3")


def test_BOB_4_below_40_cards_the_shoe_is_replaced_after_the_draw_and_3_to_6_burned():
    table = bet_on_baccarat(ONE_DECK, decks=1)
    remaining_at_end, shuffled_at = [], []
    for draw in range(1, 6):
        events = table.expire()
        if of(events, ShoeShuffled):
            shuffled_at.append(draw)
            assert of(events, ShoeShuffled) == [ShoeShuffled("bob-1", 1, 3)]
            assert table.shoe.position == 3
        for _ in range(3):
            assert not of(table.expire(), ShoeShuffled)        # never replaced during a draw
        remaining_at_end.append(table.shoe.remaining)
    assert remaining_at_end[:3] == [45, 40, 36]               # 40 left is not fewer than 40; 36 is
    assert shuffled_at == [1, 4]


def test_BOB_4_the_random_burn_is_3_to_6_cards_that_stay_unknown():
    rules = casino_rules({"id": "bob", "game": "bet_on_baccarat", "min_bet": 100, "max_bet": 1000, "decks": 1})
    table = BetOnBaccaratTable(rules)
    burns = Counter()
    while sum(burns.values()) < 40:
        events = table.expire()
        for shuffled in of(events, ShoeShuffled):
            assert 3 <= shuffled.burned <= 6 and table.shoe.position == shuffled.burned
            assert table.shoe.unknown_counts() == [1] * DECK_SIZE
            assert odds_of(of(events, RoundOpened)[0]) == bob.price([1] * DECK_SIZE, (), rules.margin)
            burns[shuffled.burned] += 1
    assert set(burns) <= {3, 4, 5, 6} and len(burns) >= 2
    with pytest.raises(ValueError, match="3 to 6"):
        bet_on_baccarat(decks=1, burn=lambda: 7).expire()


def test_BOB_5_a_cancelled_draw_refunds_every_bet_of_every_window():
    table = bet_on_baccarat(BURN, DRAW[:1], DRAW)            # the voided draw used the first card
    table.expire()
    table.bet("ann", "player", 1_000, RICH)
    table.bet("bob", "small", 300, RICH)
    table.expire()
    table.bet("ann", "player", 500, RICH)
    table.bet("ann", "tie", 200, RICH)
    assert table.void("a card could not be read") == [
        RoundVoided("bob-1", 1, "a card could not be read", (("ann", 1_700), ("bob", 300)))]
    assert table.results[-1] == (1, "void") and table.statistics() == {"void": 1}
    with pytest.raises(RuleViolation):
        table.bet("ann", "player", 100, RICH)
    opened = table.expire()[-1]
    assert (opened.round, opened.window) == (2, 1) and table.shown == []
    for _ in range(3):
        events = table.expire()
    assert settled(events).result == "player wins: player 8, banker 2"


def test_CR_2_opening_a_draw_while_one_is_in_play_is_refused_and_changes_nothing():
    table = bet_on_baccarat(BURN, DRAW)
    table.expire()
    table.expire()                                            # window 2: the player's card is shown
    shown = list(table.shown)
    with pytest.raises(RuleViolation) as info:
        table.open_round()
    assert info.value.code == "round_in_play"
    assert table.shown == shown
    table.expire()
    assert settled(table.expire()).result == "player wins: player 8, banker 2"


def test_BOB_2_the_view_shows_the_window_the_cards_shown_and_the_odds():
    table = bet_on_baccarat(BURN, DRAW)
    table.expire()
    table.bet("ann", "player", 100, RICH)
    table.expire()
    view = table.view("ann")
    assert view["window"] == 2 and view["shown"] == [DRAW[0]] and view["odds"]["player"] is not None
    assert view["bets"] == [{"market": "player", "amount": 100, "odds": table.round.bets[0].odds, "seat": None}]
    json.dumps(view)
