"""The live casino played from the player client in a real browser (issue 22 item 3; RULES.md CR, RO).

A person registers through the page, opens a casino table from the lobby's Play button, bets with the page's chips
on the drawn board, and the round is dealt by the test moving the casino's clock (``tests/net/casino_run.py``: the
room's sockets are real, only the casino's time is the test's, so nothing here waits on a betting timer). After
the round the wallet the page shows must be the wallet before, minus the stakes, plus what the round paid back --
the stakes and payouts as the page shows them and as the room's ledger says at a fresh log-in -- and each payout
must be what the rules pay for the result the page shows. Every control a person needs is tapped where it is
drawn, at its middle, on a 390x844 phone (nothing over it, nothing off-screen) and on a desktop.

Set ``POKERROOM_SCREENSHOTS`` to a directory to keep each game's picture (``casino-<game>.png``); the pictures in
docs/img are copied from such a run.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.net.server_process import Player
from tests.support.accessible import assert_accessible
from tests.support.browser_pages import BLOCKED, register
from tests.support.casino_process import BAC, BETTING, BJ, BOB, DECISION, IB, PASSWORD, RED, RO, CasinoRoom

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 860}


@pytest.fixture(scope="module")
def casino_floor(tmp_path_factory):
    room = CasinoRoom(tmp_path_factory.mktemp("casino-web"), RO, BJ, BAC, BOB, IB)
    yield room
    room.stop()
    room.assert_clean()


@pytest.fixture
def person(browser):
    """``person(size)``: a page in a browser context of its own at that viewport; JavaScript errors fail the test."""
    contexts, errors = [], []

    def make(size: dict) -> Page:
        context = browser.new_context(viewport=size)
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
        page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, errors


def cents(text: str) -> int:
    """``$1,234.50`` as 123450."""
    whole, _, part = re.sub(r"[^\d.]", "", text).partition(".")
    return int(whole) * 100 + int((part + "00")[:2])


def tap(page: Page, testid: str) -> None:
    """A tap at the control's middle where it is drawn, scrolled to the screen's middle (under the sticky header
    otherwise): it must be the one there."""
    el = page.get_by_test_id(testid)
    el.evaluate("(e) => e.scrollIntoView({block: 'center', inline: 'center'})")
    where = el.evaluate(BLOCKED)
    assert where["problem"] == "", (testid, where)
    page.mouse.click(where["x"], where["y"])


def at_the_table(room: CasinoRoom, page: Page, name: str, table: str) -> int:
    """Registered through the page, the table opened from the lobby's Play button; its wallet before betting."""
    page.goto(room.url.replace("ws://", "http://", 1).removesuffix("/ws") + "/")
    register(page, name)
    expect(page.get_by_test_id("lobby-view")).to_be_visible()
    expect(page.get_by_test_id(f"casino-row-{table}")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")  # no sideways
    tap(page, f"casino-play-{table}")
    expect(page.get_by_test_id("casino-title")).to_be_visible()
    expect(page.get_by_test_id("balance")).to_have_text(re.compile(r"\$"))
    return cents(page.get_by_test_id("balance").inner_text())


def betting_open(room: CasinoRoom, page: Page) -> None:
    """The casino's clock moved on, a second at a time, until the page shows a round taking bets."""
    phase = page.get_by_test_id("casino-phase")
    for _ in range(30):
        if phase.inner_text() == "Place your bets":
            return
        room.advance(1)
        try:
            expect(phase).to_have_text("Place your bets", timeout=2_000)   # that second's pushes reached the page
            return
        except AssertionError:
            continue
    raise AssertionError(f"no round opened: {phase.inner_text()}")


def shot(page: Page, game: str) -> None:
    folder = os.environ.get("POKERROOM_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.evaluate("window.scrollTo(0, 0)")                           # the sticky header where it belongs
        page.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished)).then(() => true)")  # dealt
        page.screenshot(path=str(Path(folder) / f"casino-{game}.png"), full_page=True)


def wallet_after(room: CasinoRoom, page: Page, name: str, before: int, leave: bool = False) -> None:
    """The page's wallet is before - staked + paid back, and the room's ledger says the same at a fresh log-in
    (which ends the page's session: the account is used elsewhere). ``leave``: the table is left first. The board,
    its cards and its chips as dealt are the page's words too: every control named and in the tab order."""
    assert_accessible(page.get_by_test_id("casino-view"), "the casino table after a round")
    staked = cents(page.get_by_test_id("casino-staked").inner_text())
    returned = cents(page.get_by_test_id("casino-returned").inner_text())
    assert staked > 0
    want = before - staked + returned
    expect(page.get_by_test_id("balance")).to_have_text(re.compile(re.escape(f"{want // 100:,}.{want % 100:02d}")))
    if leave:
        tap(page, "casino-leave")                                            # nothing in play: back to the lobby
        expect(page.get_by_test_id("lobby-view")).to_be_visible()
        expect(page.get_by_test_id("balance")).to_contain_text(f"{want // 100:,}.{want % 100:02d}")
    ledger = Player(room.url)
    login = ledger.request("login", nickname=name, password=PASSWORD)
    ledger.close()
    assert login["ok"] and login["balance"] == want, login


# What each bet the test places covers and pays to one (RO-2, RO-3): the market as the page shows it.
ROULETTE_BETS = {
    "straight:17": ({17}, 35), "split:17-20": ({17, 20}, 17), "street:16-17-18": ({16, 17, 18}, 11),
    "corner:17-18-20-21": ({17, 18, 20, 21}, 8), "line:13-14-15-16-17-18": (set(range(13, 19)), 5),
    "four": ({0, 1, 2, 3}, 8), "red": (RED, 1), "dozen:2": (set(range(13, 25)), 2),
    "column:1": (set(range(1, 35, 3)), 2), "even": (set(range(2, 37, 2)), 1), "high": (set(range(19, 37)), 1),
}


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_RO_2_RO_3_RO_5_CR_4_a_round_of_roulette_played_from_the_page_pays_what_the_layout_says(casino_floor,
                                                                                                 person, size):
    page = person(PHONE if size == "phone" else DESKTOP)
    name = f"rou{size[:5]}"
    before = at_the_table(casino_floor, page, name, RO)
    betting_open(casino_floor, page)
    tap(page, "chip-500")                                                    # $5 a chip
    taps = [["spot-17"], ["kind-split", "spot-17", "spot-20"], ["kind-street", "spot-16"],
            ["kind-corner", "spot-17"], ["kind-line", "spot-13"], ["spot-four"], ["spot-red"], ["spot-dozen-2"],
            ["spot-column-1"], ["spot-even"], ["spot-high"]]
    for market, testids in zip(ROULETTE_BETS, taps, strict=True):
        for testid in testids:
            tap(page, testid)
        expect(page.get_by_test_id(f"casino-bet-{market}")).to_contain_text("$5.00")
    staked = 500 * len(ROULETTE_BETS)
    expect(page.get_by_test_id("casino-staked")).to_have_text(f"${staked // 100}.00")
    expect(page.get_by_test_id("balance")).to_have_text(f"${(before - staked) // 100:,}.00")
    casino_floor.advance(BETTING)                                            # no more bets: the ball is spun
    result = page.get_by_test_id("casino-result")
    expect(result).to_have_text(re.compile(r"^\d+ (red|black|green)$"))
    pocket = int(result.inner_text().split()[0])
    expect(page.get_by_test_id("roulette-pocket")).to_contain_text(str(pocket))
    want = sum(500 * (pays + 1) for numbers, pays in ROULETTE_BETS.values() if pocket in numbers)
    expect(page.get_by_test_id("casino-returned")).to_have_text(f"${want // 100:,}.{want % 100:02d}")
    expect(page.get_by_test_id("casino-results")).to_contain_text(result.inner_text())
    if size == "desktop":
        shot(page, "roulette")
    wallet_after(casino_floor, page, name, before, leave=True)


def play_out(room: CasinoRoom, page: Page, moves: list[str]) -> None:
    """Answer every decision the page asks for until the round settles: insurance declined, then the first of
    ``moves`` the page offers (a hit once, then stand); the dealer's hand is played by the room."""
    result, decision = page.get_by_test_id("casino-result"), page.get_by_test_id("casino-decision")
    hits = 0
    for _ in range(20):
        try:
            expect(result.or_(decision).first).to_be_visible(timeout=3_000)
        except AssertionError:
            room.advance(DECISION)              # infinite blackjack: the others' clock runs out (IB-11)
            continue
        if result.is_visible():
            return
        offered = [m for m in ("no_insurance", *moves) if page.get_by_test_id(f"casino-move-{m}").is_visible()]
        move = next(m for m in offered if m != "hit" or hits == 0)
        hits += move == "hit"
        asked = decision.get_attribute("data-decision")
        tap(page, f"casino-move-{move}")
        expect(page.locator(f'[data-testid=casino-decision][data-decision="{asked}"]')).to_have_count(0)
    raise AssertionError("the round did not settle")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_BJ_3_BJ_4_CR_4_a_round_of_blackjack_played_from_a_seat_on_the_page(casino_floor, person, size):
    page = person(PHONE if size == "phone" else DESKTOP)
    name = f"bj{size[:5]}"
    before = at_the_table(casino_floor, page, name, BJ)
    seat = 1 if size == "phone" else 2
    tap(page, f"sit-{seat}")                                                 # BJ-3: a seat of seven
    expect(page.get_by_test_id(f"bj-seat-{seat}")).to_contain_text(name)
    betting_open(casino_floor, page)
    tap(page, "chip-2500")
    tap(page, "spot-main")
    expect(page.get_by_test_id("casino-bet-main")).to_contain_text("$25.00")
    expect(page.get_by_test_id("balance")).to_have_text(re.compile(re.escape(f"{(before - 2500) // 100:,}.00")))
    casino_floor.advance(BETTING)                                            # the deal: two cards each, dealer's up
    expect(page.get_by_test_id(f"bj-hand-{seat}-0").locator(".card")).to_have_count(2)
    play_out(casino_floor, page, ["hit", "stand"])
    expect(page.get_by_test_id("casino-result")).to_have_text(re.compile(r"^dealer"))
    dealer = page.get_by_test_id("dealer-hand").locator(".card")
    assert dealer.count() >= 2
    shot(page, "blackjack" if size == "desktop" else "blackjack-phone")
    wallet_after(casino_floor, page, name, before, leave=True)


def winner_of(result: str) -> str:
    return "tie" if result.startswith("tie") else result.split()[0]


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_BA_5_CR_4_a_coup_of_baccarat_played_from_the_page_pays_each_bet_by_the_winner(casino_floor, person, size):
    page = person(PHONE if size == "phone" else DESKTOP)
    name = f"bac{size[:5]}"
    before = at_the_table(casino_floor, page, name, BAC)
    betting_open(casino_floor, page)
    tap(page, "chip-500")
    for market in ("player", "banker", "tie"):
        tap(page, f"spot-{market}")
        expect(page.get_by_test_id(f"casino-bet-{market}")).to_contain_text("$5.00")
    casino_floor.advance(BETTING)                                            # the coup, card by card
    result = page.get_by_test_id("casino-result")
    expect(result).to_have_text(re.compile(r"^(player|banker|tie)"))
    for side in ("player", "banker"):
        assert 2 <= page.get_by_test_id(f"{side}-hand").locator(".card").count() <= 3
    winner = winner_of(result.inner_text())
    want = {"player": 1_000, "banker": 500 + 475, "tie": 500 + 500 + 4_500}[winner]      # BA-5: banker pays 0.95
    expect(page.get_by_test_id("casino-returned")).to_have_text(f"${want // 100:,}.{want % 100:02d}")
    if size == "desktop":
        shot(page, "baccarat")
    wallet_after(casino_floor, page, name, before)


def odds_on(page: Page, market: str) -> int:
    """The decimal odds a spot shows, in hundredths."""
    text = page.get_by_test_id(f"spot-{market}").locator("small").inner_text()
    return round(float(text) * 100)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_BOB_2_BOB_3_bets_in_two_windows_from_the_page_keep_the_odds_they_were_taken_at(casino_floor, person, size):
    page = person(PHONE if size == "phone" else DESKTOP)
    name = f"bob{size[:5]}"
    before = at_the_table(casino_floor, page, name, BOB)
    window = page.get_by_test_id("bob-window")
    for _ in range(30):                                                      # a draw's first betting round
        if "Betting round 1 " in window.inner_text():
            break
        casino_floor.advance(1)
        try:
            expect(window).to_contain_text("Betting round 1 ", timeout=2_000)
        except AssertionError:
            continue
    expect(window).to_contain_text("Betting round 1 ")
    tap(page, "chip-500")
    taken = [("player", 500, odds_on(page, "player"))]
    tap(page, "spot-player")
    expect(page.get_by_test_id(f"casino-bet-player-at-{taken[0][2]}")).to_contain_text("$5.00")
    casino_floor.advance(BETTING)                                            # the player's first card
    expect(window).to_contain_text("Betting round 2 ")
    expect(page.get_by_test_id("player-hand").locator(".card")).to_have_count(1)
    if not page.get_by_test_id("spot-banker").is_disabled():
        taken.append(("banker", 500, odds_on(page, "banker")))              # re-priced (BOB-2)
        taken.append(("player", 500, odds_on(page, "player")))              # a second bet of its own
        tap(page, "spot-player")
        tap(page, "spot-banker")
        for market, _, odds in taken:                                       # two at the same odds: one line
            on = sum(stake for m, stake, o in taken if (m, o) == (market, odds))
            expect(page.get_by_test_id(f"casino-bet-{market}-at-{odds}")).to_contain_text(f"${on // 100}.00")
    casino_floor.advance(BETTING)                                            # the banker's first card
    expect(window).to_contain_text("Betting round 3 ")
    expect(page.get_by_test_id("banker-hand").locator(".card")).to_have_count(1)
    casino_floor.advance(BETTING)                                            # the rest of the coup
    result = page.get_by_test_id("casino-result")
    expect(result).to_have_text(re.compile(r"^(player|banker|tie)"))
    winner = winner_of(result.inner_text())
    want = sum(stake if winner == "tie" else stake * odds // 100 if winner == market else 0
               for market, stake, odds in taken)                              # BOB-3: a tie returns both
    expect(page.get_by_test_id("casino-returned")).to_have_text(f"${want // 100:,}.{want % 100:02d}")
    if size == "desktop":
        shot(page, "bet-on-baccarat")
    wallet_after(casino_floor, page, name, before)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_IB_1_IB_4_a_round_of_infinite_blackjack_with_a_side_bet_played_from_the_page(casino_floor, person, size):
    page = person(PHONE if size == "phone" else DESKTOP)
    name = f"ib{size[:5]}"
    before = at_the_table(casino_floor, page, name, IB)
    betting_open(casino_floor, page)
    tap(page, "chip-500")
    tap(page, "spot-main")
    expect(page.get_by_test_id("casino-bet-main")).to_contain_text("$5.00")
    if not page.get_by_test_id("spot-pairs").is_disabled():                 # IB-10: open until its round limit
        tap(page, "chip-100")
        tap(page, "spot-pairs")
        expect(page.get_by_test_id("casino-bet-pairs")).to_contain_text("$1.00")
    casino_floor.advance(BETTING)                                            # the one shared deal (IB-1)
    expect(page.get_by_test_id("shared-hand").locator(".card")).to_have_count(2)
    play_out(casino_floor, page, ["hit", "stand"])
    expect(page.get_by_test_id("casino-result")).to_have_text(re.compile(r"^dealer"))
    if size == "desktop":
        shot(page, "infinite-blackjack")
    wallet_after(casino_floor, page, name, before)
