// The audit log (SEC-5): the newest records of the room's hash-chained log -- every admin, director and security
// action with its data -- filtered by kind and player. `#/audit/NICKNAME` shows that player's records.

import { h } from "../common/format.js";
import { act, dataText, kept, limitSelect, outcome, present, shortWhen } from "./ui.js";

export function mount(ctx, container, { param }) {
  const state = kept(ctx, "audit", { kind: "", player: "", limit: "100" });
  if (param) {
    state.fields = { ...state.fields, player: param };
    state.answer = null;
  }
  const kinds = ctx.auditKinds || (ctx.auditKinds = new Set());
  const known = h("datalist", { id: "audit-kinds" });
  const f = {
    kind: h("input", { maxlength: 40, placeholder: "every kind", list: "audit-kinds", "data-testid": "audit-kind", autocomplete: "off" }),
    player: h("input", { maxlength: 20, placeholder: "any player", "data-testid": "audit-player", autocomplete: "off" }),
    limit: limitSelect("audit-limit"),
  };
  for (const [key, input] of Object.entries(f)) input.value = state.fields[key] ?? "";
  const show = h("button.primary", { type: "submit", "data-testid": "audit-search" }, "Show");
  const status = outcome("audit-error");
  const body = h("tbody");
  const empty = h("p.muted.hidden", { "data-testid": "audit-empty" }, "No record matches.");

  const render = (answer) => {
    for (const r of answer.records) kinds.add(r.kind);
    known.replaceChildren(...[...kinds].sort().map((k) => h("option", { value: k })));
    body.replaceChildren(...answer.records.map((r) => h("tr", { "data-testid": "audit-row", dataset: { kind: r.kind, id: r.id } },
      h("td.num", {}, String(r.id)),
      h("td.nowrap", {}, shortWhen(r.at)),
      h("td", { "data-testid": "audit-kind-shown" }, h("b", {}, r.kind)),
      h("td.details", { "data-testid": "audit-data" }, dataText(r.data)),
      h("td.hash", { title: r.hash || "" }, (r.hash || "").slice(0, 12)))));
    empty.classList.toggle("hidden", answer.records.length > 0);
  };
  const load = () => act(show, status, async () => {
    state.fields = Object.fromEntries(Object.entries(f).map(([key, input]) => [key, input.value]));
    const answer = await ctx.room.request("security_audit", present({
      kind: f.kind.value.trim(), player: f.player.value.trim(), limit: Number(f.limit.value),
    }));
    state.answer = answer;
    render(answer);
  });
  const form = h("form.inline-form", { "data-testid": "audit-form", novalidate: true },
    h("label", {}, "Kind", f.kind, known), h("label", {}, "Player", f.player), h("label", {}, "Show", f.limit), show);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    load();
  });
  container.append(h("section.panel", { "data-testid": "audit" },
    h("div.panel-head", {}, h("h2", {}, "Audit log"), h("span.spacer"), form),
    h("p.muted", {}, "Append-only and hash-chained (SEC-5): each record's hash covers the one before it."),
    status,
    h("table.grid", { "data-testid": "audit-log" },
      h("thead", {}, h("tr", {}, ["#", "When", "Kind", "Data", "Hash"].map((t) => h("th", {}, t)))), body),
    empty));
  if (state.answer) render(state.answer);
  else load();
  return null;
}
