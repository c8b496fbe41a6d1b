"""Pages of a running room in a browser, and the operator's grant of a role, for the browser tests.

The fixtures that open a browser and serve a room are in ``tests/web/conftest.py``.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.net.server_process import Server
from tests.support.socket_play import PASSWORD, sign_up

# Where `el`'s middle is, and why it cannot be tapped there ("" when it can): outside the screen, or something else
# is at its middle.
BLOCKED = """(el) => {
  const r = el.getBoundingClientRect();
  const w = document.documentElement.clientWidth, h = document.documentElement.clientHeight;
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const why = (problem) => ({ x, y, problem });
  if (r.width < 1 || r.height < 1) return why("it has no size");
  if (r.left < -0.5 || r.top < -0.5 || r.right > w + 0.5 || r.bottom > h + 0.5)
    return why(`it is off-screen: ${[r.left, r.top, r.right, r.bottom].map(Math.round)} in ${w}x${h}`);
  const hit = document.elementFromPoint(x, y);
  if (hit && (hit === el || el.contains(hit))) return why("");
  if (!hit) return why("nothing is at its middle");
  const what = hit.closest("[data-testid]");
  return why(`its middle is covered by <${hit.tagName.toLowerCase()} class="${hit.className}">`
    + (what ? ` in [data-testid=${what.dataset.testid}]` : "") + ` saying "${hit.textContent.trim().slice(0, 80)}"`);
}"""


def http_url(server: Server) -> str:
    """``http://host:port`` of a running server (it prints its ``ws://…/ws`` URL)."""
    return server.url.replace("ws://", "http://", 1).removesuffix("/ws")


def grant(server: Server, nickname: str, role: str) -> None:
    """``pokerroom role NICKNAME ROLE``, as an operator grants it."""
    server.grant(nickname, role)


def signed_in(new_page, server: Server, name: str, path: str = "/security") -> Page:   # noqa: ANN001
    """A fresh browser (one person) on ``path`` (a staff page), signed in through the page's form."""
    page = new_page()
    page.goto(http_url(server) + path)
    page.get_by_test_id("login-nickname").fill(name)
    page.get_by_test_id("login-password").fill(PASSWORD)
    page.get_by_test_id("login-submit").click()
    return page


def security(new_page, server: Server, name: str = "secops") -> Page:   # noqa: ANN001
    """A new account made security by the operator, signed in on /security."""
    sign_up(server.url, name)[0].close()
    grant(server, name, "security")
    page = signed_in(new_page, server, name)
    expect(page.get_by_test_id("nav")).to_be_visible()
    expect(page.get_by_test_id("who")).to_have_text(f"{name} · security")
    return page


def register(page: Page, nickname: str, birth_date: str = "1990-04-01", country: str = "NL") -> None:
    """A new player through the player client's form (logged in once it is taken)."""
    page.get_by_test_id("register-nickname").fill(nickname)
    page.get_by_test_id("register-password").fill(PASSWORD)
    page.get_by_test_id("register-birth").fill(birth_date)
    page.get_by_test_id("register-country").select_option(country)
    page.get_by_test_id("register-submit").click()


def sit_down(page: Page, table: str, buy_in: str) -> None:
    """From the player client's lobby: ``table`` opened, a seat taken with ``buy_in`` (as typed, in dollars)."""
    page.get_by_test_id(f"open-{table}").click()
    view = page.get_by_test_id("table-view")
    expect(view).to_be_visible()
    view.get_by_test_id("take-seat").click()
    view.get_by_test_id("buyin-amount").fill(buy_in)
    view.get_by_test_id("buyin-submit").click()
