"""The player's page tells a person their table moved to another server of the room (``table_moved``, issue 21).

A takeover needs a room of several processes; here the page's own WebSocket, to a real room, is routed through
Playwright, which hands it the ``table_moved`` the room builds (``pokerroom.shell.tenancy.table_moved``) as if
the room had sent it -- everything else passes through untouched. The page must show the server's sentence on
the table, keep the table drawn (from a fresh snapshot: the new process numbers its frames from 1 again), and
tell a casino bettor's refund in a toast. Set ``POKERROOM_SCREENSHOTS`` to a directory to keep the table with the
notice at a desktop's and a phone's size (``table-moved-desktop.png``, ``table-moved-phone.png``).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from playwright.sync_api import expect

from pokerroom.shell.tenancy import table_moved
from tests.support.browser_pages import http_url, register, sit_down

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 860}


def screenshot(page, name: str) -> None:   # noqa: ANN001
    folder = os.environ.get("POKERROOM_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name))


def test_a_seated_player_is_shown_that_the_table_moved_and_the_table_stays_drawn(web_server, new_page):
    page = new_page()
    sockets = []

    def through(socket) -> None:   # noqa: ANN001 - the page's connection, passed on to the real room
        socket.connect_to_server()
        sockets.append(socket)

    page.route_web_socket(re.compile(r"/ws$"), through)
    page.goto(http_url(web_server))
    register(page, "Movy")
    expect(page.get_by_test_id("table-row-t1")).to_be_visible()
    sit_down(page, "t1", "10.00")
    table = page.get_by_test_id("table-view")
    me = table.locator('.seat[data-player="Movy"]')
    expect(me).to_be_visible()
    notice = table.get_by_test_id("table-moved")
    expect(notice).to_be_hidden()
    snapshots = table.get_by_test_id("log").get_by_text("Table state received")
    expect(snapshots).to_have_count(1)

    push = table_moved("t1", ["t1-7"])                          # as the process that took t1 over sends it
    sockets[-1].send(json.dumps(push))
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("This table moved to another server.")
    expect(table.get_by_test_id("table-moved-text")).to_have_text(push["message"])
    expect(table.get_by_test_id("table-moved-rule")).to_have_text("(rule TR-REFUND-1)")
    expect(table.get_by_test_id("log")).to_contain_text("The hand in play (t1-7) was void")
    expect(snapshots).to_have_count(2)                          # heard live: the table read anew, still drawn
    expect(me).to_be_visible()
    expect(table.get_by_test_id("table-title")).to_have_text("Test")

    screenshot(page, "table-moved-desktop.png")
    page.set_viewport_size(PHONE)
    expect(notice).to_be_visible()
    expect(me).to_be_visible()
    box = notice.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1, box
    screenshot(page, "table-moved-phone.png")
    page.set_viewport_size(DESKTOP)

    # another table's move (a casino round refunded, CR-5): a toast, the table's notice as it was
    refund = table_moved("rou", ["rou#3"], refunded=2_500, currency="USD")
    sockets[-1].send(json.dumps(refund))
    expect(page.get_by_test_id("toast")).to_have_text(refund["message"])
    expect(page.get_by_test_id("toast")).to_contain_text("$25.00")
    expect(table.get_by_test_id("table-moved-rule")).to_have_text("(rule TR-REFUND-1)")

    table.get_by_test_id("table-moved-dismiss").click()
    expect(notice).to_be_hidden()
    expect(me).to_be_visible()
