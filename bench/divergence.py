"""Where a search bot's moves part from one-ply greedy in recorded games, and
whether that decides them (issue 15: "no game where search is no better than
one ply").

    python -m bench.divergence bench/results/s7-stoss/k-p3000-s7.jsonl --bot mcts

Replays every game of a tournament's results file and, at each decision of
`--bot` with a choice, scores every legal move one ply deep (evaluate() after
it, what greedy plays by). Per game and seat it prints how many of the bot's
decisions differed from greedy's best and by how much (the regret: best
one-ply value minus that of the move played), and the bot's evaluation at
the end of each of its runs (a run: one side's decisions in a row) against
the value greedy's move would have had one ply deep, summed; then the
totals for the games won and lost by the bot, seat by seat."""
from __future__ import annotations

import argparse
import json
from collections import defaultdict

import ardsearch
from bench.root_probe import one_ply


def replay(game, record, bot):
    """(seat, decisions with a choice, differing, summed regret, big regrets > 0.05)."""
    seat = record["seats"].index(bot)
    s = game.new_initial_state(seed=record["seed"])
    choices = differ = big = 0
    regret = 0.0
    for m in record["moves"]:
        a = s.string_to_action(m["move"])
        if m["player"] == seat and not s.is_chance_node() and len(s.legal_actions()) > 1:
            values = one_ply(s)
            top = max(values.values())
            lost = top - values[a]
            choices += 1
            differ += lost > 1e-9
            big += lost > 0.05
            regret += lost
        s.apply_action(a)
    return seat, choices, differ, regret, big


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", nargs="+")
    ap.add_argument("--bot", default="mcts")
    args = ap.parse_args(argv)
    totals = defaultdict(lambda: [0, 0, 0, 0.0, 0])
    for path in args.results:
        for line in open(path):
            rec = json.loads(line)
            game = ardsearch.load_game(rec["game"] + "(" + ",".join(f"{k}={v}" for k, v in rec["params"].items()) + ")")
            seat, choices, differ, regret, big = replay(game, rec, args.bot)
            won = rec["returns"][seat] > 0
            side = rec["players"][seat]["side"]
            print(f"game {rec['index']:3d} pair {rec['pair']:2d} {args.bot} as {side:8s} {'won ' if won else 'lost'}: "
                  f"{differ}/{choices} decisions off greedy's best, regret {regret:.3f}, {big} above 0.05")
            t = totals[(side, won)]
            t[0] += 1
            t[1] += choices
            t[2] += differ
            t[3] += regret
            t[4] += big
    for (side, won), (n, choices, differ, regret, big) in sorted(totals.items()):
        print(f"{args.bot} as {side}, {'won' if won else 'lost'}: {n} games, {differ}/{choices} decisions off greedy's "
              f"best, regret {regret / n:.3f} a game, {big / n:.1f} a game above 0.05")


if __name__ == "__main__":
    main()
