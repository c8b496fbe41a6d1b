"""A tournament at its table in a real browser (issue 22 item 2), on a desktop and on a 390x844 phone.

A person registers in the lobby and plays against two Python players who check or call; the strip above the felt
shows the level and its clock counting down, the blinds now and next and the players left, as the event's page
(``tournament_details``) says. At the break (TR-PLAY-2) the strip and the turn line say so and no action control
is shown. A director's broadcast stays listed at the table. The person chats at the table (HR-CHAT: a line typed
in the chat panel -- a tab below the table on the phone -- reaches the other players seated there, and a rival's
line shows in it). The person reloads the page during the break and comes back to the table with its seats and
stacks, the break clock, no controls, and the way back in the top bar and in the lobby (which offers "Open
table", not "Unregister", and counts the break down live). Between hands in the break the person buys a rebuy
(TR-REG-6) and reads the wallet the answer gave; a pause (TR-PLAY-1) stops the level clock and the turn line;
then the person moves all-in until someone is eliminated, and the players left follow the server's page. Set
``POKERROOM_SCREENSHOTS`` to keep ``tournament-table.png`` (the desktop table with its clock:
docs/img/tournament-table.png is one).
"""

from __future__ import annotations

import math
import os
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.net.server_process import FAST_ROOM, Player, Server
from tests.support.browser_pages import grant, http_url, register
from tests.support.socket_play import PASSWORD
from tests.support.tournament_rivals import Rivals
from tests.support.waiting import wait_until

SIZES = {"desktop": {"width": 1280, "height": 860}, "phone": {"width": 390, "height": 844}}
ROOM = FAST_ROOM + """
[tournaments]
decision_seconds = 15
between_hands_seconds = 0.5
clock_scale = 1
"""
# Levels and a break long enough for what the test checks in each (the strip at level 1; the leaving and coming
# back and the rebuy in the break), no longer: the test waits them out on the wall clock.
LEVEL_SECONDS = 15
BREAK_SECONDS = 30
# the controls to act with (the bar's sound and hotkeys switches are no action, and stay)
ACTION_BUTTONS = "[data-testid=action-bar] button:visible:not(.tool)"
# Watches an element's text for 1.5 s, frame by frame, as a person would look at a clock: whether it stayed still.
STILL = """(selector) => new Promise((done) => {
  const el = document.querySelector(selector);
  const first = el.textContent, start = performance.now();
  const look = () => {
    if (el.textContent !== first) done(false);
    else if (performance.now() - start > 1500) done(true);
    else requestAnimationFrame(look);
  };
  look();
})"""


@pytest.fixture
def tournament_room(tmp_path):
    (tmp_path / "room.toml").write_text(ROOM)
    server = Server(tmp_path, "--max-rate", "500").start()
    yield server
    server.stop()


def click_when_shown(view, testid: str, seconds: float) -> None:
    """Click ``testid`` in ``view`` each time it shows, for ``seconds`` (folding every hand, say)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            view.get_by_test_id(testid).click(timeout=1_000)
        except PlaywrightTimeout:
            pass


def fold_until(view, turn: re.Pattern) -> None:
    """Fold when it is our turn until the turn line reads ``turn`` (a hand in play when a pause or a break came
    is played out: the break or the pause shows once it ends)."""
    line = view.get_by_test_id("turn")
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline and not turn.search(line.text_content() or ""):
        click_when_shown(view, "act-fold", 1)
    expect(line).to_have_text(turn)


def shove(view) -> None:
    """All-in when it is our turn: the all-in preset and the raise, or a call for everything."""
    if view.get_by_test_id("preset-allin").is_visible() and view.get_by_test_id("act-raise").is_visible():
        view.get_by_test_id("preset-allin").click(timeout=1_000)
        view.get_by_test_id("act-raise").click(timeout=1_000)
    elif view.get_by_test_id("act-raise").is_visible():
        view.get_by_test_id("act-raise").click(timeout=1_000)
    elif view.get_by_test_id("act-call").is_visible():
        view.get_by_test_id("act-call").click(timeout=1_000)
    elif view.get_by_test_id("act-check").is_visible():
        view.get_by_test_id("act-check").click(timeout=1_000)


def field_text(director: Player) -> str:
    """The players left and the entries, as the room's page says them."""
    page = director.request("tournament_details", tournament="cup")
    return f"{page['players_left']} / {page['tournament']['entries']}"


@pytest.mark.parametrize("size", list(SIZES))
def test_a_tournament_table_shows_its_clock_break_rebuy_pause_and_elimination(tournament_room, browser, size):
    url = tournament_room.url
    setup = Player(url, "pokerroom.v1.json")
    assert setup.request("register", nickname="tdir", password=PASSWORD, birth_date="1970-01-01", country="NL")["ok"]
    setup.close()
    grant(tournament_room, "tdir", "director")
    director = Player(url, "pokerroom.v1.json")
    assert director.request("login", nickname="tdir", password=PASSWORD)["ok"]
    created = director.request("director_create", template="daily", id="cup", name="Browser Cup", start_in=None,
                               settings={"guarantee": 0, "table_size": 4, "level_seconds": LEVEL_SECONDS,
                                         "break_after_level": 1, "break_seconds": BREAK_SECONDS, "rebuys": 1,
                                         "rebuy_levels": 3})
    assert created["ok"], created
    structure = director.request("tournament_details", tournament="cup")["structure"]
    first, second = structure["levels"][0], structure["levels"][1]

    context = browser.new_context(viewport=SIZES[size])
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    rivals = None
    try:
        page.goto(http_url(tournament_room))
        register(page, "Tina")
        page.get_by_test_id("register-cup").click()
        expect(page.get_by_test_id("balance")).to_have_text("$989.00")
        expect(page.get_by_test_id("unregister-cup")).to_be_visible()          # before the start: one may
        rivals = Rivals(url, ["Rival", "Rook"])
        rivals.start()
        assert director.request("director_start", tournament="cup")["ok"]
        page.get_by_test_id("nav-tournament-cup").click()
        view = page.get_by_test_id("tournament-view")
        expect(view.locator('.seat[data-player="Tina"]')).to_be_visible()

        # TR-PLAY-1: the level and its clock counting down, the blinds now and next, the field
        level = view.get_by_test_id("tournament-level")
        expect(level).to_have_text(re.compile(r"^Level1 · 0:[0-2]\d$"))
        shown = level.text_content()
        expect(level).not_to_have_text(shown)                                   # it counts down here
        expect(view.get_by_test_id("tournament-blinds")).to_have_text(
            f"Blinds{first['small_blind']}/{first['big_blind']}")
        expect(view.get_by_test_id("tournament-next")).to_have_text(
            f"Next{second['small_blind']}/{second['big_blind']}")
        expect(view.get_by_test_id("tournament-players")).to_have_text("Players3 / 3")
        bar = view.get_by_test_id("tournament-bar").bounding_box()        # the strip fits the screen's width
        assert bar["x"] >= 0 and bar["x"] + bar["width"] <= SIZES[size]["width"], bar
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        if size == "desktop" and os.environ.get("POKERROOM_SCREENSHOTS"):
            view.locator("[data-testid=act-fold]:visible").first.wait_for(timeout=20_000)
            folder = Path(os.environ["POKERROOM_SCREENSHOTS"])
            folder.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(folder / "tournament-table.png"))

        # Fold every hand until the break (a stack at or below the start: a rebuy will be allowed, TR-REG-6)
        state = view.get_by_test_id("tournament-state")
        deadline = time.monotonic() + LEVEL_SECONDS + 30
        while time.monotonic() < deadline and not state.is_visible():
            click_when_shown(view, "act-fold", 2)
        expect(state).to_have_text(re.compile(r"^On break: play resumes in [01]:\d\d$"))
        fold_until(view, re.compile(r"^On break: play resumes in"))       # the hand in play is played out
        expect(view.locator(ACTION_BUTTONS)).to_have_count(0)
        assert director.request("director_broadcast", tournament="cup", text="Ten minutes to the bubble")["ok"]
        expect(view.get_by_test_id("tournament-broadcast")).to_have_text(re.compile("tdir: Ten minutes to the bubble$"))

        # HR-CHAT: the table's chat panel (a tab below the table on a phone): a line typed here reaches the other
        # players seated at the table, and theirs shows here
        if size == "phone":
            view.get_by_test_id("side-tab-chat").click()
        view.get_by_test_id("chat-input").fill("good luck, all")
        view.get_by_test_id("chat-send").click()
        expect(view.get_by_test_id("chat-line").last).to_have_text(re.compile(r"Tina good luck, all$"))
        expect(view.get_by_test_id("chat-input")).to_have_value("")
        wait_until(lambda: len(rivals.heard) >= 2, 10)
        assert sorted(rivals.heard) == [("Rival", "Tina", "good luck, all"), ("Rook", "Tina", "good luck, all")]
        rivals.say(0, "thanks, you too")
        expect(view.get_by_test_id("chat-line").last).to_have_text(re.compile(r"Rival thanks, you too$"))
        assert all(answer["ok"] for answer in rivals.said), rivals.said
        line = view.get_by_test_id("chat-line").last.bounding_box()             # on the screen, not under it
        assert line["x"] >= 0 and line["x"] + line["width"] <= SIZES[size]["width"], line
        if os.environ.get("POKERROOM_SCREENSHOTS"):
            page.screenshot(path=str(Path(os.environ["POKERROOM_SCREENSHOTS"]) / f"tournament-chat-{size}.png"))

        # Leave and come back during the break: the table with its seats and stacks, the break, no controls
        page.reload()
        view = page.get_by_test_id("tournament-view")
        expect(view.get_by_test_id("tournament-state")).to_have_text(re.compile(r"^On break: play resumes in"))
        me = view.locator('.seat[data-player="Tina"]')
        expect(me).to_be_visible()
        expect(me.locator("[data-testid^=stack-]")).to_have_text(re.compile(r"^[\d,]+$"))
        expect(view.locator(".seat")).to_have_count(3)
        expect(view.get_by_test_id("turn")).to_have_text(re.compile(r"^On break: play resumes in"))
        expect(view.locator(ACTION_BUTTONS)).to_have_count(0)
        expect(page.get_by_test_id("nav-tournament-cup")).to_be_visible()         # the way back, at once
        page.get_by_test_id("nav-lobby").click()
        expect(page.get_by_test_id("open-tournament-cup")).to_be_visible()
        expect(page.get_by_test_id("unregister-cup")).to_have_count(0)
        starts = page.get_by_test_id("tournament-starts-cup")
        expect(starts).to_have_text(re.compile(r"^On break: play resumes in [01]:\d\d$"))
        shown = starts.text_content()
        expect(starts).not_to_have_text(shown)                                  # live, not the list's old figure
        page.get_by_test_id("details-cup").click()
        expect(page.get_by_test_id("tournament-details-cup").get_by_test_id("tournament-player")).to_have_count(3)
        page.get_by_test_id("open-tournament-cup").click()
        view = page.get_by_test_id("tournament-view")

        # TR-REG-6: the rebuy, paid from the wallet the answer tells
        view.get_by_test_id("tournament-rebuy").click()
        expect(view.get_by_test_id("controls-note")).to_have_text("Rebuy bought. Your wallet: $979.00.")
        expect(page.get_by_test_id("balance")).to_have_text("$979.00")
        expect(view.get_by_test_id("tournament-rebuy")).to_have_count(0)        # the one rebuy is used
        assert director.request("tournament_details", tournament="cup")["tournament"]["prize_pool"] == 4000

        # After the break, level 2; a pause holds the level clock and the turn line says so (TR-PLAY-1)
        expect(view.get_by_test_id("tournament-level")).to_have_text(re.compile(r"^Level2 · 0:[0-2]\d$"),
                                                                     timeout=BREAK_SECONDS * 1000 + 20_000)
        assert director.request("director_pause", tournament="cup", reason="a dispute")["ok"]
        expect(view.get_by_test_id("tournament-state")).to_have_text("Paused")
        fold_until(view, re.compile("^Paused by the tournament director: a dispute$"))
        held = director.request("tournament_details", tournament="cup")["tournament"]["clock_left"]
        expect(view.get_by_test_id("tournament-level")).to_have_text(f"Level2 · 0:{math.ceil(held):02d}")
        assert page.evaluate(STILL, "#tournament-view [data-testid=tournament-level]"), "the clock ran while paused"
        assert director.request("director_resume", tournament="cup")["ok"]
        expect(view.get_by_test_id("tournament-state")).to_have_count(0)

        # All-in until someone is eliminated: the players left follow the room's page
        deadline = time.monotonic() + 120
        out = view.get_by_test_id("seat-controls").get_by_text("You are out of this tournament.")
        while time.monotonic() < deadline and not rivals.out() and not out.is_visible():
            try:
                view.locator("[data-testid=act-call]:visible, [data-testid=act-check]:visible").first.wait_for(
                    timeout=2_000)
                shove(view)
            except PlaywrightTimeout:
                pass
        assert rivals.out() or out.is_visible(), "nobody was eliminated"
        if not rivals.out():                                                    # it was us (told to us alone)
            if view.get_by_test_id("tournament-re-enter").is_visible():       # late registration still open
                view.get_by_test_id("tournament-re-enter").click()
                expect(page.get_by_test_id("balance")).to_have_text("$968.00")
        expect(view.get_by_test_id("tournament-players")).to_have_text(f"Players{field_text(director)}")
        assert not errors, errors
    finally:
        if rivals is not None:
            rivals.close()
        director.close()
        context.close()
