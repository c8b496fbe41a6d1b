"""Speed of pokerroom's hand evaluator against treys, eval7 and phevaluator.

Run from the repository root::

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python bench/evaluator.py

It prints, for five workloads, a rate for ours and for each installed baseline
and ``ratio ours/<baseline>: N.NNx`` lines, then PASS/FAIL lines for the goals.
One run takes well under three minutes on two cores.

Method: every contender gets the same hands, converted to its own card type
before the clock starts. Contenders are warmed up once, then timed in
interleaved rounds (A B C A B C ...) with ``time.perf_counter`` and the garbage
collector off; each keeps its best round, and every ratio comes from timings
of this one run. The contenders named in the goals (phevaluator's C entry and
eval7) run on exactly the same hands as ours: a smaller sample would stay
warmer in cache and flatter them. Only the slowest (treys, phevaluator's
Python entry) run on a share of each sample (the first hands of the same list;
for equity every k-th board) to keep the run short.
Workloads 3-5 use every core, so other work on the machine slows them most;
the load average is printed at the start and the end.
"""

from __future__ import annotations

import gc
import itertools
import math
import operator
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version

import numpy as np

from pokerroom import _evaluator, evaluator
from pokerroom.cards import format_card, parse

SEED = 20240601
SEVEN_CARD_HANDS = math.comb(52, 7)       # 133,784,560
PREFLOP_BOARDS = math.comb(48, 5)         # 1,712,304 boards heads-up before the flop

PER_HAND_HANDS = 100_000
SHOWDOWN_BOARDS = 20_000
SHOWDOWN_PLAYERS = 9
BATCH_HANDS = 4_200_000                   # 600,000 shuffled decks, 7 hands of 7 cards each
ENUMERATION_SAMPLE = 300_000
EQUITY_SAMPLE_BOARDS = 100_000
HERO, VILLAIN = parse("AhKh"), parse("2c2d")

Hand = tuple[int, ...]


# ---------------------------------------------------------------------------
# Contenders


@dataclass(frozen=True)
class Baseline:
    """One library's per-hand evaluator, in the library's own idiom."""

    key: str                                   # short name used in ratio lines
    label: str                                 # package, version and entry point
    prepare: Callable[[Sequence[Hand]], list]  # 7-card hands (hole first) -> per-call arguments
    run: Callable[[list], list]                # one call per hand, values in order
    higher_wins: bool
    subsample: int = 1                         # time it on 1/subsample of each sample, so that
                                               # one timed run lasts about as long as ours


def _version(package: str) -> str:
    try:
        return version(package)
    except PackageNotFoundError:
        return "?"


def load_baselines() -> list[Baseline]:
    """Every installed baseline; a missing one is reported and skipped."""
    baselines = []
    try:
        import phevaluator
        from phevaluator import _pheval
    except ImportError:
        print("phevaluator: skipped: not installed")
    else:
        v = _version("phevaluator")
        baselines.append(Baseline(
            "phevaluator-C", f"phevaluator {v} _pheval.evaluate_7cards(*hand)",
            prepare=lambda hands: [tuple(h) for h in hands],   # same card ids as ours
            run=lambda args, f=_pheval.evaluate_7cards: list(itertools.starmap(f, args)),
            higher_wins=False))
        baselines.append(Baseline(
            "phevaluator", f"phevaluator {v} evaluate_cards(*hand)",
            prepare=lambda hands: [tuple(h) for h in hands],
            run=lambda args, f=phevaluator.evaluate_cards: list(itertools.starmap(f, args)),
            higher_wins=False, subsample=8))
    try:
        import eval7
    except ImportError:
        print("eval7: skipped: not installed")
    else:
        eval7_cards = [eval7.Card(format_card(c)) for c in range(52)]
        baselines.append(Baseline(
            "eval7", f"eval7 {_version('eval7')} evaluate(cards)",
            prepare=lambda hands: [[eval7_cards[c] for c in h] for h in hands],
            run=lambda args, f=eval7.evaluate: list(map(f, args)),
            higher_wins=True))
    try:
        import treys
    except ImportError:
        print("treys: skipped: not installed")
    else:
        treys_cards = [treys.Card.new(format_card(c)) for c in range(52)]
        treys_evaluator = treys.Evaluator()
        baselines.append(Baseline(
            "treys", f"treys {_version('treys')} Evaluator().evaluate(hole, board)",
            prepare=lambda hands: [([treys_cards[c] for c in h[:2]], [treys_cards[c] for c in h[2:]])
                                   for h in hands],
            run=lambda args, f=treys_evaluator.evaluate: list(itertools.starmap(f, args)),
            higher_wins=False, subsample=64))
    return baselines


# ---------------------------------------------------------------------------
# Timing and reporting


def race(contenders: dict[str, Callable[[], object]], rounds: int) -> dict[str, float]:
    """Best wall time of each contender over interleaved rounds, after one warm-up each."""
    for run in contenders.values():
        run()
    best = dict.fromkeys(contenders, math.inf)
    gc.disable()
    try:
        for _ in range(rounds):
            for name, run in contenders.items():
                start = time.perf_counter()
                run()
                best[name] = min(best[name], time.perf_counter() - start)
    finally:
        gc.enable()
    return best


def show_rate(label: str, hands_per_second: float, note: str = "") -> None:
    ns = 1e9 / hands_per_second
    print(f"  {label:<58} {hands_per_second / 1e6:9.2f} M hands/s {ns:10.1f} ns/hand{note}")


def show_ratios(ours: float, rates: dict[str, float], note: str = "") -> None:
    for key, rate in rates.items():
        print(f"  ratio ours/{key}: {ours / rate:.2f}x{note}")


def same_order(ours: Sequence[int], theirs: Sequence[int], higher_wins: bool) -> bool:
    """Whether two evaluators rank every pair of these hands alike (scales may differ)."""
    mapping: dict[int, int] = {}
    for a, b in zip(ours, theirs, strict=True):
        if mapping.setdefault(a, b) != b:
            return False
    values = [mapping[k] for k in sorted(mapping)]
    rising = operator.lt if higher_wins else operator.gt
    return all(map(rising, values, values[1:]))


def check_agreement(baselines: list[Baseline], ours: list[int], theirs: dict[str, list]) -> None:
    for b in baselines:
        n = len(theirs[b.key])
        verdict = "same order as ours" if same_order(ours[:n], theirs[b.key], b.higher_wins) else "DISAGREE"
        print(f"    check {b.key}: {verdict} on {n:,} hands")


# ---------------------------------------------------------------------------
# Data


def random_hands(rng: np.random.Generator, decks: int, cards_per_deck: int, width: int) -> np.ndarray:
    """Rows of ``width`` distinct cards: each shuffled deck is cut into disjoint hands."""
    shuffled = rng.permuted(np.tile(np.arange(52, dtype=np.uint8), (decks, 1)), axis=1)
    return np.ascontiguousarray(shuffled[:, :cards_per_deck].reshape(-1, width))


# ---------------------------------------------------------------------------
# Workloads


def per_hand(baselines: list[Baseline], hands: list[Hand], rounds: int) -> dict[str, float]:
    print(f"\n1. One 7-card call per hand: {len(hands):,} random hands, "
          "list(map(f, hands)) or list(starmap(f, hands)) for everyone")
    args = {b.key: b.prepare(hands[: len(hands) // b.subsample]) for b in baselines}
    contenders = {"ours": lambda: list(map(evaluator.evaluate, hands))}
    contenders |= {b.key: (lambda b=b: b.run(args[b.key])) for b in baselines}
    best = race(contenders, rounds)
    rates = {key: len(args.get(key, hands)) / t for key, t in best.items()}
    show_rate(f"pokerroom {_version('pokerroom')} evaluate(hand)", rates["ours"])
    for b in baselines:
        note = f"  (first {len(args[b.key]):,} hands)" if b.subsample > 1 else ""
        show_rate(b.label, rates[b.key], note)
    show_ratios(rates["ours"], {b.key: rates[b.key] for b in baselines})
    check_agreement(baselines, list(map(evaluator.evaluate, hands)),
                    {b.key: b.run(args[b.key]) for b in baselines})
    return rates


def per_hand_in_showdown(baselines: list[Baseline], deals: np.ndarray, rounds: int) -> dict[str, float]:
    players = SHOWDOWN_PLAYERS
    print(f"\n2. Per hand inside a showdown: {len(deals):,} boards x {players} hands; "
          f"ours one showdown(board, holes) per board, baselines {players} calls per board")
    tables = [(tuple(row[:5]), tuple(tuple(row[5 + 2 * p: 7 + 2 * p]) for p in range(players)))
              for row in deals.tolist()]
    seven = [hole + board for board, holes in tables for hole in holes]
    args = {b.key: b.prepare(seven[: len(seven) // b.subsample]) for b in baselines}
    contenders = {"ours": lambda: list(itertools.starmap(evaluator.showdown, tables))}
    contenders |= {b.key: (lambda b=b: b.run(args[b.key])) for b in baselines}
    best = race(contenders, rounds)
    rates = {key: len(args.get(key, seven)) / t for key, t in best.items()}
    show_rate(f"pokerroom {_version('pokerroom')} showdown(board, holes)", rates["ours"])
    for b in baselines:
        note = f"  (first {len(args[b.key]):,} hands)" if b.subsample > 1 else ""
        show_rate(b.label, rates[b.key], note)
    show_ratios(rates["ours"], {b.key: rates[b.key] for b in baselines})
    ours = [v for values in itertools.starmap(evaluator.showdown, tables) for v in values]
    check_agreement(baselines, ours, {b.key: b.run(args[b.key]) for b in baselines})
    return rates


def batch(baselines: list[Baseline], hands: np.ndarray, per_hand_rates: dict[str, float],
          rounds: int) -> float:
    print(f"\n3. Batch: evaluate_batch on a ({len(hands):,}, 7) uint8 array, "
          f"{_evaluator.max_threads()} OpenMP thread(s)")
    best = race({"ours": lambda: evaluator.evaluate_batch(hands)}, rounds)
    rate = len(hands) / best["ours"]
    show_rate(f"pokerroom {_version('pokerroom')} evaluate_batch(array)", rate)
    print("  baselines have no batch API: their one-call-per-hand rates from workload 1")
    for b in baselines:
        show_rate(b.label, per_hand_rates[b.key], "  (workload 1)")
    show_ratios(rate, {b.key: per_hand_rates[b.key] for b in baselines}, "  (batch vs their per-hand)")
    head = hands[:PER_HAND_HANDS]
    agree = evaluator.evaluate_batch(head).tolist() == list(map(evaluator.evaluate, head.tolist()))
    print(f"    check: batch equals evaluate() on the first {len(head):,} rows: {agree}")
    return rate


def enumeration(baselines: list[Baseline], rounds: int) -> float:
    print(f"\n4. Enumeration of all {SEVEN_CARD_HANDS:,} seven-card hands")
    sample = list(itertools.islice(itertools.combinations(range(52), 7), ENUMERATION_SAMPLE))
    args = {b.key: b.prepare(sample[: len(sample) // b.subsample]) for b in baselines}
    contenders = {"ours": lambda: evaluator.enumerate_all(7)}
    contenders |= {b.key: (lambda b=b: b.run(args[b.key])) for b in baselines}
    best = race(contenders, rounds)
    rate = SEVEN_CARD_HANDS / best["ours"]
    show_rate(f"pokerroom {_version('pokerroom')} enumerate_all(7), in full", rate,
              f"  {best['ours']:.3f} s")
    histogram = evaluator.enumerate_all(7)
    print(f"    check: histogram counts {int(histogram.sum()):,} hands, "
          f"{int(np.count_nonzero(histogram))} distinct values")
    print("  baselines: timed on the first hands of the same order (combinations of 0..51, "
          f"pre-built), EXTRAPOLATED to {SEVEN_CARD_HANDS:,}")
    rates = {}
    for b in baselines:
        rates[b.key] = len(args[b.key]) / best[b.key]
        show_rate(b.label, rates[b.key],
                  f"  ~{SEVEN_CARD_HANDS / rates[b.key]:,.0f} s extrapolated from {len(args[b.key]):,} hands")
    show_ratios(rate, rates, "  (extrapolated)")
    ours = evaluator.evaluate_batch(np.array(sample, dtype=np.uint8)).tolist()
    check_agreement(baselines, ours, {b.key: b.run(args[b.key]) for b in baselines})
    return rate


def equity(baselines: list[Baseline], rounds: int) -> float:
    hero, villain = "".join(map(format_card, HERO)), "".join(map(format_card, VILLAIN))
    print(f"\n5. Heads-up pre-flop equity, {hero} vs {villain}, all {PREFLOP_BOARDS:,} boards")
    deck = [c for c in range(52) if c not in HERO + VILLAIN]
    stride = PREFLOP_BOARDS // EQUITY_SAMPLE_BOARDS
    boards = list(itertools.islice(itertools.combinations(deck, 5), 0, None, stride))
    samples = {}
    for b in baselines:
        if b.key == "phevaluator":        # same library as phevaluator-C, only slower
            continue
        mine = boards[:: b.subsample]      # spread over all boards, as the sample itself is
        samples[b] = (b.prepare([HERO + x for x in mine]), b.prepare([VILLAIN + x for x in mine]))
    contenders = {"ours": lambda: evaluator.equity([HERO, VILLAIN])}
    contenders |= {b.key: (lambda b=b: tally(b, *samples[b])) for b in samples}
    best = race(contenders, rounds)

    result = evaluator.equity([HERO, VILLAIN])[0]
    print(f"  {'pokerroom ' + _version('pokerroom') + ' equity(holes), exact':<58} "
          f"{best['ours'] * 1e3:9.2f} ms   {hero} equity {result.equity:.4f} "
          f"(win {result.win:.4f} + tie share {result.tie:.4f}, {result.boards:,} boards)")
    if any(b.key == "eval7" for b in samples):
        print("  eval7 has no exact all-boards equity (py_hand_vs_range_exact needs a complete "
              "5-card board), so it runs the Python enumeration too")
    print(f"  baselines: Python enumeration over every {stride}th board ({len(boards):,} boards; "
          f"boards dealt and converted before the clock), 2 calls per board, "
          f"time EXTRAPOLATED to {PREFLOP_BOARDS:,}")
    full = {}
    for b, (hero_args, villain_args) in samples.items():
        n = len(hero_args)
        wins, ties = tally(b, hero_args, villain_args)
        share = (wins + ties / 2) / n
        spread = math.sqrt(max((wins + ties / 4) / n - share * share, 0.0) / n)
        full[b.key] = best[b.key] / n * PREFLOP_BOARDS
        print(f"  {b.label:<58} {full[b.key] * 1e3:9.0f} ms   {hero} equity {share:.4f} "
              f"+/- {spread:.4f} (sample of {n:,} boards)")
    for key, seconds in full.items():
        print(f"  ratio ours/{key}: {seconds / best['ours']:.2f}x  (extrapolated)")
    return best["ours"]


def tally(baseline: Baseline, hero_args: list, villain_args: list) -> tuple[int, int]:
    """Boards the hero wins and ties, from one call per hand per board."""
    hero, villain = baseline.run(hero_args), baseline.run(villain_args)
    beats = operator.gt if baseline.higher_wins else operator.lt
    return sum(map(beats, hero, villain)), sum(map(operator.eq, hero, villain))


# ---------------------------------------------------------------------------


def goals(per_hand_rates: dict[str, float], batch_rate: float, enum_rate: float, equity_s: float) -> None:
    print("\ngoals")

    def line(ok: bool | None, text: str) -> None:
        print(f"  {'SKIP' if ok is None else 'PASS' if ok else 'FAIL'}  {text}")

    for key, target in (("phevaluator-C", 2.5), ("eval7", 9.0)):
        if key in per_hand_rates:
            ratio = per_hand_rates["ours"] / per_hand_rates[key]
            line(ratio >= target, f"one call per hand >= {target}x {key}: {ratio:.2f}x")
        else:
            line(None, f"one call per hand >= {target}x {key}: baseline not installed")
    line(batch_rate >= 100e6, f"batch >= 100 M hands/s: {batch_rate / 1e6:.0f} M hands/s")
    line(enum_rate >= 500e6, f"enumeration >= 500 M hands/s: {enum_rate / 1e6:.0f} M hands/s")
    line(equity_s <= 10e-3, f"heads-up pre-flop equity <= 10 ms: {equity_s * 1e3:.2f} ms")


def load() -> str:
    """The 1-minute load average: other work on this machine slows the multi-threaded workloads."""
    return f"load average {os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "load average ?"


def main() -> None:
    started = time.perf_counter()
    print(f"Python {sys.version.split()[0]} on {sys.platform}; {os.cpu_count()} cores "
          f"({len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else '?'} usable); "
          f"numpy {np.__version__}; {load()}")
    baselines = load_baselines()
    rng = np.random.default_rng(SEED)
    batch_hands = random_hands(rng, BATCH_HANDS // 7, 49, 7)
    hands = [tuple(h) for h in batch_hands[:PER_HAND_HANDS].tolist()]
    deals = random_hands(rng, SHOWDOWN_BOARDS, 5 + 2 * SHOWDOWN_PLAYERS, 5 + 2 * SHOWDOWN_PLAYERS)

    per_hand_rates = per_hand(baselines, hands, rounds=31)
    per_hand_in_showdown(baselines, deals, rounds=31)
    batch_rate = batch(baselines, batch_hands, per_hand_rates, rounds=31)
    enum_rate = enumeration(baselines, rounds=11)
    equity_s = equity(baselines, rounds=31)
    goals(per_hand_rates, batch_rate, enum_rate, equity_s)
    print(f"\ntotal {time.perf_counter() - started:.1f} s; {load()}")


if __name__ == "__main__":
    main()
