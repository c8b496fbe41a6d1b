"""Independent Chip Model (Malmuth–Harville) equities, for deals (TR-DEAL-2).

The model: a player's chance to finish first is their share of the chips;
given who finished ahead of them, the chance to finish next is their share of
the chips still in play. A player's equity is the sum over places of the
chance to finish there times that place's prize.

:func:`equities` is exact. It walks the sets of players who could fill the
paid places ahead of the others (not the orderings): the chance that a given
set finished first, in any order, is one number, so 10 players with 10 prizes
take 1,023 sets instead of 3,628,800 orderings. With ``exact=True`` the
arithmetic is in fractions, which the tests compare with enumeration of every
finishing order.

For fields where the sets are too many (a deal among hundreds), :func:`sampled_equities`
draws finishing orders from the same model: it is the order in which
independent exponential clocks with rates proportional to the stacks ring.
Each equity comes with its standard error.

:func:`integral_equities` prices the same clocks without sampling. Player i
finishes k-th if, when their clock rings at time t, exactly k - 1 others have
rung: so their chance is the integral over t of s_i e^(-s_i t) times the
coefficient of x^(k-1) in the product over the others of (b_j + a_j x), with
a_j = 1 - e^(-s_j t) and b_j = e^(-s_j t). Only the first m coefficients
matter (m paid places). The product over everyone is built once per time and
each player's factor divided out again, from the side on which division does
not amplify rounding; Gauss–Legendre panels are laid out in standard
deviations of the number of clocks rung, the scale on which the integrand
changes. What is left is rounding: against exact fractions on small fields
(stacks of 1 against 10^6, and of 10^-3 against 10^6, included) every equity
is within 1e-15 of the prize pool and within 1e-11 of itself; against an
exact recursion for fields of two stack sizes, 2e-14 up to 10,000 players.

Which to use: :func:`equities` for a deal at a final table (exact, in
fractions for money); :func:`integral_equities` for fields of hundreds to tens
of thousands (1,000 players with 150 prizes in about 0.1 s, 10,000 with 1,500
in about 0.4 s); :func:`sampled_equities` as an independent check of the
model, with error bars.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations
from math import comb

import numpy as np

EXACT_LIMIT = 2_000_000        # sets of finishers the exact method walks before it refuses
_SERIES = 56                   # terms of a series in a ratio of at most 1/2 kept: 2^-56 is below double rounding
_TAIL = 69.0                   # ln 10^30: numbers of clocks rung less likely than e^-69 are left out
_SPAN = 8.0                    # width of a quadrature panel, in standard deviations of the number of clocks rung
_PER_EFOLD = 2.0               # standard deviations counted per e-fold of time, for the long waits of short stacks
_CELLS = 1 << 17               # times x players worked on at once, to stay in cache


class ICMError(ValueError):
    """Stacks or prizes the model cannot price."""


def _check(stacks: Sequence[int | float | Fraction], payouts: Sequence[int | float | Fraction]) -> None:
    if not stacks:
        raise ICMError("there are no stacks to price")
    if any(s < 0 for s in stacks) or not any(s > 0 for s in stacks):
        raise ICMError("stacks must be zero or more, and some chips must be in play")
    if any(p < 0 for p in payouts):
        raise ICMError("prizes must be zero or more")


def sets_walked(players: int, paid: int) -> int:
    """How many sets of finishers :func:`equities` walks for this many players and paid places."""
    return sum(comb(players, k) for k in range(min(paid, players)))


def equities(stacks: Sequence[int | float | Fraction], payouts: Sequence[int | float | Fraction], *,
             exact: bool = False) -> list:
    """Each player's expected prize under Malmuth–Harville: floats, or Fractions with ``exact=True``.

    ``payouts[k]`` is the prize for place ``k + 1``; places beyond the list pay
    nothing, prizes beyond the number of players are never reached. A player
    with no chips finishes below everyone with chips (and players with none
    share the places left equally, as the model gives them no order).
    """
    _check(stacks, payouts)
    n = len(stacks)
    if sum(1 for s in stacks if s > 0) < n:
        return _with_busted(stacks, payouts, exact)
    paid = min(len(payouts), n)
    if sets_walked(n, paid) > EXACT_LIMIT:
        raise ICMError(f"{n} players with {paid} paid places are too many to price exactly; "
                       "use sampled_equities")
    number = Fraction if exact else float
    chips = [number(s) for s in stacks]
    prizes = [number(p) for p in payouts[:paid]]
    zero = number(0)
    result = [zero] * n
    if paid == 0:
        return result
    total = sum(chips, zero)
    chance = {0: number(1)}                # set of finishers (bit mask) -> chance they took the top places
    left = {0: total}                      # set -> chips of the players not in it
    for k in range(paid):                  # the sets of k finishers, each extended by the player next
        prize = prizes[k]
        grown: dict[int, object] = {}
        grown_left: dict[int, object] = {}
        for finished, p in chance.items():
            rest = left[finished]
            for i in range(n):
                bit = 1 << i
                if finished & bit:
                    continue
                q = p * chips[i] / rest
                result[i] += q * prize
                if k + 1 < paid:
                    key = finished | bit
                    if key in grown:
                        grown[key] += q
                    else:
                        grown[key] = q
                        grown_left[key] = rest - chips[i]
        chance, left = grown, grown_left
    return result


def enumerated_equities(stacks: Sequence[int], payouts: Sequence[int], *, exact: bool = False) -> list:
    """The model by brute force, over every finishing order: the reference :func:`equities` is checked against."""
    number = Fraction if exact else float
    result = [number(0)] * len(stacks)
    for order in permutations(range(len(stacks))):
        chance, left = number(1), number(sum(stacks))
        for player in order:
            chance *= number(stacks[player]) / left
            left -= stacks[player]
        for place, player in enumerate(order[:len(payouts)]):
            result[player] += chance * payouts[place]
    return result


def _with_busted(stacks: Sequence, payouts: Sequence, exact: bool, price=None) -> list:
    """Players without chips take the lowest places among them, shared equally; ``price`` prices the rest."""
    alive = [i for i, s in enumerate(stacks) if s > 0]
    out = [i for i, s in enumerate(stacks) if s <= 0]
    number = Fraction if exact else float
    if price is None:
        top = equities([stacks[i] for i in alive], payouts[:len(alive)], exact=exact)
    else:
        top = price([stacks[i] for i in alive], payouts[:len(alive)])
    rest = [number(p) for p in payouts[len(alive):len(alive) + len(out)]]
    share = sum(rest, number(0)) / len(out)
    result = [number(0)] * len(stacks)
    for i, value in zip(alive, top, strict=True):
        result[i] = value
    for i in out:
        result[i] = share
    return result


@dataclass(frozen=True)
class Estimate:
    equities: list[float]
    standard_errors: list[float]
    samples: int


def sampled_equities(stacks: Sequence[int | float], payouts: Sequence[int | float], *, samples: int = 20_000,
                     seed: int = 0, chunk: int = 2_000) -> Estimate:
    """Malmuth–Harville equities for any field, by sampling finishing orders; with each one's standard error.

    Player ``i``'s clock rings after an exponential time of rate ``stacks[i]``;
    the first to ring finishes first, and, clocks having no memory, the next
    among the rest finishes next with chance proportional to their stack:
    exactly the model's finishing order.
    """
    _check(stacks, payouts)
    rates = np.asarray(stacks, dtype=float)
    n = len(rates)
    paid = min(len(payouts), n)
    prizes = np.asarray(payouts[:paid], dtype=float)
    rng = np.random.default_rng(seed)
    total = np.zeros(n)
    squares = np.zeros(n)
    alive = rates > 0
    done = 0
    while done < samples:
        m = min(chunk, samples - done)
        times = np.full((m, n), np.inf)
        times[:, alive] = rng.exponential(size=(m, int(alive.sum()))) / rates[alive]
        won = np.zeros((m, n))
        if paid:
            if paid < n:
                first = np.argpartition(times, paid - 1, axis=1)[:, :paid]
            else:
                first = np.tile(np.arange(n), (m, 1))
            order = np.take_along_axis(first, np.argsort(np.take_along_axis(times, first, axis=1), axis=1), axis=1)
            np.put_along_axis(won, order, np.broadcast_to(prizes, order.shape), axis=1)
        total += won.sum(axis=0)
        squares += (won * won).sum(axis=0)
        done += m
    mean = total / samples
    variance = np.maximum(squares / samples - mean * mean, 0.0)
    return Estimate(mean.tolist(), np.sqrt(variance / samples).tolist(), samples)


def integral_equities(stacks: Sequence[int | float | Fraction], payouts: Sequence[int | float | Fraction], *,
                      nodes: int = 24) -> list[float]:
    """Malmuth–Harville equities for fields of thousands, exact but for quadrature and rounding error.

    ``nodes`` is the number of Gauss–Legendre points per panel (each panel
    eight standard deviations of the number of clocks rung wide); the default
    leaves only rounding error, 16 about 1e-10 of the pool. Conventions as
    :func:`equities`. The work grows with players times paid places (and
    their spread): when nearly everyone is paid it takes seconds (2,000 of
    2,000 paid: about 3 s).
    """
    _check(stacks, payouts)
    if isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 2:
        raise ICMError("nodes must be a whole number, 2 or more")
    if any(s <= 0 for s in stacks):
        return _with_busted(stacks, payouts, False, lambda alive, prizes: integral_equities(alive, prizes, nodes=nodes))
    n = len(stacks)
    paid = min(len(payouts), n)
    prizes = np.array([float(p) for p in payouts[:paid]])
    if paid == 0 or n == 1:
        return [float(prizes.sum())] if n == 1 else [0.0] * n
    chips = np.array([float(s) for s in stacks])
    order = np.argsort(chips, kind="stable")
    rates = chips[order] / chips.max()
    rates /= rates.mean()                   # a clock of rate 1 for the average stack; sorted, slowest first
    times, weights = _panels(rates, paid, nodes)
    result = np.empty(n)
    result[order] = weights @ _density(rates, prizes, times)
    return result.tolist()


def _clocks(rates: np.ndarray, times: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rate times time, the chance each clock has rung (a) and has not (b), times in rows and players in columns."""
    st = np.multiply.outer(times, rates)
    return st, -np.expm1(-st), np.exp(-st)


def _moments(rates: np.ndarray, times: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean and variance of the number of clocks rung by each time, and how fast the mean grows."""
    mean, var, growth = np.empty(len(times)), np.empty(len(times)), np.empty(len(times))
    step = max(1, _CELLS // len(rates))
    for i in range(0, len(times), step):
        _, a, b = _clocks(rates, times[i:i + step])
        mean[i:i + step] = a.sum(1)
        var[i:i + step] = (a * b).sum(1)
        growth[i:i + step] = b @ rates
    return mean, var, growth


def _spread(var: np.ndarray) -> np.ndarray:
    """How far the number of clocks rung gets from its mean with chance e^-69 or more (Bernstein's inequality)."""
    return _TAIL / 3 + np.sqrt(_TAIL ** 2 / 9 + 2 * _TAIL * var)


def _sds_per_efold(rates: np.ndarray, times: np.ndarray) -> np.ndarray:
    """Standard deviations of the number of clocks rung that its mean moves per e-fold of time, plus _PER_EFOLD."""
    _, var, growth = _moments(rates, times)
    return times * growth / np.sqrt(var) + _PER_EFOLD


def _panels(rates: np.ndarray, paid: int, nodes: int) -> tuple[np.ndarray, np.ndarray]:
    """Quadrature times and weights, Gauss–Legendre on panels of about _SPAN standard deviations.

    The integrand changes as the number of clocks rung moves by a standard
    deviation, so panel edges are placed on a table of times, refined until no
    step is wider than half a panel. Within a panel, time is a smooth function
    of the Gauss point: quadratic from 0 in the first (where the mean grows
    like t and the deviation like its root), geometric after.
    """
    last = _TAIL / rates[0]                              # even the slowest clock has rung, but for e^-69
    probe = np.geomspace(1e-3 / rates.sum(), last, 256)
    mean, var, _ = _moments(rates, probe)
    over = mean - _spread(var) > paid                    # the paid places are all taken, but for e^-69
    end = probe[np.argmax(over)] if over.any() else last
    start = min(_SPAN ** 2 / (16 * rates.sum()), 0.1 / rates[-1], end / 2)
    log_t = np.linspace(np.log(start), np.log(end), 65)
    sds = _sds_per_efold(rates, np.exp(log_t))
    for _ in range(60):
        steps = (sds[1:] + sds[:-1]) / 2 * np.diff(log_t)
        wide = steps > _SPAN / 2
        if not wide.any():
            break
        halves = (log_t[:-1] + log_t[1:])[wide] / 2
        log_t = np.concatenate([log_t, halves])
        sds = np.concatenate([sds, _sds_per_efold(rates, np.exp(halves))])
        ordered = np.argsort(log_t)
        log_t, sds = log_t[ordered], sds[ordered]
    steps = (sds[1:] + sds[:-1]) / 2 * np.diff(log_t)
    edges, width = [log_t[0]], 0.0
    for i, step in enumerate(steps):
        if width + step > _SPAN:
            edges.append(log_t[i])
            width = 0.0
        width += step
    edges.append(log_t[-1])
    x, w = np.polynomial.legendre.leggauss(nodes)
    y = (1 + x) / 2
    half = np.diff(edges) / 2
    later = np.exp(np.array(edges[:-1])[:, None] + 2 * half[:, None] * y)
    times = np.concatenate([start * y * y, later.ravel()])
    weights = np.concatenate([start * y * w, (later * half[:, None] * w).ravel()])
    return times, weights


def _density(rates: np.ndarray, prizes: np.ndarray, times: np.ndarray) -> np.ndarray:
    """Each player's density of expected prize at each time (rows): their clock's density times the prize of
    the place they take if it rings then, the expectation over how many others have rung.

    The product over all players of (b_j + a_j x), truncated after the paid
    places and the count's upper tail, has one part for the clocks that have
    probably not rung (a/b at most 1/2): the exponential of its logarithm's
    series, which needs 56 power sums of the players rather than a pass over
    the coefficients for each; the other factors are multiplied in directly.
    """
    count, players, paid = len(times), len(rates), len(prizes)
    density = np.zeros((count, players))
    mean, var, _ = _moments(rates, times)
    spread = _spread(var)
    top = np.minimum(players, np.ceil(mean + spread)).astype(int)
    bottom = np.maximum(0, np.floor(mean - spread)).astype(int)
    live = np.flatnonzero(bottom <= paid)                # elsewhere every place paid is taken, but for e^-69
    if not len(live):
        return density
    size = max(int(top[live].max()), paid) + 1
    step = max(1, _CELLS // players)
    sums, logs = np.zeros((len(live), _SERIES)), np.zeros(len(live))
    for i in range(0, len(live), step):
        sums[i:i + step], logs[i:i + step] = _power_sums(rates, times[live[i:i + step]])
    product = _exp_series(sums, size, logs)
    for i in range(0, len(live), step):
        rows = live[i:i + step]
        density[rows] = _divide(rates, prizes, times[rows], product[i:i + step], top[rows], bottom[rows])
    return density


def _power_sums(rates: np.ndarray, times: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Power sums of r = a/b over the clocks with r <= 1/2, and the log of the product of their b."""
    st, _, _ = _clocks(rates, times)
    low = st <= np.log(1.5)
    r = np.expm1(np.where(low, st, 0.0))
    sums = np.zeros((len(times), _SERIES))
    power = np.ones_like(r)
    for k in range(_terms(r.max())):
        power *= r
        sums[:, k] = power.sum(1)
    return sums, -(st * low).sum(1)


def _terms(ratio: float) -> int:
    """Terms of a series in powers of ``ratio`` (at most 1/2) until they fall below double rounding."""
    if ratio <= 0:
        return 1
    return max(1, min(_SERIES, int(np.ceil(_SERIES * np.log(2) / -np.log(ratio)))))


def _exp_series(sums: np.ndarray, size: int, logs: np.ndarray) -> np.ndarray:
    """Coefficients 0..size-1 of prod (b + a x) = prod b exp(sum_k (-1)^(k+1) p_k x^k / k), per row.

    The recurrence n c_n = sum_k (-1)^(k+1) p_k c_(n-k) grows like the
    coefficients divided by prod b; rows are rescaled as they grow.
    """
    signed = sums.copy()
    signed[:, 1::2] *= -1
    terms = int(np.max(np.flatnonzero(signed.any(0)), initial=0)) + 1
    coefficients = np.zeros((len(sums), size))
    coefficients[:, 0] = 1.0
    scale = logs.copy()
    for n in range(1, size):
        k = min(n, terms)
        coefficients[:, n] = np.einsum("ij,ij->i", signed[:, :k], coefficients[:, n - 1::-1][:, :k]) / n
        big = coefficients[:, n] > 1e250
        if big.any():
            coefficients[big, :n + 1] *= 1e-250
            scale[big] += 250 * np.log(10)
    with np.errstate(divide="ignore"):
        return np.exp(np.log(np.maximum(coefficients, 0.0)) + scale[:, None])


def _divide(rates: np.ndarray, prizes: np.ndarray, times: np.ndarray, product: np.ndarray, top: np.ndarray,
            bottom: np.ndarray) -> np.ndarray:
    """The rest of the product, then each player's factor divided out and the quotient summed against the prizes.

    Dividing P by (b + a x) from the bottom, Q_k = (P_k - a Q_(k-1)) / b,
    multiplies rounding errors by a/b a step; from the top,
    Q_(k-1) = (P_k - b Q_k) / a, by b/a. With the ratio at most 1/2 the
    division is a short series, sum_d (-a/b)^d (or (-b/a)^d) times a sum of
    coefficients against prizes shared by all players; between 1/2 and 2 it
    is done step by step, in the direction that does not grow the error.
    """
    paid = len(prizes)
    size = int(top.max()) + 1
    if size <= paid:
        size = paid + 1
    product = product[:, :size].copy()
    st, a, b = _clocks(rates, times)
    low = st <= np.log(1.5)
    _multiply_rest(product, a, b, low, bottom, top)
    with np.errstate(divide="ignore", over="ignore"):
        log_ratio = np.log(np.expm1(st))                 # ln a/b
    forward = log_ratio <= (np.log(16.0) / (paid - 1) if paid > 1 else np.inf)   # error grows at most 16-fold
    short = forward & ((log_ratio <= -np.log(2)) | (paid <= _SERIES))
    backward = ~short & (st >= np.log(3.0))
    result = np.zeros_like(st)
    if short.any():
        ratio = np.exp(np.where(short, log_ratio, -np.inf))
        terms = paid if paid <= _SERIES else _terms(ratio.max())
        against = np.stack([product[:, :paid - d] @ prizes[d:] for d in range(terms)], 1)
        result += np.where(short, _series(-ratio, against), 0.0)
    if backward.any():
        ratio = np.where(backward, b / np.where(backward, a, 1.0), 0.0)
        terms = min(size, _terms(ratio.max()))
        padded = np.concatenate([product, np.zeros((len(times), terms + paid))], 1)
        against = np.stack([padded[:, d + 1:d + 1 + paid] @ prizes for d in range(terms)], 1)
        result += np.where(backward, ratio * _series(-ratio, against), 0.0)
    between = ~short & ~backward
    if between.any():
        result += _step_by_step(product, prizes, a, b, between, forward, int(bottom.min()), int(top.max()))
    return result * rates


def _series(x: np.ndarray, coefficients: np.ndarray) -> np.ndarray:
    """sum_d x^d coefficients[:, d], per row."""
    total = np.zeros_like(x)
    power = np.ones_like(x)
    for d in range(coefficients.shape[1]):
        total += power * coefficients[:, d:d + 1]
        power *= x
    return total


def _multiply_rest(product: np.ndarray, a: np.ndarray, b: np.ndarray, low: np.ndarray, bottom: np.ndarray,
                   top: np.ndarray) -> None:
    """Multiply in the factors left out of the series, only over the coefficients that can matter yet."""
    rest = np.flatnonzero((~low).any(0))
    if not len(rest):
        return
    a_rest = np.where(low[:, rest], 0.0, a[:, rest])
    b_rest = np.where(low[:, rest], 1.0, b[:, rest])
    mean = np.where(low, a, 0.0).sum(1)[:, None] + np.cumsum(a_rest, 1)
    var = np.where(low, a * b, 0.0).sum(1)[:, None] + np.cumsum(a_rest * b_rest, 1)
    spread = _spread(var)
    lows = np.maximum(0, np.floor((mean - spread).min(0))).astype(int)
    highs = np.minimum(product.shape[1] - 1, np.ceil((mean + spread).max(0))).astype(int)
    done = 0
    for j in range(len(rest)):
        lo, hi = lows[j], highs[j]
        if lo > done:
            product[:, done:lo] = 0.0
            done = lo
        if hi < lo:
            continue
        aj, bj = a_rest[:, j:j + 1], b_rest[:, j:j + 1]
        first = max(lo, 1)
        moved = product[:, first - 1:hi] * aj
        product[:, lo:hi + 1] *= bj
        product[:, first:hi + 1] += moved


def _step_by_step(product: np.ndarray, prizes: np.ndarray, a: np.ndarray, b: np.ndarray, which: np.ndarray,
                  forward: np.ndarray, bottom: int, top: int) -> np.ndarray:
    """Division by (b + a x) one coefficient at a time, for the players with a/b between 1/2 and 2."""
    paid = len(prizes)
    up = which & (forward | (a <= b))
    result = np.zeros(which.shape)
    columns = np.flatnonzero(up.any(0))
    if len(columns):
        chosen = up[:, columns]
        a_up = np.where(chosen, a[:, columns], 0.0)
        b_up = np.where(chosen, b[:, columns], 1.0)
        quotient, total = np.zeros(chosen.shape), np.zeros(chosen.shape)
        for k in range(bottom, min(paid, top + 1)):
            quotient = (product[:, k:k + 1] - a_up * quotient) / b_up
            total += prizes[k] * quotient
        result[:, columns] += np.where(chosen, total * b_up, 0.0)
    down = which & ~up
    columns = np.flatnonzero(down.any(0))
    if len(columns):
        chosen = down[:, columns]
        a_down = np.where(chosen, a[:, columns], 1.0)
        b_down = np.where(chosen, b[:, columns], 0.0)
        quotient, total = np.zeros(chosen.shape), np.zeros(chosen.shape)
        for k in range(min(top + 1, product.shape[1] - 1), max(bottom, 1) - 1, -1):
            quotient = (product[:, k:k + 1] - b_down * quotient) / a_down
            if k - 1 < paid:
                total += prizes[k - 1] * quotient
        result[:, columns] += np.where(chosen, total * b_down, 0.0)
    return result
