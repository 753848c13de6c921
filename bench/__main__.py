"""`python -m bench`: every figure of ardsearch.benchmark, plus the ratio of
the C engine to the pure-Python reference model of each game (the reference
models live in tests/reference/, so this comparison runs from the repo), and
OpenSpiel's MCTS on the same game side by side when open_spiel is installed
(the full comparison: `python -m bench.openspiel_compare`)."""
import importlib
import os
import random
import sys
import time

from ardsearch._core import random_playouts
from ardsearch.benchmark import main

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests"))


def reference_module(game):
    """tests/reference/<game>.py, whose random_playout(game, rng) plays one
    uniformly random game in the pure-Python model; None if absent."""
    try:
        ref = importlib.import_module(f"reference.{game.name}")
    except ImportError:
        return None
    return ref if hasattr(ref, "random_playout") else None


def reference_ratio(figs, game, seconds=1.0):
    ref = reference_module(game)
    if ref is None:
        return
    rng = random.Random(11)
    n_ref, games, t0 = 0, 0, time.perf_counter()
    while games < 2 or time.perf_counter() - t0 < seconds:
        n_ref += ref.random_playout(game, rng)
        games += 1
    t_ref = time.perf_counter() - t0
    n_c, t_c = random_playouts(game, max(games, 20), seed=11)
    figs.add(game.name, "random playout actions/s (Python reference)", n_ref / t_ref, "actions/s")
    figs.add(game.name, "C vtable / Python reference playout speed", (n_c / t_c) / (n_ref / t_ref), "x",
             games=games)


def extra_figures(figs, game):
    reference_ratio(figs, game)
    # OpenSpiel's MCTS on the same game and position (skipped without open_spiel)
    from bench.openspiel_compare import side_by_side
    side_by_side(figs, game)


sys.exit(main(extra=extra_figures))
