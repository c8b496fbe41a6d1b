"""A player's own hand history in process, on a Clock: each hand numbered for the trackers, its events and its
PokerStars text as the player's seat may see them (another seat's hole cards only when shown), a tournament hand
in PokerStars' tournament form with the buy-in the ledger took; the text reads back through PokerKit."""

from __future__ import annotations

from decimal import Decimal

from pokerkit import HandHistory
from twisted.internet.task import Clock

from pokerroom.cards import format as format_cards
from pokerroom.money.accounts import HOUSE_FEES, cash
from pokerroom.poker import NLHE, Call, Check, Hand, HandSetup, Seat, Stakes
from pokerroom.poker import events as he
from pokerroom.poker.history.pokerstars import tournament_number
from pokerroom.protocol.schema import parse_request
from pokerroom.shell.hand_export import tournament_header
from tests.poker.engine_drivers import stacked_deck
from tests.support.clocked_room import conform, make_room, play_until, player, request
from tests.support.clocked_room import resolved as answer
from tournament.accounts import pool_account


def ask(room, session, kind: str, /, **fields) -> dict:                 # noqa: ANN001
    return answer(conform(room.gateway.handle(session, parse_request({"type": kind, "rid": 1, **fields}))))


def parsed(text: str) -> list[HandHistory]:
    value = lambda v: Decimal(v) if "." in v else int(v)           # noqa: E731 - PokerKit's parse_value
    return list(HandHistory.from_pokerstars(text, parse_value=value, error_status=True))


def _tournament_hand(room, at: float) -> list[he.Event]:            # noqa: ANN001
    """A checked-down hand at the cup's table 2 (level 2's blinds) stored as the director's hands are: bob loses
    and mucks his kings."""
    seats = (Seat(1, "ana", 1500), Seat(2, "bob", 1500))
    hand = Hand(HandSetup("cup-t2-5", NLHE, Stakes(20, 40), seats, 2, table_name="Cup table cup-t2", max_seats=9),
                stacked_deck(["AsAd", "KsKh"], "2h3d9cJd4s"))    # a tournament table's hands carry no time
    hand.apply(Call(2))                         # the button's small blind completes
    while not hand.ended:
        hand.apply(Check(hand.to_act()))
    events = list(hand.events)
    store = room.store
    end = {"ana": 1540, "bob": 1460}
    room.recorder.write(store.hands.hand_started, "cup-t2-5", "cup-t2", at, {"ana": 1500, "bob": 1500}, "cup")
    room.recorder.write(store.hands.hand_ended, "cup-t2-5", at, end, 0, [he.event_to_dict(e) for e in events], None)
    room.recorder.flushed()
    return events


def test_own_hands_are_numbered_and_exported_as_the_seat_may_see_them(store):
    clock = Clock()
    room = make_room(store, clock)
    ana, bob = player(room, "ana")[0], player(room, "bob")[0]
    for session in (ana, bob):
        assert request(room, session, "join", table="t1", buy_in=1000)["ok"]
    play_until(room, clock, 3)
    for name in ("ana", "bob"):                                # the entry the ledger took (TR-REG-2)
        room.wallet.move(cash(name), pool_account("cup"), 1000, "tournament buy-in", "cup")
        room.wallet.move(cash(name), HOUSE_FEES, 100, "tournament fee", "cup")
    events = _tournament_hand(room, 1_796_605_200)              # stored as started 2026-12-07 01:00:00 UTC

    page = ask(room, ana, "hand_history", limit=10, pokerstars=True)
    hands = [h for h in page["hands"] if h["ended_at"] is not None]
    assert len(hands) >= 4 and hands[0]["hand_id"] == "cup-t2-5" and hands[0]["tournament"] == "cup"
    numbers = [h["number"] for h in hands]
    assert all(type(n) is int for n in numbers) and numbers == sorted(set(numbers), reverse=True)
    text = "\n\n".join(h["pokerstars"] for h in hands)
    read = parsed(text)
    assert [h.hand for h in read] == numbers                   # the trackers' numbers are the room's
    for hand, back in zip(hands, read, strict=True):
        assert f"(hand {hand['hand_id']})" in hand["pokerstars"]                    # the room's id kept
        assert back.players and "ana" in back.players

    cup = hands[0]["pokerstars"].splitlines()
    number = tournament_number("cup")
    assert cup[0].startswith(f"PokerStars Hand #{hands[0]['number']}: Tournament #{number}, $10.00+$1.00 USD "
                             "Hold'em No Limit (20/40) - 2026/12/07 01:00:00 UTC")   # the levels are not stored
    assert cup[1] == f"Table '{number} 2' 9-max Seat #2 is the button (hand cup-t2-5)"
    assert "Seat 1: ana (1500 in chips)" in cup and "ana: shows [As Ad] (a pair of Aces)" in cup
    kings = format_cards(next(e.cards for e in events if isinstance(e, he.HoleCardsDealt) and e.seat == 2), " ")
    assert kings == "Ks Kh" and kings not in hands[0]["pokerstars"]          # bob mucked: never shown to ana
    assert {e["seat"]: len(e["cards"]) for e in hands[0]["events"] if e["type"] == "hole_cards_dealt"} == {1: 2, 2: 0}
    assert all(not e.get("cards") for e in hands[0]["events"] if e["type"] == "hand_mucked")
    assert hands[0]["start"] == 1500 and hands[0]["end"] == 1540               # the chips the hand won

    # at the cash table: bob's cards appear in ana's copy only where he showed them
    for hand in hands[1:]:
        stored = store.security.hand(hand["hand_id"])
        bobs = next(e["cards"] for e in stored.events if e["type"] == "hole_cards_dealt" and e["seat"] != next(
            e2["seat"] for e2 in stored.events if e2["type"] == "seat_dealt_in" and e2["player"] == "ana"))
        shown = any(e["type"] == "hand_shown" and e["cards"] == bobs for e in hand["events"])
        assert shown or all(e.get("cards") != bobs for e in hand["events"])
        assert shown or format_cards(bobs, " ") not in hand["pokerstars"]

    plain = ask(room, ana, "hand_history", limit=10)         # without asking for it, no text
    assert all("pokerstars" not in h for h in plain["hands"]) and plain["hands"][0]["number"] == numbers[0]
    theirs = ask(room, bob, "hand_history", limit=1, pokerstars=True)["hands"][0]["pokerstars"]
    assert "Dealt to bob [Ks Kh]" in theirs and "Dealt to ana" not in theirs


def test_a_running_tournament_s_terms_give_the_level_the_hand_was_dealt_at():
    started = he.HandStarted(1, "cup-t1-3", "NLHE", "holdem", "no_limit", 2, 20, 40, 0, 0, False, 40, 40, 1, 1, 2,
                             None, False, "Cup", 9, "", "")
    levels = [{"small_blind": 10, "big_blind": 20}, {"small_blind": 20, "big_blind": 40, "ante": 0}]
    spec = {"buy_in": 500, "bounty": 500, "fee": 100, "currency": "EUR", "levels": levels}
    header = tournament_header("cup", "cup-t1", started, {"spec": spec}, 100)
    assert (header.level, header.table, header.buy_in, header.bounty, header.fee, header.currency) == \
        (2, "1", 500, 500, 100, "EUR")
    assert tournament_header("cup", "cup-t1", started, None, 100).level is None
