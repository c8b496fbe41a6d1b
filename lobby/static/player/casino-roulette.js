// Roulette's betting layout (RULES.md RO-2, RO-3, RO-5): 0 above three columns of twelve rows, the outside bets
// beside it. A number is tapped with a bet kind chosen: a straight on it, a split or a street with 0 on the
// numbers tapped one after the other, a street on its row, a corner from its top-left number, a line on its row
// and the next; the four and every outside bet are buttons of their own.
import { h } from "/static/common/format.js";

export const RED = new Set([1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36]);
const KINDS = [["straight", "Straight", "35:1"], ["split", "Split", "17:1"], ["street", "Street", "11:1"],
               ["corner", "Corner", "8:1"], ["line", "Line", "5:1"]];
const OUTSIDE = [["low", "1\u201318"], ["even", "Even"], ["red", "Red"], ["black", "Black"], ["odd", "Odd"],
                 ["high", "19\u201336"]];
const WORDS = { low: "low (1\u201318)", high: "high (19\u201336)", four: "the four (0-1-2-3)" };

const row = (n) => Math.floor((n - 1) / 3);            // 0..11
const rowOf = (r) => [3 * r + 1, 3 * r + 2, 3 * r + 3];

export function colourOf(n) {
  return n === 0 ? "green" : RED.has(n) ? "red" : "black";
}

export function label(market) {
  const [kind, rest] = market.split(":");
  if (WORDS[kind]) return WORDS[kind];
  if (kind === "dozen") return `dozen ${rest} (${12 * rest - 11}\u2013${12 * rest})`;
  if (kind === "column") return `column ${rest}`;
  if (!rest) return kind;
  return `${kind} ${rest.replace(/-/g, ", ")}`;
}

// The market a tap on number n asks for with the chosen kind, or null while a split (or a street with 0) needs
// more numbers: they are kept in view.picked.
function marketFor(view, n) {
  const kind = view.kind || "straight";
  if (kind === "straight") return `straight:${n}`;
  if (kind === "street" && n !== 0 && !view.picked.length) return `street:${rowOf(row(n)).join("-")}`;
  if (kind === "corner") return `corner:${[n, n + 1, n + 3, n + 4].join("-")}`;
  if (kind === "line") {
    const r = n === 0 ? 0 : Math.min(row(n), 10);
    return `line:${[...rowOf(r), ...rowOf(r + 1)].join("-")}`;
  }
  view.picked = [...view.picked.filter((x) => x !== n), n];
  const want = kind === "split" ? 2 : 3;
  if (view.picked.length < want) return null;
  const market = `${kind}:${view.picked.sort((a, b) => a - b).join("-")}`;
  view.picked = [];
  return market;
}

export function board(view, { betting }) {
  view.picked = view.picked || [];
  const mine = (market) => view.betOn(market);
  const stake = (market) => (mine(market) ? h("span.stake", { "aria-hidden": "true" }, view.money(mine(market)))
    : null);
  const spot = (market, text, cls, testid, onclick) => h(`button.spot${cls}`, {
    type: "button", "data-testid": testid || `spot-${market}`, disabled: !betting,
    "aria-label": `${label(market)}${mine(market) ? `, your bet ${view.money(mine(market))}` : ""}`,
    onclick: onclick || (() => view.bet(market)),
  }, text, stake(market));
  const tap = (n) => () => {
    const market = marketFor(view, n);
    if (market) view.bet(market);
    else view.render();
  };
  const number = (n) => {
    const picked = view.picked.includes(n) ? ".picked" : "";
    const landed = view.pocket === n ? ".landed" : "";
    return spot(`straight:${n}`, String(n), `.num.${colourOf(n)}${picked}${landed}`, `spot-${n}`, tap(n));
  };
  const numbers = [];
  for (let r = 0; r < 12; r += 1) for (const n of rowOf(r)) numbers.push(number(n));
  const kinds = h("div.roulette-kinds", { role: "radiogroup", "aria-label": "bet on the numbers you tap" },
    KINDS.map(([kind, text, pays]) => h(`button${(view.kind || "straight") === kind ? ".chosen" : ""}`, {
      type: "button", role: "radio", "aria-checked": String((view.kind || "straight") === kind),
      "data-testid": `kind-${kind}`, onclick: () => { view.kind = kind; view.picked = []; view.render(); },
    }, text, h("small", {}, ` ${pays}`))));
  const hint = { straight: "Tap a number.", split: "Tap two touching numbers.",
                 street: "Tap a number for its row, or 0 then two of 1, 2, 3.",
                 corner: "Tap the top-left number of a square of four.", line: "Tap a number: its row and the next." };
  const wheel = view.pocket != null ? h("div.pocket", { "data-testid": "roulette-pocket", role: "status" },
    h(`span.ball.${colourOf(view.pocket)}`, {}, String(view.pocket)), ` ${colourOf(view.pocket)}`) : null;
  const recent = h("div.roulette-recent", { "aria-label": "recent numbers" },
    [...view.results].reverse().slice(0, 10).map(([, r]) => {
      const n = Number(String(r).split(" ")[0]);
      return Number.isNaN(n) ? null : h(`span.ball.${colourOf(n)}`, { title: r }, String(n));
    }));
  return h("div.roulette", {},
    h("div.roulette-top", {}, wheel, recent),
    kinds,
    h("p.muted.hint", {}, view.picked.length ? `Picked ${view.picked.join(", ")}: tap the rest.`
      : hint[view.kind || "straight"]),
    h("div.roulette-layout", { "data-testid": "roulette-layout" },
      h("div.zero-row", {}, number(0), spot("four", "0-1-2-3", ".four", "spot-four")),
      h("div.numbers", {}, numbers),
      h("div.columns", {}, [1, 2, 3].map((c) => spot(`column:${c}`, "2:1", ".outside", `spot-column-${c}`))),
      h("div.dozens", {}, [1, 2, 3].map((d) => spot(`dozen:${d}`, `${12 * d - 11}\u2013${12 * d}`, ".outside",
                                                      `spot-dozen-${d}`))),
      h("div.evens", {}, OUTSIDE.map(([m, text]) => spot(m, text, `.outside.${m}`, `spot-${m}`)))));
}
