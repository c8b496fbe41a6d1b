"""Saving a tournament step on the reactor: the changed records against pickling the whole director, in one run.

    .venv/bin/python bench/tournament_step.py [players]

Builds a running tournament of 10,000 players (by default) with bots, plays a
few rounds so it is mid-event, then for many typical steps -- one hand
finishing at one table -- times what the reactor does to save it: building
the step's changed records (:func:`tournament.saved_state.step`; the database
write runs on the writer thread). The named baseline is the old way,
``pickle.dumps`` of the whole director. Prints both in ms, the ratio, and the
records a step holds. The goal (issue): under 5 ms per step at 10,000 players.
"""

from __future__ import annotations

import pickle
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.timing import best_of  # noqa: E402
from tournament import director as td  # noqa: E402
from tournament import saved_state  # noqa: E402
from tournament import simulate as sim  # noqa: E402
from tournament.prizes import PayoutTable  # noqa: E402
from tournament.structure import PAYOUTS  # noqa: E402


def running(players: int, rounds: int) -> td.Director:
    """A running tournament of ``players`` bots, ``rounds`` rounds of hands in (money is not posted here)."""
    spec = sim.default_spec(players)
    d = td.Director(spec, PayoutTable.load(PAYOUTS / f"{spec.payouts}.toml"), random.Random(2))
    for i in range(players):
        d.register(f"p{i:05d}", spec.entry_cost)
    d.start()
    rng = random.Random(3)
    for _ in range(rounds):
        for table_id in d.ready_tables():
            if d.can_deal(table_id):                         # a table broken by an earlier hand cannot
                hand(d, table_id, rng)
    return d


def hand(d: td.Director, table_id: str, rng: random.Random) -> None:
    """One hand at one table, the bots of the simulation playing it."""
    deck = list(range(52))
    rng.shuffle(deck)
    d.deal(table_id, deck)
    table = d.tables.get(table_id)
    while table is not None and table.hand is not None and (turn := table.to_act()) is not None:
        player, legal = turn
        d.act(player, sim.bot_action(legal, rng))


def main(players: int = 10_000) -> None:
    d = running(players, rounds=1)
    saved_state.step(d)                                      # the first save writes everything
    print(f"{players} players, {len(d.entries)} left at {len(d.tables)} tables; "
          f"pickled director {len(pickle.dumps(d)) / 1e6:.2f} MB")
    pickled = best_of(5, lambda: pickle.dumps(d)) * 1000
    steps, sizes = [], []
    rng = random.Random(4)
    for table_id in list(d.tables)[:200]:
        if not d.can_deal(table_id):
            continue
        hand(d, table_id, rng)                               # one hand at one table: a typical step
        started = time.perf_counter()
        saved = saved_state.step(d)
        steps.append((time.perf_counter() - started) * 1000)
        sizes.append(len(saved.tables) + len(saved.entries))
    ours = statistics.median(steps)
    print(f"baseline pickle.dumps(director): {pickled:.2f} ms per step")
    print(f"saved_state.step (changed records): median {ours:.3f} ms, worst {max(steps):.3f} ms over "
          f"{len(steps)} steps; {statistics.mean(sizes):.1f} table and entry records per step")
    print(f"ratio: pickle / records = {pickled / ours:.0f}x; goal under 5 ms: {'met' if max(steps) < 5 else 'NOT met'}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
