"""How much a search's root choice is noise: the same positions searched with
several seeds (issue 15: "no game where search is no better than one ply").

    python -m bench.search_stability 'stosstruppen(scenario=villers)' --games 2 --every 9 --seeds 4 \
        --sims 1000 --mcts '{"chance_expectation": true}'

Positions as bench.root_probe (greedy self-play, every `--every`-th decision
with a choice); each is searched with `--seeds` seeds by
ardsearch._search.MCTS with the game's `mcts` preset's settings updated by
the --mcts JSON. Prints, over the positions: how often two seeds pick the
same move (agreement), the mean one-ply regret of the searched moves (the
best one-ply value minus the searched move's), and how often the search
played greedy's own move."""
from __future__ import annotations

import itertools
import json
import time

import ardsearch
from ardsearch import _search
from ardsearch.bots import search_shape
from bench.root_probe import one_ply, position_args, positions


def main(argv=None):
    ap = position_args(__doc__, games=2, every=9)
    ap.add_argument("--seeds", type=int, default=4)
    ap.add_argument("--sims", type=int, default=1000)
    ap.add_argument("--mcts", default="{}", help="settings over the mcts preset's (JSON)")
    args = ap.parse_args(argv)
    game = ardsearch.load_game(args.game)
    cfg = {**search_shape("mcts", game), **json.loads(args.mcts)}
    kept = positions(game, args.games, args.every, args.seed)
    same = pairs = greedy_move = searches = 0
    regret = 0.0
    t0 = time.process_time()
    for s in kept:
        values = one_ply(s)
        top = max(values.values())
        picks = []
        for k in range(args.seeds):
            r = _search.MCTS(game.capsule, seed=k + 1, ismcts=False, **cfg).search(s.raw(), simulations=args.sims)
            picks.append(r["best"])
            regret += top - values[r["best"]]
            greedy_move += top - values[r["best"]] < 1e-9
            searches += 1
        for a, b in itertools.combinations(picks, 2):
            same += a == b
            pairs += 1
    print(f"{args.game} {json.loads(args.mcts)} sims={args.sims}: {len(kept)} positions x {args.seeds} seeds; "
          f"two seeds agree {same}/{pairs} ({same / max(1, pairs):.0%}); mean regret "
          f"{regret / max(1, searches):.4f}; greedy's move {greedy_move}/{searches}; "
          f"{time.process_time() - t0:.0f} s CPU")


if __name__ == "__main__":
    main()
