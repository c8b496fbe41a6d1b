// How money, cards and times are shown. Money is whole minor units; cards are 0..51 (rank * 4 + suit).

const RANKS = "23456789TJQKA";
const SUITS = ["c", "d", "h", "s"];
const SUIT_SYMBOLS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
const SUIT_NAMES = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };

export function cardText(card) {
  return RANKS[card >> 2] + SUITS[card & 3];
}

// A card as an element: rank and suit symbol, coloured by suit (four-colour deck), or a face-down back.
export function cardElement(card) {
  const el = document.createElement("span");
  el.setAttribute("role", "img");                 // a card's name is its text alternative for screen readers
  if (card == null) {
    el.className = "card back";
    el.title = "face down";
    el.setAttribute("aria-label", el.title);
    return el;
  }
  const rank = RANKS[card >> 2];
  const suit = SUITS[card & 3];
  el.className = `card suit-${suit}`;
  el.dataset.card = rank + suit;
  el.title = `${rank === "T" ? "10" : rank} of ${SUIT_NAMES[suit]}`;
  el.setAttribute("aria-label", el.title);
  el.innerHTML = `<b aria-hidden="true">${rank === "T" ? "10" : rank}</b><i aria-hidden="true">${SUIT_SYMBOLS[suit]}</i>`;
  return el;
}

// Cents as "12.34" for cash (USD, EUR...), whole chips for tournaments (currency "chips" or none).
export function money(amount, currency = "USD") {
  if (amount == null) return "";
  if (!currency || currency === "chips" || currency === "T$") return amount.toLocaleString("en");
  const sign = amount < 0 ? "-" : "";
  const abs = Math.abs(amount);
  const whole = Math.floor(abs / 100).toLocaleString("en");
  return `${sign}${whole}.${String(abs % 100).padStart(2, "0")}`;
}

// An amount with its currency, as a person reads it: "$1,000.00" (USD), "\u20ac12.50" (EUR), "12.50 GBP" (another
// currency), whole chips for tournaments (currency "chips", "T$" or none).
const SYMBOLS = { USD: "$", EUR: "\u20ac" };

export function moneyText(amount, currency = "USD") {
  if (amount == null) return "";
  if (!currency || currency === "chips" || currency === "T$") return money(amount, currency);
  const symbol = SYMBOLS[currency];
  if (!symbol) return `${money(amount, currency)} ${currency}`;
  return (amount < 0 ? "-" : "") + symbol + money(Math.abs(amount), currency);
}

// Parses "12.34" (cash) or "1234" (chips) back into whole minor units; NaN when it is not a number.
export function parseMoney(text, currency = "USD") {
  const clean = String(text).trim().replace(/,/g, "");
  if (!/^\d+(\.\d{0,2})?$/.test(clean)) return NaN;
  if (!currency || currency === "chips" || currency === "T$") return clean.includes(".") ? NaN : Number(clean);
  const [whole, cents = ""] = clean.split(".");
  return Number(whole) * 100 + Number(cents.padEnd(2, "0"));
}

export function clock(seconds) {
  if (seconds == null || !isFinite(seconds)) return "";
  const s = Math.max(0, Math.ceil(seconds));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

export function when(at) {
  return new Date(at * 1000).toLocaleString();
}

// Builds an element: h("div.seat", {title: "x"}, child, "text", ...).
export function h(tag, attributes = {}, ...children) {
  const [name, ...classes] = tag.split(".");
  const el = document.createElement(name || "div");
  if (classes.length) el.className = classes.join(" ");
  for (const [key, value] of Object.entries(attributes || {})) {
    if (value == null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child == null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}
