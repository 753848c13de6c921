"""Share of held-out decisions in deciles within 5 points, and the expected
calibration error (decision-weighted mean |observed - predicted| over deciles)."""
import sys
import numpy as np
import ardsearch
from ardsearch import evaluation
from bench import calibration as cal
game = ardsearch.load_game(sys.argv[1])
v, wp, y, pair, seat = cal.decisions(cal.read(sys.argv[2:]))
def stats(pred, yy):
    rows = [r for r in cal.reliability(pred, yy) if r[2]]
    n = sum(r[2] for r in rows)
    ok = sum(r[2] for r in rows if abs(r[4] - r[3]) <= 0.05)
    ece = sum(r[2] * abs(r[4] - r[3]) for r in rows) / n
    return f"{ok / n:.0%} of decisions in deciles within 5 points, ECE {ece:.3f}"
for name, train in (("even->odd", pair % 2 == 0), ("odd->even", pair % 2 == 1)):
    t = ~train
    raw = np.clip((v[t] + 1) / 2, 0, 1)
    print(name, "raw ", stats(raw, y[t]))
    for by in (None, "seat"):
        f = cal.fit("isotonic", v[train], y[train], seat[train], 20, by, game.player_names)
        pred = np.array([evaluation.calibrated_wp(game.name, x, "ismcts", {"ismcts": f}, int(s)) for x, s in zip(v[t], seat[t])])
        print(name, by or "one ", stats(pred, y[t]))
