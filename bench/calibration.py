"""Reliability of the reported win probability: predicted against observed.

    python -m bench.calibration 'mortain(setup=historical)' --games 40 --seed 101 --jobs 2 \\
        --plot bench/calibration_mortain.svg
    python -m bench.calibration 'mortain(setup=historical)' --from games.jsonl --fit mcts --by seat --write PATH

Plays seeded self-play games through the tournament runner (default: the
`mcts` preset at a node budget against itself, so the games are the same on
any machine; seeds other than the tuner's, so the games are held out from
the fit), or reads records (--from). Every bot decision in them carries the
value and the win probability `wp` its search reported for the side to move
(records' per-move comments); each is paired with whether that side won
(a draw counts half).

Table: the decisions grouped by decile of predicted probability (0-10%, ...,
90-100%): count, mean predicted, observed win rate, their difference and
the 95% interval half-width of the observed rate, clustered by game (the
decisions of one game share its result, so a decile filled by a few games
is as uncertain as a few games; until session 21 the table printed the
binomial interval over decisions, which understated that).
--plot draws the reliability diagram (SVG or PNG by the name; matplotlib).

--fit <search>: fit the search's root values v against results on the even
duplicate pairs, and make the table on the odd pairs with the fitted map
(held out). --method isotonic (default): a monotone piecewise-linear table
(ardsearch/isotonic.py: the values sorted into --bins groups of equal size,
pooled where the win rate decreases); --method steps: a monotone step
table (isotonic.fit_steps: the groups also cut where their values span more
than 0.2 and merged below 100 decisions, the probability constant over each
pooled block; for a game whose decided positions sit in small clusters at
the ends, as Clash of the Ardennes'); --method platt: wp = sigmoid(a *
logit((v + 1) / 2) + b). --write PATH puts the fit into the eval.toml at PATH
as [calibration.<search>], keeping its weights and [source] (the command goes
in source.calibration_<search>).

--by seat (with --fit): one fit per seat, each on the decisions of that side
to move, written as [calibration.<search>.seat.<player name>] (a game where
the same root value means a different win rate for each side: Stand at
Mortain). The table and plot then also show each seat's own deciles.

--rounds R1,R2,... (with --fit or --compare): one fit per band of rounds,
each named by its first round (1,6,11: rounds 1-5, 6-10 and 11 on), written
as [calibration.<search>.rounds.<first round>] (with --by seat, one per seat
inside each band): a game where the same root value is a surer thing late
than early (Undaunted's scenario 2). Each decision's round comes from
replaying its record; --installed and --compare replay too when the shipped
calibration is by round. --compare adds the fits per band to its candidates.

--scoped (with --write): the calibration is written with `params = {...}`,
the game's parameters (its scenario): it then holds for games with those
parameters only, and any other reports (v + 1) / 2 (a table fitted on one
scenario of a game whose scenarios favour different seats). A scoped fit is
written beside the file's scoped fits of other parameters, as
[[calibration.<search>]] entries, and replaces the one of the same
parameters; its command goes in source.calibration_<search>_<param values>
(past 60 characters, as with Micro Armour's 22 parameters: the scenario and
the parameters that differ from the game's defaults, calibration_mcts_introductory).

--installed <search>: no fit; the table is made over all the games with the
root values mapped through the calibration installed from the game's own
data/eval.toml (to check a shipped table on games it was not fitted on, such
as games at another simulation budget).

--compare <search>: no table; every candidate fit (one monotone table, a
table per side to move, one Platt curve, a curve per side, one step table,
a step table per side) beside the raw
value and the shipped calibration, each scored by held-out log-loss and
deciles within 5 points, pooled and per side to move, both ways round (fit
on the even pairs and score the odd, then the other way). With --holdout
FILE...: fit on every game read or played, score on the games of those
records instead (a check on games no fit has seen). --fit with --holdout
likewise fits on every game read and shows the holdout games' table. The last line names the
fits that beat the shipped one on both scores in every column, the rule for
replacing a shipped calibration (bench/README.md, "Calibration").
"""
from __future__ import annotations

import argparse
import math
import re
import os
import shlex
import sys
import tempfile
import textwrap
from pathlib import Path

import numpy as np

import ardsearch
from ardsearch import evaluation, isotonic, logistic

DEFAULT_BOTS = ("a=mcts:nodes=3000", "b=mcts:nodes=3000")


def play(game, games: int, seed: int, bots, jobs: int, records_out=None):
    from ardsearch.tournament import TournamentConfig, parse_bot, run_tournament
    entrants = tuple(parse_bot(b) for b in bots)
    per = max(2, 2 * round(games / 2 / max(1, len(entrants) * (len(entrants) - 1) // 2)))
    config = TournamentConfig(game.name, dict(game.params), entrants, "round-robin", per, seed)
    with tempfile.TemporaryDirectory(prefix="ardsearch-cal-") as tmp:
        out = Path(records_out) if records_out else Path(tmp) / "games.jsonl"
        # a records file of the same run (stopped, killed) is continued, not replaced:
        # its games took hours; a file of another run is refused by the runner
        resume = records_out is not None and out.exists()
        return run_tournament(config, out, resume=resume, overwrite=not resume, concurrency=jobs,
                              progress=True).records


def read(paths):
    """The records in these files (a name ending .gz is read through gzip:
    the kept records in bench/results/ are compressed)."""
    import gzip
    import json
    import zlib
    out = []
    for path in paths:
        opener = gzip.open if str(path).endswith(".gz") else open
        try:
            with opener(path, "rt", encoding="utf-8") as f:
                out += [json.loads(line) for line in f if line.strip().startswith("{")]
        except (OSError, EOFError, zlib.error, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise SystemExit(f"calibration: cannot read records from {path} ({e}); give a file of game "
                             f"records (JSON lines, as --records writes them, or that gzipped as .gz)")
    return out


def decisions(records, player_name=None):
    """Arrays (value, wp, outcome for the mover, pair key, seat of the mover)
    of every searched decision (only those of the entrant `player_name` if
    given)."""
    rows = []
    for rec in records:
        returns = rec["returns"]
        names = [p.get("name") for p in rec.get("players", [])]
        for m in rec["moves"]:
            if not searched(m, names, player_name):
                continue
            p = m["player"]
            rows.append((float(m["eval"]), float(m["wp"]), (float(returns[p]) + 1.0) / 2.0,
                         rec.get("pairing", 0) * 1_000_000 + rec.get("pair", rec.get("index", 0) // 2), p))
    if not rows:
        raise SystemExit("no decision in these records carries eval and wp comments")
    a = np.array(rows)
    return a[:, 0], a[:, 1], a[:, 2], a[:, 3].astype(np.int64), a[:, 4].astype(np.int64)


def searched(move, names, player_name=None) -> bool:
    """Whether a record's move is a searched decision (it carries the value
    and wp comments) of the entrant `player_name` (any, if None)."""
    p = move.get("player", -1)
    if p not in (0, 1) or move.get("wp") is None or move.get("eval") is None:
        return False
    return player_name is None or (len(names) >= 2 and names[p] == player_name)


def games_of(records, player_name=None):
    """Each decision's game (its index in `records`), in `decisions`' order:
    the clusters of the reliability table's intervals."""
    out = []
    for i, rec in enumerate(records):
        names = [p.get("name") for p in rec.get("players", [])]
        out += [i] * sum(searched(m, names, player_name) for m in rec["moves"])
    return np.array(out, dtype=np.int64)


def rounds_of(records, game, player_name=None):
    """The round of each decision `decisions` returns (same order and
    filter), by replaying each record's moves in `game` (records carry moves,
    not states): the input of a calibration by round."""
    out = []
    for rec in records:
        names = [p.get("name") for p in rec.get("players", [])]
        params = {k: v for k, v in rec.get("params", {}).items() if v != ""}
        state = ardsearch.load_game(rec.get("game", game.name), **params).new_initial_state()
        for m in rec["moves"]:
            if searched(m, names, player_name):
                out.append(evaluation.round_of(state))
            state.apply(m["move"])
    if any(r is None for r in out):
        raise SystemExit(f"{game.name}: its states name no round or turn, so a calibration by round "
                         f"cannot be fitted or read for it")
    return np.array(out, dtype=np.int64)


def band_of(rounds, starts):
    """Each round's band: the last band whose first round it has reached
    (the first band for a round before every start)."""
    return np.maximum(np.searchsorted(np.asarray(starts), np.asarray(rounds), side="right") - 1, 0)


def parse_rounds(text: str) -> tuple:
    """--rounds 1,6,11: the first round of each band, increasing whole numbers."""
    try:
        starts = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of rounds: give each band's first "
                                         f"round, such as 1,6,11,21") from None
    if not starts or any(x < 0 for x in starts) or any(b <= a for a, b in zip(starts, starts[1:])):
        raise argparse.ArgumentTypeError(f"{text!r}: give each band's first round, whole numbers from 0 "
                                         f"in increasing order, such as 1,6,11,21")
    return starts


def needs_rounds(game, search) -> bool:
    """Whether the game's shipped calibration of `search` (for its
    parameters) is by round, so reading it needs each decision's round."""
    ev = evaluation.loaded(game.name)
    one = evaluation.calibration_for(ev.calibration if ev is not None else {}, search, game.params)
    return isinstance(one, evaluation.RoundCalibration)


def logit_of_value(v):
    p = np.clip((np.asarray(v) + 1.0) / 2.0, 1e-6, 1 - 1e-6)
    return np.log(p / (1 - p))


def platt(v, y, l2=1e-6):
    """(scale, shift) of wp = sigmoid(scale * logit((v+1)/2) + shift)."""
    X = np.column_stack([logit_of_value(v), np.ones(len(v))])
    w, _ = logistic.fit(X, y, l2=l2)
    return float(w[0]), float(w[1])


def fit_one(method, v, y, bins):
    """One calibration of values `v` against outcomes `y`: a Platt (scale,
    shift) or an evaluation.CalibrationTable."""
    if method == "platt":
        return platt(v, y)
    if method == "steps":
        return evaluation.CalibrationTable(*isotonic.fit_steps(v, y, bins))
    values, wps = isotonic.fit_table(v, y, bins)
    return evaluation.CalibrationTable(values, wps)


def fit(method, v, y, seat, bins, by=None, seats=("0", "1"), rounds=None, starts=None):
    """The calibration of a search: one fit (by=None), or one per seat
    (by="seat": an evaluation.SeatCalibration over `seats`, the game's player
    names, each fitted on the decisions whose mover is that seat); with
    `starts` (each band's first round) and `rounds` (each decision's), one
    such fit per band of rounds, an evaluation.RoundCalibration."""
    if starts is not None:
        band = band_of(rounds, starts)
        fits = []
        for i, start in enumerate(starts):
            sel = band == i
            if not sel.any():
                raise SystemExit(f"no decision in the band of rounds from {start} to fit its calibration "
                                 f"on: give fewer bands (--rounds)")
            fits.append(fit(method, v[sel], y[sel], seat[sel], bins, by, seats))
        return evaluation.RoundCalibration(tuple(starts), tuple(fits))
    if by is None:
        return fit_one(method, v, y, bins)
    if by != "seat":
        raise ValueError(f"--by {by!r}: the calibration can be split by seat only")
    fits = []
    for p, name in enumerate(seats):
        sel = seat == p
        if not sel.any():
            raise SystemExit(f"no decision of seat {name} to fit its calibration on")
        fits.append(fit_one(method, v[sel], y[sel], bins))
    return evaluation.SeatCalibration(tuple(seats), tuple(fits))


def describe(fit) -> str:
    """The fit as the TOML lines it is written as (for stderr)."""
    from ardsearch.tuning import _render_fit
    if isinstance(fit, evaluation.RoundCalibration):
        return "\n".join(f"rounds from {r}: " + describe(f).replace("\n", "\n  ")
                         for r, f in zip(fit.starts, fit.fits))
    if isinstance(fit, evaluation.SeatCalibration):
        return "\n".join(f"seat {s}: " + "; ".join(_render_fit(f)) for s, f in zip(fit.seats, fit.fits))
    return "; ".join(_render_fit(fit))


def reliability(pred, y, games=None):
    """Per decile of predicted probability: (low, high, n, mean predicted,
    observed rate, 95% half-width of the observed rate). The half-width is
    the binomial one over decisions; with `games` (each decision's game or
    duplicate pair) it is clustered by game instead: the decisions of one
    game share its result, so they count about as one (sandwich variance of
    the mean, sum over games of the squared residual sums)."""
    pred, y = np.asarray(pred), np.asarray(y)
    bins = np.minimum((pred * 10).astype(int), 9)
    rows = []
    for b in range(10):
        sel = bins == b
        n = int(sel.sum())
        if n == 0:
            rows.append((b / 10, (b + 1) / 10, 0, None, None, None))
            continue
        obs = float(y[sel].mean())
        if games is None:
            var = max(obs * (1 - obs), 1e-12) / n
        else:
            _, which = np.unique(np.asarray(games)[sel], return_inverse=True)
            sums = np.bincount(which, weights=y[sel] - obs)
            g = len(sums)
            var = max(float((sums ** 2).sum()) * (g / (g - 1) if g > 1 else 1.0) / n ** 2, 1e-12 / n)
        rows.append((b / 10, (b + 1) / 10, n, float(pred[sel].mean()), obs, 1.96 * math.sqrt(var)))
    return rows


def log_loss(pred, y) -> float:
    pred, y = np.asarray(pred, dtype=np.float64), np.asarray(y, dtype=np.float64)
    return float(np.mean(-(y * np.log(np.clip(pred, 1e-9, 1)) + (1 - y) * np.log(np.clip(1 - pred, 1e-9, 1)))))


def within(rows, points: float = 0.05) -> str:
    """"k of n non-empty deciles within 5 points"."""
    full = [r for r in rows if r[2]]
    k = sum(abs(r[4] - r[3]) <= points for r in full)
    return f"{k} of {len(full)} non-empty deciles within {points * 100:.0f} points"


def markdown(rows) -> str:
    lines = ["| predicted | decisions | mean predicted | observed | observed - predicted | within 5 points |",
             "|---|---|---|---|---|---|"]
    for lo, hi, n, mp, obs, half in rows:
        if n == 0:
            lines.append(f"| {lo:.0%}-{hi:.0%} | 0 | | | | |")
            continue
        d = obs - mp
        lines.append(f"| {lo:.0%}-{hi:.0%} | {n} | {mp:.3f} | {obs:.3f} ±{half:.3f} | {d:+.3f} | "
                     f"{'yes' if abs(d) <= 0.05 else '**no**'} |")
    return "\n".join(lines)


CANDIDATES = (("one monotone table", "isotonic", None), ("a monotone table per side", "isotonic", "seat"),
              ("one Platt curve", "platt", None), ("a Platt curve per side", "platt", "seat"),
              ("one monotone step table", "steps", None), ("a monotone step table per side", "steps", "seat"))
# with --rounds, also one of these per band of rounds
BY_ROUND = (("a Platt curve per band of rounds", "platt", None),
            ("a Platt curve per side and band of rounds", "platt", "seat"),
            ("a monotone table per side and band of rounds", "isotonic", "seat"))


def score(pred, y, seat, seats=2):
    """(log-loss, deciles within 5 points, non-empty deciles, per side to move
    [(within, non-empty)]) of the predictions `pred` of outcomes `y`."""
    def counts(rows):
        full = [r for r in rows if r[2]]
        return sum(abs(r[4] - r[3]) <= 0.05 for r in full), len(full)
    k, n = counts(reliability(pred, y))
    per = [counts(reliability(pred[seat == p], y[seat == p])) for p in range(seats)]
    return log_loss(pred, y), k, n, per


def beats(new, old) -> bool:
    """A lower log-loss and a larger share of its deciles within 5 points."""
    return new[0] < old[0] and new[1] * old[2] > old[1] * new[2]


def mapped_wp(game, search, calibration, v, seat, rounds=None):
    """Each decision's value through `calibration` (None: the shipped one),
    for its side to move and (a calibration by round) its round."""
    rounds = [None] * len(v) if rounds is None else [int(r) for r in rounds]
    return np.array([evaluation.calibrated_wp(game.name, x, search, calibration, int(s), game.params, r)
                     for x, s, r in zip(v, seat, rounds)])


def compare(game, search, v, y, seat, columns, bins=20, rounds=None, starts=None):
    """Each candidate's score in each column: `columns` is a list of (title,
    train mask, test mask) over the decisions. Returns (rows, winners): rows
    are (name, [score per column]) for the raw value, the shipped
    calibration and every fit of CANDIDATES (and of BY_ROUND, with `starts`,
    each band's first round, and `rounds`, each decision's); winners the
    names of the fits that beat the shipped one (`beats`) in every column,
    best first."""
    def mapped(cal_, sel):
        return mapped_wp(game, search, cal_, v[sel], seat[sel], None if rounds is None else rounds[sel])
    seats = len(game.player_names)
    rows = [("raw (v + 1) / 2", [score(np.clip((v[te] + 1) / 2, 0, 1), y[te], seat[te], seats)
                                 for _, _, te in columns]),
            ("shipped", [score(mapped(None, te), y[te], seat[te], seats) for _, _, te in columns])]
    candidates = [c + (False,) for c in CANDIDATES] + ([c + (True,) for c in BY_ROUND] if starts else [])
    for name, method, by, banded in candidates:
        scores = []
        for _, tr, te in columns:
            f = fit(method, v[tr], y[tr], seat[tr], bins, by, game.player_names,
                    rounds[tr] if banded else None, starts if banded else None)
            scores.append(score(mapped({search: f}, te), y[te], seat[te], seats))
        rows.append((name, scores))
    return rows, [name for name, _ in ranked(rows, "shipped")]


def ranked(rows, against: str):
    """The candidates (rows after raw and shipped) that beat the row named
    `against` in every column, best first by mean held-out log-loss: the
    order part C's rule ships by. Returns [(name, mean log-loss)]."""
    base = dict(rows)[against]
    won = [(name, float(np.mean([s[0] for s in scores]))) for name, scores in rows[2:]
           if all(beats(s, o) for s, o in zip(scores, base))]
    return sorted(won, key=lambda w: w[1])


def compare_markdown(game, columns, rows) -> str:
    sides = ", ".join(game.player_names)
    lines = ["| fit | " + " | ".join(t for t, _, _ in columns) + " |", "|---|" + "---|" * len(columns)]
    for name, scores in rows:
        cells = [f"{ll:.4f}, {k} of {n} ({'; '.join(f'{a} of {b}' for a, b in per)})"
                 for ll, k, n, per in scores]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines.append(f"\n(each cell: held-out log-loss, deciles within 5 points pooled (per side to move: {sides}))")
    return "\n".join(lines)


def plot(rows, path, title, series=()):
    """The reliability diagram of `rows`; `series`: more (label, rows) drawn
    beside it (each seat's own deciles)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(5, 5))
    ax.plot([0, 1], [0, 1], color="grey", lw=1, ls="--", label="perfect")
    ax.fill_between([0, 1], [-0.05, 0.95], [0.05, 1.05], color="grey", alpha=0.15, label="±5 points")
    xs = [r[3] for r in rows if r[2]]
    ys = [r[4] for r in rows if r[2]]
    es = [r[5] for r in rows if r[2]]
    ax.errorbar(xs, ys, yerr=es, marker="o", lw=1.5, capsize=3, label="observed (95%)")
    for label, more in series:
        ax.errorbar([r[3] for r in more if r[2]], [r[4] for r in more if r[2]],
                    yerr=[r[5] for r in more if r[2]], marker=".", lw=1, ls=":", capsize=2, label=label)
    for r in rows:
        if r[2]:
            ax.annotate(str(r[2]), (r[3], r[4]), textcoords="offset points", xytext=(4, -10), fontsize=7)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("predicted win probability (decile mean)")
    ax.set_ylabel("observed win rate")
    ax.set_title("\n".join(textwrap.wrap(title, 70)), fontsize=8)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def merged(old, new):
    """The calibration a search keeps once `new` is written beside `old`: a
    scoped fit replaces the one with its parameters and keeps those of other
    scenarios (a tuple of Scoped, [[calibration.<search>]]); an unscoped fit
    replaces everything (it holds for every game)."""
    scoped = evaluation.Scoped
    if not isinstance(new, scoped) or old is None:
        return new
    kept = old if isinstance(old, tuple) and old and isinstance(old[0], scoped) else (
        (old,) if isinstance(old, scoped) else ())
    kept = [new if one.params == new.params else one for one in kept]
    if new not in kept:
        kept.append(new)
    return kept[0] if len(kept) == 1 else tuple(kept)


def source_key(search, fit, spec=None) -> str:
    """The [source] key of the command that made `fit`: calibration_<search>,
    and for a scoped fit its parameter values too (calibration_mcts_villers_0),
    so that the command of each scenario's table is kept. A game with many
    parameters (Micro Armour has 22) would get a key of every value joined,
    which no one can read: past 60 characters the key names the scenario and
    only the parameters that differ from the game's defaults (`spec`, its
    GameSpec), name and value (calibration_mcts_introductory_turns_6)."""
    if not isinstance(fit, evaluation.Scoped):
        return f"calibration_{search}"
    text = lambda v: re.sub(r"[^A-Za-z0-9]+", "_", str(v))
    key = "_".join([f"calibration_{search}"] + [text(v) for _, v in fit.params])
    if len(key) <= 60 or spec is None:
        return key
    defaults = {p.name: p.default for p in spec.params}
    values = dict(fit.params)
    parts = [text(values["scenario"])] if "scenario" in values else []
    parts += [f"{text(name)}_{text(v)}" for name, v in fit.params
              if name != "scenario" and (name not in defaults or v != defaults[name])]
    return "_".join([f"calibration_{search}"] + (parts or ["default"]))


def start_file(path, game):
    """Make sure --write has a file to add to: a new path starts as a copy of
    the game's shipped eval.toml (weights, comments and other tables kept);
    a path that cannot be written is refused now, before any game is played."""
    import shutil
    target = Path(path)
    if target.is_dir():
        sys.exit(f"calibration: --write {path}: is a folder; give the eval.toml file to write")
    if target.exists():
        if not os.access(target, os.W_OK):
            sys.exit(f"calibration: --write {path}: cannot write to it; give a writable path")
        return
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        shipped = Path(evaluation.eval_path(game.name))
        if shipped.exists():
            shutil.copyfile(shipped, target)
    except OSError as e:
        sys.exit(f"calibration: --write {path}: cannot create it ({e.strerror}); give a writable path")


def write_calibration(path, game, search, fit, command):
    """Store `fit` ((scale, shift), an evaluation.CalibrationTable or a
    SeatCalibration) as
    [calibration.<search>] of the eval.toml at `path`, then load it back (so
    a table the loader would refuse is never left written)."""
    from ardsearch.tuning import keep_comments, render
    if not Path(path).exists() and not game.feature_names:
        # a game without evaluation features: a file holding only the calibration
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(f"# {game.title}: the calibration of the reported win probability "
                              f"(bench/README.md, \"Calibration\").\n# The game has no evaluation "
                              f"features, so no weights table.\n\n[source]\ngame = \"{game.name}\"\n",
                              encoding="utf-8")
    ev = evaluation.load(str(path), game.feature_names, game.name, game.player_names)
    table = dict(ev.calibration)
    table[search] = merged(table.get(search), fit)
    source = dict(ev.source)
    source[source_key(search, fit, game.spec)] = command
    # keep the file's comments (they say why the weights and tables are what they are)
    text = keep_comments(Path(path).read_text(encoding="utf-8"), render(game, ev.weights, source, table))
    Path(path).write_text(text, encoding="utf-8")
    evaluation.load(str(path), game.feature_names, game.name, game.player_names)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.calibration", description=__doc__.split("\n\n")[0])
    p.add_argument("game")
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--seed", type=int, default=101)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--bots", nargs="+", default=list(DEFAULT_BOTS))
    p.add_argument("--from", dest="sources", nargs="+", metavar="FILE", help="read these records instead of playing")
    p.add_argument("--records", metavar="FILE",
                   help="keep the games played here (a file of the same run, stopped, is continued)")
    p.add_argument("--player", metavar="NAME", help="only the decisions of this entrant (its name in the records)")
    p.add_argument("--fit", metavar="SEARCH", choices=evaluation.CALIBRATED_SEARCHES,
                   help="fit this search's values on even pairs, table on odd pairs")
    p.add_argument("--method", choices=("isotonic", "steps", "platt"), default="isotonic",
                   help="with --fit: a monotone table (default), a monotone step table or a Platt curve")
    p.add_argument("--bins", type=int, default=20,
                   help="with --method isotonic or steps: groups of equal size (default 20)")
    p.add_argument("--by", choices=("seat",), help="with --fit: one calibration per seat (side to move)")
    p.add_argument("--rounds", type=parse_rounds, metavar="R1,R2,...",
                   help="with --fit or --compare: one calibration per band of rounds, each named by its "
                        "first round (1,6,11: rounds 1-5, 6-10, 11 on)")
    p.add_argument("--scoped", action="store_true",
                   help="with --write: the calibration holds only for this game's parameters (its scenario)")
    p.add_argument("--installed", metavar="SEARCH", choices=evaluation.CALIBRATED_SEARCHES,
                   help="map the values through the game's shipped [calibration.SEARCH], all games")
    p.add_argument("--compare", metavar="SEARCH", choices=evaluation.CALIBRATED_SEARCHES,
                   help="score every candidate fit of SEARCH against raw and the shipped one, held out")
    p.add_argument("--holdout", nargs="+", metavar="FILE",
                   help="with --compare: fit on all the games, score on these records' games")
    p.add_argument("--all-games", action="store_true",
                   help="with --fit and no --holdout: fit on every game read, not the even pairs (once "
                        "--compare has chosen the fit on held-out pairs); the table shown is then in "
                        "sample, not a test")
    p.add_argument("--write", metavar="EVAL_TOML", help="with --fit: store the fit in this eval.toml")
    p.add_argument("--plot", metavar="FILE", help="reliability diagram (.svg or .png)")
    args = p.parse_args(argv)
    if args.compare and (args.fit or args.installed or args.write or args.plot):
        p.error("--compare scores the fits itself: give it without --fit, --installed, --write or --plot")
    if args.all_games and not args.fit:
        p.error("--all-games needs --fit SEARCH (it says which games the fit is made on)")
    if args.all_games and args.holdout:
        p.error("--all-games fits on every game read: give either it or --holdout, not both")
    if args.holdout and not (args.compare or args.fit):
        p.error("--holdout needs --compare SEARCH or --fit SEARCH (the search whose fits it scores)")
    if args.rounds and not (args.compare or args.fit):
        p.error("--rounds needs --fit SEARCH or --compare SEARCH (it fits one calibration per band of rounds)")
    game = ardsearch.load_game(args.game)
    if args.write and args.fit:
        start_file(args.write, game)   # before hours of games, not after
    records = read(args.sources) if args.sources else play(game, args.games, args.seed, args.bots,
                                                           args.jobs, args.records)
    v, wp, y, pair, seat = decisions(records, args.player)
    games = games_of(records, args.player)     # the clusters of the table's intervals
    print(f"{len(records)} games, {len(v)} decisions", file=sys.stderr)
    search = args.compare or args.installed or args.fit
    # each decision's round, replayed from the records, when a calibration reads it
    by_round = args.rounds is not None or (search is not None and needs_rounds(game, search))
    rounds = rounds_of(records, game, args.player) if by_round else None
    label = "reported wp"
    fitted_on = pair % 2 == 0                      # the even pairs, unless fresh games are held out
    if args.holdout:
        held = read(args.holdout)
        hv, _, hy, _, hseat = decisions(held, args.player)
        n = len(v)
        v, y, seat = np.concatenate([v, hv]), np.concatenate([y, hy]), np.concatenate([seat, hseat])
        games = np.concatenate([games, len(records) + games_of(held, args.player)])
        if by_round:
            rounds = np.concatenate([rounds, rounds_of(held, game, args.player)])
        fitted_on = np.arange(len(v)) < n
        print(f"holdout: {int((~fitted_on).sum())} decisions", file=sys.stderr)
    if args.compare:
        if args.holdout:
            columns = [(f"fit on {len(records)} games, test on the {len(args.holdout)} holdout file(s)",
                        fitted_on, ~fitted_on)]
        else:
            even = pair % 2 == 0
            columns = [("fit even, test odd", even, ~even), ("fit odd, test even", ~even, even)]
        rows, winners = compare(game, args.compare, v, y, seat, columns, args.bins, rounds, args.rounds)
        print(f"{game.name}: [calibration.{args.compare}] candidates, held out")
        print(compare_markdown(game, columns, rows))
        print(f"\nbeats the shipped calibration on both scores in every column: "
              f"{', '.join(winners) if winners else 'none'}")
        # the mean to 6 decimals: two fits can tie at the table's 4
        over_raw = ranked(rows, "raw (v + 1) / 2")
        print("beats the raw value on both scores in every column, by mean held-out log-loss: "
              + ("; ".join(f"{name} {mean:.6f}" for name, mean in over_raw) if over_raw else "none"))
        return 0
    if args.fit:
        train = fitted_on
        test = ~train
        if args.all_games:       # the fit chosen, made on everything; shown in sample
            train = test = np.ones(len(v), dtype=bool)
        fitted = fit(args.method, v[train], y[train], seat[train], args.bins, args.by, game.player_names,
                     None if rounds is None else rounds[train], args.rounds)
        pred = mapped_wp(game, args.fit, {args.fit: fitted}, v[test], seat[test],
                         None if rounds is None else rounds[test])
        kind = {"platt": "Platt curve", "steps": "monotone step table"}.get(args.method, "monotone table")
        shown = ("the holdout games shown" if args.holdout else
                 "the same games shown (in sample, not a test)" if args.all_games else "odd pairs shown")
        per = " and ".join(x for x in ("seat" if args.by else "", "band of rounds" if args.rounds else "") if x)
        label = (f"{kind}{' per ' + per if per else ''} fitted on "
                 f"{'every game read' if args.holdout or args.all_games else 'even pairs'} "
                 f"({int(train.sum())} decisions), {shown}")
        print(f"[calibration.{args.fit}] {describe(fitted)}", file=sys.stderr)
        raw = np.clip((v[test] + 1) / 2, 0, 1)
        print(f"raw (v + 1) / 2 on the same decisions: log-loss {log_loss(raw, y[test]):.4f}, "
              f"{within(reliability(raw, y[test]))}", file=sys.stderr)
        if args.by:
            for p, name in enumerate(game.player_names):
                sel = seat[test] == p
                if sel.any():
                    print(f"raw, {name} to move: log-loss {log_loss(raw[sel], y[test][sel]):.4f}, "
                          f"{within(reliability(raw[sel], y[test][sel]))}", file=sys.stderr)
        y, seat, games = y[test], seat[test], games[test]
        if args.write:
            cmd = "python -m bench.calibration " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:])
                                                             if a != args.write)
            if args.scoped:      # it holds only for games with these parameters
                fitted = evaluation.Scoped(tuple(sorted(game.params.items())), fitted)
            write_calibration(args.write, game, args.fit, fitted, cmd.replace(" --write", ""))
            print(f"wrote {args.write}", file=sys.stderr)
    elif args.installed:
        pred = mapped_wp(game, args.installed, None, v, seat, rounds)
        label = f"shipped [calibration.{args.installed}] applied to the root values, all games"
    else:
        pred = wp
    rows = reliability(pred, y, games)
    print(f"{game.name}: {label}; log-loss {log_loss(pred, y):.4f} over {len(y)} decisions; {within(rows)}")
    print(markdown(rows))
    series = []
    if args.fit and args.by or args.installed:
        for p, name in enumerate(game.player_names):
            sel = seat == p
            if sel.any():
                seat_rows = reliability(pred[sel], y[sel], games[sel])
                series.append((f"{name} to move", seat_rows))
                print(f"\nside to move {name}: {int(sel.sum())} decisions, log-loss "
                      f"{log_loss(pred[sel], y[sel]):.4f}; {within(seat_rows)}")
                print(markdown(seat_rows))
    if args.plot:
        plot(rows, args.plot, f"{game.title}: {label}", series)
        print(f"wrote {args.plot}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    from ardsearch.cli import pipe_safe
    sys.exit(pipe_safe(main))
