// Small pieces every view of the admin lobby shares: money and chips, state badges, running an action with its
// outcome shown next to it, and reading forms.

import { reasonOf as reasonFrom, Refusal } from "../common/actions.js";
import { h, clock, money, moneyText, parseMoney } from "../common/format.js";

// Tournament money (buy-ins, pools, prizes, refunds) is in minor units of the room's currency.
export const CURRENCY = "USD";

// An amount as shown: with its currency ("$1,000.00"); `plain` is the same number as a form field takes it.
export const cash = (amount, currency = CURRENCY) => moneyText(amount, currency);
export const plain = (amount, currency = CURRENCY) => money(amount, currency);
export const chips = (amount) => money(amount, "chips");

export { act, errorText, failed, outcome, Refusal } from "../common/actions.js";

export const reasonOf = (input) => reasonFrom(input, "the activity log");

export function wholeNumber(text, what, { low = 0, high = Number.MAX_SAFE_INTEGER } = {}) {
  const clean = String(text).trim().replace(/,/g, "");
  if (!/^\d+$/.test(clean) || Number(clean) < low || Number(clean) > high) {
    throw new Refusal(`${what} must be a whole number from ${low.toLocaleString("en")} to ${high.toLocaleString("en")}.`);
  }
  return Number(clean);
}

export function amountOf(text, what, currency = CURRENCY) {
  const value = parseMoney(text, currency);
  if (Number.isNaN(value)) throw new Refusal(`${what} must be an amount like 10.00.`);
  return value;
}

const STATE_NAMES = { registering: "Registering", running: "Running", finished: "Finished", cancelled: "Cancelled" };

export function stateBadge(summary) {
  const badges = [h(`span.badge.state-${summary.state}`, { "data-testid": "state" },
    STATE_NAMES[summary.state] || summary.state)];
  if (summary.state === "running" && summary.paused) badges.push(h("span.badge.paused", {}, "Paused"));
  if (summary.state === "running" && summary.on_break) badges.push(h("span.badge.break", {}, "On break"));
  if (summary.state === "running" && summary.late_registration) badges.push(h("span.badge.late", {}, "Late reg"));
  return badges;
}

export function buyInText(t) {
  const parts = [cash(t.buy_in)];
  if (t.bounty) parts.push(`${cash(t.bounty)} bounty`);
  parts.push(cash(t.fee));
  return parts.join(" + ");
}

export function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n.toLocaleString("en")}${suffix}`;
}

// A moment as "Dec 3, 20:30": what a schedule needs, short enough for a table cell.
export function shortWhen(at) {
  return new Date(at * 1000).toLocaleString([], {
    month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hour12: false,
  });
}

export function anteText(level) {
  if (!level || !level.ante) return "";
  return `${chips(level.ante)}${level.big_blind_ante ? " BBA" : ""}`;         // BBA: a big-blind ante
}

// Blinds and ante of a level as a table of levels shows them, the current one highlighted.
export function levelsTable(levels, breaks, { levelSeconds, current, testid } = {}) {
  const rows = [];
  levels.forEach((level, i) => {
    rows.push(h(`tr${i + 1 === current ? ".current" : ""}`, {}, h("td.num", {}, String(i + 1)),
      h("td.num", {}, `${chips(level.small_blind)} / ${chips(level.big_blind)}`), h("td.num", {}, anteText(level)),
      h("td.num", {}, clock(levelSeconds || level.seconds))));
    const brk = (breaks || []).find((b) => b.after_level === i + 1);
    if (brk) {
      rows.push(h("tr.break-row", {}, h("td"), h("td", { colspan: 2 }, "Break"), h("td.num", {}, clock(brk.seconds))));
    }
  });
  return h("table.grid.compact.levels", testid ? { "data-testid": testid } : {},
    h("thead", {}, h("tr", {}, h("th.num", {}, "Level"), h("th.num", {}, "Blinds"), h("th.num", {}, "Ante"),
      h("th.num", {}, "Length"))),
    h("tbody", {}, rows));
}

export function blindsText(level) {
  if (!level) return "";
  let text = `${chips(level.small_blind)} / ${chips(level.big_blind)}`;
  if (level.ante) text += level.big_blind_ante ? ` · BB ante ${chips(level.ante)}` : ` · ante ${chips(level.ante)}`;
  return text;
}

// Calls `fn` once after a burst of calls has settled (pushes often come several at a time).
export function debounced(fn, ms = 200) {
  let timer = null;
  const wrapped = () => {
    clearTimeout(timer);
    timer = setTimeout(fn, ms);
  };
  wrapped.cancel = () => clearTimeout(timer);
  return wrapped;
}
