"""A monotone calibration of search values: isotonic regression on binned values.

Used by `python -m bench.calibration --fit` to turn a search's root values v
(in [-1, 1]) and the results of the side to move (1 won, 0 lost, 0.5 draw)
into an evaluation.CalibrationTable: knots (value, probability), the
probability non-decreasing in the value.

Why binned: the decisions of one game are correlated and a raw isotonic fit
over thousands of them follows every run of luck with a step; pooling the
sorted values into `bins` groups of equal size first, then pooling adjacent
groups that break monotonicity (pool-adjacent-violators, weighted by count),
gives a few knots each backed by many decisions. Every step is deterministic
(a stable sort, fixed splits), so a fit reproduces exactly from its games.
"""
from __future__ import annotations

import numpy as np

__all__ = ["pav", "fit_table", "fit_steps"]

# Knots are written to TOML with 6 significant digits; values closer than this
# would collapse there, so they are pooled here.
_VALUE_STEP = 2e-4   # two knots this far apart stay apart when rounded to 4 decimals


def pav(means, weights):
    """Pool-adjacent-violators: the non-decreasing sequence closest (weighted
    least squares) to `means`. Returns the blocks as (first index, last index,
    pooled mean, pooled weight)."""
    blocks = []
    for i, (m, w) in enumerate(zip(means, weights)):
        blocks.append([i, i, float(m), float(w)])
        while len(blocks) > 1 and blocks[-2][2] > blocks[-1][2]:
            a, b = blocks[-2], blocks.pop()
            total = a[3] + b[3]
            a[2] = (a[2] * a[3] + b[2] * b[3]) / total
            a[1], a[3] = b[1], total
    return [tuple(b) for b in blocks]


def _checked(v, y, bins):
    v = np.clip(np.asarray(v, dtype=np.float64), -1.0, 1.0)
    y = np.asarray(y, dtype=np.float64)
    if v.shape != y.shape or v.ndim != 1 or len(v) == 0:
        raise ValueError(f"a calibration fit needs two equal-length 1-d arrays, got shapes {v.shape} and {y.shape}")
    if bins < 1:
        raise ValueError(f"bins = {bins}: give at least 1")
    return v, y


def _laplace(y, group) -> float:
    # Laplace's rule, (wins + 1) / (n + 2): a group that won (or lost) every
    # game still reports a probability short of certainty (only a proven
    # result, v = +-1 exactly, is certain; evaluation.calibrated_wp).
    return float((y[group].sum() + 1.0) / (len(group) + 2.0))


def fit_table(v, y, bins: int = 20):
    """(values, wps): the knots of a monotone piecewise-linear calibration of
    root values `v` against outcomes `y` (in [0, 1]). The sorted values are
    split into `bins` groups of (nearly) equal count, each with its win rate
    by Laplace's rule (wins + 1) / (n + 2); groups are pooled where those
    decrease (PAV, weighted by count); each pooled block gives one knot at its
    mean value with its pooled win rate. At least two knots (a single block is
    spread flat over [-1, 1])."""
    v, y = _checked(v, y, bins)
    order = np.argsort(v, kind="stable")
    groups = [g for g in np.array_split(order, min(bins, len(v))) if len(g)]
    gv = [float(v[g].mean()) for g in groups]
    gy = [_laplace(y, g) for g in groups]
    gw = [float(len(g)) for g in groups]
    knots = []                                    # [value, wp, weight]
    for first, last, mean, weight in pav(gy, gw):
        value = sum(gv[i] * gw[i] for i in range(first, last + 1)) / weight
        if knots and value - knots[-1][0] < _VALUE_STEP:   # pool knots too close to write apart
            k = knots[-1]
            total = k[2] + weight
            k[0] = (k[0] * k[2] + value * weight) / total
            k[1] = (k[1] * k[2] + mean * weight) / total   # both non-decreasing: stays monotone
            k[2] = total
        else:
            knots.append([value, mean, weight])
    if len(knots) == 1:
        return (-1.0, 1.0), (knots[0][1], knots[0][1])
    values = tuple(round(k[0], 4) for k in knots)
    wps = tuple(round(min(1.0, max(0.0, k[1])), 4) for k in knots)
    return values, wps


# A step sits halfway between two blocks, written as two knots this far apart
# (each rounded to 4 decimals, so 2 units of the last digit: they stay apart).
_STEP_HALF = 1e-4


def fit_steps(v, y, bins: int = 20, span: float = 0.2, min_group: int = 100):
    """(values, wps): the knots of a monotone *step* calibration of root
    values `v` against outcomes `y`: the probability is constant over each
    block of values and steps up halfway between two blocks (two knots
    0.0002 apart, so it loads as an ordinary evaluation.CalibrationTable).

    The blocks: the sorted values are cut into `bins` groups of (nearly)
    equal count, never between equal values; a group whose values span more
    than `span` is cut again wherever the span would be exceeded; a group
    of fewer than `min_group` decisions is merged into its nearer neighbour
    in value; adjacent groups are pooled where their win rates (Laplace's
    rule) decrease (PAV, weighted by count).

    Why not fit_table: equal-count groups cannot see a small cluster at the
    ends (Clash of the Ardennes: 1.4% of decisions valued 0.7 or more, won
    99.8% of the time, sat in one group with values of 0.5), and lines
    between block means give the rare values between two clusters
    probabilities no decision backs (bench/results/s22-cal/PLAN.md)."""
    v, y = _checked(v, y, bins)
    if span <= 0 or min_group < 1:
        raise ValueError(f"span = {span}, min_group = {min_group}: give a span above 0 and at least 1 decision")
    order = np.argsort(v, kind="stable")
    sv = v[order]
    groups = []
    for g in _tie_safe_split(sv, min(bins, len(v))):
        groups += _split_by_span(sv, g, span)
    groups = _merge_small(sv, groups, min_group)
    sy = y[order]
    gy = [_laplace(sy, g) for g in groups]
    gw = [float(len(g)) for g in groups]
    blocks = [[float(sv[groups[f][0]]), float(sv[groups[l][-1]]), m, w] for f, l, m, w in pav(gy, gw)]
    # Two steps closer than their written knots allow, a step past +-1, or one
    # between equal written rates: pool the two blocks (the pooled rate lies
    # between theirs, so the sequence stays non-decreasing).
    i = 0
    while i + 1 < len(blocks):
        edges = [_edge(blocks[j], blocks[j + 1]) for j in (i - 1, i) if j >= 0]
        too_close = len(edges) == 2 and edges[1] - edges[0] < 3 * _STEP_HALF
        at_the_end = _edge(blocks[i], blocks[i + 1]) + _STEP_HALF > 1.0 or \
            _edge(blocks[i], blocks[i + 1]) - _STEP_HALF < -1.0
        no_step = round(blocks[i][2], 4) == round(blocks[i + 1][2], 4)   # equal as written
        if too_close or at_the_end or no_step:
            a, b = blocks[i], blocks.pop(i + 1)
            a[2] = (a[2] * a[3] + b[2] * b[3]) / (a[3] + b[3])
            a[1], a[3] = b[1], a[3] + b[3]
        else:
            i += 1
    if len(blocks) == 1:
        wp = round(min(1.0, max(0.0, blocks[0][2])), 4)
        return (-1.0, 1.0), (wp, wp)
    values, wps = [], []
    for a, b in zip(blocks, blocks[1:]):
        edge = _edge(a, b)
        values += [round(edge - _STEP_HALF, 4), round(edge + _STEP_HALF, 4)]
        wps += [round(min(1.0, max(0.0, float(a[2]))), 4), round(min(1.0, max(0.0, float(b[2]))), 4)]
    return tuple(values), tuple(wps)


def _edge(a, b) -> float:
    """The step between two blocks [first value, last value, rate, weight]:
    halfway between them, rounded to the 4 decimals it is written with."""
    return round(float(a[1] + b[0]) / 2.0, 4)


def _tie_safe_split(sv, bins):
    """Index ranges of `bins` groups of nearly equal count over the sorted
    values `sv`, each boundary moved up past a run of equal values (one
    value never lands in two groups, so the blocks' steps fall between
    distinct values)."""
    n = len(sv)
    cuts = [0]
    for k in range(1, bins):
        c = max(cuts[-1], (k * n) // bins)
        while 0 < c < n and sv[c] == sv[c - 1]:
            c += 1
        if c > cuts[-1] and c < n:
            cuts.append(c)
    cuts.append(n)
    return [np.arange(a, b) for a, b in zip(cuts, cuts[1:]) if b > a]


def _split_by_span(sv, group, span):
    """`group` (indices into the sorted values) cut wherever its values
    would span more than `span` from the start of the current piece."""
    pieces, start = [], 0
    for i in range(1, len(group) + 1):
        if i == len(group) or sv[group[i]] - sv[group[start]] > span:
            pieces.append(group[start:i])
            start = i
    return pieces


def _merge_small(sv, groups, min_group):
    """Merge the smallest group under `min_group` into its nearer neighbour
    in value (the lower one on a tie), until none is left or one group."""
    groups = list(groups)
    while len(groups) > 1:
        i = min(range(len(groups)), key=lambda k: (len(groups[k]), k))
        if len(groups[i]) >= min_group:
            break
        if i == 0:
            j = 1
        elif i == len(groups) - 1:
            j = i - 1
        else:
            below = sv[groups[i][0]] - sv[groups[i - 1][-1]]
            above = sv[groups[i + 1][0]] - sv[groups[i][-1]]
            j = i - 1 if below <= above else i + 1
        a, b = min(i, j), max(i, j)
        groups[a:b + 1] = [np.concatenate([groups[a], groups[b]])]
    return groups
