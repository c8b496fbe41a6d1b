// Events as sentences a person reads, with the cards drawn: the table's log and the hand history use these.
import { cardElement, h, money } from "/static/common/format.js";

const POSTS = {
  small_blind: "posts the small blind", big_blind: "posts the big blind", third_blind: "posts the third blind",
  entry: "posts an entry blind", ante: "posts an ante", big_blind_ante: "posts the table's ante",
  dead_small_blind: "posts a dead small blind", dead_big_blind: "posts a dead big blind",
};
const STREETS = { flop: "Flop", turn: "Turn", river: "River" };
const WAITING = {
  waiting_for_big_blind: "waits for the big blind", button_must_pass: "waits for the button to pass (HR-POST-3)",
};
const SAT_OUT = {
  player: "sits out", sit_out_next_hand: "sits out (sit out next hand)",
  skipped_blind: "sits out instead of posting a blind", disconnected: "is sat out (disconnected)",
  no_chips: "is out of chips and sits out",
};

// Money as a person reads it: "$1.25" at a USD table, "1.25 EUR" at another currency, whole chips in tournaments.
export function cash(amount, currency = "USD") {
  if (amount == null) return "";
  if (!currency || currency === "chips" || currency === "T$") return money(amount, currency);
  if (currency === "USD") return (amount < 0 ? "-$" : "$") + money(Math.abs(amount), currency);
  if (currency === "EUR") return (amount < 0 ? "-\u20ac" : "\u20ac") + money(Math.abs(amount), currency);
  return `${money(amount, currency)} ${currency}`;
}

export function cards(list) {
  return h("span.cards", {}, (list || []).map((c) => cardElement(c)));
}

export function potName(index) {
  return index === 0 ? "the main pot" : `side pot ${index}`;
}

// A hand event as a line: an array of strings and elements, or null when it says nothing worth reading.
// ctx: {name(seat) -> player, currency, verbose (seat lines too)}
export function describeHandEvent(e, ctx) {
  const name = (seat) => ctx.name(seat);
  const m = (amount) => cash(amount, ctx.currency);
  switch (e.type) {
    case "hand_started": {
      const stakes = `${m(e.small_blind)}/${m(e.big_blind)}`;
      return [`Hand ${e.hand_id}: ${e.variant} ${stakes}, button on seat ${e.button_seat}`];
    }
    case "seat_dealt_in":
      return ctx.verbose ? [`Seat ${e.seat}: ${e.player} (${m(e.stack)})`] : null;
    case "posted":
      return [`${name(e.seat)} ${POSTS[e.kind] || "posts"} ${m(e.added)}${e.all_in ? " and is all-in" : ""}`];
    case "hole_cards_dealt":
      return e.cards && e.cards.length ? [`Dealt to ${name(e.seat)} `, cards(e.cards)] : null;
    case "action_taken": {
      const all = e.all_in ? " (all-in)" : "";
      const late = e.timed_out ? " (time ran out)" : "";
      const what = {
        fold: "folds", check: "checks", call: `calls ${m(e.added)}`, bet: `bets ${m(e.to)}`,
        raise: `raises to ${m(e.to)}`,
      }[e.action] || e.action;
      return [`${name(e.seat)} ${what}${all}${late}`];
    }
    case "bet_returned":
      return [`Uncalled ${m(e.amount)} returned to ${name(e.seat)}`];
    case "board_dealt": {
      const run = e.run > 1 ? "Second board, " : "";
      return [`${run}${STREETS[e.street] || e.street}: `, cards(e.board)];
    }
    case "cards_exposed":
      return [`${name(e.seat)} is all-in and shows `, cards(e.cards)];
    case "run_it_twice_offered":
      return ["Run it twice? Asked of ", e.seats.map(name).join(", ")];
    case "run_it_twice_answered":
      return [`${name(e.seat)} ${e.agree ? "agrees" : "declines"}${e.timed_out ? " (time ran out)" : ""}`];
    case "run_it_twice_decided":
      return [e.runs === 2 ? "The board is run twice" : "The board is run once"];
    case "hand_shown":
      return [`${name(e.seat)} shows `, cards(e.cards), ` \u2014 ${e.description}`];
    case "hand_mucked":
      return e.cards && e.cards.length ? [`${name(e.seat)} mucks `, cards(e.cards)] : [`${name(e.seat)} mucks`];
    case "pot_formed": {
      const label = e.pot === 0 ? "Main pot" : `Side pot ${e.pot}`;
      return [`${label} ${m(e.amount)}${e.rake ? ` (rake ${m(e.rake)})` : ""}`];
    }
    case "pot_awarded": {
      const run = e.run > 1 ? " on the second board" : "";
      const who = e.seats.map((s, i) => `${name(s)} wins ${m(e.shares[i])}`).join(", ");
      return [`${who} from ${potName(e.pot)}${run}`];
    }
    case "hand_ended":
      return [`Hand over${e.rake ? `; rake ${m(e.rake)}` : ""}`];
    default:
      return null;
  }
}

// A table event (not a hand event) as a line, or null.
export function describeTableEvent(e, ctx) {
  const name = (seat) => ctx.name(seat);
  const m = (amount) => cash(amount, ctx.currency);
  switch (e.type) {
    case "player_seated":
      return [`${e.player} sits down at seat ${e.seat} with ${m(e.stack)}`
              + (e.wait_for_big_blind ? ", waiting for the big blind" : "")];
    case "chips_added":
      return [`${name(e.seat)} adds ${m(e.added)} (now ${m(e.stack)})`];
    case "player_sat_out":
      return [`${name(e.seat)} ${SAT_OUT[e.reason] || "sits out"}`];
    case "player_sat_in":
      return [`${name(e.seat)} is back${e.owes ? `, owing the ${e.owes} blind` : ""}`
              + (e.wait_for_big_blind ? ", waiting for the big blind" : "")];
    case "blind_missed":
      return [`${name(e.seat)} misses the ${e.blind} blind`];
    case "waiting_to_play":
      return [`${name(e.seat)} ${WAITING[e.reason] || e.reason.replace(/_/g, " ")}`];
    case "time_bank_started":
      return [`${name(e.seat)} is using the time bank (${Math.round(e.seconds)} s)`];
    case "reconnect_time_started":
      return [`${name(e.seat)} is disconnected: ${Math.round(e.seconds)} s to come back`];
    case "time_bank_refilled":
      return [`${name(e.seat)}'s time bank grows by ${Math.round(e.added)} s`];
    case "player_disconnected":
      return [`${name(e.seat)} has disconnected`];
    case "player_reconnected":
      return [`${name(e.seat)} is back online`];
    case "player_left":
      return [`${e.player} leaves with ${m(e.stack)}`
              + (e.blocked_seconds ? ` (blocked from this level for ${Math.ceil(e.blocked_seconds / 60)} min)` : "")];
    case "seat_offered":
      return [`Seat ${e.seat} is offered to ${e.player}`];
    case "seat_offer_expired":
      return [`The seat offer to ${e.player} has run out`];
    default:
      return null;
  }
}
