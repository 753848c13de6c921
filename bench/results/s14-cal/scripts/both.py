"""Held-out scores both ways round (fit even / test odd, and fit odd / test
even) for raw, the shipped calibration, one table, table by seat, Platt,
Platt by seat. Usage: both.py GAME SEARCH RECORDS..."""
import sys
import numpy as np
import ardsearch
from ardsearch import evaluation
from bench import calibration as cal

game = ardsearch.load_game(sys.argv[1])
search = sys.argv[2]
recs = cal.read(sys.argv[3:])
v, wp, y, pair, seat = cal.decisions(recs)
print(f"{len(recs)} games, {len(v)} decisions; seat-0 wins {sum(r['returns'][0] > 0 for r in recs)}")
shipped = np.array([evaluation.calibrated_wp(game.name, x, search, None, int(s), game.params) for x, s in zip(v, seat)])
for name, train in (("fit even, test odd", pair % 2 == 0), ("fit odd, test even", pair % 2 == 1)):
    test = ~train
    raw = np.clip((v[test] + 1) / 2, 0, 1)

    def score(pred):
        rows = cal.reliability(pred, y[test])
        per = [cal.within(cal.reliability(pred[seat[test] == p], y[test][seat[test] == p])).split(" non")[0]
               for p in (0, 1)]
        return f"log-loss {cal.log_loss(pred, y[test]):.4f}, {cal.within(rows).split(' non')[0]} (per seat {per[0]}, {per[1]})"
    print(f"{name}: {int(train.sum())} / {int(test.sum())} decisions")
    print(f"  raw           {score(raw)}")
    print(f"  shipped       {score(shipped[test])}")
    for method in ("isotonic", "platt"):
        for by in (None, "seat"):
            f = cal.fit(method, v[train], y[train], seat[train], 20, by, game.player_names)
            pred = np.array([evaluation.calibrated_wp(game.name, x, search, {search: f}, int(s))
                             for x, s in zip(v[test], seat[test])])
            print(f"  {method:8s} {by or 'one':4s} {score(pred)}")
