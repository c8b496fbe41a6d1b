// Your own hand in words before the showdown ("Pair of Aces", "Flush", "Flush draw"), from your hole cards and
// the board. Only the category and its ranks are needed for that, not the room's full evaluator: Hold'em uses
// the best five of all the cards, Omaha exactly two hole cards and three from the board. Cards are 0..51
// (rank * 4 + suit), as everywhere in the client.

const NAMES = ["Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace"];
const PLURAL = ["Twos", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens", "Jacks", "Queens",
                "Kings", "Aces"];

// The highest straight among these distinct ranks (its top rank), or -1; the wheel A-2-3-4-5 tops at Five.
function straightTop(ranks) {
  const has = new Set(ranks);
  for (let top = 12; top >= 4; top -= 1) {
    if ([0, 1, 2, 3, 4].every((k) => has.has(top - k))) return top;
  }
  return [12, 0, 1, 2, 3].every((r) => has.has(r)) ? 3 : -1;
}

// [category, ...ranks] for any 2..7 cards, higher is better; categories 0 high card .. 8 straight flush.
export function evaluate(cards) {
  const bySuit = [[], [], [], []];
  const counts = new Array(13).fill(0);
  for (const c of cards) { bySuit[c & 3].push(c >> 2); counts[c >> 2] += 1; }
  const flush = bySuit.find((s) => s.length >= 5);
  if (flush) {
    const top = straightTop(flush);
    if (top >= 0) return [8, top];
  }
  const groups = [];                         // [count, rank], biggest groups first, then highest rank
  for (let r = 12; r >= 0; r -= 1) if (counts[r]) groups.push([counts[r], r]);
  groups.sort((a, b) => b[0] - a[0] || b[1] - a[1]);
  if (groups[0][0] === 4) return [7, groups[0][1]];
  const trips = groups.filter((g) => g[0] === 3);
  const pairs = groups.filter((g) => g[0] === 2);
  if (trips.length && (trips.length > 1 || pairs.length)) {
    const second = Math.max(trips.length > 1 ? trips[1][1] : -1, pairs.length ? pairs[0][1] : -1);
    return [6, trips[0][1], second];
  }
  if (flush) return [5, ...flush.slice().sort((a, b) => b - a).slice(0, 5)];
  const top = straightTop(counts.map((n, r) => (n ? r : -1)).filter((r) => r >= 0));
  if (top >= 0) return [4, top];
  if (trips.length) return [3, trips[0][1]];
  if (pairs.length >= 2) return [2, pairs[0][1], pairs[1][1]];
  if (pairs.length) return [1, pairs[0][1]];
  return [0, groups[0][1]];
}

function better(a, b) {
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    if ((a[i] ?? -1) !== (b[i] ?? -1)) return (a[i] ?? -1) > (b[i] ?? -1);
  }
  return false;
}

function pairsOf(list, k) {
  if (k === 0) return [[]];
  const out = [];
  list.forEach((c, i) => { for (const rest of pairsOf(list.slice(i + 1), k - 1)) out.push([c, ...rest]); });
  return out;
}

// The best [category, ...ranks] of this hand: Omaha (four or more hole cards) uses two hole and three board cards.
export function best(hole, board) {
  if (hole.length < 4 || board.length < 3) return evaluate([...hole, ...board]);
  let top = null;
  for (const two of pairsOf(hole, 2)) {
    for (const three of pairsOf(board, 3)) {
      const v = evaluate([...two, ...three]);
      if (!top || better(v, top)) top = v;
    }
  }
  return top;
}

export function describe(value) {
  const [category, a, b] = value;
  switch (category) {
    case 8: return a === 12 ? "Royal flush" : `Straight flush, ${NAMES[a]} high`;
    case 7: return `Four of a kind, ${PLURAL[a]}`;
    case 6: return `Full house, ${PLURAL[a]} full of ${PLURAL[b]}`;
    case 5: return `Flush, ${NAMES[a]} high`;
    case 4: return `Straight, ${NAMES[a]} high`;
    case 3: return `Three of a kind, ${PLURAL[a]}`;
    case 2: return `Two pair, ${PLURAL[a]} and ${PLURAL[b]}`;
    case 1: return `Pair of ${PLURAL[a]}`;
    default: return `${NAMES[a]} high`;
  }
}

// A flush draw: four of a suit counting at least one of your own cards, with cards still to come.
function flushDraw(hole, board) {
  if (board.length < 3 || board.length >= 5) return false;
  for (let suit = 0; suit < 4; suit += 1) {
    const mine = hole.filter((c) => (c & 3) === suit).length;
    const theirs = board.filter((c) => (c & 3) === suit).length;
    const usable = hole.length >= 4 ? Math.min(mine, 2) + Math.min(theirs, 3) : mine + theirs;
    if (mine >= 1 && usable === 4 && (hole.length < 4 || (mine >= 2 && theirs >= 2))) return true;
  }
  return false;
}

// The sentence shown under your cards while the hand runs: the made hand, and a flush draw when there is one.
export function handStrength(hole, board = []) {
  if (!hole || hole.length < 2 || hole.some((c) => c == null)) return "";
  const value = best(hole, board);
  const made = describe(value);
  return value[0] < 4 && flushDraw(hole, board) ? `${made} \u00b7 Flush draw` : made;
}
