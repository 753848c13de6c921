"""Match statistics: score with a confidence interval, and Elo from a score.

Shared by `ardsearch match` and the tournament runner so that both report
the same figures the same way.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054


@dataclass(frozen=True)
class ScoreInterval:
    score: float  # mean points per game in [0, 1] (win 1, draw 0.5, loss 0)
    low: float
    high: float

    def __str__(self):
        return f"{self.score:.3f} [{self.low:.3f}, {self.high:.3f}]"


def score_interval(wins: int, draws: int, losses: int, z: float = Z95) -> ScoreInterval:
    """Mean score and its normal-approximation interval from the trinomial
    variance of per-game points (clipped to [0, 1])."""
    n = wins + draws + losses
    if n == 0:
        return ScoreInterval(0.5, 0.0, 1.0)
    mean = (wins + 0.5 * draws) / n
    var = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean ** 2) / n
    half = z * math.sqrt(var / n) if n > 1 else 0.5
    return ScoreInterval(mean, max(0.0, mean - half), min(1.0, mean + half))


def elo_from_score(score: float) -> float:
    """Elo difference that predicts this expected score (+-inf at 1 and 0)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_interval(wins: int, draws: int, losses: int) -> tuple[float, float, float]:
    """(elo, low, high) from the score interval."""
    s = score_interval(wins, draws, losses)
    return elo_from_score(s.score), elo_from_score(s.low), elo_from_score(s.high)
