// A tournament's pushed events as sentences for the live view's feed.

import { h, clock } from "../common/format.js";
import { cash, chips, ordinal } from "./ui.js";

function placesText(places) {
  if (places.length === 1) return ordinal(places[0]);
  return `${ordinal(Math.min(...places))}–${ordinal(Math.max(...places))} (tied)`;
}

function amounts(map) {
  return Object.entries(map || {}).map(([player, amount]) => `${player} ${cash(amount)}`).join(", ");
}

// The sentence for one event, or null for events the feed leaves out.
export function describe(e) {
  switch (e.type) {
    case "registered": return e.entry > 1 ? `${e.player} re-entered (entry ${e.entry})` : `${e.player} registered`;
    case "unregistered": return `${e.player} unregistered`;
    case "started": return `Started: ${e.players} players at ${e.tables} table${e.tables === 1 ? "" : "s"}`;
    case "seated":
      if (e.reason === "draw") return null;              // the draw: one line per player tells a director nothing
      if (e.reason === "late") return `${e.player} seated late at ${e.table}, seat ${e.seat}`;
      return `${e.player} moved ${e.source ? `from ${e.source} ` : ""}to ${e.table}, seat ${e.seat} (${e.reason})`;
    case "table_closed": return `Table ${e.table} closed`;
    case "level_started": {
      const ante = e.ante ? (e.big_blind_ante ? `, BB ante ${chips(e.ante)}` : `, ante ${chips(e.ante)}`) : "";
      return `Level ${e.level}: ${chips(e.small_blind)}/${chips(e.big_blind)}${ante} for ${clock(e.seconds)}`;
    }
    case "break_started": return `Break for ${clock(e.seconds)}`;
    case "break_ended": return "The break is over";
    case "paused": return `Paused by ${e.by}: ${e.reason}`;
    case "resumed": return `Resumed by ${e.by}`;
    case "registration_closed": return `Registration closed (${e.reason}) at ${e.entries} entries`;
    case "rebuys_closed": return "Rebuys closed";
    case "chips_added": return `${e.player}: ${e.kind === "add_on" ? "add-on" : "rebuy"} of ${chips(e.chips)} chips`;
    case "prizes_fixed":
      return `Prizes fixed for ${e.entries} entries: ${e.prizes.length} paid from ${cash(e.collected + e.overlay)}`
        + (e.overlay ? ` (overlay ${cash(e.overlay)})` : "");
    case "hand_for_hand": return e.on ? "Hand-for-hand play (the bubble)" : "Hand-for-hand play is over";
    case "busted": return `${e.player} busted at ${e.table}${e.can_re_enter ? " (may re-enter)" : ""}`;
    case "eliminated":
      return `${e.players.join(", ")} finished ${placesText(e.places)}${e.prize ? `: ${cash(e.prize)}${e.players.length > 1 ? " each" : ""}` : ""}`;
    case "bounty_won":
      return `${e.winner} won ${e.busted}'s bounty: ${cash(e.cash)}${e.onto_head ? `, ${cash(e.onto_head)} onto their head` : ""}`
        + (e.held ? " (held until the money)" : "");
    case "bubble_burst": return "The bubble burst: everyone left is in the money";
    case "seat_won": return `${e.player} won a seat in ${e.target}${e.as_tournament_money ? " (as T$)" : ""}`;
    case "prize_substituted": return `Prize for ${ordinal(e.place)} is now ${e.description} (${cash(e.value)}), by ${e.by}`;
    case "package_awarded": return `${e.player} won ${e.description} for ${ordinal(e.place)}`;
    case "deal_proposed": return `${e.by} proposed a deal (${e.kind === "icm" ? "ICM" : "chip chop"}): play pauses`;
    case "deal_offered": return `Deal offered: ${amounts(e.amounts)}`;
    case "deal_answered": return `${e.player} ${e.accept ? "accepted" : "declined"} the deal`;
    case "deal_awaiting_approval": return `Every player accepted the deal: it waits for a director (${amounts(e.amounts)})`;
    case "deal_made": return `Deal made: ${amounts(e.amounts)}`;
    case "deal_failed": return `No deal: ${e.reason}`;
    case "shares_sold": return `${e.backer} bought ${e.percent}% of ${e.seller} for ${cash(e.price)}`;
    case "finished": return `Finished: ${e.winner} wins`;
    case "cancelled": return `Cancelled (${e.case}): ${e.reason}`;
    case "broadcast": return `Message from ${e.by}: ${e.text}`;
    default: return e.type.replace(/_/g, " ");
  }
}

const KINDS = {
  busted: "out", eliminated: "out", bounty_won: "out", broadcast: "message", paused: "warn", cancelled: "warn",
  level_started: "clock", break_started: "clock", break_ended: "clock", resumed: "clock", finished: "good",
  deal_awaiting_approval: "warn", deal_made: "good",
};

export function feedItem({ at, event }) {
  const text = describe(event);
  if (text == null) return null;
  const time = new Date(at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });
  return h(`li.feed-${KINDS[event.type] || "plain"}`, { "data-testid": "feed-item", "data-type": event.type },
    h("time", {}, time), h("span", {}, text));
}
