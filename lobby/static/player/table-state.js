// The state of one cash table as this player may see it, built from a table_snapshot and then the
// table_events that follow it, in gapless seq order. Pure data: no DOM, no socket. The view reads it.
//
// A snapshot gives the seats (stacks behind their bets this street), the board, the pots and the running
// hand's events so far (for cards, actions and who is in). Each chip-moving hand event (posted, action_taken,
// bet_returned) carries the seat's bet on the street (to), its stack behind and the pot total: the state takes
// them as they come instead of adding chips up. Table events then move it along one by one.

const LIVE = new Set(["small_blind", "big_blind", "third_blind", "entry"]);

function emptySeat(seat, player, stack) {
  return {
    seat, player, stack, bet: 0, sittingOut: false, connected: true, owes: null, timeBank: 0,
    waiting: null, inHand: false, folded: false, allIn: false, cards: null, shown: null, mucked: false,
    lastAction: null, won: 0, leaving: false,
  };
}

export class TableState {
  constructor(tableId, me, info = {}) {
    this.tableId = tableId;
    this.me = me;                 // our nickname, or null while only watching
    this.info = info;             // the lobby's summary: name, game, blinds, seats, buy-ins, currency
    this.seq = null;              // last table seq applied; null until the snapshot arrived
    this.seats = new Map();       // seat number -> seat
    this.hand = null;             // the running (or last) hand
    this.clock = null;            // {seat, phase, endsAt (ms, Date.now() clock), total, timeBank}
    this.legal = null;            // our legal actions when it is our turn
    this.waitingList = [];
    this.offer = null;            // a seat offered to us from the waiting list {seat, expiresAt}
    this.lastResult = null;       // what the last finished hand gave to whom
    this.handsSeen = new Set();   // hands we were dealt into
  }

  get maxSeats() {
    return (this.hand && this.hand.maxSeats) || this.info.seats || 6;
  }

  get currency() {
    if (this.hand) return this.hand.currency;            // "" at a tournament table: chips
    return this.info.currency == null ? "USD" : this.info.currency;
  }

  get mySeat() {
    for (const s of this.seats.values()) if (this.me && s.player === this.me) return s.seat;
    return null;
  }

  nameOf(seat) {
    const s = this.seats.get(seat);
    if (s) return s.player;
    const dealt = this.hand && this.hand.players.get(seat);
    return dealt || `seat ${seat}`;
  }

  // ---------------------------------------------------------------- snapshot

  loadSnapshot(snap) {
    this.seats = new Map();
    for (const s of snap.seats) {
      const seat = emptySeat(s.seat, s.player, s.stack);
      seat.sittingOut = s.sitting_out;
      seat.connected = s.connected;
      seat.owes = s.owes;
      seat.timeBank = s.time_bank;
      this.seats.set(s.seat, seat);
    }
    this.hand = null;
    this.legal = null;
    this.clock = null;
    for (const e of snap.hand || []) this.applyHandEvent(e, snap.hand.length && snap.hand[0].hand_id, true);
    for (const s of snap.seats) {           // the snapshot's stacks and bets are the truth
      const seat = this.seats.get(s.seat);
      if (seat) { seat.stack = s.stack; seat.bet = s.bet || 0; }
    }
    if (this.hand && !this.hand.ended && snap.pots) {   // gathered pots; the bets are in front of the seats
      this.hand.collected = snap.pots.reduce((sum, p) => sum + p.amount, 0);
    }
    if (snap.to_act != null && this.hand && !this.hand.ended) {
      const seat = this.seats.get(snap.to_act);
      const left = snap.seconds_left;           // measured by the room from now: no clock skew
      const phase = snap.phase || "thinking";
      this.clock = { seat: snap.to_act, phase, endsAt: left == null ? null : Date.now() + left * 1000,
                     total: left, timeBank: seat && phase !== "time_bank" ? seat.timeBank : 0 };
      if (snap.legal && snap.legal.seat === this.mySeat) this.legal = { ...snap.legal };
    }
    if (snap.button != null && this.hand) this.hand.button = this.hand.button ?? snap.button;
    this.waitingList = snap.waiting_list || [];
    this.seq = snap.seq;
  }

  // ---------------------------------------------------------------- tournament tables

  // A tournament table speaks only hand events (tournament_table_events): the seats are whoever each hand
  // deals in, and there is no table seq to follow.
  applyTournamentFrame(message) {
    this.handOnly = true;
    if (this.seq == null) this.seq = 0;
    for (const e of message.events) {
      if (e.type === "hand_started") this.seats = new Map();
      this.applyHandEvent(e, e.hand_id, false);
    }
    const turn = message.to_act;              // whose turn, with the decision's seconds and their time bank
    this.clock = turn ? { seat: turn.seat, phase: "thinking", endsAt: Date.now() + turn.seconds * 1000,
                          total: turn.seconds, timeBank: turn.time_bank } : null;
    if (!turn || turn.seat !== this.mySeat) this.legal = null;
    if (message.legal && message.legal.seat === this.mySeat) this.legal = { ...message.legal };
  }

  // The room started this player's time bank at a tournament table (a tournament_event of their own).
  timeBankStarted(seconds) {
    if (!this.clock || this.clock.seat !== this.mySeat) return;
    this.clock = { ...this.clock, phase: "time_bank", endsAt: Date.now() + seconds * 1000, total: seconds,
                   timeBank: seconds };
  }

  // ---------------------------------------------------------------- table events

  // Applies one table_events push. Returns "gap" when events are missing (the caller asks for a snapshot),
  // otherwise the list of events applied (duplicates already seen are skipped).
  //
  // The frame's own seq is that of the last event the server had for it, including events nobody but the
  // security team may see (the deck order after a hand): inside a frame such a hidden event leaves a hole in
  // the seqs, so only the first new event must follow the last frame's seq; the next frame follows this one's.
  applyFrame(frame) {
    if (this.seq == null) return "gap";
    const applied = [];
    for (const event of frame.events) {
      if (event.seq <= this.seq) continue;
      if (!applied.length && event.seq !== this.seq + 1) return "gap";
      this.applyTableEvent(event);
      this.seq = event.seq;
      applied.push(event);
    }
    if (frame.seq > this.seq) this.seq = frame.seq;
    if (frame.legal) {
      const running = this.clock && this.clock.seat === frame.legal.seat;
      if (running && frame.legal.seat === this.mySeat) this.legal = { ...frame.legal };
    }
    return applied;
  }

  applyTableEvent(e) {
    const seat = e.seat != null ? this.seats.get(e.seat) : null;
    switch (e.type) {
      case "player_seated": {
        const s = emptySeat(e.seat, e.player, e.stack);
        s.owes = e.owes;
        if (e.wait_for_big_blind) s.waiting = "waiting_for_big_blind";
        this.seats.set(e.seat, s);
        if (e.player === this.me) this.offer = null;
        break;
      }
      case "chips_added":
        if (seat) seat.stack = e.stack;
        break;
      case "player_sat_out":
        if (seat) { seat.sittingOut = true; seat.waiting = null; seat.sitOutReason = e.reason; }
        break;
      case "player_sat_in":
        if (seat) {
          seat.sittingOut = false;
          seat.owes = e.owes;
          seat.waiting = e.wait_for_big_blind ? "waiting_for_big_blind" : null;
        }
        break;
      case "blind_missed":
        if (seat) seat.owes = e.owes;
        break;
      case "waiting_to_play":
        if (seat) seat.waiting = e.reason;
        break;
      case "hand_event":
        this.applyHandEvent(e.event, e.hand_id, false);
        break;
      case "decision_started": {
        this.clock = { seat: e.seat, phase: "thinking", endsAt: Date.now() + e.seconds * 1000, total: e.seconds,
                       timeBank: e.time_bank };
        if (seat) seat.timeBank = e.time_bank;
        if (e.seat !== this.mySeat) this.legal = null;
        break;
      }
      case "reconnect_time_started":
        this.clock = { ...(this.clock || {}), seat: e.seat, phase: "reconnect", endsAt: Date.now() + e.seconds * 1000,
                       total: e.seconds };
        break;
      case "time_bank_started":
        this.clock = { ...(this.clock || {}), seat: e.seat, phase: "time_bank", endsAt: Date.now() + e.seconds * 1000,
                       total: e.seconds, timeBank: e.seconds };
        break;
      case "time_bank_used":
        if (seat) seat.timeBank = e.remaining;
        break;
      case "time_bank_refilled":
        if (seat) seat.timeBank = e.time_bank;
        break;
      case "player_disconnected":
        if (seat) seat.connected = false;
        break;
      case "player_reconnected":
        if (seat) seat.connected = true;
        break;
      case "player_left":
        this.seats.delete(e.seat);
        if (e.player === this.me) this.legal = null;
        break;
      case "waiting_list_changed":
        this.waitingList = e.players;
        break;
      case "seat_offered":
        if (e.player === this.me) this.offer = { seat: e.seat, expiresAt: e.expires_at };
        break;
      case "seat_offer_expired":
        if (e.player === this.me) this.offer = null;
        break;
      default:
        break;
    }
  }

  // ---------------------------------------------------------------- hand events

  gatherBets() {
    const h = this.hand;
    for (const s of this.seats.values()) {
      if (s.bet) { h.collected += s.bet; s.bet = 0; }
    }
  }

  applyHandEvent(e, handId, replaying) {
    if (e.type === "hand_started") {
      this.hand = {
        id: e.hand_id || handId, variant: e.variant, betting: e.betting, holeCount: e.hole_card_count,
        smallBlind: e.small_blind, bigBlind: e.big_blind, button: e.button_seat, sbSeat: e.small_blind_seat,
        bbSeat: e.big_blind_seat, maxSeats: e.max_seats, currency: e.currency, street: "preflop",
        boards: {}, collected: 0, pot: 0, pots: [], awards: [], shown: [], ended: false, currentBet: 0,
        lastRaise: e.big_blind, players: new Map(), runs: 1, rake: 0,
      };
      for (const s of this.seats.values()) {
        Object.assign(s, { bet: 0, inHand: false, folded: false, allIn: false, cards: null, shown: null,
                           mucked: false, lastAction: null, won: 0 });
      }
      this.legal = null;
      return;
    }
    const h = this.hand;
    if (!h) return;
    const seat = e.seat != null ? this.seats.get(e.seat) : null;
    switch (e.type) {
      case "seat_dealt_in":
        h.players.set(e.seat, e.player);
        if (this.handOnly && (!seat || seat.player !== e.player)) {
          this.seats.set(e.seat, emptySeat(e.seat, e.player, e.stack));
        }
        if (this.seats.get(e.seat) && this.seats.get(e.seat).player === e.player) {
          const dealt = this.seats.get(e.seat);
          dealt.inHand = true;
          dealt.stack = e.stack;
          dealt.waiting = null;
        }
        if (e.player === this.me) this.handsSeen.add(h.id);
        break;
      case "posted":
        h.pot = e.pot;
        if (seat && seat.inHand) {
          seat.stack = e.behind;
          seat.bet = e.to;
          if (e.all_in) seat.allIn = true;
          if (e.live) h.currentBet = Math.max(h.currentBet, seat.bet);
          else h.collected += e.added;
          seat.lastAction = e.kind === "entry" ? "posts" : null;
          if (seat.owes && !replaying) seat.owes = null;
        } else if (!LIVE.has(e.kind)) {
          h.collected += e.added;
        }
        break;
      case "hole_cards_dealt":
        if (seat && seat.inHand) seat.cards = e.cards && e.cards.length ? e.cards.slice() : null;
        break;
      case "action_taken":
        h.pot = e.pot;
        if (seat && seat.inHand) {
          seat.stack = e.behind;
          seat.bet = e.to;
          if (e.action === "fold") seat.folded = true;
          if (e.all_in) seat.allIn = true;
          seat.lastAction = e.action;
          seat.lastTimedOut = !!e.timed_out;      // left out when false (issue 36)
        }
        if (e.action === "bet" || e.action === "raise") {
          h.lastRaise = Math.max(h.lastRaise, e.to - e.facing);
        }
        h.currentBet = Math.max(h.currentBet, e.to);
        if (this.clock && this.clock.seat === e.seat) this.clock = null;
        if (e.seat === this.mySeat) this.legal = null;
        break;
      case "bet_returned":
        h.pot = e.pot;
        if (seat) { seat.stack = e.behind; seat.bet = e.to; }
        break;
      case "board_dealt":
        this.gatherBets();
        h.street = e.street;
        h.boards[e.run] = e.board.slice();
        h.currentBet = 0;
        h.lastRaise = h.bigBlind;
        for (const s of this.seats.values()) if (!s.folded && s.lastAction !== "fold") s.lastAction = null;
        break;
      case "cards_exposed":
        if (seat) seat.cards = e.cards.slice();
        break;
      case "run_it_twice_decided":
        h.runs = e.runs;
        break;
      case "hand_shown":
        if (seat && seat.player === h.players.get(e.seat)) {
          seat.cards = e.cards.slice();
          seat.shown = { description: e.description, category: e.category, run: e.run };
        }
        h.shown.push({ seat: e.seat, player: h.players.get(e.seat), cards: e.cards.slice(), run: e.run,
                       description: e.description, rank: e.rank });
        this.clock = null;
        break;
      case "hand_mucked":
        if (seat) { seat.mucked = true; if (e.cards && e.cards.length) seat.cards = e.cards.slice(); }
        break;
      case "pot_formed":
        this.gatherBets();
        h.pots[e.pot] = { amount: e.amount, rake: e.rake, seats: e.seats };
        h.rake += e.rake;
        this.clock = null;
        break;
      case "pot_awarded": {
        const winners = e.seats.map((s, i) => ({ seat: s, player: h.players.get(s) || this.nameOf(s),
                                                  share: e.shares[i] }));
        const shown = h.shown.find((x) => x.run === e.run && e.seats.includes(x.seat) && x.rank === e.rank);
        h.awards.push({ pot: e.pot, run: e.run, amount: e.amount, rank: e.rank, winners,
                        description: e.rank && shown ? shown.description : null });
        for (const w of winners) {
          const s = this.seats.get(w.seat);
          if (s && s.player === w.player) s.won += w.share;
        }
        break;
      }
      case "hand_ended":
        this.gatherBets();
        for (const [seatNo, stack] of e.stacks) {
          const s = this.seats.get(seatNo);
          if (s && s.player === h.players.get(seatNo)) s.stack = stack;
        }
        h.ended = true;
        h.collected = 0;
        h.rake = e.rake;
        this.clock = null;
        this.legal = null;
        this.finish();
        break;
      default:
        break;
    }
  }

  finish() {
    const h = this.hand;
    this.lastResult = {
      handId: h.id, showdown: h.shown.length > 0, dealtMe: this.handsSeen.has(h.id), awards: h.awards,
      shown: h.shown, boards: h.boards, rake: h.rake, currency: this.currency,
    };
  }

  // ---------------------------------------------------------------- derived

  // All chips in the middle: collected pots plus every bet in front of the players.
  potTotal() {
    if (!this.hand) return 0;
    if (this.hand.ended) return 0;
    if (this.hand.pot != null) return this.hand.pot;     // the last chip-moving event's pot
    let total = this.hand.collected;
    for (const s of this.seats.values()) total += s.bet;
    return total;
  }

  // What a bet or raise "to" would be for a fraction of the pot (1 = pot-sized), clamped to the legal range.
  potSizedTo(fraction) {
    const legal = this.legal;
    if (!legal || !this.hand) return null;
    const me = this.seats.get(legal.seat);
    const myBet = me ? me.bet : 0;
    const call = Math.max(0, this.hand.currentBet - myBet);
    const potAfterCall = this.potTotal() + call;
    const to = this.hand.currentBet + Math.floor(potAfterCall * fraction);
    return Math.max(legal.min_to, Math.min(legal.max_to, to));
  }
}
