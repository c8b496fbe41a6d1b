// Small pieces every view of the security pages shares: running an action with its outcome shown next to it,
// reasons, times, links between views, money and ledger postings, and the confirm dialog.

import { Refusal } from "../common/actions.js";
import { h, money } from "../common/format.js";

export const CURRENCY = "USD";
export const cash = (amount, currency = CURRENCY) => money(amount, currency);

export { act, errorText, failed, outcome, reasonOf, Refusal } from "../common/actions.js";

export function reasonInput(testid, placeholder = "reason (written to the audit log)") {
  return h("input.reason", { maxlength: 200, placeholder, "data-testid": testid, autocomplete: "off" });
}

export function required(input, what) {
  const value = input.value.trim();
  if (!value) {
    input.focus();
    throw new Refusal(`Give ${what} first.`);
  }
  return value;
}

// A <input type="datetime-local"> as whole UTC seconds, or undefined when empty.
export function secondsOf(input, what) {
  const text = input.value.trim();
  if (!text) return undefined;
  const at = new Date(text).getTime();
  if (!Number.isFinite(at)) throw new Refusal(`${what} is not a time.`);
  return Math.floor(at / 1000);
}

export function limitSelect(testid, choices = [50, 100, 200, 500]) {
  return h("select", { "data-testid": testid }, choices.map((n) => h("option", { value: n }, `last ${n}`)));
}

// Fields for a request: only those with a value (the room refuses unknown and, for most, empty fields).
export function present(fields) {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null && v !== ""));
}

export function shortWhen(at) {
  if (at == null) return "";
  return new Date(at * 1000).toLocaleString([], {
    month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false,
  });
}

const enc = encodeURIComponent;

export function playerLink(nickname) {
  return h("a.player-link", { href: `#/player/${enc(nickname)}`, "data-testid": "player-link", dataset: { player: nickname } },
    nickname);
}

export function playerLinks(players) {
  const out = [];
  (players || []).forEach((p, i) => {
    if (i) out.push(", ");
    out.push(playerLink(p));
  });
  return out;
}

export function handLink(handId) {
  return h("a.hand-link", { href: `#/hand/${enc(handId)}`, "data-testid": "hand-link", dataset: { hand: handId } }, handId);
}

export function caseLink(id, text = `case ${id}`) {
  return h("a.case-link", { href: `#/case/${enc(String(id))}`, "data-testid": "case-link", dataset: { case: id } }, text);
}

export function badge(text, kind = "") {
  return h(`span.badge${kind ? `.${kind}` : ""}`, {}, text);
}

// Ledger postings as rows of "account  +amount", the player's own accounts marked.
export function postingsList(postings, player) {
  return h("ul.postings", {}, (postings || []).map(([account, amount]) => {
    const own = player && (account === `cash:${player}` || account.endsWith(`:${player}`));
    return h(`li${own ? ".own" : ""}`, { "data-testid": "posting", dataset: { account } },
      h("span.account", {}, account),
      h(`span.amount${amount < 0 ? ".down" : ".up"}`, { "data-testid": "posting-amount" },
        (amount > 0 ? "+" : "") + cash(amount)));
  }));
}

// One transfer as a table row: number, when, reason, reference and postings.
export function transferRow(t, player) {
  const reason = String(t.reason || "");
  return h(`tr${reason === "void" ? ".void" : ""}`, { "data-testid": "transfer-row", dataset: { reason, number: t.number } },
    h("td.num", {}, String(t.number)),
    h("td.nowrap", {}, shortWhen(t.at)),
    h("td", { "data-testid": "transfer-reason" }, reason === "void" ? badge("void", "bad") : reason),
    h("td", { "data-testid": "transfer-reference" }, t.reference || ""),
    h("td", {}, postingsList(t.postings, player)));
}

export function transfersTable(transfers, player, testid = "transfers") {
  return h("table.grid.compact", { "data-testid": testid },
    h("thead", {}, h("tr", {}, ["#", "When", "Reason", "Reference", "Postings"].map((t) => h("th", {}, t)))),
    h("tbody", {}, transfers.map((t) => transferRow(t, player))));
}

// A record's data as "key: value · key: value"; moments (until, ..._at) as times.
export function dataText(data) {
  const shown = (key, value) => {
    if (typeof value === "number" && (key === "until" || key === "at" || key.endsWith("_at"))) return shortWhen(value);
    return typeof value === "object" ? JSON.stringify(value) : value;
  };
  return Object.entries(data || {})
    .filter(([, value]) => value != null && value !== "" && !(typeof value === "object" && !Object.keys(value).length))
    .map(([key, value]) => `${key.replace(/_/g, " ")}: ${shown(key, value)}`)
    .join(" · ");
}

// The room's answer `text` saved as a file called `filename`, as the browser downloads things.
export function download(text, filename, type = "text/plain") {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const a = h("a.hidden", { href: url, download: filename });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// Asks before something that cannot be taken back; resolves true when confirmed.
export function confirmed(title, text, yes) {
  const dialog = document.getElementById("confirm-dialog");
  dialog.querySelector("[data-field=title]").textContent = title;
  dialog.querySelector("[data-field=text]").textContent = text;
  dialog.querySelector("[data-action=yes]").textContent = yes;
  return new Promise((resolve) => {
    const done = (answer) => {
      dialog.querySelector("[data-action=yes]").onclick = null;
      dialog.querySelector("[data-action=no]").onclick = null;
      dialog.onclose = null;
      if (dialog.open) dialog.close();
      resolve(answer);
    };
    dialog.querySelector("[data-action=yes]").onclick = () => done(true);
    dialog.querySelector("[data-action=no]").onclick = () => done(false);
    dialog.onclose = () => done(false);
    dialog.showModal();
  });
}

// A search form's inputs kept across views: going to a replay and back shows the same search and results.
export function kept(ctx, name, initial) {
  if (!ctx.kept.has(name)) ctx.kept.set(name, { fields: { ...initial }, answer: null });
  return ctx.kept.get(name);
}
