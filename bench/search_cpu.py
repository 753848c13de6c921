"""`python -m bench.search_cpu GAME [--bots SPEC ...] [--positions N] [--simulations S] [--seed S]`:
CPU seconds of fixed-budget searches on the same positions, and a digest of
what the searches answered.

For a change meant to make a search faster without changing its play (an
evaluation that skips zero-weight features, say): run it on the build before
and on the build after, back to back: `PYTHONPATH=<checkout> python
bench/search_cpu.py ...` (as a script: `python -m` from a checkout's root
would import that checkout's ardsearch whatever PYTHONPATH says). The
digests must be equal (the same moves, visits and values), and the CPU
seconds give the speed-up. A simulation budget, not a time limit, so the
searches are the same at any load; time.process_time, so the load of a
shared machine inflates every row alike: read the ratios.
"""
from __future__ import annotations

import argparse
import hashlib
import random
import time

import ardsearch
from ardsearch.bots import load_bot
from ardsearch.random_walk import random_walk
from ardsearch.tournament.entrants import parse_bot


# what an answer reports of the clock: the rest must be equal between builds
TIMINGS = ("time", "nps", "cpu_time", "clock")


def positions(game, n: int, seed: int) -> list:
    """n decision states, each the end of a seeded random walk."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        st = random_walk(game.new_initial_state(rng.randrange(1 << 30)), rng.randrange(5, 80), rng)
        if not st.is_terminal() and not st.is_chance_node():
            out.append(st)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", help="a game name, or a game with parameters as load_game reads it")
    ap.add_argument("--bots", nargs="+", default=["mcts", "mcts-v1"],
                    help="bot specs, as `ardsearch tournament --bots` reads them")
    ap.add_argument("--positions", type=int, default=8)
    ap.add_argument("--simulations", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args(argv)
    game = ardsearch.load_game(args.game)
    states = positions(game, args.positions, args.seed)
    print(f"`python -m bench.search_cpu {args.game} --bots {' '.join(args.bots)} --positions "
          f"{args.positions} --simulations {args.simulations} --seed {args.seed}` ({ardsearch.__file__})")
    print()
    print("| bot | CPU s for all searches | answers' digest |")
    print("|---|---:|---|")
    for spec in args.bots:
        entrant = parse_bot(spec)
        digest = hashlib.sha256()
        cpu = 0.0
        for i, st in enumerate(states):
            bot = load_bot(entrant.preset, game, **{**entrant.options, "seed": i,
                                                    "simulations": args.simulations, "time_limit": None})
            start = time.process_time()
            answer = bot.analyze(st)
            cpu += time.process_time() - start
            digest.update(repr(sorted((k, v) for k, v in answer.items() if k not in TIMINGS)).encode())
        print(f"| {entrant.name}: {entrant.describe()} | {cpu:.2f} | {digest.hexdigest()[:16]} |")


if __name__ == "__main__":
    main()
