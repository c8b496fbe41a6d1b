// A graphical replay of one of your own hands: its events as the server let you see them (your cards, the cards
// shown at the showdown; never another seat's mucked cards: the server never sends them), stepped through on a
// small drawn table -- seats, cards, bets, pots, board -- with first/previous/play/next/last buttons, the arrow
// keys, and a sentence for every step. Every card has a text alternative (its title and label).
import { cardElement, h } from "/static/common/format.js";
import { cards, cash, describeHandEvent } from "./describe.js";

const PLAY_MS = 900;

// The cards a seat shows in the replay: known cards face up, unknown ones (another seat's, unseen) face down.
function cardsOf(seat, holeCount) {
  if (seat.cards && seat.cards.length) return seat.cards.map((c) => labelled(cardElement(c)));
  if (seat.folded || !seat.dealt) return [];
  if (seat.mucked) return [h("span.rp-mucked", {}, "mucked")];        // lost unseen: the cards stay unknown
  return Array.from({ length: holeCount }, () => labelled(cardElement(null)));
}

function labelled(el) {
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", el.title);
  return el;
}

function cardWords(list) {
  return (list || []).map((c) => cardElement(c).title).join(", ");
}

// The table after each event worth a step: a list of {state, event} snapshots, the first once everyone is seated;
// the deal is one step ({step: "deal"}), not one per seat.
export function replaySteps(events) {
  const state = {
    seats: new Map(), board: [], board2: [], collected: 0, pots: [], button: null, maxSeats: 6,
    holeCount: 2, currency: "USD", handId: "", tableName: "", ended: false,
  };
  const steps = [];
  const snapshot = (event) => steps.push({ event, state: clone(state) });
  const collect = () => {
    for (const s of state.seats.values()) {
      state.collected += s.bet;
      s.bet = 0;
    }
  };
  let started = null;
  for (const e of events) {
    const seat = state.seats.get(e.seat);
    if (!steps.length && started && e.type !== "seat_dealt_in") snapshot(started);    // everyone seated
    switch (e.type) {
      case "hand_started":
        Object.assign(state, {
          button: e.button_seat, maxSeats: e.max_seats || 6, holeCount: e.hole_card_count || 2,
          currency: e.currency, handId: e.hand_id, tableName: e.table_name, smallBlind: e.small_blind,
          bigBlind: e.big_blind,
        });
        started = e;
        continue;
      case "seat_dealt_in":
        state.seats.set(e.seat, {
          seat: e.seat, player: e.player, stack: e.stack, bet: 0, folded: false, allIn: false, cards: [],
          dealt: false, shown: false, mucked: false, won: 0,
        });
        continue;
      case "posted":
        seat.stack = e.behind != null ? e.behind : seat.stack - e.added;
        seat.bet += e.added;
        seat.allIn = !!e.all_in;
        break;
      case "hole_cards_dealt":
        seat.dealt = true;
        seat.cards = e.cards || [];
        if (steps.length && steps[steps.length - 1].event.step === "deal") {
          steps[steps.length - 1].state = clone(state);            // the deal is one step, not one per seat
        } else snapshot({ step: "deal" });
        continue;
      case "action_taken":
        if (e.action === "fold") seat.folded = true;
        else {
          seat.stack = e.behind != null ? e.behind : seat.stack - e.added;
          seat.bet += e.added;
        }
        seat.allIn = !!e.all_in;
        break;
      case "bet_returned":
        seat.stack += e.amount;
        seat.bet -= e.amount;
        break;
      case "board_dealt":
        collect();
        if (e.run > 1) state.board2 = e.board;
        else state.board = e.board;
        break;
      case "cards_exposed":
      case "hand_shown":
        seat.cards = e.cards;
        seat.shown = true;
        break;
      case "hand_mucked":
        seat.mucked = true;
        if (e.cards && e.cards.length) seat.cards = e.cards;
        break;
      case "pot_formed":
        collect();
        state.pots.push({ pot: e.pot, amount: e.amount, awarded: false });
        if (steps.length && steps[steps.length - 1].event.type === "pot_formed") {
          steps[steps.length - 1].state = clone(state);
          continue;
        }
        break;
      case "pot_awarded": {
        e.seats.forEach((s, i) => {
          const winner = state.seats.get(s);
          winner.stack += e.shares[i];
          winner.won += e.shares[i];
        });
        const pot = state.pots.find((p) => p.pot === e.pot && !p.awarded);
        if (pot) pot.awarded = true;
        break;
      }
      case "hand_ended":
        collect();
        for (const [s, stack] of e.stacks || []) if (state.seats.has(s)) state.seats.get(s).stack = stack;
        state.ended = true;
        break;
      default:
        continue;                                   // run-it-twice questions and the like: no change to draw
    }
    snapshot(e);
  }
  if (!steps.length) snapshot({ step: "empty" });
  return steps;
}

function clone(state) {
  return {
    ...state, board: [...state.board], board2: [...state.board2], pots: state.pots.map((p) => ({ ...p })),
    seats: new Map([...state.seats].map(([k, s]) => [k, { ...s, cards: [...s.cards] }])),
  };
}

// Where seat ``seat`` sits around the oval (percent of the table's box), ours at the bottom centre.
function place(seat, mySeat, maxSeats) {
  const turn = ((seat - (mySeat || 1)) + maxSeats) % maxSeats;
  const angle = Math.PI / 2 + (2 * Math.PI * turn) / maxSeats;
  return { left: 50 + 41 * Math.cos(angle), top: 50 + 38 * Math.sin(angle) };
}

export class HandReplay {
  // hand: a hand_history entry; me: our nickname. The element is ``this.el``.
  constructor(hand, me) {
    this.hand = hand;
    this.me = me;
    this.steps = replaySteps(hand.events || []);
    const mine = this.steps[0].state.seats;
    this.mySeat = [...mine.values()].find((s) => s.player === me)?.seat;
    this.index = 0;
    this.timer = null;
    const id = hand.hand_id;
    this.table = h("div.replay-table", { "data-testid": `replay-table-${id}`, role: "group",
      "aria-label": `Table drawing of hand ${id}` });
    this.caption = h("p.replay-caption", { "data-testid": "replay-caption", "aria-live": "polite" });
    this.counter = h("span.replay-step", { "data-testid": "replay-step" });
    const button = (name, label, title, onclick) => h("button", { type: "button", "data-testid": `replay-${name}`,
      "aria-label": title, title, onclick }, label);
    this.play = button("play", "\u25b6 Play", "Play the hand step by step", () => this.toggle());
    this.controls = h("div.replay-controls", {},
      button("first", "\u00ab First", "First step", () => this.go(0)),
      button("prev", "\u25c0 Prev", "Previous step", () => this.go(this.index - 1)),
      this.play,
      button("next", "Next \u25b6", "Next step", () => this.go(this.index + 1)),
      button("last", "Last \u00bb", "Last step", () => this.go(this.steps.length - 1)),
      this.counter);
    this.el = h("section.replay", { "data-testid": `replay-${id}`, tabindex: "0",
      "aria-label": `Replay of hand ${id}`,
      onkeydown: (ev) => {
        if (ev.key === "ArrowRight") this.go(this.index + 1);
        else if (ev.key === "ArrowLeft") this.go(this.index - 1);
        else return;
        ev.preventDefault();
      } }, this.table, this.caption, this.controls);
    this.render();
  }

  go(index) {
    this.index = Math.max(0, Math.min(this.steps.length - 1, index));
    if (this.index === this.steps.length - 1) this.stop();
    this.render();
  }

  toggle() {
    if (this.timer) return this.stop();
    if (this.index === this.steps.length - 1) this.index = 0;
    this.timer = setInterval(() => this.go(this.index + 1), PLAY_MS);
    this.play.textContent = "\u23f8 Pause";
    this.render();
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.play.textContent = "\u25b6 Play";
  }

  render() {
    const { state, event } = this.steps[this.index];
    const m = (amount) => cash(amount, state.currency);
    const seats = [...state.seats.values()].map((s) => {
      const at = place(s.seat, this.mySeat, state.maxSeats);
      const cards = cardsOf(s, state.holeCount);
      const words = s.cards.length ? `cards ${cardWords(s.cards)}` : s.folded ? "folded"
        : s.mucked ? "mucked" : "cards not seen";
      const label = `Seat ${s.seat}, ${s.player}${s.seat === state.button ? ", dealer" : ""}, stack ${m(s.stack)}`
        + `, ${words}${s.bet ? `, bet ${m(s.bet)}` : ""}${s.won ? `, won ${m(s.won)}` : ""}`;
      const classes = ["rp-seat", s.player === this.me ? "me" : "", s.folded ? "folded" : "",
        s.won ? "won" : ""].filter(Boolean).join(".");
      const box = h(`div.${classes}`, {
        "data-testid": `replay-seat-${s.seat}`, dataset: { player: s.player, left: at.left.toFixed(1),
          top: at.top.toFixed(1) }, role: "img", "aria-label": label },
        h("span.rp-name", {}, s.player, s.seat === state.button ? h("b.rp-dealer", { title: "dealer" }, "D") : null),
        h("span.rp-cards", { "data-testid": `replay-cards-${s.seat}` }, cards),
        h("span.rp-stack", {}, s.allIn && s.stack === 0 ? "all-in" : m(s.stack)),
        s.bet ? h("span.rp-bet", { "data-testid": `replay-bet-${s.seat}` }, m(s.bet)) : null,
        s.won ? h("span.rp-won", {}, `+${m(s.won)}`) : null);
      box.style.left = `${at.left}%`;               // CSSOM, not a style attribute: the page's policy allows it
      box.style.top = `${at.top}%`;
      return box;
    });
    const pots = state.pots.length
      ? state.pots.filter((p) => !p.awarded).map((p) => `${p.pot === 0 ? "Pot" : `Side pot ${p.pot}`} ${m(p.amount)}`)
      : state.collected ? [`Pot ${m(state.collected)}`] : [];
    const board = (list, id) => h("div.rp-board", { "data-testid": id,
      "aria-label": list.length ? `Board: ${cardWords(list)}` : "No board yet" },
      list.map((c) => labelled(cardElement(c))));
    const centre = h("div.rp-centre", {},
      board(state.board, "replay-board"), state.board2.length ? board(state.board2, "replay-board-2") : null,
      h("div.rp-pot", { "data-testid": "replay-pot" }, pots.join(" \u00b7 ")));
    this.table.replaceChildren(h("div.rp-felt", {}), centre, ...seats);
    const name = (seat) => (state.seats.get(seat) || {}).player || `seat ${seat}`;
    const mine = state.seats.get(this.mySeat);
    const line = event.step === "deal"
      ? ["The cards are dealt", ...(mine && mine.cards.length ? ["; yours: ", cards(mine.cards)] : [])]
      : describeHandEvent(event, { name, currency: state.currency, verbose: true });
    this.caption.replaceChildren(...(line || [""]));
    this.counter.textContent = `Step ${this.index + 1} of ${this.steps.length}`;
    this.el.dataset.step = String(this.index);
    this.el.dataset.event = event.type || event.step;
  }

  close() {
    this.stop();
    this.el.remove();
  }
}
