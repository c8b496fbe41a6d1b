"""ICM equities: our exact method against brute-force enumeration of finishing orders, in one run.

    .venv/bin/python bench/icm.py

Prints the time for exact equities of 10 players with 10 prizes (issue #6: at
most 5 ms), its ratio to enumerating every finishing order of 8 players (the
largest field enumeration finishes in reasonable time), and the time and the
largest standard error of sampled equities for 1,000 players with 150 prizes.
Then the integral method: its time on the same 1,000 players and on 10,000
players with 1,500 prizes, its speed against sampling, and its largest
difference from the exact equities of the 10 players.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.timing import best_of  # noqa: E402
from tournament.icm import enumerated_equities, equities, integral_equities, sampled_equities  # noqa: E402


def main() -> None:
    rng = random.Random(6)
    ten = [rng.randint(2_000, 120_000) for _ in range(10)]
    eight = ten[:8]
    prizes = [30, 20, 14, 10, 8, 6, 5, 4, 2, 1]
    ours_10 = best_of(50, lambda: equities(ten, prizes))
    ours_8 = best_of(50, lambda: equities(eight, prizes[:8]))
    brute_8 = best_of(3, lambda: enumerated_equities(eight, prizes[:8]))
    print(f"exact, 10 players x 10 prizes: {ours_10 * 1e3:.2f} ms  (goal <= 5 ms: "
          f"{'PASS' if ours_10 <= 0.005 else 'FAIL'})")
    print(f"exact, 8 players: ours {ours_8 * 1e3:.3f} ms, enumeration of 40,320 orders {brute_8 * 1e3:.1f} ms   "
          f"ratio enumeration/ours: {brute_8 / ours_8:.0f}x")
    field = [rng.randint(1_000, 200_000) for _ in range(1_000)]
    payouts = [1_000 - 6 * i for i in range(150)]
    started = time.perf_counter()
    estimate = sampled_equities(field, payouts, samples=20_000)
    sampled = time.perf_counter() - started
    print(f"sampled, 1,000 players x 150 prizes, 20,000 orders: {sampled:.2f} s, "
          f"largest standard error {max(estimate.standard_errors):.2f} (prizes {payouts[-1]}..{payouts[0]})")
    integral = best_of(3, lambda: integral_equities(field, payouts))
    print(f"integral, 1,000 players x 150 prizes: {integral:.3f} s")
    big = [rng.randint(1_000, 200_000) for _ in range(10_000)]
    big_payouts = [10_000 - 6 * i for i in range(1_500)]
    print(f"integral, 10,000 players x 1,500 prizes: {best_of(2, lambda: integral_equities(big, big_payouts)):.3f} s")
    print(f"ratio sampled/integral (1,000 players, 20,000 orders sampled): {sampled / integral:.0f} x")
    exact = equities(ten, prizes, exact=True)
    gap = max(abs(x - float(y)) for x, y in zip(integral_equities(ten, prizes), exact, strict=True))
    print(f"integral against exact, 10 players x 10 prizes: largest absolute difference {gap:.1e} "
          f"(prizes {prizes[-1]}..{prizes[0]})")


if __name__ == "__main__":
    main()
