// The activity log: every director command the room recorded -- who, when, what, on which tournament or table,
// and why -- newest first.

import { h, when } from "../common/format.js";
import { act, outcome } from "./ui.js";

function detailText(details) {
  return Object.entries(details || {})
    .filter(([, value]) => value != null && value !== "" && !(typeof value === "object" && !Object.keys(value).length))
    .map(([key, value]) => `${key.replace(/_/g, " ")}: ${typeof value === "object" ? JSON.stringify(value) : value}`)
    .join(" · ");
}

export function mount(ctx, container) {
  const body = h("tbody");
  const status = outcome("activity-error");
  const tournament = h("input", { placeholder: "all tournaments", maxlength: 32, list: "activity-tournaments",
    "data-testid": "activity-tournament", autocomplete: "off" });
  const known = h("datalist", { id: "activity-tournaments" },
    [...ctx.tournaments.keys()].map((id) => h("option", { value: id })));
  const limit = h("select", { "data-testid": "activity-limit" },
    [50, 100, 200, 500].map((n) => h("option", { value: n }, `last ${n}`)));
  const refresh = h("button", { type: "submit", "data-testid": "refresh-activity" }, "Show");
  const empty = h("p.muted.hidden", {}, "Nothing recorded yet.");

  const load = () => act(refresh, status, async () => {
    const fields = { limit: Number(limit.value) };
    if (tournament.value.trim()) fields.tournament = tournament.value.trim();
    const answer = await ctx.room.request("director_activity", fields);
    body.replaceChildren(...answer.records.map((r) => {
      const details = { ...(r.details || {}) };
      const reason = r.reason || details.reason || "";
      delete details.reason;
      return h("tr", { "data-testid": "activity-row", "data-command": r.command },
        h("td.nowrap", {}, when(r.at)),
        h("td", { "data-testid": "activity-by" }, r.by),
        h("td", { "data-testid": "activity-command" }, h("b", {}, r.command)),
        h("td", {}, r.tournament ? h("a", { href: `#/t/${encodeURIComponent(r.tournament)}` }, r.tournament) : null,
          r.tournament && r.table ? " · " : null, r.table || null),
        h("td", { "data-testid": "activity-reason" }, reason),
        h("td.muted.details", {}, detailText(details)));
    }));
    empty.classList.toggle("hidden", answer.records.length > 0);
  });

  const form = h("form.inline-form", { novalidate: true }, h("label", {}, "Tournament", tournament, known),
    h("label", {}, "Show", limit), refresh);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    load();
  });
  container.append(h("section.panel", { "data-testid": "activity" },
    h("div.panel-head", {}, h("h2", {}, "Activity log"), h("span.spacer"), form),
    h("p.muted", {}, "Every command a director or administrator gave, as the room recorded it in its audit log."),
    status,
    h("table.grid", { "data-testid": "activity-log" },
      h("thead", {}, h("tr", {}, ["When", "Who", "What", "Tournament / table", "Why", "Details"].map((t) => h("th", {}, t)))),
      body),
    empty));
  load();
  return null;
}
