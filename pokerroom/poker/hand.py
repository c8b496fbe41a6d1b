"""One hand of poker as a deterministic state machine.

Theory of operation
-------------------
A :class:`Hand` is built from a :class:`~pokerroom.poker.hand_setup.HandSetup`
and a deck. Construction posts the forced bets, deals the hole cards and runs
the hand up to the first decision; those events are in ``hand.events``. From
then on the hand only moves when it is given a command:

* :meth:`Hand.apply` takes a player's action (``Fold``, ``Check``, ``Call``,
  ``Bet``, ``Raise``, ``RunItTwice``) and returns the events it caused;
* :meth:`Hand.timeout` is the table telling the hand a player's time ran out
  (check when free, else fold: HR-TIME-3, HR-DC-1);
* :meth:`Hand.choose_show` is a player turning auto-muck off (or on again)
  before the showdown: they show a losing hand instead of mucking it;
* :meth:`Hand.legal_actions` says who acts and what they may do;
  :meth:`Hand.verify` / :meth:`Hand.can_apply` check a command without playing it.

Every command is verified completely before anything changes: an illegal one
raises :class:`~pokerroom.errors.RuleViolation` and leaves the hand exactly as
it was. Between commands the hand runs everything that needs no decision
(ending a betting round, returning an uncalled bet, dealing a street, the
all-in run-out, the showdown and the awarding of pots) so after each command it
is either waiting for one named seat or over. The hand reads no clock and no
random source: the same setup, deck and commands always give the same events.

Phases::

    BETTING --(round over, cards to come, >=2 can bet)--> BETTING (next street)
    BETTING --(all fold but one)------------------------> ENDED (pot awarded, no show)
    BETTING --(river over, or all-in with action done)--> [VOTE] --> run-out --> showdown --> ENDED

Positions are indices in dealing order, 0 being the first seat left of the
button; seats are the table's numbers and appear only at the edges (commands
and events).

Betting rules (rule IDs from RULES.md, or the engine's list in docs/engine.md):
BET-1 act in turn; BET-2 check only when nothing is owed; BET-3 a bet is at
least the big blind (fixed limit: the street's size) and a raise at least the
largest bet or raise of the round, less only when all-in; BET-4 a short
all-in does not reopen the betting to players who already acted, unless
short all-ins together reach a full raise (fixed limit: half a bet); BET-5
no-limit up to the stack (HR-STAKE-1), pot-limit up to the pot after calling
(pre-flop as if the full blinds were posted), fixed limit exactly one size up;
BET-6 fixed-limit cap of a bet and three raises, lifted heads-up when the
table says so; BET-7 no raising when nobody left could call it; BET-8
uncalled bets are returned.
"""

from __future__ import annotations

from collections.abc import Sequence

from pokerroom.cards import validate
from pokerroom.errors import RuleViolation
from pokerroom.poker import events as ev
from pokerroom.poker.actions import Action, Bet, Call, Check, Fold, LegalActions, Raise, RunItTwice, decision_id
from pokerroom.poker.hand_setup import (
    BlindSeats,
    HandSetup,
    check_setup,
    dealing_order,
    standard_blind_seats,
)
from pokerroom.poker.pots import side_pots, split_pot
from pokerroom.poker.rake import rake_pots
from pokerroom.poker.showdown import choose_shows, describe_rank, pot_winners, rank_hands, showdown_order
from pokerroom.poker.variants import FIXED_LIMIT, POT_LIMIT

BETTING = "betting"
VOTE = "run_it_twice_vote"
ENDED = "ended"

_BOARD_SIZES = (0, 3, 1, 1)     # new board cards per street, pre-flop to river
_STREETS = ev.STREETS


class Hand:
    """A single hand: state, legal actions, and the commands that move it."""

    __slots__ = (
        "setup", "variant", "stakes", "hand_id", "seats", "player_ids", "deck", "n", "position",
        "stacks", "bets", "committed", "dead_money", "folded", "acted_at", "holes", "board", "board2",
        "deck_pos",
        "street", "current_bet", "min_raise", "raises", "capped", "actor", "last_aggressor", "phase",
        "events", "in_hand", "can_act", "total_in", "rake_total", "exposed", "runs", "voters",
        "votes", "blind_shortfall", "showing", "_street_size", "_fixed_limit", "_pot_limit", "street_name",
    )

    def __init__(self, setup: HandSetup, deck: Sequence[int]) -> None:
        variant, stakes = setup.variant, setup.stakes
        button = setup.button_seat
        seated = dealing_order(setup.seats, button)
        order = [s.seat for s in seated]
        blinds = setup.blinds or standard_blind_seats(order, button, stakes.third_blind > 0)
        check_setup(setup, order, blinds)
        n = len(order)
        self.deck = _checked_deck(deck)
        if len(self.deck) < n * variant.hole_cards + 8:
            raise ValueError(f"the deck has {len(self.deck)} cards; this hand needs "
                             f"{n * variant.hole_cards + 8} (hole cards, three burns, five board cards)")
        self.setup = setup
        self.variant = variant
        self.stakes = stakes
        self.hand_id = setup.hand_id
        self.seats = tuple(order)
        self.position = {seat: p for p, seat in enumerate(order)}
        self.player_ids = tuple([s.player_id for s in seated])
        self.n = n
        self.stacks = [s.stack for s in seated]
        self.bets = [0] * n
        self.committed = [0] * n            # bets and antes: what pot levels are built from
        self.dead_money = 0                 # dead blinds and the big-blind ante: main pot only
        self.folded = [False] * n
        self.acted_at = [-1] * n
        self.holes: list[tuple[int, ...]] = [()] * n
        self.board: list[int] = []
        self.board2: list[int] = []
        self.deck_pos = 0
        self.street = 0
        self.street_name = ev.PREFLOP
        self.current_bet = 0
        self.min_raise = 0
        self.raises = 0
        self.capped = False
        self.actor = -1
        self.last_aggressor = -1
        self.phase = BETTING
        self.events: list[ev.Event] = []
        self.in_hand = n
        self.can_act = n
        self.total_in = 0
        self.rake_total = 0
        self.exposed = False
        self.runs = 1
        self.voters: list[int] = []
        self.votes: list[bool] = []
        self.blind_shortfall = 0
        self.showing = {self.position[seat] for seat in setup.show_at_showdown}   # auto-muck off: they show
        self._street_size = stakes.small_bet
        self._fixed_limit = variant.betting == FIXED_LIMIT
        self._pot_limit = variant.betting == POT_LIMIT
        self._start(blinds)

    # ------------------------------------------------------------------ queries

    @property
    def ended(self) -> bool:
        return self.phase == ENDED

    @property
    def pot_total(self) -> int:
        """Chips in the middle: pots plus this street's bets (before rake)."""
        return self.total_in

    def stack(self, seat: int) -> int:
        return self.stacks[self._position(seat)]

    def stacks_by_seat(self) -> dict[int, int]:
        return dict(zip(self.seats, self.stacks, strict=True))

    def bets_by_seat(self) -> dict[int, int]:
        """Each seat's bet on this street: chips in front of it, not yet in a pot."""
        return dict(zip(self.seats, self.bets, strict=True))

    def pots(self) -> list[tuple[int, tuple[int, ...]]]:
        """The pots gathered so far, main pot first, as ``(amount, eligible seats)``: what a table draws.

        This street's bets stay in front of the players (:meth:`bets_by_seat`) until the street ends, so
        the pots plus the bets are :attr:`pot_total`. None once the hand has ended (the pots were awarded).
        """
        if self.phase == ENDED:
            return []
        bets = self.bets
        collected = [c - bets[q] for q, c in enumerate(self.committed)]
        if not self.dead_money and not any(collected):
            return []
        seats = self.seats
        return [(amount, tuple([seats[q] for q in eligible]))
                for amount, eligible in side_pots(collected, [not f for f in self.folded], self.dead_money)]

    def hole_cards(self, seat: int) -> tuple[int, ...]:
        return self.holes[self._position(seat)]

    def to_act(self) -> int | None:
        """The seat whose decision the hand waits for, or None once it has ended."""
        return None if self.actor < 0 else self.seats[self.actor]

    def decision(self) -> str | None:
        """The id of the decision the hand waits for (``LegalActions.decision``), or None once it has ended."""
        return None if self.actor < 0 else decision_id(self.hand_id, len(self.events))

    def legal_actions(self) -> LegalActions | None:
        """What the player to act may do, or None when the hand has ended."""
        p = self.actor
        if p < 0:
            return None
        seat = self.seats[p]
        decision = decision_id(self.hand_id, len(self.events))
        if self.phase == VOTE:
            return LegalActions(seat, False, 0, False, False, 0, 0, True, decision)
        owed = self.current_bet - self.bets[p]
        stack = self.stacks[p]
        call_added = owed if owed < stack else stack
        if self._raise_refusal(p) is None:
            low, high = self._raise_bounds(p)
            opening = self.current_bet == 0
            return LegalActions(seat, not owed, call_added, opening, not opening, low, high, False, decision)
        return LegalActions(seat, not owed, call_added, False, False, 0, 0, False, decision)

    # ------------------------------------------------------------------ commands

    def verify(self, action: Action) -> None:
        """Raise the RuleViolation ``apply(action)`` would raise; change nothing either way."""
        rules = _COMMANDS.get(type(action))
        if rules is None:
            raise RuleViolation("unknown_command", f"{type(action).__name__} is not a poker action", "BET-1")
        rules[0](self, self._verify_turn(action.seat), action)

    def can_apply(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        try:
            self.verify(action)
        except RuleViolation:
            return False
        return True

    def apply(self, action: Action) -> list[ev.Event]:
        """Play a player's command; return the events it caused. Illegal: RuleViolation, no change."""
        rules = _COMMANDS.get(type(action))
        if rules is None:
            raise RuleViolation("unknown_command", f"{type(action).__name__} is not a poker action", "BET-1")
        verify, perform = rules
        p = self._verify_turn(action.seat)
        verify(self, p, action)
        events = self.events
        start = len(events)
        perform(self, p, action)
        return events[start:]

    def timeout(self, seat: int) -> list[ev.Event]:
        """The player's time (and time bank) ran out: check if free, else fold (HR-TIME-3, HR-DC-1).

        In a run-it-twice vote, no answer is a "no".
        """
        p = self._verify_turn(seat)
        start = len(self.events)
        if self.phase == VOTE:
            self._vote(p, False, True)
        elif self.bets[p] == self.current_bet:
            self._check(p, True)
        else:
            self._fold(p, True)
        return self.events[start:]

    def choose_show(self, seat: int, show: bool) -> None:
        """The player's auto-muck choice for this hand's showdown: ``show`` True shows their hand even when it
        cannot win; False mucks it then (the default). Only their own cards: nobody else's are ever shown for it
        (SEC-2). No event: the choice is theirs alone until the showdown shows it."""
        p = self._position(seat)
        if type(show) is not bool:
            raise RuleViolation("bad_option", f"an option is true or false, not {show!r}")
        if self.phase == ENDED:
            raise RuleViolation("hand_over", "the hand is over", "BET-1")
        if show:
            self.showing.add(p)
        else:
            self.showing.discard(p)

    # ------------------------------------------------------------------ verification

    def _position(self, seat: object) -> int:
        p = self.position.get(seat, -1) if type(seat) is int else -1
        if p < 0:
            raise RuleViolation("unknown_seat", f"seat {seat!r} is not dealt into this hand", "BET-1")
        return p

    def _verify_turn(self, seat: int) -> int:
        p = self.position.get(seat, -1) if type(seat) is int else -1
        if p != self.actor or p < 0:
            self._refuse_turn(seat)
        return p

    def _refuse_turn(self, seat: object) -> None:
        """Raise the reason ``seat`` may not act now (hand over, unknown seat, or not their turn)."""
        if self.phase == ENDED:
            raise RuleViolation("hand_over", "the hand is over", "BET-1")
        self._position(seat)
        raise RuleViolation("not_your_turn", f"it is seat {self.seats[self.actor]}'s turn, not seat {seat}'s",
                            "BET-1")

    def _refuse_betting(self, name: str) -> None:
        raise RuleViolation("answer_run_it_twice", f"cannot {name} now: answer whether to run it twice",
                            "BET-1")

    def _raise_refusal(self, p: int) -> tuple[str, str, str] | None:
        """Why player ``p`` may not bet or raise now, or None when they may."""
        cur = self.current_bet
        stacks, bets, folded = self.stacks, self.bets, self.folded
        if stacks[p] + bets[p] <= cur:
            return ("not_enough_chips", "you can only call all-in", "HR-STAKE-1")
        for q in range(self.n):
            if q != p and not folded[q] and stacks[q] + bets[q] > cur:
                break
        else:
            return ("no_one_to_raise", "nobody left in the hand could call a raise", "BET-7")
        acted = self.acted_at[p]
        if acted >= 0:
            if self._fixed_limit:
                reopened = 2 * (cur - acted) >= self._street_size
            else:
                reopened = cur - acted >= self.min_raise
            if not reopened:
                return ("betting_not_reopened",
                        "an all-in for less than a full raise does not reopen the betting to you", "BET-4")
        if self._fixed_limit and self.raises >= self.variant.max_raises:
            if not (self.variant.uncapped_heads_up and self.in_hand == 2 and not self.capped):
                return ("raise_cap_reached",
                        f"the betting is capped at {self.variant.max_raises} bets this round", "BET-6")
        return None

    def _raise_bounds(self, p: int) -> tuple[int, int]:
        """Inclusive "to" range for a bet or raise by ``p`` (call only when allowed)."""
        cur = self.current_bet
        all_in = self.stacks[p] + self.bets[p]
        if self._fixed_limit:
            low = high = cur + self._street_size
        else:
            low = cur + self.min_raise
            if self._pot_limit:
                pot_after_call = self.total_in + cur - self.bets[p]
                if self.street == 0:
                    pot_after_call += self.blind_shortfall
                high = max(low, cur + pot_after_call)
            else:
                high = all_in
        if low > all_in:
            low = all_in
        if high > all_in:
            high = all_in
        return low, high

    def _verify_wager(self, p: int, to: int, opening: bool) -> None:
        word = "bet" if opening else "raise"
        if type(to) is not int:
            raise RuleViolation("bad_amount", f"a {word} must be a whole number of chips", "BET-3")
        if opening and self.current_bet > 0:
            raise RuleViolation("bet_already_made", "there is already a bet: raise it instead", "BET-3")
        if not opening and self.current_bet == 0:
            raise RuleViolation("no_bet_to_raise", "there is no bet to raise: bet instead", "BET-3")
        refusal = self._raise_refusal(p)
        if refusal is not None:
            raise RuleViolation(*refusal)
        all_in = self.stacks[p] + self.bets[p]
        if to > all_in:
            raise RuleViolation("not_enough_chips",
                                f"you have {{stack}} for this street; you cannot {word} to {{given}}", "HR-STAKE-1",
                                amounts={"stack": all_in, "given": to})
        low, high = self._raise_bounds(p)
        if to < low:
            raise RuleViolation(f"{word}_too_small", f"the smallest {word} is to {{min}}, not {{given}}", "BET-3",
                                amounts={"min": low, "given": to})
        if to > high:
            if self._fixed_limit:
                raise RuleViolation("fixed_limit_size", f"in fixed limit you {word} to exactly {{to}}, not {{given}}",
                                    "BET-5", amounts={"to": high, "given": to})
            raise RuleViolation("over_pot_limit", f"the pot limit allows a {word} to at most {{max}}, not {{given}}",
                                "BET-5", amounts={"max": high, "given": to})

    # ------------------------------------------------------------------ per-command checks and moves
    # Each command has a verifier (raises RuleViolation, changes nothing) and a performer (changes the
    # hand, never refuses). ``apply`` runs the first, then the second.

    def _verify_fold(self, p: int, action: Fold) -> None:
        if self.phase != BETTING:
            self._refuse_betting("fold")

    def _verify_check(self, p: int, action: Check) -> None:
        if self.phase != BETTING:
            self._refuse_betting("check")
        owed = self.current_bet - self.bets[p]
        if owed:
            raise RuleViolation("cannot_check", "you owe {owed} to call: call, raise or fold", "BET-2",
                                amounts={"owed": owed})

    def _verify_call(self, p: int, action: Call) -> None:
        if self.phase != BETTING:
            self._refuse_betting("call")
        if self.current_bet == self.bets[p]:
            raise RuleViolation("nothing_to_call", "there is nothing to call: check instead", "BET-2")

    def _verify_bet(self, p: int, action: Bet) -> None:
        if self.phase != BETTING:
            self._refuse_betting("bet")
        self._verify_wager(p, action.to, True)

    def _verify_raise(self, p: int, action: Raise) -> None:
        if self.phase != BETTING:
            self._refuse_betting("raise")
        self._verify_wager(p, action.to, False)

    def _verify_run_it_twice(self, p: int, action: RunItTwice) -> None:
        if self.phase != VOTE:
            raise RuleViolation("no_run_it_twice_vote", "nobody has offered to run it twice", "BET-1")
        if type(action.agree) is not bool:
            raise RuleViolation("bad_answer", "answer run it twice with yes or no", "BET-1")

    def _perform_fold(self, p: int, action: Fold) -> None:
        self._fold(p, False)

    def _perform_check(self, p: int, action: Check) -> None:
        self._check(p, False)

    def _perform_call(self, p: int, action: Call) -> None:
        current_bet = self.current_bet
        owed = current_bet - self.bets[p]
        stack = self.stacks[p]
        amount = owed if owed < stack else stack
        self._put_in(p, amount)
        self.acted_at[p] = current_bet
        self._emit_action(p, ev.CALL, amount, current_bet, False)
        self._pass_turn(p)

    def _perform_bet(self, p: int, action: Bet) -> None:
        self._wager(p, action.to, ev.BET)

    def _perform_raise(self, p: int, action: Raise) -> None:
        self._wager(p, action.to, ev.RAISE)

    def _perform_run_it_twice(self, p: int, action: RunItTwice) -> None:
        self._vote(p, action.agree, False)

    # ------------------------------------------------------------------ state changes

    def _emit_action(self, p: int, action: str, amount: int, facing: int, timed_out: bool) -> None:
        events = self.events
        all_in = not self.stacks[p] and action != ev.FOLD
        events.append(ev.ActionTaken(len(events) + 1, self.seats[p], self.street_name, action, amount,
                                     self.bets[p], facing, all_in, timed_out, self.total_in, self.stacks[p]))

    def _put_in(self, p: int, amount: int) -> None:
        self.stacks[p] -= amount
        self.bets[p] += amount
        self.committed[p] += amount
        self.total_in += amount
        if self.stacks[p] == 0:
            self.can_act -= 1

    def _fold(self, p: int, timed_out: bool) -> None:
        self.folded[p] = True
        self.in_hand -= 1
        self.can_act -= 1
        self._emit_action(p, ev.FOLD, 0, self.current_bet, timed_out)
        if self.in_hand == 1:
            self._end_round()
        else:
            self._pass_turn(p)

    def _check(self, p: int, timed_out: bool) -> None:
        self.acted_at[p] = self.current_bet
        self._emit_action(p, ev.CHECK, 0, self.current_bet, timed_out)
        self._pass_turn(p)

    def _wager(self, p: int, to: int, kind: str) -> None:
        facing = self.current_bet
        increment = to - facing
        if self._fixed_limit:
            if 2 * increment >= self._street_size:
                self.raises += 1
                if self.raises >= self.variant.max_raises and self.in_hand > 2:
                    self.capped = True
        elif increment >= self.min_raise:
            self.min_raise = increment
            self.raises += 1
        amount = to - self.bets[p]
        self._put_in(p, amount)
        self.current_bet = to
        self.acted_at[p] = to
        self.last_aggressor = p
        self._emit_action(p, kind, amount, facing, False)
        self._pass_turn(p)

    def _vote(self, p: int, agree: bool, timed_out: bool) -> None:
        self.votes.append(agree)
        self.events.append(ev.RunItTwiceAnswered(len(self.events) + 1, self.seats[p], agree, timed_out))
        if agree and len(self.votes) < len(self.voters):
            self.actor = self.voters[len(self.votes)]
            return
        self.runs = 2 if agree else 1
        self.events.append(ev.RunItTwiceDecided(len(self.events) + 1, self.runs))
        self.phase = BETTING
        self.actor = -1
        self._run_out()

    # ------------------------------------------------------------------ flow

    def _start(self, blinds: BlindSeats) -> None:
        setup, stakes, variant = self.setup, self.stakes, self.variant
        pos = self.position
        events = self.events
        events.append(ev.HandStarted(
            1, self.hand_id, variant.code, variant.game, variant.betting, variant.hole_cards,
            stakes.small_blind, stakes.big_blind, stakes.third_blind if blinds.third is not None else 0,
            stakes.ante, stakes.big_blind_ante, stakes.small_bet, stakes.big_bet, setup.button_seat,
            blinds.small, blinds.big, blinds.third, setup.run_it_twice, setup.table_name, setup.max_seats,
            setup.currency, setup.started_at))
        for p, seat in enumerate(self.seats):
            events.append(ev.SeatDealtIn(len(events) + 1, seat, self.player_ids[p], self.stacks[p]))
        big = pos[blinds.big] if blinds.big is not None else -1     # -1: a dead big blind (HR-MB-6)
        if stakes.ante:
            if stakes.big_blind_ante:
                self._post(big, ev.POST_BIG_BLIND, stakes.big_blind)
                self._post(big, ev.POST_BIG_BLIND_ANTE, stakes.ante)
                big_posted = True
            else:
                for p in range(self.n):
                    self._post(p, ev.POST_ANTE, stakes.ante)
                big_posted = False
        else:
            big_posted = False
        shortfall = 0
        if blinds.small is not None:
            posted = self._post(pos[blinds.small], ev.POST_SMALL_BLIND, stakes.small_blind)
            shortfall += stakes.small_blind - posted
        else:
            shortfall += stakes.small_blind
        if big < 0:
            shortfall += stakes.big_blind
        else:
            if not big_posted:
                self._post(big, ev.POST_BIG_BLIND, stakes.big_blind)
            shortfall += stakes.big_blind - self.bets[big]
        opening = stakes.big_blind
        last_blind = big
        if blinds.third is not None:
            third = pos[blinds.third]
            shortfall += stakes.third_blind - self._post(third, ev.POST_THIRD_BLIND, stakes.third_blind)
            opening = stakes.third_blind
            last_blind = third
        owed = sorted(setup.owed_posts, key=lambda post: pos[post.seat])
        for post in owed:
            self._post(pos[post.seat], post.kind, post.amount)
        self.blind_shortfall = shortfall
        for p in range(self.n):
            if self.stacks[p] == 0:
                self.can_act -= 1
        # Deal hole cards one at a time, round the table from the first seat left of the button.
        deck, n, count = self.deck, self.n, self.variant.hole_cards
        for p in range(n):
            self.holes[p] = deck[p:n * count:n]
            events.append(ev.HoleCardsDealt(len(events) + 1, self.seats[p], self.holes[p]))
        self.deck_pos = n * count
        # Pre-flop: the blinds are the opening bet; a raise is at least the largest blind.
        top = max(self.bets)
        self.current_bet = opening if opening > top else top
        self.min_raise = opening
        self.raises = 2 if blinds.third is not None else 1
        self._street_size = stakes.small_bet
        self._pass_turn(last_blind)

    def _post(self, p: int, kind: str, amount: int) -> int:
        """Post a forced bet, capped by the stack; return what was posted."""
        stack = self.stacks[p]
        if stack == 0:
            return 0                    # already all-in from an earlier post
        if amount > stack:
            amount = stack
        self.stacks[p] = stack - amount
        self.total_in += amount
        live = kind in ev.LIVE_POSTS
        if live:
            self.bets[p] += amount
            self.committed[p] += amount
        elif kind == ev.POST_ANTE:
            self.committed[p] += amount
        else:
            self.dead_money += amount
        self.events.append(ev.Posted(len(self.events) + 1, self.seats[p], kind, amount, live,
                                     self.stacks[p] == 0, self.bets[p], self.total_in, self.stacks[p]))
        return amount

    def _pass_turn(self, p: int) -> None:
        """The turn goes clockwise from ``p`` to the next player who needs to act.

        A player needs to act when they can (not folded, not all-in) and either
        owe chips, or have not acted yet this round while someone else could
        still respond to a bet. Nobody needs to act: the round is over.
        """
        n = self.n
        folded, stacks, bets, acted_at = self.folded, self.stacks, self.bets, self.acted_at
        current_bet = self.current_bet
        others_can_act = self.can_act > 1
        q = p
        for _ in range(n):
            q += 1
            if q == n:
                q = 0
            if folded[q] or not stacks[q]:
                continue
            if bets[q] < current_bet or (others_can_act and acted_at[q] < 0):
                self.actor = q
                return
        self._end_round()

    def _end_round(self) -> None:
        self.actor = -1
        self._return_uncalled()
        if self.in_hand == 1:
            self._award_uncontested()
            return
        folded, stacks = self.folded, self.stacks
        self.can_act = sum(1 for q in range(self.n) if not folded[q] and stacks[q])
        if self.street == 3:
            self._showdown()
        elif self.can_act <= 1:
            self._all_in()
        else:
            self._next_street()

    def _return_uncalled(self) -> None:
        bets = self.bets
        top = second = 0
        top_p = -1
        for q in range(self.n):
            b = bets[q]
            if b > top:
                second, top, top_p = top, b, q
            elif b > second:
                second = b
        if top > second:
            back = top - second
            bets[top_p] -= back
            self.stacks[top_p] += back
            self.committed[top_p] -= back
            self.total_in -= back
            events = self.events
            events.append(ev.BetReturned(len(events) + 1, self.seats[top_p], back, self.street_name, bets[top_p],
                                         self.total_in, self.stacks[top_p]))

    def _next_street(self) -> None:
        self.street += 1
        self.street_name = _STREETS[self.street]
        self._deal_board(self.board, self.street, 1)
        n = self.n
        self.bets = [0] * n
        self.acted_at = [-1] * n
        self.current_bet = 0
        self._street_size = self.stakes.small_bet if self.street < 2 else self.stakes.big_bet
        self.min_raise = self._street_size if self._fixed_limit else self.stakes.big_blind
        self.raises = 0
        self.capped = False
        self.last_aggressor = -1
        self._pass_turn(-1)                 # first to act: first seat left of the button

    def _deal_board(self, board: list[int], street: int, run: int) -> None:
        size = _BOARD_SIZES[street]
        start = self.deck_pos + 1            # burn one
        cards = self.deck[start:start + size]
        self.deck_pos = start + size
        board.extend(cards)
        self.events.append(ev.BoardDealt(len(self.events) + 1, _STREETS[street], cards, tuple(board), run))

    def _all_in(self) -> None:
        """Action is complete with a player all-in: turn every hand up, maybe offer two boards, run out."""
        events = self.events
        self.exposed = True
        for q in range(self.n):
            if not self.folded[q]:
                events.append(ev.CardsExposed(len(events) + 1, self.seats[q], self.holes[q]))
        if self.setup.run_it_twice and self._cards_for_two_runs():
            self.voters = [q for q in range(self.n) if not self.folded[q]]
            self.votes = []
            events.append(ev.RunItTwiceOffered(len(events) + 1, tuple(self.seats[q] for q in self.voters)))
            self.phase = VOTE
            self.actor = self.voters[0]
            return
        self._run_out()

    def _cards_for_two_runs(self) -> bool:
        left = sum(_BOARD_SIZES[self.street + 1:]) + (3 - self.street)
        return self.deck_pos + 2 * left <= len(self.deck)

    def _run_out(self) -> None:
        from_street = self.street
        for street in range(from_street + 1, 4):
            self._deal_board(self.board, street, 1)
        if self.runs == 2:
            self.board2 = self.board[:_cumulative_board(from_street)]
            for street in range(from_street + 1, 4):
                self._deal_board(self.board2, street, 2)
        self.street = 3
        self.street_name = ev.RIVER
        self._showdown()

    def _award_uncontested(self) -> None:
        """Everyone else folded: the last player takes every pot without showing."""
        folded = self.folded
        winner = folded.index(False)
        pots = side_pots(self.committed, [not f for f in folded], self.dead_money)
        amounts = [amount for amount, _ in pots]
        rakes = rake_pots(self.setup.rake, amounts, self.n, len(self.board) >= 3)
        events = self.events
        seat = (self.seats[winner],)
        for k, amount in enumerate(amounts):
            events.append(ev.PotFormed(len(events) + 1, k, amount, rakes[k], seat))
        for k, amount in enumerate(amounts):
            won = amount - rakes[k]
            events.append(ev.PotAwarded(len(events) + 1, k, 1, won, seat, (won,), 0))
        self.stacks[winner] += self.total_in - sum(rakes)
        self.rake_total += sum(rakes)
        self.total_in = 0
        self._finish()

    def _showdown(self) -> None:
        """Show or muck in showdown order, then rake and award each pot (per board when run twice)."""
        events, seats, holes, stacks = self.events, self.seats, self.holes, self.stacks
        live = [not f for f in self.folded]
        in_hand = [q for q in range(self.n) if live[q]]
        pots = side_pots(self.committed, live, self.dead_money)
        boards = (self.board,) if self.runs == 1 else (self.board, self.board2)
        in_hand_holes = [holes[q] for q in in_hand]
        ranks_by_run = [dict(zip(in_hand, rank_hands(self.variant, in_hand_holes, board), strict=True))
                        for board in boards]
        contested = [eligible for _, eligible in pots if len(eligible) > 1]
        order = showdown_order(in_hand, self.last_aggressor)
        must_show = set(in_hand) if self.exposed else {q for q in in_hand if not stacks[q] or q in self.showing}
        shows = choose_shows(order, must_show, contested, ranks_by_run)
        shown = {q for q, show in zip(order, shows, strict=True) if show}
        for run, ranks in enumerate(ranks_by_run, 1):
            for q, show in zip(order, shows, strict=True):
                if show:
                    category, description = describe_rank(ranks[q])
                    events.append(ev.HandShown(len(events) + 1, seats[q], holes[q], run, ranks[q],
                                               category, description))
                elif run == 1:
                    events.append(ev.HandMucked(len(events) + 1, seats[q], holes[q]))
        rakes = rake_pots(self.setup.rake, [amount for amount, _ in pots], self.n, True)
        for k, (amount, eligible) in enumerate(pots):
            eligible_seats = tuple([seats[q] for q in eligible])
            events.append(ev.PotFormed(len(events) + 1, k, amount, rakes[k], eligible_seats))
        for k, (amount, eligible) in enumerate(pots):
            net = amount - rakes[k]
            halves = (net,) if self.runs == 1 else (net - net // 2, net // 2)    # odd chip: run 1
            for run, share in enumerate(halves, 1):
                if len(eligible) == 1:
                    winners, rank = eligible, 0
                else:
                    ranks = ranks_by_run[run - 1]
                    winners = pot_winners(eligible, shown, ranks)
                    rank = ranks[winners[0]]
                shares = split_pot(share, winners)
                for q, chips in zip(winners, shares, strict=True):
                    stacks[q] += chips
                winner_seats = tuple([seats[q] for q in winners])
                events.append(ev.PotAwarded(len(events) + 1, k, run, share, winner_seats, tuple(shares),
                                            rank))
        self.rake_total += sum(rakes)
        self.total_in = 0
        self._finish()

    def _finish(self) -> None:
        self.phase = ENDED
        self.actor = -1
        events = self.events
        stacks = tuple(zip(self.seats, self.stacks, strict=True))
        events.append(ev.HandEnded(len(events) + 1, stacks, self.rake_total))
        events.append(ev.DeckRevealed(len(events) + 1, self.deck))


_ALL_CARDS = frozenset(range(52))


def _checked_deck(deck: Sequence[int]) -> tuple[int, ...]:
    """The deck as a tuple, after a quick check; anything odd goes to ``cards.validate`` for its message."""
    cards = tuple(deck)
    if _ALL_CARDS.issuperset(cards) and len(set(cards)) == len(cards) and set(map(type, cards)) == {int}:
        return cards
    return validate(cards)


def _cumulative_board(street: int) -> int:
    """Board cards on the table once ``street`` has been dealt."""
    return sum(_BOARD_SIZES[:street + 1])


_COMMANDS = {
    Fold: (Hand._verify_fold, Hand._perform_fold),
    Check: (Hand._verify_check, Hand._perform_check),
    Call: (Hand._verify_call, Hand._perform_call),
    Bet: (Hand._verify_bet, Hand._perform_bet),
    Raise: (Hand._verify_raise, Hand._perform_raise),
    RunItTwice: (Hand._verify_run_it_twice, Hand._perform_run_it_twice),
}
