"""PokerStars text: key lines of scripted hands, hero versus security-team copies; numeric hand numbers and the
tournament header, read back by PokerKit's PokerStars parser as the trackers would read them."""

from __future__ import annotations

from decimal import Decimal

from pokerkit import HandHistory

from pokerroom.poker import Bet, Call, Check, Fold, Hand, Post, Raise, Stakes
from pokerroom.poker.history import TournamentHeader, to_pokerstars
from pokerroom.poker.history.pokerstars import roman, tournament_number
from tests.poker.engine_drivers import setup, stacked_deck


def parsed(text: str) -> list[HandHistory]:
    """The hands of ``text`` as PokerKit's PokerStars parser reads them (an error raises)."""
    value = lambda v: Decimal(v) if "." in v else int(v)           # noqa: E731 - PokerKit's parse_value
    return list(HandHistory.from_pokerstars(text, parse_value=value, error_status=True))


def test_header_seats_posts_actions_and_summary():
    hand = Hand(setup([10000, 10000, 30000], stakes=Stakes(50, 100), table_name="Alpha", max_seats=9,
                      currency="USD", started_at="2026/12/02 12:00:00 ET"),
                stacked_deck(["AsAd", "7c2d", "KsKh"], "2h3d9cJdQs"))
    for action in (Raise(3, 300), Call(1), Fold(2), Bet(1, 9700), Call(3)):
        hand.apply(action)
    text = to_pokerstars(hand.events, hero="p1", minor_units_per_unit=100, number=4711)
    lines = text.splitlines()
    assert lines[0] == "PokerStars Hand #4711: Hold'em No Limit ($0.50/$1.00 USD) - 2026/12/02 12:00:00 ET"
    assert lines[1] == "Table 'Alpha' 9-max Seat #3 is the button (hand hand-1)"      # the room's own hand id
    assert lines[2:5] == ["Seat 1: p1 ($100.00 in chips)", "Seat 2: p2 ($100.00 in chips)",
                          "Seat 3: p3 ($300.00 in chips)"]
    assert lines[5:8] == ["p1: posts small blind $0.50", "p2: posts big blind $1.00", "*** HOLE CARDS ***"]
    assert lines[8] == "Dealt to p1 [As Ad]"
    assert "Dealt to p3" not in text
    assert lines[9:12] == ["p3: raises $2.00 to $3.00", "p1: calls $2.50", "p2: folds"]
    assert lines[12:15] == ["*** FLOP *** [2h 3d 9c]", "p1: bets $97.00 and is all-in", "p3: calls $97.00"]
    assert "*** TURN *** [2h 3d 9c] [Jd]" in lines
    assert "*** RIVER *** [2h 3d 9c Jd] [Qs]" in lines
    showdown = lines.index("*** SHOW DOWN ***")
    assert lines[showdown + 1] == "p1: shows [As Ad] (a pair of Aces)"
    assert lines[showdown + 2] == "p3: shows [Ks Kh] (a pair of Kings)"
    assert "p1 collected $201.00 from pot" in lines
    assert "Total pot $201.00 | Rake $0.00" in lines
    assert "Board [2h 3d 9c Jd Qs]" in lines
    assert "Seat 1: p1 (small blind) showed [As Ad] and won ($201.00) with a pair of Aces" in lines
    assert "Seat 2: p2 (big blind) folded before Flop" in lines
    assert "Seat 3: p3 (button) showed [Ks Kh] and lost with a pair of Kings" in lines


def _checked_down() -> Hand:
    hand = Hand(setup([100, 100]), stacked_deck(["AsAd", "KsKh"], "2h3d9cJd4s"))
    for action in (Call(2), Check(1), *[a for _ in range(3) for a in (Check(1), Check(2))]):
        hand.apply(action)
    return hand


def test_security_copy_shows_every_hole_card_and_mucked_hands():
    text = to_pokerstars(_checked_down().events)
    assert "Dealt to p1 [As Ad]" in text and "Dealt to p2 [Ks Kh]" in text
    assert "p2: mucks hand" in text
    assert "Seat 2: p2 (button) (small blind) mucked [Ks Kh]" in text


def test_hero_copy_hides_the_others_mucked_cards():
    text = to_pokerstars(_checked_down().events, hero="p1")
    assert "Ks Kh" not in text
    assert "Seat 2: p2 (button) (small blind) mucked\n" in text
    assert "Seat 1: p1 (big blind) showed [As Ad] and won (4) with a pair of Aces" in text


def test_uncalled_bet_dead_and_live_post_side_pots_and_all_in_post():
    hand = Hand(setup([3, 500, 500, 40], stakes=Stakes(1, 2),
                      owed_posts=(Post(3, "dead_small_blind", 1), Post(3, "entry", 2))),
                stacked_deck(["AsAd", "KsKh", "QsQh", "JsJh"], "2h3d9c7d8s"))
    for action in (Check(3), Call(4), Call(1), Raise(2, 100), Fold(3), Call(4), Call(1)):
        hand.apply(action)
    text = to_pokerstars(hand.events)
    assert "p3: posts small & big blinds 3" in text.splitlines()
    assert "p4: calls 38 and is all-in" in text
    assert "Uncalled bet (60) returned to p2" in text
    assert "p1 collected 12 from main pot" in text
    assert "Main pot 12. Side pot-1 74." in text


def test_checks_and_uncontested_pot():
    hand = Hand(setup([100, 100]), stacked_deck(["AsAd", "KsKh"], "2h3d9cJdQs"))
    for action in (Call(2), Check(1), Check(1), Bet(2, 2), Fold(1)):
        hand.apply(action)
    lines = to_pokerstars(hand.events).splitlines()
    assert "p1: checks" in lines and "p2: bets 2" in lines and "p1: folds" in lines
    assert "Uncalled bet (2) returned to p2" in lines
    assert "p2 collected 4 from pot" in lines
    assert "Seat 2: p2 (button) (small blind) collected (4)" in lines


def _cash_hand(hand_id: str = "nl-aldebaran-12") -> Hand:
    hand = Hand(setup([10000, 10000, 30000], stakes=Stakes(5, 10), table_name="Aldebaran", max_seats=6,
                      currency="USD", started_at="2026-12-07T01:00:00+00:00"),
                stacked_deck(["AsAd", "7c2d", "KsKh"], "2h3d9cJdQs"))
    object.__setattr__(hand.events[0], "hand_id", hand_id)
    for action in (Raise(3, 30), Call(1), Fold(2), Bet(1, 50), Call(3), Check(1), Check(3), Check(1), Check(3)):
        hand.apply(action)
    return hand


def test_a_cash_hand_has_a_numeric_number_and_reads_back_through_pokerkit():
    """The trackers' header: digits after ``Hand #``; the rest as PokerKit reads it, the room's id kept."""
    texts = [to_pokerstars(_cash_hand(f"nl-aldebaran-{n}").events, hero="p1", minor_units_per_unit=100,
                           number=number) for n, number in ((12, 901), (13, 902))]
    hands = parsed("\n\n".join(texts))
    assert [h.hand for h in hands] == [901, 902]                 # numeric and unique
    first = hands[0]
    assert first.table == "Aldebaran" and first.seat_count == 6 and first.players == ["p1", "p2", "p3"]
    assert first.starting_stacks == [Decimal("100.00"), Decimal("100.00"), Decimal("300.00")]
    assert first.blinds_or_straddles[:2] == [Decimal("0.05"), Decimal("0.10")]
    assert first.actions[:3] == ["d dh p1 AsAd", "d dh p2 ????", "d dh p3 ????"]       # only the hero's cards
    assert "d db 2h3d9c" in first.actions and first.actions[-2:] == ["p1 sm AsAd", "p3 sm ????"]   # p3 mucked
    assert "(hand nl-aldebaran-12)" in texts[0]


def test_a_tournament_hand_has_the_tournament_header_in_chips_and_reads_back_through_pokerkit():
    hand = Hand(setup([1500, 1500], stakes=Stakes(20, 40), table_name="Sunday Cup table 3", max_seats=9,
                      started_at="2026-12-07T01:00:00+00:00"),
                stacked_deck(["AsAd", "KsKh"], "2h3d9cJdQs"))
    for action in (Raise(2, 120), Call(1), Bet(1, 200), Fold(2)):
        hand.apply(action)
    header = TournamentHeader(tournament_number("sunday-cup"), buy_in=1000, fee=100, currency="USD", level=3,
                              table="3")
    text = to_pokerstars(hand.events, hero="p1", number=5120, tournament=header)
    lines = text.splitlines()
    number = tournament_number("sunday-cup")
    assert lines[0] == (f"PokerStars Hand #5120: Tournament #{number}, $10.00+$1.00 USD Hold'em No Limit - "
                        "Level III (20/40) - 2026/12/07 01:00:00 UTC")
    assert lines[1] == f"Table '{number} 3' 9-max Seat #2 is the button (hand hand-1)"
    assert "Seat 1: p1 (1500 in chips)" in lines and "p2: raises 80 to 120" in lines      # chips, not money
    assert "$" not in "\n".join(lines[1:])
    (back,) = parsed(text)
    assert back.hand == 5120 and back.starting_stacks == [1500, 1500] and back.blinds_or_straddles == [20, 40]
    assert back.actions[:2] == ["d dh p1 AsAd", "d dh p2 ????"] and "p2 f" in back.actions


def test_tournament_numbers_are_digits_and_stable_and_buy_ins_read_as_pokerstars_writes_them():
    assert tournament_number("2827447578") == 2827447578
    assert tournament_number("cup") == tournament_number("cup") != tournament_number("cup2")
    assert 0 <= tournament_number("cup") < 10**12
    assert [roman(n) for n in (1, 4, 9, 14, 40)] == ["I", "IV", "IX", "XIV", "XL"]
    hand = _checked_down()
    free = to_pokerstars(hand.events, number=1, tournament=TournamentHeader(7)).splitlines()[0]
    assert free.startswith("PokerStars Hand #1: Tournament #7, Freeroll Hold'em No Limit (1/2)")
    knockout = TournamentHeader(8, buy_in=500, bounty=500, fee=100, level=1)
    assert ", $5.00+$5.00+$1.00 USD Hold'em No Limit - Level I (1/2)" in to_pokerstars(hand.events, number=2,
                                                                                        tournament=knockout)
