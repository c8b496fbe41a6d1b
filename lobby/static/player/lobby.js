// The lobby: cash tables (kept fresh by lobby_update pushes), tournaments and live casino tables, with filters.
import { clock, h, when } from "/static/common/format.js";
import { playable } from "./casino-view.js";
import { cash } from "./describe.js";
import { stamped, startsText } from "./tournament-info.js";

export const GAMES = {
  NLHE: "No-limit Hold'em", PLO: "Pot-limit Omaha", PLO5: "Pot-limit Omaha 5", FLHE: "Fixed-limit Hold'em",
  holdem: "Hold'em", omaha: "Omaha",
};
const CASINO_GAMES = {
  baccarat: "Baccarat", bet_on_baccarat: "Bet on Baccarat", blackjack: "Blackjack",
  infinite_blackjack: "Infinite Blackjack", roulette: "Roulette",
};
const STATES = {
  announced: "Registering", registering: "Registering", running: "Running", finished: "Finished",
  cancelled: "Cancelled",
};

export function stakes(t) {
  return `${cash(t.small_blind, t.currency)}/${cash(t.big_blind, t.currency)}`;
}

function stakeKey(t) {
  return `${t.small_blind}/${t.big_blind}/${t.currency}`;
}

// Replaces a select's options with [value, label] pairs, keeping the chosen one when it is still there.
function options(select, first, pairs) {
  const chosen = select.value;
  const wanted = [["", first], ...pairs];
  const now = [...select.options].map((o) => `${o.value}=${o.textContent}`).join("|");
  if (now === wanted.map(([v, l]) => `${v}=${l}`).join("|")) return;
  select.replaceChildren(...wanted.map(([value, label]) => h("option", { value }, label)));
  select.value = wanted.some(([v]) => v === chosen) ? chosen : "";
}

export class Lobby {
  constructor(app) {
    this.app = app;
    this.tables = new Map();          // table id -> summary (lobby_list / lobby_update)
    this.casino = [];
    this.tournaments = [];
    this.registered = new Set();      // tournaments we registered for from this page
    this.subscribed = false;
    this.loaded = false;
    this.notes = new Map();           // row id -> {text, bad}: what the last click on that row gave
    this.open = new Map();            // row id -> details element shown under it
    this.cashRows = new Map();        // table id -> its row in the cash list, kept while the table is listed
    for (const id of ["filter-game", "filter-stakes", "filter-seats"]) {
      document.getElementById(id).addEventListener("input", () => this.renderCash());
    }
    setInterval(() => this.tickTournaments(), 1000);     // the start and level clocks count down here
  }

  async show(force = false) {
    const error = document.getElementById("lobby-error");
    if (this.loaded && !force) this.render();
    try {
      const [lobby, tournaments] = await Promise.all([
        this.app.room.request("lobby_list"),
        this.app.room.request("tournament_list"),
      ]);
      this.tables = new Map(lobby.tables.map((t) => [t.table, t]));
      this.casino = lobby.casino || [];
      this.listTournaments(tournaments);
      this.loaded = true;
      error.textContent = "";
      if (!this.subscribed || force) {
        await this.app.room.request("lobby_subscribe", { on: true });
        this.subscribed = true;
      }
    } catch (e) {
      error.textContent = e.text || e.message;
    }
    this.render();
  }

  onUpdate(message) {
    for (const t of message.tables) this.tables.set(t.table, t);
    for (const gone of message.closed || []) this.tables.delete(gone);     // a director closed it
    if (document.body.dataset.view === "lobby-view") this.renderCash();
  }

  onTournamentEvent(message) {
    const e = message.event || {};
    const me = this.app.me && this.app.me.nickname;
    const about = [e.player, ...(Array.isArray(e.players) ? e.players : [])].filter(Boolean);
    const quiet = new Set(["registered", "unregistered", "seated", "chips_added", "shares_sold", "hand_for_hand"]);
    if (!quiet.has(e.type) || about.includes(me)) {
      const name = (this.tournaments.find((t) => t.id === message.tournament) || {}).name || message.tournament;
      const what = e.type === "broadcast" ? `${e.by}: ${e.text}` : (e.type || "news").replace(/_/g, " ");
      this.app.toast(`${name}: ${what}`);
    }
    // A start seats every entrant at once: one list request for the whole burst, not one per event.
    if (document.body.dataset.view === "lobby-view" && !this.refreshSoon) {
      this.refreshSoon = setTimeout(() => {
        this.refreshSoon = null;
        this.refreshTournaments();
      }, 300);
    }
  }

  async refreshTournaments() {
    try {
      this.listTournaments(await this.app.room.request("tournament_list"));
      for (const tid of [...this.open.keys()].filter((k) => !k.startsWith("casino:"))) {
        const t = this.tournaments.find((x) => x.id === tid);
        if (t) await this.loadDetails(t);                 // its player list follows the field
      }
      this.renderTournaments();
    } catch (e) {
      document.getElementById("lobby-error").textContent = e.text || e.message;
    }
  }

  render() {
    this.renderCash();
    this.renderTournaments();
    this.renderCasino();
  }

  // ------------------------------------------------------------ cash tables

  filtered() {
    const game = document.getElementById("filter-game").value;
    const stake = document.getElementById("filter-stakes").value;
    const free = Number(document.getElementById("filter-seats").value) || 0;
    return [...this.tables.values()].filter((t) => (!game || t.game === game)
      && (!stake || stakeKey(t) === stake) && t.seats - t.taken >= free && !t.closing);
  }

  renderCash() {
    const all = [...this.tables.values()];
    const games = [...new Set(all.map((t) => t.game))].sort();
    options(document.getElementById("filter-game"), "All games", games.map((g) => [g, GAMES[g] || g]));
    const byStake = new Map();
    for (const t of [...all].sort((a, b) => a.big_blind - b.big_blind)) byStake.set(stakeKey(t), stakes(t));
    options(document.getElementById("filter-stakes"), "All stakes", [...byStake]);
    const shown = this.filtered();
    const body = document.getElementById("cash-rows");
    // A row is kept while its table is listed and its cells updated in place: the lobby hears every hand's end,
    // and a row made anew each time would be gone under a finger on its way to the Open button.
    const rows = shown.map((t) => {
      let row = this.cashRows.get(t.table);
      if (!row) this.cashRows.set(t.table, row = this.cashRow(t.table));
      this.fillCashRow(row, t);
      return row;
    });
    for (const id of [...this.cashRows.keys()]) if (!this.tables.has(id)) this.cashRows.delete(id);
    const kids = body.children;
    if (rows.length !== kids.length || rows.some((row, i) => kids[i] !== row)) body.replaceChildren(...rows);
    if (!shown.length) {
      body.append(h("tr", {}, h("td.muted", { colspan: 8 }, all.length ? "No table matches these filters."
                                                                          : "No cash tables are open.")));
    }
    document.getElementById("lobby-count").textContent = `${shown.length} of ${all.length} tables`;
  }

  // A cash table's row, its cells filled by fillCashRow.
  cashRow(table) {
    const open = () => this.app.go(`#table/${encodeURIComponent(table)}`);
    return h("tr.clickable", { "data-testid": `table-row-${table}`, dataset: { table }, onclick: open },
      h("td"), h("td"), h("td"), h("td"), h("td", { "data-testid": `table-players-${table}` }), h("td"), h("td"),
      h("td", {}, h("button.primary", { type: "button", "data-testid": `open-${table}`,
                                        onclick: (ev) => { ev.stopPropagation(); open(); } })));
  }

  fillCashRow(row, t) {
    const cells = [
      [h("strong", {}, t.name), h("span.muted.table-id", {}, ` ${t.table}`)],
      [GAMES[t.game] || t.game],
      [stakes(t)],
      [`${cash(t.min_buy_in, t.currency)} \u2013 ${cash(t.max_buy_in, t.currency)}`],
      [h("span.seat-dots", {}, Array.from({ length: t.seats }, (_, i) => h(i < t.taken ? "i.taken" : "i", {}))),
       ` ${t.taken}/${t.seats}`],
      [t.waiting ? String(t.waiting) : "\u2014"],
      [t.average_pot ? cash(t.average_pot, t.currency) : "\u2014"],
    ];
    const key = JSON.stringify([t.name, t.game, t.small_blind, t.big_blind, t.min_buy_in, t.max_buy_in, t.currency,
                                t.seats, t.taken, t.waiting, t.average_pot]);
    if (row.dataset.shown === key) return;                  // nothing on it changed
    row.dataset.shown = key;
    cells.forEach((content, i) => row.children[i].replaceChildren(...content));
    const button = row.children[7].firstChild;
    const label = t.seats - t.taken > 0 ? "Open" : "Watch";
    if (button.textContent !== label) button.textContent = label;
  }

  // ------------------------------------------------------------ tournaments

  note(rowId, text, bad) {
    this.notes.set(rowId, { text, bad });
  }

  async tournamentCommand(t, type, done) {
    try {
      await this.app.room.request(type, { tournament: t.id });
      this.note(t.id, done, false);
      if (type === "tournament_register") this.registered.add(t.id);
      if (type === "tournament_unregister") this.registered.delete(t.id);   // the list's own flag follows
      this.app.refreshBalance();
    } catch (e) {
      this.note(t.id, e.text || e.message, true);
    }
    await this.refreshTournaments();
  }

  // The list as read now (its clocks count from here); an event we play in has its table in the top bar at once.
  listTournaments(answer) {
    this.tournaments = (answer.tournaments || []).map(stamped);
    for (const t of this.tournaments) {
      if (t.registered && t.state === "running") this.app.tournamentSeated(t.id, t.name, true);
    }
  }

  tickTournaments() {
    if (document.body.dataset.view !== "lobby-view") return;
    for (const t of this.tournaments) {
      const cell = document.querySelector(`[data-testid="${CSS.escape(`tournament-starts-${t.id}`)}"]`);
      if (cell) cell.textContent = startsText(t);
    }
  }

  async toggleDetails(t) {
    if (this.open.has(t.id)) {
      this.open.delete(t.id);
      this.renderTournaments();
      return;
    }
    await this.loadDetails(t);
    this.renderTournaments();
  }

  async loadDetails(t) {
    try {
      const d = await this.app.room.request("tournament_details", { tournament: t.id });
      const levels = (d.structure.levels || []).slice(0, 8).map((l) => h("li", {},
        `${l.small_blind}/${l.big_blind}${l.ante ? ` ante ${l.ante}` : ""}${l.big_blind_ante ? " (big blind ante)" : ""}`
        + `, ${clock(l.seconds)}`));
      const prizes = (d.prizes || []).slice(0, 10).map((p) => h("li", {}, cash(p)));
      const standings = (d.standings || []).slice(0, 10).map((s) => h("li", { "data-testid": "tournament-player" },
        `${s.player}: ${s.chips.toLocaleString("en")}`));
      this.open.set(t.id, h("div.details", { "data-testid": `tournament-details-${t.id}` },
        h("div", {}, h("h4", {}, "Structure"), h("p.muted", {},
          `Starting stack ${d.structure.starting_stack}, tables of ${d.structure.table_size}`),
          h("ol.compact", {}, levels)),
        h("div", {}, h("h4", {}, d.prizes_fixed ? "Prizes" : "Prizes (provisional)"),
          prizes.length ? h("ol.compact", {}, prizes) : h("p.muted", {}, "None yet")),
        h("div", {}, h("h4", {}, "Players"), standings.length ? h("ul.compact", {}, standings)
          : h("p.muted", {}, "Nobody has registered yet"))));
    } catch (e) {
      this.note(t.id, e.text || e.message, true);
    }
  }

  renderTournaments() {
    const game = document.getElementById("filter-game").value;
    const body = document.getElementById("tournament-rows");
    const rows = [];
    for (const t of this.tournaments.filter((x) => !game || x.game === game)) {
      const fee = t.fee ? ` + ${cash(t.fee)}` : "";
      const bounty = t.bounty ? ` + ${cash(t.bounty)} bounty` : "";
      const guarantee = t.guarantee ? ` (${cash(t.guarantee)} guaranteed)` : "";
      const open = t.state === "registering" || t.state === "announced" || t.late_registration;
      const mine = t.registered ?? this.registered.has(t.id);     // the room says so, even after a reload or a bust
      const playing = mine && t.state === "running";               // no unregistering then: the way to the table
      const note = this.notes.get(t.id);
      rows.push(h("tr", { "data-testid": `tournament-row-${t.id}` },
        h("td", {}, h("strong", {}, t.name), h("span.muted.table-id", {}, ` ${t.id}`)),
        h("td", {}, GAMES[t.game] || t.game),
        h("td", {}, (STATES[t.state] || t.state) + (t.paused ? " (paused)" : "") + (t.on_break ? " (break)" : "")),
        h("td", {}, `${cash(t.buy_in)}${bounty}${fee}`),
        h("td", {}, String(t.entrants)),
        h("td", {}, `${cash(t.prize_pool)}${guarantee}`),
        h("td", {}, t.level ? String(t.level) : "\u2014"),
        h("td", { "data-testid": `tournament-starts-${t.id}`, title: t.start_at ? when(t.start_at) : "" },
          startsText(t)),
        h("td.actions", {},
          open && !mine ? h("button.primary", { type: "button", "data-testid": `register-${t.id}`,
            onclick: () => this.tournamentCommand(t, "tournament_register", "You are registered.") }, "Register") : null,
          playing ? h("button.primary", { type: "button", "data-testid": `open-tournament-${t.id}`,
            onclick: () => this.app.go(`#tournament/${encodeURIComponent(t.id)}`) }, "Open table") : null,
          mine && !playing ? h("button", { type: "button", "data-testid": `unregister-${t.id}`,
            onclick: () => this.tournamentCommand(t, "tournament_unregister", "Unregistered; refunded.") },
          "Unregister") : null,
          h("button", { type: "button", "data-testid": `details-${t.id}`, onclick: () => this.toggleDetails(t) },
            this.open.has(t.id) ? "Hide" : "Details"),
          note ? h(note.bad ? "p.error" : "p.notice", { "data-testid": `tournament-note-${t.id}` }, note.text)
            : null)));
      if (this.open.has(t.id)) rows.push(h("tr.details-row", {}, h("td", { colspan: 9 }, this.open.get(t.id))));
    }
    if (!rows.length) rows.push(h("tr", {}, h("td.muted", { colspan: 9 }, "No tournaments are scheduled.")));
    body.replaceChildren(...rows);
  }

  // ------------------------------------------------------------ casino

  async toggleRules(t) {
    const key = `casino:${t.table}`;
    if (this.open.has(key)) {
      this.open.delete(key);
      this.renderCasino();
      return;
    }
    try {
      const r = await this.app.room.request("casino_rules", { table: t.table });
      this.open.set(key, h("div.details", { "data-testid": `casino-rules-${t.table}` },
        h("ul.compact", {}, (r.rules || []).map((line) => h("li", {}, line)))));
    } catch (e) {
      this.note(key, e.text || e.message, true);
    }
    this.renderCasino();
  }

  renderCasino() {
    const body = document.getElementById("casino-rows");
    const rows = [];
    for (const t of this.casino) {
      const key = `casino:${t.table}`;
      const note = this.notes.get(key);
      rows.push(h("tr", { "data-testid": `casino-row-${t.table}` },
        h("td", {}, h("strong", {}, t.name)),
        h("td", {}, CASINO_GAMES[t.game] || t.game),
        h("td", {}, `${cash(t.min_bet, t.currency)} \u2013 ${cash(t.max_bet, t.currency)}`),
        h("td", {}, `#${t.round} ${String(t.phase || "").replace(/_/g, " ")}`),
        h("td", {}, String(t.players)),
        h("td.actions", {}, playable(t.game) ? h("button.primary", { type: "button", "data-testid": `casino-play-${t.table}`,
          onclick: () => this.app.go(`#casino/${encodeURIComponent(t.table)}`) }, "Play") : null,
        h("button", { type: "button", "data-testid": `casino-rules-button-${t.table}`,
                                          onclick: () => this.toggleRules(t) }, this.open.has(key) ? "Hide" : "Rules"),
        note ? h("p.error", {}, note.text) : null)));
      if (this.open.has(key)) rows.push(h("tr.details-row", {}, h("td", { colspan: 6 }, this.open.get(key))));
    }
    if (!rows.length) rows.push(h("tr", {}, h("td.muted", { colspan: 6 }, "No live casino tables are open.")));
    body.replaceChildren(...rows);
  }
}
