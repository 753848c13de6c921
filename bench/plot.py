"""PNG charts of benchmark figures, to sit beside bench/README.md.

    python -m bench.openspiel_compare --json bench/openspiel_figures.jsonl
    python -m bench.plot bench/openspiel_figures.jsonl            # writes bench/*.png

Input: JSON lines as printed by `python -m bench` / `ardsearch bench` and
bench.openspiel_compare (one object per figure: game, figure, value, unit,
extras). Each chart is drawn only when its figures are present, one panel
per game:

- openspiel_mcts_speed.png: simulations per second, ardsearch against
  OpenSpiel's MCTS over our adapter and over the Python model (log scale);
- openspiel_expectimax_nodes.png: expectimax nodes to each depth for the
  four pruning settings (log scale);
- openspiel_scaling.png: our simulations/s against threads and tree size,
  and the cost of a random-playout ply early, middle and late in a game;
- openspiel_strength.png: Elo of the mcts preset against OpenSpiel's MCTS
  with its 95% interval.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))


def read_rows(paths):
    rows = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line.startswith("{"):
                    continue  # tables and progress lines may be mixed in
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as e:
                    raise SystemExit(f"{path}:{n}: not a JSON figure ({e})") from None
    return rows


def by_game(rows, predicate):
    out = defaultdict(list)
    for r in rows:
        if predicate(r):
            out[r["game"]].append(r)
    return out


def _panels(plt, count, width=5.0, height=3.6, per_row=3):
    """A grid of `count` panels, `per_row` a row; unused cells are hidden."""
    cols = min(count, per_row)
    rows = math.ceil(count / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(width * cols, height * rows), squeeze=False)
    flat = [ax for row in axes for ax in row]
    for ax in flat[count:]:
        ax.set_visible(False)
    return fig, flat[:count]


def _label_bars(ax, bars, fmt):
    for b in bars:
        ax.annotate(fmt(b.get_height()), (b.get_x() + b.get_width() / 2, b.get_height()),
                    ha="center", va="bottom", fontsize=8)


def plot_mcts_speed(plt, rows, out_dir):
    labels = {"MCTS sims/s: ardsearch (C++ over C engine)": "ardsearch MCTS",
              "MCTS sims/s: OpenSpiel C++ MCTS over our adapter": "OpenSpiel MCTS\nover adapter",
              "MCTS sims/s: OpenSpiel C++ MCTS over Python model": "OpenSpiel MCTS\nover Python model",
              "ISMCTS sims/s: ardsearch": "ardsearch ISMCTS",
              "ISMCTS sims/s: OpenSpiel ISMCTSBot over adapter": "OpenSpiel ISMCTS\nover adapter"}
    games = by_game(rows, lambda r: r["figure"] in labels)
    if not games:
        return None
    fig, axes = _panels(plt, len(games), width=7.0)
    for ax, (game, rs) in zip(axes, sorted(games.items())):
        names = [labels[r["figure"]] for r in rs]
        values = [r["value"] for r in rs]
        colors = ["tab:blue" if n.startswith("ardsearch") else "tab:gray" for n in names]
        bars = ax.bar(range(len(rs)), values, color=colors)
        ax.set_xticks(range(len(rs)), names, fontsize=7)
        ax.set_yscale("log")
        ax.set_ylim(bottom=1)  # bars from 1 sim/s, so heights compare across panels
        ax.set_ylabel("simulations / second (log)")
        ax.set_title(f"{game}: search speed, same position and budget", fontsize=10)
        _label_bars(ax, bars, lambda v: f"{v:,.0f}")
    return _save(plt, fig, out_dir, "openspiel_mcts_speed.png")


def plot_expectimax(plt, rows, out_dir):
    games = by_game(rows, lambda r: r["figure"].startswith("expectimax nodes to depth"))
    if not games:
        return None
    fig, axes = _panels(plt, len(games))
    for ax, (game, rs) in zip(axes, sorted(games.items())):
        series = defaultdict(dict)
        for r in rs:
            series[r["setting"]][r["depth"]] = r["value"]
        styles = (("o", "-"), ("s", "--"), ("^", ":"), ("x", "-."))  # equal counts overlap
        for (setting, points), (marker, line) in zip(series.items(), styles):
            depths = sorted(points)
            ax.plot(depths, [points[d] for d in depths], marker=marker, linestyle=line,
                    label=setting, markersize=8 if marker == "x" else 6)
        ax.set_xticks(sorted({d for points in series.values() for d in points}))
        ax.set_yscale("log")
        ax.set_xlabel("depth (decision plies)")
        ax.set_ylabel("nodes to complete the depth (log)")
        ax.set_title(f"{game}: expectimax pruning")
        ax.legend(fontsize=8)
    return _save(plt, fig, out_dir, "openspiel_expectimax_nodes.png")


def plot_scaling(plt, rows, out_dir):
    games = by_game(rows, lambda r: r["figure"].startswith(("scaling:", "playout ns/ply")))
    if not games:
        return None
    fig, axes = plt.subplots(len(games), 3, figsize=(15, 3.6 * len(games)), squeeze=False)
    for row_axes, (game, rs) in zip(axes, sorted(games.items())):
        threads = [r for r in rs if "thread" in r["figure"]]
        trees = [r for r in rs if "tree of" in r["figure"]]
        plies = [r for r in rs if r["figure"].startswith("playout ns/ply")]
        ax = row_axes[0]
        if threads:
            bars = ax.bar([str(r["threads"]) for r in threads], [r["value"] for r in threads])
            _label_bars(ax, bars, lambda v: f"{v:,.0f}")
        ax.set_xlabel("threads")
        ax.set_ylabel("simulations / second")
        ax.set_title(f"{game}: MCTS threads")
        ax = row_axes[1]
        if trees:
            ax.plot([r["simulations"] for r in trees], [r["value"] for r in trees], marker="o")
            ax.set_xscale("log")
            ax.set_ylim(bottom=0)  # from zero: a loaded machine's wobble should look small
        ax.set_xlabel("simulations in the tree (log)")
        ax.set_ylabel("simulations / second")
        ax.set_title(f"{game}: MCTS speed against tree size")
        ax = row_axes[2]
        kinds = ("C, in MCTS", "Python API", "Python model")
        phases = ("early", "middle", "late")
        width = 0.27
        for k, kind in enumerate(kinds):
            values = []
            for phase in phases:
                match = [r["value"] for r in plies if f"{phase} position ({kind})" in r["figure"]]
                values.append(match[0] if match else math.nan)
            if any(not math.isnan(v) for v in values):
                ax.bar([i + (k - 1) * width for i in range(len(phases))], values, width, label=kind)
        ax.set_xticks(range(len(phases)), phases)
        ax.set_yscale("log")
        ax.set_ylim(bottom=10)
        ax.set_ylabel("ns per random-playout ply (log)")
        ax.set_title(f"{game}: playout cost as the game goes on")
        ax.legend(fontsize=8)
    return _save(plt, fig, out_dir, "openspiel_scaling.png")


def plot_strength(plt, rows, out_dir):
    games = by_game(rows, lambda r: r["figure"].startswith("strength:"))
    if not games:
        return None
    rs = [r for _, group in sorted(games.items()) for r in group]
    fig, ax = plt.subplots(figsize=(max(5.0, 2.2 * len(rs)), 3.6))
    cap = 1200.0  # an all-won match has an infinite point estimate: draw it at the cap

    def clip(v):
        return max(-cap, min(cap, v))

    for i, r in enumerate(rs):
        elo, low, high = clip(r["value"]), clip(r["low"]), clip(r["high"])
        ax.errorbar([i], [elo], yerr=[[max(0.0, elo - low)], [max(0.0, high - elo)]], fmt="o",
                    capsize=6)
        text = f"{r['value']:+.0f}" if math.isfinite(r["value"]) else f"all won (>= {r['low']:+.0f})"
        ax.annotate(text, (i, elo), textcoords="offset points", xytext=(8, 0), fontsize=8)
    ax.axhline(200, color="tab:red", linestyle="--", linewidth=1, label="target +200")
    ax.axhline(0, color="black", linewidth=0.5)
    ax.set_xticks(range(len(rs)), [f"{r['game']}\n{r['pairs']} pairs, {r['movetime']:g}s/move"
                                   for r in rs], fontsize=8)
    ax.set_ylabel("Elo of mcts over OpenSpiel MCTS (95%)")
    ax.set_title("Strength at equal time per move")
    ax.legend(fontsize=8)
    return _save(plt, fig, out_dir, "openspiel_strength.png")


def _save(plt, fig, out_dir, name):
    fig.tight_layout()
    path = os.path.join(out_dir, name)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.plot", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="+", help="JSON-lines files of figures")
    p.add_argument("--out", default=HERE, help="folder for the PNG files (default: bench/)")
    args = p.parse_args(argv)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("bench/plot.py needs matplotlib: pip install 'ardsearch[plot]'")
    rows = read_rows(args.inputs)
    if not rows:
        sys.exit(f"no figures in {', '.join(args.inputs)}")
    os.makedirs(args.out, exist_ok=True)
    written = [path for plot in (plot_mcts_speed, plot_expectimax, plot_scaling, plot_strength)
               if (path := plot(plt, rows, args.out))]
    for path in written:
        print(path)
    if not written:
        sys.exit("none of the figures has a chart: run bench.openspiel_compare with --json")


if __name__ == "__main__":
    main()
