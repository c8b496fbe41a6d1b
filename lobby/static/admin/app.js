// The tournament directors' admin lobby: what its views share and the pushes they read. Signing in, the session
// and the views by address are common/staff.js's; the room checks the role on every director command.

import { startStaffPage } from "../common/staff.js";
import * as list from "./tournaments.js";
import * as editor from "./editor.js";
import * as live from "./live.js";
import * as tables from "./tables.js";
import * as activity from "./activity.js";

const DIRECTOR_ROLES = new Set(["director", "admin"]);
const FEED_LENGTH = 300;
const FEED_KEY = "pokerroom.admin.feeds";      // the feeds, kept for this tab (sessionStorage) across reloads
const FEEDS_KEPT = 20;                          // tournaments whose feeds a tab keeps, the latest heard

// The room keeps no history of a tournament's pushes: the lines heard so far are the page's, and a reloaded or
// reopened view shows them again from the tab's storage (issue 22: reopening the live view emptied it).
function keptFeeds() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(FEED_KEY) || "[]");
    return new Map(Array.isArray(saved) ? saved.filter((entry) => Array.isArray(entry) && Array.isArray(entry[1])) : []);
  } catch {
    return new Map();
  }
}

let saving = null;
function keepFeeds() {
  saving = null;
  const latest = [...ctx.feeds.entries()].slice(-FEEDS_KEPT);
  try {
    sessionStorage.setItem(FEED_KEY, JSON.stringify(latest));
  } catch {
    // the tab's storage is full or refused: the feed lives as long as the page
  }
}

// What the views share: the connection, who is signed in, the tournaments we know and their recent events.
export const ctx = {
  room: null,
  me: null,                       // {nickname, role}
  templates: null,                // the director_templates answer, once loaded
  tournaments: new Map(),         // id -> summary (tournament_list)
  subscribed: new Set(),
  feeds: keptFeeds(),             // id -> [{at, event}], newest last
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

function received(message) {
  const id = message.tournament;
  const feed = ctx.feeds.get(id) || [];
  feed.push({ at: Date.now() / 1000, event: message.event });
  if (feed.length > FEED_LENGTH) feed.splice(0, feed.length - FEED_LENGTH);
  ctx.feeds.delete(id);                          // the latest heard last: the first kept when too many
  ctx.feeds.set(id, feed);
  if (!saving) saving = setTimeout(keepFeeds, 250);
  if (message.event.type.startsWith("deal_")) ctx.deals.set(id, message.event);
}

startStaffPage({
  ctx, roles: DIRECTOR_ROLES, home: "tournaments",
  views: { tournaments: list, create: editor, edit: editor, t: live, tables, activity },
  tabs: { t: "tournaments" },
  connected: (room) => room.on("tournament_event", received),
});
window.addEventListener("pagehide", () => { if (saving) { clearTimeout(saving); keepFeeds(); } });
