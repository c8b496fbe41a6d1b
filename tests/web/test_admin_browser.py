"""The tournament directors' admin lobby at ``/admin`` (issue #8), driven in a real headless Chromium.

A director signs in through the page, creates tournaments from structure templates, starts one with bots
playing over real sockets, watches its levels advance on the shortened clock (TR-PLAY-1), pauses it -- the
clock and the level stand still -- and resumes; cancels another and the refunds the page previewed are exactly
what the players' wallets get (TR-REFUND-2); opens and closes a cash table; and the activity log shows every
command with who gave it and why. An account without the role gets neither the page nor the commands.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.net.server_process import Player, Server
from tests.net.tournament_bots import TournamentBot
from tests.support.browser_pages import grant, http_url, signed_in
from tests.support.socket_play import PASSWORD, sign_up
from tests.support.waiting import wait_until


def cents(text: str) -> int:
    """A shown amount ("$1,100.00") in minor units."""
    whole, _, fraction = text.strip().removeprefix("$").replace(",", "").partition(".")
    return int(whole) * 100 + int(fraction.ljust(2, "0") or 0)


def director(new_page, server: Server, name: str = "tdir") -> Page:
    sign_up(server.url, name)[0].close()
    grant(server, name, "director")
    page = signed_in(new_page, server, name, "/admin")
    expect(page.get_by_test_id("nav")).to_be_visible()
    expect(page.get_by_test_id("who")).to_contain_text(f"{name} · director")
    return page


def create(page: Page, template: str, tid: str, name: str, **fields: str) -> None:
    """Fills the create form from ``template``, changing ``fields`` (the form's settings), and submits it."""
    page.get_by_test_id("nav-create").click()
    form = page.get_by_test_id("create-form")
    expect(form.get_by_test_id("field-template").locator("option")).not_to_have_count(0)
    form.get_by_test_id("field-template").select_option(template)
    form.get_by_test_id("field-id").fill(tid)
    form.get_by_test_id("field-name").fill(name)
    for field, value in fields.items():
        control = form.get_by_test_id(f"field-{field}")
        if control.evaluate("e => e.tagName") == "SELECT":
            control.select_option(value)
        else:
            control.fill(value)
    form.get_by_test_id("create-submit").click()
    expect(page).to_have_url(re.compile(f"#/t/{tid}$"))
    expect(page.get_by_test_id("live-name")).to_have_text(name)


class CalmBot(TournamentBot):
    """Checks, calls or folds, never raises: the tournament lasts while the test watches its clock."""

    def _handle(self, push: dict) -> None:
        if push["type"] == "tournament_table_events" and "legal" in push and push["tournament"] == self.tournament:
            legal = push["legal"]
            action = "check" if legal["can_check"] else "call" if self.rng.random() < 0.6 else "fold"
            self.ask("tournament_act", tournament=self.tournament, action=action, decision=legal["decision"])
        else:
            super()._handle(push)


def register(server: Server, tournament: str, names: list[str]) -> list[Player]:
    players = []
    for name in names:
        p = sign_up(server.url, name)[0]
        answer = p.request("tournament_register", tournament=tournament)
        assert answer["ok"], answer
        players.append(p)
    return players


def test_a_player_without_the_director_role_gets_neither_the_admin_lobby_nor_its_commands(web_server, new_page):
    tdir = sign_up(web_server.url, "tdsock")[0]
    grant(web_server, "tdsock", "director")
    assert tdir.request("login", nickname="tdsock", password=PASSWORD)["ok"]      # the role is read at login
    assert tdir.request("director_create", template="daily", id="guarded", name="Guarded", start_in=None)["ok"]

    sign_up(web_server.url, "plainjoe")[0].close()
    page = signed_in(new_page, web_server, "plainjoe", "/admin")
    refused = page.get_by_test_id("not-director")
    expect(refused).to_be_visible()
    expect(refused).to_contain_text("This account is not a tournament director")
    expect(page.get_by_test_id("nav")).to_be_hidden()
    page.goto(http_url(web_server) + "/admin#/create")          # no way round it by address: nothing is drawn
    expect(page.get_by_test_id("not-director")).to_be_visible()
    expect(page.get_by_test_id("view")).to_be_empty()
    expect(page.get_by_test_id("create-form")).to_have_count(0)
    expect(page.get_by_test_id("start")).to_have_count(0)

    # and the room refuses every director command from that account, whatever sends it
    plain = Player(web_server.url, "pokerroom.v1.json")
    assert plain.request("login", nickname="plainjoe", password=PASSWORD)["ok"]
    asks = [("director_templates", {}), ("director_activity", {}), ("director_tables", {}),
            ("director_create", {"template": "daily", "id": "mine", "name": "Mine", "start_in": None}),
            ("director_start", {"tournament": "guarded"}),
            ("director_pause", {"tournament": "guarded", "reason": "no"}),
            ("director_cancel", {"tournament": "guarded", "reason": "no", "confirm": False}),
            ("director_broadcast", {"tournament": "guarded", "text": "hello"}),
            ("director_open_table", {"id": "x1", "name": "X", "game": "NLHE", "small_blind": 5, "big_blind": 10,
                                     "min_buy_in": 400, "max_buy_in": 1000, "seats": 6, "reason": "no"})]
    for kind, fields in asks:
        answer = plain.request(kind, **fields)
        assert not answer["ok"] and answer["error"]["code"] == "forbidden", (kind, answer)
    assert tdir.request("tournament_details", tournament="guarded")["tournament"]["state"] == "registering"
    plain.close()
    tdir.close()


def test_TR_PLAY_1_a_director_creates_starts_pauses_and_resumes_a_tournament_in_the_browser(web_server, new_page):
    page = director(new_page, web_server)
    # the payout preview for a field size, before creating anything
    page.get_by_test_id("nav-create").click()
    page.get_by_test_id("create-form").get_by_test_id("field-template").select_option("daily")
    page.get_by_test_id("preview-entrants").fill("200")
    page.get_by_test_id("preview-payouts").click()
    expect(page.get_by_test_id("payout-preview")).to_contain_text("200 entries at $11.00")
    expect(page.get_by_test_id("payout-preview").get_by_test_id("payout-row")).not_to_have_count(0)

    create(page, "daily", "web-daily", "Web Daily", level_seconds="4", table_size="6", break_after_level="12",
           break_seconds="60", guarantee="0.00", max_players="60")
    watcher = Player(web_server.url, "pokerroom.v1.json")              # anyone may read the details
    structure = watcher.request("tournament_details", tournament="web-daily")["structure"]
    assert {level["seconds"] for level in structure["levels"]} == {4}          # TR-PLAY-1: the level length given
    assert structure["table_size"] == 6 and structure["breaks"] == [{"after_level": 12, "seconds": 60}]

    names = [f"wb{i:02d}" for i in range(12)]
    bots = [CalmBot(p, name, "web-daily", seed=i) for i, (p, name)
            in enumerate(zip(register(web_server, "web-daily", names), names, strict=True))]
    for bot in bots:
        bot.start()
    try:
        expect(page.get_by_test_id("standing-row")).to_have_count(12)         # registrations pushed to the page
        page.get_by_test_id("start").click()
        expect(page.get_by_test_id("state")).to_have_text("Running")
        expect(page.get_by_test_id("table-card")).to_have_count(2)
        level = page.get_by_test_id("clock-board").get_by_test_id("level")
        clock = page.get_by_test_id("clock-board").get_by_test_id("clock")
        expect(level).to_have_text("1")
        expect(clock).to_have_text(re.compile(r"^0:0[1-4]$"))
        expect(level).to_have_text("2", timeout=8_000)                         # the shortened clock moves on

        page.get_by_test_id("reason").fill("checking the level clock")
        page.get_by_test_id("pause").click()
        expect(page.get_by_test_id("resume")).to_be_enabled()                  # the room says paused
        expect(page.get_by_test_id("clock-note")).to_contain_text("paused")
        shown_level, shown_clock = level.inner_text(), clock.inner_text()
        page.wait_for_timeout(5_500)                                             # longer than a level
        assert (level.inner_text(), clock.inner_text()) == (shown_level, shown_clock)
        summary = watcher.request("tournament_details", tournament="web-daily")["tournament"]
        assert summary["paused"] and str(summary["level"]) == shown_level

        page.get_by_test_id("resume").click()
        expect(page.get_by_test_id("pause")).to_be_enabled()
        expect(level).to_have_text(str(int(shown_level) + 1), timeout=8_000)    # the clock runs again

        page.get_by_test_id("reason").fill("")
        page.get_by_test_id("balance").click()                                  # a reason first, always
        expect(page.get_by_test_id("run-outcome")).to_have_text(
            "Give a reason first: it is written to the activity log with your name.")
        page.get_by_test_id("reason").fill("even tables")
        page.get_by_test_id("balance").click()
        expect(page.get_by_test_id("run-outcome")).to_have_text("Tables balanced.")

        page.get_by_test_id("broadcast-text").fill("Short levels today: play fast")
        page.get_by_test_id("broadcast-send").click()
        expect(page.locator("[data-testid=feed-item][data-type=broadcast]")).to_contain_text(
            "Message from tdir: Short levels today: play fast")
        expect(page.get_by_test_id("standing-row")).not_to_have_count(0)
        expect(page.get_by_test_id("seat").first).to_be_visible()
        shots = os.environ.get("POKERROOM_SCREENSHOTS")
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            expect(page.locator("[data-testid=feed-item][data-type=level_started]")).not_to_have_count(0)
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(Path(shots) / "admin-live.png"))
    finally:
        for bot in bots:
            bot.stop.set()
    assert any(e["type"] == "broadcast" and e["text"] == "Short levels today: play fast" for b in bots
               for e in b.events), "the players got the director's message"
    assert not [b.failure for b in bots if b.failure]

    # the activity log: who did what, when and why
    page.get_by_test_id("nav-activity").click()
    expect(page.locator("[data-testid=activity-row][data-command=pause]")).to_contain_text("checking the level clock")
    for command in ("create", "start now", "pause", "resume", "balance now", "broadcast"):
        expect(page.locator(f"[data-testid=activity-row][data-command='{command}']")).to_have_count(1)
    pause = page.locator("[data-testid=activity-row][data-command=pause]")
    expect(pause.get_by_test_id("activity-by")).to_have_text("tdir")
    watcher.close()


def test_TR_REFUND_2_the_refund_preview_in_the_browser_is_exactly_what_the_room_pays(web_server, new_page):
    page = director(new_page, web_server)
    create(page, "knockout", "web-ko", "Web Knockout", start="scheduled", start_in="30")
    expect(page.get_by_test_id("clock-note")).to_contain_text("starts")

    # edited before anyone registers (TR-REG-2) ...
    page.get_by_test_id("edit-tournament").click()
    page.get_by_test_id("edit-form").get_by_test_id("field-starting_stack").fill("6000")
    page.get_by_test_id("edit-submit").click()
    expect(page.get_by_test_id("live-meta")).to_contain_text("starting stack 6,000")

    names = ["rf0", "rf1", "rf2"]
    players = register(web_server, "web-ko", names)
    desk, _ = sign_up(web_server.url, "rf3")                  # registered by the director at the desk
    names.append("rf3")
    players.append(desk)
    expect(page.get_by_test_id("standing-row")).to_have_count(3)
    page.get_by_test_id("player-name").fill("rf3")
    page.get_by_test_id("player-reason").fill("paid at the desk")
    page.get_by_test_id("add-player").click()
    expect(page.get_by_test_id("player-outcome")).to_have_text(       # a paid event: an invitation (STAFF-2)
        "Invitation sent to rf3: they are entered, and pay, only when they accept.")
    assert desk.request("bet_history", limit=1)["balance"] == 100_000
    assert desk.request("tournament_invitation_answer", tournament="web-ko", accept=True)["ok"]
    expect(page.get_by_test_id("standing-row")).to_have_count(4)
    page.get_by_test_id("player-name").fill("rf0")
    page.get_by_test_id("player-reason").fill("asked to leave")
    page.get_by_test_id("remove-player").click()
    expect(page.get_by_test_id("player-outcome")).to_have_text("Player removed; everything paid back.")
    expect(page.get_by_test_id("standing-row")).to_have_count(3)
    assert players[0].request("bet_history", limit=1)["balance"] == 100_000
    names, players = names[1:], players[1:]
    balances = {name: p.request("bet_history", limit=1)["balance"] for name, p in zip(names, players, strict=True)}
    assert set(balances.values()) == {100_000 - 1100}
    # ... and not after: the page shows the room's refusal with its rule ID
    expect(page.get_by_test_id("edit-tournament")).to_be_hidden()
    page.goto(http_url(web_server) + "/admin#/edit/web-ko")
    page.get_by_test_id("edit-form").get_by_test_id("field-fee").fill("2.00")
    page.get_by_test_id("edit-submit").click()
    expect(page.get_by_test_id("edit-outcome")).to_have_text(
        "a tournament is edited before anyone registers (TR-REG-2)")

    page.goto(http_url(web_server) + "/admin#/t/web-ko")
    expect(page.get_by_test_id("standing-row")).to_have_count(3)
    page.get_by_test_id("cancel").click()
    dialog = page.get_by_test_id("cancel-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_test_id("cancel-confirm")).to_be_disabled()          # nothing to confirm without a preview
    dialog.get_by_test_id("cancel-reason").fill("the venue closes early")
    dialog.get_by_test_id("cancel-refresh").click()
    expect(dialog.get_by_test_id("refund-case")).to_have_text("TR-REFUND-2")
    expect(dialog.get_by_test_id("refund-row")).to_have_count(3)
    shown = {row.get_attribute("data-player"): cents(row.get_by_test_id("refund-amount").inner_text())
             for row in dialog.get_by_test_id("refund-row").all()}
    assert shown == {name: 500 + 500 + 100 for name in names}      # TR-REFUND-2: buy-in, bounty and fee back
    assert cents(dialog.get_by_test_id("refund-total").inner_text()) == 3 * 1100
    dialog.get_by_test_id("cancel-confirm").click()
    expect(dialog).to_be_hidden()
    expect(page.get_by_test_id("run-outcome")).to_contain_text("Cancelled under TR-REFUND-2: 3 refunds, $33.00 in all, "
                                                              "exactly as previewed.")
    expect(page.get_by_test_id("state")).to_have_text("Cancelled")

    for name, p in zip(names, players, strict=True):                   # what the room paid, from each wallet
        history = p.request("bet_history", limit=5)
        refunds = [t for t in history["transfers"] if t["reason"].startswith("refund TR-REFUND-2")]
        assert sum(t["wallet"] for t in refunds) == shown[name], history
        assert history["balance"] == balances[name] + shown[name] == 100_000
        p.close()

    page.get_by_test_id("nav-activity").click()
    expect(page.locator("[data-testid=activity-row][data-command='invite player']")).to_contain_text("paid at the desk")
    expect(page.locator("[data-testid=activity-row][data-command='remove player']")).to_contain_text("asked to leave")
    cancel = page.locator("[data-testid=activity-row][data-command=cancel]")
    expect(cancel).to_contain_text("web-ko")
    expect(cancel.get_by_test_id("activity-reason")).to_have_text("the venue closes early")
    expect(page.locator("[data-testid=activity-row][data-command=edit]").last).to_contain_text("starting_stack")


def test_a_director_opens_a_cash_table_sees_its_seats_and_closes_it(web_server, new_page):
    page = director(new_page, web_server)
    page.get_by_test_id("nav-tables").click()
    page.get_by_test_id("table-id").fill("nl-vega")
    page.get_by_test_id("table-name").fill("Vega")
    page.get_by_test_id("table-small-blind").fill("0.10")
    page.get_by_test_id("table-big-blind").fill("0.05")
    page.get_by_test_id("open-table").click()
    expect(page.get_by_test_id("open-outcome")).to_have_text("Give a reason first: it is written to the activity log "
                                                             "with your name.")
    page.get_by_test_id("table-reason").fill("busy evening")
    page.get_by_test_id("open-table").click()
    expect(page.get_by_test_id("open-outcome")).to_contain_text("(HR-STAKE-4)")     # the room's refusal, its rule
    page.get_by_test_id("table-big-blind").fill("0.20")
    page.get_by_test_id("table-min-buy-in").fill("8.00")
    page.get_by_test_id("table-max-buy-in").fill("20.00")
    page.get_by_test_id("table-seats").fill("6")
    page.get_by_test_id("open-table").click()
    expect(page.get_by_test_id("open-outcome")).to_have_text("Opened Vega (nl-vega).")
    vega = page.locator("[data-testid=cash-table][data-table=nl-vega]")
    expect(vega).to_contain_text("$0.10/$0.20")
    expect(vega.get_by_test_id("seat")).to_have_count(6)

    ana = sign_up(web_server.url, "anaweb")[0]
    assert ana.request("join", table="nl-vega", buy_in=1_500, seat=3)["ok"]
    expect(vega.locator("[data-testid=seat][data-seat='3']")).to_contain_text("anaweb")   # the lobby's push
    expect(vega.locator("[data-testid=seat][data-seat='3']")).to_contain_text("$15.00")
    vega.get_by_test_id("close-reason").fill("closing early")
    vega.get_by_test_id("close-table").click()
    expect(vega).to_have_count(0)                  # nobody in a hand: everyone stands up and the table is gone
    assert ana.request("bet_history", limit=1)["balance"] == 100_000
    assert not any(t["table"] == "nl-vega" for t in ana.request("lobby_list")["tables"])
    ana.close()
    page.get_by_test_id("nav-activity").click()
    expect(page.locator("[data-testid=activity-row][data-command='close table']")).to_contain_text("closing early")
    expect(page.locator("[data-testid=activity-row][data-command='open table']")).to_contain_text("busy evening")
    page.reload()                                         # the tab keeps its session (the token, never the password)
    expect(page.get_by_test_id("who")).to_have_text("tdir · director")
    expect(page.locator("[data-testid=activity-row][data-command='close table']")).to_have_count(1)


def test_a_sit_and_go_from_the_daily_template_is_warned_of_its_field_and_guarantee_and_amounts_show_their_currency(
        web_server, new_page):
    """Issue 22 item 9: a sit & go made from the Daily kept "maximum 10,000 players" and a $1,000 guarantee without a
    word, and amounts had no currency."""
    page = director(new_page, web_server)
    page.get_by_test_id("nav-create").click()
    form = page.get_by_test_id("create-form")
    form.get_by_test_id("field-template").select_option("daily")
    form.get_by_test_id("field-id").fill("sng-daily")
    form.get_by_test_id("field-name").fill("Daily as a sit & go")
    expect(form.get_by_test_id("field-start")).to_have_value("sng")
    fit = form.get_by_test_id("sng-fit")
    expect(fit).to_be_visible()                                           # shown before anything is created
    expect(fit.get_by_test_id("sng-fit-text")).to_contain_text("maximum 10,000 players")
    expect(fit.get_by_test_id("sng-fit-text")).to_contain_text("a $1,000.00 guarantee")
    expect(form.get_by_text("Guaranteed prize pool, USD")).to_be_visible()   # a money field names its currency
    form.get_by_test_id("create-submit").click()
    expect(page.get_by_test_id("create-outcome")).to_contain_text("adjust them, or tick")
    watcher = Player(web_server.url, "pokerroom.v1.json")
    assert not [t for t in watcher.request("tournament_list")["tournaments"] if t["id"] == "sng-daily"]

    form.get_by_test_id("field-start").select_option("scheduled")           # a scheduled Daily fits as it is
    expect(fit).to_be_hidden()
    form.get_by_test_id("field-start").select_option("sng")
    expect(fit).to_be_visible()
    fit.get_by_test_id("sng-adjust").click()
    expect(fit).to_be_hidden()
    expect(form.get_by_test_id("field-max_players")).to_have_value("9")
    expect(form.get_by_test_id("field-guarantee")).to_have_value("0.00")
    form.get_by_test_id("create-submit").click()
    expect(page).to_have_url(re.compile("#/t/sng-daily$"))
    summary = watcher.request("tournament_details", tournament="sng-daily")["tournament"]
    assert summary["start_at"] is None and summary["guarantee"] == 0

    # amounts with their currency: the event's head, the prize pool, the list, the payout preview
    expect(page.get_by_test_id("live-meta")).to_contain_text("buy-in $10.00 + $1.00")
    expect(page.get_by_test_id("prize-pool")).to_have_text("$0.00")
    page.get_by_test_id("nav-tournaments").click()
    expect(page.locator("[data-testid=tournament-row][data-tournament=sng-daily]")).to_contain_text("$10.00 + $1.00")
    page.get_by_test_id("nav-create").click()
    page.get_by_test_id("create-form").get_by_test_id("field-template").select_option("daily")
    page.get_by_test_id("preview-entrants").fill("100")
    page.get_by_test_id("preview-payouts").click()
    expect(page.get_by_test_id("preview-pool")).to_have_text(re.compile(r"^\$[\d,]+\.\d\d$"))
    expect(page.get_by_test_id("payout-preview").get_by_test_id("payout-row").first).to_contain_text("$")
    page.get_by_test_id("nav-activity").click()
    created = page.locator("[data-testid=activity-row][data-command=create]")
    expect(created).to_contain_text("max_players")                 # the adjusted field, as the director sent it
    watcher.close()


def test_TR_PLAY_4_a_move_asked_mid_hand_is_queued_and_made_at_its_end_and_the_feed_survives_reopening(
        web_server, new_page):
    """Issue 22 item 9: moving a player mid-hand was refused instead of queued for the hand's end, and reopening
    the live view emptied its events feed. Players who never act stretch each hand to seconds (each decision
    waits out its 2 s clock), so the director's move lands while a hand is in play."""
    page = director(new_page, web_server)
    create(page, "sit_and_go", "web-move", "Web Move", table_size="3", min_players="2", max_players="5",
           time_bank="0")
    silent = register(web_server, "web-move", [f"mv{i}" for i in range(5)])   # full: it starts
    watcher = Player(web_server.url, "pokerroom.v1.json")
    try:
        expect(page.get_by_test_id("state")).to_have_text("Running")
        expect(page.get_by_test_id("table-card")).to_have_count(2)
        def fuller_in_a_hand() -> tuple[dict, str, str] | None:
            """The tables, the fuller one (in a hand) and the other: a move from it leaves them 2 and 3."""
            tables = watcher.request("tournament_details", tournament="web-move")["tables"]
            source, target = sorted(tables, key=lambda t: -len(tables[t]["seats"]))
            return (tables, source, target) if tables[source]["in_hand"] and len(tables[source]["seats"]) == 3 else None

        found = wait_until(fuller_in_a_hand, 30, every=0.2)
        assert found, "the fuller table never dealt a hand"
        tables, source, target = found
        mover = sorted(tables[source]["seats"].values())[0]
        page.get_by_test_id("player-name").fill(mover)
        page.get_by_test_id("player-table").select_option(target)
        page.get_by_test_id("player-reason").fill("a seat by the window")
        page.get_by_test_id("move-player").click()
        expect(page.get_by_test_id("player-outcome")).to_have_text(
            re.compile(rf"^Queued: moves when the hand at table ({source}|{target}) ends\.$"))
        details = watcher.request("tournament_details", tournament="web-move")
        assert next(p["table"] for p in details["standings"] if p["player"] == mover) == source   # not yet
        moved = page.locator("[data-testid=feed-item][data-type=seated]")
        expect(moved).to_contain_text(f"{mover} moved from {source} to {target}", timeout=60_000)
        expect(moved).to_contain_text("(director)")
        details = watcher.request("tournament_details", tournament="web-move")
        assert next(p["table"] for p in details["standings"] if p["player"] == mover) == target
        assert sorted(len(t["seats"]) for t in details["tables"].values()) == [2, 3]

        # the feed survives reopening the view: another view and back, and a reload of the tab
        lines = page.get_by_test_id("feed-item").count()
        assert lines >= 2                                     # started, and the move at least
        page.get_by_test_id("nav-tournaments").click()
        expect(page.get_by_test_id("tournament-row")).not_to_have_count(0)
        page.locator("[data-testid=tournament-row][data-tournament=web-move]").get_by_test_id("open-tournament").click()
        expect(page.get_by_test_id("feed-item")).not_to_have_count(0)
        assert page.get_by_test_id("feed-item").count() >= lines
        expect(page.locator("[data-testid=feed-item][data-type=seated]")).to_contain_text(f"{mover} moved from")
        page.reload()
        expect(page.get_by_test_id("who")).to_have_text("tdir · director")
        expect(page.locator("[data-testid=feed-item][data-type=started]")).to_have_count(1)
        expect(page.locator("[data-testid=feed-item][data-type=seated]")).to_contain_text(f"{mover} moved from")
        assert page.get_by_test_id("feed-item").count() >= lines

        page.get_by_test_id("nav-activity").click()
        expect(page.locator("[data-testid=activity-row][data-command='move player']")).to_contain_text(
            "a seat by the window")
    finally:
        for p in silent:
            p.close()
        watcher.close()
