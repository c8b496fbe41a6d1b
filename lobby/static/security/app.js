// The security team's review pages: signing in, the session and the views (hands and their replay, chat, the
// ranked pairs, a player, cases, the audit log).
//
// The page holds no authority: the room checks the role on every security_* request and answers `forbidden`
// otherwise. The page only keeps an account without the role away from views it could not fill.

import { Room, remember, remembered, forget } from "../common/room.js";
import { errorText } from "./ui.js";
import * as hands from "./hands.js";
import * as replay from "./replay.js";
import * as chat from "./chat.js";
import * as pairs from "./pairs.js";
import * as player from "./player.js";
import * as cases from "./cases.js";
import * as audit from "./audit.js";

const SECURITY_ROLES = new Set(["security", "admin"]);

const $ = (selector) => document.querySelector(selector);

// What the views share: the connection, who is signed in, and the searches they keep while you look around.
export const ctx = {
  room: null,
  me: null,                       // {nickname, role}
  kept: new Map(),                // view name -> {fields, answer}
  openCases: null,                // the open cases, for "attach to case" (fetched when needed)

  async loadOpenCases(fresh = false) {
    if (!this.openCases || fresh) this.openCases = (await this.room.request("security_cases", { state: "open" })).cases;
    return this.openCases;
  },
};

// name in the address -> [view module, nav tab it belongs to]
const VIEWS = {
  hands: [hands, "hands"], hand: [replay, "hands"], chat: [chat, "chat"], pairs: [pairs, "pairs"], pair: [pairs, "pairs"],
  player: [player, "player"], cases: [cases, "cases"], case: [cases, "cases"], audit: [audit, "audit"],
};
let unmount = null;

function route() {
  if (!ctx.me) return;
  const [name = "hands", ...rest] = location.hash.replace(/^#\/?/, "").split("/");
  const view = VIEWS[name] ? name : "hands";
  const params = rest.map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;                                   // a malformed escape in the address: taken as it stands
    }
  });
  if (unmount) unmount();
  unmount = null;
  const [module, tab] = VIEWS[view];
  for (const a of document.querySelectorAll("#nav a")) a.classList.toggle("active", a.dataset.view === tab);
  const container = $("#view");
  container.replaceChildren();
  container.dataset.view = view;
  unmount = module.mount(ctx, container, { view, param: params[0] || "", params }) || null;
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
  ctx.me = null;
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
    if (!SECURITY_ROLES.has(login.role)) {
      showRefused(login.nickname, login.role);          // no review UI; the room would refuse it anyway
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

// A reloaded tab carries on with its session; whether it may review is the room's answer, not the page's memory.
async function resumeSession(saved) {
  let resumed;
  try {
    resumed = await ctx.room.request("resume", { token: saved.token, tables: {} });
  } catch {
    forget();
    return false;
  }
  if (!SECURITY_ROLES.has(resumed.role)) showRefused(resumed.nickname, resumed.role);
  else enter(resumed.nickname, resumed.role);
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
