// The tournament list: state, entrants, prize pool, level and next break of every tournament, kept fresh by the
// tournament_event pushes of each one (the list is fetched again when one says something changed).

import { h, clock } from "../common/format.js";
import { act, buyInText, cash, debounced, outcome, shortWhen, stateBadge } from "./ui.js";

export function startText(t) {
  if (t.state !== "registering") return "";
  return t.start_at == null ? "Sit & go" : shortWhen(t.start_at);
}

function row(t) {
  const open = () => { location.hash = `#/t/${encodeURIComponent(t.id)}`; };
  const editable = t.state === "registering" && t.entries === 0 && t.entrants === 0;
  return h("tr.clickable", { "data-testid": "tournament-row", "data-tournament": t.id, onclick: open },
    h("td", {}, h("b", {}, t.name), h("div.muted", {}, t.id)),
    h("td", {}, t.game),
    h("td", {}, stateBadge(t)),
    h("td", {}, startText(t)),
    h("td.num", {}, buyInText(t)),
    h("td.num", { "data-testid": "entrants" }, t.entrants.toLocaleString("en"),
      t.entries > t.entrants ? h("div.muted", {}, `${t.entries.toLocaleString("en")} entries`) : null),
    h("td.num", {}, cash(t.prize_pool), t.guarantee ? h("div.muted", {}, `${cash(t.guarantee)} GTD`) : null),
    h("td.num", { "data-testid": "level" }, t.state === "running" ? String(t.level) : ""),
    h("td.num", {}, t.next_break_in == null ? "" : t.on_break ? "now" : clock(t.next_break_in)),
    h("td.actions", {},
      h("button", { type: "button", "data-testid": "open-tournament", onclick: (e) => { e.stopPropagation(); open(); } },
        "Open"),
      editable ? h("button", {
        type: "button", "data-testid": "edit-tournament",
        onclick: (e) => { e.stopPropagation(); location.hash = `#/edit/${encodeURIComponent(t.id)}`; },
      }, "Edit") : null));
}

export function mount(ctx, container) {
  const body = h("tbody");
  const status = outcome("list-error");
  const refresh = h("button", { type: "button", "data-testid": "refresh-list" }, "Refresh");
  const empty = h("p.muted.hidden", { "data-testid": "no-tournaments" },
    "No tournaments yet. Create one from a structure template.");

  const render = () => {
    const all = [...ctx.tournaments.values()];
    const order = { running: 0, registering: 1, finished: 2, cancelled: 3 };
    all.sort((a, b) => (order[a.state] ?? 9) - (order[b.state] ?? 9) || a.name.localeCompare(b.name));
    body.replaceChildren(...all.map(row));
    empty.classList.toggle("hidden", all.length > 0);
  };
  const load = () => act(null, status, () => ctx.refreshTournaments()).then(render);
  const later = debounced(load, 300);

  refresh.addEventListener("click", () => act(refresh, status, () => ctx.refreshTournaments()).then(render));
  container.append(h("section.panel", { "data-testid": "tournaments" },
    h("div.panel-head", {},
      h("h2", {}, "Tournaments"),
      h("span.spacer"),
      status,
      refresh,
      h("a.button.primary", { href: "#/create", "data-testid": "new-tournament" }, "New tournament")),
    h("table.grid", { "data-testid": "tournament-list" },
      h("thead", {}, h("tr", {},
        ...["Tournament", "Game", "State", "Starts", "Buy-in", "Entrants", "Prize pool", "Level", "Next break", ""]
          .map((title) => h("th", {}, title)))),
      body),
    empty));
  render();
  load();
  const stop = ctx.room.on("tournament_event", later);
  return () => {
    stop();
    later.cancel();
  };
}
