// Your own hand history: the hands you played, newest first, each with its events as sentences and cards drawn;
// filters (game and stakes, cash or tournament, since a date or the last N, won or lost), a replay of a hand on a
// drawn table (hand-replay.js), and an export of the hands shown (or one) as PokerStars text for the trackers.
import { h, when } from "/static/common/format.js";
import { cash, cards, describeHandEvent } from "./describe.js";
import { HandReplay } from "./hand-replay.js";

const PAGE = 50;
const STYLE = "/static/player/history.css";

// The hand's game and stakes as the filter names them: "NLHE $0.05/$0.10", "NLHE 20/40 tournament".
function stakesOf(hand) {
  const started = (hand.events || []).find((e) => e.type === "hand_started");
  if (!started) return "";
  const stakes = `${cash(started.small_blind, started.currency)}/${cash(started.big_blind, started.currency)}`;
  return `${started.variant} ${stakes}${hand.tournament ? " tournament" : ""}`;
}

function resultOf(hand) {
  return hand.end != null && hand.start != null ? hand.end - hand.start : null;
}

// A hand's result as a person reads it: money at a cash table, chips (so named) in a tournament.
function resultText(hand, currency) {
  const result = resultOf(hand);
  if (result == null) return "";
  const sign = result > 0 ? "+" : "";
  return hand.tournament ? `${sign}${result.toLocaleString("en")} chips` : sign + cash(result, currency);
}

export class HistoryView {
  constructor(app) {
    this.app = app;
    this.hands = [];
    this.next = null;
    this.replays = new Map();
    document.getElementById("history-refresh").addEventListener("click", () => this.show());
    if (!document.querySelector(`link[href="${STYLE}"]`)) {
      document.head.append(h("link", { rel: "stylesheet", href: STYLE }));
    }
    this.filters = {
      game: h("select", { "data-testid": "history-filter-game", "aria-label": "Game and stakes" }),
      kind: h("select", { "data-testid": "history-filter-kind", "aria-label": "Cash or tournament" },
        h("option", { value: "" }, "Cash and tournaments"), h("option", { value: "cash" }, "Cash games"),
        h("option", { value: "tournament" }, "Tournaments")),
      result: h("select", { "data-testid": "history-filter-result", "aria-label": "Won or lost" },
        h("option", { value: "" }, "Won or lost"), h("option", { value: "won" }, "Won"),
        h("option", { value: "lost" }, "Lost")),
      since: h("input", { type: "date", "data-testid": "history-filter-since", "aria-label": "Since date" }),
      last: h("input", { type: "number", min: "1", max: "500", placeholder: "all",
        "data-testid": "history-filter-last", "aria-label": "Last N hands" }),
    };
    for (const el of Object.values(this.filters)) {
      el.addEventListener("change", () => this.filtered());
      el.addEventListener("input", () => this.filtered());
    }
    this.count = h("span.muted", { "data-testid": "history-count", "aria-live": "polite" });
    this.exportButton = h("button", { type: "button", "data-testid": "history-export",
      title: "Download the hands shown as PokerStars text (Hold'em Manager, PokerTracker)",
      onclick: () => this.download(this.shown(), "hands") }, "Export shown (PokerStars)");
    this.more = h("button.hidden", { type: "button", "data-testid": "history-more", onclick: () => this.load(true) },
      "Load older hands");
    const label = (text, el) => h("label.hf", {}, h("span", {}, text), el);
    const bar = h("div.history-filters", { "data-testid": "history-filters", role: "search" },
      label("Game", this.filters.game), label("Type", this.filters.kind), label("Result", this.filters.result),
      label("Since", this.filters.since), label("Last", this.filters.last), this.count, this.exportButton);
    const list = document.getElementById("history-list");
    list.before(bar);
    list.after(this.more);
  }

  async show() {
    this.hands = [];
    this.next = null;
    await this.load(false);
  }

  async load(older) {
    const list = document.getElementById("history-list");
    const error = document.getElementById("history-error");
    error.textContent = "";
    if (!older) list.replaceChildren(h("p.muted", {}, "Loading your hands\u2026"));
    let answer;
    try {
      const fields = { limit: PAGE, pokerstars: true };
      if (older && this.next != null) fields.before = this.next;
      answer = await this.app.room.request("hand_history", fields);
    } catch (e) {
      error.textContent = e.text || e.message;
      if (!older) list.replaceChildren();
      return;
    }
    this.hands = older ? [...this.hands, ...(answer.hands || [])] : answer.hands || [];
    this.next = answer.next;
    this.more.classList.toggle("hidden", this.next == null);
    this.fillGames();
    this.render();
  }

  fillGames() {
    const select = this.filters.game;
    const chosen = select.value;
    const games = [...new Set(this.hands.map(stakesOf).filter(Boolean))].sort();
    select.replaceChildren(h("option", { value: "" }, "All games"),
      ...games.map((g) => h("option", { value: g }, g)));
    select.value = games.includes(chosen) ? chosen : "";
  }

  // The hands the filters let through, newest first.
  shown() {
    const f = this.filters;
    const since = f.since.value ? Date.parse(`${f.since.value}T00:00:00`) / 1000 : null;
    let hands = this.hands.filter((hand) => {
      if (f.game.value && stakesOf(hand) !== f.game.value) return false;
      if (f.kind.value === "cash" && hand.tournament) return false;
      if (f.kind.value === "tournament" && !hand.tournament) return false;
      const result = resultOf(hand);
      if (f.result.value === "won" && !(result > 0)) return false;
      if (f.result.value === "lost" && !(result < 0)) return false;
      return since == null || hand.started_at >= since;
    });
    const last = parseInt(f.last.value, 10);
    if (last > 0) hands = hands.slice(0, last);
    return hands;
  }

  // The list again when a filter changed (an input's change after its input events changes nothing: an open
  // replay stays open).
  filtered() {
    const key = JSON.stringify(Object.values(this.filters).map((el) => el.value));
    if (key === this.key) return;
    this.render();
  }

  render() {
    this.key = JSON.stringify(Object.values(this.filters).map((el) => el.value));
    const list = document.getElementById("history-list");
    for (const replay of this.replays.values()) replay.stop();
    this.replays.clear();
    if (!this.hands.length) {
      this.count.textContent = "";
      list.replaceChildren(h("p.muted", { "data-testid": "history-empty" },
        "No hands yet. Sit at a table and your hands will be listed here."));
      return;
    }
    const hands = this.shown();
    const exportable = hands.filter((hand) => hand.pokerstars);
    this.count.textContent = `${hands.length} of ${this.hands.length} hands shown`;
    this.exportButton.disabled = !exportable.length;
    if (!hands.length) {
      list.replaceChildren(h("p.muted", { "data-testid": "history-none-shown" }, "No hand matches these filters."));
      return;
    }
    const first = hands.find((hand) => hand.ended_at != null);
    list.replaceChildren(...hands.map((hand) => this.hand(hand, hand === first)));
  }

  hand(hand, first) {
    const me = this.app.me && this.app.me.nickname;
    const events = hand.events || [];
    const started = events.find((e) => e.type === "hand_started") || {};
    const currency = started.currency;
    const players = new Map();
    for (const e of events) if (e.type === "seat_dealt_in") players.set(e.seat, e.player);
    const mySeat = [...players].find(([, p]) => p === me);
    const mine = mySeat ? events.find((e) => e.type === "hole_cards_dealt" && e.seat === mySeat[0]) : null;
    const board = events.filter((e) => e.type === "board_dealt" && e.run === 1).map((e) => e.board).pop() || [];
    const result = resultOf(hand);
    const ctx = { name: (seat) => players.get(seat) || `seat ${seat}`, currency, verbose: true };
    const lines = events.map((e) => describeHandEvent(e, ctx)).filter(Boolean)
      .map((parts) => h("li", {}, parts));
    if (!lines.length) lines.push(h("li.muted", {}, "This hand is still being played."));
    const showdown = events.some((e) => e.type === "hand_shown");
    const stakes = started.variant ? `${started.variant} ${cash(started.small_blind, currency)}/`
      + `${cash(started.big_blind, currency)}` : "";
    const summary = h("summary", {},
      h("span.h-when", {}, when(hand.started_at)),
      h("span.h-id", {}, `${started.table_name || hand.table} \u00b7 ${hand.hand_id}`),
      h("span.h-stakes", {}, hand.tournament ? `${stakes} \u00b7 tournament` : stakes),
      h("span.h-mine", {}, mine && mine.cards.length ? cards(mine.cards) : null),
      h("span.h-board", {}, board.length ? cards(board) : h("span.muted", {}, hand.ended_at == null ? "" : "no flop")),
      hand.ended_at == null ? h("span.tag", {}, "playing") : showdown ? h("span.tag", {}, "showdown") : h("span"),
      hand.void ? h("span.tag.bad", {}, "void") : null,
      h(`span.h-net${result > 0 ? ".up" : result < 0 ? ".down" : ""}`, { "data-testid": `history-net-${hand.hand_id}` },
        resultText(hand, currency)));
    const tools = h("div.hand-tools", {},
      hand.number != null ? h("span.muted", { "data-testid": `history-number-${hand.hand_id}` },
        `Hand #${hand.number}`) : null,
      hand.ended_at != null ? h("button", { type: "button", "data-testid": `history-replay-${hand.hand_id}`,
        onclick: () => this.replay(hand, el) }, "Replay") : null,
      hand.pokerstars ? h("button", { type: "button", "data-testid": `history-export-${hand.hand_id}`,
        title: "Download this hand as PokerStars text",
        onclick: () => this.download([hand], `hand-${hand.number}`) }, "Export") : null);
    const el = h("details.hand", { "data-testid": `history-hand-${hand.hand_id}`, dataset: { hand: hand.hand_id } },
      summary, tools, h("ol.events", { "data-testid": `history-events-${hand.hand_id}` }, lines));
    if (first) el.open = true;
    return el;
  }

  replay(hand, el) {
    const open = this.replays.get(hand.hand_id);
    if (open) {
      open.close();
      this.replays.delete(hand.hand_id);
      return;
    }
    const replay = new HandReplay(hand, this.app.me && this.app.me.nickname);
    const close = h("button.replay-close", { type: "button", "data-testid": "replay-close",
      onclick: () => this.replay(hand, el) }, "Close replay");
    replay.controls.append(close);
    this.replays.set(hand.hand_id, replay);
    el.open = true;
    el.querySelector(".hand-tools").after(replay.el);
    replay.el.focus({ preventScroll: true });
    replay.el.scrollIntoView({ block: "nearest" });
  }

  // The hands' PokerStars text as a file (hands apart by blank lines, as PokerStars writes its files).
  download(hands, name) {
    const text = hands.map((hand) => hand.pokerstars).filter(Boolean).join("\n\n\n");
    if (!text) return;
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const link = h("a", { href: url, download: `${name}.txt` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}
