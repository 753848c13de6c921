"""Statistics against values worked out by hand or by an independent formula."""
import math

import pytest

from ardsearch import stats
from ardsearch.tournament.standings import fit_ratings


def test_elo_from_score_known_values():
    assert stats.elo_from_score(0.5) == pytest.approx(0.0)
    assert stats.elo_from_score(0.75) == pytest.approx(400 * math.log10(3))   # 190.85
    assert stats.elo_from_score(0.25) == pytest.approx(-400 * math.log10(3))
    assert stats.elo_from_score(10 / 11) == pytest.approx(400.0)
    assert stats.elo_from_score(1.0) == math.inf and stats.elo_from_score(0.0) == -math.inf
    for s in (0.1, 0.37, 0.5, 0.8):
        assert stats.score_from_elo(stats.elo_from_score(s)) == pytest.approx(s)


def test_trinomial_interval_and_elo():
    # 6 wins, 2 draws, 2 losses: mean 0.7, var = (6*.09 + 2*.04 + 2*.49)/10 = 0.16
    s = stats.score_interval(6, 2, 2)
    half = stats.Z95 * math.sqrt(0.16 / 10)
    assert (s.score, s.low, s.high) == pytest.approx((0.7, 0.7 - half, 0.7 + half))
    elo, lo, hi = stats.elo_interval(6, 2, 2)
    assert elo == pytest.approx(stats.elo_from_score(0.7))
    assert lo == pytest.approx(stats.elo_from_score(0.7 - half))
    assert hi == pytest.approx(stats.elo_from_score(0.7 + half))


def test_pentanomial_variance_known_values():
    assert stats.pentanomial_variance([1, 0, 0, 0, 1]) == pytest.approx(0.25)   # pairs of 0 and 2 points
    assert stats.pentanomial_variance([0, 0, 7, 0, 0]) == 0.0                   # every pair split
    # counts 1,2,3,2,1 on 0,.25,.5,.75,1: mean .5, var = 2 * (1 * .25 + 2 * .0625) / 9 = 0.75 / 9
    assert stats.pentanomial_variance([1, 2, 3, 2, 1]) == pytest.approx(0.75 / 9)
    s = stats.pentanomial_interval([1, 2, 3, 2, 1])
    half = stats.Z95 * math.sqrt((0.75 / 9) / 9)
    assert (s.score, s.low, s.high) == pytest.approx((0.5, 0.5 - half, 0.5 + half))


def test_pentanomial_is_tighter_than_trinomial_when_luck_cancels():
    # Ten pairs, each split 1-1 between seats: per game W/L 10/10 looks like a coin,
    # but the pairs show no spread at all around 0.5.
    tri = stats.score_interval(10, 0, 10)
    penta = stats.pentanomial_interval([0, 0, 10, 0, 0])
    assert penta.high - penta.low < tri.high - tri.low


def test_los():
    assert stats.los_trinomial(10, 3, 5) == pytest.approx(0.5 * (1 + math.erf(5 / math.sqrt(2 * 15))))
    assert stats.los_trinomial(0, 4, 0) == 0.5
    assert stats.los_pentanomial([0, 0, 4, 0, 0]) == 0.5
    assert stats.los_pentanomial([0, 0, 3, 0, 1]) > 0.5 > stats.los_pentanomial([1, 0, 3, 0, 0])
    # values .5 x3, 1 x1: mean .625, var (3 * .015625 + .140625) / 4 = .046875
    expect = 0.5 * (1 + math.erf((0.125 / math.sqrt(0.046875 / 4)) / math.sqrt(2)))
    assert stats.los_pentanomial([0, 0, 3, 0, 1]) == pytest.approx(expect)


def test_sprt_bounds_and_llr_formula():
    t = stats.SPRT(elo0=0, elo1=50, alpha=0.05, beta=0.05)
    assert t.lower == pytest.approx(math.log(0.05 / 0.95))
    assert t.upper == pytest.approx(math.log(0.95 / 0.05))
    penta = [1, 2, 5, 6, 3]
    xs = [0.0] * 1 + [0.25] * 2 + [0.5] * 5 + [0.75] * 6 + [1.0] * 3
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / n
    s0, s1 = 0.5, 1 / (1 + 10 ** (-50 / 400))
    assert t.llr(penta) == pytest.approx(n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var))
    assert t.llr([0, 0, 0, 0, 0]) == 0.0 and t.llr([0, 0, 0, 0, 1]) == 0.0   # one pair: no spread yet


def test_sprt_stops_on_samples_with_no_spread():
    """A clean sweep or an all-drawn run has zero sample variance; the SPRT
    used to read that as no evidence (LLR 0) and never stopped. With the
    prior of one pair spread over the five outcomes it decides, and the LLR
    is the formula's on the regularised counts while n stays the pairs played."""
    t = stats.SPRT(elo0=0, elo1=50, alpha=0.05, beta=0.05)
    assert _first_decision(t, [2] * 200) == (6, "H1")           # 12-0 after six pairs
    assert _first_decision(t, [0] * 200) == (6, "H0")           # and 0-12
    n_draw, d_draw = _first_decision(t, [1] * 200)              # every pair 1-1: Elo 0
    assert d_draw == "H0" and n_draw < 200
    prior = [c + 0.2 for c in (0, 0, 0, 0, 3)]
    xs = (0.0, 0.25, 0.5, 0.75, 1.0)
    m = sum(c * x for c, x in zip(prior, xs)) / sum(prior)
    v = sum(c * (x - m) ** 2 for c, x in zip(prior, xs)) / sum(prior)
    s0, s1 = 0.5, 1 / (1 + 10 ** (-50 / 400))
    assert t.llr([0, 0, 0, 0, 3]) == pytest.approx(3 * (s1 - s0) * (2 * m - s0 - s1) / (2 * v))
    # a sample with spread is untouched by the prior
    assert t.llr([0, 0, 2, 0, 1]) == pytest.approx(
        3 * (s1 - s0) * (2 * (2 / 3) - s0 - s1) / (2 * (2 * (0.5 - 2 / 3) ** 2 + (1 - 2 / 3) ** 2) / 3))
    # the same on single games: ten straight wins decide
    assert t.decide(t.llr_trinomial(10, 0, 0)) == "H1"
    assert t.decide(t.llr_trinomial(0, 0, 10)) == "H0"
    assert t.llr_trinomial(1, 0, 0) == 0.0


def _first_decision(test, pair_points):
    counts = [0] * 5
    for i, p in enumerate(pair_points, 1):
        counts[int(2 * p)] += 1
        decision = test.decide(test.llr(counts))
        if decision:
            return i, decision
    return None, None


def test_sprt_decisions_on_fixed_sequences():
    t = stats.SPRT(elo0=0, elo1=50, alpha=0.05, beta=0.05)
    assert _first_decision(t, [2, 1, 1.5, 1] * 50) == (11, "H1")
    assert _first_decision(t, [0, 1, 0.5, 1] * 50) == (8, "H0")
    assert _first_decision(t, [1, 1.5, 0.5, 1] * 3) == (None, None)   # balanced: keeps playing
    assert t.decide(t.upper) == "H1" and t.decide(t.lower) == "H0" and t.decide(0.0) is None


def test_sprt_settings_are_checked():
    assert stats.parse_sprt("elo0=0 elo1=10 alpha=0.05 beta=0.1") == stats.SPRT(0, 10, 0.05, 0.1)
    assert stats.parse_sprt("elo1=3,alpha=0.01") == stats.SPRT(0, 3, 0.01, 0.05)
    for bad in ("elo0=5 elo1=5", "alpha=1.5", "gamma=1", "elo1=ten"):
        with pytest.raises(ValueError):
            stats.parse_sprt(bad)


def test_fit_ratings_two_and_three_entrants():
    r = fit_ratings(["a", "b"], {("a", "b"): (7.5, 10)})
    assert r["a"] - r["b"] == pytest.approx(400 * math.log10(3), abs=1e-3)
    assert r["a"] + r["b"] == pytest.approx(0.0, abs=1e-9)
    # Consistent results (a +191 over b, b +191 over c, a +382 over c) are fitted exactly.
    e = stats.score_from_elo
    r = fit_ratings(["a", "b", "c"], {("a", "b"): (e(200) * 100, 100), ("b", "c"): (e(200) * 100, 100),
                                      ("a", "c"): (e(400) * 100, 100)})
    assert r["a"] - r["b"] == pytest.approx(200, abs=0.01)
    assert r["b"] - r["c"] == pytest.approx(200, abs=0.01)
    # A perfect score has no finite maximum: it is held at the cap.
    r = fit_ratings(["a", "b"], {("a", "b"): (4, 4)})
    assert r["a"] > 1000 and r["b"] < -1000
