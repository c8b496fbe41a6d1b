// The table's side panels on a phone, and lists that follow their newest line.
//
// On a wide screen the side (table info, last hand, hand log, chat) is a column next to the felt and the tab
// strip is hidden by player.css. Under 760 px the side goes below the action bar and shows one tab at a time, so
// nothing covers the table or the buttons and every panel is a tap away.
import { h } from "/static/common/format.js";

// Tabs over the panels of `side`: each tab is [label, testid suffix, the panels it shows].
export function sideTabs(side, tabs, first = 1) {
  const buttons = [];
  const choose = (k) => {
    tabs.forEach(([, , panels], i) => {
      for (const panel of panels) panel.classList.toggle("tab-open", i === k);
      buttons[i].classList.toggle("active", i === k);
      buttons[i].setAttribute("aria-selected", String(i === k));
    });
  };
  tabs.forEach(([label, name, panels], i) => {
    buttons.push(h(`button.side-tab.tab-${name}`, { type: "button", role: "tab", "data-testid": `side-tab-${name}`,
                                                   onclick: () => choose(i) }, label));
    for (const panel of panels) panel.classList.add("tab-panel");
  });
  side.prepend(h("div.side-tabs", { role: "tablist", "data-testid": "side-tabs" }, buttons));
  choose(first);
}

// Keep `list` scrolled to its newest line while the reader is there; once they scroll up, leave it where they
// put it until they scroll back down. A list filled while hidden (another view, another tab) is at its newest
// line when it shows again.
export function followNewest(list) {
  let following = true;
  const toEnd = () => { if (following) list.scrollTop = list.scrollHeight; };
  list.addEventListener("scroll", () => {
    if (list.clientHeight > 0) following = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
  });
  new MutationObserver(toEnd).observe(list, { childList: true });
  new ResizeObserver(toEnd).observe(list);
}
