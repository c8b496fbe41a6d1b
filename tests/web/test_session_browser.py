"""A staff page follows the account (STAFF-3): when the operator's ``pokerroom role`` takes the role away while the
page is open, the page shows the refusal at once -- no reload, no stale view -- and does not remember the session."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.support.browser_pages import grant, security


def test_STAFF_3_a_security_page_shows_the_refusal_once_the_role_is_taken_away(web_server, new_page):
    page = security(new_page, web_server, "secops")
    page.get_by_test_id("nav").get_by_role("link").first.click()
    expect(page.get_by_test_id("view")).not_to_be_empty()
    grant(web_server, "secops", "player")                    # another process, while the page is open
    refused = page.get_by_test_id("not-security")
    expect(refused).to_be_visible(timeout=10_000)
    expect(refused).to_contain_text("secops")
    expect(page.get_by_test_id("nav")).to_be_hidden()
    expect(page.get_by_test_id("view")).to_be_empty()
    page.reload()                                             # the demoted session is not remembered
    expect(page.get_by_test_id("sign-in")).to_be_visible()
