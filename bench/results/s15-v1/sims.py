"""Median simulations and CPU-clock seconds a searched move, per bot, from match records."""
import json, statistics, sys
from collections import defaultdict
nodes, secs = defaultdict(list), defaultdict(list)
for path in sys.argv[1:]:
    for line in open(path):
        r = json.loads(line)
        names = r["seats"]
        for m in r["moves"]:
            if m.get("player", -1) >= 0 and m.get("nodes", 0) > 1:
                nodes[names[m["player"]]].append(m["nodes"])
                secs[names[m["player"]]].append(m["time"])
for k in sorted(nodes):
    print(k, "moves", len(nodes[k]), "median simulations", statistics.median(nodes[k]),
          "median wall s", round(statistics.median(secs[k]), 3))
