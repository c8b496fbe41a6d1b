"""Where a person's finger lands on a page: a control they need must be on the screen and the element found at its
own middle (nothing over it), for the browser tests at phone and desktop sizes; and the screenshots a run keeps.
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.support.browser_pages import BLOCKED


def assert_reachable(locator, what: str) -> tuple[float, float]:   # noqa: ANN001
    """The middle of a control a person can tap: on the screen, and nothing over it there."""
    found = locator.evaluate(BLOCKED)
    assert not found["problem"], f"{what} ({locator}): {found['problem']}"
    return found["x"], found["y"]


def tap(page, locator, what: str) -> None:   # noqa: ANN001
    """A click where a person would put a finger: at the middle of the control as it is drawn now (a list drawn
    again meanwhile has its new button at the same spot). A control caught while its list is drawn again (no size
    for that instant) is looked at again once it shows, a few times, as a person's eye waits for the redraw."""
    for _ in range(3):
        found = locator.evaluate(BLOCKED)
        if found["problem"] != "it has no size":
            break
        locator.wait_for(state="visible")
    page.mouse.click(*assert_reachable(locator, what))


def screenshot(page, name: str) -> None:   # noqa: ANN001
    folder = os.environ.get("POKERROOM_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name))
