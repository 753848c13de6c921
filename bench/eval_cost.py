"""`python -m bench.eval_cost GAME [--positions N] [--seed S] [--repeat R]`:
CPU time of one evaluate() under several weight tables, in one run.

evaluate() computes only the features whose weight is non-zero (features()
computes them all, for tuning), so its cost depends on the weights. Timed
over the same positions of seeded random play (time.process_time, so the
load of a shared machine inflates every row alike: read the ratios):

- `classic only`: weights {classic: 1}, the first release's evaluation;
- `committed`: the game's data/eval.toml, what the bots play;
- `every feature`: every weight non-zero, so evaluate() computes every
  feature, as it did before it skipped the zero-weight ones;
- `features()`: the full feature vector, the tuner's call.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

import numpy as np

import ardsearch
from ardsearch.random_walk import random_walk


def positions(game, n: int, seed: int) -> list:
    """n non-terminal states, each the end of a seeded random walk."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        st = random_walk(game.new_initial_state(rng.randrange(1 << 30)), rng.randrange(1, 300), rng)
        if not st.is_terminal():
            out.append(st)
    return out


def cpu_per_call(call, states, repeat: int) -> float:
    """Microseconds of CPU per call, the best of `repeat` passes over states."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        for st in states:
            call(st, 0)
            call(st, 1)
        best = min(best, time.process_time() - t0)
    return 1e6 * best / (2 * len(states))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.eval_cost", description=__doc__.split("\n")[0])
    p.add_argument("game")
    p.add_argument("--positions", type=int, default=400)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--repeat", type=int, default=5)
    a = p.parse_args(argv)
    game = ardsearch.load_game(a.game)
    states = positions(game, a.positions, a.seed)
    committed = np.array(game.weights, dtype=np.float64)
    classic = np.zeros_like(committed)
    classic[list(game.feature_names).index("classic")] = 1.0
    every = np.where(committed != 0.0, committed, 1e-9)   # all non-zero, values ~unchanged
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    rows = []
    try:
        for label, w in (("classic only", classic), ("committed", committed), ("every feature", every)):
            game.weights = w
            rows.append((label, cpu_per_call(lambda st, p: st.evaluate(p), states, a.repeat)))
        game.weights = committed
        rows.append(("features()", cpu_per_call(lambda st, p: st.features(p), states, a.repeat)))
    finally:
        game.weights = committed
    base = dict(rows)["committed"]
    print(f"`python -m bench.eval_cost {' '.join(argv if argv is not None else sys.argv[1:])}` "
          f"({len(states)} positions, load average {load})\n")
    print("| weights | CPU us per call | / committed |")
    print("|---|---:|---:|")
    for label, us in rows:
        print(f"| {label} | {us:.2f} | {us / base:.1f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
