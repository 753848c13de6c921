"""`python -m bench`: every figure of ardsearch.benchmark, plus the ratio of
the C engine to the pure-Python reference model of each game (the reference
models live in tests/reference/, so this comparison runs from the repo)."""
import importlib
import os
import random
import sys
import time

from ardsearch._core import random_playouts
from ardsearch.benchmark import main

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests"))


def reference_state(game):
    """A fresh reference-model state with the game's parameters, or None."""
    try:
        ref = importlib.import_module(f"reference.{game.name}")
    except ImportError:
        return None
    factory = getattr(ref, "new_initial_state", None)
    if factory is not None:
        return lambda: factory(**game.params)
    for obj in vars(ref).values():  # a class with new_initial_state(), built from the params
        if isinstance(obj, type) and hasattr(obj, "new_initial_state") and obj.__module__ == ref.__name__:
            try:
                g = obj(**{k: v for k, v in game.params.items() if k != "victory_cards"})
            except TypeError:
                continue
            return g.new_initial_state
    return None


def reference_playouts(make_state, games, seed):
    rng = random.Random(seed)
    actions = 0
    t0 = time.perf_counter()
    for _ in range(games):
        s = make_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                a = rng.choices([o for o, _ in outcomes], [float(p) for _, p in outcomes])[0]
            else:
                a = rng.choice(s.legal_actions())
            s.apply(a)
            actions += 1
    return actions, time.perf_counter() - t0


def reference_ratio(figs, game):
    make = reference_state(game)
    if make is None:
        return
    seeds = 20
    n_ref, t_ref = reference_playouts(make, seeds, seed=11)
    n_c, t_c = random_playouts(game, seeds, seed=11)
    figs.add(game.name, "random playout actions/s (Python reference)", n_ref / t_ref, "actions/s")
    figs.add(game.name, "C vtable / Python reference playout speed", (n_c / t_c) / (n_ref / t_ref), "x",
             games=seeds)


sys.exit(main(extra=reference_ratio))
