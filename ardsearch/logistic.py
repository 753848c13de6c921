"""Logistic regression by Newton's method (IRLS), deterministic, numpy only.

Used by `ardsearch tune` (the Texel method: weights w minimising the log-loss
of sigmoid(w . f) against game results) and by the calibration of search
values (a Platt fit: two weights). Targets may be fractional (a draw is 0.5).
No intercept unless the caller adds a column of ones: an evaluation of
antisymmetric features must stay antisymmetric.
"""
from __future__ import annotations

import numpy as np

__all__ = ["fit", "log_loss", "sigmoid"]


def sigmoid(z):
    z = np.asarray(z, dtype=np.float64)
    out = np.empty_like(z)
    pos = z >= 0
    out[pos] = 1.0 / (1.0 + np.exp(-z[pos]))
    e = np.exp(z[~pos])
    out[~pos] = e / (1.0 + e)
    return out


def log_loss(X, y, w) -> float:
    """Mean binary cross-entropy of sigmoid(X @ w) against targets y in [0, 1]."""
    z = np.asarray(X, dtype=np.float64) @ np.asarray(w, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    # log(1 + e^z) - y z, computed without overflow
    return float(np.mean(np.logaddexp(0.0, z) - y * z))


def fit(X, y, l2: float = 1e-3, max_iter: int = 50, tol: float = 1e-10, on_iter=None):
    """Weights minimising mean log-loss + l2 / 2 * |w|^2 (Newton steps with
    a halving line search; the Hessian is positive definite for l2 > 0, so
    the minimum is unique and the result depends only on X, y and l2).
    on_iter(iteration, loss) is called after each step. Returns (w, iterations)."""
    X = np.ascontiguousarray(X, dtype=np.float64)
    y = np.ascontiguousarray(y, dtype=np.float64)
    n, d = X.shape
    if n == 0:
        raise ValueError("no positions to fit: play more games")
    if y.shape != (n,) or np.any((y < 0) | (y > 1)):
        raise ValueError("targets must be one number in [0, 1] per row")
    if l2 <= 0:
        raise ValueError(f"l2 must be > 0, got {l2}")

    def objective(w):
        return log_loss(X, y, w) + 0.5 * l2 * float(w @ w)

    w = np.zeros(d)
    obj = objective(w)
    it = 0
    for it in range(1, max_iter + 1):
        p = sigmoid(X @ w)
        grad = X.T @ (p - y) / n + l2 * w
        s = p * (1.0 - p)
        H = (X * s[:, None]).T @ X / n + l2 * np.eye(d)
        step = np.linalg.solve(H, grad)
        t = 1.0
        while True:
            trial = w - t * step
            new = objective(trial)
            if new <= obj or t < 1e-8:
                break
            t *= 0.5
        w, done = trial, obj - new < tol
        obj = new
        if on_iter is not None:
            on_iter(it, obj)
        if done:
            break
    return w, it
