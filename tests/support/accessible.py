"""What a person without a mouse or without sight needs of a page (issue 22's accessibility): every control shown
has a name a screen reader can say and is in the keyboard's tab order; every card and every picture has a text
alternative; and a control is reached with the Tab key alone.
"""

from __future__ import annotations

# Problems of the part of the page under ``root``, as sentences (none: the part passes).
AUDIT = """(root) => {
  const problems = [];
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0
                                && getComputedStyle(el).visibility !== "hidden"; };
  const where = (el) => el.dataset.testid || el.id || el.outerHTML.slice(0, 80);
  const named = (el) => {
    if ((el.getAttribute("aria-label") || "").trim() || el.getAttribute("aria-labelledby")) return true;
    if (el.labels && [...el.labels].some((l) => l.textContent.trim())) return true;
    if (["INPUT", "SELECT", "TEXTAREA"].includes(el.tagName)) return !!(el.title || el.placeholder);
    return el.textContent.trim() !== "" || !!el.title;
  };
  for (const el of root.querySelectorAll("button, a[href], input, select, textarea, [role=button], [role=radio]")) {
    if (!shown(el) || el.type === "hidden") continue;
    if (!named(el)) problems.push(`control ${where(el)} has no name a screen reader can say`);
    if (el.tabIndex < 0 || el.closest("[inert]")) problems.push(`control ${where(el)} is not in the tab order`);
  }
  for (const el of root.querySelectorAll(".card")) {
    if (!shown(el) || el.classList.contains("slot")) continue;
    if (el.getAttribute("role") !== "img" || !(el.getAttribute("aria-label") || "").trim())
      problems.push(`card ${el.dataset.card || "face down"} has no text alternative (role img and a label)`);
  }
  for (const el of root.querySelectorAll("img")) {
    if (shown(el) && !el.hasAttribute("alt")) problems.push(`picture ${el.src} has no alt text`);
  }
  for (const el of root.querySelectorAll(".chip")) {
    if (shown(el) && el.getAttribute("aria-hidden") !== "true" && !el.getAttribute("aria-label"))
      problems.push(`chip ${where(el)} is neither labelled nor hidden from screen readers`);
  }
  return problems;
}"""


def assert_accessible(locator, where: str) -> None:   # noqa: ANN001
    problems = locator.evaluate(AUDIT)
    assert not problems, f"{where}: " + "; ".join(problems)


def tab_to(page, locator, what: str, presses: int = 80) -> None:   # noqa: ANN001
    """Press Tab until ``locator`` has the focus, as a keyboard user does; failing when it never comes."""
    for _ in range(presses):
        if locator.evaluate("(el) => el === document.activeElement"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{what} is not reached with the Tab key ({presses} presses)")
