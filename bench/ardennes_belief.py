"""How well a belief reads the opponent's hidden Objective card in Clash of
the Ardennes, measured on recorded games.

    python -m bench.ardennes_belief RECORDS... [--belief 0 4 8 12 16 24] [--samples 256]

At the first decision of each turn in each record, the mover's opponent's
card is hidden; the candidates are the cards the mover's view allows (not the
mover's own card, not a card whose two roads the opponent already holds).
The belief of the search's `belief` setting weighs candidate k by
exp(b * evaluate(state with card k, opponent)). For each b this prints the
mean log-loss of the true card, first under that exact weighting, then as
the search draws it (a pool of `--samples` uniform draws, each simulation
taking one by weight: importance resampling, estimated by simulation on a
subsample). Uniform
(b = 0) is ln 7 = 1.95 where seven cards remain. bench/README.md, "Ardennes:
the opponent's Objective card read from its play".
"""
from __future__ import annotations

import argparse
import copy
import gzip
import json
import math

import numpy as np

import ardsearch

SIDES = ("allies", "germans")


def positions(game, paths):
    """(evaluations of the candidates for the opponent, index of the true card, round)."""
    for path in paths:
        for rec in _read(path):
            state = game.new_initial_state()
            last = None
            for mv in rec["moves"]:
                side = mv["side"]
                if side in SIDES and side != last:
                    row = _candidates(game, state.to_dict(), side)
                    if row is not None:
                        yield row
                if side in SIDES:
                    last = side
                state.apply(mv["move"])


def _read(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as fh:
        for line in fh:
            rec = json.loads(line)
            if rec.get("game") == "ardennes" and "moves" in rec:
                yield rec


def _candidates(game, d, mover):
    opp = SIDES[1 - SIDES.index(mover)]
    truth, mine = d["objectives"][opp], d["objectives"][mover]
    held = {r["road"] for r in d["roads"] if r["conquered"] == opp}
    values, truth_at = [], None
    for card, roads in CARD_ROADS.items():
        if card == mine or roads <= held:
            continue
        d2 = copy.deepcopy(d)
        d2["objectives"][opp] = card
        if card == truth:
            truth_at = len(values)
        values.append(game.state_from_dict(d2).evaluate(SIDES.index(opp)))
    return None if truth_at is None else (np.array(values), truth_at, d["round"])


# RULES.md (Objective cards, design choice): the roads each card names.
CARD_ROADS = {1: {1, 7}, 2: {2, 6}, 3: {3, 5}, 4: {1, 4}, 5: {4, 7}, 6: {2, 5}, 7: {3, 6}, 8: {2, 7}}


def exact_loss(rows, b):
    if not rows:
        return float("nan")
    total = 0.0
    for v, t, _ in rows:
        z = b * (v - v.max())
        total -= z[t] - math.log(np.exp(z).sum())
    return total / len(rows)


def drawn_loss(rows, b, samples, rng, draws=50):
    total = 0.0
    for v, t, _ in rows:
        idx = rng.integers(0, len(v), size=(draws, samples))
        w = np.exp(b * (v[idx] - v.max()))
        w /= w.sum(axis=1, keepdims=True)
        total -= math.log(max((w * (idx == t)).sum(axis=1).mean(), 1e-6))
    return total / len(rows)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m bench.ardennes_belief", description=__doc__.split("\n\n")[0])
    ap.add_argument("records", nargs="+", help="tournament records (.jsonl or .jsonl.gz) of Ardennes games")
    ap.add_argument("--belief", type=float, nargs="+", default=[0, 4, 8, 12, 16, 24])
    ap.add_argument("--samples", type=int, default=256,
                    help="determinizations a search draws and weighs, as the search's belief_samples")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rows = list(positions(ardsearch.load_game("ardennes"), args.records))
    if not rows:
        ap.error("no Ardennes game with its moves in the records given")
    rng = np.random.default_rng(args.seed)
    sub = [rows[i] for i in rng.choice(len(rows), min(3000, len(rows)), replace=False)]
    print(f"{len(rows)} positions (the first decision of each turn); drawn: {len(sub)} of them, "
          f"{args.samples} samples")
    print("| belief | log-loss, exact | rounds 1-5 | 6-19 | 20+ | log-loss, drawn |")
    print("|---|---|---|---|---|---|")
    for b in args.belief:
        phase = [exact_loss([r for r in rows if lo <= r[2] < hi], b) for lo, hi in ((1, 6), (6, 20), (20, 999))]
        print(f"| {b:g} | {exact_loss(rows, b):.3f} | " + " | ".join("-" if math.isnan(x) else f"{x:.3f}" for x in phase)
              + f" | {drawn_loss(sub, b, args.samples, rng):.3f} |")


if __name__ == "__main__":
    main()
