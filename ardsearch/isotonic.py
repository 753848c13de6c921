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

__all__ = ["pav", "fit_table"]

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


def fit_table(v, y, bins: int = 20):
    """(values, wps): the knots of a monotone piecewise-linear calibration of
    root values `v` against outcomes `y` (in [0, 1]). The sorted values are
    split into `bins` groups of (nearly) equal count, each with its win rate
    by Laplace's rule (wins + 1) / (n + 2); groups are pooled where those
    decrease (PAV, weighted by count); each pooled block gives one knot at its
    mean value with its pooled win rate. At least two knots (a single block is
    spread flat over [-1, 1])."""
    v = np.clip(np.asarray(v, dtype=np.float64), -1.0, 1.0)
    y = np.asarray(y, dtype=np.float64)
    if v.shape != y.shape or v.ndim != 1 or len(v) == 0:
        raise ValueError(f"fit_table needs two equal-length 1-d arrays, got shapes {v.shape} and {y.shape}")
    if bins < 1:
        raise ValueError(f"bins = {bins}: give at least 1")
    order = np.argsort(v, kind="stable")
    groups = [g for g in np.array_split(order, min(bins, len(v))) if len(g)]
    gv = [float(v[g].mean()) for g in groups]
    # Laplace's rule, (wins + 1) / (n + 2): a group that won (or lost) every
    # game still reports a probability short of certainty (only a proven
    # result, v = +-1 exactly, is certain; evaluation.calibrated_wp).
    gy = [float((y[g].sum() + 1.0) / (len(g) + 2.0)) for g in groups]
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
