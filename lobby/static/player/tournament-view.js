// Your tournament table: the same felt as a cash table, fed by tournament_table_events (hand events for your
// seat, with your legal actions), acting through tournament_act. No seats to pick, no chat, no leaving.
import { h } from "/static/common/format.js";
import { TableState } from "./table-state.js";
import { TableView } from "./table-view.js";

export class TournamentTableView extends TableView {
  constructor(app) {
    super(app, "tournament-view");
    this.canSit = false;
    this.root.classList.add("no-chat");
    this.entries = new Map();         // tournament id -> {state, table}
    this.current = null;
  }

  onPush(message) {
    const tid = message.tournament;
    let entry = this.entries.get(tid);
    const fresh = !entry;
    if (!entry || entry.table !== message.table) {       // a new table (the first, or a move: TR-PLAY)
      const known = this.app.lobby.tournaments.find((t) => t.id === tid);
      entry = { table: message.table, state: new TableState(message.table, this.app.me.nickname,
                                                               { name: known ? known.name : tid }) };
      this.entries.set(tid, entry);
      if (this.current === tid) this.el.log.replaceChildren();
    }
    const state = entry.state;
    state.applyTournamentFrame(message);
    if (fresh) this.app.tournamentSeated(tid, state.info.name);
    if (this.current === tid && this.visible()) {
      for (const e of message.events) this.logHandEvent(e);
      this.render();
    } else if (message.legal) {
      this.app.toast(`It is your turn in ${state.info.name}.`);
    }
  }

  // A tournament event of ours: the only one the table view needs is our time bank starting.
  onTournamentEvent(message) {
    const entry = this.entries.get(message.tournament);
    if (!entry || message.event.type !== "time_bank_started") return;
    entry.state.timeBankStarted(message.event.seconds);
    if (this.current === message.tournament && this.visible()) this.render();
  }

  async open(tid) {
    this.startTicking();
    const entry = this.entries.get(tid);
    if (this.current !== tid) {
      this.el.log.replaceChildren();
      this.el.actionError.textContent = "";
      this.shownLegal = undefined;
    }
    this.current = tid;
    this.tableId = entry ? entry.table : null;
    this.state = entry ? entry.state : null;
    if (!this.state) {
      this.el.title.textContent = tid;
      this.el.subtitle.textContent = "Your table is dealt when the tournament starts.";
      return;
    }
    this.render();
  }

  leaveView() {
    this.stopTicking();
  }

  forget() {
    super.forget();
    this.entries.clear();
    this.current = null;
  }

  seenSeqs() {
    return {};
  }

  renderTop() {
    this.el.title.textContent = this.state.info.name || this.current;
    const hand = this.state.hand;
    const blinds = hand ? ` \u00b7 blinds ${hand.smallBlind}/${hand.bigBlind}` : "";
    this.el.subtitle.textContent = `Tournament table ${this.tableId}${blinds}`;
  }

  renderControls() {
    const s = this.state;
    const me = s.seats.get(s.mySeat);
    this.el.controls.replaceChildren(h("span.muted", {}, me
      ? `You play seat ${me.seat} with ${me.stack.toLocaleString("en")} chips. Your seat is dealt in every hand.`
      : "You are not dealt in at this table now."));
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
