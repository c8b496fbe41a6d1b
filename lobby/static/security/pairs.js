// Pairs (SEC-3): the pairs of players the collusion signals rank highest, each with its strongest signals and the
// sentence saying why, and the rings of players linked by such pairs. A pair opens its report: every signal with
// the hands behind it, the identities (addresses, devices) the two share, and their chat where they met.

import { h } from "../common/format.js";
import { chatTable } from "./chat.js";
import {
  act, handLink, kept, limitSelect, outcome, playerLink, playerLinks, present, secondsOf,
} from "./ui.js";

export const SIGNALS = {
  chip_flow: "Chip flow", soft_play: "Soft play", co_seating: "Co-seating", shared_identity: "Shared identity",
  synchronised_sit_outs: "Synchronised sit-outs", chip_dumping: "Chip dumping", squeeze: "Squeeze",
  bounty_targeting: "Bounty targeting", chat_in_hand: "Chat in hand",
};

export function score(value) {
  if (value == null) return "";
  if (typeof value !== "number") return String(value);
  return Number.isInteger(value) ? value.toLocaleString("en") : String(Number(value.toPrecision(3)));
}

function valueText(value) {
  if (value == null) return "";
  if (typeof value === "number") return score(value);
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

// The signals of a pair, strongest first.
function ranked(signals) {
  return Object.entries(signals || {}).sort(([, a], [, b]) => (b.score || 0) - (a.score || 0));
}

function pairHref(a, b) {
  return `#/pair/${encodeURIComponent(a)}/${encodeURIComponent(b)}`;
}

function pairRow(pair) {
  const [a, b] = pair.players;
  const open = () => { location.hash = pairHref(a, b); };
  const top = ranked(pair.signals).filter(([, s]) => (s.score || 0) > 0).slice(0, 3);
  return h("tr.clickable", { "data-testid": "pair-row", dataset: { a, b }, onclick: open },
    h("td", { onclick: (e) => e.stopPropagation() }, playerLink(a), " & ", playerLink(b)),
    h("td.num", { "data-testid": "pair-score" }, h("b", {}, score(pair.score))),
    h("td", {}, top.length ? h("ul.signals", {}, top.map(([name, s]) => h("li", { "data-testid": "pair-signal", dataset: { signal: name } },
      h("b", {}, SIGNALS[name] || name), ` ${score(s.score)}: `, h("span", {}, s.why || ""))))
      : h("span.muted", {}, "no signal")),
    h("td.actions", {}, h("a.button", { href: pairHref(a, b), "data-testid": "open-pair" }, "Report")));
}

function ringRow(ring) {
  return h("tr", { "data-testid": "ring-row" },
    h("td", {}, playerLinks(ring.players)),
    h("td.num", {}, h("b", {}, score(ring.score))),
    h("td", {}, (ring.pairs || []).flatMap(([a, b], i) => [i ? ", " : "", h("a", { href: pairHref(a, b) }, `${a} & ${b}`)])));
}

function mountList(ctx, container) {
  const state = kept(ctx, "pairs", { since: "", until: "", limit: "50" });
  const f = {
    since: h("input", { type: "datetime-local", step: 1, "data-testid": "pairs-since" }),
    until: h("input", { type: "datetime-local", step: 1, "data-testid": "pairs-until" }),
    limit: limitSelect("pairs-limit", [50, 100, 200]),
  };
  for (const [key, input] of Object.entries(f)) input.value = state.fields[key] ?? "";
  const search = h("button.primary", { type: "submit", "data-testid": "pairs-search" }, "Rank");
  const status = outcome("pairs-error");
  const pairsBody = h("tbody");
  const ringsBody = h("tbody");
  const noPairs = h("p.muted.hidden", { "data-testid": "pairs-empty" }, "No pair of players has played together yet.");
  const noRings = h("p.muted.hidden", { "data-testid": "rings-empty" }, "No ring of three or more players.");
  const render = (answer) => {
    pairsBody.replaceChildren(...answer.pairs.map(pairRow));
    ringsBody.replaceChildren(...(answer.rings || []).map(ringRow));
    noPairs.classList.toggle("hidden", answer.pairs.length > 0);
    noRings.classList.toggle("hidden", (answer.rings || []).length > 0);
  };
  const load = () => act(search, status, async () => {
    state.fields = Object.fromEntries(Object.entries(f).map(([key, input]) => [key, input.value]));
    const answer = await ctx.room.request("security_pairs", present({
      since: secondsOf(f.since, "From"), until: secondsOf(f.until, "To"), limit: Number(f.limit.value),
    }));
    state.answer = answer;
    render(answer);
  });
  const form = h("form.inline-form", { "data-testid": "pairs-form", novalidate: true },
    h("label", {}, "From", f.since), h("label", {}, "To", f.until), h("label", {}, "Show", f.limit), search);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    load();
  });
  container.append(
    h("section.panel", { "data-testid": "pairs" },
      h("div.panel-head", {}, h("h2", {}, "Pairs"), h("span.spacer"), form),
      h("p.muted", {}, "Pairs of players ranked by the collusion signals computed from the hands, chat and "
        + "connections (SEC-3), highest first. A score is a reason to look, not a finding."),
      status,
      h("table.grid", { "data-testid": "pairs-list" },
        h("thead", {}, h("tr", {}, ["Players", "Score", "Strongest signals", ""].map((t) => h("th", {}, t)))), pairsBody),
      noPairs),
    h("section.panel", { "data-testid": "rings" },
      h("h2", {}, "Rings"),
      h("p.muted", {}, "Groups of players linked to one another by ranked pairs."),
      h("table.grid", { "data-testid": "rings-list" },
        h("thead", {}, h("tr", {}, ["Players", "Score", "Pairs"].map((t) => h("th", {}, t)))), ringsBody),
      noRings));
  if (state.answer) render(state.answer);
  else load();
}

function mountReport(ctx, container, a, b) {
  const status = outcome("pair-error");
  const root = h("section", { "data-testid": "pair-report" },
    h("div.panel-head", {}, h("a.back", { href: "#/pairs" }, "\u2190 Pairs"),
      h("h2", { "data-testid": "pair-title" }, `${a} & ${b}`), status));
  container.append(root);
  act(null, status, async () => {
    const { report } = await ctx.room.request("security_pair", { a, b });
    const signals = ranked(report.signals).map(([name, s]) => h("tr", { "data-testid": "signal-row", dataset: { signal: name } },
      h("td", {}, h("b", {}, SIGNALS[name] || name)),
      h("td.num", {}, valueText(s.value)),
      h("td.num", { "data-testid": "signal-score" }, score(s.score)),
      h("td", { "data-testid": "signal-why" }, s.why || ""),
      h("td.hands-cell", {}, (s.hands || []).length
        ? (s.hands || []).flatMap((id, i) => [i ? " " : "", handLink(id)]) : h("span.muted", {}, "\u2014"))));
    const ids = report.identities || {};
    const shared = new Set(ids.shared || []);
    const holders = ids.holders || {};
    // an identity too many players used (a carrier's or a café's address) is shared but not counted: the
    // shared-identity signal's sentence says the same
    const tooCommon = new Set(ids.too_common || []);
    const common = (id) => tooCommon.has(id);
    const identityList = (list, testid) => h("ul.identities", { "data-testid": testid },
      (list || []).length ? list.map((id) => h(`li${shared.has(id) ? (common(id) ? ".shared.common" : ".shared") : ""}`,
        { "data-identity": id }, id,
        testid === "identities-shared" && holders[id] ? h("small.muted", {}, common(id)
          ? ` used by ${holders[id]} players: too common to count` : ` used by ${holders[id]} players`) : null))
        : [h("li.muted", {}, "none recorded")]);
    const [pa, pb] = report.players || [a, b];
    root.append(
      h("div.panel", { "data-testid": "pair-summary" }, "Players ", playerLink(pa), " and ", playerLink(pb),
        " \u00b7 score ", h("b", { "data-testid": "pair-report-score" }, score(report.score)),
        " \u00b7 ", h("a", { href: `#/hands/${encodeURIComponent(pa)}` }, `hands of ${pa}`),
        " \u00b7 ", h("a", { href: `#/hands/${encodeURIComponent(pb)}` }, `hands of ${pb}`),
        " \u00b7 ", h("button", {
          type: "button", "data-testid": "pair-open-case",
          onclick: () => {
            ctx.draft = { players: [pa, pb], hands: [], title: `${pa} & ${pb}` };
            location.hash = "#/cases";
          },
        }, "Open a case on them")),
      h("section.panel", {}, h("h3", {}, "Signals"),
        h("table.grid.compact", { "data-testid": "pair-signals" },
          h("thead", {}, h("tr", {}, ["Signal", "Value", "Score", "Why", "Hands"].map((t) => h("th", {}, t)))),
          h("tbody", {}, signals))),
      h("div.report-columns", {},
        h("section.panel", { "data-testid": "pair-identities" }, h("h3", {}, "Identities (addresses, devices)"),
          h("div.identity-columns", {},
            h("div", {}, h("b", {}, pa), identityList(ids[pa] || ids.a, "identities-a")),
            h("div", {}, h("b", {}, pb), identityList(ids[pb] || ids.b, "identities-b")),
            h("div", {}, h("b", {}, "Shared"), identityList(ids.shared, "identities-shared")))),
        h("section.panel", { "data-testid": "pair-hands" }, h("h3", {}, "Hands they played together"),
          (report.shared_hands || []).length
            ? h("p.hand-links", {}, report.shared_hands.flatMap((id, i) => [i ? " " : "", handLink(id)]))
            : h("p.muted", {}, "None."))),
      h("section.panel", { "data-testid": "pair-chat" }, h("h3", {}, "Their chat at tables they shared"),
        (report.chat || []).length ? chatTable(report.chat, "pair-chat-lines") : h("p.muted", {}, "No chat.")));
  });
}

export function mount(ctx, container, { view, params }) {
  if (view === "pair" && params.length >= 2) mountReport(ctx, container, params[0], params[1]);
  else mountList(ctx, container);
  return null;
}
