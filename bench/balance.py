"""Scenario balance: how often each seat wins when one bot plays itself.

    python -m bench.balance "<game>(scenario=...)" [--bot level-5] [--pairs N] [--seed S] [--progress]

Plays seeded duplicate pairs of the bot against itself (the same chance
stream in both legs of a pair, the bots' seeds differing by leg and seat)
and prints the seat-0 and seat-1 win rates with Wilson 95% intervals, and
draws. Seat results are counted per game, never pooled across seats. A
scenario the developers designed should come out between 40% and 60%; a
printed one is reported as printed.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import ardsearch
from ardsearch.records import side_names
from ardsearch.stats import _wilson

from bench.pairs import parse_spec, play_match


def seat_table(game_text: str, bot: str, pairs: int, seed: int, progress=None) -> dict:
    spec = parse_spec(bot)
    return seat_counts(play_match(game_text, spec, spec, pairs, seed, progress=progress))


def count_legs(wins: list, a_points) -> int:
    """Adds one pair's games to `wins` (by seat) and returns its draws.
    a_points are the first bot's points in leg 0 (it sits in seat 0) and leg 1
    (it sits in seat 1); in self-play both bots are the same, so each game
    counts for the seat that won it."""
    draws = 0
    for leg, pts in enumerate(a_points):
        if pts == 0.5:
            draws += 1
        else:
            wins[leg if pts == 1.0 else 1 - leg] += 1
    return draws


def seat_counts(m) -> dict:
    """Wins by seat and draws over every game of a self-play match."""
    wins = [0, 0]
    draws = sum(count_legs(wins, pr.a_points) for pr in m.pairs)
    n = 2 * len(m.pairs)
    return {"games": n, "wins": wins, "draws": draws,
            "lengths": [x for pr in m.pairs for x in pr.lengths], "seconds": m.seconds()}


def seat_cells(r: dict) -> list[str]:
    """Each seat's wins as `w/n = p% [low, high]` (Wilson 95%), from
    r["wins"] (by seat) and r["games"]."""
    n = r["games"]
    cells = []
    for seat in (0, 1):
        w = _wilson(r["wins"][seat] / n, n, 1.959963984540054)
        cells.append(f"{r['wins'][seat]}/{n} = {100 * w.score:.0f}% [{100 * w.low:.0f}, {100 * w.high:.0f}]")
    return cells


def print_progress(m) -> None:
    """After each pair, the running counts on stderr: pairs are played in
    index order, so a run stopped after k pairs has played exactly the games
    of `--pairs k` with the same seed (a figure for a run that outlasts its time)."""
    r = seat_counts(m)
    s0, s1 = seat_cells(r)
    print(f"{time.strftime('%H:%M:%S', time.gmtime())} load {os.getloadavg()[0]:.2f}: after {len(m.pairs)} "
          f"pairs seat 0 {s0}, seat 1 {s1}, draws {r['draws']}", file=sys.stderr, flush=True)


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    p = argparse.ArgumentParser(prog="python -m bench.balance", description=__doc__.split("\n\n")[0])
    p.add_argument("game", help="a game, with its scenario as name(key=value)")
    p.add_argument("--bot", default="level-5", help="preset[:key=value,...] playing both seats")
    p.add_argument("--pairs", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--progress", action="store_true",
                   help="print the running seat counts to stderr after each pair (the games do not change)")
    args = p.parse_args(argv)
    before = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    t0 = time.perf_counter()
    r = seat_table(args.game, args.bot, args.pairs, args.seed, print_progress if args.progress else None)
    sides = side_names(ardsearch.load_game(args.game))
    n = r["games"]
    cells = seat_cells(r)
    mean_len = sum(r["lengths"]) / len(r["lengths"])
    print(f"`python -m bench.balance {' '.join(argv)}` (load {before}, {time.perf_counter() - t0:.0f} s)\n")
    print(f"| game | bot | games | seat 0 ({sides[0]}) wins [95%] | seat 1 ({sides[1]}) wins [95%] | draws | mean length |")
    print("|---|---|---:|---|---|---:|---:|")
    print(f"| {args.game} | {args.bot} | {n} | {cells[0]} | {cells[1]} | {r['draws']} | {mean_len:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
