"""Collusion signals over a million stored hands, against reading and decoding the same rows, in one run.

    .venv/bin/python bench/security.py [--hands 1000000] [--seed 9]

Setup (untimed): a synthetic room of 2,000 players at 250 six-seat tables in
three No-Limit stake levels, a tenth of them tournament tables (half of those
with bounties). Players keep their seats for stretches (after each hand a seat
changes hands with a 4% chance, so a lineup lasts some 25 hands, as real tables
do); two or three players see each flop and bet or raise about a third of their
decisions there; the winner takes what the others lost (5% rake, capped); now
and then anyone dumps, folds a strong hand, squeezes, checks it down on an
all-in, times out or chats. Planted: five guilty pairs (sitting together,
soft-playing and dumping) and one ring of three doing the same to each other;
five households share an address and play honestly. Each hand's
:class:`~pokerroom.security.facts.HandFacts` is packed and stored as one row
of a SQLite file in a temporary directory, in the shape of the room's
``hand_facts`` table (id, hand_id, table_id, tournament, at, data).

Timed (wall clock, one run each, the garbage collector on as in the room):

* **ours** -- read every row in order, unpack it, ``PairSignals.add`` it, then
  ``rank(50)`` and ``rings()``: what the security desk does to rescore a year;
* baseline **reading the rows alone** (``SELECT data`` and nothing else);
* baseline **reading and decoding** (each row unpacked to ``HandFacts``).

Prints ours against the goal (issue #9: well under 60 s for 1,000,000 hands)
and against both baselines, then where the planted pairs ranked (a check that
the synthetic room means something, not a measurement).
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import sys
import tempfile
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pokerroom.security.facts import HandFacts, flows_between  # noqa: E402
from pokerroom.security.signals import FLAG_THRESHOLD, PairSignals  # noqa: E402
from pokerroom.store.security_records import pack_facts, unpack_facts  # noqa: E402

GOAL_SECONDS_PER_MILLION = 60.0
PLAYERS = 2_000
TABLES = 250
SEATS = 6
CHURN = 0.04
STAKES = (("NLHE 1/2", 2), ("NLHE 2/5", 5), ("NLHE 5/10", 10))
AGGRESSION = 0.33
GUILTY = [(f"u{2 * i:04d}", f"u{2 * i + 1:04d}") for i in range(5)]
RING = ("u0010", "u0011", "u0012")
HOUSEHOLDS = [(f"u{100 + 2 * i:04d}", f"u{101 + 2 * i:04d}") for i in range(5)]


class SyntheticRoom:
    """Tables whose lineups drift slowly; every hand's facts made up from a few random draws."""

    def __init__(self, seed: int) -> None:
        self.rng = rng = random.Random(seed)
        self.names = [f"u{i:04d}" for i in range(PLAYERS)]
        planted = [p for pair in GUILTY for p in pair] + list(RING)
        self.planted = set(planted)
        self.partners: dict[str, set[str]] = {}
        for group in [*GUILTY, RING]:
            for p in group:
                self.partners[p] = set(group) - {p}
        others = [p for p in self.names if p not in self.planted]
        rng.shuffle(others)
        self.tables: list[list[str]] = []
        groups = [list(g) for g in (*GUILTY, RING)]
        for t in range(TABLES):
            seats = groups[t] if t < len(groups) else []
            while len(seats) < SEATS:
                seats.append(others.pop())
            self.tables.append(seats)
        self.rail = others
        self.number = 0

    def hands(self, count: int):
        rng = self.rng
        for n in range(count):
            t = n % TABLES
            seats = self.tables[t]
            if rng.random() < CHURN:
                i = rng.randrange(SEATS)
                if seats[i] not in self.planted:
                    j = rng.randrange(len(self.rail))
                    seats[i], self.rail[j] = self.rail[j], seats[i]
            yield self.deal(n, t, seats)

    def deal(self, n: int, t: int, lineup: list[str]) -> HandFacts:
        rng = self.rng
        game, bb = STAKES[t % len(STAKES)]
        tournament = f"T{t}" if t % 10 == 9 else None
        bounty = tournament is not None and t % 20 == 19
        players = tuple(sorted(lineup))
        flop = rng.sample(range(SEATS), 2 if rng.random() < 0.7 else 3)
        postflop = [(0, 0, 0, 0)] * SEATS
        soft = []
        for a in flop:
            partners = self.partners.get(players[a])
            opponents = [b for b in flop if b != a]
            column = 0 if len(opponents) == 1 else 2
            decisions = rng.randint(1, 3)
            aggressive = sum(rng.random() < AGGRESSION for _ in range(decisions))
            if partners and any(players[b] in partners for b in opponents):
                aggressive = 0
            counts = [0, 0, 0, 0]
            counts[column], counts[column + 1] = decisions, aggressive
            postflop[a] = tuple(counts)
            soft.extend((a, b, *counts) for b in opponents)
        winner = rng.choice(flop)
        net = [0] * SEATS
        for p in flop:
            if p != winner:
                loss = bb * rng.randint(1, 40)
                net[p] -= loss
                net[winner] += loss
        rake = min(sum(-x for x in net if x < 0) // 20, 3 * bb)
        net[winner] -= rake
        dumps, strong, squeezes, downs = [], [], [], []
        r = rng.random()
        if r < 0.02:
            a, b = rng.sample(range(SEATS), 2)
            dumps.append((a, b, bb * rng.randint(10, 40)))
        elif r < 0.025:
            a, b = rng.sample(range(SEATS), 2)
            strong.append((a, b, bb * rng.randint(1, 10)))
        elif r < 0.03:
            squeezes.append(tuple(sorted(rng.sample(range(SEATS), 2))))
        elif r < 0.035 and bounty:
            a, b, c = rng.sample(range(SEATS), 3)
            downs.append((min(a, b), max(a, b), c))
        if rng.random() < 0.15:                     # a planted pair at this table dumps
            pairs = [(a, b) for a, b in combinations(range(SEATS), 2)
                     if players[b] in self.partners.get(players[a], ())]
            if pairs:
                a, b = rng.choice(pairs)
                dumps.append((a, b, bb * rng.randint(10, 30)))
        timed = tuple(sorted(i for i in range(SEATS) if rng.random() < 0.02)) if tournament else ()
        chatted = (rng.choice(lineup),) if rng.random() < 0.03 else ()
        return HandFacts(f"{t}-{n}", f"table-{t}", game, tournament, bounty, 1.7e9 + n, players, bb,
                         sum(-x for x in net if x < 0) + rake, rake, len(flop) > 1 and rng.random() < 0.4,
                         tuple(net), flows_between(net), tuple(postflop), tuple(sorted(soft)), tuple(dumps),
                         tuple(strong), tuple(squeezes), tuple(downs), timed, chatted)


def build(path: Path, hands: int, seed: int) -> SyntheticRoom:
    room = SyntheticRoom(seed)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE hand_facts (id INTEGER PRIMARY KEY, hand_id TEXT UNIQUE, table_id TEXT, "
               "tournament TEXT, at REAL, data BLOB)")
    batch = []
    for f in room.hands(hands):
        batch.append((f.hand_id, f.table_id, f.tournament, f.at, pack_facts(f)))
        if len(batch) == 20_000:
            db.executemany("INSERT INTO hand_facts (hand_id, table_id, tournament, at, data) VALUES (?, ?, ?, ?, ?)",
                           batch)
            batch.clear()
    db.executemany("INSERT INTO hand_facts (hand_id, table_id, tournament, at, data) VALUES (?, ?, ?, ?, ?)", batch)
    db.commit()
    db.close()
    return room


def rows(path: Path):
    db = sqlite3.connect(path)
    try:
        yield from db.execute("SELECT data FROM hand_facts ORDER BY id")
    finally:
        db.close()


def read_only(path: Path) -> int:
    count = 0
    for (_data,) in rows(path):
        count += 1
    return count


def read_and_decode(path: Path) -> int:
    unpack = unpack_facts
    count = 0
    for (data,) in rows(path):
        unpack(data)
        count += 1
    return count


def score(path: Path, room: SyntheticRoom) -> tuple[PairSignals, list, list, float]:
    signals = PairSignals()
    for i, name in enumerate(room.names):
        signals.add_identities(name, (f"10.{i // 250}.{i % 250}.1",))
    for a, b in HOUSEHOLDS + GUILTY:
        signals.add_identities(a, (f"household-{a}",))
        signals.add_identities(b, (f"household-{a}",))
    unpack, add = unpack_facts, signals.add
    for (data,) in rows(path):
        add(unpack(data))
    started = time.perf_counter()
    ranked = signals.rank(50)
    rings = signals.rings()
    return signals, ranked, rings, time.perf_counter() - started


def timed(work):
    started = time.perf_counter()
    result = work()
    return time.perf_counter() - started, result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=9)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "hand_facts.sqlite"
        setup, room = timed(lambda: build(path, args.hands, args.seed))
        size = path.stat().st_size
        print(f"setup: {args.hands:,} synthetic hands of {PLAYERS:,} players at {TABLES} six-seat tables stored in "
              f"SQLite ({size / 1e6:.0f} MB, {size / args.hands:.0f} bytes a row) in {setup:.0f} s (untimed)")
        read, _ = timed(lambda: read_only(path))
        decode, _ = timed(lambda: read_and_decode(path))
        ours, (signals, ranked, rings, scoring) = timed(lambda: score(path, room))
        scale = 1_000_000 / args.hands
        goal = GOAL_SECONDS_PER_MILLION / scale
        print(f"signals over {args.hands:,} stored hands (read, decode, add, rank top 50, rings): {ours:.1f} s")
        print(f"  ratio vs goal '{GOAL_SECONDS_PER_MILLION:.0f} s for 1,000,000 hands' ({goal:.1f} s for "
              f"{args.hands:,}): {ours / goal:.2f}x  ({'PASS' if ours < goal else 'FAIL'})")
        print(f"  of which rank(50) and rings() over {len(signals.scores()):,} pairs: {scoring:.1f} s")
        print(f"  ratio vs baseline 'reading the rows alone' ({read:.2f} s): {ours / read:.1f}x")
        print(f"  ratio vs baseline 'reading and decoding the rows' ({decode:.2f} s): {ours / decode:.1f}x")
        position = {e.players: n for n, e in enumerate(ranked, start=1)}
        found = [position.get(tuple(sorted(p))) for p in GUILTY + list(combinations(RING, 2))]
        homes = [position.get(tuple(sorted(p))) for p in HOUSEHOLDS]
        print(f"check: planted pairs at ranks {found}; households at "
              f"{homes} (None: below the top 50); flagged pairs (score >= {FLAG_THRESHOLD}): "
              f"{sum(1 for s in signals.scores().values() if s >= FLAG_THRESHOLD)}; rings: "
              f"{[r.players for r in rings]}")


if __name__ == "__main__":
    main()
