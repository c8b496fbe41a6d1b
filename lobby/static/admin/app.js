// The tournament directors' admin lobby: signing in, the session, the views and the pushes they share.
//
// The page holds no authority: the room checks the role on every director command and answers `forbidden`
// otherwise. The page only keeps an account without the role away from controls it could not use.

import { Room, remember, remembered, forget } from "../common/room.js";
import { errorText } from "./ui.js";
import * as list from "./tournaments.js";
import * as editor from "./editor.js";
import * as live from "./live.js";
import * as tables from "./tables.js";
import * as activity from "./activity.js";

const DIRECTOR_ROLES = new Set(["director", "admin"]);
const FEED_LENGTH = 300;

const $ = (selector) => document.querySelector(selector);

// What the views share: the connection, who is signed in, the tournaments we know and their recent events.
export const ctx = {
  room: null,
  me: null,                       // {nickname, role}
  templates: null,                // the director_templates answer, once loaded
  tournaments: new Map(),         // id -> summary (tournament_list)
  subscribed: new Set(),
  feeds: new Map(),               // id -> [{at, event}], newest last
  deals: new Map(),               // id -> the last deal event (a deal waiting for the director, or its outcome)

  async loadTemplates() {
    if (!this.templates) this.templates = await this.room.request("director_templates");
    return this.templates;
  },

  // The tournament list, subscribing to the pushes of every tournament still registering or running (once each,
  // one request after another: the room limits how many requests a connection sends a second).
  async refreshTournaments() {
    const answer = await this.room.request("tournament_list");
    this.tournaments = new Map(answer.tournaments.map((t) => [t.id, t]));
    const active = answer.tournaments.filter((t) => (t.state === "registering" || t.state === "running")
      && !this.subscribed.has(t.id));
    for (const t of active) {
      this.subscribed.add(t.id);
      await this.room.request("tournament_subscribe", { tournament: t.id, on: true });
    }
    return answer.tournaments;
  },

  feed(id) {
    return this.feeds.get(id) || [];
  },
};

const VIEWS = {
  tournaments: list, create: editor, edit: editor, t: live, tables, activity,
};
let unmount = null;

function route() {
  if (!ctx.me) return;
  const [name = "tournaments", ...rest] = location.hash.replace(/^#\/?/, "").split("/");
  const view = VIEWS[name] ? name : "tournaments";
  const param = rest.map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;                                   // a malformed escape in the address: taken as it stands
    }
  }).join("/");
  if (unmount) unmount();
  unmount = null;
  for (const a of document.querySelectorAll("#nav a")) {
    a.classList.toggle("active", a.dataset.view === view || (view === "t" && a.dataset.view === "tournaments"));
  }
  const container = $("#view");
  container.replaceChildren();
  container.dataset.view = view;
  unmount = VIEWS[view].mount(ctx, container, { view, param }) || null;
}

function show(id, visible) {
  $(id).classList.toggle("hidden", !visible);
}

function showSignIn() {
  ctx.me = null;
  show("#sign-in", true);
  show("#refused", false);
  show("#nav", false);
  show("#who", false);
  show("#sign-out", false);
  $("#view").replaceChildren();
  $("#login-form [name=nickname]").focus();
}

function showRefused(nickname, role) {
  show("#sign-in", false);
  show("#refused", true);
  show("#nav", false);
  show("#who", true);
  show("#sign-out", true);
  $("#who").textContent = nickname;
  $("#refused [data-field=nickname]").textContent = nickname;
  $("#refused [data-field=role]").textContent = role;
  $("#view").replaceChildren();
}

function enter(nickname, role) {
  ctx.me = { nickname, role };
  show("#sign-in", false);
  show("#refused", false);
  show("#nav", true);
  show("#who", true);
  show("#sign-out", true);
  $("#who").textContent = `${nickname} · ${role}`;
  route();
}

function connectionProblem(text, canReconnect = true) {
  const bar = $("#connection");
  bar.replaceChildren(document.createTextNode(text));
  if (canReconnect) {
    const again = document.createElement("button");
    again.type = "button";
    again.textContent = "Reconnect";
    again.addEventListener("click", () => location.reload());
    bar.append(" ", again);
  }
  bar.classList.remove("hidden");
}

function received(message) {
  const id = message.tournament;
  const feed = ctx.feeds.get(id) || [];
  feed.push({ at: Date.now() / 1000, event: message.event });
  if (feed.length > FEED_LENGTH) feed.splice(0, feed.length - FEED_LENGTH);
  ctx.feeds.set(id, feed);
  if (message.event.type.startsWith("deal_")) ctx.deals.set(id, message.event);
}

async function signIn(event) {
  event.preventDefault();
  const form = event.target;
  const error = form.querySelector("[data-testid=login-error]");
  const button = form.querySelector("button");
  error.textContent = "";
  button.disabled = true;
  try {
    const login = await ctx.room.request("login", {
      nickname: form.nickname.value.trim(), password: form.password.value, client: "browser",
    });
    form.password.value = "";
    if (!DIRECTOR_ROLES.has(login.role)) {
      showRefused(login.nickname, login.role);          // no admin UI; the server would refuse it anyway
      return;
    }
    remember(login);
    enter(login.nickname, login.role);
  } catch (e) {
    error.textContent = errorText(e);
  } finally {
    button.disabled = false;
  }
}

async function signOut() {
  try {
    await ctx.room.request("logout");
  } catch {
    // signing out of a closed connection: nothing left to end
  }
  forget();
  location.hash = "";
  location.reload();
}

// A reloaded tab carries on with its session; whether it may direct is the room's answer, not the page's memory.
async function resumeSession(saved) {
  let resumed;
  try {
    resumed = await ctx.room.request("resume", { token: saved.token, tables: {} });
  } catch {
    forget();
    return false;
  }
  if (!DIRECTOR_ROLES.has(resumed.role)) {
    showRefused(resumed.nickname, resumed.role);
    return true;
  }
  enter(resumed.nickname, resumed.role);
  return true;
}

async function start() {
  $("#login-form").addEventListener("submit", signIn);
  $("#sign-out").addEventListener("click", signOut);
  window.addEventListener("hashchange", route);
  ctx.room = new Room();
  try {
    await ctx.room.connect();
  } catch (e) {
    connectionProblem(`Cannot reach the room: ${errorText(e)}.`);
    return;
  }
  ctx.room.on("tournament_event", received);
  ctx.room.on("closed", ({ code, reason }) => {
    if (code === 4000 || code === 4001) {
      forget();
      connectionProblem(`Signed out: ${reason || "this account signed in elsewhere"}.`);
    } else {
      connectionProblem(`The connection to the room closed${reason ? `: ${reason}` : ""}.`);
    }
  });
  const saved = remembered();
  if (saved && (await resumeSession(saved))) return;
  showSignIn();
}

start();
