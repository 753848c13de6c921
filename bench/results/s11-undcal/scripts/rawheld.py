import sys
import numpy as np
from bench import calibration as cal
v, wp, y, pair, seat = cal.decisions(cal.read(sys.argv[1:]))
t = pair % 2 == 1
raw = np.clip((v[t] + 1) / 2, 0, 1)
rows = cal.reliability(raw, y[t])
print(f"raw (v + 1) / 2, odd pairs: log-loss {cal.log_loss(raw, y[t]):.4f} over {int(t.sum())}; {cal.within(rows)}")
print(cal.markdown(rows))
