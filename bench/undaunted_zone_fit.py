"""Undaunted: fit the evaluation on self-play of scenarios 2 and 3 together and
compare held-out log-losses (bench/README.md, "Undaunted: what the cards in
each zone can still do").

`ardsearch tune` fits one game (one scenario) and compares with `classic`;
the target of issue 15 pools scenarios 2 and 3, and the shipped weights are
`goal` alone, not classic. This reads the records `ardsearch tune ...
--records FILE` kept for each scenario, takes the tuner's own positions and
hold-out split (ardsearch.tuning.positions, held_out_mask: the same rows the
tuner used), and reports the held-out log-loss, per scenario and pooled, of:
the shipped weights (goal alone); goal with a fitted scale; goal plus the
zone-use features chosen by --zones; all features (as the tuner fits). With --out it
writes the goal + zone-use fit as an eval.toml a bot can load
(`ismcts:weights=PATH`).

    python -m bench.undaunted_zone_fit --records 2=s2.jsonl 3=s3.jsonl --seed 715 --out cand.toml
"""
from __future__ import annotations

import argparse
import json
import sys

import numpy as np

import ardsearch
from ardsearch import logistic, tuning

ZONES = ("hand_use", "deck_use", "discard_use", "supply_use", "cycle_use")


def rows(scenario: int, path: str, seed: int, per_game: int):
    game = ardsearch.load_game("undaunted", scenario=scenario)
    with open(path, encoding="utf-8") as f:
        records = sorted((json.loads(line) for line in f if line.strip()), key=lambda r: r["index"])
    X, y, pair = tuning.positions(game, records, seed, per_game, quiet=True)
    return game.feature_names, X, y, tuning.held_out_mask(pair), len(records)


def restricted_fit(X, y, names, keep, l2):
    cols = [names.index(n) for n in keep]
    w_sub, _ = logistic.fit(X[:, cols], y, l2=l2)
    w = np.zeros(len(names))
    w[cols] = w_sub
    return w


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--records", nargs="+", required=True, metavar="SCENARIO=FILE")
    p.add_argument("--seed", type=int, required=True, help="the tune command's --seed (positions sampled as it did)")
    p.add_argument("--per-game", type=int, default=tuning.DEFAULT_PER_GAME)
    p.add_argument("--l2", type=float, default=tuning.DEFAULT_L2)
    p.add_argument("--out", help="write the goal + zone-use fit here")
    p.add_argument("--zones", nargs="+", default=list(ZONES), choices=ZONES,
                   help="the zone-use features fitted beside goal (default all five)")
    args = p.parse_args(argv)
    data = {}
    for item in args.records:
        sc, _, path = item.partition("=")
        if not path or not sc.isdigit():
            p.error(f"--records {item}: give SCENARIO=FILE with the scenario's number, e.g. 3=s3.jsonl")
        data[int(sc)] = rows(int(sc), path, args.seed, args.per_game)
    names = next(iter(data.values()))[0]
    train_X = np.vstack([d[1][~d[3]] for d in data.values()])
    train_y = np.concatenate([d[2][~d[3]] for d in data.values()])
    shipped = np.zeros(len(names))
    shipped[names.index("goal")] = 1.0
    fits = {
        "shipped (goal = 1)": shipped,
        "goal, fitted scale": restricted_fit(train_X, train_y, names, ("goal",), args.l2),
        "goal + zone use": restricted_fit(train_X, train_y, names, ("goal",) + tuple(args.zones), args.l2),
        "all features": logistic.fit(train_X, train_y, l2=args.l2)[0],
    }
    head = " | ".join(f"scenario {sc} held out" for sc in data) + " | pooled held out | pooled training"
    print(f"| weights | {head} |")
    print("|---" * (len(data) + 3) + "|")
    for label, w in fits.items():
        cells = [logistic.log_loss(d[1][d[3]], d[2][d[3]], w) for d in data.values()]
        test_X = np.vstack([d[1][d[3]] for d in data.values()])
        test_y = np.concatenate([d[2][d[3]] for d in data.values()])
        cells += [logistic.log_loss(test_X, test_y, w), logistic.log_loss(train_X, train_y, w)]
        print(f"| {label} | " + " | ".join(f"{c:.4f}" for c in cells) + " |")
    for label in ("goal + zone use", "all features"):
        w = fits[label]
        print(f"{label}: " + ", ".join(f"{n} {w[i]:.4g}" for i, n in enumerate(names) if w[i] != 0.0))
    print(f"games: " + ", ".join(f"scenario {sc} {d[4]}" for sc, d in data.items())
          + f"; positions: {len(train_y) // 2} training, "
          + f"{sum(int(d[3].sum()) for d in data.values()) // 2} held out")
    if args.out:
        w = fits["goal + zone use"]
        command = "python -m bench.undaunted_zone_fit " + " ".join(sys.argv[1:] if argv is None else argv)
        lines = ["# Undaunted: goal + the zone-use features fitted on scenarios 2 and 3 (bench/undaunted_zone_fit.py).",
                 "[weights]"] + [f"{n} = {tuning._fmt(x)}" for n, x in zip(names, w)]
        lines += ["", "[source]", 'game = "undaunted"', f'method = "{command}"']
        with open(args.out, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
