import sys
import numpy as np
import ardsearch
from ardsearch import evaluation
from bench import calibration as cal
game = ardsearch.load_game(sys.argv[1])
v, wp, y, pair, seat = cal.decisions(cal.read(sys.argv[2:]))
for name, train in (("even->odd", pair % 2 == 0), ("odd->even", pair % 2 == 1)):
    t = ~train
    out = [name]
    for by in (None, "seat"):
        f = cal.fit("isotonic", v[train], y[train], seat[train], 20, by, game.player_names)
        pred = np.array([evaluation.calibrated_wp(game.name, x, "ismcts", {"ismcts": f}, int(s)) for x, s in zip(v[t], seat[t])])
        for p in (0, 1):
            sel = seat[t] == p
            out.append(f"{by or 'one'} seat{p} ll {cal.log_loss(pred[sel], y[t][sel]):.4f} obs {y[t][sel].mean():.3f} pred {pred[sel].mean():.3f}")
    raw = np.clip((v[t] + 1) / 2, 0, 1)
    for p in (0, 1):
        sel = seat[t] == p
        out.append(f"raw seat{p} ll {cal.log_loss(raw[sel], y[t][sel]):.4f}")
    print("\n  ".join(out))
