"""ardsearch side by side with OpenSpiel, on the same game, seeds and budget.

    python -m bench.openspiel_compare --quick          # a few minutes
    python -m bench.openspiel_compare --pairs 100      # the full strength match (long)

Figures, each measured in this run (nothing is asserted; the machine is shared):

1. MCTS simulations per second from the same position with the same budget
   and the same rollout policy (uniform random playouts to the end, UCT
   c = 1.4, solver on): our MCTS; OpenSpiel's C++ MCTSBot driving our game
   through ardsearch.integrations.openspiel; OpenSpiel's C++ MCTSBot driving
   the pure-Python reference model registered as an OpenSpiel Python game.
2. ISMCTS on hidden-information games: ours against OpenSpiel's ISMCTSBot
   (its Python one: pyspiel's C++ ISMCTSBot cannot resample a Python game's
   information state, which every game outside OpenSpiel's C++ tree is).
3. Expectimax nodes to complete depth d with and without Star2 and the
   transposition table (the values are identical by construction; checked).
4. Scaling: our simulations/s on 1 and 2 threads and against tree size;
   cost of one random-playout ply from early, middle and late positions.
5. Strength at equal wall time per move: the `mcts` preset against
   OpenSpiel's C++ MCTS (random rollouts) in seeded duplicate pairs (same
   seed, seats swapped), Elo with a 95% interval from the pair counts.
   OpenSpiel's MCTS is given the true full state: on hidden-information games
   it sees the opponent's secrets, an edge in its favour. When its time runs
   out before the root is expanded (a long random rollout on a loaded
   machine) it plays a random legal move; such moves are counted.

Each figure is one JSON line on stdout (and in --json FILE for bench/plot.py)
and a row of the closing table.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time

import ardsearch
from ardsearch import _search
from ardsearch.benchmark import Figures, default_games, machine
from ardsearch.match import derive_seed, play_game
from ardsearch.random_walk import random_walk
from ardsearch.stats import elo_from_score, elo_interval, pentanomial_elo, pentanomial_interval

UCT_C = 1.4


def _pyspiel():
    try:
        import pyspiel
    except ImportError:
        sys.exit("this comparison needs OpenSpiel: pip install 'ardsearch[openspiel]'")
    return pyspiel


def first_decision(game, seed=0):
    """The first decision state of seeded game `seed` (chance drawn by the state's RNG)."""
    state = game.new_initial_state(seed=seed)
    while state.is_chance_node():
        state.apply_random_chance()
    return state


def position_after(game, plies, seed=0):
    """A decision state `plies` random events into seeded game `seed` (or the
    last decision state before the end)."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    last = None
    for _ in range(plies):
        if state.is_terminal():
            break
        if not state.is_chance_node():
            last = state.clone()
        random_walk(state, 1, rng)
    while state.is_chance_node():
        state.apply_random_chance()
    return last if state.is_terminal() else state


def replay(os_game, history):
    """The OpenSpiel state reached by the same events as an ardsearch history."""
    state = os_game.new_initial_state()
    for a in history:
        state.apply_action(a)
    return state


def timed_ours(capsule, raw, simulations, min_seconds, **options):
    """Our MCTS on `raw` with this budget, repeated on fresh trees until
    min_seconds have passed: (sims/s, mean rollout plies, searches)."""
    sims = plies = searches = 0
    seconds = 0.0
    while seconds < min_seconds or searches == 0:
        r = _search.MCTS(capsule, seed=searches, **options).search(raw, simulations=simulations)
        sims += r["simulations"]
        seconds += r["time"]
        plies += r["rollout_plies"]
        searches += 1
    return sims / seconds, plies / max(1, sims), searches


def openspiel_mcts_rate(pyspiel, os_game, state, simulations, seed=0):
    """OpenSpiel's C++ MCTSBot on `state`: simulations per second."""
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.MCTSBot(os_game, evaluator, UCT_C, simulations, 4000, True, seed, False)
    t0 = time.perf_counter()
    root = bot.mcts_search(state)  # MCTSBot.step() crashes on Python games in pyspiel 2.0
    seconds = time.perf_counter() - t0
    return root.explore_count / seconds, root.explore_count


# ------------------------------------------------------------------ 1. MCTS speed
def bench_mcts_speed(figs, pyspiel, game, budget, ref_budget, min_seconds):
    from ardsearch.integrations import openspiel as ard_os

    from bench import reference_openspiel
    state = first_decision(game)
    ours, rollout_len, searches = timed_ours(game.capsule, state.raw(), budget, min_seconds,
                                             threads=1, exploration=UCT_C, rollout_depth=-1,
                                             solver=True, ismcts=False)
    figs.add(game.name, "MCTS sims/s: ardsearch (C++ over C engine)", ours, "sims/s",
             budget=budget, searches=searches, mean_rollout_plies=rollout_len)
    os_game = ard_os.load_game(game.name, **game.params)
    adapter, n = openspiel_mcts_rate(pyspiel, os_game, replay(os_game, state.history()), budget)
    figs.add(game.name, "MCTS sims/s: OpenSpiel C++ MCTS over our adapter", adapter, "sims/s",
             budget=n)
    figs.add(game.name, "MCTS speed: ardsearch / OpenSpiel over adapter", ours / adapter, "x",
             target=10)
    ref_game = reference_openspiel.register(game)
    if ref_game is None:
        return
    ref_state = ref_game.new_initial_state()
    reference_openspiel.follow(ref_state.held.s, state)
    ref, n = openspiel_mcts_rate(pyspiel, ref_game, ref_state, ref_budget)
    figs.add(game.name, "MCTS sims/s: OpenSpiel C++ MCTS over Python model", ref, "sims/s",
             budget=n)
    figs.add(game.name, "MCTS speed: ardsearch / OpenSpiel over Python model", ours / ref, "x",
             target=100)


# ------------------------------------------------------------------ 2. ISMCTS speed
def bench_ismcts_speed(figs, pyspiel, game, budget, their_budget, min_seconds):
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    from ardsearch.integrations import openspiel as ard_os
    state = first_decision(game)
    view = state.view(state.current_player())
    ours, _, searches = timed_ours(game.capsule, view.raw(), budget, min_seconds, threads=1,
                                   exploration=UCT_C, rollout_depth=-1, solver=False, ismcts=True)
    figs.add(game.name, "ISMCTS sims/s: ardsearch", ours, "sims/s", budget=budget, searches=searches)
    os_game = ard_os.load_game(game.name, **game.params)
    os_state = replay(os_game, state.history())
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(os_game, evaluator, UCT_C, their_budget,
                           random_state=np.random.RandomState(0))
    t0 = time.perf_counter()
    bot.step(os_state)
    theirs = their_budget / (time.perf_counter() - t0)
    figs.add(game.name, "ISMCTS sims/s: OpenSpiel ISMCTSBot over adapter", theirs, "sims/s",
             budget=their_budget)
    figs.add(game.name, "ISMCTS speed: ardsearch / OpenSpiel", ours / theirs, "x")


# ------------------------------------------------------------------ 3. expectimax
def bench_expectimax(figs, game, max_depth, seconds_cap):
    """Nodes to complete each depth for the four pruning settings, on the
    full state of the first decision (a perfect-information search)."""
    state = first_decision(game)
    raw = state.raw()
    settings = {"plain": (False, False), "star2": (True, False), "tt": (False, True),
                "star2+tt": (True, True)}
    for depth in range(1, max_depth + 1):
        row = {}
        for label, (star2, use_tt) in settings.items():
            e = _search.Expectimax(game.capsule, seed=0, star2=star2, use_tt=use_tt)
            r = e.search(raw, depth=depth, time_limit=seconds_cap)
            if r["depth"] < depth:
                return  # this depth does not fit the time cap: stop here
            row[label] = r
        values = {round(r["value"], 9) for r in row.values()}
        for label, r in row.items():
            figs.add(game.name, f"expectimax nodes to depth {depth} ({label})", r["nodes"], "nodes",
                     depth=depth, setting=label, seconds=r["time"], root_value=r["value"])
        figs.add(game.name, f"expectimax depth {depth}: plain / star2+tt nodes",
                 row["plain"]["nodes"] / max(1, row["star2+tt"]["nodes"]), "x",
                 depth=depth, same_value=len(values) == 1)


# ------------------------------------------------------------------ 4. scaling
def bench_scaling(figs, game, seconds, tree_budgets):
    from bench import reference_openspiel
    state = first_decision(game)
    raw = state.view(state.current_player()).raw() if game.hidden_information else state.raw()
    ismcts = game.hidden_information
    for threads in (1, 2):
        m = _search.MCTS(game.capsule, seed=0, threads=threads, ismcts=ismcts)
        r = m.search(raw, time_limit=seconds)
        figs.add(game.name, f"scaling: MCTS sims/s on {threads} thread(s)", r["nps"], "sims/s",
                 threads=threads, nodes=r["nodes"])
    for budget in tree_budgets:
        m = _search.MCTS(game.capsule, seed=0, threads=1, ismcts=ismcts)
        r = m.search(raw, simulations=budget)
        figs.add(game.name, f"scaling: MCTS sims/s, tree of {budget:,} sims", r["nps"], "sims/s",
                 simulations=budget, nodes=r["nodes"], memory_bytes=r["memory_bytes"])
    # One random-playout ply from early, middle and late positions.
    length = _mean_length(game)
    factory = reference_openspiel.reference_factory(game)
    for label, frac in (("early", 0.0), ("middle", 0.5), ("late", 0.85)):
        pos = position_after(game, int(length * frac), seed=4)
        m = _search.MCTS(game.capsule, seed=0, threads=1, rollout_depth=-1, ismcts=False,
                         solver=False)
        r = m.search(pos.raw(), time_limit=seconds / 2)
        c_ns = 1e9 * r["time"] / max(1, r["rollout_plies"])
        figs.add(game.name, f"playout ns/ply from {label} position (C, in MCTS)", c_ns, "ns/ply",
                 ply=len(pos.history()), mean_rollout_plies=r["mean_rollout_length"])
        py_ns = _python_playout_ns(pos, seconds / 4)
        figs.add(game.name, f"playout ns/ply from {label} position (Python API)", py_ns, "ns/ply",
                 ply=len(pos.history()))
        if factory is not None:
            ref_ns = _reference_playout_ns(reference_openspiel.follow(factory(), pos), seconds / 4)
            figs.add(game.name, f"playout ns/ply from {label} position (Python model)", ref_ns,
                     "ns/ply", ply=len(pos.history()))


def _mean_length(game):
    from ardsearch._core import random_playouts
    n, _ = random_playouts(game, 20, seed=9)
    return n / 20


def _python_playout_ns(pos, seconds):
    rng = random.Random(1)
    plies = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds or plies == 0:
        s = pos.clone()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_random_chance()
            else:
                s.apply_action(rng.choice(s.legal_actions()))
            plies += 1
    return 1e9 * (time.perf_counter() - t0) / max(1, plies)


def _reference_playout_ns(start, seconds):
    rng = random.Random(1)
    plies = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds or plies == 0:
        s = start.clone()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                a = rng.choices([o for o, _ in outcomes], [float(p) for _, p in outcomes])[0]
            else:
                a = rng.choice(s.legal_actions())
            s.apply(a)
            plies += 1
    return 1e9 * (time.perf_counter() - t0) / max(1, plies)


# ------------------------------------------------------------------ 5. strength
class OpenSpielMCTSPlayer:
    """OpenSpiel's C++ MCTSBot (random rollouts) behind the ardsearch bot
    interface that ardsearch.match.play_game drives: a fixed wall time per
    move, the full state (see the module doc)."""

    def __init__(self, pyspiel, game, movetime, seed=0):
        from ardsearch.integrations import openspiel as ard_os
        self.name = "openspiel-mcts"
        self._ard_os = ard_os
        self._game = ard_os.load_game(game.name, **game.params)
        self._bot = pyspiel.MCTSBot(self._game, pyspiel.RandomRolloutEvaluator(1, seed), UCT_C,
                                    1 << 30, 1000, True, seed, False,
                                    pyspiel.ChildSelectionPolicy.UCT, float(movetime))

        self.searches = 0
        self.simulations = 0
        self.unexpanded = 0  # moves whose search ended before a single expansion
        self._rng = random.Random(seed)

    def reset(self):
        pass

    def step(self, state):
        legal = state.legal_actions()
        if len(legal) == 1:  # as our bots do: nothing to think about
            return legal[0]
        root = self._bot.mcts_search(self._ard_os.OpenSpielState(self._game, state.clone()))
        self.searches += 1
        self.simulations += root.explore_count
        best = root.best_child()
        if best is None:  # the time ran out before the root was expanded
            self.unexpanded += 1
            return self._rng.choice(legal)
        return best.action


def match_elo(penta, wins, draws, losses):
    """(elo, low, high) at 95%. From the pair counts normally; when every
    pair scored the same the pentanomial variance is zero and its interval a
    point, so the games' trinomial interval is used; and when every game was
    won (or lost) that too is a point, so the bound comes from the exact
    binomial (Clopper-Pearson): all n won means a score of at least
    0.025 ** (1 / n) with 95% confidence."""
    games = wins + draws + losses
    if games and wins == games:
        return math.inf, elo_from_score(0.025 ** (1.0 / games)), math.inf
    if games and losses == games:
        return -math.inf, -math.inf, -elo_from_score(0.025 ** (1.0 / games))
    if max(penta) == sum(penta):
        return elo_interval(wins, draws, losses)
    return pentanomial_elo(penta)


def bench_strength(figs, pyspiel, game, pairs, movetime, seed=2026, log=sys.stderr, first_pair=0):
    """Our `mcts` preset against OpenSpiel's MCTS at `movetime` seconds a move,
    on pairs first_pair .. first_pair + pairs - 1 (a long match can be split
    over runs whose pair counts `penta` add up)."""
    penta = [0, 0, 0, 0, 0]
    wins = draws = losses = 0
    their_searches = their_sims = their_unexpanded = 0
    t0 = time.perf_counter()
    for i in range(first_pair, first_pair + pairs):
        game_seed = derive_seed(seed, i)
        pair_points = 0.0
        for ours_seat in (0, 1):
            ours = ardsearch.load_bot("mcts", game, seed=derive_seed(seed, i, 1, ours_seat),
                                      time_limit=movetime)
            theirs = OpenSpielMCTSPlayer(pyspiel, game, movetime, seed=i)
            bots = [ours, theirs] if ours_seat == 0 else [theirs, ours]
            record = play_game(game, bots, game_seed)
            their_searches += theirs.searches
            their_sims += theirs.simulations
            their_unexpanded += theirs.unexpanded
            points = record.points(ours_seat)
            pair_points += points
            wins += points == 1.0
            draws += points == 0.5
            losses += points == 0.0
        penta[int(round(pair_points * 2))] += 1
        elapsed = time.perf_counter() - t0
        elo, low, high = match_elo(penta, wins, draws, losses)
        log.write(f"[{game.name}] pair {i + 1}/{first_pair + pairs}: +{wins} ={draws} -{losses}  "
                  f"Elo {elo:+.0f} [{low:+.0f}, {high:+.0f}]  {elapsed:.0f}s\n")
        log.flush()
    elo, low, high = match_elo(penta, wins, draws, losses)
    score = pentanomial_interval(penta).score
    figs.add(game.name, f"strength: mcts vs OpenSpiel MCTS, {movetime:g}s/move (Elo)", elo, "Elo",
             low=low, high=high, pairs=pairs, first_pair=first_pair, wins=wins, draws=draws, losses=losses,
             penta=penta, score=score, movetime=movetime, target=200,
             openspiel_sims_per_move=their_sims / max(1, their_searches),
             openspiel_moves_without_search=their_unexpanded)


# ------------------------------------------------------------------ driver
def side_by_side(figs, game):
    """The quick speed comparison of one game, as a hook for `python -m bench`
    (``extra(figs, game)``); does nothing when OpenSpiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return
    bench_mcts_speed(figs, pyspiel, game, budget=100, ref_budget=100, min_seconds=0.3)
    if game.hidden_information:
        bench_ismcts_speed(figs, pyspiel, game, budget=100, their_budget=100, min_seconds=0.3)


def run(games=None, quick=False, pairs=None, movetime=None, parts=None, out=sys.stdout,
        json_path=None, first_pair=0):
    pyspiel = _pyspiel()
    figs = Figures(out)
    parts = set(parts or ("mcts", "ismcts", "expectimax", "scaling", "strength"))
    budget = 100 if quick else 400  # simulations per search, the same for every searcher
    min_seconds = 0.3 if quick else 1.0
    pairs = (2 if quick else 100) if pairs is None else pairs
    movetime = (0.02 if quick else 0.1) if movetime is None else movetime
    failures = []
    for name in games or default_games():      # Mortain as mortain(setup=historical)
        game = ardsearch.load_game(name)
        steps = [
            ("mcts", lambda: bench_mcts_speed(figs, pyspiel, game, budget, budget, min_seconds)),
            ("ismcts", lambda: game.hidden_information and
             bench_ismcts_speed(figs, pyspiel, game, budget, budget, min_seconds)),
            ("expectimax", lambda: bench_expectimax(figs, game, 3 if quick else 4,
                                                    10.0 if quick else 60.0)),
            ("scaling", lambda: bench_scaling(figs, game, 0.5 if quick else 2.0,
                                              (1_000, 10_000) if quick else (1_000, 10_000, 100_000))),
            ("strength", lambda: pairs > 0 and bench_strength(figs, pyspiel, game, pairs, movetime,
                                                               first_pair=first_pair)),
        ]
        for part, measure in steps:
            if part not in parts:
                continue
            try:
                measure()
            except Exception as e:  # noqa: BLE001 - one game's failure must not hide the others
                failures.append(f"{name} {part}: {type(e).__name__}: {e}")
                sys.stderr.write(f"[{name}] {part} failed: {type(e).__name__}: {e}\n")
    if json_path:
        with open(json_path, "w") as f:
            for row in figs.rows:
                f.write(json.dumps(row) + "\n")
    figs.failures = failures
    return figs


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.openspiel_compare", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("games", nargs="*", help="games (default: all; Stand at Mortain as "
                                            "'mortain(setup=historical)', the contract's benchmark setup)")
    p.add_argument("--quick", action="store_true", help="small budgets and 2 pairs: a few minutes")
    p.add_argument("--pairs", type=int,
                   help="duplicate pairs in the strength match (default 100; 2 with --quick)")
    p.add_argument("--first-pair", type=int, default=0, metavar="N",
                   help="start the strength match at pair N (to split a long match over runs)")
    p.add_argument("--movetime", type=float,
                   help="seconds per move in the strength match (default 0.1; 0.02 with --quick)")
    p.add_argument("--only", action="append", choices=("mcts", "ismcts", "expectimax", "scaling", "strength"),
                   help="measure only these parts (repeatable)")
    p.add_argument("--json", metavar="FILE", help="also write the figures as JSON lines (for bench/plot.py)")
    args = p.parse_args(argv)
    for g in args.games:
        if g.split("(")[0].strip() not in ardsearch.list_games():
            p.error(f"unknown game {g!r} (available: {', '.join(ardsearch.list_games())})")
    if args.first_pair < 0:
        p.error(f"--first-pair must be 0 or more, not {args.first_pair}")
    figs = run(args.games, args.quick, args.pairs, args.movetime, args.only, json_path=args.json,
               first_pair=args.first_pair)
    print(f"\nardsearch {ardsearch.__version__} vs OpenSpiel {_openspiel_version()} on {machine()}, "
          f"{time.strftime('%Y-%m-%d')}")
    print(figs.table())
    for failure in figs.failures:
        print(f"FAILED {failure}")
    return 1 if figs.failures else 0


def _openspiel_version():
    try:
        from importlib.metadata import version
        return version("open_spiel")
    except Exception:  # noqa: BLE001 - a label only
        return "?"


if __name__ == "__main__":
    sys.exit(main())
