// A live casino table (#casino/<id>): join it, follow its rounds from the casino_events pushes, bet with chips on
// the game's board (casino-roulette.js, casino-cards.js), answer blackjack's decisions, read the results and see the
// wallet follow every stake and payout. The board of each game is a module with board(view) and a label per market.
import { clock, h } from "/static/common/format.js";
import { cash } from "./describe.js";
import { BOARDS } from "./casino-boards.js";
import { late } from "./casino-cards.js";

const CHIPS = [100, 500, 2500, 10000, 50000, 100000];      // minor units: $1, $5, $25, $100, $500, $1,000
const PHASES = { betting: "Place your bets", dealing: "No more bets", deciding: "Players decide",
                 waiting: "Waiting for a player", settled: "Round over" };

export function playable(game) {
  return Boolean(BOARDS[game]);
}

export class CasinoView {
  constructor(app) {
    this.app = app;
    this.root = document.getElementById("casino-view");
    this.tableId = null;
    this.ticker = null;
    this.fresh = new WeakMap();      // a hand's cards -> Map(position -> deal order) for those the last push dealt
  }

  // ------------------------------------------------------------ opening and leaving

  async open(tableId) {
    if (this.tableId === tableId && this.joined) {
      clearInterval(this.ticker);
      this.ticker = setInterval(() => this.tick(), 500);
      this.render();
      return;
    }
    this.tableId = tableId;
    this.joined = false;
    this.rules = null;
    this.error = "";
    this.chip = null;
    this.reset(0);
    this.results = [];
    this.log = [];
    this.root.replaceChildren(h("p.muted", {}, "Joining the table\u2026"));
    try {
      const [rules, listed] = await Promise.all([
        this.app.room.request("casino_rules", { table: tableId }),
        this.app.room.request("casino_list"),
      ]);
      this.rules = rules;
      this.summary = (listed.tables || []).find((t) => t.table === tableId) || { name: tableId };
      const view = await this.app.room.request("casino_join", { table: tableId });
      this.joined = true;
      this.applyView(view);
    } catch (e) {
      this.root.replaceChildren(h("p.error", { "data-testid": "casino-error", role: "alert" }, e.text || e.message),
        h("a", { href: "#lobby" }, "Back to the lobby"));
      this.tableId = null;
      return;
    }
    const chips = this.chips();
    this.chip = chips[Math.min(1, chips.length - 1)] || this.rules.limits.default[0];
    clearInterval(this.ticker);
    this.ticker = setInterval(() => this.tick(), 500);
    this.render();
  }

  async leave() {
    if (!this.tableId) return;
    try {
      await this.app.room.request("casino_leave", { table: this.tableId });
    } catch (e) {
      this.error = e.text || e.message;       // a bet in play keeps you at the table (CR-2, CR-6)
      this.render();
      return;
    }
    this.forget();
    this.app.go("#lobby");
  }

  forget() {
    clearInterval(this.ticker);
    this.ticker = null;
    this.tableId = null;
    this.joined = false;
  }

  leaveView() {
    if (this.tableId && document.body.dataset.view !== "casino-view") clearInterval(this.ticker);
  }

  get game() {
    return this.rules ? this.rules.game : null;
  }

  get currency() {
    return (this.rules && this.rules.currency) || "USD";
  }

  money(amount) {
    return cash(amount, this.currency);
  }

  // A new round (or none yet): nothing staked, no cards, no ball.
  reset(number) {
    this.round = number;
    this.phase = "betting";
    this.bets = new Map();           // market (and odds, Bet on Baccarat) -> {market, amount, odds}: yours this round
    this.staked = 0;                 // every stake of this round: bets, doubles, splits, insurance
    this.returned = null;            // the payouts' total once the round settled
    this.payouts = [];
    this.cards = { player: [], banker: [], dealer: [] };
    this.seatHands = {};             // live blackjack: seat -> [[cards], [cards]]
    this.myHands = null;             // infinite blackjack: your hands once you decided
    this.active = 0;
    this.pocket = null;
    this.result = "";
    this.decision = null;            // {id, moves, phase, hand}
    this.deadline = null;
    this.window = 0;
    this.odds = {};
    this.closed = new Set();
  }

  // The table's view (casino_join's answer, or casino_state after a reconnection, CR-6).
  applyView(view) {
    if (view.round !== this.round) this.reset(view.round);
    this.phase = view.phase;
    this.results = view.results || [];
    this.bets = new Map();
    for (const b of view.bets || []) this.keep(b);
    if (!this.staked) this.staked = [...this.bets.values()].reduce((a, b) => a + b.amount, 0);
    this.seats = view.seats || this.seats || {};
    if (view.dealer) this.cards.dealer = view.dealer;
    if (view.hands && !Array.isArray(view.hands)) {       // live blackjack: every player's hands
      const bySeat = {};
      for (const [seat, player] of Object.entries(this.seats)) {
        if (view.hands[player]) bySeat[seat] = view.hands[player];
      }
      this.seatHands = bySeat;
    } else if (view.hands) {
      this.myHands = view.hands;
      this.active = view.active || 0;
    }
    if (view.first_two) this.cards.player = view.first_two;
    if (view.shown) this.cards.shown = view.shown;
    if (view.odds) this.odds = view.odds;
    if (view.window != null) this.window = view.window;
    if ("decision" in view && view.decision == null) this.decision = null;
    else if (view.decision && (!this.decision || this.decision.id !== view.decision)) {
      this.decision = { id: view.decision, moves: ["hit", "stand"], phase: "play", hand: this.active };
    }
  }

  // ------------------------------------------------------------ the pushes

  onState(message) {
    if (message.table !== this.tableId) return;
    this.applyView(message);
    this.render();
  }

  onEvents(message) {
    if (message.table !== this.tableId) {
      if (message.events.some((e) => e.type === "payout" || e.type === "refund")) this.app.refreshBalance();
      return;
    }
    let settled = false;
    this.dealt = 0;
    for (const e of message.events) settled = this.onEvent(e) || settled;
    if (settled) this.app.refreshBalance();
    this.render();
  }

  onEvent(e) {
    const me = this.app.me && this.app.me.nickname;
    switch (e.type) {
      case "round_opened":
        if (e.round !== this.round || e.window === 1) this.reset(e.round);
        this.phase = "betting";
        this.window = e.window;
        this.deadline = Date.now() + e.seconds * 1000;
        this.odds = Object.fromEntries(e.odds || []);
        this.closed = new Set(e.closed_markets || []);
        break;
      case "betting_closed":
        this.phase = "dealing";
        this.deadline = null;
        break;
      case "card_dealt": {
        if (e.round !== this.round) break;
        let cards;
        if (e.to === "hand") {
          const hands = this.seatHands[e.index] || (this.seatHands[e.index] = [[]]);
          cards = hands[e.hand || 0] || (hands[e.hand || 0] = []);
        } else {
          cards = this.cards[e.to] || (this.cards[e.to] = []);
        }
        cards.push(e.card);
        if (!this.fresh.has(cards)) this.fresh.set(cards, new Map());
        this.fresh.get(cards).set(cards.length - 1, this.dealt++);
        break;
      }
      case "hole_card_revealed": {
        const i = this.cards.dealer.indexOf(null);
        if (i >= 0) this.cards.dealer[i] = e.card;
        else this.cards.dealer.push(e.card);
        break;
      }
      case "ball_landed":
        this.pocket = e.pocket;
        this.say(`The ball landed on ${e.pocket} ${e.colour}.`);
        break;
      case "decision_needed":
        this.phase = "deciding";
        if (e.who === me || (e.who === "" && this.staked > 0)) {
          this.decision = { id: e.decision, moves: e.moves, phase: e.phase, hand: e.hand || 0,
                            deadline: Date.now() + e.seconds * 1000 };
          this.active = e.hand || 0;
        } else {
          this.decision = null;
          this.turn = e.who;
        }
        break;
      case "decided":
        if (e.player === me) {
          if (this.game === "infinite_blackjack" && e.cards && e.cards.length) {
            this.myHands = this.myHands || [this.cards.player.slice()];
            this.myHands[e.hand || 0] = e.cards;
          }
          const word = { no_insurance: "decline insurance", insurance: "take insurance" }[e.move] || e.move;
          this.say(`You ${word}${e.auto ? ` (${e.auto.replace(/_/g, " ")})` : ""}.`);
        }
        break;
      case "staked":
        if (e.player === me && e.round === this.round) this.staked += e.amount;
        break;
      case "round_settled":
        this.phase = "settled";
        this.decision = null;
        this.deadline = null;
        this.result = e.result;
        this.results = [...this.results, [e.round, e.result]].slice(-20);
        this.returned = this.returned || 0;
        this.say(`Round ${e.round}: ${e.result}.`);
        return true;
      case "payout":
        if (e.round === this.round) {
          this.payouts.push(e);
          this.returned = (this.returned || 0) + e.returned;
        }
        return true;
      case "round_voided":
        this.phase = "settled";
        this.decision = null;
        this.result = `voided: ${e.reason}`;
        this.say(`Round ${e.round} was voided (${e.reason}); every stake is refunded (CR-5).`);
        return true;
      case "refund":
        this.returned = (this.returned || 0) + e.amount;
        return true;
      case "round_waiting":
        this.phase = "waiting";
        this.say(`Waiting for ${e.player} to come back.`);
        break;
      case "shoe_shuffled":
        this.say(`A new shoe of ${e.decks} decks${e.shown != null ? "" : ""}; ${e.burned} burned.`);
        break;
      case "last_round":
        this.say("The cut card came out: this is the shoe's last round.");
        break;
      default:
        break;
    }
    return false;
  }

  say(text) {
    this.log = [...this.log, text].slice(-30);
  }

  // ------------------------------------------------------------ what a player does

  chips() {
    const [low, high] = this.rules.limits.default;
    const fit = CHIPS.filter((c) => c >= low && c <= high);
    return fit.length ? fit : [low];
  }

  limitOf(market) {
    const limits = this.rules.limits;
    const kind = market.split(":")[0];
    return limits[market] || limits[kind] || limits.default;
  }

  async bet(market, extra = {}) {
    if (!this.chip) return;
    try {
      const answer = await this.app.room.request("casino_bet", { table: this.tableId, market, amount: this.chip,
                                                                  ...extra });
      this.keep(answer, this.window);
      this.error = "";
      if (answer.balance != null && this.app.me) {
        this.app.me.balance = answer.balance;
        this.app.showBalance();
      }
      this.say(`You bet ${this.money(this.chip)} on ${this.label(answer.market)}`
               + `${answer.odds ? ` at ${(answer.odds / 100).toFixed(2)}` : ""}.`);
    } catch (e) {
      this.error = e.text || e.message;
    }
    this.render();
  }

  // A bet as the room holds it: one per market, or per market and odds at Bet on Baccarat (BOB-2: a bet in a
  // later betting round is a bet of its own at its own odds); amount is the room's total for it.
  // Two rounds' bets at the same odds are two bets of the room's: their amounts are kept apart by window.
  keep(b, window = 0) {
    const key = b.odds != null ? `${b.market}-at-${b.odds}` : b.market;
    const was = this.bets.get(key);
    const byWindow = { ...(was ? was.byWindow : {}), [window]: b.amount };
    const amount = Object.values(byWindow).reduce((x, y) => x + y, 0);
    this.bets.set(key, { market: b.market, amount, odds: b.odds, byWindow });
  }

  // What you have on a market this round, every betting round's bets together.
  betOn(market) {
    return [...this.bets.values()].filter((b) => b.market === market).reduce((a, b) => a + b.amount, 0);
  }

  async decide(move) {
    const d = this.decision;
    if (!d) return;
    this.decision = null;
    try {
      const answer = await this.app.room.request("casino_decide", { table: this.tableId, move, decision: d.id,
                                                                     hand: d.hand });
      this.error = "";
      if (answer.decision && (!this.decision || this.decision.id !== answer.decision)) {
        // Infinite blackjack: you go on alone; a fresh view says which hand is in play and what it holds.
        const view = await this.app.room.request("casino_join", { table: this.tableId });
        this.applyView(view);
        if (!this.decision || this.decision.id !== answer.decision) {
          this.decision = { id: answer.decision, moves: ["hit", "stand"], phase: "play", hand: this.active,
                            deadline: d.deadline };
        }
      }
      this.app.refreshBalance();                // a double, a split or insurance staked more
    } catch (e) {
      this.error = e.text || e.message;
      if (e.code !== "stale_decision") this.decision = d;
    }
    this.render();
  }

  async sit(seat) {
    try {
      const view = await this.app.room.request("casino_join", { table: this.tableId, seat });
      this.error = "";
      this.applyView(view);
    } catch (e) {
      this.error = e.text || e.message;
    }
    this.render();
  }

  label(market) {
    const board = BOARDS[this.game];
    return (board && board.label(market)) || market.replace(/_/g, " ");
  }

  // ------------------------------------------------------------ drawing

  tick() {
    const left = this.root.querySelector("[data-countdown]");
    if (left && this.deadline) left.textContent = clock((this.deadline - Date.now()) / 1000);
    const d = this.root.querySelector("[data-decision-clock]");
    if (d && this.decision && this.decision.deadline) {
      d.textContent = clock((this.decision.deadline - Date.now()) / 1000);
    }
  }

  render() {
    if (!this.tableId || !this.rules || document.body.dataset.view !== "casino-view") return;
    const focused = document.activeElement && this.root.contains(document.activeElement)
      ? document.activeElement.dataset.testid : null;
    const board = BOARDS[this.game];
    const me = this.app.me && this.app.me.nickname;
    const mySeat = Object.entries(this.seats || {}).find(([, p]) => p === me);
    const betting = this.phase === "betting";
    const chips = h("div.casino-chips", { role: "radiogroup", "aria-label": "chip value" },
      this.chips().map((c) => h(`button.chip-button${c === this.chip ? ".chosen" : ""}`, {
        type: "button", role: "radio", "aria-checked": String(c === this.chip), "data-testid": `chip-${c}`,
        "aria-label": `chip of ${this.money(c)}`, onclick: () => { this.chip = c; this.render(); },
      }, this.money(c))));
    const myBets = [...this.bets].map(([key, b]) => h("li", { "data-testid": `casino-bet-${key}` },
      `${this.label(b.market)}${b.odds != null ? ` at ${(b.odds / 100).toFixed(2)}` : ""}: ${this.money(b.amount)}`));
    const paid = this.payouts.map((p) => h("li", {}, `${this.label(p.market)}: staked ${this.money(p.staked)}, `
      + `back ${this.money(p.returned)} (${p.detail})`));
    const decision = this.decision ? h("div.casino-decision", {
      "data-testid": "casino-decision", "data-decision": this.decision.id, role: "group",
      "aria-label": "your decision" },
      h("span", {}, this.decision.phase === "insurance" ? "Insurance?" : `Your hand${this.handCount() > 1
        ? ` ${this.decision.hand + 1}` : ""}: `, h("span.muted", { "data-decision-clock": "" })),
      this.decision.moves.map((m) => h("button.primary", { type: "button", "data-testid": `casino-move-${m}`,
                                                           onclick: () => this.decide(m) },
        m === "no_insurance" ? "No insurance" : m[0].toUpperCase() + m.slice(1)))) : null;
    this.root.replaceChildren(
      h("div.casino-head", {},
        h("h2", { "data-testid": "casino-title" }, this.summary.name || this.tableId),
        h("span.muted", {}, `${this.rules.name || this.game} \u00b7 bets ${this.money(this.rules.limits.default[0])}`
          + ` \u2013 ${this.money(this.rules.limits.default[1])}`),
        h("span.spacer"),
        h("button", { type: "button", "data-testid": "casino-leave", onclick: () => this.leave() }, "Leave")),
      h("div.casino-status", { "data-testid": "casino-status", role: "status" },
        h("strong", {}, `Round ${this.round}`), " \u00b7 ",
        h("span", { "data-testid": "casino-phase" }, PHASES[this.phase] || this.phase),
        this.window > 1 ? ` (window ${this.window})` : "",
        betting && this.deadline ? h("span.countdown", { "data-countdown": "" }) : null,
        this.turn && this.phase === "deciding" && !this.decision ? ` \u00b7 ${this.turn} to act` : ""),
      h("div.casino-main", {},
        h("div.casino-board", { "data-testid": "casino-board" }, board.board(this, { betting, mySeat })),
        h("div.casino-controls", {}, chips, decision,
          h("p.error", { "data-testid": "casino-error", role: "alert" }, this.error)),
        h("aside.casino-side", {},
          h("div.casino-round panel", { "data-testid": "casino-round" },
            h("h3", {}, "This round"),
            myBets.length ? h("ul.compact", {}, myBets) : h("p.muted", {}, betting ? "Tap the board to bet."
              : "No bets from you."),
            h("p", {}, "Staked: ", h("strong", { "data-testid": "casino-staked" }, this.money(this.staked))),
            // the result once the cards the push dealt have come in
            this.result ? late(h("div", {},
              h("p", {}, "Result: ", h("strong", { "data-testid": "casino-result" }, this.result)),
              this.returned != null ? h("p", {}, "Paid back: ",
                h("strong", { "data-testid": "casino-returned" }, this.money(this.returned))) : null,
              paid.length ? h("ul.compact", { "data-testid": "casino-payouts" }, paid) : null),
            this.dealt ? this.dealt - 1 : null) : null),
          h("div.casino-history panel", {},
            h("h3", {}, "Last results"),
            h("ol.casino-results", { "data-testid": "casino-results", reversed: true },
              [...this.results].reverse().slice(0, 12).map(([n, r]) => h("li", {}, `#${n} ${r}`)))),
          h("div.casino-log panel", {},
            h("h3", {}, "Table log"),
            h("ol.compact", { "data-testid": "casino-log" }, this.log.slice(-8).map((line) => h("li", {}, line)))))));
    this.fresh = new WeakMap();      // drawn once: a later drawing shows them in place
    this.dealt = 0;
    if (focused) {
      const again = this.root.querySelector(`[data-testid="${CSS.escape(focused)}"]`);
      if (again) again.focus();
    }
    this.tick();
  }

  handCount() {
    return this.myHands ? this.myHands.length : 1;
  }
}
