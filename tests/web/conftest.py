"""Browser tests: a real room server in a subprocess and Debian's Chromium driven by Playwright.

The README's test set-up installs ``chromium``; without it these tests skip,
except under ``CI=true`` where a missing browser is a failure. Every page a
test opens is watched: a JavaScript error or a failed request to the room
fails the test (a page that only looks right is not enough).
"""

from __future__ import annotations

import os
import shutil

import pytest

from tests.net.server_process import FAST_ROOM, serving

CHROMIUM = os.environ.get("POKERROOM_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
# Chromium as root in a container, without the background traffic this machine's closed network refuses.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
WEB_ROOM = FAST_ROOM + """
[tournaments]
decision_seconds = 2
between_hands_seconds = 0.2
clock_scale = 1
"""


@pytest.fixture(scope="module", autouse=True)
def cheap_password_hashes():
    """The rooms these tests start hash passwords cheaply (``POKERROOM_ARGON2=bench``, argon2id still): each
    registration and log-in here would otherwise cost a fifth of a CPU-second on a two-core machine that runs
    four workers, and no test here is about the hash's cost (tests/test_players.py checks the production one).
    Module-scoped, so it is in place before a module's shared room starts, and undone before another module's."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("POKERROOM_ARGON2", "bench")
        yield


@pytest.fixture(scope="session")
def browser():
    if CHROMIUM is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is not installed: run the README's test set-up")
        pytest.skip("chromium is not installed (the README's test set-up installs it)")
    from playwright.sync_api import expect, sync_playwright

    # A page's own waits and its assertions get the same patience: an argon2 hash or a server start on a
    # loaded two-core machine can take longer than Playwright's 5 s assertion default.
    expect.set_options(timeout=15_000)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


class PageErrors:
    """JavaScript errors and console errors a page produced; a test asserts there were none."""

    def __init__(self, page) -> None:                 # noqa: ANN001
        self.errors: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        page.on("console", lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None)


@pytest.fixture
def new_page(browser):
    """``new_page()`` opens a page in a fresh browser context (its own cookies and storage: one person)."""
    contexts, watchers = [], []

    def make():
        context = browser.new_context(viewport={"width": 1280, "height": 860})
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        watchers.append(PageErrors(page))
        return page

    yield make
    for context in contexts:
        context.close()
    errors = [e for w in watchers for e in w.errors]
    assert not errors, errors


@pytest.fixture
def web_server(tmp_path):
    """A room with the fast test table ``t1`` and a fast tournament hall, no bots."""
    with serving(tmp_path, WEB_ROOM, "--max-rate", "500") as s:
        yield s
