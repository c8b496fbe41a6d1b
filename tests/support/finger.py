"""Where a person's finger lands on a page: a control they need must be on the screen and the element found at its
own middle (nothing over it), for the browser tests at phone and desktop sizes; and the screenshots a run keeps.

Also written out in ``tests/web/test_phone_browser.py``, which came first; new tests import them from here.
"""

from __future__ import annotations

import os
from pathlib import Path

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
    + (what ? ` in [data-testid=${what.dataset.testid}]` : ""));
}"""


def assert_reachable(locator, what: str) -> tuple[float, float]:   # noqa: ANN001
    """The middle of a control a person can tap: on the screen, and nothing over it there."""
    found = locator.evaluate(BLOCKED)
    assert not found["problem"], f"{what} ({locator}): {found['problem']}"
    return found["x"], found["y"]


def tap(page, locator, what: str) -> None:   # noqa: ANN001
    """A click where a person would put a finger: at the middle of the control as it is drawn now (a list drawn
    again meanwhile has its new button at the same spot)."""
    page.mouse.click(*assert_reachable(locator, what))


def screenshot(page, name: str) -> None:   # noqa: ANN001
    folder = os.environ.get("POKERROOM_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name))
