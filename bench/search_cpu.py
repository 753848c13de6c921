"""`python -m bench.search_cpu GAME [--bots SPEC ...] [--positions N] [--simulations S] [--seed S] [--movetime T] [--greedy]`:
CPU seconds of fixed-budget searches on the same positions, and a digest of
what the searches answered; or, with --movetime, how many simulations each
bot searches in T seconds of CPU.

For a change meant to make a search faster without changing its play (an
evaluation that skips zero-weight features, say): run it on the build before
and on the build after, back to back: `PYTHONPATH=<checkout> python
bench/search_cpu.py ...` (as a script: `python -m` from a checkout's root
would import that checkout's ardsearch whatever PYTHONPATH says). The
digests must be equal (the same moves, visits and values), and the CPU
seconds give the speed-up. A simulation budget, not a time limit, so the
searches are the same at any load; time.process_time, so the load of a
shared machine inflates every row alike: read the ratios.

`--movetime T` searches each position for T seconds of CPU instead (the
clock of `--clock cpu` matches) and prints the median simulations a search,
the figure a match at equal time turns on. `--greedy` takes the positions
from two seeded games of greedy moves (one in five random,
tests/random_play.py), which get further into a game than random walks.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import random
import statistics
import sys
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


def greedy_positions(game, n: int, seed: int) -> list:
    """Up to n decision states of two seeded greedy games (tests/random_play.py)."""
    tests = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests")
    if tests not in sys.path:
        sys.path.insert(0, tests)
    import random_play
    states = [s for k in (seed, seed + 1) for s in random_play.greedy_positions(game, k, every=6, plies=600)]
    return [s for s in states if not s.is_chance_node()][:n]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", help="a game name, or a game with parameters as load_game reads it")
    ap.add_argument("--bots", nargs="+", default=["mcts", "mcts-v1"],
                    help="bot specs, as `ardsearch tournament --bots` reads them")
    ap.add_argument("--positions", type=int, default=8)
    ap.add_argument("--simulations", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--movetime", type=float, default=None,
                    help="seconds of CPU a search: print the median simulations instead")
    ap.add_argument("--greedy", action="store_true", help="positions of seeded greedy games")
    args = ap.parse_args(argv)
    game = ardsearch.load_game(args.game)
    states = (greedy_positions if args.greedy else positions)(game, args.positions, args.seed)
    print(f"`python -m bench.search_cpu {' '.join(argv if argv is not None else sys.argv[1:])}` "
          f"({len(states)} positions; {ardsearch.__file__})")
    print()
    if args.movetime is not None:
        movetime(game, states, args)
        return
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


def movetime(game, states, args):
    """The median simulations a search of each bot in args.movetime s of CPU."""
    print("| bot | median simulations a search |")
    print("|---|---:|")
    for spec in args.bots:
        entrant = parse_bot(spec)
        sims = []
        for i, st in enumerate(states):
            bot = load_bot(entrant.preset, game, **{**entrant.options, "seed": i, "simulations": 0,
                                                    "time_limit": args.movetime, "clock": "cpu"})
            sims.append(bot.analyze(st)["simulations"])
        print(f"| {entrant.name}: {entrant.describe()} | {statistics.median(sims):,.0f} |")


if __name__ == "__main__":
    main()
