"""How many simulations a bot preset really runs a move under its time cap
(issue 15: a budget measured at 1,000 simulations says little if the preset
plays a different number).

    python -m bench.preset_sims 'stosstruppen(scenario=villers)' --preset mcts --games 2 --every 9

Searches every `--every`-th decision with a choice of `--games` greedy
self-play games (bench/root_probe.py's positions) with a fresh bot of the
preset and prints the simulations (`nodes`) and seconds a search: min,
median and max. Time-capped, so the figures depend on the machine's load:
print `uptime` beside them."""
from __future__ import annotations

import argparse
import statistics
import time

import ardsearch
from bench.root_probe import positions


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--preset", default="mcts")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--every", type=int, default=9)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    game = ardsearch.load_game(args.game)
    sims, secs = [], []
    for s in positions(game, args.games, args.every, args.seed):
        bot = ardsearch.load_bot(args.preset, game, seed=1)
        t = time.perf_counter()
        sims.append(bot.analyze(s)["nodes"])
        secs.append(time.perf_counter() - t)
    if not sims:
        raise SystemExit("no position with a choice: give more --games or a smaller --every")
    print(f"{args.game} {args.preset}: {len(sims)} searches; simulations min {min(sims)}, "
          f"median {statistics.median(sims):.0f}, max {max(sims)}; seconds median "
          f"{statistics.median(secs):.2f}, max {max(secs):.2f}")


if __name__ == "__main__":
    main()
