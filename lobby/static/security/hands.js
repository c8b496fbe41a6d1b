// Hands: search the ended hands by player, table, tournament and time; a row opens the hand's replay.
// `#/hands/NICKNAME` searches that player's hands at once (the player page links here).

import { h } from "../common/format.js";
import { act, badge, kept, limitSelect, outcome, playerLinks, present, secondsOf, shortWhen } from "./ui.js";

function row(hand) {
  const open = () => { location.hash = `#/hand/${encodeURIComponent(hand.hand_id)}`; };
  return h("tr.clickable", { "data-testid": "hand-row", dataset: { hand: hand.hand_id }, onclick: open },
    h("td.nowrap", {}, shortWhen(hand.started_at)),
    h("td", {}, h("a", { href: `#/hand/${encodeURIComponent(hand.hand_id)}`, "data-testid": "open-hand" }, hand.hand_id)),
    h("td", {}, hand.table),
    h("td", {}, hand.tournament || ""),
    h("td", { "data-testid": "hand-players", onclick: (e) => e.stopPropagation() }, playerLinks(hand.players)),
    h("td", {}, hand.void ? badge("void", "bad") : ""));
}

export function mount(ctx, container, { param }) {
  const state = kept(ctx, "hands", { player: "", table: "", tournament: "", since: "", until: "", limit: "50" });
  if (param) {
    state.fields = { ...state.fields, player: param, table: "", tournament: "" };
    state.answer = null;
  }
  const f = {
    player: h("input", { maxlength: 20, placeholder: "any player", "data-testid": "hands-player", autocomplete: "off" }),
    table: h("input", { maxlength: 64, placeholder: "any table", "data-testid": "hands-table", autocomplete: "off" }),
    tournament: h("input", { maxlength: 32, placeholder: "any", "data-testid": "hands-tournament", autocomplete: "off" }),
    since: h("input", { type: "datetime-local", step: 1, "data-testid": "hands-since" }),
    until: h("input", { type: "datetime-local", step: 1, "data-testid": "hands-until" }),
    limit: limitSelect("hands-limit"),
  };
  for (const [key, input] of Object.entries(f)) input.value = state.fields[key] ?? "";
  const search = h("button.primary", { type: "submit", "data-testid": "hands-search" }, "Search");
  const status = outcome("hands-error");
  const body = h("tbody");
  const count = h("span.muted", { "data-testid": "hands-count" });
  const empty = h("p.muted.hidden", { "data-testid": "hands-empty" }, "No ended hand matches.");

  const render = (answer) => {
    body.replaceChildren(...answer.hands.map(row));
    count.textContent = `${answer.hands.length} hand${answer.hands.length === 1 ? "" : "s"}, newest first`;
    empty.classList.toggle("hidden", answer.hands.length > 0);
  };
  const load = () => act(search, status, async () => {
    state.fields = Object.fromEntries(Object.entries(f).map(([key, input]) => [key, input.value]));
    const answer = await ctx.room.request("security_hands", present({
      player: f.player.value.trim(), table: f.table.value.trim(), tournament: f.tournament.value.trim(),
      since: secondsOf(f.since, "From"), until: secondsOf(f.until, "To"), limit: Number(f.limit.value),
    }));
    state.answer = answer;
    render(answer);
  });

  const form = h("form.inline-form", { "data-testid": "hands-form", novalidate: true },
    h("label", {}, "Player", f.player), h("label", {}, "Table", f.table), h("label", {}, "Tournament", f.tournament),
    h("label", {}, "From", f.since), h("label", {}, "To", f.until), h("label", {}, "Show", f.limit), search);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    load();
  });
  container.append(h("section.panel", { "data-testid": "hands" },
    h("div.panel-head", {}, h("h2", {}, "Hands"), h("span.spacer"), count),
    h("p.muted", {}, "Ended hands only: a hand is open to review once it is over (SEC-2). Every hole card is shown "
      + "in the replay."),
    form, status,
    h("table.grid", { "data-testid": "hands-list" },
      h("thead", {}, h("tr", {}, ["Started", "Hand", "Table", "Tournament", "Players", ""].map((t) => h("th", {}, t)))),
      body),
    empty));
  if (state.answer) render(state.answer);
  else load();                                     // the newest hands until a search says otherwise
  return null;
}
