"""Stosstruppen: a value for the end of a phase, fitted on self-play.

MCTS with `rollout_stop_prefix=card:` scores a rollout where the next
sequence card would be drawn: at the end of the mover's phase, before the
opponent can answer. The game's evaluation there does not see that answer
(bench/README.md, "Stosstruppen: MCTS against greedy, session 10/12").
This fits a second weight vector for exactly those positions:

1. Self-play: one-ply greedy (the game's evaluate(), random tie-breaks)
   plays both sides of `--games` games of each scenario, chance sampled
   from the state's seeded RNG (game g: seed --seed * 100_003 + g).
2. Positions: every state where a card is about to be drawn and a side's
   phase has just ended (the last decision before it was that side's).
3. Target (`--target answer`, the default): for each side p,
   (evaluate(T, p) + 1) / 2 with the game's own weights at T, the first
   later phase end whose phase was the *opponent's* (the answer played;
   the same side's further phases, if the cards give them, are played
   through), or the game's result if it ends first. `--target result`:
   the game's result (the Texel target of `ardsearch tune`).
4. Fit: ardsearch.logistic (evaluate = tanh(w . f / 2), so (evaluate + 1)
   / 2 = sigmoid(w . f)), on games whose index % 5 != 4; those are held
   out. Writes an eval.toml with [weights] and [source] to --out.

    python -m bench.phase_end_fit --games 400 --seed 1 --out ardsearch/games/stosstruppen/data/phase_end.toml
"""
from __future__ import annotations

import argparse
import sys

import numpy as np

import ardsearch
from ardsearch import logistic
from ardsearch.bots import HeuristicBot

SCENARIOS = ("kaiserschlacht", "villers")
HOLD_OUT_EVERY = 5


def play(game, seed: int):
    """One greedy self-play game: the list of (state copy, phase owner) at
    each card draw that ends a phase, and the final state."""
    bot = HeuristicBot(game, seed=seed)
    s = game.new_initial_state(seed=seed)
    last = -1           # the player of the last decision
    ends = []
    while not s.is_terminal():
        if s.is_chance_node():
            a = s.sample_chance()
            if last >= 0 and s.action_to_string(a).startswith("card:"):
                ends.append((s.clone(), last))
            s.apply_action(a)
        else:
            last = s.current_player()
            a, _ = bot.play(s)
            s.apply_action(a)
    return ends, s


def rows(game, seed: int, target: str):
    """(features, targets) of both sides at every phase end of one game."""
    ends, final = play(game, seed)
    result = [(float(r) + 1.0) / 2.0 for r in final.returns()]
    X, y = [], []
    for i, (s, owner) in enumerate(ends):
        if target == "result":
            t = result
        else:
            # the first later phase end whose phase was the opponent's
            later = next((e for e, o in ends[i + 1:] if o != owner), None)
            t = result if later is None else [(later.evaluate(p) + 1.0) / 2.0 for p in (0, 1)]
        for p in (0, 1):
            X.append(s.features(p))
            y.append(t[p])
    return X, y


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=400, help="games a scenario")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--target", choices=("answer", "result"), default="answer")
    ap.add_argument("--l2", type=float, default=1e-3)
    ap.add_argument("--scenarios", default=",".join(SCENARIOS))
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    X, y, held, scen = [], [], [], []
    names = None
    base = None
    for k, name in enumerate(a.scenarios.split(",")):
        game = ardsearch.load_game(f"stosstruppen(scenario={name})")
        names = game.feature_names
        base = np.array(game.weights, dtype=np.float64)
        for g in range(a.games):
            fx, fy = rows(game, a.seed * 100_003 + g, a.target)
            X += fx
            y += fy
            held += [g % HOLD_OUT_EVERY == HOLD_OUT_EVERY - 1] * len(fx)
            scen += [k] * len(fx)
        print(f"{name}: {a.games} games, {sum(1 for s in scen if s == k) // 2} phase ends", file=sys.stderr)
    X = np.array(X, dtype=np.float64)
    y = np.array(y)
    held = np.array(held)
    scen = np.array(scen)
    w, iters = logistic.fit(X[~held], y[~held], l2=a.l2)
    lines = []
    for k, name in enumerate(a.scenarios.split(",")):
        m = held & (scen == k)
        # the floor: the entropy of the targets themselves (soft targets)
        yy = np.clip(y[m], 1e-12, 1 - 1e-12)
        floor = float(np.mean(-(yy * np.log(yy) + (1 - yy) * np.log(1 - yy))))
        lines.append(f"{name}: held-out log-loss fitted {logistic.log_loss(X[m], y[m], w):.4f}, "
                     f"game's weights {logistic.log_loss(X[m], y[m], base):.4f}, "
                     f"target entropy {floor:.4f} ({int(m.sum())} rows)")
    for line in lines:
        print(line, file=sys.stderr)
    for n, wi, bi in zip(names, w, base):
        print(f"  {n:16s} {wi:9.4f}  (game {bi:.2f})", file=sys.stderr)
    if a.out:
        cmd = (f"python -m bench.phase_end_fit --games {a.games} --seed {a.seed} --target {a.target}"
               + (f" --l2 {a.l2!r}" if a.l2 != 1e-3 else "") + f" --out {a.out}")
        from ardsearch.tuning import render
        source = {"command": cmd,
                  "method": f"logistic fit (ardsearch.logistic, l2 {a.l2!r}) on greedy self-play phase ends, "
                            f"target: {a.target}"}
        source.update({f"held_out_{i}": line for i, line in enumerate(lines)})
        body = render(game, w, source).splitlines()
        # the tuner's header says "the game's evaluation"; this file is not that
        body = body[next(i for i, l in enumerate(body) if not l.startswith("#")):]
        header = ["# Stosstruppen: the value at the end of a phase (MCTS stop_weights), evaluate =",
                  "# tanh(w . features / 2). Written by bench/phase_end_fit.py; not the game's",
                  "# evaluation: only a bot given stop_weights=<this file> reads it, where its",
                  "# rollouts stop before the next card (rollout_stop_prefix=card:)."]
        with open(a.out, "w", encoding="utf-8") as f:
            f.write("\n".join(header + body) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
