import sys
import numpy as np
from bench import calibration as cal
v, wp, y, pair, seat = cal.decisions(cal.read(sys.argv[1:]))
raw = np.clip((v + 1) / 2, 0, 1)
rows = cal.reliability(raw, y)
print(f"raw (v + 1) / 2, all games: log-loss {cal.log_loss(raw, y):.4f} over {len(v)}; {cal.within(rows)}")
for p in (0, 1):
    s = seat == p
    print(f"  seat {p}: log-loss {cal.log_loss(raw[s], y[s]):.4f}; {cal.within(cal.reliability(raw[s], y[s]))}")
print(cal.markdown(rows))
