"""Where a search's root choice parts from one-ply greedy (issue 15: "no game
where search is no better than one ply").

    python -m bench.root_probe 'stosstruppen(scenario=villers)' --games 3 --every 7 \
        --sims 1000 --mcts '{"rollout_depth": 0, "normalize": true, "exploration": 0.5}'

Plays `--games` greedy self-play games (seeded), keeps every `--every`-th
decision with more than one legal move, and searches each kept position with
ardsearch._search.MCTS(**the --mcts JSON). Per position it compares the
search's move with the evaluation of every legal move one ply deep (what
greedy plays): the regret (best one-ply value minus that of the searched
move), how often the search passed ("done") where greedy rated a move
higher, and (--show N) the root statistics of the first N positions: visits,
tree mean and one-ply value of the most visited moves. A search whose most
visited move's tree mean sits far above its one-ply value is reading the
evaluation's drift along the deeper line, not a better move
(bench/README.md, "Stosstruppen: progressive widening")."""
from __future__ import annotations

import argparse
import json
import random
import time

import ardsearch
from ardsearch import _search


def one_ply(state):
    """The mover's evaluate() after each legal move (a finished game: its result)."""
    me = state.current_player()
    out = {}
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        out[a] = child.returns()[me] if child.is_terminal() else child.evaluate(me)
    return out


def positions(game, games, every, seed):
    """Decision states with a choice, from greedy self-play games."""
    kept = []
    for gi in range(games):
        s = game.new_initial_state()
        bots = [ardsearch.load_bot("greedy", game, seed=seed + gi), ardsearch.load_bot("greedy", game, seed=seed + gi + 1000)]
        rng = random.Random(seed + gi)
        n = 0
        while not s.is_terminal():
            if s.is_chance_node():
                acts, probs = zip(*s.chance_outcomes())
                s.apply_action(rng.choices(acts, probs)[0])
                continue
            moves = s.legal_actions()
            if len(moves) > 1:
                n += 1
                if n % every == 0:
                    kept.append(s.clone())
            s.apply_action(bots[s.current_player()].play(s)[0] if len(moves) > 1 else moves[0])
    return kept


def position_args(doc, games, every):
    """An argument parser with the options of positions(): the game, how many
    greedy self-play games, every how many decisions a position is kept, the seed
    (shared by the probes that sample positions this way)."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--games", type=int, default=games)
    ap.add_argument("--every", type=int, default=every)
    ap.add_argument("--seed", type=int, default=0)
    return ap


def main(argv=None):
    ap = position_args(__doc__, games=3, every=7)
    ap.add_argument("--sims", type=int, default=1000)
    ap.add_argument("--mcts", default='{"rollout_depth": 0, "normalize": true}', help="MCTS keyword arguments (JSON)")
    ap.add_argument("--show", type=int, default=0, help="print the root statistics of the first N positions")
    args = ap.parse_args(argv)
    game = ardsearch.load_game(args.game)
    cfg = json.loads(args.mcts)
    kept = positions(game, args.games, args.every, args.seed)
    regret = 0.0
    agree = passes = 0
    t0 = time.time()
    for i, s in enumerate(kept):
        values = one_ply(s)
        mcts = _search.MCTS(game.capsule, seed=1, **cfg)
        r = mcts.search(s.raw(), simulations=args.sims)
        top = max(values.values())
        lost = top - values[r["best"]]
        regret += lost
        agree += lost < 1e-9
        passes += r["best_notation"] == "done" and lost > 1e-9
        if i < args.show:
            print(f"-- {len(values)} moves, player {s.current_player()}: searched {r['best_notation']}, "
                  f"one-ply best {top:+.4f}")
            stats = sorted(zip(r["actions"], r["visits"], r["values"]), key=lambda x: -x[1])[:6]
            for a, v, m in stats:
                print(f"   {s.action_to_string(a):10s} visits {v:5d}  tree mean {m:+.4f}  one-ply {values[a]:+.4f}")
    n = max(1, len(kept))
    print(f"{args.game} {cfg} sims={args.sims}: {len(kept)} positions, mean regret {regret / n:.4f}, "
          f"one-ply best {agree}/{len(kept)}, 'done' below a better move {passes}, {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
