// Your tournament table: the same felt as a cash table, fed by tournament_table_events (hand events for your
// seat, with your legal actions), acting through tournament_act. No seats to pick, no leaving. The chat panel is
// the cash table's (on a phone, its tab below the table): tournament_chat says a line at your table and its
// tournament_chat pushes are your table's lines (kept per event, at most CHAT_LINES). Above the felt the event's strip
// (tournament-info.js): the level and its clock, the blinds now and next, players left, break and pause; the
// side panel holds your rank, the average stack and the payouts; a director's broadcasts stay listed. The page
// (tournament_details) is read on opening and again after each of the event's pushes. Coming back between hands
// (a break, a reload) the table is drawn from that page: its seats and the stacks, with no action to take.
import { clock, h } from "/static/common/format.js";
import { cash } from "./describe.js";
import { autoMuck } from "./muck-choice.js";
import { barParts, clockLeft, infoRows, payoutList, stamped } from "./tournament-info.js";
import { TableState } from "./table-state.js";
import { TableView } from "./table-view.js";

const BROADCASTS = 5;
const CHAT_LINES = 100;

export class TournamentTableView extends TableView {
  constructor(app, root) {
    super(app, root);                 // its tile among your tables (table-tiles.js)
    this.canSit = false;
    this.root.classList.add("no-chat");           // until we have a table in the event open
    this.chats = new Map();           // tournament id -> its chat lines at our table, oldest first
    this.entries = new Map();         // tournament id -> {state, table}
    this.pages = new Map();           // tournament id -> its page (tournament_details, its summary stamped)
    this.broadcasts = new Map();      // tournament id -> [{by, text, at}] newest last
    this.busted = new Map();          // tournament id -> the busted event about us
    this.current = null;
    this.el.bar = h("div.tourney-bar", { "data-testid": "tournament-bar" });
    this.el.news = h("ul.tourney-news.hidden", { "data-testid": "tournament-news", role: "status" });
    this.root.querySelector(".table-top").after(this.el.bar, this.el.news);
  }

  onPush(message) {
    const tid = message.tournament;
    let entry = this.entries.get(tid);
    const fresh = !entry;
    if (!entry || entry.table !== message.table) {       // a new table (the first, or a move: TR-PLAY)
      const known = this.app.lobby.tournaments.find((t) => t.id === tid);
      entry = { table: message.table, events: [], state: new TableState(message.table, this.app.me.nickname,
                                                                           { name: known ? known.name : tid }) };
      this.entries.set(tid, entry);
      if (this.current === tid) this.el.log.replaceChildren();
      const moved = !fresh || (this.current === tid && this.tableId && this.tableId !== message.table);
      if (moved) {                                       // a move: the old table's talk stays there
        this.chats.delete(tid);
        if (this.current === tid) this.el.chatList.replaceChildren();
      }
    }
    const state = entry.state;
    state.applyTournamentFrame(message);
    entry.events.push(...message.events);                // the hand log, for when the table is opened later
    if (entry.events.length > 300) entry.events.splice(0, entry.events.length - 300);
    this.busted.delete(tid);
    if (fresh) this.app.tournamentSeated(tid, state.info.name);
    if (fresh && !autoMuck()) this.tellMuck(tid);          // the event keeps it for us from now on
    if (this.current === tid) {
      this.state = state;                                // it replaces a table drawn from the page
      this.tableId = entry.table;
      this.root.classList.remove("no-chat");
    }
    // Others' busts are told only to them (and to subscribers): a hand's end here reads the field again.
    if (this.current === tid && message.events.some((e) => e.type === "hand_ended")) this.readPageSoon(tid);
    if (this.current === tid && this.visible()) {
      for (const e of message.events) this.logHandEvent(e);
      this.render();
    } else if (message.legal) {
      this.app.toast(`It is your turn in ${state.info.name}.`);
    }
    if (this.current === tid) this.app.table.draw();       // its tile marked (and first) when it waits for us
  }

  // A tournament event of ours or of the field: our time bank starting, a broadcast kept, and the page read
  // again (levels, breaks, pauses, busts change what the strip shows). Pause and break show at once.
  onTournamentEvent(message) {
    const tid = message.tournament;
    const e = message.event || {};
    const entry = this.entries.get(tid);
    if (entry && e.type === "time_bank_started") entry.state.timeBankStarted(e.seconds);
    if (e.type === "broadcast") {
      const list = this.broadcasts.get(tid) || [];
      list.push({ by: e.by, text: e.text, at: Date.now() });
      this.broadcasts.set(tid, list.slice(-BROADCASTS));
    }
    if (e.type === "busted" && this.app.me && e.player === this.app.me.nickname) this.busted.set(tid, e);
    const page = this.pages.get(tid);
    if (page) {
      const t = page.tournament;
      const held = { ...t, clock_left: clockLeft(t), readAt: Date.now() };
      if (e.type === "paused") page.tournament = { ...held, paused: true, pausedBy: e.reason };
      if (e.type === "resumed") page.tournament = { ...held, paused: false };
      if (e.type === "break_started") page.tournament = { ...held, on_break: true, clock_left: e.seconds };
      if (e.type === "break_ended") page.tournament = { ...held, on_break: false };
    }
    if (e.type !== "time_bank_started" && e.type !== "hand_sent" && e.type !== "hand_returned") {
      this.readPageSoon(tid);
    }
    if (this.current === tid && this.visible()) this.render();
  }

  // A line at our table in one of our events: kept for when it is opened, shown if it is open (HR-CHAT).
  onTournamentChat(message) {
    const tid = message.tournament;
    const entry = this.entries.get(tid);
    const page = this.pages.get(tid);
    const table = entry ? entry.table : page && page.you ? page.you.table : null;
    if (message.table !== table) return;
    const lines = this.chats.get(tid) || [];
    lines.push(message);
    this.chats.set(tid, lines.slice(-CHAT_LINES));
    if (this.current === tid && this.tableId === message.table) this.onChat(message);
  }

  // The chat panel shows the lines kept for the open event's table; none while we have no table there.
  showChat() {
    this.root.classList.toggle("no-chat", !this.tableId);
    this.el.chatList.replaceChildren();
    this.el.chatError.textContent = "";
    for (const line of this.chats.get(this.current) || []) this.onChat(line);
  }

  async chat() {
    const input = this.el.chatInput;
    const text = input.value.trim();
    this.el.chatError.textContent = "";
    if (!text || !this.current || !this.tableId) return;
    try {
      await this.app.room.request("tournament_chat", { tournament: this.current, table: this.tableId, text });
      input.value = "";
    } catch (e) {
      this.el.chatError.textContent = e.text || e.message;
    }
  }

  readPageSoon(tid) {
    if (this.current !== tid || this.pageSoon) return;
    this.pageSoon = setTimeout(() => {                    // a burst of events (a level and its seats): one read
      this.pageSoon = null;
      this.readPage(tid);
    }, 300);
  }

  async readPage(tid) {
    try {
      const page = await this.app.room.request("tournament_details", { tournament: tid });
      page.tournament = stamped(page.tournament);
      const before = this.pages.get(tid);
      if (before && before.tournament.pausedBy && page.tournament.paused) page.tournament.pausedBy = before.tournament.pausedBy;
      this.pages.set(tid, page);
      if (page.you) this.app.tournamentSeated(tid, page.tournament.name, true);
    } catch (e) {
      if (this.current === tid) this.el.controlsError.textContent = e.text || e.message;
      return null;
    }
    if (this.current === tid && this.visible()) {
      if (!this.entries.has(tid)) this.drawFromPage(tid);
      if (this.state) this.render();
      else this.renderWaiting();
    }
    return this.pages.get(tid);
  }

  // No hand of ours has come since the page loaded (a break, a reload between hands): our table as the page has
  // it, its seats and their stacks at the start of the last hand. Nothing to act on.
  drawFromPage(tid) {
    const page = this.pages.get(tid);
    const table = page && page.you && page.tables ? page.tables[page.you.table] : null;
    if (!table) return;
    const state = new TableState(page.you.table, this.app.me.nickname,
                                 { name: page.tournament.name, seats: page.structure.table_size, currency: "" });
    state.seq = 0;
    state.handOnly = true;
    for (const [seat, player] of Object.entries(table.seats)) {
      const n = Number(seat);
      state.seats.set(n, { seat: n, player, stack: table.stacks[player] || 0, bet: 0, sittingOut: false,
                           connected: true, owes: null, timeBank: 0, waiting: null, inHand: false, folded: false,
                           allIn: false, cards: null, shown: null, mucked: false, lastAction: null, won: 0,
                           leaving: false });
    }
    this.state = state;
    this.tableId = page.you.table;
    this.showChat();
  }

  async open(tid) {
    this.startTicking();
    const entry = this.entries.get(tid);
    if (this.current !== tid) {
      this.el.log.replaceChildren();
      this.el.actionError.textContent = "";
      this.el.controlsNote.textContent = "";
      this.shownLegal = undefined;
    }
    const switched = this.current !== tid;
    this.current = tid;
    this.tableId = entry ? entry.table : null;
    this.state = entry ? entry.state : null;
    if (switched || !this.tableId) this.showChat();
    if (entry && !this.el.log.children.length) for (const e of entry.events) this.logHandEvent(e);
    if (this.state) this.render();
    else this.renderWaiting();
    if (this.state) this.app.untoast(`It is your turn in ${this.state.info.name}.`);   // the bar says it now
    await this.readPage(tid);
  }

  // Before the first table of ours is known: the event's strip and no felt controls.
  renderWaiting() {
    const page = this.pages.get(this.current);
    this.el.title.textContent = page ? page.tournament.name : this.current;
    this.el.subtitle.textContent = page && page.tournament.state === "running"
      ? "You have no seat in this tournament now." : "Your table is dealt when the tournament starts.";
    this.el.seats.replaceChildren();
    this.drawLegal(null);
    this.el.turn.textContent = "";
    this.renderBar();
    this.renderInfo();
    this.renderControls();
  }

  leaveView() {
    this.stopTicking();
  }

  forget() {
    super.forget();
    this.entries.clear();
    this.pages.clear();
    this.broadcasts.clear();
    this.busted.clear();
    this.chats.clear();
    this.current = null;
  }

  seenSeqs() {
    return {};
  }

  page() {
    return this.pages.get(this.current) || null;
  }

  renderTop() {
    this.el.title.textContent = this.state.info.name || this.current;
    const hand = this.state.hand;
    const blinds = hand ? ` \u00b7 blinds ${hand.smallBlind}/${hand.bigBlind}` : "";
    this.el.subtitle.textContent = `Tournament table ${this.tableId}${blinds}`;
    this.renderBar();
  }

  renderBar() {
    const page = this.page();
    const bar = this.el.bar;
    bar.classList.toggle("hidden", !page);
    if (page) {
      const t = page.tournament;
      bar.dataset.paused = String(!!t.paused);
      bar.dataset.onBreak = String(!!t.on_break);
      bar.replaceChildren(...barParts(page).filter(([, , v]) => v).map(([key, label, value]) =>
        h(`span.item.${key}`, { "data-testid": `tournament-${key}` }, label ? h("small", {}, label) : null, value)));
    }
    const news = this.broadcasts.get(this.current) || [];
    this.el.news.classList.toggle("hidden", !news.length);
    this.el.news.replaceChildren(...news.map((b) => h("li", { "data-testid": "tournament-broadcast" },
      h("span.time", {}, new Date(b.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })),
      h("b", {}, `${b.by}: `), b.text)));
  }

  renderInfo() {
    const page = this.page();
    if (!page) {
      if (this.state) super.renderInfo();
      return;
    }
    const rows = infoRows(page);
    const me = this.state && this.state.seats.get(this.state.mySeat);
    if (me) rows.unshift(["you", "You", `seat ${me.seat} \u00b7 ${me.stack.toLocaleString("en")} chips`]);
    if (this.state && this.state.hand) rows.push(["hand", "Hand", this.state.hand.id]);
    this.el.info.replaceChildren(h("dl", {}, rows.flatMap(([key, k, v]) => [h("dt", {}, k),
      h("dd", { "data-testid": `tournament-info-${key}` }, v)])), payoutList(page));
  }

  renderCenter() {
    super.renderCenter();
    const page = this.page();
    if (!page) return;
    const t = page.tournament;
    const running = this.state.hand && !this.state.hand.ended;
    if (t.on_break && !running) this.el.message.textContent = "On break";
    else if (t.paused && !running) this.el.message.textContent = "Paused";
  }

  renderControls() {
    const s = this.state;
    const me = s ? s.seats.get(s.mySeat) : null;
    let text = "You are not dealt in at this table now.";
    if (this.busted.has(this.current)) text = "You are out of this tournament.";
    else if (me) text = `You play seat ${me.seat} with ${me.stack.toLocaleString("en")} chips. Your seat is dealt in every hand.`;
    const items = [h("span.muted", {}, text)];
    items.push(...this.chipButtons(me));
    this.el.controls.replaceChildren(...items);
  }

  // TR-REG-6: a rebuy (at or below the starting stack, while rebuys are open, the count not used up), the add-on
  // (once, while rebuys are open or in the break after the last rebuy level) and a re-entry after a bust. The
  // room decides; these are offered only when its page says they can be bought.
  chipButtons(me) {
    const page = this.page();
    if (!page) return [];
    const t = page.tournament;
    const st = page.structure;
    const you = page.you;
    const out = [];
    const bust = this.busted.get(this.current);
    if (bust && bust.can_re_enter && !you) {
      out.push(h("button.primary", { type: "button", "data-testid": "tournament-re-enter",
                                     onclick: () => this.buy("tournament_register", "Re-entered") },
        `Re-enter (${cash(t.buy_in + (t.fee || 0) + (t.bounty || 0))})`));
    }
    const inHand = this.state && this.state.hand && !this.state.hand.ended;
    if (!you || t.state !== "running" || inHand) return out;          // chips are bought between hands
    const stack = me ? me.stack : (page.standings.find((x) => x.player === this.app.me.nickname) || {}).chips;
    if (t.rebuys_open && st.rebuys > 0 && you.rebuys < st.rebuys && stack != null && stack <= st.starting_stack) {
      out.push(h("button.primary", { type: "button", "data-testid": "tournament-rebuy",
                                     onclick: () => this.buy("tournament_rebuy", "Rebuy") },
        `Rebuy ${st.starting_stack.toLocaleString("en")} chips (${cash(st.rebuy_cost)}) \u00b7 ${st.rebuys - you.rebuys} left`));
    }
    const addOnOpen = t.rebuys_open || (t.on_break && t.level === st.rebuy_levels);
    if (st.add_on_stack && !you.add_on && addOnOpen) {
      out.push(h("button", { type: "button", "data-testid": "tournament-add-on",
                             onclick: () => this.buy("tournament_add_on", "Add-on") },
        `Add-on ${st.add_on_stack.toLocaleString("en")} chips (${cash(st.add_on_cost)})`));
    }
    return out;
  }

  async buy(type, what) {
    const tid = this.current;
    this.el.controlsError.textContent = "";
    try {
      const answer = await this.app.room.request(type, { tournament: tid });
      if (answer.balance != null && this.app.me) {
        this.app.me.balance = answer.balance;
        this.app.showBalance();
      }
      this.el.controlsNote.textContent = `${what} bought. Your wallet: ${cash(answer.balance)}.`;
      if (type === "tournament_register") this.busted.delete(tid);
    } catch (e) {
      this.el.controlsError.textContent = e.text || e.message;
    }
    await this.readPage(tid);
  }

  // The level clock counts down here. While the tournament is paused or on a break no new hand is dealt: between
  // hands the turn line says so, with no decision clock; a hand still in play keeps its real clock.
  tick() {
    super.tick();
    const page = this.page();
    if (!page || !this.visible()) return;
    const t = page.tournament;
    if (!this.infoAt || Date.now() - this.infoAt > 1000) {    // the panel's next-break clock, once a second
      this.infoAt = Date.now();
      this.renderInfo();
    }
    const level = this.el.bar.querySelector(".level");
    if (level && t.level) {
      level.lastChild.textContent = `${t.level} \u00b7 ${clock(clockLeft(t))}`;
    }
    const state = this.el.bar.querySelector(".state");
    if (state && t.on_break && !t.paused) state.textContent = `On break: play resumes in ${clock(clockLeft(t))}`;
    if (!t.paused && !t.on_break) return;
    const turn = this.el.turn;
    if (this.state && this.state.hand && !this.state.hand.ended) {
      // A pause or a break stops new hands, not the one in play: its decision clock is real and stays shown.
      turn.textContent += t.paused ? " \u00b7 play pauses after this hand" : " \u00b7 the break starts after this hand";
      return;
    }
    for (const timer of this.el.seats.querySelectorAll(".timer")) timer.classList.add("hidden");
    turn.dataset.phase = t.paused ? "paused" : "break";
    turn.classList.remove("mine");
    turn.textContent = t.paused ? `Paused by the tournament director${t.pausedBy ? `: ${t.pausedBy}` : ""}`
      : `On break: play resumes in ${clock(clockLeft(t))}`;
  }

  // The choice is the player's for the whole event (tournament_options), whatever table they sit at.
  async tellMuck(tid = this.current) {
    this.drawMuck();
    const page = this.pages.get(tid);
    if (!tid || this.busted.has(tid) || !(this.entries.has(tid) || (page && page.you))) return;
    try {
      await this.app.room.request("tournament_options", { tournament: tid, auto_muck: autoMuck() });
    } catch (e) {
      this.el.controlsError.textContent = e.text || e.message;
    }
  }

  async act(action, to = null) {
    if (this.pending || !this.state) return;
    this.pending = true;
    this.el.actionError.textContent = "";
    this.renderActions();
    const legal = this.state.legal;
    const fields = { tournament: this.current, action, decision: legal ? legal.decision : "" };
    if (to != null) fields.to = to;                   // a bet or raise: the total on the street
    try {
      await this.app.room.request("tournament_act", fields);
    } catch (e) {
      this.el.actionError.textContent = e.text || e.message;
    } finally {
      this.pending = false;
      if (this.state) this.render();
    }
  }
}
