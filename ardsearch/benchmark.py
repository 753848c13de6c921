"""Speed figures of every game and search (`ardsearch bench`, `python -m bench`).

Each figure is measured in this run and printed twice: as a row of a table
for people and as one JSON line for tools. Machines here are noisy, so
comparisons are ratios measured in the same run; nothing here is asserted.
"""
from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time

import ardsearch
from ardsearch._core import random_playouts


class Figures:
    """Collects figures; prints each as a JSON line as it is measured."""

    def __init__(self, out=sys.stdout, json_lines=True):
        self.rows = []
        self.out = out
        self.json_lines = json_lines

    def add(self, game, name, value, unit, **extra):
        row = {"game": game, "figure": name, "value": value, "unit": unit, **extra}
        self.rows.append(row)
        if self.json_lines:
            self.out.write(json.dumps(row) + "\n")
            self.out.flush()

    def table(self):
        lines = [f"{'game':<14}{'figure':<44}{'value':>16}  unit", "-" * 84]
        for r in self.rows:
            v = r["value"]
            text = f"{v:,.0f}" if isinstance(v, (int, float)) and abs(v) >= 100 else f"{v:.3g}"
            lines.append(f"{r['game']:<14}{r['figure']:<44}{text:>16}  {r['unit']}")
        return "\n".join(lines)


def python_api_playouts(game, games, seed):
    """Random playouts driven from Python through the public State API."""
    rng = random.Random(seed)
    actions = 0
    t0 = time.perf_counter()
    for k in range(games):
        state = game.new_initial_state(seed=seed + k)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_random_chance()
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    return actions, time.perf_counter() - t0


def bench_playouts(figs, game, seconds):
    # calibrate on a few games, then run for about `seconds`
    n, t = random_playouts(game, 20, seed=1)
    games = max(20, int(20 * seconds / max(t, 1e-6)))
    n, t = random_playouts(game, games, seed=2)
    figs.add(game.name, "random playout actions/s (C vtable)", n / t, "actions/s",
             games=games, mean_length=n / games)
    n2, t2 = python_api_playouts(game, max(2, games // 200), seed=3)
    figs.add(game.name, "random playout actions/s (Python API)", n2 / t2, "actions/s")
    return n / games


def first_decision(game, seed=0):
    state = game.new_initial_state(seed=seed)
    while state.is_chance_node():
        state.apply_random_chance()
    return state


def bench_mcts(figs, game, seconds, mean_length):
    from ardsearch import _search
    state = first_decision(game)
    raw = state.view(state.current_player()).raw() if game.hidden_information else state.raw()
    per_thread = {}
    for threads in (1, 2):
        m = _search.MCTS(game.capsule, seed=0, threads=threads, ismcts=game.hidden_information)
        info = m.search(raw, simulations=None, time_limit=seconds)
        sims = info["simulations"] / info["time"]
        per_thread[threads] = sims
        figs.add(game.name, f"MCTS simulations/s ({threads} thread{'s' * (threads > 1)})",
                 sims, "sims/s", nodes=info["nodes"])
        if threads == 1:
            plies = info.get("rollout_plies")
            rate = plies / info["time"] if plies else sims * mean_length
            figs.add(game.name, "MCTS rollout plies/s (1 thread)", rate, "plies/s")
    figs.add(game.name, "MCTS 2-thread speed-up", per_thread[2] / per_thread[1], "x")
    if hasattr(_search, "NODE_SIZE"):
        figs.add(game.name, "bytes per search node", _search.NODE_SIZE, "bytes")


def bench_expectimax(figs, game, seconds):
    from ardsearch import _search
    state = first_decision(game)
    raw = state.view(state.current_player()).raw() if game.hidden_information else state.raw()
    e = _search.Expectimax(game.capsule, seed=0)
    info = e.search(raw, time_limit=seconds)
    figs.add(game.name, "expectimax nodes/s", info["nodes"] / max(info["time"], 1e-9), "nodes/s",
             depth=info["depth"])


# The game each name stands for when no game is named: search benchmarks play
# Stand at Mortain with the historical US setup (its rules contract: "Parameter
# `setup=historical` uses a fixed setup from the scenario file instead ...,
# which is the default for search benchmarks"); the game's own default is the
# US setup phase. Until session 41 `mortain` alone meant this game.
BENCH_GAMES = {"mortain": "mortain(setup=historical)"}


def default_games() -> list[str]:
    """Every game, as search benchmarks measure it (BENCH_GAMES)."""
    return [BENCH_GAMES.get(name, name) for name in ardsearch.list_games()]


def run(games=None, seconds=1.0, search=True, out=sys.stdout, json_lines=True, extra=None, params=None):
    """Measures every figure for `games` (default_games() by default: every
    game, Mortain as `mortain(setup=historical)`), each loaded with `params`
    (e.g. a scenario); returns the Figures."""
    figs = Figures(out, json_lines)
    for name in games or default_games():
        game = ardsearch.load_game(name, **(params or {}))
        mean_length = bench_playouts(figs, game, seconds)
        if extra:
            extra(figs, game)
        if search:
            bench_mcts(figs, game, seconds, mean_length)
            bench_expectimax(figs, game, seconds)
    return figs


def machine():
    return f"{platform.machine()}, {platform.system()}, Python {platform.python_version()}"


def main(argv=None, extra=None):
    p = argparse.ArgumentParser(prog="ardsearch bench", description=__doc__)
    p.add_argument("games", nargs="*", help="games to measure (default: all, Stand at Mortain as "
                                            "'mortain(setup=historical)'); a game with parameters as "
                                            "load_game reads it, e.g. 'microarmour(scenario=airstrike)' (its rows "
                                            "carry the game's name)")
    p.add_argument("--seconds", type=float, default=1.0, help="time per figure (default 1)")
    p.add_argument("--no-search", action="store_true", help="playouts only")
    p.add_argument("--no-json", action="store_true", help="the table only")
    p.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                   help="a game parameter for every game measured (e.g. scenario=barrage); repeatable")
    args = p.parse_args(argv)
    params = {}
    for kv in args.param:
        k, sep, v = kv.partition("=")
        if not sep:
            p.error(f"--param: expected KEY=VALUE, got {kv!r}")
        params[k] = {"true": True, "false": False}.get(v, int(v) if v.lstrip("-").isdigit() else v)
    for g in args.games:
        if g.split("(")[0].strip() not in ardsearch.list_games():
            p.error(f"unknown game {g!r} (available: {', '.join(ardsearch.list_games())})")
    figs = run(args.games, args.seconds, not args.no_search, json_lines=not args.no_json, extra=extra,
               params=params)
    print(f"\nardsearch {ardsearch.__version__} on {machine()}, {time.strftime('%Y-%m-%d')}")
    print(figs.table())
    return 0
