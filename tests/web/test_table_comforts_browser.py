"""Pre-actions, hotkeys, sound, one's own hand in words and notes on players, in a real browser (issue 22, 4/5/8).

Heads-up against a Python rival whose every decision the test holds until the page has done what it checks: a
pre-action chosen while the rival thinks is sent, with the ``legal``'s decision id (BET-1: a guessed one would be
refused ``stale_decision``), the moment our turn comes, with no click; a "Check" chosen before the rival bets lapses
when the price changes; a hotkey acts, but letters typed in the chat box never do; a refusal names its amounts in
dollars; the hand-strength line names the hole cards; a note on the rival, the mute switch and the auto-muck switch
(SD-2: off, the page tells the room again for the seat after the reload) survive a reload.
At 390x844 every pre-action toggle lies on the screen, uncovered. Set ``POKERROOM_SCREENSHOTS`` to a directory to
keep the bar with a pre-action set (``desktop-pre-actions.png``, ``phone-pre-actions.png``).
"""

from __future__ import annotations

import queue
import re
import threading
import time

import pytest
from playwright.sync_api import expect

from tests.net.server_process import Player, Server, room_config
from tests.support.browser_pages import http_url, register, sit_down
from tests.support.finger import assert_reachable, screenshot, tap
from tests.support.socket_play import PASSWORD, next_push

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
ROOM = room_config(between_hands=0.5, decision=30, time_bank=0)
MY_TURN = "[data-testid=act-check]:visible, [data-testid=act-call]:visible"
RANKS = "23456789TJQKA"
NAMES = ["Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace"]
PLURAL = ["Twos", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens", "Jacks", "Queens", "Kings",
          "Aces"]

# Every line the table's screen-reader region announces, kept in the page (an assertion on the region's text alone
# races the next turn, whose announcement replaces it)
HEAR_ANNOUNCEMENTS = """() => {
  window.announced = [];
  const region = document.querySelector("[data-testid=table-view] [data-testid=announce]");
  new MutationObserver(() => window.announced.push(region.textContent))
    .observe(region, {childList: true, characterData: true, subtree: true});
}"""


@pytest.fixture
def heads_up(tmp_path):
    (tmp_path / "room.toml").write_text(ROOM)
    server = Server(tmp_path, "--max-rate", "500").start()
    yield server
    server.stop()


class Rival:
    """The other player, on his own connection: each decision of his waits for the test's answer."""

    def __init__(self, url: str) -> None:
        self.player = Player(url, "pokerroom.v1.json")
        assert self.player.request("register", nickname="Rival", password=PASSWORD, birth_date="1980-01-01",
                                   country="DE")["ok"]
        assert self.player.request("login", nickname="Rival", password=PASSWORD)["ok"]
        assert self.player.request("observe", table="t1", on=True)["ok"]
        assert self.player.request("join", table="t1", buy_in=1_000)["ok"]    # then only his thread reads
        self.turns: queue.Queue[dict] = queue.Queue()          # his legal, each time his turn comes
        self.answers: queue.Queue[tuple[str, int | None]] = queue.Queue()
        self.events: list[dict] = []                           # the table's hand events, as he heard them
        self.heard = threading.Condition()
        self.decided: set[str] = set()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stopping.is_set():
            try:
                push = next_push(self.player, 0.3)
            except TimeoutError:
                continue
            except Exception:                                  # the connection closed: the test is over
                return
            event = push.get("event") if push.get("type") == "table_event" else None
            if event and event["type"] == "hand_event":
                with self.heard:
                    self.events.append(event["event"])
                    self.heard.notify_all()
            legal = push.get("legal")                          # only ever his own, with his decision_started
            if legal and legal["decision"] not in self.decided:
                self.decided.add(legal["decision"])
                self.turns.put(legal)
                while not self.stopping.is_set():
                    try:
                        action, to = self.answers.get(timeout=0.3)
                    except queue.Empty:
                        continue
                    fields = {"to": to} if to is not None else {}
                    answer = self.player.request("act", table="t1", action=action, decision=legal["decision"],
                                                 **fields)
                    assert answer["ok"], answer
                    break

    def first_on_street(self, seat: int) -> bool:
        """Whether ``seat`` has not acted yet on this street (so the rival's move cannot end it before us)."""
        with self.heard:
            for e in reversed(self.events):
                if e["type"] in ("hand_started", "board_dealt"):
                    return True
                if e["type"] == "action_taken" and e["seat"] == seat:
                    return False
        return True

    def answer(self, action: str, to: int | None = None) -> None:
        self.answers.put((action, to))

    def acted(self, seat: int, since: int, timeout: float = 10) -> dict:
        """The first action of ``seat`` in the events heard after the first ``since`` of them."""
        with self.heard:
            found = self.heard.wait_for(lambda: any(e["type"] == "action_taken" and e["seat"] == seat
                                                    for e in self.events[since:]), timeout)
            assert found, f"seat {seat} never acted"
            return next(e for e in self.events[since:] if e["type"] == "action_taken" and e["seat"] == seat)

    def close(self) -> None:
        self.stopping.set()
        self.thread.join(5)
        self.player.close()


def expected_preflop(cards: list[str]) -> str:
    """Two hole cards in words, as a player says them before the flop."""
    ranks = sorted((RANKS.index(c[0]) for c in cards), reverse=True)
    return f"Pair of {PLURAL[ranks[0]]}" if ranks[0] == ranks[1] else f"{NAMES[ranks[0]]} high"


@pytest.mark.parametrize("size", list(SIZES))
def test_pre_actions_hotkeys_sound_hand_strength_and_notes(size, heads_up, new_page):
    """Issue 22 items 4, 5 and 8 at the table, played through the page (BET-1: decisions by their ids)."""
    page = new_page()
    page.set_viewport_size(SIZES[size])
    page.goto(http_url(heads_up))
    name = f"Pre_{size}"
    register(page, name)
    expect(page.get_by_test_id("table-row-t1")).to_be_visible()
    sit_down(page, "t1", "10.00")
    table = page.get_by_test_id("table-view")
    me = table.locator(f'.seat[data-player="{name}"]')
    expect(me).to_be_visible()
    seat = int(me.get_attribute("data-testid").removeprefix("seat-"))
    mute = table.get_by_test_id("mute")
    expect(mute).to_have_attribute("aria-pressed", "false")

    rival = Rival(heads_up.url)
    try:
        hotkey = pre_acted = lapsed = strength = refused = False
        deadline = time.monotonic() + 150
        while not (hotkey and pre_acted and lapsed and strength):
            assert time.monotonic() < deadline, f"hotkey {hotkey}, pre {pre_acted}, lapse {lapsed}, words {strength}"
            try:
                legal = rival.turns.get(timeout=0.2)
            except queue.Empty:
                legal = None
            if legal is None:
                if not table.locator(MY_TURN).count():
                    continue
                # our turn: the hand in words (before the flop: the two hole cards), then the keys
                seen = table.evaluate("""(t) => ({
                    cards: [...t.querySelectorAll('.seat.me [data-testid^=hole-] .card')].map((c) => c.dataset.card),
                    board: t.querySelectorAll('[data-testid=board] .card:not(.slot)').length,
                    text: t.querySelector('[data-testid=hand-strength]').textContent })""")
                if seen["board"] == 0 and len(seen["cards"]) == 2 and all(seen["cards"]):
                    assert seen["text"] == expected_preflop(seen["cards"]), seen
                    strength = True
                elif seen["board"] >= 3:
                    assert re.search(r"high|Pair of|Two pair|Three of a kind|Straight|Flush|Full house|Four of",
                                     seen["text"]), seen
                expect(table.get_by_test_id("announce")).to_contain_text("Your turn")
                expect(mute).to_have_attribute("data-last-sound", "turn")
                since = len(rival.events)
                if not hotkey:
                    if not refused and table.get_by_test_id("raise-amount").is_visible():
                        # a raise under the minimum: the server's sentence in the table's dollars
                        table.get_by_test_id("raise-amount").fill("0.01")
                        table.get_by_test_id("raise-amount").press("Enter")
                        expect(table.get_by_test_id("action-error")).to_contain_text(re.compile(r"\$0\.01.*BET-3"))
                        refused = True
                    # letters typed in the chat box are words, not actions
                    if size == "phone":
                        table.get_by_test_id("side-tab-chat").click()
                    chat = table.get_by_test_id("chat-input")
                    chat.focus()
                    page.keyboard.type("fk?")
                    expect(chat).to_have_value("fk?")
                    expect(table.get_by_test_id("hotkeys-help")).to_be_hidden()
                    expect(table.locator(MY_TURN).first).to_be_visible()
                    page.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
                    page.keyboard.press("?")                    # the keys, listed on the page
                    expect(table.get_by_test_id("hotkeys-help")).to_contain_text("Check or call")
                    expect(table.get_by_test_id("hotkeys-toggle")).to_have_attribute("aria-expanded", "true")
                    page.keyboard.press("?")
                    expect(table.get_by_test_id("hotkeys-help")).to_be_hidden()
                    page.keyboard.press("c")
                    action = rival.acted(seat, since)
                    assert action["action"] in ("check", "call") and not action.get("timed_out"), action
                    hotkey = True
                else:
                    tap(page, table.locator(MY_TURN).first, "Check or Call")
                    rival.acted(seat, since)
                continue

            # the rival thinks: our toggles are on offer, on the screen and uncovered
            toggles = table.get_by_test_id("pre-actions")
            if size == "phone":
                page.evaluate("window.scrollTo(0, 0)")
            try:
                expect(toggles).to_be_visible(timeout=3_000)
            except AssertionError:
                rival.answer("check" if legal["can_check"] else "call")      # we are not in this hand
                continue
            for kind in ("check_fold", "call", "call_any", "fold_any"):
                assert_reachable(table.get_by_test_id(f"pre-{kind}"), f"the pre-action {kind}")
            since = len(rival.events)
            if not rival.first_on_street(seat):
                rival.answer("check" if legal["can_check"] else "call")      # his move may end the street
            elif not pre_acted:
                page.evaluate(HEAR_ANNOUNCEMENTS)       # every announcement kept: the next turn may replace this one
                tap(page, table.get_by_test_id("pre-call_any"), "Call any")
                expect(table.get_by_test_id("pre-call_any")).to_have_attribute("aria-pressed", "true")
                screenshot(page, f"{size}-pre-actions.png")
                rival.answer("check" if legal["can_check"] else "call")
                action = rival.acted(seat, since)              # sent on its own when our turn came
                assert action["action"] in ("check", "call") and not action.get("timed_out"), action
                page.wait_for_function("() => window.announced.some(line => line.includes('pre-action'))")
                expect(table.get_by_test_id("action-error")).to_be_hidden()
                pre_acted = True
            elif not lapsed and legal["can_check"] and (legal["can_bet"] or legal["can_raise"]):
                check = table.get_by_test_id("pre-call")
                expect(check).to_have_text("Check")
                tap(page, check, "Check (call X at no price)")
                expect(check).to_have_attribute("aria-pressed", "true")
                rival.answer("bet" if legal["can_bet"] else "raise", legal["min_to"])   # the price changes
                expect(table.get_by_test_id("act-call")).to_be_visible()
                expect(table.get_by_test_id("announce")).to_contain_text("Your turn: fold, call")
                assert not any(e["type"] == "action_taken" and e["seat"] == seat for e in rival.events[since:])
                expect(check).to_be_hidden()                    # no toggles on our own turn; the choice is gone
                lapsed = True
            else:
                rival.answer("check" if legal["can_check"] else "call")
        expect(mute).to_have_attribute("data-last-sound", re.compile("turn|bet|win"))
        assert int(mute.get_attribute("data-played")) >= 1            # WebAudio really played them

        # a note on the rival and the mute switch, both kept over a reload
        page.evaluate("window.scrollTo(0, 0)")
        theirs = table.locator('.seat[data-player="Rival"]')
        note = theirs.locator("[data-testid^=note-]")
        expect(note).to_have_attribute("aria-label", "Add a note on Rival")
        tap(page, note, "the note button on the rival's seat")
        expect(table.get_by_test_id("note-text")).to_be_focused()
        page.keyboard.type("calls light, folds to 3-bets")
        tap(page, table.get_by_test_id("note-save"), "Save note")
        expect(table.get_by_test_id("note-editor")).to_be_hidden()
        tap(page, mute, "Mute")
        expect(mute).to_have_attribute("aria-pressed", "true")
        muck = table.get_by_test_id("auto-muck")
        expect(muck).to_have_attribute("aria-pressed", "true")           # on by default: losing hands mucked
        tap(page, muck, "Auto-muck")
        expect(muck).to_have_attribute("aria-pressed", "false")
        expect(muck).to_have_text("Auto-muck off")
        told: list[str] = []                                    # what the reloaded page sends the room
        page.on("websocket", lambda ws: ws.on("framesent", lambda frame: told.append(str(frame))))
        page.reload()
        expect(page.get_by_test_id("whoami")).to_have_text(name)
        expect(theirs).to_be_visible()
        expect(note).to_have_attribute("aria-label", "Note on Rival: calls light, folds to 3-bets")
        expect(mute).to_have_attribute("aria-pressed", "true")
        expect(muck).to_have_attribute("aria-pressed", "false")
        deadline = time.monotonic() + 10
        while not any('"auto_muck": false' in f or '"auto_muck":false' in f for f in told):
            assert time.monotonic() < deadline, f"the seat was never told auto-muck is off: {told}"
            page.wait_for_timeout(100)
        note.click()
        expect(table.get_by_test_id("note-text")).to_have_value("calls light, folds to 3-bets")
        table.get_by_test_id("note-cancel").click()
        page.keyboard.press("m")                                # the hotkey for the switch
        expect(mute).to_have_attribute("aria-pressed", "false")
        page.keyboard.press("m")
        expect(mute).to_have_attribute("aria-pressed", "true")

        # muted, our next turn is still announced (the switch's own "Sounds off." replaced), and nothing is played
        if table.locator(MY_TURN).count():                      # a turn met before the switch: answered first
            since = len(rival.events)
            tap(page, table.locator(MY_TURN).first, "Check or Call")
            rival.acted(seat, since)
        announce = table.get_by_test_id("announce")
        deadline = time.monotonic() + 60
        while "Your turn" not in announce.text_content():
            assert time.monotonic() < deadline, "our turn never came back"
            try:
                legal = rival.turns.get(timeout=0.2)
            except queue.Empty:
                continue
            rival.answer("check" if legal["can_check"] else "call")
        expect(table.get_by_test_id("announce")).to_contain_text("Your turn")
        expect(mute).to_have_attribute("data-last-sound", "turn")
        expect(mute).to_have_attribute("data-played", "0")
    finally:
        rival.close()


# Hole cards, board, and the words the page must show for them (Hold'em: the best five of all; Omaha: two hole
# cards and three from the board, so four hearts in the hand and one on the board is no flush).
HANDS = [
    ("As Ah", "", "Pair of Aces"),
    ("Ks 7d", "", "King high"),
    ("Ks 7d", "2c 9h Jd", "King high"),
    ("Ks 7d", "Kh 9h Jd", "Pair of Kings"),
    ("Ks 7d", "Kh 7h Jd", "Two pair, Kings and Sevens"),
    ("7s 7d", "7h 2c Jd", "Three of a kind, Sevens"),
    ("As 2d", "3h 4c 5d", "Straight, Five high"),
    ("Ts Jd", "Qh Kc Ad 2c", "Straight, Ace high"),
    ("2h 9h", "Kh 4h Jh", "Flush, King high"),
    ("7s 7d", "7h Jc Jd", "Full house, Sevens full of Jacks"),
    ("7s 7d", "7h 7c Jd", "Four of a kind, Sevens"),
    ("9h Th", "Jh Qh Kh", "Straight flush, King high"),
    ("Ah Kh", "Qh Jh Th 2c 3d", "Royal flush"),
    ("Ah 2h", "Kh 7h 9d", "Ace high \u00b7 Flush draw"),
    ("Ah 2h", "Kh 7h 9d 3c 4s", "Ace high"),                          # the river dealt: no draw left
    ("Ah Kh Qh Jh", "2h 5c 8d", "Ace high"),                          # Omaha: one heart on the board
    ("Ah Kh Qc Jc", "2h 5h 8d", "Ace high \u00b7 Flush draw"),
    ("Ah Kh Qc Jc", "2h 5h 8h", "Flush, Ace high"),
    ("As Ad Kc Qc", "2h 5h 8d", "Pair of Aces"),
    ("Js 3d 4c 2d", "Ah Kh Qh Tc", "Ace high"),                       # Omaha: no straight from one hole card
    ("2s 3d 9c 9d", "Ah Kh Qh", "Pair of Nines"),
]


def test_the_hand_in_words_names_each_category(web_server, new_page):
    """The hand-strength line's evaluator (``hand-strength.js``), run in the browser on hands of each category:
    the made hand as a player says it, and a flush draw while cards are to come."""
    page = new_page()
    page.goto(http_url(web_server))
    said = page.evaluate("""async (hands) => {
        const { handStrength } = await import("/static/player/hand-strength.js");
        const card = (t) => "23456789TJQKA".indexOf(t[0]) * 4 + "cdhs".indexOf(t[1]);
        const cards = (text) => (text ? text.split(" ").map(card) : []);
        return hands.map(([hole, board]) => handStrength(cards(hole), cards(board)));
    }""", [[hole, board] for hole, board, _ in HANDS])
    assert said == [words for _, _, words in HANDS]
