"""Hands per second of the pokerroom hand engine against PokerKit, on the same hands.

Random 6-max No-Limit Hold'em hands (blinds 1/2, stacks 40 to 250 big
blinds) are first played once by random players to fix each hand's deck and
action list. Then both engines replay exactly those hands: build the hand,
deal the same cards, and at every decision ask for the legal actions (a table
does, to tell the client) and apply the recorded action. Both engines run the
whole hand to the end: posts, betting, uncalled bets, showdown and pot
awarding.

    .venv/bin/python bench/engine.py [--hands 500] [--chunk 50] [--seed 1]

Prints hands/s for each engine and the ratio (goal: at least 30x PokerKit).

``--step`` times instead the room's engine step for one action at a cash table
(issue 36): the :class:`~pokerroom.table.CashTable` command (the hand, the
blinds, the clock, its events, the next deadline for its timer) and then what the table host makes of the
batch before the bus (:class:`~pokerroom.shell.cash_runner.TableRunner`: the
event dicts and their packed bytes, the hand's stacks and transfers, the
redaction per audience and the frames), six-seat NLHE tables played as the
load test's bots play (check when free, else call, fold one time in ten)::

    .venv/bin/python bench/engine.py --step [--baseline DIR] [--actions 20000] [--rounds 9]

With ``--baseline`` (a checkout of another commit, e.g. ``git worktree add
/tmp/base <commit>``) the same hands are played by two worker processes, one
importing ``pokerroom`` from this checkout and one from ``DIR``, their rounds
interleaved so a slow spell of a shared machine hits both; the medians and
the ratio baseline/this are printed, and the frames both made are compared
(a digest of every packed frame: the same events, the same bytes).
Never run by the test suite.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench_tables import seeded_shuffle, six_max_config
from pokerkit import Automation, NoLimitTexasHoldem

from pokerroom.cards import format_card
from pokerroom.poker import NLHE, Bet, Call, Check, Fold, Hand, HandSetup, Raise, Seat, Stakes

STAKES = Stakes(1, 2)
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


def setup_for(stacks: list[int]) -> HandSetup:
    seats = tuple(Seat(i + 1, f"player{i + 1}", s) for i, s in enumerate(stacks))
    return HandSetup("bench", NLHE, STAKES, seats, button_seat=len(stacks))


def random_hands(count: int, rng: random.Random) -> list[tuple[list[int], list[int], list]]:
    """``(stacks, deck, actions)`` of random hands played by loose random players."""
    hands = []
    for _ in range(count):
        stacks = [rng.randint(80, 500) for _ in range(6)]
        deck = list(range(52))
        rng.shuffle(deck)
        hand = Hand(setup_for(stacks), deck)
        actions = []
        while (legal := hand.legal_actions()) is not None:
            r = rng.random()
            if (legal.can_bet or legal.can_raise) and r < 0.2:
                to = legal.max_to if rng.random() < 0.15 else rng.randint(legal.min_to, min(
                    legal.max_to, legal.min_to + 3 * (hand.pot_total + 1)))
                action = (Bet if legal.can_bet else Raise)(legal.seat, to)
            elif r < 0.45 and not legal.can_check:
                action = Fold(legal.seat)
            else:
                action = Check(legal.seat) if legal.can_check else Call(legal.seat)
            hand.apply(action)
            actions.append(action)
        hands.append((stacks, deck, actions))
    return hands


def play_pokerroom(hands) -> None:
    for stacks, deck, actions in hands:
        hand = Hand(setup_for(stacks), deck)
        for action in actions:
            hand.legal_actions()
            hand.apply(action)
        assert hand.ended


def pokerkit_deals(hands) -> list[tuple[list[str], list[tuple[str, str]]]]:
    """Card text per hand for PokerKit: hole cards per player, then (burn, cards) for flop, turn, river."""
    out = []
    for _stacks, deck, _actions in hands:
        holes = [format_card(deck[p]) + format_card(deck[p + 6]) for p in range(6)]
        streets = [(deck[12], deck[13:16]), (deck[16], deck[17:18]), (deck[18], deck[19:20])]
        out.append((holes, [(format_card(burn), "".join(format_card(c) for c in cards))
                            for burn, cards in streets]))
    return out


def play_pokerkit(hands, deals) -> None:
    for (stacks, _deck, actions), (holes, board) in zip(hands, deals, strict=True):
        state = NoLimitTexasHoldem.create_state(AUTOMATIONS, True, 0, (1, 2), 2, stacks, 6)
        for cards in holes:
            state.deal_hole(cards)
        street = 0
        pending = iter(actions)
        while state.status:
            if state.actor_index is None:
                burn, cards = board[street]
                state.burn_card(burn)
                state.deal_board(cards)
                street += 1
                continue
            legal = (state.checking_or_calling_amount, state.min_completion_betting_or_raising_to_amount,
                     state.max_completion_betting_or_raising_to_amount)
            assert legal
            action = next(pending)
            if isinstance(action, Fold):
                state.fold()
            elif isinstance(action, Check | Call):
                state.check_or_call()
            else:
                state.complete_bet_or_raise_to(action.to)


def seconds_per_hand(play, hands, *args, repeat: int = 1) -> float:
    start = time.thread_time()
    for _ in range(repeat):
        play(hands, *args)
    return (time.thread_time() - start) / (repeat * len(hands))


# ---------------------------------------------------------------------- the engine step (--step)


class _Wallet:
    """The table runner's wallet, without money: a transfer is a token (the runner only hands it on)."""

    def move(self, *args, **kwargs) -> tuple:     # noqa: ANN002, ANN003 - the wallet's signature, unused
        return args

    def settle_hand(self, *args) -> tuple:        # noqa: ANN002
        return args


class _Count:
    def inc(self, amount: int = 1) -> None:
        pass


class _Metrics:
    hands = _Count()


class StepTables:
    """``tables`` six-seat NLHE tables, each with its runner as the table host has it, played deterministically."""

    def __init__(self, tables: int, seed: int) -> None:
        from pokerroom.shell.cash_runner import TableRunner
        from pokerroom.table import CashTable
        from pokerroom.table.config import tables_from_config
        from pokerroom.table.seating_history import InMemorySeatingHistory

        shuffle = seeded_shuffle(seed)
        config = six_max_config(tables)
        self.choices = random.Random(seed + 1)
        self.now = 1_700_000_000.0
        self.digest = hashlib.sha256()
        self.runners = []
        for rules in tables_from_config(config):
            table = CashTable(rules, InMemorySeatingHistory(), shuffle=shuffle, draw=lambda seats: seats[0])
            runner = TableRunner(table, _Wallet(), _Metrics(), public=f"table.{rules.table_id}")
            for seat in range(1, 7):
                self.step(runner, self._sit(f"{rules.table_id}p{seat}", seat))
            self.runners.append(runner)

    @staticmethod
    def _sit(player: str, seat: int) -> object:
        from pokerroom.table import commands as tc
        return tc.Sit(player, seat, 1_000)

    def step(self, runner: object, command: object) -> tuple[float, float]:
        """One command as the table host runs it: (engine seconds, batch seconds)."""
        started = time.thread_time()
        events = runner.apply(command, self.now)
        runner.next_deadline()                              # the table's timer is armed again after each
        engine = time.thread_time()
        transfers = runner.transfers(events)
        runner.full(events, transfers, self.now)            # what the recorder is handed
        seated, _ = runner.seated_now(runner.left)
        frames = []
        for head, audiences in runner.audiences(events):
            public, everyone, own = audiences.frames(head, "events", seated)
            frames.append((public, own))
        done = time.thread_time()
        update = self.digest.update
        for public, own in frames:                          # outside the timing: what was made, to compare
            update(public.packed or b"")
            for player in sorted(own):
                update(own[player].packed or b"")
                update(repr(sorted(own[player].extra or {})).encode())
        return engine - started, done - engine

    def play(self, actions: int) -> tuple[float, float]:
        """``actions`` acts round the tables (a table between hands deals when its next hand is due)."""
        from pokerroom.table import commands as tc
        engine = batch = 0.0
        done = 0
        while done < actions:
            for runner in self.runners:
                table = runner.table
                self.now += 0.01
                if table.hand is None:
                    deadline = table.next_deadline()
                    self.now = max(self.now, deadline.at)
                    e, b = self.step(runner, deadline.command)
                else:
                    legal = table.hand.legal_actions()
                    player = table.players[legal.seat].player_id
                    if legal.can_check:
                        action = "check"
                    else:
                        action = "fold" if self.choices.random() < 0.1 else "call"
                    e, b = self.step(runner, tc.Act(player, action, None, None, legal.decision))
                    done += 1
                engine += e
                batch += b
        return engine, batch


def step_worker(tables: int, seed: int, warmup: int) -> None:
    """Play on the rounds the parent asks for (a count of actions a line); answer each with its times."""
    bench = StepTables(tables, seed)
    bench.play(warmup)
    for line in sys.stdin:
        actions = int(line)
        engine, batch = bench.play(actions)
        print(json.dumps({"engine": engine * 1e6 / actions, "batch": batch * 1e6 / actions,
                          "digest": bench.digest.hexdigest()}), flush=True)


def _named(root: Path) -> str:
    """A checkout as its commit (and ``+`` when its files differ from it), else its directory's name."""
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return root.name
    return f"{commit}{'+' if dirty else ''} ({root.name})"


def step_main(args: argparse.Namespace) -> None:
    here = Path(__file__).resolve()
    trees = {"this": here.parents[1]}
    if args.baseline:
        trees = {"baseline": Path(args.baseline).resolve(), **trees}
    workers = {}
    for name, root in trees.items():
        env = dict(os.environ, PYTHONPATH=str(root), PYTHONHASHSEED="0")     # the same sets' order in both
        workers[name] = subprocess.Popen(
            [sys.executable, str(here), "--step-worker", "--tables", str(args.tables), "--seed", str(args.seed),
             "--warmup", str(args.warmup)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
            cwd=str(root))
    results: dict[str, list[dict]] = {name: [] for name in workers}
    order = list(workers)
    for _ in range(args.rounds):
        for name in order:                              # interleaved: base, this, this, base, base, this ...
            worker = workers[name]
            worker.stdin.write(f"{args.actions}\n")
            worker.stdin.flush()
            results[name].append(json.loads(worker.stdout.readline()))
        order.reverse()
    for worker in workers.values():
        worker.stdin.close()
        worker.wait()
    print(f"engine step, µs per action: {args.tables} six-seat NLHE tables, {args.rounds} rounds of "
          f"{args.actions} actions, medians")
    medians = {}
    for name, runs in results.items():
        engine = statistics.median(r["engine"] for r in runs)
        batch = statistics.median(r["batch"] for r in runs)
        total = statistics.median(r["engine"] + r["batch"] for r in runs)
        medians[name] = (engine, batch, total)
        print(f"  {name:9} {_named(trees[name]):28} table command {engine:6.1f}  runner batch {batch:6.1f}  "
              f"step {total:6.1f}")
    if "baseline" in medians:
        base, mine = medians["baseline"], medians["this"]
        print(f"  baseline/this: table command {base[0] / mine[0]:.2f}x  runner batch {base[1] / mine[1]:.2f}x  "
              f"step {base[2] / mine[2]:.2f}x")
        same = results["baseline"][-1]["digest"] == results["this"][-1]["digest"]
        print(f"  frames: {'the same bytes' if same else 'DIFFERENT from the baseline'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500, help="distinct random hands (default 500)")
    parser.add_argument("--chunk", type=int, default=50, help="hands per timed round (default 50)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--step", action="store_true", help="time the room's engine step per action instead")
    parser.add_argument("--baseline", help="with --step: a checkout of the commit to compare against")
    parser.add_argument("--tables", type=int, default=20, help="with --step: tables (default 20)")
    parser.add_argument("--actions", type=int, default=20_000, help="with --step: actions per round")
    parser.add_argument("--rounds", type=int, default=9, help="with --step: rounds per checkout (default 9)")
    parser.add_argument("--warmup", type=int, default=3_000, help="with --step: actions before timing")
    parser.add_argument("--step-worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.step_worker:
        step_worker(args.tables, args.seed, args.warmup)
        return
    if args.step:
        step_main(args)
        return
    hands = random_hands(args.hands, random.Random(args.seed))
    deals = pokerkit_deals(hands)
    actions = sum(len(a) for _, _, a in hands) / len(hands)
    # Each round times both engines on the same chunk of hands, one right after the other, so a
    # slow spell of a shared machine hits both; the medians over all rounds are reported.
    ours, theirs, ratios = [], [], []
    for start in range(0, len(hands), args.chunk):
        chunk = slice(start, start + args.chunk)
        mine = seconds_per_hand(play_pokerroom, hands[chunk], repeat=10)
        other = seconds_per_hand(play_pokerkit, hands[chunk], deals[chunk])
        ours.append(1 / mine)
        theirs.append(1 / other)
        ratios.append(other / mine)
    print(f"random 6-max NLHE hands: {len(hands)} distinct, {actions:.1f} actions per hand, "
          f"medians of {len(ratios)} rounds")
    print(f"pokerroom  {statistics.median(ours):10.0f} hands/s")
    print(f"pokerkit   {statistics.median(theirs):10.0f} hands/s")
    print(f"ratio      {statistics.median(ratios):10.1f}x  (goal >= 30x)")


if __name__ == "__main__":
    main()
