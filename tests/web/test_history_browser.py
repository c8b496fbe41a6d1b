"""The player's own hand history in a real browser: filters, a replay of a hand on a drawn table, and the export
to the trackers as PokerStars text -- at a desktop's size and a phone's (390x844).

A person plays the demo bots to a showdown, then finds the hand with the filters, steps through its replay (the
board and their own cards appear; another seat's hole cards only when the server's observer saw them shown) and
downloads it: a numeric hand number, the room's hand id kept, read back by PokerKit's PokerStars parser. Set
``POKERROOM_SCREENSHOTS`` to a directory to keep pictures of the replay (``hand-replay.png``, ``-phone.png``).
"""

from __future__ import annotations

import os
import re
from decimal import Decimal
from pathlib import Path

from playwright.sync_api import expect

from tests.support.browser_pages import http_url, register
from tests.web.test_player_browser import SHOWDOWN_WITH_ME, Observer, bot_room, card_text, play_until_showdown

__all__ = ["bot_room"]                   # the fixture: three demo bots playing at t1

PHONE = {"width": 390, "height": 844}


def _shot(page, name: str) -> None:                                         # noqa: ANN001
    folder = os.environ.get("POKERROOM_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name))


def _parsed(text: str) -> list:
    from pokerkit import HandHistory

    value = lambda v: Decimal(v) if "." in v else int(v)           # noqa: E731 - PokerKit's parse_value
    return list(HandHistory.from_pokerstars(text, parse_value=value, error_status=True))


def _replay_cards(replay) -> set[str]:                                      # noqa: ANN001
    faces = replay.locator(".replay-table .card[data-card]")
    return {faces.nth(i).get_attribute("data-card") for i in range(faces.count())}


def _inside(box: dict, outer: dict, slack: float = 1) -> bool:
    return (box["x"] >= outer["x"] - slack and box["y"] >= outer["y"] - slack
            and box["x"] + box["width"] <= outer["x"] + outer["width"] + slack
            and box["y"] + box["height"] <= outer["y"] + outer["height"] + slack)


def test_a_person_filters_replays_and_exports_their_own_hand_at_desktop_and_phone_sizes(bot_room, new_page):
    observer = Observer(bot_room.url, "t1")
    try:
        page = new_page()
        page.goto(http_url(bot_room))
        register(page, "Rita_web")
        expect(page.get_by_test_id("table-players-t1")).to_have_text(re.compile(r"3/6$"), timeout=20_000)
        page.get_by_test_id("open-t1").click()
        table = page.get_by_test_id("table-view")
        expect(table.get_by_test_id("dealer")).to_be_visible(timeout=15_000)
        table.get_by_test_id("take-seat").click()
        table.get_by_test_id("buyin-amount").fill("10.00")
        table.get_by_test_id("buyin-submit").click()
        me = table.locator('.seat[data-player="Rita_web"]')
        expect(me).to_be_visible()
        play_until_showdown(page, table)
        hand_id = table.locator(SHOWDOWN_WITH_ME).get_attribute("data-hand-id")
        events = observer.hand(hand_id)                              # what an observer was sent: no hole cards
        seats = {e["seat"]: e["player"] for e in events if e["type"] == "seat_dealt_in"}
        my_seat = next(s for s, p in seats.items() if p == "Rita_web")
        board = [card_text(c) for c in next(e["board"] for e in reversed(events) if e["type"] == "board_dealt")]
        shown = {e["seat"]: {card_text(c) for c in e["cards"]} for e in events
                 if e["type"] in ("hand_shown", "cards_exposed")}
        table.get_by_test_id("leave").click()
        expect(me).to_have_count(0, timeout=30_000)

        # the history: the showdown hand, its number, its result
        page.get_by_test_id("nav-history").click()
        row = page.get_by_test_id(f"history-hand-{hand_id}")
        expect(row).to_be_visible()
        number = page.get_by_test_id(f"history-number-{hand_id}").text_content()
        assert re.fullmatch(r"Hand #\d+", number)
        net = page.get_by_test_id(f"history-net-{hand_id}").text_content()
        assert re.fullmatch(r"[+-]?\$\d+\.\d\d", net), net
        mine = page.evaluate("([id, seat]) => window.pokerroom.history.hands.find((h) => h.hand_id === id).events"
                             ".find((e) => e.type === 'hole_cards_dealt' && e.seat === seat).cards", [hand_id, my_seat])
        my_cards = {card_text(c) for c in mine}
        assert len(my_cards) == 2

        # the filters: cash or tournament, won or lost, game and stakes, the last N
        filters = page.get_by_test_id("history-filters")
        filters.get_by_test_id("history-filter-kind").select_option("tournament")
        expect(row).to_have_count(0)
        expect(page.get_by_test_id("history-none-shown")).to_be_visible()
        filters.get_by_test_id("history-filter-kind").select_option("cash")
        expect(row).to_be_visible()
        outcome = {"+": "won", "-": "lost"}.get(net[0])             # None: a split pot got our chips back
        for choice in ("won", "lost"):
            filters.get_by_test_id("history-filter-result").select_option(choice)
            if choice == outcome:
                expect(row).to_be_visible()
            else:
                expect(row).to_have_count(0)
        filters.get_by_test_id("history-filter-result").select_option("")
        filters.get_by_test_id("history-filter-game").select_option("NLHE $0.05/$0.10")
        expect(row).to_be_visible()
        filters.get_by_test_id("history-filter-last").fill("1")
        expect(page.locator("details.hand")).to_have_count(1)
        expect(page.get_by_test_id("history-count")).to_have_text(re.compile(r"^1 of \d+ hands shown$"))
        filters.get_by_test_id("history-filter-last").fill("")
        expect(row).to_be_visible()

        # the replay, step by step: only our cards, the board and what was shown ever face up
        page.get_by_test_id(f"history-replay-{hand_id}").click()
        replay = page.get_by_test_id(f"replay-{hand_id}")
        expect(replay).to_be_visible()
        expect(replay.locator("[data-testid^=replay-seat-]")).to_have_count(len(seats))
        allowed = my_cards | set(board) | {c for cards in shown.values() for c in cards}
        step = replay.get_by_test_id("replay-step")
        total = int(re.search(r"of (\d+)", step.text_content()).group(1))
        assert total >= 8
        seen_deal = False
        for i in range(total):
            expect(step).to_have_text(f"Step {i + 1} of {total}")
            faces = _replay_cards(replay)
            assert faces <= allowed, faces - allowed
            for seat in seats:
                cards = replay.get_by_test_id(f"replay-cards-{seat}").locator(".card[data-card]")
                got = {cards.nth(j).get_attribute("data-card") for j in range(cards.count())}
                assert got <= (my_cards if seat == my_seat else shown.get(seat, set())), (seat, got)
            if replay.get_attribute("data-event") == "deal":
                seen_deal = True
                expect(replay.get_by_test_id(f"replay-cards-{my_seat}").locator(".card[data-card]")).to_have_count(2)
                assert replay.locator(".replay-table .card.back").count() >= 2 * (len(seats) - 1)
                expect(replay.get_by_test_id("replay-caption")).to_contain_text("yours")
            if i < total - 1:
                replay.get_by_test_id("replay-next").click()
        assert seen_deal
        expect(replay).to_have_attribute("data-event", "hand_ended")
        board_cards = replay.get_by_test_id("replay-board").locator(".card")
        assert [board_cards.nth(j).get_attribute("data-card") for j in range(board_cards.count())] == board
        assert board_cards.first.get_attribute("aria-label")          # a text alternative for every card
        assert "Board: " in replay.get_by_test_id("replay-board").get_attribute("aria-label")
        for seat, cards in shown.items():
            faces = replay.get_by_test_id(f"replay-cards-{seat}").locator(".card[data-card]")
            assert {faces.nth(j).get_attribute("data-card") for j in range(faces.count())} == cards
        label = replay.get_by_test_id(f"replay-seat-{my_seat}").get_attribute("aria-label")
        assert label.startswith(f"Seat {my_seat}, Rita_web") and "cards " in label and " of " in label
        replay.get_by_test_id("replay-prev").click()
        expect(step).to_have_text(f"Step {total - 1} of {total}")
        replay.get_by_test_id("replay-first").click()
        expect(step).to_have_text(f"Step 1 of {total}")
        replay.get_by_test_id("replay-play").click()                 # plays to the end on its own
        expect(step).to_have_text(f"Step {total} of {total}", timeout=total * 1_500)
        expect(replay.get_by_test_id("replay-play")).to_have_text(re.compile("Play"))
        _shot(replay, "hand-replay.png")

        # the export: this hand, then every hand shown, as PokerStars text the trackers read
        with page.expect_download() as download:
            page.get_by_test_id(f"history-export-{hand_id}").click()
        text = Path(download.value.path()).read_text()
        assert download.value.suggested_filename == f"hand-{number.removeprefix('Hand #')}.txt"
        lines = text.splitlines()
        assert re.fullmatch(rf"PokerStars Hand #{number.removeprefix('Hand #')}: Hold'em No Limit "
                            r"\(\$0\.05/\$0\.10 USD\) - \d{4}/\d\d/\d\d \d\d:\d\d:\d\d UTC", lines[0]), lines[0]
        assert lines[1].endswith(f"is the button (hand {hand_id})")
        assert f"Dealt to Rita_web [{' '.join(card_text(c) for c in mine)}]" in lines
        (back,) = _parsed(text)
        assert back.hand == int(number.removeprefix("Hand #")) and "Rita_web" in back.players
        assert [a for a in back.actions if a.startswith("d db")][-1].endswith(board[-1])
        for name in ("game", "kind"):
            filters.get_by_test_id(f"history-filter-{name}").select_option("")
        filters.get_by_test_id("history-filter-last").fill("3")
        played = int(re.search(r"of (\d+) hands", page.get_by_test_id("history-count").text_content()).group(1))
        expect(page.locator("details.hand")).to_have_count(min(3, played))
        with page.expect_download() as download:
            page.get_by_test_id("history-export").click()
        every = Path(download.value.path()).read_text()
        hands = _parsed(every)                                         # every ended hand of those shown
        assert len(hands) == every.count("PokerStars Hand #") >= 1
        assert len({h.hand for h in hands}) == len(hands) and back.hand in {h.hand for h in hands}

        # a phone: the replay fits the screen, every seat on the table
        filters.get_by_test_id("history-filter-last").fill("")
        page.set_viewport_size(PHONE)
        row = page.get_by_test_id(f"history-hand-{hand_id}")
        page.get_by_test_id(f"history-replay-{hand_id}").click()
        replay = page.get_by_test_id(f"replay-{hand_id}")
        expect(replay).to_be_visible()
        replay.get_by_test_id("replay-last").click()
        drawn = replay.locator(".replay-table")
        drawn.scroll_into_view_if_needed()
        screen = {"x": 0, "y": 0, **PHONE}
        outer = drawn.bounding_box()
        assert _inside({**outer, "y": 0, "height": 1}, screen), outer        # no wider than the phone
        for i in range(len(seats)):
            seat = replay.locator("[data-testid^=replay-seat-]").nth(i).bounding_box()
            assert _inside(seat, outer, slack=4), (seat, outer)
        for name in ("prev", "play", "next"):
            box = replay.get_by_test_id(f"replay-{name}").bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert replay.evaluate("(el) => el.scrollWidth <= el.clientWidth")             # nothing spills out of it
        _shot(replay, "hand-replay-phone.png")
    finally:
        observer.close()
