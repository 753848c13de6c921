"""Tree nodes of the `mcts` preset's searches with and without
transpositions (branch wip-transpositions), on the same 12 positions of two
seeded greedy games, at SIMS simulations each:
    cd /tmp/dev37 && PYTHONPATH=/tmp/dev37 python /work/main/bench/results/s37-transpositions/tree_nodes.py GAME SIMS
(the branch's checkout on PYTHONPATH and as the working folder, so its
ardsearch and bench are imported)."""
import os
import sys
import time

import ardsearch
from ardsearch.bots import load_bot

sys.path.insert(0, os.getcwd())
from bench.search_cpu import greedy_positions  # noqa: E402

game = ardsearch.load_game(sys.argv[1])
sims = int(sys.argv[2])
positions = greedy_positions(game, 12, 5)
for tt in (False, True):
    t0 = time.process_time()
    nodes = 0
    for st in positions:
        bot = load_bot("mcts", game, simulations=sims, seed=1, time_limit=100, transpositions=tt)
        nodes += bot.analyze(st)["tree_nodes"]
    print(f"{sys.argv[1]} {sims} simulations, transpositions {tt}: {nodes} tree nodes over "
          f"{len(positions)} searches, {time.process_time() - t0:.2f} s CPU")
