// One cash table: the felt with its seats, cards, bets, pots and button; your actions with a raise slider; the
// decision clock and time bank counting down (client-side, from the events' seconds); sitting down, posting,
// sitting out and leaving; the hand log and the table chat; pre-actions, hotkeys, sounds, your hand in words and
// notes on players. The state comes from table-state.js.
import { cardElement, cardText, clock, h, money, parseMoney } from "/static/common/format.js";
import { cash, cards, describeHandEvent, describeTableEvent, potName } from "./describe.js";
import { GAMES, stakes } from "./lobby.js";
import { handStrength } from "./hand-strength.js";
import { noteOn, saveNote } from "./notes.js";
import { followNewest, sideTabs } from "./panels.js";
import { PreActions } from "./pre-actions.js";
import { autoMuck, setAutoMuck } from "./muck-choice.js";
import { Sounds } from "./sound.js";
import { TableState } from "./table-state.js";

const LOG_LINES = 200;
const CHAT_LINES = 100;
// The keys (docs/lobbies.md): never while typing in a box, never with Ctrl, Alt or Cmd.
const HOTKEYS = [["F", "Fold"], ["C or K", "Check or call"], ["R or B", "Bet or raise (the amount in the box)"],
                 ["1 2 3 4", "Min, \u00bd pot, pot, all-in"], ["A", "Type the amount"], ["M", "Sound on or off"],
                 ["?", "Show or hide these keys"], ["Esc", "Leave the amount box"]];
const PRE_ACTIONS = ["check_fold", "call", "call_any", "fold_any"];
const ACTION_WORDS = { fold: "Fold", check: "Check", call: "Call", bet: "Bet", raise: "Raise", posts: "Posts" };

// An amount as typed, also with the table's money sign the sentences use ("$0.50", "1,200 chips").
function parseAmount(text, currency) {
  return parseMoney(String(text).trim().replace(/^[$\u20ac]\s*/, "").replace(/\s*(chips|[A-Z]{3})$/i, ""), currency);
}

function button(label, testid, onclick, cls = "") {
  return h(`button${cls}`, { type: "button", "data-testid": testid, onclick }, label);
}

export class TableView {
  // root: the element to draw in, or its id (a cash table's tile, table-tiles.js; the tournament's view)
  constructor(app, root = "table-view") {
    this.app = app;
    this.root = typeof root === "string" ? document.getElementById(root) : root;
    this.keysOff = false;             // another tile on the screen has the keyboard (table-tiles.js)
    this.canSit = true;               // a cash table: empty seats can be taken
    this.tableId = null;
    this.state = null;
    this.pending = false;             // an action is on its way to the server
    this.shownLegal = null;           // the legal actions the action bar was drawn for
    this.snapshotLast = false;        // the table's last frame was a snapshot (a table_moved after it needs no other)
    this.choosing = null;             // the buy-in dialog is open for this seat (0: the first free one)
    this.options = { auto_post_blinds: true, sit_out_next_hand: false, sit_out_next_big_blind: false };
    this.ticker = null;
    this.pre = new PreActions();      // what to do when our turn comes, chosen before it
    this.sounds = new Sounds();
    this.quiet = false;               // replaying a snapshot's events: no sounds
    this.noteFor = null;              // the player whose note is open
    this.metDecision = null;          // the last decision of ours announced (or answered by a pre-action)
    this.build();
    this.keyHandler = (ev) => this.onKey(ev);
    document.addEventListener("keydown", this.keyHandler);
  }

  // ------------------------------------------------------------ the page's skeleton (built once)

  build() {
    this.el = {};
    const el = this.el;
    el.title = h("h2.table-title", { "data-testid": "table-title" });
    el.subtitle = h("span.muted", { "data-testid": "table-subtitle" });
    el.seats = h("div.seats-layer");
    el.pot = h("div.pot", { "data-testid": "pot" });
    el.board = h("div.board", { "data-testid": "board" });
    el.board2 = h("div.board.second", { "data-testid": "board-2" });
    el.result = h("div.result", { "data-testid": "result", role: "status" });
    el.message = h("div.stage-message", { "data-testid": "stage-message" });
    el.movedText = h("span", { "data-testid": "table-moved-text" });
    el.movedRule = h("span.rule", { "data-testid": "table-moved-rule" });
    el.moved = h("div.moved-notice.hidden", { "data-testid": "table-moved", role: "status" },
      h("strong", {}, "This table moved to another server."), " ", el.movedText, " ", el.movedRule,
      button("Dismiss", "table-moved-dismiss", () => this.showMoved(null), ".dismiss"));
    el.buyin = this.buildBuyIn();
    el.noteEditor = this.buildNoteEditor();
    el.stage = h("div.stage", { "data-testid": "stage" },
      h("div.felt", {}, h("div.felt-inner", {}, h("span.felt-mark", {}, "pokerroom"))),
      h("div.center", {}, el.pot, el.board, el.board2, el.result, el.message),
      el.seats, el.buyin, el.noteEditor);

    el.turn = h("div.turn", { "data-testid": "turn" });
    el.fold = button("Fold", "act-fold", () => this.act("fold"), ".act.fold");
    el.check = button("Check", "act-check", () => this.act("check"), ".act.check");
    el.call = button("Call", "act-call", () => this.act("call"), ".act.call");
    el.raise = button("Raise", "act-raise", () => this.raise(), ".act.raise");
    el.ritYes = button("Run it twice", "act-rit-yes", () => this.act("run_it_twice", null, true), ".act.call");
    el.ritNo = button("Run it once", "act-rit-no", () => this.act("run_it_twice", null, false), ".act");
    el.slider = h("input.slider", { type: "range", "data-testid": "raise-slider", step: "1", "aria-label": "raise to" });
    el.amount = h("input.amount", { type: "text", inputmode: "decimal", "data-testid": "raise-amount",
                                    "aria-label": "amount" });
    el.slider.addEventListener("input", () => {
      el.amount.value = money(Number(el.slider.value), this.state.currency);
      this.labelRaise();
    });
    el.amount.addEventListener("input", () => {
      const v = parseAmount(el.amount.value, this.state.currency);
      if (!Number.isNaN(v)) el.slider.value = String(v);
      this.labelRaise();
    });
    el.amount.addEventListener("keydown", (ev) => { if (ev.key === "Enter") this.raise(); });
    el.presets = h("div.presets", {},
      button("Min", "preset-min", () => this.preset("min")),
      button("\u00bd Pot", "preset-half", () => this.preset(0.5)),
      button("Pot", "preset-pot", () => this.preset(1)),
      button("All-in", "preset-allin", () => this.preset("max")));
    el.sizing = h("div.sizing", { "data-testid": "sizing" }, el.presets, el.slider, el.amount);
    el.buttons = h("div.act-buttons", {}, el.fold, el.check, el.call, el.raise, el.ritYes, el.ritNo);
    el.actionError = h("p.error.action-error", { "data-testid": "action-error", role: "alert" });
    el.pre = h("div.pre-actions", { "data-testid": "pre-actions", role: "group", "aria-label": "Before your turn" },
      PRE_ACTIONS.map((kind) => h("button.pre", { type: "button", "data-testid": `pre-${kind}`, "aria-pressed": "false",
                                                   onclick: () => this.choosePre(kind) })));
    el.buttons.append(el.pre);
    el.strength = h("span.hand-strength", { "data-testid": "hand-strength" });
    el.mute = button("", "mute", () => this.toggleMute(), ".tool");
    el.muck = button("", "auto-muck", () => this.toggleMuck(), ".tool.muck-choice");
    el.muck.title = "Auto-muck losing hands: off shows your beaten hand at showdown (yours only)";
    el.helpToggle = button("?", "hotkeys-toggle", () => this.toggleHelp(), ".tool");
    el.helpToggle.setAttribute("aria-label", "Keyboard shortcuts");
    el.helpToggle.setAttribute("aria-expanded", "false");
    el.help = h("div.hotkeys.hidden", { id: `${this.root.id}-hotkeys`, "data-testid": "hotkeys-help" },
      h("h4", {}, "Keyboard shortcuts"),
      h("dl", {}, HOTKEYS.flatMap(([k, v]) => [h("dt", {}, h("kbd", {}, k)), h("dd", {}, v)])));
    el.helpToggle.setAttribute("aria-controls", el.help.id);
    el.announce = h("div.sr-only", { "data-testid": "announce", "aria-live": "assertive", role: "status" });
    el.actions = h("div.action-bar", { "data-testid": "action-bar" },
      h("div.bar-top", {}, el.turn, el.strength, h("span.bar-tools", {}, el.muck, el.mute, el.helpToggle)),
      el.buttons, el.sizing, el.help, el.announce);
    this.drawMute();
    this.drawMuck();

    el.controls = h("div.controls", { "data-testid": "seat-controls" });
    el.controlsError = h("p.error", { "data-testid": "controls-error", role: "alert" });
    el.controlsNote = h("p.notice", { "data-testid": "controls-note" });

    el.info = h("div.panel.info", { "data-testid": "table-info" });
    el.last = h("div.panel.last-result.hidden", { "data-testid": "last-result" });
    el.log = h("ol.log", { "data-testid": "log" });
    el.chatList = h("ol.chat-list", { "data-testid": "chat-list" });
    el.chatInput = h("input", { type: "text", maxlength: "280", placeholder: "Say something nice\u2026",
                                "data-testid": "chat-input", "aria-label": "chat message" });
    el.chatError = h("p.error", { "data-testid": "chat-error", role: "alert" });
    const chatForm = h("form.chat-form", {}, el.chatInput, h("button", { type: "submit", "data-testid": "chat-send" },
      "Send"));
    chatForm.addEventListener("submit", (ev) => { ev.preventDefault(); this.chat(); });

    this.root.append(h("div.table-layout", {},
      h("div.table-main", {},
        h("div.table-top", {}, h("a.back", { href: "#lobby", "data-testid": "back-to-lobby" }, "\u2190 Lobby"),
          el.title, el.subtitle),
        el.moved, el.stage, el.actions, el.actionError,
        h("div.controls-row", {}, el.controls, el.controlsError, el.controlsNote)),
      el.side = h("aside.table-side", {}, el.info, el.last,
        el.logPanel = h("div.panel.log-panel", {}, h("h4", {}, "Hand log"), el.log),
        el.chatPanel = h("div.panel.chat-panel", {}, h("h4", {}, "Chat"), el.chatList, chatForm, el.chatError))));
    sideTabs(el.side, [["Table", "info", [el.info, el.last]], ["Hand log", "log", [el.logPanel]],
                       ["Chat", "chat", [el.chatPanel]]]);
    followNewest(el.log);
    followNewest(el.chatList);
  }

  buildBuyIn() {
    const el = this.el;
    el.buyinTitle = h("h3", {});
    el.buyinRange = h("p.muted", {});
    el.buyinAmount = h("input", { type: "text", inputmode: "decimal", "data-testid": "buyin-amount",
                                  "aria-label": "buy-in" });
    el.buyinSlider = h("input.slider", { type: "range", step: "1", "data-testid": "buyin-slider",
                                         "aria-label": "buy-in slider" });
    el.buyinSlider.addEventListener("input", () => {
      el.buyinAmount.value = money(Number(el.buyinSlider.value), this.state.currency);
    });
    el.buyinAmount.addEventListener("input", () => {
      const v = parseAmount(el.buyinAmount.value, this.state.currency);
      if (!Number.isNaN(v)) el.buyinSlider.value = String(v);
    });
    el.buyinWait = h("input", { type: "checkbox", "data-testid": "buyin-wait-bb" });
    el.buyinError = h("p.error", { "data-testid": "join-error", role: "alert" });
    const form = h("form.buyin.hidden", { "data-testid": "buyin-dialog" },
      el.buyinTitle, el.buyinRange,
      h("div.buyin-amount", {}, el.buyinSlider, el.buyinAmount),
      h("label.check", {}, el.buyinWait, " Wait for the big blind instead of posting an entry blind now"),
      h("div.form-row", {}, h("button.primary", { type: "submit", "data-testid": "buyin-submit" }, "Sit down"),
        button("Cancel", "buyin-cancel", () => this.closeBuyIn())),
      el.buyinError);
    form.addEventListener("submit", (ev) => { ev.preventDefault(); this.join(); });
    return form;
  }

  buildNoteEditor() {
    const el = this.el;
    el.noteTitle = h("h3", {});
    el.noteText = h("textarea", { rows: "4", maxlength: "1000", "data-testid": "note-text" });
    const form = h("form.note-editor.hidden", { "data-testid": "note-editor" }, el.noteTitle, el.noteText,
      h("p.muted", {}, "Kept in this browser only; the other player never sees it."),
      h("div.form-row", {}, h("button.primary", { type: "submit", "data-testid": "note-save" }, "Save note"),
        button("Cancel", "note-cancel", () => this.closeNote())));
    form.addEventListener("submit", (ev) => { ev.preventDefault(); this.saveNote(); });
    form.addEventListener("keydown", (ev) => { if (ev.key === "Escape") this.closeNote(); });
    return form;
  }

  // ------------------------------------------------------------ opening and closing

  async open(tableId) {
    this.startTicking();
    if (this.tableId === tableId && this.state && this.state.seq != null) {
      this.render();
      return;
    }
    if (this.tableId && this.tableId !== tableId) this.stopWatching();
    this.tableId = tableId;
    this.choosing = null;
    let info = this.app.lobby.tables.get(tableId);
    this.state = new TableState(tableId, this.app.me.nickname, info || {});
    this.el.log.replaceChildren();
    this.el.chatList.replaceChildren();
    this.el.actionError.textContent = "";
    this.el.controlsError.textContent = "";
    this.el.controlsNote.textContent = "";
    this.showMoved(null);
    this.shownLegal = undefined;
    this.render();
    try {
      if (!info) {
        const lobby = await this.app.room.request("lobby_list");
        info = lobby.tables.find((t) => t.table === tableId);
        if (info) this.state.info = info;
      }
      await this.app.room.request("observe", { table: tableId, on: true });   // the snapshot comes first
    } catch (e) {
      this.el.controlsError.textContent = e.text || e.message;
    }
    this.render();
  }

  // The person went to another view: a watcher stops watching; a seated player keeps getting the table's events.
  leaveView() {
    this.stopTicking();
    if (this.tableId && this.state && this.state.mySeat == null) this.stopWatching();
  }

  stopWatching() {
    const table = this.tableId;
    if (!table) return;
    this.tableId = null;
    this.state = null;
    if (this.app.me) {
      this.app.room.request("observe", { table, on: false })
        .catch((e) => this.app.toast(`Could not stop watching ${table}: ${e.text || e.message}`, true));
    }
  }

  forget() {
    this.stopTicking();
    this.tableId = null;
    this.state = null;
  }

  // A director closed the table and everyone has stood up (chips back in the wallet): back to the lobby.
  onClosed(message) {
    if (message.table !== this.tableId) return;
    const seated = this.state && this.state.mySeat != null;
    this.forget();
    const chips = seated ? "; your chips are back in your wallet" : "";
    this.app.toast(`The table ${message.table} was closed by the room${chips}.`);
    this.app.refreshBalance();
    if (this.visible()) this.app.go("#lobby");
  }

  seenSeqs() {
    return this.tableId && this.state && this.state.seq != null ? { [this.tableId]: this.state.seq } : {};
  }

  // On the screen: its view is the one shown and its tile (one of several tables) is not hidden.
  visible() {
    const view = this.root.closest(".view");
    return Boolean(view) && document.body.dataset.view === view.id && !this.root.classList.contains("hidden");
  }

  startTicking() {
    if (!this.ticker) this.ticker = setInterval(() => this.tick(), 200);
  }

  stopTicking() {
    clearInterval(this.ticker);
    this.ticker = null;
  }

  // ------------------------------------------------------------ pushes

  onSnapshot(message) {
    if (!this.state || message.table !== this.tableId) return;
    const seated = this.state.mySeat != null;
    this.state.loadSnapshot(message);
    if (seated !== (this.state.mySeat != null)) this.app.refreshBalance();
    if (this.state.mySeat != null && !autoMuck()) this.tellMuck();      // a reload: the seat hears it again
    this.resyncing = false;
    this.snapshotLast = true;                   // a table_moved right after it needs no other
    this.logLine(["Table state received"], "sep");
    this.quiet = true;
    for (const e of message.hand || []) this.logHandEvent(e);
    this.quiet = false;
    this.render();
  }

  // The table's process stopped and another took it over (docs/protocol.md, table_moved): the server's sentence
  // stays on the table until dismissed, the table as the last snapshot drew it. A resume sends the snapshot
  // right before it; heard live, the new server numbers the table's frames from 1 again, so the table is read
  // anew. False when the push is not about this table (the caller tells it another way).
  onMoved(message) {
    if (!this.state || message.table !== this.tableId) return false;
    this.showMoved(message);
    this.logLine([message.message], "table");
    if (!this.snapshotLast && !this.resyncing) {
      this.resyncing = true;
      this.app.room.request("observe", { table: this.tableId, on: true }).catch((e) => {
        this.el.controlsError.textContent = e.text || e.message;
      });
    }
    this.app.refreshBalance();
    return true;
  }

  showMoved(message) {
    this.el.moved.classList.toggle("hidden", !message);
    this.el.movedText.textContent = message ? message.message : "";
    this.el.movedRule.textContent = message && message.rule ? `(rule ${message.rule})` : "";
  }

  onEvents(message) {
    const state = this.state;
    if (!state || message.table !== this.tableId) return;
    this.snapshotLast = false;
    const applied = state.applyFrame(message);
    if (applied === "gap") {
      if (state.seq != null && !this.resyncing) {       // missed events: start again from a snapshot
        this.resyncing = true;
        this.app.room.request("observe", { table: this.tableId, on: true }).catch((e) => {
          this.el.controlsError.textContent = e.text || e.message;
        });
      }
      return;
    }
    const mine = state.me;
    for (const e of applied) {
      if (e.type === "hand_event") this.logHandEvent(e.event);
      else this.logTableEvent(e);
      if (e.type === "player_left" && e.player === mine) {
        this.el.controlsNote.textContent = `You left the table with ${cash(e.stack, state.currency)}.`;
        this.app.refreshBalance();
      }
      if (e.type === "player_seated" && e.player === mine) this.app.refreshBalance();
      if (e.type === "hand_event" && e.event.type === "seat_dealt_in" && e.event.player === mine) {
        this.el.controlsNote.textContent = "";
      }
    }
    if (message.legal && state.legal && !this.visible()) {
      this.app.toast(`It is your turn at ${state.info.name || this.tableId}.`);
    }
    if (this.visible()) this.render();
    else if (state.legal && this.pre.choice) this.renderActions();   // a pre-action acts from another view too
  }

  onChat(message) {
    if (message.table !== this.tableId) return;
    const time = new Date(message.at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    const mine = this.state && message.player === this.state.me;
    this.el.chatList.append(h(`li${mine ? ".mine" : ""}`, { "data-testid": "chat-line" },
      h("span.time", {}, time), h("b", {}, message.player), " ", message.text));
    while (this.el.chatList.children.length > CHAT_LINES) this.el.chatList.firstChild.remove();
  }

  // ------------------------------------------------------------ the log

  ctx() {
    const state = this.state;
    return { name: (seat) => state.nameOf(seat), currency: state.currency };
  }

  logHandEvent(e) {
    if (!this.quiet) this.soundFor(e);
    const parts = describeHandEvent(e, this.ctx());
    if (parts) this.logLine(parts, e.type === "hand_started" ? "sep" : e.type === "pot_awarded" ? "win" : "");
    if (parts && e.type === "pot_awarded" && !this.quiet) {     // a result, said aloud as it is drawn
      this.announce(parts.map((p) => (typeof p === "string" ? p : p.textContent)).join("") + ".");
    }
  }

  logTableEvent(e) {
    const parts = describeTableEvent(e, this.ctx());
    if (parts) this.logLine(parts, "table");
  }

  logLine(parts, cls) {
    const log = this.el.log;
    log.append(h(`li${cls ? `.${cls}` : ""}`, {}, parts));      // followNewest keeps the newest line in view
    while (log.children.length > LOG_LINES) log.firstChild.remove();
  }

  // ------------------------------------------------------------ drawing

  render() {
    if (!this.state) return;
    this.drawMuck();
    this.renderTop();
    this.renderSeats();
    this.renderCenter();
    this.renderActions();
    this.renderControls();
    this.renderInfo();
    this.renderLast();
    this.tick();
  }

  renderTop() {
    const s = this.state;
    const info = s.info;
    this.el.title.textContent = info.name || this.tableId;
    const game = GAMES[info.game] || info.game || "";
    this.el.subtitle.textContent = info.big_blind ? `${game} \u00b7 ${stakes(info)}` : "";
  }

  // Where a seat sits on the oval: seat numbers run clockwise; yours is at the bottom.
  spot(seat) {
    const n = this.state.maxSeats;
    const base = this.state.mySeat || 1;
    const k = (((seat - base) % n) + n) % n;
    const angle = Math.PI / 2 + (k * 2 * Math.PI) / n;
    return { x: Math.cos(angle), y: Math.sin(angle), angle };
  }

  renderSeats() {
    const s = this.state;
    const layer = this.el.seats;
    const hand = s.hand;
    const mine = s.mySeat;
    const parts = [];
    if (s.seq == null) {
      layer.replaceChildren();
      return;
    }
    for (let n = 1; n <= s.maxSeats; n += 1) {
      const p = this.spot(n);
      const seat = s.seats.get(n);
      let el;
      if (!seat) {
        el = mine == null && this.canSit
          ? h("button.seat-empty.sit", { type: "button", "data-testid": `sit-${n}`, onclick: () => this.openBuyIn(n) },
            h("span", {}, "Sit here"), h("small", {}, `seat ${n}`))
          : h("div.seat-empty", { "data-testid": `empty-${n}` }, h("small", {}, `seat ${n}`));
      } else {
        el = this.seatElement(seat, hand);
      }
      el.style.left = `${50 + p.x * 44}%`;
      el.style.top = `${48.5 + p.y * 38}%`;
      parts.push(el);
      if (seat && seat.bet > 0) {
        const bet = h("div.bet", { "data-testid": `bet-${n}` }, h("i.chip", { "aria-hidden": "true" }), cash(seat.bet, s.currency));
        bet.style.left = `${50 + p.x * 30}%`;
        bet.style.top = `${49 + p.y * 23}%`;
        parts.push(bet);
      }
    }
    if (hand && hand.button != null) {
      const p = this.spot(hand.button);
      const angle = p.angle - 0.3;
      const dealer = h("div.dealer", { "data-testid": "dealer", title: `button: seat ${hand.button}`,
                                       dataset: { seat: String(hand.button) } }, "D");
      dealer.style.left = `${50 + Math.cos(angle) * 31}%`;
      dealer.style.top = `${49 + Math.sin(angle) * 26}%`;
      parts.push(dealer);
    }
    layer.replaceChildren(...parts);
  }

  seatElement(seat, hand) {
    const s = this.state;
    const toAct = s.clock && s.clock.seat === seat.seat && hand && !hand.ended;
    const ended = hand && hand.ended;
    const classes = ["seat"];
    if (seat.player === s.me) classes.push("me");
    if (toAct) classes.push("to-act");
    if (seat.folded) classes.push("folded");
    if (seat.sittingOut) classes.push("away");
    if (!seat.connected) classes.push("offline");
    if (ended && seat.won > 0) classes.push("winner");
    const count = (hand && hand.holeCount) || 2;
    let hole = [];
    if (seat.cards && (!seat.folded || seat.player === s.me)) {
      hole = seat.cards.map((c) => cardElement(c));
    } else if (seat.inHand && !seat.folded && !ended) {
      hole = Array.from({ length: count }, () => cardElement(null));
    }
    let status = "";
    let statusClass = "";
    const live = hand && !ended && seat.inHand;
    if (ended && seat.won > 0) { status = `Wins ${cash(seat.won, s.currency)}`; statusClass = ".win"; }
    else if (seat.sittingOut && !live) status = "Sitting out";
    else if (seat.shown) status = seat.shown.description;
    else if (toAct) status = s.clock.phase === "time_bank" ? "Time bank\u2026" : "Thinking\u2026";
    else if (seat.folded) status = "Folded";
    else if (seat.allIn) status = "All-in";
    else if (seat.lastAction) status = ACTION_WORDS[seat.lastAction] || seat.lastAction;
    else if (seat.sittingOut) status = "Sitting out";
    else if (seat.waiting === "waiting_for_big_blind") status = "Waiting for the big blind";
    else if (seat.waiting === "button_must_pass") status = "Waiting for the button";
    else if (!seat.connected) status = "Disconnected";
    if (seat.mucked && ended && !seat.won) status = "Mucked";
    const timer = toAct ? h("div.timer", { "data-testid": `clock-${seat.seat}`, dataset: { phase: s.clock.phase } },
      h("div.bar"), h("span.left")) : null;
    const note = seat.player === s.me ? "" : noteOn(seat.player);
    const noteButton = seat.player === s.me ? null
      : h(`button.note-btn${note ? ".has-note" : ""}`, {
        type: "button", "data-testid": `note-${seat.seat}`, title: note || `Add a note on ${seat.player}`,
        "aria-label": note ? `Note on ${seat.player}: ${note}` : `Add a note on ${seat.player}`,
        onclick: () => this.openNote(seat.player) }, "\u270E");
    return h(`div.${classes.join(".")}`, { "data-testid": `seat-${seat.seat}`, dataset: { player: seat.player } },
      h(`div.hole${hole.length > 2 ? ".many" : ""}`, { "data-testid": `hole-${seat.seat}` }, hole),
      h("div.plate", {},
        h("div.name", { title: seat.player }, seat.player), noteButton,
        h("div.stack", { "data-testid": `stack-${seat.seat}` }, seat.stack > 0 || !seat.allIn
          ? cash(seat.stack, s.currency) : "All-in"),
        h(`div.status${statusClass}`, { "data-testid": `status-${seat.seat}` }, status)),
      timer);
  }

  renderCenter() {
    const s = this.state;
    const hand = s.hand;
    const el = this.el;
    const running = hand && !hand.ended;
    if (s.seq == null) {
      el.message.textContent = "Taking a seat at the rail\u2026";
    } else if (!hand || (hand.ended && s.seats.size < 2)) {
      el.message.textContent = s.seats.size < 2 ? "Waiting for players\u2026" : "";
    } else {
      el.message.textContent = "";
    }
    const drawBoard = (node, board) => {
      if (!board) { node.replaceChildren(); return; }
      const slots = board.map((c) => cardElement(c));
      while (slots.length < 5) slots.push(h("span.card.slot"));
      node.replaceChildren(...slots);
    };
    drawBoard(el.board, hand ? hand.boards[1] || (running ? [] : null) : null);
    drawBoard(el.board2, hand && hand.boards[2] ? hand.boards[2] : null);
    el.board2.classList.toggle("hidden", !(hand && hand.boards[2]));
    if (running) {
      const total = s.potTotal();
      const pots = hand.pots.filter(Boolean);
      const label = pots.length > 1
        ? pots.map((p, i) => `${i === 0 ? "Main" : `Side ${i}`} ${cash(p.amount, s.currency)}`).join(" \u00b7 ")
        : `Pot ${cash(total, s.currency)}`;
      el.pot.replaceChildren(h("i.chip", { "aria-hidden": "true" }), label);
      el.pot.dataset.amount = String(total);
      el.pot.classList.toggle("hidden", total === 0);
    } else {
      el.pot.replaceChildren();
      el.pot.classList.add("hidden");
    }
    if (hand && hand.ended && hand.awards.length) {
      el.result.replaceChildren(...hand.awards.map((a) => h("div.award", {},
        a.winners.map((w) => `${w.player} wins ${cash(w.share, s.currency)}`).join(", "),
        a.pot > 0 ? ` (${potName(a.pot)})` : "",
        a.description ? h("small", {}, ` \u2014 ${a.description}`) : "")));
      el.result.classList.remove("hidden");
    } else {
      el.result.replaceChildren();
      el.result.classList.add("hidden");
    }
  }

  renderActions() {
    const s = this.state;
    const el = this.el;
    const legal = s.legal;
    el.actions.classList.toggle("mine", !!legal);
    this.pre.lapse(s);
    if (legal !== this.shownLegal) {
      this.shownLegal = legal;
      if (legal) el.actionError.textContent = "";
      this.drawLegal(legal);
    }
    for (const b of el.buttons.querySelectorAll("button")) b.disabled = this.pending;
    this.renderPre();
    this.renderStrength();
    // a new decision of ours, met once: it may come while our last act's answer is still on its way (the push
    // that starts it can overtake that answer), so it is met on the render after the answer
    if (legal && !this.pending && legal.decision !== this.metDecision) {
      this.metDecision = legal.decision;
      const action = this.pre.decide(legal);           // a pre-action set before the turn, on this legal's decision
      if (action) {
        this.announce(`Your turn: pre-action ${action}.`);
        this.act(action);
      } else {
        this.yourTurn(legal);
      }
      this.renderPre();
    }
  }

  // The turn, told to screen readers and (unless muted) with its chime.
  yourTurn(legal) {
    const s = this.state;
    if (this.visible()) this.app.clearToast();        // the bar says it: no toast over it on a small phone
    if (legal.run_it_twice) {
      this.announce("Your turn: run it twice or once?");
    } else {
      const stay = legal.can_check ? "check" : `call ${cash(legal.call_added, s.currency)}`;
      const more = legal.can_bet ? `, or bet from ${cash(legal.min_to, s.currency)}`
        : legal.can_raise ? `, or raise to ${cash(legal.min_to, s.currency)} or more` : "";
      this.announce(`Your turn: fold, ${stay}${more}.`);
    }
    this.play("turn");
  }

  announce(text) {
    this.el.announce.textContent = text;
  }

  // The pre-action toggles, shown while we are in the hand and it is not our turn.
  renderPre() {
    const s = this.state;
    const el = this.el;
    const offers = new Map(this.pre.offers(s));
    el.pre.classList.toggle("hidden", !offers.size || this.pending);
    const chosen = this.pre.choice && this.pre.choice.kind;
    for (const node of el.pre.children) {
      const kind = node.dataset.testid.slice(4);
      const price = offers.get(kind);
      node.classList.toggle("hidden", price == null);
      if (price == null) continue;
      const label = kind === "check_fold" ? (price ? "Fold" : "Check/Fold")
        : kind === "call" ? (price ? `Call ${cash(price, s.currency)}` : "Check")
          : kind === "call_any" ? "Call any" : "Fold to any bet";
      if (node.textContent !== label) node.textContent = label;
      node.setAttribute("aria-pressed", String(chosen === kind));
      node.classList.toggle("on", chosen === kind);
    }
  }

  choosePre(kind) {
    if (!this.state) return;
    this.pre.set(kind, this.state);
    this.renderPre();
    const c = this.pre.choice;
    this.announce(c ? `Pre-action set: ${this.el.pre.querySelector(`[data-testid=pre-${kind}]`).textContent}.`
      : "Pre-action cleared.");
  }

  // Your made hand in words while the hand runs (the showdown then names it for everyone).
  renderStrength() {
    const s = this.state;
    const me = s.seats.get(s.mySeat);
    const hand = s.hand;
    const live = hand && !hand.ended && me && me.inHand && !me.folded && me.cards;
    const text = live ? handStrength(me.cards, hand.boards[1] || []) : "";
    if (this.el.strength.textContent !== text) this.el.strength.textContent = text;
  }

  // ------------------------------------------------------------ sounds, hotkeys, notes

  soundFor(e) {
    const s = this.state;
    if (!s || !s.hand) return;
    if (e.type === "action_taken" && ["bet", "raise", "call"].includes(e.action)) this.play("bet");
    if (e.type === "pot_awarded" && s.mySeat != null && e.seats.includes(s.mySeat)
        && s.hand.players.get(s.mySeat) === s.me) this.play("win");
  }

  play(name) {
    this.sounds.play(name);
    this.el.mute.dataset.lastSound = name;          // what the table last asked to hear, muted or not
    this.el.mute.dataset.played = String(this.sounds.played);
  }

  toggleMute() {
    this.sounds.muted = !this.sounds.muted;
    this.drawMute();
    this.announce(this.sounds.muted ? "Sounds off." : "Sounds on.");
  }

  drawMute() {
    const muted = this.sounds.muted;
    this.el.mute.textContent = muted ? "\u266A Sound off" : "\u266A Sound on";
    this.el.mute.setAttribute("aria-pressed", String(muted));
    this.el.mute.setAttribute("aria-label", "Mute sounds");
    this.el.mute.dataset.lastSound = this.sounds.last;
  }

  // Auto-muck losing hands (muck-choice.js): one choice for every table, told to each one you sit at.
  toggleMuck() {
    setAutoMuck(!autoMuck());
    this.announce(autoMuck() ? "Losing hands are mucked." : "Your hand is shown at showdown, even a losing one.");
    if (this.app.table && this.app.table.muckChanged) this.app.table.muckChanged();
    else this.tellMuck();
  }

  drawMuck() {
    const on = autoMuck();
    this.el.muck.textContent = on ? "Auto-muck on" : "Auto-muck off";
    this.el.muck.setAttribute("aria-pressed", String(on));
    this.el.muck.setAttribute("aria-label", "Auto-muck losing hands");
  }

  // The room keeps the choice per seat: told when it changes and whenever we (re)take a seat.
  async tellMuck() {
    this.drawMuck();
    if (!this.tableId || !this.state || this.state.mySeat == null) return;
    try {
      await this.app.room.request("options", { table: this.tableId, auto_muck: autoMuck() });
    } catch (e) {
      this.el.controlsError.textContent = e.text || e.message;
    }
  }

  toggleHelp(open = null) {
    const el = this.el;
    const show = open == null ? el.help.classList.contains("hidden") : open;
    el.help.classList.toggle("hidden", !show);
    el.helpToggle.setAttribute("aria-expanded", String(show));
  }

  onKey(ev) {
    if (!this.state || this.keysOff || !this.visible() || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const target = ev.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) {
      if (ev.key === "Escape" && target === this.el.amount) target.blur();
      return;                                 // typing in chat, the amount, a note: the keys are letters
    }
    const key = ev.key.toLowerCase();
    const legal = this.state.legal;
    const ready = legal && !legal.run_it_twice && !this.pending;
    const sizing = ready && (legal.can_bet || legal.can_raise);
    let done = true;
    if (key === "?") this.toggleHelp();
    else if (key === "m") this.toggleMute();
    else if (key === "escape") this.toggleHelp(false);
    else if (ready && key === "f") this.act("fold");
    else if (ready && (key === "c" || key === "k")) this.act(legal.can_check ? "check" : "call");
    else if (sizing && (key === "r" || key === "b")) this.raise();
    else if (sizing && ["1", "2", "3", "4"].includes(key)) this.preset(["min", 0.5, 1, "max"][Number(key) - 1]);
    else if (sizing && key === "a") { this.el.amount.focus(); this.el.amount.select(); }
    else done = false;
    if (done) ev.preventDefault();
  }

  openNote(player) {
    const el = this.el;
    this.noteFor = player;
    el.noteTitle.textContent = `Note on ${player}`;
    el.noteText.setAttribute("aria-label", `Note on ${player}`);
    el.noteText.value = noteOn(player);
    el.noteEditor.classList.remove("hidden");
    el.noteText.focus();
  }

  closeNote() {
    this.noteFor = null;
    this.el.noteEditor.classList.add("hidden");
  }

  saveNote() {
    if (this.noteFor) saveNote(this.noteFor, this.el.noteText.value);
    this.closeNote();
    if (this.state) this.renderSeats();
  }

  drawLegal(legal) {
    const el = this.el;
    const s = this.state;
    const show = (node, on) => node.classList.toggle("hidden", !on);
    if (!legal) {
      for (const b of [el.fold, el.check, el.call, el.raise, el.ritYes, el.ritNo]) show(b, false);
      show(el.sizing, false);
      return;
    }
    if (legal.run_it_twice) {
      for (const b of [el.fold, el.check, el.call, el.raise]) show(b, false);
      show(el.ritYes, true);
      show(el.ritNo, true);
      show(el.sizing, false);
      return;
    }
    show(el.ritYes, false);
    show(el.ritNo, false);
    show(el.fold, true);
    show(el.check, legal.can_check);
    show(el.call, !legal.can_check);
    const me = s.seats.get(legal.seat);
    const allInCall = me && legal.call_added >= me.stack;
    el.call.textContent = `Call ${cash(legal.call_added, s.currency)}${allInCall ? " (all-in)" : ""}`;
    const sizing = legal.can_bet || legal.can_raise;
    show(el.raise, sizing);
    show(el.sizing, sizing && legal.max_to > legal.min_to);
    if (sizing) {
      el.slider.min = String(legal.min_to);
      el.slider.max = String(legal.max_to);
      el.slider.value = String(legal.min_to);
      el.amount.value = money(legal.min_to, s.currency);
      this.labelRaise();
    }
  }

  labelRaise() {
    const s = this.state;
    const legal = s.legal;
    if (!legal) return;
    const to = parseAmount(this.el.amount.value, s.currency);
    const word = legal.can_bet ? "Bet" : "Raise to";
    const shown = Number.isNaN(to) ? "\u2026" : cash(to, s.currency);
    this.el.raise.textContent = !Number.isNaN(to) && to >= legal.max_to ? `All-in ${shown}` : `${word} ${shown}`;
  }

  preset(which) {
    const legal = this.state.legal;
    if (!legal) return;
    let to = legal.min_to;
    if (which === "max") to = legal.max_to;
    else if (typeof which === "number") to = this.state.potSizedTo(which);
    this.el.slider.value = String(to);
    this.el.amount.value = money(to, this.state.currency);
    this.labelRaise();
  }

  raise() {
    const legal = this.state.legal;
    if (!legal) return;
    const to = parseAmount(this.el.amount.value, this.state.currency);
    if (Number.isNaN(to) || to <= 0) {
      this.el.actionError.textContent = `Type the amount to ${legal.can_bet ? "bet" : "raise to"}, like `
        + `${cash(legal.min_to, this.state.currency)}.`;
      return;
    }
    this.act(legal.can_bet ? "bet" : "raise", to);
  }

  async act(action, to = null, agree = null) {
    if (this.pending || !this.state) return;
    this.pending = true;
    this.el.actionError.textContent = "";
    this.renderActions();
    // the decision acted on, as the server named it: a second click on the same one is refused (stale_decision)
    const fields = { table: this.tableId, action, decision: this.state.legal ? this.state.legal.decision : "" };
    if (to != null) fields.to = to;                   // a bet or raise: the total on the street
    if (agree != null) fields.agree = agree;
    try {
      await this.app.room.request("act", fields);
    } catch (e) {
      this.el.actionError.textContent = e.text || e.message;
    } finally {
      this.pending = false;
      if (this.state) this.render();
    }
  }

  // ------------------------------------------------------------ sitting down, seat controls

  openBuyIn(seat) {
    const s = this.state;
    const info = s.info;
    if (!info.min_buy_in) {
      this.el.controlsError.textContent = "This table's buy-in range is not known yet; try again in a moment.";
      return;
    }
    this.choosing = seat;
    const el = this.el;
    el.buyinTitle.textContent = seat ? `Sit at seat ${seat}` : "Take the first free seat";
    el.buyinRange.textContent = `Buy in for ${cash(info.min_buy_in, s.currency)} to ${cash(info.max_buy_in, s.currency)}`
      + ` (HR-STAKE-4). Your wallet: ${cash(this.app.me.balance, "USD")}.`;
    el.buyinSlider.min = String(info.min_buy_in);
    el.buyinSlider.max = String(info.max_buy_in);
    const balance = this.app.me.balance == null ? info.max_buy_in : this.app.me.balance;
    const amount = Math.max(info.min_buy_in, Math.min(info.max_buy_in, balance));
    el.buyinSlider.value = String(amount);
    el.buyinAmount.value = money(amount, s.currency);
    el.buyinError.textContent = "";
    el.buyin.classList.remove("hidden");
    el.buyinAmount.focus();
  }

  closeBuyIn() {
    this.choosing = null;
    this.el.buyin.classList.add("hidden");
  }

  async join() {
    const s = this.state;
    const el = this.el;
    const amount = parseAmount(el.buyinAmount.value, s.currency);
    if (Number.isNaN(amount) || amount <= 0) {
      el.buyinError.textContent = `Type the buy-in as an amount, like ${cash(s.info.min_buy_in, s.currency)}.`;
      return;
    }
    const submit = el.buyin.querySelector("button[type=submit]");
    submit.disabled = true;
    el.buyinError.textContent = "";
    try {
      await this.app.room.request("join", { table: this.tableId, seat: this.choosing || null, buy_in: amount,
                                            wait_for_big_blind: el.buyinWait.checked });
      this.closeBuyIn();
      if (!autoMuck()) this.tellMuck();                  // the seated frame came before the answer
      this.el.controlsNote.textContent = el.buyinWait.checked
        ? "You are seated and wait for the big blind to reach you."
        : "You are seated; you are dealt in at the next hand (posting an entry blind if one is due).";
    } catch (e) {
      el.buyinError.textContent = e.text || e.message;
    } finally {
      submit.disabled = false;
      this.render();
    }
  }

  async command(type, fields = {}, done = "") {
    this.el.controlsError.textContent = "";
    try {
      await this.app.room.request(type, { table: this.tableId, ...fields });
      this.el.controlsNote.textContent = done;
      if (type === "add_chips") this.app.refreshBalance();
    } catch (e) {
      this.el.controlsError.textContent = e.text || e.message;
      this.el.controlsNote.textContent = "";
    }
    if (this.state) this.render();
  }

  async setOption(name, input) {
    const value = input.checked;
    this.el.controlsError.textContent = "";
    try {
      await this.app.room.request("options", { table: this.tableId, [name]: value });
      this.options[name] = value;
    } catch (e) {
      input.checked = !value;
      this.el.controlsError.textContent = e.text || e.message;
    }
  }

  renderControls() {
    const s = this.state;
    const el = this.el;
    if (this.choosing == null) el.buyin.classList.add("hidden");
    if (s.seq == null) {
      el.controls.replaceChildren();
      return;
    }
    const mine = s.mySeat;
    const items = [];
    if (mine == null) {
      const free = s.maxSeats - s.seats.size;
      const waiting = s.waitingList.includes(s.me);
      if (s.offer) {
        items.push(h("span.offer", {}, `Seat ${s.offer.seat} is kept for you.`),
          button(`Take seat ${s.offer.seat}`, "take-offer", () => this.openBuyIn(s.offer.seat), ".primary"));
      } else if (free > 0) {
        items.push(button("Take the first free seat", "take-seat", () => this.openBuyIn(0), ".primary"),
          h("span.muted", {}, "or click an empty seat. You are watching."));
      } else {
        items.push(h("span.muted", {}, "The table is full."));
      }
      if (free === 0 || waiting) {
        items.push(waiting
          ? button("Leave the waiting list", "waiting-list-leave", () => this.command("waiting_list", { on: false },
            "You left the waiting list."))
          : button("Join the waiting list", "waiting-list-join", () => this.command("waiting_list", { on: true },
            "You are on the waiting list.")));
      }
      el.controls.replaceChildren(...items);
      return;
    }
    const me = s.seats.get(mine);
    const inHand = s.hand && !s.hand.ended && me.inHand;
    if (me.sittingOut) {
      const owes = me.owes ? ` and post the missed ${me.owes} blind` : "";
      items.push(button(`Sit in${owes}`, "sit-in", () => this.command("sit_in", {}, "You are back in."), ".primary"));
      items.push(button("Wait for the big blind", "wait-bb", () => this.command("wait_for_big_blind", {},
        "You will be dealt in when the big blind reaches you (HR-MB-4).")));
    } else {
      if (me.waiting === "waiting_for_big_blind") {
        items.push(button("Post now", "post", () => this.command("post", {}, "You post and are dealt in at the next hand.")));
      }
      items.push(button("Sit out", "sit-out", () => this.command("sit_out", {}, inHand
        ? "You sit out after this hand." : "You are sitting out.")));
    }
    const chips = h("input.add-amount", { type: "text", inputmode: "decimal", placeholder: "amount",
                                          "data-testid": "add-chips-amount", "aria-label": "chips to add" });
    items.push(h("span.add-chips", {}, chips, button("Add chips", "add-chips", () => {
      const amount = parseAmount(chips.value, s.currency);
      if (Number.isNaN(amount) || amount <= 0) {
        el.controlsError.textContent = `Type how much to add, like ${cash(s.info.min_buy_in || 500, s.currency)}.`;
        return;
      }
      this.command("add_chips", { amount }, `Added ${cash(amount, s.currency)}.`);
    })));
    const option = (name, label, testid) => {
      const input = h("input", { type: "checkbox", "data-testid": testid });
      input.checked = this.options[name];
      input.addEventListener("change", () => this.setOption(name, input));
      return h("label.check", {}, input, ` ${label}`);
    };
    items.push(h("span.options", {},
      option("auto_post_blinds", "Auto-post blinds", "opt-auto-post"),
      option("sit_out_next_hand", "Sit out next hand", "opt-sit-out-next-hand"),
      option("sit_out_next_big_blind", "Sit out next big blind", "opt-sit-out-next-bb")));
    items.push(h("span.spacer"));
    items.push(button("Leave table", "leave", () => this.command("leave", {}, inHand
      ? "You leave when this hand ends." : ""), ".danger"));
    el.controls.replaceChildren(...items);
  }

  renderInfo() {
    const s = this.state;
    const info = s.info;
    const rows = [];
    if (info.min_buy_in) rows.push(["Buy-in", `${cash(info.min_buy_in, s.currency)} \u2013 ${cash(info.max_buy_in, s.currency)}`]);
    rows.push(["Players", `${s.seats.size} of ${s.maxSeats}`]);
    if (s.waitingList.length) rows.push(["Waiting", s.waitingList.join(", ")]);
    const me = s.seats.get(s.mySeat);
    if (me) {
      const bank = s.handOnly ? "" : ` \u00b7 time bank ${Math.round(me.timeBank)} s`;
      rows.push(["You", `seat ${me.seat} \u00b7 ${cash(me.stack, s.currency)}${bank}`]);
    }
    if (s.hand) rows.push(["Hand", s.hand.id]);
    this.el.info.dataset.hand = s.hand ? s.hand.id : "";
    this.el.info.replaceChildren(h("dl", {}, rows.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)])));
  }

  renderLast() {
    const r = this.state.lastResult;
    const el = this.el.last;
    if (!r) {
      el.classList.add("hidden");
      return;
    }
    if (el.dataset.handId === r.handId) return;
    const m = (amount) => cash(amount, r.currency);
    el.dataset.handId = r.handId;
    el.dataset.showdown = String(r.showdown);
    el.dataset.dealtMe = String(r.dealtMe);
    el.classList.remove("hidden");
    const awards = [];
    for (const a of r.awards) {
      for (const w of a.winners) {
        awards.push(h("li", { "data-testid": "award", dataset: { player: w.player, amount: String(w.share),
                                                                 pot: String(a.pot), run: String(a.run) } },
          h("b", {}, w.player), ` wins ${m(w.share)} from ${potName(a.pot)}${a.run > 1 ? " (second board)" : ""}`,
          a.description ? h("small", {}, ` with ${a.description}`) : ""));
      }
    }
    const shown = r.shown.map((x) => h("li", { "data-testid": "shown-hand",
                                               dataset: { player: x.player, cards: x.cards.map(cardText).join(" ") } },
      h("b", {}, x.player), " ", cards(x.cards), h("small", {}, ` ${x.description}`)));
    el.replaceChildren(...[
      h("h4", {}, "Last hand ", h("span.hand-id", {}, r.handId)),
      r.boards[1] ? h("div.mini-board", {}, cards(r.boards[1])) : null,
      shown.length ? h("ul.shown", {}, shown) : null,
      h("ul.awards", {}, awards),
      r.rake ? h("p.muted", {}, `Rake ${m(r.rake)}`) : null,
    ].filter(Boolean));
  }

  // ------------------------------------------------------------ the clocks (counted down here, never polled)

  tick() {
    const s = this.state;
    if (!s || !this.visible()) return;
    const c = s.clock;
    const hand = s.hand;
    const running = c && hand && !hand.ended;
    const timed = running && c.endsAt != null;
    const left = timed ? Math.max(0, (c.endsAt - Date.now()) / 1000) : 0;
    for (const timer of this.el.seats.querySelectorAll(".timer")) {
      const bar = timer.querySelector(".bar");
      const text = timer.querySelector(".left");
      if (!timed) { timer.classList.add("hidden"); continue; }
      const share = c.total ? Math.max(0, Math.min(1, left / c.total)) : 0;
      bar.style.width = `${(share * 100).toFixed(1)}%`;
      timer.classList.toggle("low", c.phase === "thinking" && left < 5);
      const bank = c.phase === "thinking" && c.timeBank > 0 ? ` +${Math.round(c.timeBank)}s` : "";
      text.textContent = c.phase === "time_bank" ? `Time bank ${clock(left)}`
        : c.phase === "reconnect" ? `Reconnect ${clock(left)}` : `${clock(left)}${bank}`;
    }
    const turn = this.el.turn;
    if (!running) {
      const me = s.seats.get(s.mySeat);
      let text = "";
      if (s.seq == null) text = "";
      else if (!me) text = this.canSit ? "You are watching this table." : "";
      else if (me.sittingOut) text = "You are sitting out.";
      else if (me.waiting === "waiting_for_big_blind") text = "You wait for the big blind to reach your seat.";
      else if (me.waiting === "button_must_pass") text = "You wait for the button to pass your seat (HR-POST-3).";
      else if (hand && !hand.ended && !me.inHand) text = "You are dealt in at the next hand.";
      else if (!hand || hand.ended) text = "Waiting for the next hand\u2026";
      turn.textContent = text;
      turn.classList.remove("mine");
      turn.dataset.phase = "";
      return;
    }
    const who = c.seat === s.mySeat ? "Your turn" : `${s.nameOf(c.seat)} to act`;
    const what = !timed ? "" : c.phase === "time_bank" ? `time bank ${clock(left)}`
      : c.phase === "reconnect" ? `reconnect time ${clock(left)}`
        : `${clock(left)}${c.timeBank > 0 ? ` (+${Math.round(c.timeBank)} s time bank)` : ""}`;
    turn.textContent = what ? `${who} \u00b7 ${what}` : who;
    turn.dataset.phase = c.phase;
    turn.classList.toggle("mine", c.seat === s.mySeat);
  }

  // ------------------------------------------------------------ chat

  async chat() {
    const input = this.el.chatInput;
    const text = input.value.trim();
    this.el.chatError.textContent = "";
    if (!text) return;
    try {
      await this.app.room.request("chat", { table: this.tableId, text });
      input.value = "";
    } catch (e) {
      this.el.chatError.textContent = e.text || e.message;
    }
  }
}
