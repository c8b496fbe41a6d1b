// Pre-actions: what to do when your turn comes, chosen while others act (check/fold, call any, fold to any bet,
// and "call X", which lapses when the price changes). Pure data over a TableState: no DOM, no socket. The view
// draws the toggles from offers() and, when the room's `legal` arrives, sends decide()'s action with that
// legal's decision id (never a guessed one: a stale id is refused stale_decision).

// What it costs this seat to stay in now (capped by its stack), or null when it has nothing to pre-decide.
export function priceFor(state) {
  const hand = state.hand;
  const me = state.seats.get(state.mySeat);
  if (!hand || hand.ended || !me || !me.inHand || me.folded || me.allIn) return null;
  return Math.max(0, Math.min(hand.currentBet - me.bet, me.stack));
}

export class PreActions {
  constructor() {
    this.choice = null;          // {kind: "check_fold" | "fold_any" | "call_any" | "call", price, hand}
  }

  // The toggles to offer while it is not our turn: [kind, label price (for "call"), ...].
  offers(state) {
    const price = state.legal ? null : priceFor(state);
    if (price == null) return [];
    return price === 0
      ? [["check_fold", 0], ["call", 0], ["call_any", 0], ["fold_any", 0]]
      : [["check_fold", price], ["call", price], ["call_any", price], ["fold_any", price]];
  }

  set(kind, state) {
    const price = priceFor(state);
    if (price == null) return;
    const same = this.choice && this.choice.kind === kind;
    this.choice = same ? null : { kind, price, hand: state.hand.id };
  }

  // Drops a choice the table has overtaken: another hand, our hand over, or (call X) a new price.
  lapse(state) {
    const c = this.choice;
    if (!c) return false;
    const price = priceFor(state);
    if (price == null || state.hand.id !== c.hand || (c.kind === "call" && !state.legal && price !== c.price)) {
      this.choice = null;
      return true;
    }
    return false;
  }

  // The action for this legal, or null (and the choice dropped) when the choice no longer fits it.
  decide(legal) {
    const c = this.choice;
    if (!c || !legal || legal.run_it_twice) return null;
    if (c.kind !== "fold_any") this.choice = null;       // fold to any bet holds for the hand; the rest act once
    const free = legal.can_check;
    if (c.kind === "call") {                               // call X: only at the price it was chosen for
      if (c.price === 0) return free ? "check" : null;
      return !free && legal.call_added === c.price ? "call" : null;
    }
    if (c.kind === "call_any") return free ? "check" : "call";
    return free ? "check" : "fold";                        // check/fold, fold to any bet
  }
}
