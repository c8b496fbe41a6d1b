"""What one finished hand says about pairs of players: the raw material of the collusion signals (SEC-3).

Theory of operation
-------------------
:func:`hand_facts` reads a hand's complete event list once -- the security
team's copy, hole cards included -- and keeps only the quantities the signals
of :mod:`pokerroom.security.signals` add up over many hands. The hand history
stays the truth (SEC-1); a :class:`HandFacts` is a small derived row, so that a
year of play can be scored again without replaying a single hand. Players are
named once, in ``players`` (sorted); every other field names them by their
index there, which keeps the packed row small and the scoring free of string
work. :meth:`HandFacts.row` is one flat tuple of plain values (the store packs
it with msgpack) and :meth:`HandFacts.from_row` takes it back.

Words used below: a player is *live* while they hold cards and chips behind
(not folded, not all-in) -- only a live player can be bet into. A decision is
*voluntary* unless the table made it for a player out of time (HR-TIME-3,
HR-DC-1). *Heads-up* means one opponent still holding cards, *multiway* more.

The fields, each defined exactly in docs/security.md "Collusion signals":

* ``net`` -- each player's end stack minus start stack; ``pot`` (before rake),
  ``rake`` and ``big_blind`` to scale them;
* ``flows`` -- ``(loser, winner, chips)``: every loser's loss, less their share
  of the rake, split among the winners in proportion to what each won;
* ``postflop`` -- per player ``(heads-up decisions, of them bets or raises,
  multiway decisions, of them bets or raises)``: voluntary decisions on the
  flop, turn and river;
* ``soft`` -- ``(a, b, ...the same four counts...)`` for a's postflop decisions
  made while b was live;
* ``dumps`` -- ``(a, b, chips)``: a folded voluntarily to b's bet or raise after
  putting in at least 10 big blinds or a third of their starting stack, and b
  won the pot without a showdown; ``chips`` is what a had put in;
* ``strong_folds`` -- ``(a, b, chips)``: a folded voluntarily to b's bet or raise
  holding QQ+ or AKs before the flop (Hold'em), or a straight or better after it
  (a Hold'em river hand that only plays the board does not count);
* ``squeezes`` -- ``(a, b)``: on one street a and b raised each other in turn
  (a bet or raise, b's raise, a's re-raise) while a third player who had called
  on that street still held cards;
* ``bounty_check_downs`` -- ``(a, b, c)``, bounty tournaments only: c was all-in,
  a and b stayed in to the showdown with chips behind, both checked at least
  once after c's all-in and neither bet nor raised;
* ``timed_out`` -- tournaments only: players the table acted for (TR-PLAY-5);
* ``chatted`` -- who sent chat at the table while the hand ran (HR-CHAT-4),
  seated or not, by player id.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from pokerroom.evaluator import HandCategory, category, evaluate, evaluate_omaha
from pokerroom.poker.events import (
    BET,
    CALL,
    CHECK,
    FOLD,
    PREFLOP,
    RAISE,
    ActionTaken,
    BetReturned,
    BoardDealt,
    Event,
    HandEnded,
    HandMucked,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    Posted,
    PotAwarded,
    PotFormed,
    SeatDealtIn,
    events_from_stored,
)
from pokerroom.poker.quick_init import quick_init

__all__ = ["DUMP_BIG_BLINDS", "HandFacts", "facts_from_dicts", "flows_between", "hand_facts", "is_strong"]

FORMAT = 1                  # the first element of a packed row; bump when the fields change
DUMP_BIG_BLINDS = 10        # a fold after putting in this many big blinds (or a third of the stack) is a dump
QUEEN, KING, ACE = 10, 11, 12


@quick_init
@dataclass(frozen=True, slots=True)
class HandFacts:
    """One finished hand reduced to what the collusion signals need. Indices refer to ``players``."""

    hand_id: str
    table_id: str
    game_key: str                   # the stake level, e.g. "NLHE 1/2"
    tournament: str | None
    bounty: bool
    at: float
    players: tuple[str, ...]        # dealt in, sorted
    big_blind: int
    pot: int
    rake: int
    showdown: bool
    net: tuple[int, ...]
    flows: tuple[tuple[int, int, int], ...]
    postflop: tuple[tuple[int, int, int, int], ...]
    soft: tuple[tuple[int, int, int, int, int, int], ...]
    dumps: tuple[tuple[int, int, int], ...]
    strong_folds: tuple[tuple[int, int, int], ...]
    squeezes: tuple[tuple[int, int], ...]
    bounty_check_downs: tuple[tuple[int, int, int], ...]
    timed_out: tuple[int, ...]
    chatted: tuple[str, ...]

    def row(self) -> tuple:
        """Plain values, fields in declaration order after a format number: what the store packs."""
        return (FORMAT, self.hand_id, self.table_id, self.game_key, self.tournament, self.bounty,
                float(self.at), self.players, self.big_blind, self.pot, self.rake, self.showdown,
                self.net, self.flows, self.postflop, self.soft, self.dumps, self.strong_folds,
                self.squeezes, self.bounty_check_downs, self.timed_out, self.chatted)

    @classmethod
    def from_row(cls, row: Sequence) -> HandFacts:
        """The facts :meth:`row` gave (unpacked with tuples for arrays, nothing is rebuilt)."""
        if row[0] != FORMAT:
            raise ValueError(f"hand facts of format {row[0]!r}; this code reads format {FORMAT}")
        return cls(*row[1:])


def is_strong(holes: Sequence[int], board: Sequence[int], omaha: bool = False) -> bool:
    """Whether folding ``holes`` on ``board`` gives up a hand nobody folds to one bet.

    Before the flop: QQ, KK, AA or AKs (Hold'em only). After it: a straight or
    better; on a complete Hold'em board the hand must beat the board alone.
    """
    holes, board = tuple(holes), tuple(board)
    if not board:
        if len(holes) != 2:
            return False
        r1, r2 = holes[0] >> 2, holes[1] >> 2
        return (r1 == r2 and r1 >= QUEEN) or ({r1, r2} == {ACE, KING} and holes[0] & 3 == holes[1] & 3)
    if omaha:
        value = evaluate_omaha(holes, board)
    else:
        value = evaluate(holes + board)
        if len(board) == 5 and value == evaluate(board):
            return False
    return category(value) >= HandCategory.STRAIGHT


def flows_between(net: Sequence[int]) -> tuple[tuple[int, int, int], ...]:
    """``(loser, winner, chips)`` for one hand's results; what flows is what the winners won.

    Each loser's outflow is their loss less their share of the rake (the
    whole-chip remainder goes to the largest fractions), split among the
    winners in proportion to their winnings. Rounding keeps both sums exact:
    a loser's flows add up to their outflow, a winner's to their winnings.
    """
    losers = [(i, -n) for i, n in enumerate(net) if n < 0]
    winners = [(j, n) for j, n in enumerate(net) if n > 0]
    lost = sum(loss for _, loss in losers)
    won = sum(w for _, w in winners)
    if not losers or not winners:
        return ()
    # each loser's outflow: loss * won / lost, largest remainder
    shares = [(loss * won // lost, loss * won % lost, k) for k, (_, loss) in enumerate(losers)]
    outflow = [whole for whole, _, _ in shares]
    for _, _, k in sorted(shares, key=lambda s: (-s[1], s[2]))[:won - sum(outflow)]:
        outflow[k] += 1
    # the cells: loss_i * won_j / lost, floored, then the row and column deficits filled by largest fraction
    cells = {}
    row_left = outflow[:]
    col_left = [w for _, w in winners]
    fractions = []
    for k, (_, loss) in enumerate(losers):
        for m, (_, w) in enumerate(winners):
            whole, rest = divmod(loss * w, lost)
            cells[k, m] = whole
            row_left[k] -= whole
            col_left[m] -= whole
            fractions.append((-rest, k, m))
    fractions.sort()
    for _, k, m in fractions:
        if row_left[k] > 0 and col_left[m] > 0:
            cells[k, m] += 1
            row_left[k] -= 1
            col_left[m] -= 1
    for k in range(len(losers)):                # rare: deficits left in cells already rounded up
        for m in range(len(winners)):
            extra = min(row_left[k], col_left[m])
            if extra > 0:
                cells[k, m] += extra
                row_left[k] -= extra
                col_left[m] -= extra
    return tuple((losers[k][0], winners[m][0], chips) for (k, m), chips in cells.items() if chips)


def facts_from_dicts(events: Sequence[dict], **context: Any) -> HandFacts:
    """:func:`hand_facts` of a hand as stored (wire dicts): the room keeps only those while a hand runs."""
    return hand_facts(events_from_stored(events), **context)


def hand_facts(events: Sequence[Event], *, table_id: str, game_key: str, at: float, tournament: str | None = None,
               bounty: bool = False, chatted: Iterable[str] = ()) -> HandFacts:
    """The facts of one finished hand from its complete events (the security team's copy, SEC-2).

    ``chatted``: who sent chat at the table while this hand ran (HR-CHAT-4).
    ``bounty`` only counts in a tournament, as do timed-out players (TR-PLAY-5, TR-PLAY-6).
    """
    started = events[0] if events else None
    if not isinstance(started, HandStarted):
        raise ValueError("a hand's events start with HandStarted")
    big_blind = started.big_blind
    omaha = started.game == "omaha"
    player_of: dict[int, str] = {}
    start: dict[int, int] = {}
    holes: dict[int, tuple[int, ...]] = {}
    put_in: dict[int, int] = {}
    folded: set[int] = set()
    all_in: set[int] = set()
    all_in_at: dict[int, int] = {}          # seat -> index in ``acts`` of their all-in (-1: on a post)
    acts: list[tuple[int, str]] = []
    board: tuple[int, ...] = ()
    street = PREFLOP
    aggressors: list[int] = []              # this street's bets and raises, by seat
    callers: list[int] = []                 # this street's calls, by seat
    postflop: dict[int, list[int]] = {}
    soft: dict[tuple[int, int], list[int]] = {}
    fold_to: list[tuple[int, int, int]] = []
    strong: list[tuple[int, int, int]] = []
    squeezes: set[tuple[int, int]] = set()
    timed: set[int] = set()
    showdown = False
    pot = 0
    winners: set[int] = set()
    ended: HandEnded | None = None
    for e in events:
        kind = type(e)
        if kind is ActionTaken:
            s, action = e.seat, e.action
            if e.street != street:
                street = e.street
                aggressors = []
                callers = []
            if e.timed_out:
                timed.add(s)
            elif street != PREFLOP:
                aggressive = action == BET or action == RAISE
                opponents = [q for q in player_of if q != s and q not in folded]
                column = 0 if len(opponents) == 1 else 2
                counts = postflop.setdefault(s, [0, 0, 0, 0])
                counts[column] += 1
                counts[column + 1] += aggressive
                for b in opponents:
                    if b not in all_in:
                        counts = soft.setdefault((s, b), [0, 0, 0, 0])
                        counts[column] += 1
                        counts[column + 1] += aggressive
            if action == FOLD:
                if aggressors and not e.timed_out:
                    bettor, chips = aggressors[-1], put_in[s]
                    if chips >= DUMP_BIG_BLINDS * big_blind or 3 * chips >= start[s]:
                        fold_to.append((s, bettor, chips))
                    cards = holes.get(s)
                    if cards and is_strong(cards, board, omaha):
                        strong.append((s, bettor, chips))
                folded.add(s)
            elif action == BET or action == RAISE:
                if len(aggressors) >= 2 and aggressors[-2] == s and aggressors[-1] != s:
                    other = aggressors[-1]
                    if any(c != s and c != other and c not in folded for c in callers):
                        squeezes.add((s, other) if s < other else (other, s))
                aggressors.append(s)
            elif action == CALL:
                callers.append(s)
            put_in[s] += e.added
            if e.all_in:
                all_in.add(s)
                all_in_at[s] = len(acts)
            acts.append((s, action))
        elif kind is SeatDealtIn:
            player_of[e.seat] = e.player
            start[e.seat] = e.stack
            put_in[e.seat] = 0
        elif kind is Posted:
            put_in[e.seat] += e.added
            if e.all_in:
                all_in.add(e.seat)
                all_in_at[e.seat] = -1
        elif kind is BetReturned:
            put_in[e.seat] -= e.amount
        elif kind is BoardDealt:
            if e.run == 1:
                board = e.board
        elif kind is HandShown or kind is HandMucked:
            showdown = True
        elif kind is PotFormed:
            pot += e.amount
        elif kind is PotAwarded:
            winners.update(e.seats)
        elif kind is HandEnded:
            ended = e
        elif kind is HoleCardsDealt:
            holes[e.seat] = e.cards
    if ended is None:
        raise ValueError(f"hand {started.hand_id} has not ended: a void hand has no facts")
    players = tuple(sorted(player_of.values()))
    index = {seat: players.index(pid) for seat, pid in player_of.items()}
    end = dict(ended.stacks)
    net = [0] * len(players)
    for seat, i in index.items():
        net[i] = end.get(seat, start[seat]) - start[seat]
    in_tournament = tournament is not None
    return HandFacts(
        started.hand_id, table_id, game_key, tournament, bool(bounty and in_tournament), float(at), players,
        big_blind, pot, ended.rake, showdown, tuple(net), flows_between(net),
        tuple(tuple(postflop.get(seat, (0, 0, 0, 0))) for seat in sorted(index, key=index.__getitem__)),
        tuple(sorted((index[a], index[b], *c) for (a, b), c in soft.items())),
        tuple(sorted((index[a], index[b], chips) for a, b, chips in fold_to if not showdown and b in winners)),
        tuple(sorted((index[a], index[b], chips) for a, b, chips in strong)),
        tuple(sorted(tuple(sorted((index[a], index[b]))) for a, b in squeezes)),
        _check_downs(acts, all_in, all_in_at, folded, index) if bounty and in_tournament and showdown else (),
        tuple(sorted(index[s] for s in timed)) if in_tournament else (),
        tuple(sorted(set(chatted))),
    )


def _check_downs(acts: list[tuple[int, str]], all_in: set[int], all_in_at: dict[int, int], folded: set[int],
                 index: dict[int, int]) -> tuple[tuple[int, int, int], ...]:
    """``(a, b, c)``: a and b checked it down to the showdown after c's all-in (TR-PLAY-6)."""
    found: dict[tuple[int, int], int] = {}
    behind = sorted(s for s in index if s not in folded and s not in all_in)
    for c, at in sorted(all_in_at.items(), key=lambda item: item[1]):
        if c in folded:
            continue
        after = acts[at + 1:]
        checked = {s for s, action in after if action == CHECK}
        raised = {s for s, action in after if action == BET or action == RAISE}
        for a, b in combinations(behind, 2):
            if a in checked and b in checked and a not in raised and b not in raised:
                pair = tuple(sorted((index[a], index[b])))
                found.setdefault(pair, index[c])
    return tuple(sorted((a, b, c) for (a, b), c in found.items()))
