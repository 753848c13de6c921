"""`python -m bench.transpositions GAME [--positions N] [--depth D] [--width K] [--seed S] [--greedy]`:
how often short runs of one side's moves reach the same position by
different orders (transpositions), a lead for a search that shares
statistics between them.

From each position (seeded random walks, or with --greedy the positions of
two seeded greedy games, as bench/search_cpu.py takes them) it plays every
sequence of D decisions of the side to move, the first K legal moves at
each step, that stays that side's without a chance event between, and
counts the sequences and the distinct positions (State.hash()) they end
in. The ratio sequences / distinct is 1 where every order leads somewhere
new, and the number of orders a position is reached by on average where
moves commute (moving stand A then B, or B then A). A tree search without
a transposition table stores and searches each of those orders apart.
"""
from __future__ import annotations

import argparse

import ardsearch
from bench.search_cpu import greedy_positions, positions


def sequences(state, player: int, depth: int, width: int, out: list) -> int:
    """Appends the hash of every end of a `depth`-move run of `player`'s
    decisions from `state` to `out`; returns how many were appended."""
    if depth == 0:
        out.append(state.hash())
        return 1
    n = 0
    for a in state.legal_actions()[:width]:
        child = state.clone()
        child.apply_action(a)
        if child.is_terminal() or child.is_chance_node() or child.current_player() != player:
            continue
        n += sequences(child, player, depth - 1, width, out)
    return n


def count(states, depth: int, width: int) -> dict:
    """Sequences and distinct end positions, summed over the positions that have any."""
    total = distinct = used = 0
    for st in states:
        ends: list = []
        if sequences(st, st.current_player(), depth, width, ends):
            used += 1
            total += len(ends)
            distinct += len(set(ends))
    return {"positions": used, "sequences": total, "distinct": distinct,
            "ratio": total / distinct if distinct else float("nan")}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.transpositions", description=__doc__.split("\n\n")[0])
    ap.add_argument("game", help="a game name or a game with parameters, e.g. microarmour or "
                                 "'mortain(setup=historical)' (the search benchmarks' Mortain)")
    ap.add_argument("--positions", type=int, default=40, help="positions to start from (default 40)")
    ap.add_argument("--depth", type=int, default=2, help="decisions in a run (default 2)")
    ap.add_argument("--width", type=int, default=30, help="legal moves tried at each step (default 30)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the positions (default 1)")
    ap.add_argument("--greedy", action="store_true", help="positions from two seeded greedy games")
    args = ap.parse_args(argv)
    if args.depth < 1 or args.width < 1 or args.positions < 1:
        ap.error("--depth, --width and --positions must be at least 1")
    game = ardsearch.load_game(args.game)
    states = (greedy_positions(game, args.positions, args.seed) if args.greedy
              else positions(game, args.positions, args.seed))
    r = count(states, args.depth, args.width)
    print(f"{args.game}: {r['positions']} of {len(states)} positions have a {args.depth}-move run; "
          f"{r['sequences']} sequences end in {r['distinct']} distinct positions, "
          f"{r['ratio']:.2f} orders a position")


if __name__ == "__main__":
    main()
