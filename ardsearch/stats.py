"""Match statistics: scores, Elo, intervals, LOS and SPRT.

Shared by `ardsearch match` and the tournament runner so that both report
the same figures the same way.

Two models of a match:

- trinomial: every game is an independent draw of win / draw / loss. Simple,
  but with duplicate pairs (the same dice for both seats) the two games of a
  pair are correlated and the trinomial variance overstates the noise.
- pentanomial: the unit is a duplicate pair (two games, same seed, seats
  swapped); its points for one side are 0, 0.5, 1, 1.5 or 2. Its variance is
  the honest one for paired games, and SPRT on pairs is what cutechess and
  fishtest use.

Scores are points per game in [0, 1] (win 1, draw 0.5, loss 0); Elo uses the
logistic model: expected score = 1 / (1 + 10 ** (-elo / 400)).
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


def _interval(mean: float, var_of_mean: float, n: int, z: float) -> ScoreInterval:
    # One sample says nothing about spread: give the widest honest interval.
    if n <= 1:
        return ScoreInterval(mean, max(0.0, mean - 0.5), min(1.0, mean + 0.5))
    if mean in (0.0, 1.0):
        # A clean sweep (20-0, say): the sample variance is zero but the truth is
        # not certain. The Wilson interval of a proportion stays honest there.
        return _wilson(mean, n, z)
    half = z * math.sqrt(var_of_mean)
    return ScoreInterval(mean, max(0.0, mean - half), min(1.0, mean + half))


def _wilson(p: float, n: int, z: float) -> ScoreInterval:
    d = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return ScoreInterval(p, max(0.0, centre - half), min(1.0, centre + half))


def _mean_var(values: tuple[float, ...], counts: tuple[int, ...]) -> tuple[int, float, float]:
    """(n, mean, population variance) of a categorical sample."""
    n = sum(counts)
    if n == 0:
        return 0, 0.5, 0.0
    mean = sum(v * c for v, c in zip(values, counts)) / n
    var = sum(c * (v - mean) ** 2 for v, c in zip(values, counts)) / n
    return n, mean, var


TRINOMIAL_SCORES = (1.0, 0.5, 0.0)                    # win, draw, loss
PENTANOMIAL_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)      # pair points 0..2, per game


def score_interval(wins: int, draws: int, losses: int, z: float = Z95) -> ScoreInterval:
    """Mean score and its normal-approximation interval from the trinomial
    variance of per-game points (clipped to [0, 1])."""
    n, mean, var = _mean_var(TRINOMIAL_SCORES, (wins, draws, losses))
    if n == 0:
        return ScoreInterval(0.5, 0.0, 1.0)
    return _interval(mean, var / n, n, z)


def pentanomial_interval(penta, z: float = Z95) -> ScoreInterval:
    """Mean score per game and its interval from pair counts
    penta = (pairs with 0, 0.5, 1, 1.5, 2 points)."""
    n, mean, var = _mean_var(PENTANOMIAL_SCORES, tuple(penta))
    if n == 0:
        return ScoreInterval(0.5, 0.0, 1.0)
    return _interval(mean, var / n, n, z)


def pentanomial_variance(penta) -> float:
    """Variance of the per-game score of one pair (population form)."""
    return _mean_var(PENTANOMIAL_SCORES, tuple(penta))[2]


def elo_from_score(score: float) -> float:
    """Elo difference that predicts this expected score (+-inf at 1 and 0,
    also within rounding of them, so a clean sweep never shows +6000)."""
    if score <= 1e-12:
        return -math.inf
    if score >= 1.0 - 1e-12:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """Expected score of a side that is `elo` points stronger."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_interval(wins: int, draws: int, losses: int) -> tuple[float, float, float]:
    """(elo, low, high) from the trinomial score interval."""
    s = score_interval(wins, draws, losses)
    return elo_from_score(s.score), elo_from_score(s.low), elo_from_score(s.high)


def pentanomial_elo(penta) -> tuple[float, float, float]:
    """(elo, low, high) at 95% from pair counts."""
    s = pentanomial_interval(penta)
    return elo_from_score(s.score), elo_from_score(s.low), elo_from_score(s.high)


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def los_trinomial(wins: int, draws: int, losses: int) -> float:
    """Likelihood of superiority: P(the side is stronger) from wins and
    losses (draws carry no information in this classic formula)."""
    if wins + losses == 0:
        return 0.5
    return _phi((wins - losses) / math.sqrt(wins + losses))


def los_pentanomial(penta) -> float:
    """P(true score > 0.5) under the normal approximation on pairs."""
    n, mean, var = _mean_var(PENTANOMIAL_SCORES, tuple(penta))
    if n == 0:
        return 0.5
    if var == 0.0:
        return 1.0 if mean > 0.5 else 0.0 if mean < 0.5 else 0.5
    return _phi((mean - 0.5) / math.sqrt(var / n))


# ---- SPRT ---------------------------------------------------------------

@dataclass(frozen=True)
class SPRT:
    """Sequential probability ratio test of H0: elo = elo0 against H1: elo = elo1
    (logistic Elo), with false-positive rate alpha and false-negative rate beta."""
    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self):
        if not (0.0 < self.alpha < 1.0 and 0.0 < self.beta < 1.0):
            raise ValueError(f"SPRT alpha and beta must be in (0, 1), got alpha={self.alpha} beta={self.beta}")
        if not self.elo1 > self.elo0:
            raise ValueError(f"SPRT needs elo1 > elo0, got elo0={self.elo0} elo1={self.elo1}")

    @property
    def lower(self) -> float:
        """Accept H0 when the LLR falls to this bound."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """Accept H1 when the LLR rises to this bound."""
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, penta) -> float:
        """Log-likelihood ratio of H1 over H0 from pair counts: the generalized
        SPRT with a normal approximation of the pair score,
        LLR = n (s1 - s0) (2 mean - s0 - s1) / (2 var)."""
        n, mean, var = _spread_sample(PENTANOMIAL_SCORES, tuple(penta))
        return _gsprt_llr(n, mean, var, score_from_elo(self.elo0), score_from_elo(self.elo1))

    def llr_trinomial(self, wins: int, draws: int, losses: int) -> float:
        """The same test on single games (for matches without pairs)."""
        n, mean, var = _spread_sample(TRINOMIAL_SCORES, (wins, draws, losses))
        return _gsprt_llr(n, mean, var, score_from_elo(self.elo0), score_from_elo(self.elo1))

    def decide(self, llr: float) -> str | None:
        """'H1' (elo1 accepted), 'H0' (elo0 accepted) or None (keep playing)."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None


def _spread_sample(values: tuple[float, ...], counts: tuple[int, ...]) -> tuple[int, float, float]:
    """(n, mean, variance) for the SPRT.

    The normal approximation divides by the sample variance, which is zero
    when every unit so far scored the same (a clean sweep, or every pair
    drawn 1-1): the LLR was then 0 for ever and the test never stopped, on
    the very samples that say the most. In that case only, the counts get a
    prior of one unit spread evenly over the outcomes (design choice: the
    smallest prior that gives a spread; with it three 2-0 pairs give an LLR
    of 2.7 for elo0=0 against elo1=300, where independent games at those
    two Elo would give a log likelihood ratio of 3.2), and n stays the
    number of units played. One unit alone still counts as no evidence.
    """
    n, mean, var = _mean_var(values, counts)
    if n < 2 or var > 0.0:
        return n, mean, var
    prior = 1.0 / len(values)
    _, mean, var = _mean_var(values, tuple(c + prior for c in counts))
    return n, mean, var


def _gsprt_llr(n: int, mean: float, var: float, s0: float, s1: float) -> float:
    if n < 2 or var <= 0.0:
        # One unit says nothing about spread: no evidence either way yet.
        return 0.0
    return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)


def parse_sprt(text: str) -> SPRT:
    """`elo0=0 elo1=5 alpha=0.05 beta=0.05` (space or comma separated; missing
    keys keep their defaults)."""
    values = {}
    for item in text.replace(",", " ").split():
        key, eq, value = item.partition("=")
        if not eq or key not in ("elo0", "elo1", "alpha", "beta"):
            raise ValueError(f"cannot read SPRT setting {item!r}: expected elo0=, elo1=, alpha= or beta=")
        try:
            values[key] = float(value)
        except ValueError:
            raise ValueError(f"SPRT setting {key} needs a number, got {value!r}") from None
    return SPRT(**values)
