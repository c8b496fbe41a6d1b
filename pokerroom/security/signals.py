"""Collusion signals per pair of players, from many hands' facts, ranked for the security team (SEC-3).

Theory of operation
-------------------
:class:`PairSignals` is an accumulator: :meth:`PairSignals.add` takes one
hand's :class:`~pokerroom.security.facts.HandFacts` as it ends (or a stored row
read back), :meth:`PairSignals.add_identities` the IP addresses and device ids
a player connected from. Adding does a few dictionary updates per hand and
nothing per pair of players seated together: a table keeps the same lineup for
many hands, so each hand's sorted lineup is counted once per (stake level,
kind of game, lineup) and only expanded into pairs when scoring. Every count
is kept on small integer player numbers, not names.

:meth:`PairSignals.rank` scores every pair that has anything in common -- a
hand, an identity, chat -- on the nine :data:`SIGNALS`. Each signal compares
what the pair did with what their own habits would lead one to expect (how
often each bets, folds, times out, chats, which stakes they choose), turns the
surprise into a score from 0 to 1 once a minimum sample is reached, and
explains itself in one sentence with the numbers and the hands behind it. The
pair's score is the weighted sum (:data:`WEIGHTS`, 0 to 1). :meth:`rings` joins
pairs at or above :data:`FLAG_THRESHOLD` into groups of three or more.
docs/security.md "Collusion signals" gives every formula.

Scoring is pure arithmetic over the accumulated counts; the shell runs it off
the reactor thread (DESIGN.md, core idea 7).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pokerroom.security.facts import HandFacts

__all__ = [
    "FLAG_THRESHOLD", "HANDS_KEPT", "SIGNALS", "WEIGHTS",
    "PairEntry", "PairSignals", "Ring", "Signal",
]

SIGNALS = ("chip_flow", "soft_play", "co_seating", "shared_identity", "synchronised_sit_outs", "chip_dumping",
           "squeeze", "bounty_targeting", "chat_in_hand")
WEIGHTS = {
    "soft_play": 0.24, "chip_dumping": 0.24, "chip_flow": 0.14, "co_seating": 0.10, "squeeze": 0.08,
    "bounty_targeting": 0.08, "synchronised_sit_outs": 0.06, "shared_identity": 0.03, "chat_in_hand": 0.03,
}
FLAG_THRESHOLD = 0.20       # a pair at or above this is flagged for review and may join a ring
HANDS_KEPT = 20             # hand ids kept per pair and signal, for the reviewer to open

# minimum samples: below them a signal scores 0 whatever it sees
MIN_FLOW_HANDS = 10
MIN_SOFT_DECISIONS = 20
MIN_OTHER_DECISIONS = 20
MIN_STRATUM_DECISIONS = 10
MIN_HANDS_TOGETHER = 50
MIN_EVENTS = 3              # dumps, squeezes, check-downs, sit-outs together
MIN_CHAT = 5
MAX_IDENTITY_HOLDERS = 10   # an address shared by more players than this is a carrier or a café: ignored
SHARED_HANDS_FULL = 20      # shared identity scores in full once the pair played this many hands at one table

DUMP = "10+ big blinds or a third of the stack"
_SHIFT = 21                 # pair keys: (first player << 21) | second; two million player numbers
_MASK = (1 << _SHIFT) - 1
_CASH, _TOURNAMENT, _BOUNTY = 0, 1, 2


def _ramp(x: float, low: float, high: float) -> float:
    """0 at ``low`` or below, 1 at ``high`` or above, linear between."""
    if x <= low:
        return 0.0
    return 1.0 if x >= high else (x - low) / (high - low)


def _z_score(z: float) -> float:
    """A z-like surprise as a 0..1 score: nothing below 2, everything from 6."""
    return _ramp(z, 2.0, 6.0)


def _surprise(observed: float, expected: float) -> float:
    """Observed count against a Poisson expectation, the spread floored at 1 so rare events need repeats."""
    return (observed - expected) / math.sqrt(max(expected, 1.0))


@dataclass(frozen=True, slots=True)
class Signal:
    """One signal for one pair: the measured value, its 0..1 score, why in one sentence, and example hands."""

    value: float
    score: float
    why: str
    hands: tuple[str, ...]

    def to_wire(self) -> dict[str, Any]:
        return {"value": round(self.value, 4), "score": round(self.score, 4), "why": self.why,
                "hands": list(self.hands)}


@dataclass(frozen=True, slots=True)
class PairEntry:
    """A pair of players (sorted), their combined score and each signal, the strongest contribution first."""

    players: tuple[str, str]
    score: float
    signals: dict[str, Signal]

    def leading(self, count: int = 3) -> list[str]:
        """The signals that contribute most to the score (those that contribute at all)."""
        return [name for name, s in self.signals.items() if s.score > 0][:count]

    def to_wire(self) -> dict[str, Any]:
        return {"players": list(self.players), "score": round(self.score, 4),
                "signals": {name: s.to_wire() for name, s in self.signals.items()}}


@dataclass(frozen=True, slots=True)
class Ring:
    """Three or more players joined by flagged pairs; ``score`` is the mean of those pairs' scores."""

    players: tuple[str, ...]
    score: float
    pairs: tuple[tuple[str, str, float], ...]

    def to_wire(self) -> dict[str, Any]:
        return {"players": list(self.players), "score": round(self.score, 4),
                "pairs": [{"players": [a, b], "score": round(s, 4)} for a, b, s in self.pairs]}


def _keep(hands: list[str], hand_id: str) -> None:
    if len(hands) < HANDS_KEPT:
        hands.append(hand_id)


@dataclass(frozen=True, slots=True)
class Tallies:
    """What :class:`PairSignals` has counted, read-only for the scoring pass that expands it."""

    ids: dict
    names: dict
    lineups: dict
    holders: dict
    chat: dict


class PairSignals:
    """Counts from every hand added so far; scores and explanations on demand."""

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}
        self._names: list[str] = []
        self._lineups: dict[tuple[str, int, tuple[str, ...]], list] = {}    # -> [hands, first hand ids]
        self._postflop: dict[int, list[int]] = {}   # player -> [hu decisions, hu aggressive, mw ..., mw ...]
        self._soft: dict[int, list] = {}            # ordered pair -> the same four counts, hand ids
        self._flow: dict[int, list] = {}            # pair -> [net bb first->second, sum of squares, hands, ids]
        self._dumps: dict[int, list] = {}           # ordered (folder, bettor) -> [count, bb, ids]
        self._strong: dict[int, list] = {}          # ordered (folder, bettor) -> [count, bb, ids]
        self._folds: dict[int, int] = {}            # player -> dumps and strong folds to anyone
        self._induced: dict[int, int] = {}          # player -> dumps and strong folds made to their bets
        self._squeezes: dict[int, list] = {}        # pair -> [count, ids]
        self._check_downs: dict[int, list] = {}     # pair -> [count, ids]
        self._both_timed_out: dict[int, list] = {}  # pair -> [count, ids]
        self._timed_out: dict[int, int] = {}        # player -> tournament hands timed out in
        self._chat: dict[int, list] = {}            # ordered (author, player dealt in) -> [count, ids]
        self._identities: dict[str, set[str]] = {}  # player -> identities
        self._holders: dict[str, set[str]] = {}     # identity -> players
        self.hands = 0
        self._version = 0                           # bumped by every add: scores cached per version
        self._totals = [0, 0, 0]                    # squeezes, bounty check-downs, dumps and strong folds
        self._cache: tuple[int, dict[int, float]] | None = None
        self._expanded: tuple[int, _Expansion] | None = None

    # ------------------------------------------------------------------ adding

    def _player(self, name: str) -> int:
        number = self._ids.get(name)
        if number is None:
            number = self._ids[name] = len(self._names)
            self._names.append(name)
        return number

    def add(self, facts: HandFacts) -> None:
        """Count one finished hand."""
        self.hands += 1
        self._version += 1
        hand_id = facts.hand_id
        players = facts.players
        get = self._ids.get
        pids = [get(p) for p in players]
        if None in pids:
            pids = [self._player(p) for p in players]
        kind = _CASH if facts.tournament is None else _BOUNTY if facts.bounty else _TOURNAMENT
        key = (facts.game_key, kind, players)
        lineup = self._lineups.get(key)
        if lineup is None:
            self._lineups[key] = [1, [hand_id]]
        else:
            lineup[0] += 1
            if len(lineup[1]) < HANDS_KEPT:
                lineup[1].append(hand_id)
        bb = facts.big_blind or 1
        flow = self._flow
        for loser, winner, chips in facts.flows:
            a, b = pids[loser], pids[winner]
            x = chips / bb
            k, signed = ((a << _SHIFT) | b, x) if a < b else ((b << _SHIFT) | a, -x)
            f = flow.get(k)
            if f is None:
                flow[k] = [signed, x * x, 1, [hand_id]]
            else:
                f[0] += signed
                f[1] += x * x
                f[2] += 1
                if len(f[3]) < HANDS_KEPT:
                    f[3].append(hand_id)
        if facts.soft:
            post = self._postflop
            for i, counts in enumerate(facts.postflop):
                if counts[0] or counts[2]:
                    p = post.get(pids[i])
                    if p is None:
                        post[pids[i]] = list(counts)
                    else:
                        p[0] += counts[0]
                        p[1] += counts[1]
                        p[2] += counts[2]
                        p[3] += counts[3]
            soft = self._soft
            for a, b, dh, ah, dm, am in facts.soft:
                k = (pids[a] << _SHIFT) | pids[b]
                s = soft.get(k)
                if s is None:
                    soft[k] = [dh, ah, dm, am, [hand_id]]
                else:
                    s[0] += dh
                    s[1] += ah
                    s[2] += dm
                    s[3] += am
                    if len(s[4]) < HANDS_KEPT:
                        s[4].append(hand_id)
        for found, table in ((facts.dumps, self._dumps), (facts.strong_folds, self._strong)):
            for a, b, chips in found:
                folder, bettor = pids[a], pids[b]
                k = (folder << _SHIFT) | bettor
                d = table.get(k)
                if d is None:
                    table[k] = d = [0, 0.0, []]
                d[0] += 1
                d[1] += chips / bb
                _keep(d[2], hand_id)
                self._folds[folder] = self._folds.get(folder, 0) + 1
                self._induced[bettor] = self._induced.get(bettor, 0) + 1
                self._totals[2] += 1
        for a, b in facts.squeezes:
            self._count_pair(self._squeezes, pids[a], pids[b], hand_id)
            self._totals[0] += 1
        for a, b, _ in facts.bounty_check_downs:
            self._count_pair(self._check_downs, pids[a], pids[b], hand_id)
            self._totals[1] += 1
        timed = facts.timed_out
        if timed:
            for i in timed:
                self._timed_out[pids[i]] = self._timed_out.get(pids[i], 0) + 1
            for n, i in enumerate(timed):
                for j in timed[n + 1:]:
                    self._count_pair(self._both_timed_out, pids[i], pids[j], hand_id)
        for author in facts.chatted:
            writer = self._player(author)
            for p in pids:
                if p != writer:
                    k = (writer << _SHIFT) | p
                    c = self._chat.get(k)
                    if c is None:
                        self._chat[k] = [1, [hand_id]]
                    else:
                        c[0] += 1
                        _keep(c[1], hand_id)

    @staticmethod
    def _count_pair(table: dict[int, list], a: int, b: int, hand_id: str) -> None:
        k = (a << _SHIFT) | b if a < b else (b << _SHIFT) | a
        c = table.get(k)
        if c is None:
            table[k] = [1, [hand_id]]
        else:
            c[0] += 1
            _keep(c[1], hand_id)

    def add_identities(self, player: str, identities: Iterable[str]) -> None:
        """IP addresses and device ids ``player`` connected from (SEC-1)."""
        self._player(player)
        mine = self._identities.setdefault(player, set())
        for identity in identities:
            mine.add(identity)
            self._holders.setdefault(identity, set()).add(player)
        self._version += 1

    def shared_identities(self, a: str, b: str) -> dict[str, int]:
        """The identities both ``a`` and ``b`` connected from, each with how many players used it: the one
        computation the shared-identity signal and a pair report's identities panel read. One used by more than
        :data:`MAX_IDENTITY_HOLDERS` players (a carrier's or a café's address) is shared but proves nothing."""
        mine, theirs = self._identities.get(a, set()), self._identities.get(b, set())
        return {identity: len(self._holders[identity]) for identity in sorted(mine & theirs)}

    # ------------------------------------------------------------------ scoring

    def tallies(self) -> Tallies:
        return Tallies(self._ids, self._names, self._lineups, self._holders, self._chat)

    def _expansion(self) -> _Expansion:
        if self._expanded is None or self._expanded[0] != self._version:
            self._expanded = (self._version, _Expansion(self.tallies()))
        return self._expanded[1]

    def _all_scores(self) -> dict[int, float]:
        if self._cache is not None and self._cache[0] == self._version:
            return self._cache[1]
        x = self._expansion()
        candidates = set(x.together)
        candidates.update(x.identity_pairs)
        for k in self._chat:
            a, b = k >> _SHIFT, k & _MASK
            candidates.add((a << _SHIFT) | b if a < b else (b << _SHIFT) | a)
        scores = {}
        evaluate = self._evaluate
        for k in candidates:
            scores[k] = sum(WEIGHTS[name] * score for name, (_, score, _, _) in evaluate(k, x, False).items())
        self._cache = (self._version, scores)
        return scores

    def scores(self) -> dict[tuple[str, str], float]:
        """Every pair (names sorted) with anything in common -- a hand, an identity, chat -- and its score (0..1)."""
        names = self._names
        out = {}
        for k, s in self._all_scores().items():
            a, b = names[k >> _SHIFT], names[k & _MASK]
            out[(a, b) if a < b else (b, a)] = s
        return out

    def rank(self, limit: int | None = 50) -> list[PairEntry]:
        """Pairs by combined score, highest first, each signal explained (``limit`` None: every pair)."""
        scores = self._all_scores()
        names = self._names
        order = sorted(scores, key=lambda k: (-scores[k], names[k >> _SHIFT], names[k & _MASK]))
        if limit is not None:
            order = order[:limit]
        x = self._expansion()
        x.find_examples(order, self.tallies())
        return [self._entry(k, scores[k], x) for k in order]

    def entry(self, a: str, b: str) -> PairEntry:
        """One pair's entry, for a reviewer looking at two given players."""
        if a not in self._ids or b not in self._ids or a == b:
            raise KeyError(f"no pair {a!r}, {b!r}")
        i, j = sorted((self._ids[a], self._ids[b]))
        k = (i << _SHIFT) | j
        x = self._expansion()
        x.find_examples([k], self.tallies())
        score = sum(WEIGHTS[name] * s for name, (_, s, _, _) in self._evaluate(k, x, False).items())
        return self._entry(k, score, x)

    def _entry(self, k: int, score: float, x: _Expansion) -> PairEntry:
        names = self._names
        found = self._evaluate(k, x, True)
        order = sorted(SIGNALS, key=lambda name: (-WEIGHTS[name] * found[name][1], SIGNALS.index(name)))
        signals = {name: Signal(float(found[name][0]), found[name][1], found[name][2], tuple(found[name][3]))
                   for name in order}
        a, b = names[k >> _SHIFT], names[k & _MASK]
        if a > b:
            a, b = b, a
        return PairEntry((a, b), score, signals)

    def rings(self, entries: list[PairEntry] | None = None) -> list[Ring]:
        """Groups of three or more players, each flagged (score >= FLAG_THRESHOLD) with two others at least.

        The flagged pairs form a graph; players with fewer than two flagged
        pairs inside it are dropped until none is left (its 2-core), so one
        chance pair hanging off a guilty one does not pull a stranger into the
        ring. What remains splits into connected groups; a ring's score is the
        mean score of its pairs. ``entries`` None: every pair's score.
        """
        if entries is None:
            names = self._names
            edges = [(names[k >> _SHIFT], names[k & _MASK], s) for k, s in self._all_scores().items()
                     if s >= FLAG_THRESHOLD]
        else:
            edges = [(e.players[0], e.players[1], e.score) for e in entries if e.score >= FLAG_THRESHOLD]
        neighbours: dict[str, set[str]] = {}
        for a, b, _ in edges:
            neighbours.setdefault(a, set()).add(b)
            neighbours.setdefault(b, set()).add(a)
        weak = [p for p, n in neighbours.items() if len(n) < 2]
        while weak:
            p = weak.pop()
            for q in neighbours.pop(p, ()):
                others = neighbours.get(q)
                if others is not None:
                    others.discard(p)
                    if len(others) == 1:
                        weak.append(q)
        group: dict[str, int] = {}
        for start in sorted(neighbours):
            if start in group:
                continue
            stack = [start]
            group[start] = len(group)
            while stack:
                for q in neighbours[stack.pop()]:
                    if q not in group:
                        group[q] = group[start]
                        stack.append(q)
        pairs: dict[int, list[tuple[str, str, float]]] = {}
        for a, b, s in edges:
            if a in neighbours and b in neighbours:
                pairs.setdefault(group[a], []).append((min(a, b), max(a, b), s))
        rings = []
        for found in pairs.values():
            found.sort(key=lambda e: (-e[2], e[0], e[1]))
            players = tuple(sorted({p for a, b, _ in found for p in (a, b)}))
            rings.append(Ring(players, sum(s for _, _, s in found) / len(found), tuple(found)))
        rings.sort(key=lambda r: (-r.score, r.players))
        return rings

    # ------------------------------------------------------------------ the nine signals

    def _evaluate(self, k: int, x: _Expansion, explain: bool) -> dict[str, tuple[float, float, str, list]]:
        a, b = k >> _SHIFT, k & _MASK
        names = (self._names[a], self._names[b]) if explain else ("", "")
        return {
            "chip_flow": self._chip_flow(k, names, explain),
            "soft_play": self._soft_play(a, b, names, explain),
            "co_seating": self._co_seating(k, a, b, x, names, explain),
            "shared_identity": self._shared_identity(k, x, names, explain),
            "synchronised_sit_outs": self._sit_outs(k, a, b, x, names, explain),
            "chip_dumping": self._chip_dumping(a, b, x, names, explain),
            "squeeze": self._rare_pair(k, self._squeezes, self._totals[0], x.together.get(k, 0),
                                       x.pair_hands, names, explain, "squeeze"),
            "bounty_targeting": self._rare_pair(k, self._check_downs, self._totals[1], x.together_bounty.get(k, 0),
                                                x.bounty_pair_hands, names, explain, "bounty"),
            "chat_in_hand": self._chat_in_hand(a, b, x, names, explain),
        }

    def _chip_flow(self, k: int, names: tuple[str, str], explain: bool) -> tuple[float, float, str, list]:
        f = self._flow.get(k)
        if f is None:
            return (0.0, 0.0, "no chips passed between them" if explain else "", [])
        net, squares, hands, ids = f
        z = abs(net) / math.sqrt(squares) if squares else 0.0
        score = _ramp(z, 3.0, 7.0) if hands >= MIN_FLOW_HANDS else 0.0
        if not explain:
            return (abs(net), score, "", ids)
        payer, payee = names if net >= 0 else names[::-1]
        why = (f"{payer} lost a net {abs(net):.1f} bb to {payee} over {hands} hands in which chips passed between "
               f"them (z {z:.1f} against an even exchange")
        why += ")" if hands >= MIN_FLOW_HANDS else f"; fewer than {MIN_FLOW_HANDS} hands prove nothing)"
        return (abs(net), score, why, ids)

    def _soft_direction(self, x: int, y: int) -> tuple[float, int, int, float, float] | None:
        """(z, bets or raises, decisions, expected, rate against others) of x with y in the pot, or None."""
        s = self._soft.get((x << _SHIFT) | y)
        p = self._postflop.get(x)
        if s is None or p is None:
            return None
        dh, ah, dm, am = s[0], s[1], s[2], s[3]
        if dh + dm < MIN_SOFT_DECISIONS:
            return None
        oh, oah, om, oam = p[0] - dh, p[1] - ah, p[2] - dm, p[3] - am
        if oh + om < MIN_OTHER_DECISIONS:
            return None
        pooled = (oah + oam) / (oh + om)
        rate_hu = oah / oh if oh >= MIN_STRATUM_DECISIONS else pooled
        rate_mw = oam / om if om >= MIN_STRATUM_DECISIONS else pooled
        expected = dh * rate_hu + dm * rate_mw
        spread = dh * rate_hu * (1 - rate_hu) + dm * rate_mw * (1 - rate_mw)
        observed = ah + am
        z = (expected - observed) / math.sqrt(spread) if spread > 0 else 0.0
        return (z, observed, dh + dm, expected, pooled)

    def _soft_play(self, a: int, b: int, names: tuple[str, str],
                   explain: bool) -> tuple[float, float, str, list]:
        one, two = self._soft_direction(a, b), self._soft_direction(b, a)
        best = max((d for d in (one, two) if d is not None), key=lambda d: d[0], default=None)
        score = _z_score(best[0]) if best is not None else 0.0
        value = best[3] - best[1] if best is not None else 0.0
        ids = (self._soft.get((a << _SHIFT) | b) or self._soft.get((b << _SHIFT) | a) or [0, 0, 0, 0, []])[4]
        if not explain:
            return (value, score, "", ids)
        parts = []
        for (x, y), d in (((names[0], names[1]), one), ((names[1], names[0]), two)):
            if d is not None:
                parts.append(f"{x} bet or raised {d[1]} of {d[2]} times with {y} in the pot, {d[4]:.0%} against "
                             f"others ({d[3]:.1f} expected, z {d[0]:.1f})")
        if not parts:
            return (0.0, 0.0, f"fewer than {MIN_SOFT_DECISIONS} decisions after the flop with the other in the pot "
                              f"(or {MIN_OTHER_DECISIONS} against others) prove nothing", ids)
        return (value, score, "; ".join(parts), ids)

    def _co_seating(self, k: int, a: int, b: int, x: _Expansion, names: tuple[str, str],
                    explain: bool) -> tuple[float, float, str, list]:
        together = x.together.get(k, 0)
        if not together:
            return (0.0, 0.0, "never played a hand together" if explain else "", [])
        games_a, games_b = x.games.get(a, {}), x.games.get(b, {})
        if len(games_b) < len(games_a):
            games_a, games_b = games_b, games_a
        expected = 0.0
        for game, n in games_a.items():
            m = games_b.get(game)
            if m:
                seat_hands, hands = x.seat_hands[game]
                expected += n * m * (seat_hands / hands - 1) / seat_hands
        lift = together / expected if expected else 0.0
        fewer = min(x.hands.get(a, 0), x.hands.get(b, 0))
        share = together / fewer if fewer else 0.0
        score = min(_ramp(lift, 2.0, 5.0), _ramp(share, 0.0, 0.5)) if together >= MIN_HANDS_TOGETHER else 0.0
        if not explain:
            return (lift, score, "", [])
        rarer = names[0] if x.hands.get(a, 0) <= x.hands.get(b, 0) else names[1]
        why = (f"played {together} hands together, {share:.0%} of {rarer}'s hands; their choice of stakes explains "
               f"{expected:.1f} (lift {lift:.1f}x)")
        if together < MIN_HANDS_TOGETHER:
            why += f"; fewer than {MIN_HANDS_TOGETHER} hands prove nothing"
        return (lift, score, why, x.example_hands(k, self.tallies()))

    def _shared_identity(self, k: int, x: _Expansion, names: tuple[str, str],
                         explain: bool) -> tuple[float, float, str, list]:
        shared = x.identity_pairs.get(k)
        if not shared:
            if not explain:
                return (0.0, 0.0, "", [])
            common = self.shared_identities(*names)
            if not common:
                return (0.0, 0.0, "no IP address or device in common", [])
            what = ", ".join(f"{identity} ({holders} players)" for identity, holders in list(common.items())[:3])
            more = f" and {len(common) - 3} more" if len(common) > 3 else ""
            return (0.0, 0.0, f"connected from {what}{more}: used by more than {MAX_IDENTITY_HOLDERS} players, an "
                              "address like that (a carrier's, a café's) proves nothing", [])
        together = x.together.get(k, 0)
        score = _ramp(together, 0, SHARED_HANDS_FULL) if together else 0.0
        if not explain:
            return (float(together), score, "", [])
        what = ", ".join(sorted(shared)[:3]) + (f" and {len(shared) - 3} more" if len(shared) > 3 else "")
        if together:
            why = f"connected from {what} and played {together} hands at one table"
        else:
            why = f"connected from {what} but never played a hand at one table"
        return (float(together), score, why, x.example_hands(k, self.tallies()))

    def _sit_outs(self, k: int, a: int, b: int, x: _Expansion, names: tuple[str, str],
                  explain: bool) -> tuple[float, float, str, list]:
        both = self._both_timed_out.get(k)
        if both is None:
            return (0.0, 0.0, "never timed out in the same tournament hand" if explain else "", [])
        count, ids = both
        together = x.together_tournament.get(k, 0)
        rate_a = self._timed_out.get(a, 0) / max(x.tournament_hands.get(a, 0), 1)
        rate_b = self._timed_out.get(b, 0) / max(x.tournament_hands.get(b, 0), 1)
        expected = together * rate_a * rate_b
        z = _surprise(count, expected)
        score = _z_score(z) if count >= MIN_EVENTS else 0.0
        if not explain:
            return (float(count), score, "", ids)
        why = (f"both were timed out in {count} of {together} tournament hands together; {expected:.1f} expected "
               f"from how often each times out ({names[0]} {rate_a:.0%}, {names[1]} {rate_b:.0%})")
        if count < MIN_EVENTS:
            why += f"; fewer than {MIN_EVENTS} prove nothing"
        return (float(count), score, why, ids)

    def _chip_dumping(self, a: int, b: int, x: _Expansion, names: tuple[str, str],
                      explain: bool) -> tuple[float, float, str, list]:
        observed, expected, parts, ids = 0, 0.0, [], []
        for folder, bettor, who in ((a, b, names), (b, a, names[::-1])):
            k = (folder << _SHIFT) | bettor
            dumps, strong = self._dumps.get(k), self._strong.get(k)
            n_dumps, n_strong = (dumps[0] if dumps else 0), (strong[0] if strong else 0)
            observed += n_dumps + n_strong
            together = x.together.get((min(a, b) << _SHIFT) | max(a, b), 0)
            folder_others = x.opponent_hands.get(folder, 0) - together    # opponent-hands against everyone else
            bettor_others = x.opponent_hands.get(bettor, 0) - together
            if folder_others > 0 and bettor_others > 0 and self._totals[2]:
                folds = max(self._folds.get(folder, 0) - n_dumps - n_strong, 0) / folder_others
                induced = max(self._induced.get(bettor, 0) - n_dumps - n_strong, 0) / bettor_others
                expected += together * folds * induced / (self._totals[2] / x.opponent_hands_total)
            for found in (dumps, strong):
                for h in found[2] if found else ():
                    if h not in ids:
                        ids.append(h)
            if explain and (n_dumps or n_strong):
                bb = (dumps[1] if dumps else 0.0) + (strong[1] if strong else 0.0)
                parts.append(f"{who[0]} folded to {who[1]}'s bet or raise {n_dumps} times after putting in "
                             f"{DUMP} and {n_strong} times holding a strong hand ({bb:.1f} bb given up)")
        z = _surprise(observed, expected)
        score = _z_score(z) if observed >= MIN_EVENTS else 0.0
        ids = ids[:HANDS_KEPT]
        if not explain:
            return (float(observed), score, "", ids)
        if not parts:
            return (0.0, 0.0, "neither folded a big investment or a strong hand to the other's bet", ids)
        why = "; ".join(parts) + (f"; {expected:.1f} expected from how often each folds like that, and makes others "
                                  f"fold like that, against everyone else")
        if observed < MIN_EVENTS:
            why += f"; fewer than {MIN_EVENTS} prove nothing"
        return (float(observed), score, why, ids)

    def _rare_pair(self, k: int, table: dict[int, list], total: int, together: int, pair_hands: int,
                   names: tuple[str, str], explain: bool, what: str) -> tuple[float, float, str, list]:
        found = table.get(k)
        if found is None:
            if not explain:
                return (0.0, 0.0, "", [])
            return (0.0, 0.0, "never raised each other in turn around a caller" if what == "squeeze"
                    else "never checked it down together after a third player's all-in in a bounty tournament", [])
        count, ids = found
        expected = together * total / pair_hands if pair_hands else 0.0
        z = _surprise(count, expected)
        score = _z_score(z) if count >= MIN_EVENTS else 0.0
        if not explain:
            return (float(count), score, "", ids)
        if what == "squeeze":
            why = (f"raised each other in turn with a caller caught between them in {count} of {together} hands "
                   f"together; {expected:.1f} expected at the room's rate")
        else:
            why = (f"checked it down to the showdown after a third player's all-in in {count} of {together} bounty "
                   f"tournament hands together; {expected:.1f} expected at the room's rate")
        if count < MIN_EVENTS:
            why += f"; fewer than {MIN_EVENTS} prove nothing"
        return (float(count), score, why, ids)

    def _chat_in_hand(self, a: int, b: int, x: _Expansion, names: tuple[str, str],
                      explain: bool) -> tuple[float, float, str, list]:
        one, two = self._chat.get((a << _SHIFT) | b), self._chat.get((b << _SHIFT) | a)
        if one is None and two is None:
            return (0.0, 0.0, "never chatted during a hand the other played" if explain else "", [])
        observed = (one[0] if one else 0) + (two[0] if two else 0)
        expected = sum(x.chat_spread.get(p, 0.0) for p, c in ((a, one), (b, two)) if c)
        z = _surprise(observed, expected)
        score = _z_score(z) if observed >= MIN_CHAT else 0.0
        ids = ((one[1] if one else []) + (two[1] if two else []))[:HANDS_KEPT]
        if not explain:
            return (float(observed), score, "", ids)
        (x, y, more), (_, _, fewer) = sorted(((names[0], names[1], one[0] if one else 0),
                                              (names[1], names[0], two[0] if two else 0)), key=lambda d: -d[2])
        why = (f"{x} chatted during {more} hands {y} played ({y} during {fewer} of {x}'s); {expected:.1f} expected "
               f"from how each spreads their chat over the players at their tables")
        if observed < MIN_CHAT:
            why += f"; fewer than {MIN_CHAT} prove nothing"
        return (float(observed), score, why, ids)



class _Expansion:
    """The lineup counts expanded into pairs and players, once per scoring (not per hand)."""

    def __init__(self, signals: Tallies) -> None:
        ids = signals.ids
        together: dict[int, int] = {}
        together_tournament: dict[int, int] = {}
        together_bounty: dict[int, int] = {}
        hands: dict[int, int] = {}
        tournament_hands: dict[int, int] = {}
        opponent_hands: dict[int, int] = {}
        games: dict[int, dict[str, int]] = {}
        seat_hands: dict[str, list[int]] = {}
        pair_hands = bounty_pair_hands = 0
        for (game, kind, players), (count, _) in signals.lineups.items():
            pids = sorted(ids[p] for p in players)
            n = len(pids)
            sh = seat_hands.get(game)
            if sh is None:
                seat_hands[game] = [n * count, count]
            else:
                sh[0] += n * count
                sh[1] += count
            pairs = n * (n - 1) // 2 * count
            pair_hands += pairs
            for p in pids:
                hands[p] = hands.get(p, 0) + count
                opponent_hands[p] = opponent_hands.get(p, 0) + (n - 1) * count
                g = games.get(p)
                if g is None:
                    games[p] = {game: count}
                else:
                    g[game] = g.get(game, 0) + count
            for i in range(n - 1):
                high = pids[i] << _SHIFT
                for q in pids[i + 1:]:
                    k = high | q
                    together[k] = together.get(k, 0) + count
            if kind != _CASH:
                for p in pids:
                    tournament_hands[p] = tournament_hands.get(p, 0) + count
                for i in range(n - 1):
                    high = pids[i] << _SHIFT
                    for q in pids[i + 1:]:
                        k = high | q
                        together_tournament[k] = together_tournament.get(k, 0) + count
                        if kind == _BOUNTY:
                            together_bounty[k] = together_bounty.get(k, 0) + count
                if kind == _BOUNTY:
                    bounty_pair_hands += pairs
        self.together, self.together_tournament, self.together_bounty = together, together_tournament, together_bounty
        self.hands, self.tournament_hands, self.opponent_hands = hands, tournament_hands, opponent_hands
        self.games, self.seat_hands = games, {g: (s, h) for g, (s, h) in seat_hands.items()}
        self.pair_hands, self.bounty_pair_hands = pair_hands, bounty_pair_hands
        self.opponent_hands_total = 2 * pair_hands
        # identities: pairs of players sharing one, ignoring addresses too many players share
        identity_pairs: dict[int, set[str]] = {}
        for identity, holders in signals.holders.items():
            if 2 <= len(holders) <= MAX_IDENTITY_HOLDERS:
                pids = sorted(ids[p] for p in holders)
                for i, p in enumerate(pids):
                    for q in pids[i + 1:]:
                        identity_pairs.setdefault((p << _SHIFT) | q, set()).add(identity)
        self.identity_pairs = identity_pairs
        # chat: each author's records spread evenly over the players they chatted with
        records: dict[int, list[int]] = {}
        for k, (count, _) in signals.chat.items():
            r = records.setdefault(k >> _SHIFT, [0, 0])
            r[0] += count
            r[1] += 1
        self.chat_spread = {author: count / partners for author, (count, partners) in records.items()}

        self.examples: dict[int, list[str]] = {}

    def find_examples(self, keys: Iterable[int], signals: Tallies) -> None:
        """Up to HANDS_KEPT hand ids each pair of ``keys`` played together, in one pass over the lineups."""
        names = signals.names
        wanted: dict[str, list[tuple[str, int]]] = {}
        for k in keys:
            if k not in self.examples:
                self.examples[k] = []
                a, b = names[k >> _SHIFT], names[k & _MASK]
                wanted.setdefault(a, []).append((b, k))
        if not wanted:
            return
        examples = self.examples
        for (_, _, players), (_, ids) in signals.lineups.items():
            for p in players:
                for other, k in wanted.get(p, ()):
                    out = examples[k]
                    if len(out) < HANDS_KEPT and other in players:
                        out.extend(ids[:HANDS_KEPT - len(out)])

    def example_hands(self, k: int, signals: Tallies) -> list[str]:
        """Hand ids the pair played together (found by :meth:`find_examples`)."""
        if k not in self.examples:
            self.find_examples([k], signals)
        return self.examples[k]
