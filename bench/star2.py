"""Expectimax node counts with and without Star2 and the transposition table.

    python -m bench.star2 'mortain(setup=historical)' 3            # all four settings, depth 3
    python -m bench.star2 'mortain(setup=historical)' 3 star2+tt,tt

GAME is a name or a game with parameters as load_game reads it; the figures
of bench/README.md are Stand at Mortain's historical setup, the contract's
"default for search benchmarks" (a bare `mortain` is the US setup phase).

Positions: 8 mid-game states from seeded random play (game k starts from
new_initial_state(seed=7+k) and plays a random 25..140 actions, then chance
until a decision). Node counts are exact and reproducible; times are not.
The root values must agree across settings: Star2 and the table only prune.
"""
import random
import sys

import ardsearch
from ardsearch import _search
from ardsearch.random_walk import random_walk

SETTINGS = {"plain": (False, False), "star2": (True, False), "tt": (False, True),
            "star2+tt": (True, True)}


def positions(game, n=8, seed=7, plies=(25, 140)):
    rng = random.Random(seed)
    out, k = [], 0
    while len(out) < n:
        state = game.new_initial_state(seed=seed + k)
        k += 1
        random_walk(state, rng.randint(*plies), rng)
        while state.is_chance_node():
            state.apply_random_chance()
        if not state.is_terminal():
            out.append(state)
    return out


def count(game, states, depth, star2, use_tt, cap=120.0):
    """(nodes, seconds, root values) summed over states; None if a search hit the cap."""
    nodes, seconds, values = 0, 0.0, []
    for s in states:
        raw = s.view(s.current_player()).raw() if game.hidden_information else s.raw()
        r = _search.Expectimax(game.capsule, seed=0, star2=star2, use_tt=use_tt).search(
            raw, depth=depth, time_limit=cap)
        if r["depth"] < depth:
            return None
        nodes += r["nodes"]
        seconds += r["time"]
        values.append(round(r["value"], 9))
    return nodes, seconds, values


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    game = ardsearch.load_game(argv[0])
    depth = int(argv[1])
    chosen = argv[2].split(",") if len(argv) > 2 else list(SETTINGS)
    states = positions(game)
    seen = set()
    for label in chosen:
        result = count(game, states, depth, *SETTINGS[label])
        if result is None:
            print(f"{game.name} depth {depth} {label:9s} did not finish within the cap")
            continue
        nodes, seconds, values = result
        seen.add(tuple(values))
        print(f"{game.name} depth {depth} {label:9s} nodes {nodes:>13,d}  time {seconds:7.2f} s")
    print("root values agree across settings:", len(seen) <= 1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
