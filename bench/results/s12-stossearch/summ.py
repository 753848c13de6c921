"""Pentanomial, Elo [95%], seat scores of entrant 'mcts' (or argv name=) over jsonl files (pooled)."""
import json, sys
sys.path.insert(0, '/work/wt-stossearch3')
from ardsearch.stats import pentanomial_elo, elo_interval, _wilson, Z95
name = 'mcts'
files = []
for a in sys.argv[1:]:
    if a.startswith('name='): name = a[5:]
    else: files.append(a)
pairs = {}
for f in files:
    for line in open(f):
        r = json.loads(line)
        if r.get('format') != 'ardsearch-record': continue
        i = r['seats'].index(name)
        pts = (r['returns'][i] + 1) / 2
        pairs.setdefault((f, r['pair']), {})[r['leg']] = (pts, r['players'][i]['side'])
penta = [0]*5; g = [0, 0]; b = [0, 0]; w = d = l = 0
for k, legs in pairs.items():
    if len(legs) < 2: continue
    s = sum(p for p, _ in legs.values()); penta[int(round(2*s))] += 1
    for p, side in legs.values():
        t = g if side == 'german' else b
        t[0] += p; t[1] += 1
        w += p == 1; d += p == 0.5; l += p == 0
n = sum(penta)
if sum(1 for c in penta if c) == 1 and n > 1 and not penta[0] and not penta[4]:
    e = elo_interval(w, d, l)
else:
    e = pentanomial_elo(tuple(penta))
ng = g[1] + b[1]
wi = _wilson((g[0] + b[0]) / max(1, ng), max(1, ng), Z95)
wil = f'{g[0]+b[0]:g}/{ng} = {100*wi.score:.0f}% [{100*wi.low:.0f}, {100*wi.high:.0f}]'
def f(x): return '%+.0f' % x if abs(x) < 1e9 else ('+inf' if x > 0 else '-inf')
print(f"pairs {n} penta {penta} Elo {f(e[0])} [{f(e[1])}, {f(e[2])}] German {g[0]:g}/{g[1]} British {b[0]:g}/{b[1]} score {(g[0]+b[0])/max(1,g[1]+b[1]):.3f} wilson {wil}")
