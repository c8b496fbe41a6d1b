// Your own hand history: the hands you played, newest first, each with its events as sentences and cards drawn.
import { h, when } from "/static/common/format.js";
import { cash, cards, describeHandEvent } from "./describe.js";

export class HistoryView {
  constructor(app) {
    this.app = app;
    document.getElementById("history-refresh").addEventListener("click", () => this.show());
  }

  async show() {
    const list = document.getElementById("history-list");
    const error = document.getElementById("history-error");
    error.textContent = "";
    list.replaceChildren(h("p.muted", {}, "Loading your hands\u2026"));
    let answer;
    try {
      answer = await this.app.room.request("hand_history", { limit: 50 });
    } catch (e) {
      error.textContent = e.text || e.message;
      list.replaceChildren();
      return;
    }
    const hands = answer.hands || [];
    if (!hands.length) {
      list.replaceChildren(h("p.muted", { "data-testid": "history-empty" },
        "No hands yet. Sit at a table and your hands will be listed here."));
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
    const result = hand.end != null && hand.start != null ? hand.end - hand.start : null;
    const ctx = { name: (seat) => players.get(seat) || `seat ${seat}`, currency, verbose: true };
    const lines = events.map((e) => describeHandEvent(e, ctx)).filter(Boolean)
      .map((parts) => h("li", {}, parts));
    if (!lines.length) lines.push(h("li.muted", {}, "This hand is still being played."));
    const showdown = events.some((e) => e.type === "hand_shown");
    const summary = h("summary", {},
      h("span.h-when", {}, when(hand.started_at)),
      h("span.h-id", {}, `${started.table_name || hand.table} \u00b7 ${hand.hand_id}`),
      h("span.h-stakes", {}, started.variant ? `${started.variant} ${cash(started.small_blind, currency)}/`
        + `${cash(started.big_blind, currency)}` : ""),
      h("span.h-mine", {}, mine && mine.cards.length ? cards(mine.cards) : null),
      h("span.h-board", {}, board.length ? cards(board) : h("span.muted", {}, hand.ended_at == null ? "" : "no flop")),
      hand.ended_at == null ? h("span.tag", {}, "playing") : showdown ? h("span.tag", {}, "showdown") : h("span"),
      hand.void ? h("span.tag.bad", {}, "void") : null,
      h(`span.h-net${result > 0 ? ".up" : result < 0 ? ".down" : ""}`, { "data-testid": `history-net-${hand.hand_id}` },
        result == null ? "" : (result > 0 ? "+" : "") + cash(result, currency)));
    const el = h("details.hand", { "data-testid": `history-hand-${hand.hand_id}`, dataset: { hand: hand.hand_id } },
      summary, h("ol.events", { "data-testid": `history-events-${hand.hand_id}` }, lines));
    if (first) el.open = true;
    return el;
  }
}
