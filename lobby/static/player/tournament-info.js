// What a tournament's page (tournament_details) says, read for the table and the lobby: the level and its clock,
// the blinds now and next, break and pause, the field, your rank and the payouts. The level clock is counted down
// here from the page's clock_left (seconds to the clock's next step when it was read), never polled; while the
// tournament is paused the room holds it, and so does this.
import { clock, h } from "/static/common/format.js";
import { cash } from "./describe.js";

export function blinds(level) {
  if (!level) return "";
  const ante = level.ante ? ` ante ${level.ante.toLocaleString("en")}` : "";
  return `${level.small_blind.toLocaleString("en")}/${level.big_blind.toLocaleString("en")}${ante}`
    + (level.big_blind_ante ? " (big blind ante)" : "");
}

// A summary (tournament_list's or a page's) with the time it was read: its clock counts from then.
export function stamped(summary) {
  return { ...summary, readAt: Date.now() };
}

// Seconds left on the running clock now (a level's or a break's), or null before the start.
export function clockLeft(summary) {
  if (!summary || summary.clock_left == null) return null;
  if (summary.paused) return summary.clock_left;                // held while paused
  return Math.max(0, summary.clock_left - (Date.now() - summary.readAt) / 1000);
}

// The lobby's "Starts" cell: the start time counting down, or the running clock's next step counting down.
export function startsText(t) {
  if (t.state === "running") {
    const left = clockLeft(t);
    if (t.paused) return `Paused${left != null ? ` (${clock(left)} left in the ${t.on_break ? "break" : "level"})` : ""}`;
    if (t.on_break) return `On break: play resumes in ${clock(left)}`;
    if (left != null) return `Level ${t.level} ends in ${clock(left)}`;
    return "Running";
  }
  if (t.start_at) {
    const left = t.start_at - Date.now() / 1000;
    const at = new Date(t.start_at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    return left > 0 ? `${at} (in ${clock(left)})` : `${at} (starting)`;
  }
  return "Sit & go: starts when full";
}

// The strip above the felt: the level, its clock, the blinds now and next, the field, break and pause.
export function barParts(page) {
  const t = page.tournament;
  const levels = page.structure.levels || [];
  const now = levels[t.level - 1];
  const next = levels[t.level];
  const left = clockLeft(t);
  let state = "";
  if (t.state !== "running") state = t.state === "finished" ? "Finished" : "Starts soon";
  else if (t.paused) state = "Paused";
  else if (t.on_break) state = `On break: play resumes in ${clock(left)}`;
  return [
    ["level", "Level", t.level ? `${t.level} \u00b7 ${clock(left)}` : "\u2014"],
    ["blinds", "Blinds", blinds(now) || "\u2014"],
    ["next", "Next", next ? blinds(next) : "last level"],
    ["players", "Players", `${page.players_left} / ${t.entries || t.entrants}`],
    ["state", "", state],
  ];
}

// The side panel: rank, average stack, payouts, and where the break is.
export function infoRows(page) {
  const rows = [];
  const t = page.tournament;
  rows.push(["rank", "Your rank", page.rank ? `${page.rank} of ${page.players_left}` : "\u2014"]);
  rows.push(["average", "Average stack", page.average_stack ? Math.round(page.average_stack).toLocaleString("en") : "\u2014"]);
  rows.push(["pool", "Prize pool", cash(t.prize_pool)]);
  if (t.next_break_in != null && !t.on_break) {
    const left = Math.max(0, t.next_break_in - (t.paused ? 0 : (Date.now() - t.readAt) / 1000));
    rows.push(["break", "Next break", `in ${clock(left)}`]);
  }
  return rows;
}

export function payoutList(page) {
  const prizes = page.prizes || [];
  return h("div", { "data-testid": "tournament-payouts" },
    h("h4", {}, page.prizes_fixed ? "Payouts" : "Payouts (provisional)"),
    prizes.length ? h("ol.compact", {}, prizes.slice(0, 9).map((p) => h("li", {}, cash(p))))
      : h("p.muted", {}, "None yet"));
}
