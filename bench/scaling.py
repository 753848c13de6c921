"""Strength against thinking time: Elo of a bot at each time a move.

    python -m bench.scaling <game> [--bot mcts] [--times 0.01 0.03 0.1 0.3 1] [--pairs N ...]
    python -m bench.scaling --plot bench/scaling.png [--results bench/results/scaling.jsonl]
    python -m bench.scaling --table [bench/results/scaling.jsonl]

The bot searches with no simulation cap (simulations=0) and time_limit = t
seconds a move. Each time plays seeded duplicate pairs against the time
below it, and the Elo of every time is chained from the shortest one (= 0),
as the ladder does (bench/ladder.py). Strength must keep rising with time:
every step's Elo should be above 0. These are time-limited searches, so the
figures depend on the machine and its load: the `uptime` load is recorded
with every run (`--results` appends one JSON line per step), and `--plot`
draws every game's curve found there.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

from bench.ladder import _num, chain, step_of
from bench.pairs import label, parse_spec, play_match

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "scaling.jsonl"
TIMES = (0.01, 0.03, 0.1, 0.3, 1.0)


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f}, {five:.2f}, {fifteen:.2f}"


def timed(bot: str, seconds: float, rate: float | None = None):
    """The bot at `seconds` a move: time-limited, or with `rate` (simulations
    per CPU second) a budget of round(seconds * rate) simulations, which
    gives the same games on any machine at any load."""
    preset, settings = parse_spec(bot)
    if rate:
        return preset, {**settings, "simulations": max(1, round(seconds * rate)), "time_limit": 0}
    return preset, {**settings, "simulations": 0, "time_limit": seconds}


def cpu_rate(game_text: str, bot: str, seed: int = 1) -> float:
    """The bot's simulations per CPU second of this process, over a few
    searches along a seeded random game's first decisions (CPU time, not
    wall time, so other jobs on the machine hardly change it)."""
    import ardsearch
    game = ardsearch.load_game(game_text)
    preset, settings = parse_spec(bot)
    b = ardsearch.load_bot(preset, game, seed=seed, **{**settings, "simulations": 20000, "time_limit": 0})
    rnd = ardsearch.load_bot("random", game, seed=seed)
    s = game.new_initial_state(seed=seed)
    sims, cpu = 0, 0.0
    while not s.is_terminal() and sims < 100000:
        if s.is_chance_node():
            s.apply_random_chance()
            continue
        if len(s.legal_actions()) > 1:
            b.reset()
            t0 = time.process_time()
            info = b.analyze(s)
            cpu += time.process_time() - t0
            sims += int(info.get("nodes") or 0)
        s.apply_action(rnd.step(s))
    return sims / cpu if cpu > 0 else 0.0


def run(argv) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.scaling", description=__doc__.split("\n\n")[0])
    p.add_argument("game")
    p.add_argument("--bot", default="mcts", help="preset[:key=value,...] (default mcts, the strongest level)")
    p.add_argument("--times", nargs="+", type=float, default=list(TIMES))
    p.add_argument("--pairs", nargs="+", type=int, default=[6],
                   help="duplicate pairs per step: one count or one per step from the shortest time")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--results", default=str(RESULTS), help="append each step here (JSON lines)")
    p.add_argument("--rate", default=None,
                   help="simulations per CPU second: search round(t * rate) simulations instead of t "
                        "seconds (reproducible at any load); 'auto' measures it first and prints it")
    args = p.parse_args(argv)
    rate = None
    if args.rate == "auto":
        rate = round(cpu_rate(args.game, args.bot))
        print(f"rate: {rate} simulations per CPU second (give --rate {rate} to repeat these games)",
              file=sys.stderr, flush=True)
        argv = [a if a != "auto" else str(rate) for a in argv]
    elif args.rate is not None:
        rate = float(args.rate)
    times = sorted(args.times)
    nsteps = len(times) - 1
    if nsteps < 1:
        p.error("--times needs at least two times")
    if len(args.pairs) not in (1, nsteps):
        p.error(f"--pairs takes one count or {nsteps} (one per step), got {len(args.pairs)}")
    counts = args.pairs * nsteps if len(args.pairs) == 1 else args.pairs
    command = "python -m bench.scaling " + " ".join(argv)
    steps = []
    for i in range(nsteps):
        lo, hi = timed(args.bot, times[i], rate), timed(args.bot, times[i + 1], rate)
        before = load()
        t0 = time.perf_counter()
        m = play_match(args.game, hi, lo, counts[i], args.seed)
        m.a, m.b = f"{times[i + 1]:g}s", f"{times[i]:g}s"
        s = step_of(m)
        steps.append(s)
        row = {"game": args.game, "bot": args.bot, "rate": rate, "upper": times[i + 1], "lower": times[i],
               "pairs": counts[i], "points": s.points, "games": s.games, "elo": s.elo, "low": s.low,
               "high": s.high, "seed": args.seed, "load_before": before, "load_after": load(),
               "seconds": round(time.perf_counter() - t0, 1), "command": command,
               "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
        with open(args.results, "a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")
        print(f"{s.upper} over {s.lower}: {s.points:g}/{s.games}, Elo {_num(s.elo)} [{_num(s.low)}, "
              f"{_num(s.high)}] (load {before} -> {row['load_after']})", file=sys.stderr, flush=True)
    rungs = chain(f"{times[0]:g}s", steps)
    print(f"`{command}`\n")
    print(f"| time a move | games | step Elo [95%] | Elo vs {times[0]:g} s [95%] |")
    print("|---|---:|---|---|")
    print(f"| {times[0]:g} s | | | 0 |")
    for t, s, r in zip(times[1:], steps, rungs[1:]):
        print(f"| {t:g} s | {s.games} | {_num(s.elo)} [{_num(s.low)}, {_num(s.high)}] | "
              f"{'>=' if r.bound else ''}{r.elo:.0f} [{_num(r.low)}, {_num(r.high)}] |")
    return 0


def curves(path) -> dict:
    """game -> [(seconds, chained Elo, low, high)] from the newest run of each step."""
    rows = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            rows[(f"{r['game']} ({'simulations at ' + str(round(r['rate'])) + '/CPU s' if r.get('rate') else 'wall time'})",
                  r["lower"], r["upper"])] = r
    from bench.ladder import Step
    out = {}
    for game in sorted({g for g, _, _ in rows}):
        mine = sorted((v for (g, _, _), v in rows.items() if g == game), key=lambda r: r["lower"])
        # only a connected chain from the shortest time
        chainable = [mine[0]] if mine else []
        for r in mine[1:]:
            if r["lower"] == chainable[-1]["upper"]:
                chainable.append(r)
        steps = [Step(str(r["upper"]), str(r["lower"]), r["points"], r["games"], r["elo"], r["low"], r["high"])
                 for r in chainable]
        rungs = chain(str(chainable[0]["lower"]), steps)
        xs = [chainable[0]["lower"]] + [r["upper"] for r in chainable]
        out[game] = [(x, g.elo, g.low, g.high) for x, g in zip(xs, rungs)]
    return out


def plot(path, out) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(10, 4.5))
    for game, pts in curves(path).items():
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        lo = [p[1] - p[2] if math.isfinite(p[2]) else 0 for p in pts]
        hi = [p[3] - p[1] if math.isfinite(p[3]) else 0 for p in pts]
        ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", capsize=3, label=game,
                    linestyle="--" if "wall time" in game else "-", alpha=0.6 if "wall time" in game else 1.0)
    ax.set_xscale("log")
    ax.set_xlabel("seconds a move (mcts preset, one thread): simulation budget at the CPU rate (solid), "
                  "wall time (dashed)", fontsize=8)
    ax.set_ylabel("Elo over the shortest time (95% interval)")
    ax.set_title("Strength against time a move (python -m bench.scaling)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def markdown(path) -> str:
    """Every game's chained Elo by time a move from the results file, one row per game and budget kind."""
    data = curves(path)
    times = sorted({p[0] for pts in data.values() for p in pts})
    lines = ["| game (budget) | " + " | ".join(f"{t:g} s" for t in times) + " |",
             "|---|" + "---|" * len(times)]
    for game, pts in data.items():
        cell = {p[0]: ("0" if p[0] == pts[0][0] else f"{p[1]:+.0f} [{_num(p[2])}, {_num(p[3])}]") for p in pts}
        lines.append(f"| {game} | " + " | ".join(cell.get(t, "") for t in times) + " |")
    return "\n".join(lines)


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--table"]:
        print(markdown(argv[1] if len(argv) > 1 else RESULTS))
        return 0
    if argv[:1] == ["--plot"]:
        p = argparse.ArgumentParser(prog="python -m bench.scaling --plot")
        p.add_argument("--plot", required=True)
        p.add_argument("--results", default=str(RESULTS))
        a = p.parse_args(argv)
        plot(a.results, a.plot)
        print(f"wrote {a.plot}")
        return 0
    return run(argv)


if __name__ == "__main__":
    sys.exit(main())
