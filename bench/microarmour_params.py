"""`python -m bench.microarmour_params`: random-playout speed of the Micro
Armour engine (C vtable) and of its Python reference model under the parameter
sets that bring in the weapons extras and building areas (microarmour
RULES.md, "Weapons extras", "Buildings"), beside the defaults in the same run,
so the ratios can be read on a busy machine."""
import os
import random
import sys
import time

import ardsearch
from ardsearch._core import random_playouts

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests"))
from reference import microarmour as ref  # noqa: E402

AMMO = {"special_ap": True, "heat": True, "big_gun_he": True}
CONFIGS = (("default", {}), ("support", {"support": True}), ("support + ammunition rules", {"support": True, **AMMO}),
           ("close", {"deployment": "close"}),
           ("close + support + ammunition rules", {"deployment": "close", "support": True, **AMMO}))


def measure(params, seconds=2.0):
    """(C actions/s, the best of 3 runs; reference model actions/s)."""
    game = ardsearch.load_game("microarmour", **params)
    rng = random.Random(11)
    n_ref, games, t0 = 0, 0, time.perf_counter()
    while games < 2 or time.perf_counter() - t0 < seconds:
        n_ref += ref.random_playout(game, rng)
        games += 1
    t_ref = time.perf_counter() - t0
    best = 0.0
    for _ in range(3):
        n_c, t_c = random_playouts(game, max(games, 20), seed=11)
        best = max(best, n_c / t_c)
    return best, n_ref / t_ref


def main():
    print(f"{'parameters':36s} {'C actions/s':>14s} {'reference':>10s} {'C / ref':>8s}")
    for label, params in CONFIGS:
        c, r = measure(params)
        print(f"{label:36s} {c:14,.0f} {r:10,.0f} {c / r:7.0f}x")


if __name__ == "__main__":
    main()
