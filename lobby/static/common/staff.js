// A staff page (the admin lobby, the security review): signing in, the session a reloaded tab carries on, the
// refusal an account without the role sees, the connection bar, and the views by address (#/view/param...).
//
// The page holds no authority: the room checks the role on every request. This only keeps an account without
// the role away from views it could not fill.

import { Room, remember, remembered, forget } from "./room.js";
import { errorText } from "./actions.js";

const $ = (selector) => document.querySelector(selector);
const show = (id, visible) => $(id).classList.toggle("hidden", !visible);

// `views`: name in the address -> module with mount(ctx, container, {view, param, params}); `tabs`: view -> the
// nav tab it belongs to (default: itself); `home`: the view of an empty or unknown address; `connected(room)`:
// subscribe to pushes once the connection is open.
export function startStaffPage({ ctx, roles, views, home, tabs = {}, connected = () => {} }) {
  let unmount = null;

  function route() {
    if (!ctx.me) return;
    const [name = home, ...rest] = location.hash.replace(/^#\/?/, "").split("/");
    const view = views[name] ? name : home;
    const params = rest.map((part) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part;                                 // a malformed escape in the address: taken as it stands
      }
    });
    if (unmount) unmount();
    unmount = null;
    const tab = tabs[view] || view;
    for (const a of document.querySelectorAll("#nav a")) a.classList.toggle("active", a.dataset.view === tab);
    const container = $("#view");
    container.replaceChildren();
    container.dataset.view = view;
    unmount = views[view].mount(ctx, container, { view, param: params.join("/"), params }) || null;
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

  // Whoever the room says this is: the page for the role, or the refusal.
  function signedIn(answer) {
    if (roles.has(answer.role)) enter(answer.nickname, answer.role);
    else showRefused(answer.nickname, answer.role);
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
      if (roles.has(login.role)) remember(login);
      signedIn(login);
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

  // A reloaded tab carries on with its session; whether it may stay is the room's answer, not the page's memory.
  async function resumeSession(saved) {
    let resumed;
    try {
      resumed = await ctx.room.request("resume", { token: saved.token, tables: {} });
    } catch {
      forget();
      return false;
    }
    signedIn(resumed);
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
    connected(ctx.room);
    ctx.room.on("session_changed", ({ role }) => {     // STAFF-3: the page follows a role change at once
      if (!ctx.me) return;
      if (!roles.has(role)) forget();
      signedIn({ nickname: ctx.me.nickname, role });
    });
    ctx.room.on("closed", ({ code, reason }) => {
      if (code === 4000 || code === 4001 || code === 4003) {
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

  return start();
}
