"""The player's client at ``/`` in a real browser (Debian's Chromium, driven by Playwright).

A person registers and logs in through the page, never through Python; sits down at the table where the demo
bots play, plays hands to a showdown, and reads the result. What the page shows is checked against what the
server really sent, read by an independent observer connection (the ``websockets`` library). The hand
history is filtered, a hand replayed step by step on its drawn table and exported as PokerStars text, at a
desktop's size and a phone's. Set ``POKERROOM_SCREENSHOTS`` to a directory to keep a picture of the table
mid-hand (``player-table.png``) and of the replay (``hand-replay.png``, ``hand-replay-phone.png``).
"""

from __future__ import annotations

import os
import re
import threading
import time
from decimal import Decimal
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.net.server_process import FAST_ROOM, Player, Server, room_config, table_entry
from tests.support.browser_pages import grant, http_url, register, sit_down
from tests.support.socket_play import PASSWORD, next_push

RANKS, SUITS = "23456789TJQKA", "cdhs"
# Two cash tables, so the lobby's filters have something to tell apart; the bots sit at the first.
BOT_ROOM = room_config(table_entry("t1", "Aldebaran"),
                       table_entry("t2", "Capella", "PLO", 10, 20, 800, 2000, seats=9),
                       between_hands=1.5, decision=10, time_bank=5)
# Heads-up against a Python player, with short clocks: the decision time runs out, then the time bank.
CLOCK_ROOM = room_config(between_hands=0.5, decision=4, time_bank=3)
# A tournament hall whose tables deal at once and give a person time to click.
TOURNAMENT_ROOM = FAST_ROOM + """
[tournaments]
decision_seconds = 15
between_hands_seconds = 0.5
clock_scale = 1
"""


def start_server(tmp_path: Path, config: str, *extra: str) -> Server:
    (tmp_path / "room.toml").write_text(config)
    return Server(tmp_path, "--max-rate", "500", *extra).start()      # it keeps reading what the demo narrates


@pytest.fixture
def bot_room(tmp_path):
    """The room with three demo bots playing at ``t1``."""
    server = start_server(tmp_path, BOT_ROOM, "--bots", "3")
    yield server
    server.stop()


@pytest.fixture
def clock_room(tmp_path):
    server = start_server(tmp_path, CLOCK_ROOM)
    yield server
    server.stop()


@pytest.fixture
def tournament_room(tmp_path):
    server = start_server(tmp_path, TOURNAMENT_ROOM)
    yield server
    server.stop()


class Observer:
    """Watches a table on its own connection and keeps what the server sent, as an independent witness."""

    def __init__(self, url: str, table: str) -> None:
        self.player = Player(url, "pokerroom.v1.json")
        assert self.player.request("observe", table=table, on=True)["ok"]
        self.events: list[dict] = []            # table events in order (hand events carry hand_id)
        self.changed = threading.Condition()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stopping.is_set():
            try:
                message = self.player.receive(timeout=0.3)
            except TimeoutError:
                continue
            except Exception:                   # the connection closed: the test is over
                return
            if message.get("type") == "table_event":
                with self.changed:
                    self.events.append(message["event"])
                    self.changed.notify_all()

    def wait_for(self, predicate, timeout: float = 20) -> list[dict]:
        with self.changed:
            assert self.changed.wait_for(lambda: predicate(self.events), timeout), "the server never sent it"
            return list(self.events)

    def hand(self, hand_id: str, timeout: float = 20) -> list[dict]:
        """The hand's engine events, once it has ended."""
        events = self.wait_for(lambda es: any(e["type"] == "hand_event" and e["hand_id"] == hand_id
                                              and e["event"]["type"] == "hand_ended" for e in es), timeout)
        return [e["event"] for e in events if e["type"] == "hand_event" and e["hand_id"] == hand_id]

    def close(self) -> None:
        self.stopping.set()
        self.thread.join(5)
        self.player.close()


def pushes_until(player: Player, stopping: threading.Event):             # noqa: ANN201
    """Every push ``player`` gets until ``stopping`` is set (or the connection ends), for a rival's thread."""
    while not stopping.is_set():
        try:
            yield next_push(player, 0.3)
        except TimeoutError:
            continue
        except Exception:
            return


def card_text(card: int) -> str:
    return RANKS[card >> 2] + SUITS[card & 3]


def dollars(cents: int) -> str:
    return f"${cents // 100:,}.{cents % 100:02d}"


def log_in(page, nickname: str, password: str) -> None:
    page.get_by_test_id("login-nickname").fill(nickname)
    page.get_by_test_id("login-password").fill(password)
    page.get_by_test_id("login-submit").click()


def screenshot(page) -> bool:
    folder = os.environ.get("POKERROOM_SCREENSHOTS")
    if not folder:
        return False
    Path(folder).mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(Path(folder) / "player-table.png"))
    return True


SHOWDOWN_WITH_ME = "[data-testid=last-result][data-showdown=true][data-dealt-me=true]"
MY_TURN = "[data-testid=act-check]:visible, [data-testid=act-call]:visible"


def play_until_showdown(page, view, seconds: float = 50) -> bool:
    """Check or call whenever it is our turn in ``view`` (a table's view), until a hand we were dealt into ends
    with hands shown.

    Returns whether a screenshot of the table was taken mid-hand (our turn, the flop out, our cards up).
    """
    shot = False
    deadline = time.monotonic() + seconds
    either = view.locator(f"{MY_TURN}, {SHOWDOWN_WITH_ME}").first
    while time.monotonic() < deadline:
        try:
            either.wait_for(timeout=5_000)
        except PlaywrightTimeout:
            continue
        if view.locator(SHOWDOWN_WITH_ME).count():
            return shot
        turn = view.locator(MY_TURN).first
        if not shot and view.locator("[data-testid=board] .card:not(.slot)").count() >= 3:
            expect(view.locator(".seat.me [data-testid^=hole-] .card:not(.back)")).to_have_count(2)
            shot = screenshot(page)
        try:
            turn.click(timeout=2_000)
            view.locator(MY_TURN).first.wait_for(state="hidden", timeout=5_000)
        except PlaywrightTimeout:
            pass                                        # the turn passed meanwhile (or came round again)
    raise AssertionError("no hand reached a showdown in time")


def test_registration_and_login_refusals_show_the_servers_sentence_and_rule(web_server, new_page):
    """AC-1 (adults only) and a wrong password: the page shows the server's own sentence, never a silent failure."""
    page = new_page()
    page.goto(http_url(web_server))
    register(page, "Young_one", birth_date="2015-06-01")
    expect(page.get_by_test_id("register-error")).to_have_text("you must be at least 18 to play here (AC-1)")
    expect(page.get_by_test_id("auth-view")).to_be_visible()

    register(page, "Grown_up")
    expect(page.get_by_test_id("whoami")).to_have_text("Grown_up")
    expect(page.get_by_test_id("balance")).to_have_text("$1,000.00")              # the demo's welcome money
    expect(page.get_by_test_id("table-row-t1")).to_be_visible()
    page.get_by_test_id("logout").click()

    log_in(page, "Grown_up", "not the password")
    expect(page.get_by_test_id("login-error")).to_have_text("that nickname and password do not match")
    log_in(page, "Grown_up", PASSWORD)
    expect(page.get_by_test_id("lobby-view")).to_be_visible()
    expect(page.get_by_test_id("login-error")).to_be_hidden()


def test_a_person_plays_the_bots_to_a_showdown_and_finds_the_hand_in_the_history(bot_room, new_page):
    """Register, log in (a wrong password shows the server's sentence), filter the lobby, sit with a buy-in
    (HR-STAKE-4), post to be dealt in (HR-POST-1), check and call to a showdown: the shown hands and who won what
    are exactly the server's ``hand_shown`` and ``pot_awarded``. A link in chat is refused at the chat box
    (HR-CHAT-2); the hand is in the hand history; leaving pays the stack back to the wallet."""
    observer = Observer(bot_room.url, "t1")
    try:
        page = new_page()
        page.goto(http_url(bot_room))
        register(page, "Ana_web")                       # registering logs the new account in
        expect(page.get_by_test_id("whoami")).to_have_text("Ana_web")
        page.get_by_test_id("logout").click()
        log_in(page, "Ana_web", "wrong password")
        expect(page.get_by_test_id("login-error")).to_have_text("that nickname and password do not match")
        log_in(page, "Ana_web", PASSWORD)
        expect(page.get_by_test_id("whoami")).to_have_text("Ana_web")
        expect(page.get_by_test_id("balance")).to_have_text("$1,000.00")

        # the lobby: the bots' table, and filters by game and free seats
        expect(page.get_by_test_id("table-players-t1")).to_have_text(re.compile(r"3/6$"), timeout=20_000)
        expect(page.get_by_test_id("table-row-t2")).to_contain_text("Pot-limit Omaha")
        page.get_by_test_id("filter-game").select_option("PLO")
        expect(page.get_by_test_id("table-row-t1")).to_be_hidden()
        expect(page.get_by_test_id("table-row-t2")).to_be_visible()
        page.get_by_test_id("filter-game").select_option("")
        page.get_by_test_id("filter-seats").fill("4")
        expect(page.get_by_test_id("table-row-t1")).to_be_hidden()               # 3 of 6 free
        expect(page.get_by_test_id("table-row-t2")).to_be_visible()
        page.get_by_test_id("filter-seats").fill("0")

        # sit down with a buy-in; a buy-in over the maximum is refused with the rule
        page.get_by_test_id("open-t1").click()
        table = page.get_by_test_id("table-view")
        expect(table.locator(".seat")).to_have_count(3)
        expect(table.get_by_test_id("dealer")).to_be_visible(timeout=15_000)      # the bots' game is running
        table.get_by_test_id("take-seat").click()
        table.get_by_test_id("buyin-amount").fill("25.00")
        table.get_by_test_id("buyin-submit").click()
        expect(table.get_by_test_id("join-error")).to_contain_text("HR-STAKE-4")
        table.get_by_test_id("buyin-amount").fill("10.00")
        table.get_by_test_id("buyin-submit").click()
        me = table.locator('.seat[data-player="Ana_web"]')
        expect(me).to_be_visible()
        expect(me.locator("[data-testid^=stack-]")).to_have_text(re.compile(r"^\$\d+\.\d\d$"))

        # chat: a line reaches the table
        table.get_by_test_id("chat-input").fill("good luck all")
        table.get_by_test_id("chat-send").click()
        expect(table.get_by_test_id("chat-list")).to_contain_text("good luck all")

        shot = play_until_showdown(page, table)
        # the page followed the table's seqs from its one snapshot on, with no gap to fill from a new one
        expect(table.get_by_test_id("log").get_by_text("Table state received")).to_have_count(1)
        if os.environ.get("POKERROOM_SCREENSHOTS"):
            assert shot, "no moment to photograph: our turn after the flop"

        # the page's result is what the server sent
        result = table.locator(SHOWDOWN_WITH_ME)
        hand_id = result.get_attribute("data-hand-id")
        events = observer.hand(hand_id)
        players = {e["seat"]: e["player"] for e in events if e["type"] == "seat_dealt_in"}
        assert "Ana_web" in players.values()
        sent_awards = sorted((players[seat], share) for e in events if e["type"] == "pot_awarded"
                             for seat, share in zip(e["seats"], e["shares"], strict=True))
        awards = result.get_by_test_id("award")
        shown_awards = sorted((awards.nth(i).get_attribute("data-player"),
                               int(awards.nth(i).get_attribute("data-amount"))) for i in range(awards.count()))
        assert shown_awards == sent_awards
        for player, share in sent_awards:
            expect(result).to_contain_text(f"{player} wins {dollars(share)}")
        sent_shown = sorted((players[e["seat"]], " ".join(card_text(c) for c in e["cards"]))
                            for e in events if e["type"] == "hand_shown")
        hands = result.get_by_test_id("shown-hand")
        page_shown = sorted((hands.nth(i).get_attribute("data-player"), hands.nth(i).get_attribute("data-cards"))
                            for i in range(hands.count()))
        assert sent_shown and page_shown == sent_shown
        expect(hands.first.locator(".card")).to_have_count(2)

        # HR-POST-1: in the first hand Ana was dealt into, she had posted a big blind's worth (entry or big blind)
        first = next(e["hand_id"] for e in observer.events if e["type"] == "hand_event"
                     and e["event"]["type"] == "seat_dealt_in" and e["event"]["player"] == "Ana_web")
        mine = next(seat for seat, p in ((e["seat"], e["player"]) for e in observer.hand(first)
                                         if e["type"] == "seat_dealt_in") if p == "Ana_web")
        posts = [e for e in observer.hand(first) if e["type"] == "posted" and e["seat"] == mine]
        assert [(p["kind"] in ("entry", "big_blind"), p["added"]) for p in posts] == [(True, 10)]
        expect(table.get_by_test_id("log")).to_contain_text("Ana_web posts")

        # a link in chat is refused, with the rule, next to the chat box (seconds after the last line: HR-CHAT-2)
        table.get_by_test_id("chat-input").fill("see www.example.com")
        table.get_by_test_id("chat-send").click()
        expect(table.get_by_test_id("chat-error")).to_have_text("links and abusive words are not allowed in chat "
                                                               "(HR-CHAT-2)")
        expect(table.get_by_test_id("chat-input")).to_have_value("see www.example.com")

        # leave: the stack goes back to the wallet
        table.get_by_test_id("leave").click()
        expect(me).to_have_count(0, timeout=30_000)
        left = observer.wait_for(lambda es: any(e["type"] == "player_left" and e["player"] == "Ana_web"
                                                for e in es))
        stack = next(e["stack"] for e in left if e["type"] == "player_left" and e["player"] == "Ana_web")
        expect(page.get_by_test_id("balance")).to_have_text(dollars(100_000 - 1_000 + stack))

        # the hand history lists the showdown hand, its events readable with the cards drawn
        page.get_by_test_id("nav-history").click()
        row = page.get_by_test_id(f"history-hand-{hand_id}")
        expect(row).to_be_visible()
        if row.get_attribute("open") is None:
            row.locator("summary").click()
        lines = page.get_by_test_id(f"history-events-{hand_id}")
        expect(lines).to_contain_text("Dealt to Ana_web")
        expect(lines).to_contain_text(" shows ")
        for player, share in sent_awards:
            expect(lines).to_contain_text(f"{player} wins {dollars(share)}")
        assert lines.locator(".card").count() >= 5 + 2 + 2               # board, our cards, a shown hand
    finally:
        observer.close()


def test_the_decision_clock_and_time_bank_count_down_and_a_reload_resumes_the_seat(clock_room, new_page):
    """HR-TIME-1/2: everyone sees the decision clock, then the time bank, counting down (client-side, from the
    events' seconds); HR-TIME-3: when both run out the table acts (a check or a fold, shown as such);
    HR-DC-2: after a reload the page resumes the session and shows the seat and our own cards again."""
    page = new_page()
    page.goto(http_url(clock_room))
    register(page, "Clocky")
    expect(page.get_by_test_id("table-row-t1")).to_be_visible()
    sit_down(page, "t1", "10.00")
    table = page.get_by_test_id("table-view")
    expect(table.locator('.seat[data-player="Clocky"]')).to_be_visible()

    rival = Player(clock_room.url, "pokerroom.v1.json")
    assert rival.request("register", nickname="Rival", password=PASSWORD, birth_date="1980-01-01",
                         country="DE")["ok"]
    assert rival.request("login", nickname="Rival", password=PASSWORD)["ok"]
    assert rival.request("join", table="t1", buy_in=1_000)["ok"]
    stopping = threading.Event()

    def rival_plays() -> None:                              # checks or calls at once, whenever it is his turn
        for push in pushes_until(rival, stopping):
            if "legal" in push:
                rival.request("act", table="t1", action="check" if push["legal"]["can_check"] else "call",
                              decision=push["legal"]["decision"])

    thread = threading.Thread(target=rival_plays, daemon=True)
    thread.start()
    observer = Observer(clock_room.url, "t1")
    try:
        me = table.locator('.seat[data-player="Clocky"]')
        clock = me.locator("[data-testid^=clock-]")
        # our decision clock, then our time bank, each counting down while we wait
        expect(clock).to_have_attribute("data-phase", "thinking", timeout=20_000)
        expect(clock).to_have_text(re.compile(r"^0:0[1-4] \+3s$"))      # the time bank waits behind the clock
        expect(table.get_by_test_id("turn")).to_contain_text("Your turn")
        expect(clock).to_have_attribute("data-phase", "time_bank", timeout=6_000)
        expect(clock).to_have_text(re.compile(r"^Time bank 0:0[23]$"))
        expect(clock).to_have_text("Time bank 0:01", timeout=3_000)
        expect(table.get_by_test_id("turn")).to_contain_text("Your turn \u00b7 time bank 0:0")
        # both ran out: the table acted for us
        expect(table.get_by_test_id("log")).to_contain_text(re.compile(r"Clocky (checks|folds) \(time ran out\)"),
                                                           timeout=5_000)

        # a reload during our next turn: the session resumes with the same hand, our own cards, our turn
        turn = table.locator(MY_TURN).first
        expect(turn).to_be_visible(timeout=20_000)
        hand = table.get_by_test_id("table-info").get_attribute("data-hand")
        hole = me.locator("[data-testid^=hole-] .card:not(.back)")
        expect(hole).to_have_count(2)
        before = [hole.nth(i).get_attribute("data-card") for i in range(2)]
        page.reload()
        expect(page.get_by_test_id("whoami")).to_have_text("Clocky")
        expect(table.get_by_test_id("table-info")).to_have_attribute("data-hand", hand)
        expect(hole).to_have_count(2)
        assert [hole.nth(i).get_attribute("data-card") for i in range(2)] == before
        expect(turn).to_be_visible()
        seat = int(me.get_attribute("data-testid").removeprefix("seat-"))
        acted = len(observer.events)
        turn.click()
        observer.wait_for(lambda es: any(e["type"] == "hand_event" and e["event"]["type"] == "action_taken"
                                         and e["event"]["seat"] == seat and not e["event"].get("timed_out")
                                         for e in es[acted:]), timeout=5)
        expect(table.get_by_test_id("action-error")).to_be_hidden()

        # sitting out and back in
        table.get_by_test_id("sit-out").click()
        expect(me).to_have_class(re.compile(r"\baway\b"), timeout=15_000)
        expect(table.get_by_test_id("turn")).to_have_text("You are sitting out.", timeout=15_000)
        table.get_by_test_id("sit-in").click()
        expect(me).not_to_have_class(re.compile(r"\baway\b"))
        expect(table.get_by_test_id("sit-out")).to_be_visible()

        # the connection drops on our turn: the page reconnects and resumes from the last seq it saw; dealt into
        # the running hand, it gets the table anew (our cards, our legal with the same decision) and acts on it
        expect(turn).to_be_visible(timeout=20_000)
        page.evaluate("window.pokerroom.room.socket.close()")
        expect(page.get_by_test_id("connection")).to_be_hidden(timeout=20_000)
        expect(table.get_by_test_id("log").get_by_text("Table state received")).to_have_count(2)
        expect(turn).to_be_visible(timeout=20_000)
        acted = len(observer.events)
        turn.click()
        observer.wait_for(lambda es: any(e["type"] == "hand_event" and e["event"]["type"] == "action_taken"
                                         and e["event"]["seat"] == seat and not e["event"].get("timed_out")
                                         for e in es[acted:]), timeout=5)
    finally:
        observer.close()
        stopping.set()
        thread.join(5)
        rival.close()


def test_a_person_registers_for_a_tournament_in_the_lobby_and_plays_at_their_tournament_table(tournament_room,
                                                                                             new_page):
    """TR-REG-2: the lobby lists the tournament with its buy-in and fee, and registering from it takes both from
    the wallet; once the director starts it the person's table comes up (``tournament_table_events``) and they
    play it with ``tournament_act``; the result shown is the server's ``pot_awarded``."""
    url = tournament_room.url
    setup = Player(url, "pokerroom.v1.json")
    assert setup.request("register", nickname="tdir", password=PASSWORD, birth_date="1970-01-01", country="NL")["ok"]
    setup.close()
    grant(tournament_room, "tdir", "director")
    director = Player(url, "pokerroom.v1.json")
    assert director.request("login", nickname="tdir", password=PASSWORD)["ok"]
    created = director.request("director_create", template="daily", id="cup", name="Browser Cup", start_in=None,
                               settings={"guarantee": 0, "table_size": 4})
    assert created["ok"], created

    page = new_page()
    page.goto(http_url(tournament_room))
    register(page, "Tina")
    row = page.get_by_test_id("tournament-row-cup")
    expect(row).to_contain_text("Browser Cup")
    expect(row).to_contain_text("$10.00 + $1.00")
    page.get_by_test_id("register-cup").click()
    expect(page.get_by_test_id("tournament-note-cup")).to_have_text("You are registered.")
    expect(page.get_by_test_id("balance")).to_have_text("$989.00")
    expect(page.get_by_test_id("unregister-cup")).to_be_visible()

    rival = Player(url, "pokerroom.v1.json")
    assert rival.request("register", nickname="Rival", password=PASSWORD, birth_date="1980-01-01",
                         country="DE")["ok"]
    assert rival.request("login", nickname="Rival", password=PASSWORD)["ok"]
    assert rival.request("tournament_register", tournament="cup")["ok"]
    hands: dict[str, list[dict]] = {}
    changed = threading.Condition()
    stopping = threading.Event()

    def rival_plays() -> None:                              # checks or calls at once; keeps every hand event
        for push in pushes_until(rival, stopping):
            if push.get("type") != "tournament_table_events":
                continue
            with changed:
                for e in push["events"]:
                    if e["type"] == "hand_started":
                        hands[e["hand_id"]] = []
                    if hands:
                        list(hands.values())[-1].append(e)
                changed.notify_all()
            if "legal" in push:
                rival.request("tournament_act", tournament="cup", decision=push["legal"]["decision"],
                              action="check" if push["legal"]["can_check"] else "call")

    thread = threading.Thread(target=rival_plays, daemon=True)
    thread.start()
    try:
        assert director.request("director_start", tournament="cup")["ok"]
        page.get_by_test_id("nav-tournament-cup").click()
        view = page.get_by_test_id("tournament-view")
        expect(view).to_be_visible()
        expect(view.get_by_test_id("table-title")).to_have_text("Browser Cup")
        me = view.locator('.seat[data-player="Tina"]')
        expect(me).to_be_visible()
        expect(me.locator("[data-testid^=stack-]")).to_have_text(re.compile(r"^[\d,]+$"))     # chips, not money
        view.locator(MY_TURN).first.wait_for(timeout=30_000)            # HR-TIME-1: our decision clock runs
        clock = me.locator("[data-testid^=clock-]")
        expect(clock).to_have_attribute("data-phase", "thinking")
        expect(clock).to_have_text(re.compile(r"^0:(1[0-5]|0\d) \+\d+s$"))    # 15 s, the time bank behind it
        play_until_showdown(page, view, seconds=50)

        result = view.locator(SHOWDOWN_WITH_ME)
        hand_id = result.get_attribute("data-hand-id")
        with changed:
            assert changed.wait_for(lambda: any(e["type"] == "hand_ended" for e in hands.get(hand_id, [])), 10)
            events = list(hands[hand_id])
        players = {e["seat"]: e["player"] for e in events if e["type"] == "seat_dealt_in"}
        sent = sorted((players[seat], share) for e in events if e["type"] == "pot_awarded"
                      for seat, share in zip(e["seats"], e["shares"], strict=True))
        awards = result.get_by_test_id("award")
        shown = sorted((awards.nth(i).get_attribute("data-player"), int(awards.nth(i).get_attribute("data-amount")))
                       for i in range(awards.count()))
        assert shown == sent and {p for p, _ in sent} <= {"Tina", "Rival"}
        expect(view.get_by_test_id("action-error")).to_be_hidden()

        # the hand in the history: its result in chips, not a bare number; exported in the tournament header
        seat = next(s for s, p in players.items() if p == "Tina")
        start = next(e["stack"] for e in events if e["type"] == "seat_dealt_in" and e["seat"] == seat)
        end = dict(map(tuple, next(e for e in events if e["type"] == "hand_ended")["stacks"]))[seat]
        page.get_by_test_id("nav-history").click()
        page.get_by_test_id("history-filter-kind").select_option("tournament")
        expect(page.get_by_test_id(f"history-net-{hand_id}")).to_have_text(
            f"{'+' if end > start else ''}{end - start:,} chips")
        with page.expect_download() as download:
            page.get_by_test_id(f"history-export-{hand_id}").click()
        text = Path(download.value.path()).read_text()
        assert re.match(r"PokerStars Hand #\d+: Tournament #\d+, \$10\.00\+\$1\.00 USD Hold'em No Limit - "
                        r"Level [IVXL]+ \(\d+/\d+\) - ", text), text.splitlines()[0]
        (back,) = _parsed(text)
        assert "$" not in "\n".join(text.splitlines()[1:]) and all(type(c) is int for c in back.starting_stacks)
        assert "Tina" in back.players                                                       # chips, not money
    finally:
        stopping.set()
        thread.join(5)
        rival.close()
        director.close()


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
