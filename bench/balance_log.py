"""Scenario balance one pair at a time, each pair appended to a JSON-lines log.

    python -m bench.balance_log OUT.jsonl "<game>(scenario=A)" ["<game>(scenario=B)" ...]
        [--bot level-3] [--pairs 8] [--seed 2] [--first 0]

The same games as `python -m bench.balance "<game>" --bot B --pairs N --seed S`
(the pair seeds, bot seeds and duplicate chance of bench.pairs.play_pair), but
played round-robin over several scenarios, pair k of every scenario before
pair k+1 of any, and written as each pair ends: a run stopped early (the
deadline, a loaded machine) keeps every finished pair and, run again with
the same OUT, goes on from where it stopped. Each line also records how both
games ended (state.outcome(): reason and sentence), the time and the load.
`--summary OUT.jsonl [...]` prints the seat table (Wilson 95%) per scenario
from logs (.jsonl, or .jsonl.gz as bench/results keeps them), pooling seeds.
"""
from __future__ import annotations

import argparse
import collections
import gzip
import json
import os
import sys
import time

from bench.balance import count_legs, seat_cells
from bench.pairs import parse_spec, play_pair


def play_logged_pair(game_text: str, spec, seed: int, index: int) -> dict:
    """Pair `index` of the bot against itself (bench.pairs.play_pair, the
    games of bench.balance), with each leg's outcome."""
    r = play_pair((game_text, spec, spec, seed, index))
    return {"a_points": list(r.a_points), "lengths": list(r.lengths), "outcomes": list(r.outcomes)}


def summary(paths) -> str:
    """Seat wins with Wilson 95% intervals and draws per (game, bot), over every line of the logs."""
    agg = collections.OrderedDict()
    for path in paths:
        with (gzip.open(path, "rt") if str(path).endswith(".gz") else open(path)) as f:   # bench keeps logs gzipped
            for line in f:
                d = json.loads(line)
                a = agg.setdefault((d["game"], d["bot"]), {"wins": [0, 0], "draws": 0, "games": 0,
                                                           "seeds": collections.Counter()})
                a["seeds"][d["seed"]] += 2
                a["games"] += 2
                a["draws"] += count_legs(a["wins"], d["a_points"])
    rows = ["| game | bot | games (seed: games) | seat 0 wins [95%] | seat 1 wins [95%] | draws |",
            "|---|---|---|---|---|---:|"]
    for (game, bot), a in agg.items():
        cells = seat_cells(a)
        seeds = ", ".join(f"{s}: {c}" for s, c in sorted(a["seeds"].items()))
        rows.append(f"| {game} | {bot} | {a['games']} ({seeds}) | {cells[0]} | {cells[1]} | {a['draws']} |")
    return "\n".join(rows)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.balance_log", description=__doc__.split("\n\n")[0])
    p.add_argument("out", help="the JSON-lines log (appended to; pairs already in it are not replayed)")
    p.add_argument("games", nargs="*", help="games with their scenarios, as name(key=value)")
    p.add_argument("--bot", default="level-3", help="preset[:key=value,...] playing both seats")
    p.add_argument("--pairs", type=int, default=8)
    p.add_argument("--seed", type=int, default=2)
    p.add_argument("--first", type=int, default=0, help="the first pair's index")
    p.add_argument("--summary", action="store_true", help="print the seat table of OUT (and GAMES, read as more logs)")
    args = p.parse_args(argv)
    if args.summary:
        print(summary([args.out] + args.games))
        return 0
    if not args.games:
        p.error("name at least one game, e.g. \"microarmour(scenario=introductory)\"")
    spec = parse_spec(args.bot)
    done = set()
    if os.path.exists(args.out):
        with open(args.out) as f:
            done = {(d["game"], d["bot"], d["seed"], d["index"]) for d in map(json.loads, f)}
    for index in range(args.first, args.first + args.pairs):
        for game in args.games:
            if (game, args.bot, args.seed, index) in done:
                continue
            load = os.getloadavg()[0]
            t0 = time.perf_counter()
            r = play_logged_pair(game, spec, args.seed, index)
            line = {"game": game, "bot": args.bot, "seed": args.seed, "index": index, **r,
                    "seconds": round(time.perf_counter() - t0, 1), "load": round(load, 2),
                    "utc": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())}
            with open(args.out, "a") as f:
                f.write(json.dumps(line) + "\n")
            print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
