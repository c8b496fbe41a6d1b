"""The player's cashier page in a real browser: deposit and withdraw through the page, the wallet shown as the
room holds it (read back by an independent connection), a refusal shown with its sentence."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.net.server_process import Player
from tests.support.browser_pages import signed_in
from tests.support.socket_play import PASSWORD, sign_up


def test_a_person_deposits_and_withdraws_on_the_cashier_page(web_server, new_page):
    sign_up(web_server.url, "ana")[0].close()                # the demo's welcome: $1,000.00
    page = signed_in(new_page, web_server, "ana", "/")
    expect(page.get_by_test_id("nav-cashier")).to_be_visible()
    page.get_by_test_id("nav-cashier").click()
    expect(page.get_by_test_id("cashier-balance")).to_have_text("$1,000.00")
    page.get_by_test_id("cashier-amount").fill("25")
    page.get_by_test_id("cashier-deposit").click()
    expect(page.get_by_test_id("cashier-done")).to_have_text("Deposited $25.00.")
    expect(page.get_by_test_id("cashier-balance")).to_have_text("$1,025.00")
    expect(page.get_by_test_id("balance")).to_have_text("$1,025.00")
    page.get_by_test_id("cashier-amount").fill("2000")
    page.get_by_test_id("cashier-withdraw").click()
    expect(page.get_by_test_id("cashier-error")).to_contain_text("your wallet holds")
    page.get_by_test_id("cashier-amount").fill("5.50")
    page.get_by_test_id("cashier-withdraw").click()
    expect(page.get_by_test_id("cashier-done")).to_have_text("Withdrew $5.50.")
    expect(page.get_by_test_id("cashier-balance")).to_have_text(re.compile(r"^\$1,019\.50$"))
    page.close()
    again = Player(web_server.url)                           # the room holds what the page showed
    assert again.request("login", nickname="ana", password=PASSWORD)["balance"] == 101_950
