"""From game records to figures: per-pairing W/D/L and pentanomial counts,
the crosstable, fault counts, ratings for all entrants, and the SPRT state.

Everything is computed from records sorted by schedule index, never in
arrival order, so a parallel, resumed or Ray run reports exactly what a
sequential one does.
"""
from __future__ import annotations

import math
from collections import Counter

from ardsearch import stats
from ardsearch.tournament.players import FAULTS

RATING_CAP = 1500.0   # |rating| bound for an entrant that won or lost everything (its MLE is infinite)


def points_for(record: dict, name: str) -> float:
    seat = record["seats"].index(name)
    return (record["returns"][seat] + 1.0) / 2.0


class PairingTally:
    """One pairing from its first entrant's side."""

    def __init__(self, a: str, b: str):
        self.a, self.b = a, b
        self.wdl = [0, 0, 0]
        self.penta = [0, 0, 0, 0, 0]   # pairs scoring 0, 0.5, 1, 1.5, 2 points for a
        self._open: dict[int, float] = {}   # pair number -> a's points in the leg seen so far

    def add(self, record: dict) -> None:
        p = points_for(record, self.a)
        self.wdl[0 if p == 1.0 else 1 if p == 0.5 else 2] += 1
        first = self._open.pop(record["pair"], None)
        if first is None:
            self._open[record["pair"]] = p
        else:
            self.penta[int(round(2 * (first + p)))] += 1

    @property
    def games(self) -> int:
        return sum(self.wdl)

    def summary(self) -> dict:
        w, d, l = self.wdl
        elo, lo, hi = stats.pentanomial_elo(self.penta)
        telo, tlo, thi = stats.elo_interval(w, d, l)
        return {
            "a": self.a, "b": self.b, "games": self.games, "pairs": sum(self.penta),
            "wins": w, "draws": d, "losses": l,
            "score": stats.score_interval(w, d, l).score if self.games else None,
            "penta": list(self.penta),
            "elo": _num(elo), "elo_low": _num(lo), "elo_high": _num(hi),
            "los": stats.los_pentanomial(self.penta),
            "trinomial": {"elo": _num(telo), "elo_low": _num(tlo), "elo_high": _num(thi),
                          "los": stats.los_trinomial(w, d, l),
                          "draw_ratio": d / self.games if self.games else None},
        }


def _num(x: float):
    """JSON has no infinities: write them as strings."""
    return x if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


def fit_ratings(names: list[str], results: dict[tuple[str, str], tuple[float, int]]) -> dict[str, float]:
    """Maximum-likelihood logistic ratings (draws as half points), mean 0.

    results[(a, b)] = (points of a against b, games). Solves
    sum_b n_ab E_ab = S_a for every a with damped Newton steps; entrants
    with a perfect or a zero score are held at +-RATING_CAP.
    """
    r = {n: 0.0 for n in names}
    k = math.log(10) / 400.0
    games = {n: [] for n in names}
    for (a, b), (pts, n) in results.items():
        games[a].append((b, pts, n))
        games[b].append((a, n - pts, n))
    for _ in range(200):
        biggest = 0.0
        for a in names:
            score = sum(p for _, p, _ in games[a])
            expected = curvature = 0.0
            for b, _, n in games[a]:
                e = 1.0 / (1.0 + math.exp(-k * (r[a] - r[b])))
                expected += n * e
                curvature += n * e * (1.0 - e) * k
            if curvature <= 0.0:
                continue
            step = max(-200.0, min(200.0, (score - expected) / curvature))
            r[a] = max(-RATING_CAP, min(RATING_CAP, r[a] + step))
            biggest = max(biggest, abs(step))
        mean = sum(r.values()) / len(r)
        for a in names:
            r[a] -= mean
        if biggest < 1e-6:
            break
    return r


class Standings:
    """All figures of a tournament from its records."""

    def __init__(self, names: list[str], plan: list[tuple[str, str]], sprt: stats.SPRT | None = None):
        self.names = names
        self.plan = plan
        self.sprt = sprt
        self.pairings = [PairingTally(a, b) for a, b in plan]
        self.faults = {n: Counter() for n in names}
        self.terminations = Counter()
        self.timeline: list[tuple[int, str, float]] = []   # (index, entrant, points) in schedule order
        self.llr_history: list[float] = []

    @staticmethod
    def of(records: list[dict], names, plan, sprt=None) -> Standings:
        s = Standings(list(names), list(plan), sprt)
        for r in sorted(records, key=lambda r: r["index"]):
            s.add(r)
        return s

    def add(self, record: dict) -> None:
        tally = self.pairings[record["pairing"]]
        before = sum(tally.penta)
        tally.add(record)
        self.terminations[record["termination"]] += 1
        if record.get("fault"):
            self.faults[record["fault"]["entrant"]][record["fault"]["kind"]] += 1
        for name in record["seats"]:
            self.timeline.append((record["index"], name, points_for(record, name)))
        if self.sprt is not None and sum(tally.penta) > before:
            self.llr_history.append(self.sprt.llr(tally.penta))

    def sprt_decision(self) -> str | None:
        if self.sprt is None or not self.llr_history:
            return None
        return self.sprt.decide(self.llr_history[-1])

    def crosstable(self) -> dict[str, dict[str, list]]:
        """table[a][b] = [points of a against b, games]."""
        table = {a: {} for a in self.names}
        for t in self.pairings:
            pts = t.wdl[0] + 0.5 * t.wdl[1]
            table[t.a][t.b] = [pts, t.games]
            table[t.b][t.a] = [t.games - pts, t.games]
        return table

    def entrant_rows(self) -> list[dict]:
        results = {(t.a, t.b): (t.wdl[0] + 0.5 * t.wdl[1], t.games) for t in self.pairings if t.games}
        ratings = fit_ratings(self.names, results)
        rows = []
        for name in self.names:
            w = d = l = 0
            penta = [0] * 5
            for t in self.pairings:
                if name == t.a:
                    w, d, l = w + t.wdl[0], d + t.wdl[1], l + t.wdl[2]
                    penta = [x + y for x, y in zip(penta, t.penta)]
                elif name == t.b:
                    w, d, l = w + t.wdl[2], d + t.wdl[1], l + t.wdl[0]
                    penta = [x + y for x, y in zip(penta, reversed(t.penta))]
            games = w + d + l
            # Error bars: the width of the entrant's own pentanomial score
            # interval against its field, carried over to the rating scale.
            s = stats.pentanomial_interval(penta)
            centre = stats.elo_from_score(s.score)
            minus = centre - stats.elo_from_score(s.low) if math.isfinite(centre) else None
            plus = stats.elo_from_score(s.high) - centre if math.isfinite(centre) else None
            rows.append({
                "name": name, "rating": round(ratings[name], 1),
                "minus": _num(minus) if minus is not None else None,
                "plus": _num(plus) if plus is not None else None,
                "games": games, "points": w + 0.5 * d, "score": (w + 0.5 * d) / games if games else None,
                "wins": w, "draws": d, "losses": l, "penta": penta,
                "faults": dict(self.faults[name]),
            })
        rows.sort(key=lambda row: -row["rating"])
        return rows

    def summary(self) -> dict:
        out = {
            "games": sum(t.games for t in self.pairings),
            "entrants": self.entrant_rows(),
            "pairings": [t.summary() for t in self.pairings],
            "crosstable": self.crosstable(),
            "terminations": dict(self.terminations),
            "faults": {n: {k: self.faults[n][k] for k in FAULTS if self.faults[n][k]} for n in self.names},
            "sprt": None,
        }
        if self.sprt is not None:
            llr = self.llr_history[-1] if self.llr_history else 0.0
            out["sprt"] = {**vars(self.sprt), "llr": llr, "lower": self.sprt.lower, "upper": self.sprt.upper,
                           "decision": self.sprt_decision()}
        return out
