// Cash tables: open one, close one, and see who sits where and who is waiting. The lobby's pushes
// (lobby_update, at most once a second) say when to fetch the tables again.

import { h } from "../common/format.js";
import { Refusal, act, amountOf, cash, debounced, outcome, reasonOf, wholeNumber } from "./ui.js";

const GAMES = [["NLHE", "No-Limit Hold'em"], ["PLO", "Pot-Limit Omaha"], ["FLHE", "Fixed-Limit Hold'em"]];

function tableCard(ctx, t, refresh) {
  const reason = h("input", { maxlength: 200, placeholder: "reason", "data-testid": "close-reason" });
  const close = h("button.danger", { type: "button", "data-testid": "close-table" }, "Close table");
  const out = outcome("close-outcome");
  close.addEventListener("click", () => act(close, out, async () => {
    await ctx.room.request("director_close_table", { table: t.table, reason: reasonOf(reason) });
    refresh();
  }, "Closing: no new hand; everyone stands up with their chips when the hand in play ends."));
  const taken = t.players.length;
  const waiting = Array.isArray(t.waiting_list) ? t.waiting_list : Array.isArray(t.waiting) ? t.waiting : [];
  const seats = [];
  const bySeat = new Map(t.players.map((p) => [p.seat, p]));
  for (let seat = 1; seat <= t.seats; seat++) {
    const p = bySeat.get(seat);
    const status = !p ? "" : [p.sitting_out ? "sitting out" : "", p.connected ? "" : "disconnected"].filter(Boolean).join(", ");
    seats.push(h(`li${p ? "" : ".empty"}`, { "data-testid": "seat", "data-seat": seat },
      h("span.seat-no", {}, String(seat)), h("span.seat-player", {}, p ? p.player : "empty"),
      h("span.seat-stack", {}, p ? cash(p.stack, t.currency) : ""), status ? h("small.muted", {}, status) : null));
  }
  return h("article.panel.cash-table", { "data-testid": "cash-table", "data-table": t.table },
    h("div.panel-head", {},
      h("h3", {}, t.name, " ", h("span.muted", {}, t.table)),
      t.closing ? h("span.badge.paused", { "data-testid": "closing" }, "Closing") : null,
      h("span.spacer"),
      h("span", {}, `${t.game} · ${cash(t.small_blind, t.currency)}/${cash(t.big_blind, t.currency)}`)),
    h("p.muted", {}, `Buy-in ${cash(t.min_buy_in, t.currency)} to ${cash(t.max_buy_in, t.currency)} · ${taken}/${t.seats} seated`),
    h("ol.seats.cash-seats", {}, seats),
    h("p", { "data-testid": "waiting" }, h("b", {}, "Waiting: "),
      waiting.length ? waiting.join(", ") : h("span.muted", {}, "nobody")),
    t.closing ? null : h("div.inline-form", {}, reason, close),
    out);
}

export function mount(ctx, container) {
  const list = h("div.cash-grid", { "data-testid": "cash-tables" });
  const status = outcome("tables-error");
  const refreshButton = h("button", { type: "button", "data-testid": "refresh-tables" }, "Refresh");

  const f = {
    id: h("input", { maxlength: 32, placeholder: "nl-vega", "data-testid": "table-id", autocomplete: "off" }),
    name: h("input", { maxlength: 64, placeholder: "Vega", "data-testid": "table-name", autocomplete: "off" }),
    game: h("select", { "data-testid": "table-game" }, GAMES.map(([code, name]) => h("option", { value: code }, name))),
    small: h("input", { value: "0.05", inputmode: "decimal", "data-testid": "table-small-blind" }),
    big: h("input", { value: "0.10", inputmode: "decimal", "data-testid": "table-big-blind" }),
    min: h("input", { value: "4.00", inputmode: "decimal", "data-testid": "table-min-buy-in" }),
    max: h("input", { value: "10.00", inputmode: "decimal", "data-testid": "table-max-buy-in" }),
    seats: h("input", { value: "9", inputmode: "numeric", "data-testid": "table-seats" }),
    reason: h("input", { maxlength: 200, placeholder: "why this table opens", "data-testid": "table-reason" }),
  };
  const open = h("button.primary", { type: "submit", "data-testid": "open-table" }, "Open table");
  const openOut = outcome("open-outcome");
  const form = h("form.inline-form", { "data-testid": "open-table-form", novalidate: true },
    h("label", {}, "Id", f.id), h("label", {}, "Name", f.name), h("label", {}, "Game", f.game),
    h("label", {}, "Small blind", f.small), h("label", {}, "Big blind", f.big),
    h("label", {}, "Min buy-in", f.min), h("label", {}, "Max buy-in", f.max), h("label", {}, "Seats", f.seats),
    h("label", {}, "Reason", f.reason), open);

  const load = () => act(null, status, async () => {
    const answer = await ctx.room.request("director_tables");
    const tables = [...answer.tables].sort((a, b) => a.table.localeCompare(b.table));
    list.replaceChildren(...(tables.length ? tables.map((t) => tableCard(ctx, t, later))
      : [h("p.muted", {}, "No cash tables are open.")]));
  });
  const later = debounced(load, 250);

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    act(open, openOut, async () => {
      const id = f.id.value.trim();
      const name = f.name.value.trim();
      if (!id || !name) throw new Refusal("Give the table an id and a name.");
      const table = {
        id, name, game: f.game.value,
        small_blind: amountOf(f.small.value, "The small blind"), big_blind: amountOf(f.big.value, "The big blind"),
        min_buy_in: amountOf(f.min.value, "The minimum buy-in"), max_buy_in: amountOf(f.max.value, "The maximum buy-in"),
        seats: wholeNumber(f.seats.value, "Seats", { low: 2, high: 10 }), reason: reasonOf(f.reason),
      };
      const answer = await ctx.room.request("director_open_table", table);
      later();
      return answer;
    }, (answer) => `Opened ${answer.table.name} (${answer.table.table}).`);
  });
  refreshButton.addEventListener("click", () => load());

  container.append(
    h("section.panel", {}, h("h2", {}, "Open a cash table"),
      h("p.muted", {}, "Amounts in the table's currency (USD), e.g. 0.05."), form, openOut),
    h("section", {}, h("div.panel-head", {}, h("h2", {}, "Cash tables"), h("span.spacer"), status, refreshButton), list));

  const stop = ctx.room.on("lobby_update", later);
  ctx.room.request("lobby_subscribe", { on: true }).catch(() => {});
  load();
  return () => {
    stop();
    later.cancel();
    ctx.room.request("lobby_subscribe", { on: false }).catch(() => {});
  };
}
