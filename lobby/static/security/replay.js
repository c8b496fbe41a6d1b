// The replay of one ended hand (SEC-4): every player's hole cards, the board, each action in order with its
// amount, the pots and who won them, and the chat lines written while it ran. The step control replays it action
// by action: stacks, bets, the pot and the board as they stood after the highlighted line.

import { h, cardElement } from "../common/format.js";
import { cash, describeHandEvent } from "../player/describe.js";
import {
  Refusal, act, badge, caseLink, errorText, outcome, playerLink, shortWhen,
} from "./ui.js";

// The hand's events as steps: the lines a person reads, each with the index of its event in the hand.
function stepsOf(events, ctx) {
  const steps = [];
  events.forEach((e, index) => {
    const parts = describeHandEvent(e, ctx);
    if (parts) steps.push({ index, e, parts });
  });
  return steps;
}

// The table after the events up to `last` (an index into events): stacks, bets, folds, pot, boards.
export function tableAt(events, last) {
  const seats = new Map();
  const boards = new Map();
  let pot = 0;
  let acting = null;
  for (let i = 0; i <= last && i < events.length; i++) {
    const e = events[i];
    const seat = e.seat != null ? seats.get(e.seat) : undefined;
    acting = e.seat != null ? e.seat : null;
    switch (e.type) {
      case "seat_dealt_in":
        seats.set(e.seat, { stack: e.stack, bet: 0, folded: false, won: 0 });
        break;
      case "posted":             // every chip-moving event says the seat's bet, its stack and the pot after it
      case "action_taken":
      case "bet_returned":
        if (seat) {
          seat.stack = e.behind;
          seat.bet = e.to;
          if (e.action === "fold") seat.folded = true;
        }
        pot = e.pot;
        break;
      case "board_dealt":
        boards.set(e.run, e.board);
        for (const s of seats.values()) s.bet = 0;
        break;
      case "pot_formed":
        for (const s of seats.values()) s.bet = 0;
        break;
      case "pot_awarded":
        e.seats.forEach((s, k) => {
          const won = seats.get(s);
          if (won) { won.stack += e.shares[k]; won.won += e.shares[k]; }
        });
        pot -= e.amount;
        break;
      case "hand_ended":
        pot -= e.rake || 0;
        break;
      default:
        break;
    }
  }
  return { seats, boards, pot: Math.max(0, pot), acting };
}

function cardsOf(list, testid) {
  const el = h("span.cards", testid ? { "data-testid": testid } : {});
  for (const card of list || []) el.append(cardElement(card));
  return el;
}

function signed(amount, currency) {
  if (amount == null) return "";
  return (amount > 0 ? "+" : "") + cash(amount, currency);
}

export function mount(ctx, container, { param: handId }) {
  const status = outcome("replay-error");
  container.append(h("section", { "data-testid": "replay" },
    h("div.panel-head", {}, h("a.back", { href: "#/hands", "data-testid": "back-to-hands" }, "\u2190 Hands"),
      h("h2", { "data-testid": "replay-title" }, `Hand ${handId}`), status)));
  if (!handId) {
    status.textContent = "No hand chosen: pick one from the search.";
    return null;
  }
  act(null, status, async () => {
    const answer = await ctx.room.request("security_hand", { hand_id: handId });
    render(ctx, container.querySelector("[data-testid=replay]"), answer.hand);
  });
  return null;
}

function render(ctx, root, hand) {
  const events = hand.events || [];
  const started = events.find((e) => e.type === "hand_started") || {};
  const currency = started.currency ?? "USD";
  const m = (amount) => cash(amount, currency);
  const names = new Map(events.filter((e) => e.type === "seat_dealt_in").map((e) => [e.seat, e.player]));
  const nameCtx = { name: (seat) => names.get(seat) || `seat ${seat}`, currency, verbose: true };
  const steps = stepsOf(events, nameCtx);
  const hole = new Map();
  for (const e of events) {
    if ((e.type === "hole_cards_dealt" || e.type === "hand_shown" || e.type === "hand_mucked"
      || e.type === "cards_exposed") && e.cards && e.cards.length && !(hole.get(e.seat) || []).length) {
      hole.set(e.seat, e.cards);
    }
  }
  const shown = new Set(events.filter((e) => e.type === "hand_shown" || e.type === "cards_exposed").map((e) => e.seat));
  const mucked = new Set(events.filter((e) => e.type === "hand_mucked").map((e) => e.seat));
  const deck = events.find((e) => e.type === "deck_revealed");

  // the head: where and when, void or not, the rake
  const stakes = started.variant ? `${started.variant} ${m(started.small_blind)}/${m(started.big_blind)}` : "";
  root.append(h("div.panel.replay-head", { "data-testid": "replay-meta" },
    h("span", {}, h("b", {}, started.table_name || hand.table), " ", h("span.muted", {}, hand.table)),
    hand.tournament ? h("span", {}, "tournament ", h("b", { "data-testid": "replay-tournament" }, hand.tournament)) : null,
    stakes ? h("span", {}, stakes) : null,
    h("span", {}, `${shortWhen(hand.started_at)} \u2013 ${shortWhen(hand.ended_at)}`),
    h("span", { "data-testid": "replay-rake" }, `rake ${m(hand.rake || 0)}`),
    hand.void ? badge("void", "bad") : null));

  // the seats: hole cards always face up (the security team sees every card once the hand is over)
  const seatOrder = [...names.keys()].sort((a, b) => a - b);
  const seatEls = new Map();
  const seatsEl = h("div.replay-seats", { "data-testid": "replay-seats" });
  for (const seat of seatOrder) {
    const player = names.get(seat);
    const start = hand.start_stacks ? hand.start_stacks[player] : undefined;
    const end = hand.end_stacks ? hand.end_stacks[player] : undefined;
    const net = start != null && end != null ? end - start : null;
    const stack = h("span.seat-stack", { "data-testid": "seat-stack" });
    const bet = h("span.seat-bet", { "data-testid": "seat-bet" });
    const state = h("span.seat-state", { "data-testid": "seat-state" });
    const el = h("div.replay-seat", { "data-testid": "replay-seat", dataset: { seat, player } },
      h("div.seat-top", {}, h("span.seat-no", {}, `Seat ${seat}`), seat === started.button_seat ? badge("D", "button") : null,
        playerLink(player)),
      cardsOf(hole.get(seat) || [], "hole-cards"),
      h("div.seat-line", {}, stack, bet, state),
      h("div.seat-line.muted", {}, `start ${m(start)} \u00b7 end ${m(end)} `,
        h(`b.net${net > 0 ? ".up" : net < 0 ? ".down" : ""}`, { "data-testid": "seat-net" }, signed(net, currency))),
      shown.has(seat) ? h("small.muted", {}, "showed") : mucked.has(seat) ? h("small.muted", {}, "mucked") : null);
    seatEls.set(seat, { el, stack, bet, state });
    seatsEl.append(el);
  }

  // the board and the pot, as they stand at the step
  const boardEl = h("div.replay-board", { "data-testid": "replay-board" });
  const potEl = h("span.chips", { "data-testid": "replay-pot" });
  const position = h("span.muted", { "data-testid": "step-position" });
  const button = (testid, text, title) => h("button", { type: "button", "data-testid": testid, title }, text);
  const toStart = button("step-first", "\u00ab Start", "the start of the hand");
  const back = button("step-back", "\u25c0 Back", "one line back");
  const next = button("step-next", "Step \u25b6", "one line on");
  const toEnd = button("step-last", "End \u00bb", "the end of the hand");
  const controls = h("div.step-controls", { "data-testid": "step-controls" }, toStart, back, next, toEnd, position);

  // the actions, one line per event
  const lines = steps.map((s, i) => h("li", {
    "data-testid": "replay-event", dataset: { type: s.e.type, step: i + 1 },
    onclick: () => go(i + 1),
  }, s.parts));
  const list = h("ol.replay-events", { "data-testid": "replay-events" }, lines);

  let at = steps.length;                              // the whole hand first; Step goes through it from the start
  function go(step) {
    at = Math.max(0, Math.min(steps.length, step));
    const last = at === 0 ? -1 : steps[at - 1].index;
    // before the first line the seats are as dealt in
    const table = tableAt(events, at === 0 ? events.findLastIndex((e) => e.type === "seat_dealt_in") : last);
    lines.forEach((li, i) => {
      li.classList.toggle("done", i < at);
      li.classList.toggle("future", i >= at);
      li.classList.toggle("current", i === at - 1);
    });
    for (const [seat, { el, stack, bet, state }] of seatEls) {
      const s = table.seats.get(seat);
      stack.textContent = s ? m(s.stack) : "";
      bet.textContent = s && s.bet > 0 ? `bet ${m(s.bet)}` : "";
      state.textContent = s && s.folded ? "folded" : s && s.won ? `won ${m(s.won)}` : "";
      el.classList.toggle("folded", Boolean(s && s.folded));
      el.classList.toggle("acting", at > 0 && table.acting === seat);
    }
    const runs = [...table.boards.keys()].sort();
    boardEl.replaceChildren(...(runs.length ? runs.map((run) => h("div.board-run", { dataset: { run } },
      runs.length > 1 ? h("span.muted", {}, `Board ${run} `) : null, cardsOf(table.boards.get(run), "board-cards")))
      : [h("span.muted", {}, "no board yet")]));
    potEl.textContent = `pot ${m(table.pot)}`;
    position.textContent = `${at} / ${steps.length}`;
    toStart.disabled = back.disabled = at === 0;
    next.disabled = toEnd.disabled = at === steps.length;
    const current = lines[at - 1];
    if (current && current.scrollIntoView && at !== steps.length) current.scrollIntoView({ block: "nearest" });
  }
  toStart.addEventListener("click", () => go(0));
  back.addEventListener("click", () => go(at - 1));
  next.addEventListener("click", () => go(at + 1));
  toEnd.addEventListener("click", () => go(steps.length));

  // pots and results
  const pots = events.filter((e) => e.type === "pot_formed").map((e) => h("li", { "data-testid": "pot" },
    `${e.pot === 0 ? "Main pot" : `Side pot ${e.pot}`} ${m(e.amount)}${e.rake ? ` (rake ${m(e.rake)})` : ""}, `
    + `contested by ${e.seats.map(nameCtx.name).join(", ")}`));
  const awards = events.filter((e) => e.type === "pot_awarded").map((e) => h("li", { "data-testid": "award" },
    e.seats.map((s, k) => `${nameCtx.name(s)} wins ${m(e.shares[k])}`).join(", "),
    ` from ${e.pot === 0 ? "the main pot" : `side pot ${e.pot}`}${e.run > 1 ? " (second board)" : ""}`));
  const results = seatOrder.map((seat) => {
    const player = names.get(seat);
    const start = hand.start_stacks ? hand.start_stacks[player] : undefined;
    const end = hand.end_stacks ? hand.end_stacks[player] : undefined;
    const net = start != null && end != null ? end - start : null;
    return h("tr", { "data-testid": "result-row", dataset: { player } }, h("td", {}, playerLink(player)),
      h("td.num", {}, m(start)), h("td.num", {}, m(end)),
      h(`td.num.net${net > 0 ? ".up" : net < 0 ? ".down" : ""}`, { "data-testid": "result-net" }, signed(net, currency)));
  });

  // the chat while the hand ran
  const chat = (hand.chat || []).map((line) => h(`li${line.blocked ? ".blocked" : ""}`, { "data-testid": "replay-chat-line" },
    h("time", {}, shortWhen(line.at)), " ", h("b", {}, line.player), ": ", h("span", {}, line.text),
    line.blocked ? badge("blocked", "bad") : null));

  root.append(
    seatsEl,
    h("div.panel.replay-table", {}, h("div.panel-head", {}, h("h3", {}, "Board"), h("span.spacer"), potEl), boardEl,
      controls),
    h("div.replay-columns", {},
      h("section.panel", {}, h("h3", {}, "Actions"), list),
      h("div", {},
        h("section.panel", { "data-testid": "replay-results" }, h("h3", {}, "Pots and results"),
          h("ul.plain", {}, pots, awards),
          h("table.grid.compact", {}, h("thead", {}, h("tr", {}, ["Player", "Start", "End", "Result"].map((t) => h("th", {}, t)))),
            h("tbody", {}, results)),
          h("p.muted", {}, `Rake ${m(hand.rake || 0)}.`)),
        h("section.panel", { "data-testid": "replay-chat" }, h("h3", {}, "Chat during the hand"),
          chat.length ? h("ul.chat-lines", {}, chat) : h("p.muted", {}, "Nobody wrote at the table during this hand.")),
        attachPanel(ctx, hand, seatOrder.map((seat) => names.get(seat))),
        deck ? h("details.panel", { "data-testid": "replay-deck" }, h("summary", {}, "Deck order (HR-RNG-2)"),
          cardsOf(deck.deck)) : null)));
  go(steps.length);
}

// "Attach to case": one of the open cases, or a new case opened with this hand and its players.
function attachPanel(ctx, hand, players) {
  const select = h("select", { "data-testid": "attach-case" });
  const attach = h("button.primary", { type: "button", "data-testid": "attach-hand" }, "Attach");
  const out = outcome("attach-outcome");
  const done = h("span", { "data-testid": "attached-link" });
  const fresh = h("button", { type: "button", "data-testid": "new-case-with-hand" }, "Open a new case with this hand");
  const fill = (cases) => {
    select.replaceChildren(...cases.map((c) => h("option", { value: c.id }, `#${c.id} ${c.title}`)));
    attach.disabled = cases.length === 0;
    if (!cases.length) select.append(h("option", { value: "" }, "no open case"));
  };
  ctx.loadOpenCases(true).then(fill, (e) => { out.textContent = errorText(e); out.classList.add("error"); });
  attach.addEventListener("click", () => act(attach, out, async () => {
    if (!select.value) throw new Refusal("There is no open case: open one first.");
    const id = Number(select.value);
    await ctx.room.request("security_case_attach", { case: id, hand_id: hand.hand_id });
    done.replaceChildren(caseLink(id, `go to case ${id}`));
    return id;
  }, (id) => `Attached to case ${id}.`));
  fresh.addEventListener("click", () => {
    ctx.draft = { players, hands: [hand.hand_id], title: `Hand ${hand.hand_id}` };
    location.hash = "#/cases";
  });
  return h("section.panel", { "data-testid": "attach-panel" }, h("h3", {}, "Attach to case"),
    h("div.inline-form", {}, h("label", {}, "Open case", select), attach, fresh), out, " ", done);
}
