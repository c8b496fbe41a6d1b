// A player as the security team sees them: status, mutes, restrictions, connections, old nicknames and recent
// ledger transfers (where a void's reversing entries show, AC-7), with the team's actions, each with a reason that
// goes to the audit log: mute / unmute (HR-CHAT-3), reset the nickname (AC-3), freeze / unfreeze, ban, keep away
// from another account, verify the identity (AC-4).

import { h } from "../common/format.js";
import {
  Refusal, act, badge, cash, confirmed, limitSelect, outcome, playerLink, reasonInput, reasonOf, required, shortWhen,
  transfersTable,
} from "./ui.js";

const STATUS_KIND = { active: "good", frozen: "warn", banned: "bad", closed: "bad" };

function lookupForm(current) {
  const input = h("input", { maxlength: 20, placeholder: "nickname", value: current || "", "data-testid": "player-lookup",
    autocomplete: "off" });
  const form = h("form.inline-form", { "data-testid": "player-lookup-form", novalidate: true },
    h("label", {}, "Player", input), h("button.primary", { type: "submit", "data-testid": "player-show" }, "Show"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const name = input.value.trim();
    if (name) location.hash = `#/player/${encodeURIComponent(name)}`;
  });
  return form;
}

function table(testid, headings, rows, empty) {
  if (!rows.length) return h("p.muted", { "data-testid": `${testid}-empty` }, empty);
  return h("table.grid.compact", { "data-testid": testid },
    h("thead", {}, h("tr", {}, headings.map((t) => h("th", {}, t)))), h("tbody", {}, rows));
}

function details(p) {
  const mutes = (p.muted || []).map((m) => h("tr", { "data-testid": "mute-row", dataset: { table: m.table || "" } },
    h("td", {}, m.table || "room-wide"), h("td", {}, m.until == null ? "permanent" : `until ${shortWhen(m.until)}`),
    h("td", {}, m.reason || "")));
  const restrictions = (p.restrictions || []).map((r) => h("tr", { "data-testid": "restriction-row", dataset: { player: r.player } },
    h("td", {}, playerLink(r.player)), h("td", {}, r.reason || "")));
  const newest = [...(p.connections || [])].sort((a, b) => (b.connected_at || 0) - (a.connected_at || 0));
  const connections = newest.map((c) => h("tr", { "data-testid": "connection-row" },
    h("td", {}, c.ip || ""), h("td", {}, c.device || h("span.muted", {}, "\u2014")),
    h("td.nowrap", {}, shortWhen(c.connected_at)),
    h("td.nowrap", {}, c.disconnected_at == null ? badge("connected", "good") : shortWhen(c.disconnected_at))));
  return [
    h("div.panel.player-summary", { "data-testid": "player-summary" },
      h("div.title-line", {}, h("h2", { "data-testid": "player-nickname" }, p.nickname),
        h(`span.badge.${STATUS_KIND[p.status] || "plain"}`, { "data-testid": "player-status" }, p.status),
        h("span.badge.plain", { "data-testid": "player-role" }, p.role)),
      h("dl.facts", {},
        h("dt", {}, "Wallet"), h("dd", { "data-testid": "player-balance" }, cash(p.balance)),
        h("dt", {}, "Verified name"), h("dd", { "data-testid": "player-verified" },
          p.verified_name || h("span.muted", {}, "not verified")),
        h("dt", {}, "Earlier nicknames"), h("dd", { "data-testid": "player-aliases" },
          (p.aliases || []).length ? p.aliases.join(", ") : h("span.muted", {}, "none"))),
      h("p", {}, h("a", { href: `#/hands/${encodeURIComponent(p.nickname)}`, "data-testid": "player-hands" }, "Hands"),
        " \u00b7 ", h("a", { href: `#/chat/${encodeURIComponent(p.nickname)}`, "data-testid": "player-chat" }, "Chat"),
        " \u00b7 ", h("a", { href: `#/audit/${encodeURIComponent(p.nickname)}`, "data-testid": "player-audit" }, "Audit log"))),
    h("div.player-columns", {},
      h("section.panel", { "data-testid": "player-mutes" }, h("h3", {}, "Chat mutes"),
        table("mutes", ["Where", "How long", "Why"], mutes, "Not muted.")),
      h("section.panel", { "data-testid": "player-restrictions" }, h("h3", {}, "Kept apart from"),
        table("restrictions", ["Player", "Why"], restrictions, "No restriction."))),
    h("section.panel", { "data-testid": "player-connections" }, h("h3", {}, "Connections"),
      table("connections", ["Address", "Device", "Connected", "Disconnected"], connections, "No connection recorded.")),
  ];
}

// One action form: its fields, a reason, a button; `send` builds and sends the request from the fields.
function actionForm(name, title, fields, buttonText, send, { danger = false, note = "" } = {}) {
  const reason = reasonInput(`${name}-reason`);
  const button = h(`button.${danger ? "danger" : "primary"}`, { type: "submit", "data-testid": `${name}-submit` }, buttonText);
  const out = outcome(`${name}-outcome`);
  const form = h("form.action-form", { "data-testid": `${name}-form`, novalidate: true },
    h("h3", {}, title), note ? h("p.muted", {}, note) : null,
    h("div.inline-form", {}, fields, h("label", {}, "Reason", reason), button), out);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    act(button, out, () => send(reason), (text) => text);
  });
  return form;
}

function actions(ctx, nickname, reload) {
  const room = ctx.room;
  const player = nickname;

  const scope = h("select", { "data-testid": "mute-scope" },
    h("option", { value: "room" }, "room-wide"), h("option", { value: "table" }, "at one table"));
  const muteTable = h("input", { maxlength: 64, placeholder: "table id", "data-testid": "mute-table", disabled: true });
  scope.addEventListener("change", () => { muteTable.disabled = scope.value !== "table"; });
  const span = h("select", { "data-testid": "mute-span" },
    h("option", { value: "minutes" }, "for minutes"), h("option", { value: "permanent" }, "permanently"));
  const minutes = h("input", { inputmode: "numeric", value: "60", size: 6, "data-testid": "mute-minutes" });
  span.addEventListener("change", () => { minutes.disabled = span.value === "permanent"; });
  const mute = actionForm("mute", "Mute chat (HR-CHAT-3)",
    [h("label", {}, "Where", scope), h("label", {}, "Table", muteTable), h("label", {}, "How long", span),
      h("label", {}, "Minutes", minutes)], "Mute", async (reason) => {
      const fields = { player };
      if (scope.value === "table") fields.table = required(muteTable, "the table");
      if (span.value === "minutes") {
        const n = Number(minutes.value.trim());
        if (!Number.isInteger(n) || n < 1) throw new Refusal("Minutes must be a whole number of at least 1.");
        fields.minutes = n;
      }
      fields.reason = reasonOf(reason);
      await room.request("security_mute", fields);
      reload();
      return `Muted ${fields.table ? `at ${fields.table}` : "room-wide"} ${fields.minutes ? `for ${fields.minutes} min` : "permanently"}.`;
    });

  const unmute = actionForm("unmute", "Unmute", [], "Unmute", async (reason) => {
    await room.request("security_unmute", { player, reason: reasonOf(reason) });
    reload();
    return "Unmuted.";
  });

  const newName = h("input", { maxlength: 20, placeholder: "new nickname", "data-testid": "rename-nickname", autocomplete: "off" });
  const rename = actionForm("rename", "Reset the nickname (AC-3)", [h("label", {}, "New nickname", newName)], "Reset nickname",
    async (reason) => {
      const fields = { player, nickname: required(newName, "the new nickname"), reason: reasonOf(reason) };
      const answer = await room.request("security_reset_nickname", fields);
      const now = answer.nickname || fields.nickname;
      setTimeout(() => { location.hash = `#/player/${encodeURIComponent(now)}`; }, 0);
      return `Now called ${now}.`;
    }, { note: "The old name stays in the history; the player cannot choose a name again." });

  const freeze = actionForm("freeze", "Freeze / unfreeze", [], "Freeze", async (reason) => {
    await room.request("security_freeze", { player, on: true, reason: reasonOf(reason) });
    reload();
    return "Frozen: no play until thawed.";
  }, { danger: true });
  const thaw = h("button", { type: "button", "data-testid": "unfreeze-submit" }, "Unfreeze");
  thaw.addEventListener("click", () => {
    const reason = freeze.querySelector("[data-testid=freeze-reason]");
    act(thaw, freeze.querySelector("[data-testid=freeze-outcome]"), async () => {
      await room.request("security_freeze", { player, on: false, reason: reasonOf(reason) });
      reload();
    }, "Unfrozen.");
  });
  freeze.querySelector(".inline-form").append(thaw);

  const ban = actionForm("ban", "Ban", [], "Ban\u2026", async (reason) => {
    const why = reasonOf(reason);
    if (!(await confirmed(`Ban ${player}?`, `The account is closed and its sessions end now. Reason: ${why}`, "Ban"))) {
      return "Not banned.";
    }
    await room.request("security_ban", { player, reason: why });
    reload();
    return "Banned: the account is closed.";
  }, { danger: true });

  const other = h("input", { maxlength: 20, placeholder: "nickname", "data-testid": "restrict-player", autocomplete: "off" });
  const restrict = actionForm("restrict", "Keep apart from another account", [h("label", {}, "Other player", other)],
    "Restrict", async (reason) => {
      const b = required(other, "the other player");
      await room.request("security_restrict", { a: player, b, reason: reasonOf(reason) });
      reload();
      return `${player} and ${b} may no longer sit at the same cash table.`;
    });

  const realName = h("input", { maxlength: 100, placeholder: "real name", "data-testid": "verify-name", autocomplete: "off" });
  const verify = actionForm("verify", "Verify identity (AC-4)", [h("label", {}, "Real name", realName)], "Verify",
    async (reason) => {
      await room.request("security_verify_identity", { player, real_name: required(realName, "the real name"),
        reason: reasonOf(reason) });
      reload();
      return "Identity verified.";
    });

  return h("section.panel.player-actions", { "data-testid": "player-actions" }, h("h2", {}, "Actions"),
    h("p.muted", {}, "Every action is checked by the room and written to the audit log with your name and reason."),
    h("div.action-grid", {}, mute, unmute, rename, freeze, ban, restrict, verify,
      h("div.action-form", {}, h("h3", {}, "Case"), h("button", {
        type: "button", "data-testid": "player-open-case",
        onclick: () => {
          ctx.draft = { players: [player], hands: [], title: "" };
          location.hash = "#/cases";
        },
      }, "Open a case on this player"))));
}

export function mount(ctx, container, { param: nickname }) {
  container.append(h("div.panel-head", {}, h("h2", {}, "Player"), h("span.spacer"), lookupForm(nickname)));
  if (!nickname) {
    container.append(h("p.muted", {}, "Look a player up by nickname, or follow a player's name anywhere in these pages."));
    return null;
  }
  const status = outcome("player-error");
  const info = h("div", { "data-testid": "player-info" });
  const ledgerStatus = outcome("ledger-error");
  const ledger = h("div", { "data-testid": "player-ledger" });
  const limit = limitSelect("ledger-limit", [20, 50, 100, 200]);
  limit.value = "50";
  const refresh = h("button", { type: "button", "data-testid": "ledger-refresh" }, "Refresh");

  const loadPlayer = () => act(null, status, async () => {
    const { player } = await ctx.room.request("security_player", { player: nickname });
    info.replaceChildren(...details(player));
  });
  const loadLedger = () => act(refresh, ledgerStatus, async () => {
    const { transfers } = await ctx.room.request("security_ledger", { player: nickname, limit: Number(limit.value) });
    ledger.replaceChildren(transfers.length ? transfersTable(transfers, nickname, "ledger")
      : h("p.muted", { "data-testid": "ledger-empty" }, "No transfer yet."));
  });
  const reload = () => loadPlayer().then(loadLedger);
  refresh.addEventListener("click", loadLedger);
  limit.addEventListener("change", loadLedger);

  container.append(status, info,
    h("section.panel", { "data-testid": "player-ledger-panel" },
      h("div.panel-head", {}, h("h3", {}, "Ledger: recent transfers"), h("span.spacer"), ledgerStatus, limit, refresh),
      h("p.muted", {}, "Every transfer touching the wallet or the table escrows, newest first. A void is a reversing "
        + "transfer of its own (AC-7): the hand's transfer stays as it was."),
      ledger),
    actions(ctx, nickname, reload));
  reload();
  return null;
}
