// The player's client: one connection to the room, a session that survives a reload (resume), and its views
// (log in, lobby, a table, the hand history, the cashier) chosen by the address's #fragment.
import { Room, RoomError, forget, remember, remembered } from "/static/common/room.js";
import { setupAuth } from "./auth.js";
import { CashierView } from "./cashier.js";
import { CasinoView } from "./casino-view.js";
import { cash } from "./describe.js";
import { HistoryView } from "./history.js";
import { Lobby } from "./lobby.js";
import { autoMuck } from "./muck-choice.js";
import { TableTiles } from "./table-tiles.js";

const $ = (id) => document.getElementById(id);
const VIEWS = ["auth-view", "lobby-view", "table-view", "history-view", "cashier-view", "casino-view"];
const RETRIES = [500, 1000, 2000, 4000, 8000, 15000];

class App {
  constructor() {
    this.room = new Room();
    this.me = null;                   // {nickname, role, balance}
    this.token = null;
    this.lobby = new Lobby(this);
    this.table = new TableTiles(this);  // your tables, a TableView each (several side by side when wide)
    this.history = new HistoryView(this);
    this.cashier = new CashierView(this);
    this.tournamentTable = this.table.tourney;   // your tournament table: one of the tiles
    this.casino = new CasinoView(this);
    this.retry = 0;
    this.reconnecting = false;
    this.toastTimer = null;
    this.room.on("table_snapshot", (m) => this.table.onSnapshot(m));
    this.room.on("table_events", (m) => this.table.onEvents(m));
    this.room.on("table_closed", (m) => this.table.onClosed(m));
    this.room.on("table_moved", (m) => {         // another table's (a casino round refunded): in a toast
      if (this.table.onMoved(m)) return;
      this.toast(m.message);
      this.refreshBalance();
    });
    this.room.on("chat", (m) => this.table.onChat(m));
    this.room.on("casino_events", (m) => this.casino.onEvents(m));
    this.room.on("casino_state", (m) => this.casino.onState(m));
    this.room.on("lobby_update", (m) => this.lobby.onUpdate(m));
    this.room.on("tournament_event", (m) => {
      this.lobby.onTournamentEvent(m);
      this.tournamentTable.onTournamentEvent(m);
    });
    this.room.on("tournament_table_events", (m) => this.tournamentTable.onPush(m));
    this.room.on("tournament_chat", (m) => this.tournamentTable.onTournamentChat(m));
    this.room.on("reminder", (m) => this.toast(`You have been playing for ${m.minutes_played} minutes.`));
    this.room.on("error", (m) => this.toast(new RoomError(m.error).text, true));
    this.room.on("closed", (closed) => this.lost(closed));
    $("logout").addEventListener("click", () => this.logOut());
    window.addEventListener("hashchange", () => this.route());
    setupAuth(this);
  }

  async start() {
    try {
      await this.room.connect();
    } catch {
      $("booting").textContent = "The room cannot be reached right now; retrying…";
      this.reconnectLater();
      return;
    }
    const saved = remembered();
    if (saved && saved.token) {
      try {
        const answer = await this.room.request("resume", { token: saved.token, tables: {} });
        this.signedIn({ nickname: answer.nickname, token: saved.token, role: answer.role, balance: null });
        this.refreshBalance();
      } catch (e) {
        forget();                       // the session ended (a restart, a log-in elsewhere): log in again
        $("login-form").querySelector(".error").textContent = `Please log in again: ${e.text || e.message}`;
      }
    }
    $("booting").classList.add("hidden");
    this.route();
  }

  signedIn(answer) {
    this.me = { nickname: answer.nickname, role: answer.role || "player", balance: answer.balance };
    this.token = answer.token;
    remember({ token: answer.token, nickname: answer.nickname });
    $("whoami").textContent = answer.nickname;
    this.showBalance();
    $("account").classList.remove("hidden");
    $("nav").classList.remove("hidden");
  }

  showBalance() {
    const balance = this.me && this.me.balance;
    $("balance").textContent = balance == null ? "" : cash(balance, "USD");
    $("balance").title = "your wallet";
  }

  async refreshBalance() {
    if (!this.me) return;
    try {
      const answer = await this.room.request("bet_history", { limit: 1 });
      this.me.balance = answer.balance;
      this.showBalance();
    } catch (e) {
      this.toast(`Your balance could not be read: ${e.text || e.message}`, true);
    }
  }

  async logOut() {
    try {
      if (this.room.socket && this.room.socket.readyState === WebSocket.OPEN) await this.room.request("logout");
    } catch (e) {
      this.toast(e.text || e.message, true);
    }
    forget();
    this.me = null;
    this.token = null;
    this.table.forget();
    this.casino.forget();
    for (const link of document.querySelectorAll("#nav a.tournament-link")) link.remove();
    $("account").classList.add("hidden");
    $("nav").classList.add("hidden");
    if (location.hash && location.hash !== "#login") location.hash = "#login";
    else this.route();
  }

  route() {
    const hash = fragment();
    if (!this.me) {
      this.show("auth-view");
      return;
    }
    if (hash.startsWith("table/")) {
      this.show("table-view");
      this.table.open(hash.slice(6));
      return;
    }
    if (hash.startsWith("tournament/")) {       // a tile beside your cash tables (table-tiles.js)
      this.show("table-view");
      this.table.openTournament(hash.slice(11));
      return;
    }
    this.table.leaveView();
    if (hash.startsWith("casino/")) {
      this.show("casino-view");
      this.casino.open(hash.slice(7));
      return;
    }
    this.casino.leaveView();
    if (hash === "history") {
      this.show("history-view");
      this.history.show();
    } else if (hash === "cashier") {
      this.show("cashier-view");
      this.cashier.show();
    } else {
      this.show("lobby-view");
      this.lobby.show();
      this.refreshBalance();
    }
  }

  // A tournament we entered dealt us a table: a link to it in the top bar (quiet: one found on a page or in the
  // lobby's list, a reload or a log-in during the event, with no toast).
  tournamentSeated(tid, name, quiet = false) {
    const testid = `nav-tournament-${tid}`;
    if (!document.querySelector(`[data-testid="${CSS.escape(testid)}"]`)) {
      const link = document.createElement("a");
      link.href = `#tournament/${encodeURIComponent(tid)}`;
      link.className = "tournament-link";
      link.dataset.testid = testid;
      link.textContent = `\u2660 ${name}`;
      $("nav").append(link);
    }
    if (!quiet && !this.tournamentTable.visible()) {
      this.toast(`${name} has started: your table is in the top bar.`);
    }
  }

  show(view) {
    if (document.body.dataset.view !== view) window.scrollTo(0, 0);   // a new view opens at its top (a phone's table)
    for (const id of VIEWS) $(id).classList.toggle("hidden", id !== view);
    document.body.dataset.view = view;
    for (const link of document.querySelectorAll("#nav a")) {
      const target = link.getAttribute("href").slice(1);
      link.classList.toggle("active", view.startsWith(target) || `#${fragment()}` === `#${target}`);
    }
  }

  go(hash) {
    if (location.hash === hash) this.route();
    else location.hash = hash;
  }

  toast(text, bad = false) {
    const el = $("toast");
    el.textContent = text;
    el.classList.toggle("bad", bad);
    el.classList.remove("hidden");
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => el.classList.add("hidden"), 6000);
  }

  // A toast about what the screen now shows itself (your turn, at the table you are looking at) goes at once:
  // on a small phone it lies over the action bar.
  untoast(text) {
    const el = $("toast");
    if (el.textContent === text) el.classList.add("hidden");
  }

  clearToast() {
    $("toast").classList.add("hidden");
  }

  // ------------------------------------------------------------ the connection

  lost(closed) {
    const el = $("connection");
    if (closed.code === 4000 || closed.code === 4001) {        // this account is now used elsewhere
      el.textContent = `Disconnected: ${closed.reason || "logged in elsewhere"}`;
      el.classList.remove("hidden");
      forget();
      this.me = null;
      this.route();
      return;
    }
    el.textContent = "Connection lost \u2014 reconnecting\u2026";
    el.classList.remove("hidden");
    this.reconnectLater();
  }

  reconnectLater() {
    if (this.reconnecting) return;
    this.reconnecting = true;
    const wait = RETRIES[Math.min(this.retry, RETRIES.length - 1)];
    this.retry += 1;
    setTimeout(() => this.reconnect(), wait);
  }

  async reconnect() {
    this.reconnecting = false;
    try {
      await this.room.connect();
    } catch {
      this.reconnectLater();
      return;
    }
    this.retry = 0;
    $("connection").classList.add("hidden");
    if (!this.me || !this.token) {
      $("booting").classList.add("hidden");
      this.route();
      return;
    }
    try {
      const tables = this.table.seenSeqs();
      try {
        await this.room.request("resume", { token: this.token, tables });   // catch-up arrives before the answer
      } catch (e) {
        // a table the room no longer has for us, or seqs from before its restart: resume with a snapshot of each
        if (!["bad_seq", "not_watching", "no_such_table"].includes(e.code)) throw e;
        await this.room.request("resume", { token: this.token, tables: {} });
      }
      if (document.body.dataset.view === "lobby-view") this.lobby.show(true);
      if (!autoMuck()) this.table.muckChanged();    // a room restarted keeps no seat's choice: told again
      this.refreshBalance();
    } catch (e) {
      this.toast(`Your session could not be resumed (${e.text || e.message}); please log in again.`, true);
      forget();
      this.me = null;
      this.route();
    }
  }
}

const app = new App();
window.pokerroom = app;               // for a person poking around in the console
app.start();

// The page's address after "#", decoded; a malformed escape is taken as it stands rather than thrown.
function fragment() {
  const raw = location.hash.replace(/^#/, "");
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
