"""`python -m bench.cpu_speed GAME [GAME ...]`: random-playout speed per CPU
second (time.process_time), the C engine through the vtable and the
pure-Python reference model, for a machine shared with other jobs, where
wall-clock figures mostly measure the load. GAME is a name or a game with
parameters as load_game reads it, e.g. 'microarmour(scenario=airstrike)'.
Still noisy under load (caches, hyperthreads): compare games within a run."""
from __future__ import annotations

import argparse
import importlib
import os
import random
import sys
import time

import ardsearch
from ardsearch._core import random_playouts

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests"))


def reference_module(game):
    """tests/reference/<game>.py with its random_playout(game, rng), or None
    (bench/__main__.py runs the whole bench on import, so not imported from there)."""
    try:
        ref = importlib.import_module(f"reference.{game.name}")
    except ImportError:
        return None
    return ref if hasattr(ref, "random_playout") else None


def measure(spec, games=200, ref_games=3, seed=7):
    game = ardsearch.load_game(spec)
    t0 = time.process_time()
    n, _ = random_playouts(game, games, seed=seed)
    c = time.process_time() - t0
    line = f"{spec:40s} C vtable {n / c:12,.0f} actions/CPU-s ({n} actions)"
    ref = reference_module(game)
    if ref is not None:
        rng = random.Random(seed)
        t0 = time.process_time()
        m = sum(ref.random_playout(game, rng) for _ in range(ref_games))
        r = time.process_time() - t0
        line += f"   reference {m / r:10,.0f} actions/CPU-s   ratio {(n / c) / (m / r):6.0f}x"
    return line


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.cpu_speed", description=__doc__.split("\n")[0])
    p.add_argument("games", nargs="+")
    p.add_argument("--games-c", type=int, default=200, help="C playouts per game (default 200)")
    p.add_argument("--games-ref", type=int, default=3, help="reference playouts per game (default 3)")
    a = p.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.1f} {os.getloadavg()[1]:.1f} {os.getloadavg()[2]:.1f}")
    for spec in a.games:
        print(measure(spec, a.games_c, a.games_ref))
    return 0


if __name__ == "__main__":
    sys.exit(main())
