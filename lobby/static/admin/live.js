// The live view of one tournament: the level clock, blinds, standings, tables, payouts and the events as they
// happen, with the director's controls next to what they act on.
//
// Nothing here polls the room. The clock counts down locally from the pushed level_started / break_started
// events (paused / resumed stop and restart it); every tournament_event also fetches the details again (once a
// burst has settled), which is what refreshes standings, tables and payouts.

import { h, clock } from "../common/format.js";
import {
  Refusal, act, blindsText, buyInText, cash, chips, debounced, errorText, failed, levelsTable, ordinal, outcome, reasonOf,
  shortWhen, stateBadge,
} from "./ui.js";
import { feedItem } from "./feed.js";

const CASES = {
  "TR-REFUND-2": "Not started: every registrant gets the buy-in and the fee back.",
  "TR-REFUND-3": "Started, before the money: each player left gets their fee back and the pool collected, "
    + "shared half evenly and half by chips.",
  "TR-REFUND-4": "In the money: each player left gets the prize of the last place still in play; "
    + "the rest is shared by chips; fees come back too.",
};
const SHOWN_STANDINGS = 100;
const SHOWN_PRIZES = 25;
const SHOWN_FEED = 120;

// A tournament's tables are "<tournament>-t3": the short name reads better in a crowded view.
function shortTable(tid, id) {
  return id && id.startsWith(`${tid}-`) ? id.slice(tid.length + 1) : id || "";
}

function levelOf(structure, number) {
  const levels = (structure && structure.levels) || [];
  if (!levels.length || number < 1) return null;
  return levels[Math.min(number, levels.length) - 1];
}

// Seconds left on the clock as the details say: `next` is [command, seconds] and `clock_left` what is left of it
// on the room's running clock (held while paused).
export function clockFromSummary(s, structure) {
  if (s.state !== "running" || !s.next) return null;
  const [command, seconds] = s.next;
  const kind = command === "end_break" ? "break" : "level";
  if (s.clock_left != null) return { kind, left: s.clock_left, exact: true };
  return { kind, left: seconds, exact: false };
}

// A countdown that runs locally between pushes.
class Countdown {
  constructor(left, running) {
    this.set(left, running);
  }

  set(left, running) {
    this.base = left;
    this.since = performance.now();
    this.running = running;
  }

  get left() {
    return this.running ? this.base - (performance.now() - this.since) / 1000 : this.base;
  }

  stop() {
    if (this.running) this.set(this.left, false);
  }

  go() {
    if (!this.running) this.set(this.base, true);
  }
}

function tile(label, valueTestid, extra = {}) {
  const value = h("b", { "data-testid": valueTestid });
  const note = h("small", { "data-testid": `${valueTestid}-note` });
  return { el: h("div.tile", extra, h("span.tile-label", {}, label), value, note), value, note };
}

export function mount(ctx, container, { param: tid }) {
  const room = ctx.room;
  const stopping = new AbortController();
  const signal = stopping.signal;
  let details = null;
  let levelClock = null;         // Countdown of the level or break in play
  let clockKind = "level";
  let breakClock = null;         // Countdown to the next break
  let held = false;              // a deal on the table holds the clock (TR-DEAL-1)
  let gone = false;

  // ---- the head: name, state, and the run controls
  const title = h("h2", { "data-testid": "live-name" }, tid);
  const badges = h("span.badges");
  const meta = h("div.muted", { "data-testid": "live-meta" });
  const editLink = h("a.button.hidden", { href: `#/edit/${encodeURIComponent(tid)}`, "data-testid": "edit-tournament" },
    "Edit structure");
  const reason = h("input.reason", {
    maxlength: 200, placeholder: "Reason (for the activity log)", "data-testid": "reason", autocomplete: "off",
  });
  const run = {
    start: h("button.primary", { type: "button", "data-testid": "start" }, "Start now"),
    pause: h("button", { type: "button", "data-testid": "pause" }, "Pause"),
    resume: h("button", { type: "button", "data-testid": "resume" }, "Resume"),
    balance: h("button", { type: "button", "data-testid": "balance" }, "Balance tables"),
    cancel: h("button.danger", { type: "button", "data-testid": "cancel" }, "Cancel…"),
  };
  const runOut = outcome("run-outcome");

  // ---- the board: clock, blinds, players, stacks, pool
  const tiles = {
    level: tile("Level", "level"),
    clock: tile("Time left", "clock", { class: "tile clock-tile" }),
    blinds: tile("Blinds", "blinds", { class: "tile wide-tile" }),
    nextBreak: tile("Next break", "next-break"),
    players: tile("Players", "players"),
    average: tile("Average stack", "average"),
    pool: tile("Prize pool", "prize-pool"),
  };
  const board = h("section.board", { "data-testid": "clock-board" }, Object.values(tiles).map((t) => t.el));

  // ---- standings, tables, payouts, feed
  const standings = h("tbody");
  const standingsNote = h("p.muted");
  const tablesGrid = h("div.tables-grid", { "data-testid": "tables" });
  const tablesNote = h("p.muted");
  const prizes = h("tbody");
  const prizesNote = h("span.muted", { "data-testid": "prizes-note" });
  const feed = h("ol.feed", { "data-testid": "feed" });

  // ---- management: players, broadcast, deal, structure
  const playerInput = h("input", { list: `players-${tid}`, placeholder: "nickname", maxlength: 20,
    "data-testid": "player-name", autocomplete: "off" });
  const playerList = h("datalist", { id: `players-${tid}` });
  const tableSelect = h("select", { "data-testid": "player-table" });
  const playerReason = h("input", { maxlength: 200, placeholder: "reason", "data-testid": "player-reason" });
  const players = {
    add: h("button", { type: "button", "data-testid": "add-player" }, "Add"),
    remove: h("button", { type: "button", "data-testid": "remove-player" }, "Remove"),
    move: h("button", { type: "button", "data-testid": "move-player" }, "Move to table"),
  };
  const playersOut = outcome("player-outcome");
  const message = h("input.message", { maxlength: 280, placeholder: "A message to every player and watcher",
    "data-testid": "broadcast-text" });
  const send = h("button", { type: "button", "data-testid": "broadcast-send" }, "Send");
  const sendOut = outcome("broadcast-outcome");
  const dealStatus = h("p.muted", { "data-testid": "deal-status" }, "No deal on the table.");
  const dealReason = h("input", { maxlength: 200, placeholder: "reason", "data-testid": "deal-reason" });
  const approve = h("button", { type: "button", "data-testid": "deal-approve" }, "Approve deal");
  const refuse = h("button", { type: "button", "data-testid": "deal-cancel" }, "Cancel deal");
  const dealOut = outcome("deal-outcome");
  const dealRules = h("p.muted");
  const structureBox = h("div", { "data-testid": "structure" });

  container.append(
    h("div.live-head", {},
      h("div", {}, h("a.back", { href: "#/tournaments" }, "← All tournaments"), h("div.title-line", {}, title, badges), meta),
      h("span.spacer"),
      editLink),
    h("section.toolbar", { "data-testid": "run-controls" }, reason, Object.values(run), runOut),
    board,
    h("div.live-columns", {},
      h("section.panel.standings-panel", {}, h("h3", {}, "Standings"),
        h("table.grid.compact", { "data-testid": "standings" },
          h("thead", {}, h("tr", {}, ["#", "Player", "Chips", "BB", "Table"].map((t) => h("th", {}, t)))), standings),
        standingsNote),
      h("div.middle-column", {},
        h("section.panel.tables-panel", {}, h("h3", {}, "Tables"), tablesGrid, tablesNote),
        h("section.panel", {}, h("h3", {}, "Structure"), structureBox)),
      h("div.side-column", {},
        h("section.panel", {}, h("div.panel-head", {}, h("h3", {}, "Payouts"), h("span.spacer"), prizesNote),
          h("table.grid.compact", { "data-testid": "payouts" }, prizes)),
        h("section.panel.feed-panel", {}, h("h3", {}, "Events"), feed))),
    h("div.manage", {},
      h("section.panel", { "data-testid": "players-panel" }, h("h3", {}, "Players"),
        h("div.inline-form", {}, h("label", {}, "Player", playerInput, playerList), h("label", {}, "Table", tableSelect),
          h("label", {}, "Reason", playerReason)),
        h("div.button-row", {}, Object.values(players)),
        h("p.muted", {}, "Add and remove before the start (a removed player gets everything back). A move asked during a hand "
          + "waits for that hand's end."),
        playersOut),
      h("section.panel", { "data-testid": "broadcast-panel" }, h("h3", {}, "Message to the tournament"),
        h("div.inline-form", {}, message, send), sendOut),
      h("section.panel", { "data-testid": "deal-panel" }, h("h3", {}, "Deal"), dealStatus, dealRules,
        h("div.inline-form", {}, h("label", {}, "Reason", dealReason), approve, refuse), dealOut)));

  // ---- rendering
  const renderClock = () => {
    if (gone) return;
    const s = details && details.tournament;
    const t = tiles.clock;
    board.classList.toggle("paused", Boolean(s && s.state === "running" && (s.paused || held)));
    if (!s) return;
    if (s.state === "registering") {
      t.value.textContent = s.start_at == null ? "—" : clock(s.start_at - Date.now() / 1000);
      t.note.textContent = s.start_at == null ? "starts when full, or on Start now" : `starts ${shortWhen(s.start_at)}`;
    } else if (s.state === "running" && levelClock) {
      t.value.textContent = clock(levelClock.left);
      const what = clockKind === "break" ? "the break" : `level ${s.level}`;
      t.note.textContent = s.paused ? `paused · ${what}` : held ? `held for a deal · ${what}` : `left in ${what}`;
    } else {
      t.value.textContent = s.state === "finished" ? "Done" : "—";
      t.note.textContent = s.state;
    }
    tiles.nextBreak.value.textContent = breakClock ? (s.on_break ? "now" : clock(breakClock.left)) : "—";
  };

  const renderFeed = () => {
    const items = ctx.feed(tid).slice(-SHOWN_FEED).reverse().map(feedItem).filter(Boolean);
    feed.replaceChildren(...(items.length ? items : [h("li.empty.muted", {}, "Events appear here as they happen.")]));
  };

  // The deal on the table as the room says (details.tournament.deal), else the last deal event seen here.
  const renderDeal = () => {
    const deal = details && details.tournament.deal;
    const e = ctx.deals.get(tid);
    if (deal) {
      const asked = deal.amounts ? Object.keys(deal.amounts).length : 0;
      dealStatus.textContent = deal.awaiting_approval ? "Every player accepted: the deal waits for your approval."
        : deal.amounts ? `A ${deal.kind.replace("_", " ")} deal proposed by ${deal.by} is offered: `
          + `${deal.accepted.length} of ${asked} accepted. Play and the clock are held.`
          : `${deal.by} proposed a deal: it is offered once every table is between hands.`;
    } else {
      dealStatus.textContent = !e || !["deal_made", "deal_failed"].includes(e.type) ? "No deal on the table."
        : e.type === "deal_made" ? "The last deal was made." : `The last deal did not happen: ${e.reason}.`;
    }
    dealStatus.classList.toggle("attention", Boolean(deal && deal.awaiting_approval));
  };

  const render = () => {
    const s = details.tournament;
    const st = details.structure;
    title.textContent = s.name;
    badges.replaceChildren(...stateBadge(s));
    meta.textContent = `${s.id} · ${s.game} · buy-in ${buyInText(s)} · starting stack ${chips(st.starting_stack)}`
      + ` · ${st.table_size}-max${s.guarantee ? ` · ${cash(s.guarantee)} guaranteed` : ""}`;
    const registering = s.state === "registering";
    const running = s.state === "running";
    editLink.classList.toggle("hidden", !(registering && s.entrants === 0 && s.entries === 0));
    run.start.disabled = !registering;
    run.pause.disabled = !running || s.paused;
    run.resume.disabled = !running || !s.paused;
    run.balance.disabled = !running;
    run.cancel.disabled = !(registering || running);

    const level = levelOf(st, Math.max(1, s.level));
    const next = levelOf(st, Math.max(1, s.level) + 1);
    tiles.level.value.textContent = registering ? "—" : running && s.on_break ? "Break" : String(s.level);
    tiles.level.note.textContent = registering ? "not started" : running && s.on_break ? `after level ${s.level}`
      : `of ${st.levels.length}`;
    tiles.blinds.value.replaceChildren(...(level ? [`${chips(level.small_blind)} / ${chips(level.big_blind)}`,
      level.ante ? h("span.ante", {}, `${level.big_blind_ante ? "BB ante" : "ante"} ${chips(level.ante)}`) : ""] : []));
    tiles.blinds.note.textContent = registering ? "level 1, at the start"
      : running ? (next && s.level < st.levels.length ? `next: ${blindsText(next)}` : "the last level") : "";
    // the server keeps the field's count and average (a page shows the biggest stacks, not all 100,000)
    const left = details.players_left ?? details.standings.length;
    const average = details.average_stack ?? 0;
    tiles.players.value.textContent = running ? `${left.toLocaleString("en")} / ${s.entries.toLocaleString("en")}`
      : left.toLocaleString("en");
    tiles.players.note.textContent = running ? "left / entries" : registering ? "registered" : "";
    tiles.average.value.textContent = left ? chips(average) : "—";
    tiles.average.note.textContent = left && level ? `${(average / level.big_blind).toFixed(1)} big blinds` : "";
    tiles.pool.value.textContent = cash(Math.max(s.prize_pool, s.guarantee));
    tiles.pool.note.textContent = s.guarantee > s.prize_pool ? `collected ${cash(s.prize_pool)}` : "";

    // standings
    const bigBlind = level ? level.big_blind : 0;
    standings.replaceChildren(...details.standings.slice(0, SHOWN_STANDINGS).map((p, i) => h("tr",
      { "data-testid": "standing-row", "data-player": p.player },
      h("td.num", {}, String(i + 1)), h("td", {}, p.player), h("td.num", { "data-testid": "chips" }, chips(p.chips)),
      h("td.num.muted", {}, bigBlind ? (p.chips / bigBlind).toFixed(1) : ""), h("td.muted", { title: p.table || "" }, shortTable(tid, p.table)))));
    standingsNote.textContent = !left ? (registering ? "Nobody has registered yet." : "Nobody is left in play.")
      : left > SHOWN_STANDINGS ? `… and ${(left - SHOWN_STANDINGS).toLocaleString("en")} more.`
        : running ? "Chips as of the start of each table's hand in play." : "";

    // tables
    const stacks = new Map([...details.standings.map((p) => [p.player, p.chips]),
      ...Object.values(details.tables).flatMap((t) => Object.entries(t.stacks || {}))]);
    const ids = Object.keys(details.tables).sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
    tablesGrid.replaceChildren(...ids.map((id) => {
      const table = details.tables[id];
      const seats = [];
      for (let seat = 1; seat <= st.table_size; seat++) {
        const player = table.seats[String(seat)];
        seats.push(h(`li${player ? "" : ".empty"}`, { "data-testid": "seat", "data-seat": seat },
          h("span.seat-no", {}, String(seat)), h("span.seat-player", {}, player || "empty"),
          h("span.seat-stack", {}, player ? chips(stacks.get(player) ?? 0) : "")));
      }
      const breakOut = outcome("table-outcome");
      const breakIt = h("button.small", { type: "button", "data-testid": "break-table", title: "Break this table (reason above)" },
        "Break");
      breakIt.addEventListener("click", () => act(breakIt, breakOut, async () => {
        await room.request("director_break_table", { tournament: tid, table: id, reason: reasonOf(reason) });
      }, `Broke ${id}`));
      return h("article.table-card", { "data-testid": "table-card", "data-table": id },
        h("header", {}, h("b", { title: id }, `Table ${shortTable(tid, id)}`), h(`span.dot${table.in_hand ? ".live" : ""}`,
          { title: table.in_hand ? "a hand is in play" : "between hands" }),
        h("span.muted", {}, `${Object.keys(table.seats).length}/${st.table_size}`), h("span.spacer"), breakIt),
        h("ol.seats", {}, seats), breakOut);
    }));
    tablesNote.textContent = ids.length ? "" : running ? "No tables." : "Tables are drawn at the start.";

    // payouts: who finished where, and what the places still in play pay
    const finishedAt = new Map();
    for (const f of details.finished) for (const place of f.places) finishedAt.set(place, f.player);
    prizes.replaceChildren(...details.prizes.slice(0, SHOWN_PRIZES).map((amount, i) => h("tr",
      { "data-testid": "payout-row", class: finishedAt.has(i + 1) ? "paid" : "" },
      h("td", {}, ordinal(i + 1)), h("td.num", {}, cash(amount)), h("td.muted", {}, finishedAt.get(i + 1) || ""))));
    if (details.prizes.length > SHOWN_PRIZES) {
      prizes.append(h("tr", {}, h("td.muted", { colspan: 3 },
        `… ${(details.prizes.length - SHOWN_PRIZES).toLocaleString("en")} more places`)));
    }
    prizesNote.textContent = details.prizes_fixed ? "fixed" : "provisional (TR-PRIZE-1)";

    // management lists
    playerList.replaceChildren(...details.standings.map((p) => h("option", { value: p.player })));
    const chosen = tableSelect.value;
    tableSelect.replaceChildren(h("option", { value: "" }, "—"), ...ids.map((id) => h("option", { value: id }, shortTable(tid, id))));
    if (ids.includes(chosen)) tableSelect.value = chosen;

    structureBox.replaceChildren(structureView(st, s));
    approve.disabled = refuse.disabled = !running;
    dealRules.textContent = st.deals ? "" : "This tournament does not allow deals.";
    renderDeal();
    renderClock();
  };

  const structureView = (st, s) => {
    const rules = [
      `late registration ${st.late_registration_levels} level${st.late_registration_levels === 1 ? "" : "s"}`,
      `${st.re_entries} re-entr${st.re_entries === 1 ? "y" : "ies"}`,
      `${st.rebuys} rebuy${st.rebuys === 1 ? "" : "s"}`,
      st.add_on_stack ? `add-on ${chips(st.add_on_stack)}` : "no add-on",
      st.deals ? "deals allowed" : "no deals",
      st.satellite_target ? `seats to ${st.satellite_target}` : "",
    ].filter(Boolean);
    return h("div", {}, h("p.muted", {}, rules.join(" · ")),
      levelsTable(st.levels, st.breaks, { current: s.state === "running" ? s.level : 0 }));
  };

  // ---- the clock from the details (first view, or when the room's numbers pin it down)
  const syncClock = () => {
    const s = details.tournament;
    if (s.state !== "running") {
      levelClock = breakClock = null;
      return;
    }
    held = Boolean(s.deal);                   // the room holds the clock while a deal is on the table
    const running = !s.paused && !held;
    const estimate = clockFromSummary(s, details.structure);
    if (estimate && (!levelClock || estimate.exact || estimate.kind !== clockKind)) {
      clockKind = estimate.kind;
      levelClock = new Countdown(estimate.left, running);
    } else if (levelClock) {
      if (running) levelClock.go(); else levelClock.stop();
    }
    breakClock = s.next_break_in == null ? null : new Countdown(s.next_break_in, running && !s.on_break);
  };

  // ---- fetching the details: at mount and after pushes; one request at a time
  let loading = false;
  let again = false;
  const load = async () => {
    if (loading) {
      again = true;
      return;
    }
    loading = true;
    try {
      const answer = await room.request("tournament_details", { tournament: tid });
      if (gone) return;
      details = answer;
      syncClock();
      render();
    } catch (e) {
      if (!gone) failed(runOut, e);
    } finally {
      loading = false;
      if (again && !gone) {
        again = false;
        load();
      }
    }
  };
  const later = debounced(load, 150);

  const pushed = (m) => {
    if (m.tournament !== tid) return;
    const e = m.event;
    const s = details && details.tournament;
    const paused = Boolean(s && s.paused);
    if (e.type === "level_started" || e.type === "break_started") {
      clockKind = e.type === "break_started" ? "break" : "level";
      levelClock = new Countdown(e.seconds, !paused && !held);
    } else if (e.type === "paused") {
      if (s) s.paused = true;
      if (levelClock) levelClock.stop();
      if (breakClock) breakClock.stop();
    } else if (e.type === "resumed") {
      if (s) s.paused = false;
      if (levelClock && !held) levelClock.go();
      if (breakClock && !held) breakClock.go();
    } else if (e.type === "deal_proposed") {
      held = true;
      if (levelClock) levelClock.stop();
    } else if (e.type === "deal_made" || e.type === "deal_failed") {
      held = false;
      if (levelClock && !paused) levelClock.go();
    } else if (e.type === "finished" || e.type === "cancelled") {
      levelClock = breakClock = null;
    }
    renderFeed();
    renderDeal();
    renderClock();
    later();
  };

  // ---- the director's commands
  const playerOf = () => {
    const player = playerInput.value.trim();
    if (player.length < 3) {
      playerInput.focus();
      throw new Refusal("Name the player (their nickname) first.");
    }
    return player;
  };
  const command = (button, out, type, fields, success) => act(button, out, async () => {
    const answer = await room.request(type, { tournament: tid, ...fields() });
    later();
    return answer;
  }, success);

  run.start.addEventListener("click", () => command(run.start, runOut, "director_start", () => ({}), "Started."));
  run.pause.addEventListener("click", () => command(run.pause, runOut, "director_pause",
    () => ({ reason: reasonOf(reason) }), "Paused: no new hands, the clock is stopped."));
  run.resume.addEventListener("click", () => command(run.resume, runOut, "director_resume", () => ({}), "Resumed."));
  run.balance.addEventListener("click", () => command(run.balance, runOut, "director_balance",
    () => ({ reason: reasonOf(reason) }), "Tables balanced."));
  players.add.addEventListener("click", () => command(players.add, playersOut, "director_add_player",
    () => ({ player: playerOf(), reason: reasonOf(playerReason) }),
    // STAFF-2: a free event takes the player; a paid one only invites them, and they pay by accepting
    (answer) => (answer.invited ? `Invitation sent to ${answer.player}: they are entered, and pay, only when `
      + "they accept." : `${answer.player} added.`)));
  players.remove.addEventListener("click", () => command(players.remove, playersOut, "director_remove_player",
    () => ({ player: playerOf(), reason: reasonOf(playerReason) }), "Player removed; everything paid back."));
  players.move.addEventListener("click", () => command(players.move, playersOut, "director_move_player",
    () => {
      const player = playerOf();
      if (!tableSelect.value) throw new Refusal("Choose the table to move the player to.");
      return { player, table: tableSelect.value, reason: reasonOf(playerReason) };
    }, (answer) => (answer.queued ? `Queued: ${answer.queued}.` : "Player moved.")));   // TR-PLAY-4
  send.addEventListener("click", () => command(send, sendOut, "director_broadcast", () => {
    const text = message.value.trim();
    if (!text) throw new Refusal("Write the message first.");
    return { text };
  }, "Sent.").then((answer) => { if (answer) message.value = ""; }));
  approve.addEventListener("click", () => command(approve, dealOut, "director_deal",
    () => ({ decision: "approve", reason: reasonOf(dealReason) }), "Deal approved."));
  refuse.addEventListener("click", () => command(refuse, dealOut, "director_deal",
    () => ({ decision: "cancel", reason: reasonOf(dealReason) }), "Deal cancelled; play resumes."));

  // ---- cancelling, with the refunds the room will pay shown first
  const dialog = document.getElementById("cancel-dialog");
  const cancelReason = dialog.querySelector("[data-testid=cancel-reason]");
  const previewBox = dialog.querySelector("[data-testid=refund-preview]");
  const cancelError = dialog.querySelector("[data-testid=cancel-error]");
  const confirm = dialog.querySelector("[data-action=confirm]");
  const previewAgain = dialog.querySelector("[data-action=refresh]");
  let preview = null;

  const showPreview = (p) => {
    const entries = Object.entries(p.refunds).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    const total = entries.reduce((sum, [, amount]) => sum + amount, 0);
    previewBox.replaceChildren(...[
      h("p", {}, h("b", { "data-testid": "refund-case" }, p.case), " · ", CASES[p.case] || ""),
      h("table.grid.compact", {},
        h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th.num", {}, "Refund"))),
        h("tbody", {}, entries.map(([player, amount]) => h("tr", { "data-testid": "refund-row", "data-player": player },
          h("td", {}, player), h("td.num", { "data-testid": "refund-amount" }, cash(amount))))),
        h("tfoot", {}, h("tr", {}, h("th", {}, `${entries.length} player${entries.length === 1 ? "" : "s"}`),
          h("th.num", { "data-testid": "refund-total" }, cash(total))))),
      h("p.muted", {}, `Left over by rounding down: ${cash(p.remainder)} (TR-PRIZE-3).`),
      details && details.tournament.state === "running" && !details.tournament.paused
        ? h("p.error", {}, "Hands are in play: pause first, or the amounts may change before you confirm.") : null,
    ].filter(Boolean));
  };

  const previewRefunds = async () => {
    previewAgain.disabled = true;
    confirm.disabled = true;
    cancelError.textContent = "";
    preview = null;
    try {
      preview = await room.request("director_cancel", { tournament: tid, reason: reasonOf(cancelReason), confirm: false });
      showPreview(preview);
      confirm.disabled = false;
    } catch (e) {
      previewBox.replaceChildren();
      cancelError.textContent = errorText(e);
    } finally {
      previewAgain.disabled = false;
    }
  };

  run.cancel.addEventListener("click", () => {
    dialog.querySelector("[data-field=name]").textContent = details ? details.tournament.name : tid;
    cancelReason.value = reason.value;
    previewBox.replaceChildren(h("p.muted", {}, "Give the reason, then preview the refunds."));
    cancelError.textContent = "";
    confirm.disabled = true;
    dialog.showModal();
    if (cancelReason.value.trim()) previewRefunds();
  });
  dialog.querySelector("[data-action=close]").addEventListener("click", () => dialog.close(), { signal });
  previewAgain.addEventListener("click", previewRefunds, { signal });
  confirm.addEventListener("click", async () => {
    confirm.disabled = true;
    cancelError.textContent = "";
    try {
      const done = await room.request("director_cancel", { tournament: tid, reason: reasonOf(cancelReason), confirm: true });
      const paid = Object.values(done.refunds).reduce((sum, amount) => sum + amount, 0);
      const same = preview && JSON.stringify(Object.entries(done.refunds).sort())
        === JSON.stringify(Object.entries(preview.refunds).sort());
      dialog.close();
      runOut.classList.remove("error");
      runOut.classList.add("notice");
      runOut.textContent = `Cancelled under ${done.case}: ${Object.keys(done.refunds).length} refunds, ${cash(paid)} in all`
        + (same ? ", exactly as previewed." : ". The amounts changed after the preview: see the activity log.");
      later();
    } catch (e) {
      cancelError.textContent = errorText(e);
      confirm.disabled = false;
    }
  }, { signal });
  cancelReason.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      previewRefunds();
    }
  }, { signal });

  // ---- start
  const stopPushes = room.on("tournament_event", pushed);
  const ticker = setInterval(renderClock, 250);
  if (!ctx.subscribed.has(tid)) {
    ctx.subscribed.add(tid);
    room.request("tournament_subscribe", { tournament: tid, on: true }).catch(() => ctx.subscribed.delete(tid));
  }
  renderFeed();
  load();
  return () => {
    gone = true;
    stopPushes();
    later.cancel();
    clearInterval(ticker);
    stopping.abort();
    if (dialog.open) dialog.close();
  };
}
