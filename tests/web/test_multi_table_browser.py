"""Several cash tables at once in the player's client (issue 22, "More than one table"), in a real browser.

A person sits at two tables where the demo bots play. On a wide screen (1600x900) both tables are drawn side by
side, each a whole table with its own action bar: the person acts at each from its own tile, and the tile whose
table waits for them is marked and put first. On a phone (390x844) one table shows at a time and the switcher
above it names the other, marking the one waiting for them; tapping it brings that table up to act on.

A tournament table is one of the tiles too: beside a cash table at 1600x900, marked and first when it waits for
the person, the keys acting there; on the phone one more table in the switcher.

Set ``POKERROOM_SCREENSHOTS`` to a directory to keep the two tables side by side (``two-tables.png``, copied to
docs/img), the phone's switcher (``two-tables-phone.png``) and a tournament table beside a cash table
(``tournament-and-cash.png``, copied to docs/img; ``tournament-and-cash-phone.png``).
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.net.server_process import Player, Server, room_config, table_entry
from tests.support.browser_pages import grant, http_url, register
from tests.support.finger import screenshot, tap
from tests.support.socket_play import PASSWORD
from tests.support.tournament_rivals import Rivals

# Two tables alike; six demo bots sit three to a table, so both deal at once. Clocks long enough for a person.
ROOM = room_config(table_entry("t1", "Aldebaran"), table_entry("t2", "Betelgeuse"),
                   between_hands=0.5, decision=20, time_bank=5)
WIDE = {"width": 1600, "height": 900}
PHONE = {"width": 390, "height": 844}
MY_TURN = "[data-testid=act-check]:visible, [data-testid=act-call]:visible"
NAME = "Tiler"
ACTED = re.compile(rf"\b{NAME} (checks|calls)")
# A table's hand log: its lines marked as read, then whether a line of ours came after them.
MARK_READ = """(table) => {
  for (const li of document.querySelectorAll(`[data-table=${table}] [data-testid=log] li`)) li.dataset.read = "1";
}"""
NEW_OF_OURS = """([table, pattern]) => [...document.querySelectorAll(
  `[data-testid=table-tile][data-table=${table}] [data-testid=log] li:not([data-read])`)]
  .some((li) => new RegExp(pattern).test(li.textContent))"""


@pytest.fixture
def two_table_room(tmp_path):
    (tmp_path / "room.toml").write_text(ROOM)
    server = Server(tmp_path, "--max-rate", "500", "--bots", "6").start()
    yield server
    server.stop()


def tile_of(page, table: str):   # noqa: ANN001, ANN201
    return page.locator(f"[data-testid=table-tile][data-table={table}]")


def sit(page, table: str) -> None:   # noqa: ANN001
    """From the lobby: the table opened and a seat bought into, inside that table's own tile."""
    page.get_by_test_id("nav-lobby").click()
    expect(page.get_by_test_id(f"table-players-{table}")).to_have_text(re.compile(r"3/6$"), timeout=20_000)
    page.get_by_test_id(f"open-{table}").click()
    tile = tile_of(page, table)
    tile.get_by_test_id("take-seat").click()
    tile.get_by_test_id("buyin-amount").fill("10.00")
    tile.get_by_test_id("buyin-submit").click()
    expect(tile.locator(f'.seat[data-player="{NAME}"]')).to_be_visible()


def waiting_table(page, seconds: float = 25) -> str:   # noqa: ANN001
    """The table whose tile says it waits for the person (hands are dealt on both; one comes soon)."""
    marked = page.locator("[data-testid=table-tile][data-needs-action=true]").first
    marked.wait_for(timeout=seconds * 1000)
    return marked.get_attribute("data-table")


def test_two_tables_side_by_side_on_a_wide_screen_and_one_at_a_time_with_a_switcher_on_a_phone(two_table_room,
                                                                                                 new_page):
    page = new_page()
    page.set_viewport_size(WIDE)
    page.goto(http_url(two_table_room))
    register(page, NAME)
    expect(page.get_by_test_id("whoami")).to_have_text(NAME)
    sit(page, "t1")
    sit(page, "t2")

    # wide: both tables drawn at once, side by side, each with its own felt and action bar
    tiles = page.get_by_test_id("table-tiles")
    expect(tiles).to_have_class(re.compile(r"\btiled\b"))
    one, two = tile_of(page, "t1"), tile_of(page, "t2")
    for tile in (one, two):
        expect(tile).to_be_visible()
        expect(tile.get_by_test_id("stage")).to_be_visible()
        expect(tile.get_by_test_id("action-bar")).to_be_visible()
    a, b = one.bounding_box(), two.bounding_box()
    assert abs(a["y"] - b["y"]) < 2 and (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]), (a, b)
    expect(page.get_by_test_id("table-switcher").get_by_test_id("switch-table")).to_have_count(2)

    # acting at each table from its own tile: the waiting tile is marked and first; the other one is left alone
    acted: set[str] = set()
    deadline = time.monotonic() + 60
    shot = False
    while acted != {"t1", "t2"}:
        assert time.monotonic() < deadline, f"acted at {sorted(acted)} only"
        try:
            table = waiting_table(page)
        except PlaywrightTimeout:
            continue
        tile, other = tile_of(page, table), tile_of(page, "t2" if table == "t1" else "t1")
        expect(tile).to_have_class(re.compile(r"\bneeds-action\b"))
        box, other_box = tile.bounding_box(), other.bounding_box()
        if other.get_attribute("data-needs-action") == "false":    # (it was so when the boxes were read)
            assert box["x"] < other_box["x"], "the table waiting for the person is not put first"
        button = tile.locator(MY_TURN).first
        try:
            button.wait_for(timeout=3_000)
        except PlaywrightTimeout:                       # the turn passed meanwhile (a bot's fold ended the hand)
            continue
        if not shot:
            screenshot(page, "two-tables.png")
            shot = True
        for name in ("t1", "t2"):
            page.evaluate(MARK_READ, name)
        button.click()
        page.wait_for_function(NEW_OF_OURS, arg=[table, ACTED.pattern])        # played at this table
        assert not page.evaluate(NEW_OF_OURS, ["t2" if table == "t1" else "t1", ACTED.pattern]), "and at the other"
        assert other.get_by_test_id("action-error").inner_text() == ""
        acted.add(table)

    # a phone: one table at a time; the switcher names both and marks the one waiting for the person
    page.set_viewport_size(PHONE)
    expect(tiles).not_to_have_class(re.compile(r"\btiled\b"))
    switcher = page.get_by_test_id("table-switcher")
    expect(switcher).to_be_visible()
    expect(page.locator("[data-testid=table-tile]:visible")).to_have_count(1)
    shown = page.locator("[data-testid=table-tile]:visible").get_attribute("data-table")
    hidden = "t2" if shown == "t1" else "t1"
    link = switcher.locator(f"[data-testid=switch-table][data-table={hidden}]")
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "the hidden table never waited for the person"
        try:
            expect(link).to_have_attribute("data-needs-action", "true", timeout=3_000)
            break
        except AssertionError:
            mine = tile_of(page, shown).locator(MY_TURN)
            if mine.count():                            # the shown table's turn: play it, wait for the other
                try:
                    mine.first.click(timeout=3_000)
                except PlaywrightTimeout:               # the toast about the other table was over it
                    pass
    expect(link).to_contain_text("Your turn")
    screenshot(page, "two-tables-phone.png")
    link.evaluate("(a) => a.scrollIntoView({block: 'nearest'})")   # in one step: the switcher is redrawn live
    tap(page, link, "the other table in the switcher")
    expect(tile_of(page, hidden)).to_be_visible()
    expect(tile_of(page, shown)).to_be_hidden()
    try:
        tile_of(page, hidden).locator(MY_TURN).first.wait_for(timeout=3_000)
    except PlaywrightTimeout:
        return                                          # the turn passed as it was tapped: the switch is what counts
    page.evaluate(MARK_READ, hidden)
    tile_of(page, hidden).locator(MY_TURN).first.click()
    page.wait_for_function(NEW_OF_OURS, arg=[hidden, ACTED.pattern])         # played at the table brought up


# A cash table with three demo bots, and a tournament against two Python rivals who check or call: long clocks
ROOM_AND_CUP = room_config(table_entry("t1", "Aldebaran"), between_hands=0.5, decision=20, time_bank=5) + """
[tournaments]
decision_seconds = 20
between_hands_seconds = 0.5
clock_scale = 1
"""
TOURNAMENT_TILE = "[data-testid=tournament-view]"


@pytest.fixture
def cash_and_cup(tmp_path):
    (tmp_path / "room.toml").write_text(ROOM_AND_CUP)
    server = Server(tmp_path, "--max-rate", "500", "--bots", "3").start()
    yield server
    server.stop()


def play_when_asked(page, tile, seconds: float = 2) -> bool:   # noqa: ANN001
    """Check or call in ``tile`` if it waits for us (within ``seconds``): whether we did."""
    try:
        tile.locator(MY_TURN).first.click(timeout=seconds * 1000)
    except PlaywrightTimeout:
        return False
    return True


def test_a_tournament_table_tiles_beside_a_cash_table_and_is_one_more_table_in_the_phone_switcher(cash_and_cup,
                                                                                                    new_page):
    url = cash_and_cup.url
    setup = Player(url, "pokerroom.v1.json")
    assert setup.request("register", nickname="tdir", password=PASSWORD, birth_date="1970-01-01", country="NL")["ok"]
    setup.close()
    grant(cash_and_cup, "tdir", "director")
    director = Player(url, "pokerroom.v1.json")
    assert director.request("login", nickname="tdir", password=PASSWORD)["ok"]
    created = director.request("director_create", template="daily", id="cup", name="Tile Cup", start_in=None,
                               settings={"guarantee": 0, "table_size": 4, "level_seconds": 600})
    assert created["ok"], created
    page = new_page()
    page.set_viewport_size(WIDE)
    page.goto(http_url(cash_and_cup))
    register(page, NAME)
    page.get_by_test_id("register-cup").click()
    expect(page.get_by_test_id("unregister-cup")).to_be_visible()
    rivals = Rivals(url, ["Rival", "Rook"])
    try:
        rivals.start()
        assert director.request("director_start", tournament="cup")["ok"]
        sit(page, "t1")
        page.get_by_test_id("nav-tournament-cup").click()

        # wide: the tournament table and the cash table side by side, each a whole table with its action bar
        tiles = page.get_by_test_id("table-tiles")
        expect(tiles).to_have_class(re.compile(r"\btiled\b"))
        cup, cash_tile = page.locator(TOURNAMENT_TILE), tile_of(page, "t1")
        expect(cup.locator(f'.seat[data-player="{NAME}"]')).to_be_visible(timeout=20_000)
        for tile in (cup, cash_tile):
            expect(tile).to_be_visible()
            expect(tile.get_by_test_id("stage")).to_be_visible()
            expect(tile.get_by_test_id("action-bar")).to_be_visible()
        expect(cup.get_by_test_id("tournament-bar")).to_be_visible()
        a, b = cup.bounding_box(), cash_tile.bounding_box()
        assert abs(a["y"] - b["y"]) < 2 and (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]), (a, b)
        links = page.get_by_test_id("table-switcher").get_by_test_id("switch-table")
        expect(links).to_have_count(2)
        expect(links.and_(page.locator("[data-kind=tournament]"))).to_have_count(1)

        # the tournament table waits for us: its tile is marked, put first, and the keys act there
        # (alone: were the cash table waiting too, the keys would go to whichever waited first)
        deadline = time.monotonic() + 90
        while True:
            assert time.monotonic() < deadline, "the tournament table never waited for us alone"
            if cash_tile.get_attribute("data-needs-action") == "true":
                play_when_asked(page, cash_tile, 0.5)
                continue
            if cup.get_attribute("data-needs-action") == "true":
                break
            try:
                cup.and_(page.locator("[data-needs-action=true]")).wait_for(timeout=2_000)
            except PlaywrightTimeout:
                continue
        expect(cup).to_have_class(re.compile(r"\bneeds-action\b"))
        if cash_tile.get_attribute("data-needs-action") == "false":
            assert cup.bounding_box()["x"] < cash_tile.bounding_box()["x"], "the waiting tournament table is not first"
        screenshot(page, "tournament-and-cash.png")
        page.evaluate("document.activeElement && document.activeElement.blur()")
        page.keyboard.press("c")                                  # the hotkey goes to the tile that waits for us
        expect(cup).not_to_have_class(re.compile(r"\bneeds-action\b"), timeout=10_000)
        assert cash_tile.get_by_test_id("action-error").inner_text() == ""

        # a phone: one table at a time, the switcher names both, the tournament marked when it waits for us
        page.set_viewport_size(PHONE)
        expect(tiles).not_to_have_class(re.compile(r"\btiled\b"))
        expect(page.locator("[data-testid=table-tile]:visible, [data-testid=tournament-view]:visible")).to_have_count(1)
        expect(cup).to_be_visible()                               # the one opened last is in front
        cash_link = page.get_by_test_id("table-switcher").locator("[data-testid=switch-table][data-kind=cash]")
        cup_link = page.get_by_test_id("table-switcher").locator("[data-testid=switch-table][data-kind=tournament]")
        expect(cup_link).to_have_attribute("aria-current", "page")
        cash_link.scroll_into_view_if_needed()
        tap(page, cash_link, "the cash table in the switcher")
        expect(cash_tile).to_be_visible()
        expect(cup).to_be_hidden()
        deadline = time.monotonic() + 60
        while cup_link.get_attribute("data-needs-action") != "true":
            assert time.monotonic() < deadline, "the hidden tournament table never waited for us"
            play_when_asked(page, cash_tile, 1)
        expect(cup_link).to_contain_text("Your turn")
        screenshot(page, "tournament-and-cash-phone.png")
        cup_link.scroll_into_view_if_needed()
        tap(page, cup_link, "the tournament table in the switcher")
        expect(cup).to_be_visible()
        expect(cash_tile).to_be_hidden()
    finally:
        rivals.close()
        director.close()
