// The card games' boards: live Blackjack (seven seats, BJ), Infinite Blackjack (one shared hand, side bets, IB),
// Baccarat (BA) and Bet on Baccarat (three betting windows at re-priced odds, BOB). Cards are format.js's
// cardElement (a title names each card; a face-down card says so); every betting spot is a button.
import { cardElement, h } from "/static/common/format.js";

// ------------------------------------------------------------ shared pieces

// A hand's cards; those the last push dealt come in one after another, in the order they were dealt.
function hand(view, cards, label, testid) {
  const list = cards || [];
  const shown = list.filter((c) => c != null);
  const fresh = view.fresh.get(list);
  const drawn = (c, i) => {
    const el = cardElement(c);
    if (fresh && fresh.has(i)) {
      el.classList.add("dealt");
      el.style.animationDelay = `${fresh.get(i) * 0.45}s`;      // CSSOM, allowed by the page's CSP
    }
    return el;
  };
  return h("div.casino-hand", { "data-testid": testid, role: "group",
                                "aria-label": `${label}: ${list.length ? list.map((c) => (c == null ? "face down"
                                  : cardElement(c).title)).join(", ") : "no cards yet"}` },
    h("span.hand-label", {}, label),
    h("span.cards", {}, list.length ? list.map(drawn) : h("span.card.slot", { title: "no card" })),
    shown.length ? late(h("span.hand-total", { "data-testid": `${testid}-total` }, totalText(shown, label)),
                        fresh ? Math.max(...fresh.values()) : null) : null);
}

function spot(view, market, text, { pays = "", disabled = false, testid = null, extra = {} } = {}) {
  const mine = view.betOn(market);
  return h("button.spot.card-spot", {
    type: "button", "data-testid": testid || `spot-${market}`, disabled: disabled || view.phase !== "betting",
    "aria-label": `${text}${pays ? `, pays ${pays}` : ""}${mine ? `, your bet ${view.money(mine)}` : ""}`,
    onclick: () => view.bet(market, extra),
  }, h("span", {}, text), pays ? h("small", {}, pays) : null,
  mine ? h("span.stake", { "aria-hidden": "true" }, view.money(mine)) : null);
}

// An element that shows once the card dealt in the push's ``order``-th place has come in.
export function late(el, order) {
  if (order != null) {
    el.classList.add("dealt");
    el.style.animationDelay = `${order * 0.45 + 0.2}s`;
  }
  return el;
}

// ------------------------------------------------------------ blackjack

// Blackjack's total of the cards shown: aces count 11 while that stays at 21 or under (BJ-1).
function blackjackTotal(cards) {
  let sum = 0;
  let aces = 0;
  for (const c of cards) {
    const rank = c >> 2;                      // 0..12 for 2..A
    if (rank === 12) {
      aces += 1;
      sum += 11;
    } else {
      sum += rank >= 8 ? 10 : rank + 2;
    }
  }
  while (sum > 21 && aces) {
    sum -= 10;
    aces -= 1;
  }
  return { sum, soft: aces > 0 };
}

// Baccarat's points: the last digit of the sum, tens and faces counting nothing (BA-1).
function baccaratPoints(cards) {
  return cards.reduce((a, c) => a + ((c >> 2) === 12 ? 1 : (c >> 2) >= 8 ? 0 : (c >> 2) + 2), 0) % 10;
}

function totalText(cards, label) {
  if (/Player|Banker/.test(label) && !/Your|Everyone/.test(label)) return String(baccaratPoints(cards));
  const { sum, soft } = blackjackTotal(cards);
  if (sum === 21 && cards.length === 2) return "Blackjack";
  return sum > 21 ? `${sum} bust` : `${soft && sum < 21 ? "soft " : ""}${sum}`;
}

const BJ_LABELS = { main: "main bet", insurance: "insurance", pairs: "Pairs", bust_bonus: "Bust Bonus",
                    lucky_trio: "Lucky Trio", poker_trio: "Poker Trio" };

export const blackjack = {
  label: (market) => BJ_LABELS[market] || market,
  board(view, { mySeat }) {
    const me = view.app.me && view.app.me.nickname;
    const seats = [];
    for (let s = 1; s <= 7; s += 1) {
      const player = (view.seats || {})[String(s)];
      const mine = player === me;
      const hands = view.seatHands[s] || [];
      seats.push(h(`div.bj-seat${mine ? ".mine" : ""}${view.turn === player && player ? ".turn" : ""}`,
        { "data-testid": `bj-seat-${s}` },
        h("div.seat-name", {}, `Seat ${s}`, player ? h("strong", {}, ` ${player}`) : null),
        hands.map((cards, i) => hand(view, cards, hands.length > 1 ? `Hand ${i + 1}` : "Hand", `bj-hand-${s}-${i}`)),
        !player && !mySeat ? h("button", { type: "button", "data-testid": `sit-${s}`, onclick: () => view.sit(s) },
          "Sit here") : null,
        mine ? spot(view, "main", "Bet", { pays: "1:1, blackjack 3:2" }) : null));
    }
    return h("div.blackjack", {},
      hand(view, view.cards.dealer, "Dealer", "dealer-hand"),
      h("p.muted.hint", {}, mySeat ? "Choose a chip and tap Bet while bets are open."
        : "Take a free seat to play; you can watch from here."),
      h("div.bj-seats", {}, seats));
  },
};

const SIDE_BETS = [["pairs", "Pairs", "up to 25:1"], ["bust_bonus", "Bust Bonus", "up to 250:1"],
                   ["lucky_trio", "Lucky Trio", "up to 100:1"], ["poker_trio", "Poker Trio", "up to 100:1"]];

export const infiniteBlackjack = {
  label: blackjack.label,
  board(view) {
    const shared = view.cards.player || [];
    const mine = view.myHands && view.myHands.length ? view.myHands : null;
    const limit = (m) => {
      const [low, high] = view.limitOf(m);
      return `${view.money(low)}\u2013${view.money(high)}`;
    };
    return h("div.blackjack.infinite", {},
      hand(view, view.cards.dealer, "Dealer", "dealer-hand"),
      hand(view, shared, "Everyone's first two cards", "shared-hand"),
      mine ? h("div.bj-mine", {}, mine.map((cards, i) => hand(view, cards, mine.length > 1 ? `Your hand ${i + 1}`
        : "Your hand", `my-hand-${i}`))) : null,
      h("div.bet-spots", {},
        spot(view, "main", "Main bet", { pays: "1:1, blackjack 3:2" }),
        SIDE_BETS.map(([m, text, pays]) => spot(view, m, view.closed.has(m) ? `${text} (closed for this shoe)` : text,
          { pays: `${pays} \u00b7 ${limit(m)}`, disabled: view.closed.has(m) }))),
      h("p.muted.hint", {}, "Everyone plays the same first two cards and decides alone; each side bet closes for "
        + "the rest of the shoe after its number of rounds: Pairs after 40, the others after 45 (IB-10)."));
  },
};

// ------------------------------------------------------------ baccarat

const BAC_LABELS = { player: "Player", banker: "Banker", tie: "Tie", player_pair: "Player Pair",
                     banker_pair: "Banker Pair", any_pair: "Any Pair", perfect_pair: "Perfect Pair",
                     small: "Small (4 cards)", big: "Big (5 or 6 cards)" };

function coup(view) {
  return h("div.coup", {},
    hand(view, view.cards.player, "Player", "player-hand"),
    hand(view, view.cards.banker, "Banker", "banker-hand"));
}

export const baccarat = {
  label: (market) => BAC_LABELS[market] || market,
  board(view) {
    return h("div.baccarat", {}, coup(view),
      h("div.bet-spots.three", {},
        spot(view, "player", "Player", { pays: "1:1" }),
        spot(view, "tie", "Tie", { pays: "8:1" }),
        spot(view, "banker", "Banker", { pays: "0.95:1" })));
  },
};

export const betOnBaccarat = {
  label: baccarat.label,
  board(view) {
    const odds = (m) => view.odds[m];
    const windows = ["before any card", "after the player's first card", "after the banker's first card"];
    return h("div.baccarat.bob", {}, coup(view),
      h("p.hint", { "data-testid": "bob-window" }, view.phase === "betting" && view.window
        ? `Betting round ${view.window} of 3, ${windows[view.window - 1]}: the odds are re-priced (BOB-2); `
          + "a bet keeps the odds it was taken at." : "Decimal odds: a win pays the stake times the odds."),
      h("div.bet-spots.nine", {}, Object.keys(BAC_LABELS).map((m) => spot(view, m, BAC_LABELS[m], {
        pays: odds(m) ? (odds(m) / 100).toFixed(2) : "closed", disabled: !odds(m) }))));
  },
};
