"""Screen search settings in Mortain: A against B in seeded duplicate pairs,
printed by seat (seat 0 = the Germans). Usage: screen.py A B PAIRS [SEED]."""
import sys, time
sys.path.insert(0, ".")
from bench.pairs import play_match, parse_spec

a, b, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
t = time.time()
m = play_match("mortain", parse_spec(a), parse_spec(b), n, seed)
ger = sum(p.a_points[0] for p in m.pairs)   # A as seat 0 (Germans)
us = sum(p.a_points[1] for p in m.pairs)    # A as seat 1 (US)
lo, mid, hi = m.elo()
print(f"{a} vs {b}: A as GER {ger:g}/{n}, A as US {us:g}/{n}, total {ger+us:g}/{2*n}, "
      f"Elo {mid:+.0f} [{lo:+.0f},{hi:+.0f}], {time.time()-t:.0f}s", flush=True)
