"""`ardsearch tune <game>`: the evaluation's weights from self-play (Texel).

1. Self-play: a round robin of a few bots through the tournament runner
   (seeded duplicate pairs, node budgets only, so the games are the same on
   any machine and on the Ray backend).
2. Positions: from each game up to --per-game decision positions, sampled
   with an RNG seeded from --seed and the game's index; the features of each
   from both sides, labelled with that side's result (win 1, draw 0.5, loss 0).
   Features are taken on the full state: search evaluates determinized
   (full) states at its leaves.
3. Fit: logistic regression, w minimising the log-loss of sigmoid(w . f)
   plus L2 (ardsearch.logistic: Newton/IRLS, deterministic), on the games of
   4 duplicate pairs in 5; the 5th pair of each block of five is held out
   (split by game pair, so no position of a held-out game is trained on).
4. Output: an eval.toml with [weights] and a [source] table (the command,
   seed, games, positions, log-losses). The same command writes the same
   bytes: nothing in it depends on time, --jobs, --out or the backend.

docs/tuning.md is the user's guide.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from pathlib import Path

import numpy as np

import ardsearch
from ardsearch import evaluation, logistic

# Bots whose games the weights are fitted on. A mix of strengths gives varied,
# decisive games: greedy plays fast with random tie-breaks (every game
# differs) and blunders into lost positions the others exploit; the two MCTS
# budgets play sound games that reach the late, close positions. Node
# budgets only: reproducible on any machine.
DEFAULT_BOTS = ("greedy", "mcts300=mcts:nodes=300", "mcts1500=mcts:nodes=1500")
DEFAULT_PER_GAME = 24
DEFAULT_L2 = 1e-3
HOLD_OUT_EVERY = 5     # pair index % 5 == 4: held out


def _say(text: str, quiet: bool = False) -> None:
    if not quiet:
        print(f"tune: {text}", file=sys.stderr, flush=True)


def command_text(game, games, seed, bots, per_game, l2) -> str:
    """The canonical command that reproduces a file (no --out, --jobs, --backend:
    they do not change what is written)."""
    parts = ["ardsearch", "tune", _game_text(game), "--games", str(games), "--seed", str(seed)]
    if tuple(bots) != DEFAULT_BOTS:
        parts += ["--bots", *bots]
    if per_game != DEFAULT_PER_GAME:
        parts += ["--per-game", str(per_game)]
    if l2 != DEFAULT_L2:
        parts += ["--l2", repr(l2)]
    return " ".join(_quote(p) for p in parts)


def _quote(text: str) -> str:
    return f"'{text}'" if any(c in text for c in " ()*;&|<>") else text


def _game_text(game) -> str:
    defaults = {p.name: p.default_in(game.params) for p in game.spec.params}
    changed = {k: v for k, v in game.params.items() if defaults.get(k) != v}
    inner = ",".join(f"{k}={v}" for k, v in changed.items())
    return f"{game.name}({inner})" if inner else game.name


def self_play(game, games: int, seed: int, bots, jobs: int = 1, backend: str = "local",
              address=None, records_out=None, quiet: bool = False):
    """Plays the round robin and returns its records (schedule order)."""
    from ardsearch.tournament import TournamentConfig, parse_bot, run_tournament
    from ardsearch.tournament.schedule import pairings
    entrants = tuple(parse_bot(b) for b in bots)
    if len(entrants) < 2:
        raise ValueError(f"--bots needs at least 2 bots, got {len(entrants)}")
    n_pairings = len(pairings([e.name for e in entrants], "round-robin"))
    per_pairing = max(2, 2 * round(games / (2 * n_pairings)))
    config = TournamentConfig(game.name, dict(game.params), entrants, "round-robin", per_pairing, seed)
    _say(f"self-play: {per_pairing * n_pairings} games ({per_pairing} per pairing of "
         f"{', '.join(bots)}), seed {seed}, {jobs} at once on the {backend} backend", quiet)
    with tempfile.TemporaryDirectory(prefix="ardsearch-tune-") as tmp:
        out = Path(records_out) if records_out else Path(tmp) / "games.jsonl"
        result = run_tournament(config, out, overwrite=True, backend=backend, concurrency=jobs,
                                address=address, progress=not quiet)
    if result.stopped:
        raise RuntimeError(f"self-play stopped early ({result.stopped}): see the records")
    return result.records


def _read_records(path, game, games: int, bots, quiet: bool):
    """Self-play records kept by --records, checked against this command: the
    same game, bots and number of games (the seed is checked by the games'
    own seeds only through the result, so give the one they were played with)."""
    import json
    from ardsearch.tournament import parse_bot
    from ardsearch.tournament.schedule import pairings
    with open(path, encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    names = sorted(parse_bot(b).name for b in bots)
    n_pairings = len(pairings(names, "round-robin"))
    expected = max(2, 2 * round(games / (2 * n_pairings))) * n_pairings
    seen = sorted({p["name"] for r in records for p in r["players"]})
    if len(records) != expected or seen != names or any(r["game"] != game.name for r in records):
        raise ValueError(f"{path}: {len(records)} games of {', '.join(seen)} are not the self-play of "
                         f"this command ({expected} games of {', '.join(names)} in {game.name})")
    _say(f"read {len(records)} self-play games from {path}", quiet)
    return sorted(records, key=lambda r: r["index"])


def positions(game, records, seed: int, per_game: int, quiet: bool = False):
    """(features, targets, pair index) rows: both sides of up to `per_game`
    decision positions of each game."""
    from ardsearch.records import Record
    X, y, pair = [], [], []
    for rec in records:
        record = Record.from_json(rec, replay=False)
        returns = rec["returns"]
        states = [s for s in record.states() if not s.is_terminal() and not s.is_chance_node()]
        rng = random.Random(seed * 1_000_003 + rec["index"])
        chosen = sorted(rng.sample(range(len(states)), min(per_game, len(states))))
        for i in chosen:
            s = states[i]
            for p in (0, 1):
                X.append(s.features(p))
                y.append((float(returns[p]) + 1.0) / 2.0)
                pair.append(rec["pairing"] * 1_000_000 + rec["pair"])
    _say(f"{len(X) // 2} positions ({len(X)} rows: both sides) from {len(records)} games", quiet)
    return np.array(X, dtype=np.float64).reshape(-1, len(game.feature_names)), np.array(y), np.array(pair)


def held_out_mask(pair) -> np.ndarray:
    return (np.asarray(pair) % 1_000_000) % HOLD_OUT_EVERY == HOLD_OUT_EVERY - 1


def _fmt(x: float) -> str:
    """A weight as TOML text, rounded to 6 significant digits (the last bits
    of a BLAS product may differ between machines; six digits do not)."""
    text = f"{float(x):.6g}"
    if text in ("0", "-0"):
        return "0.0"
    # a whole number keeps its ".0": the weights are floats, and a rewrite of
    # a file must not turn `goal = 1.0` into `goal = 1`
    return text + ".0" if text.lstrip("-").isdigit() else text


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    return '"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _render_fit(fit) -> list[str]:
    """The lines of one calibration: knots (root value -> win probability) or a Platt fit."""
    from ardsearch.evaluation import CalibrationTable
    if isinstance(fit, CalibrationTable):
        return [f"value = [{', '.join(_fmt(x) for x in fit.values)}]",
                f"wp = [{', '.join(_fmt(y) for y in fit.wps)}]"]
    return [f"scale = {_fmt(fit[0])}", f"shift = {_fmt(fit[1])}"]


def _render_calibration(search, fit, header) -> list:
    """The lines of one calibration of `search` under `header` ([...] or,
    one of several scoped ones, [[...]])."""
    from ardsearch.evaluation import RoundCalibration, Scoped, SeatCalibration
    lines = []
    if isinstance(fit, Scoped):             # the game parameters it holds for
        inline = ", ".join(f"{k} = {_toml_value(v)}" for k, v in fit.params)
        lines += ["", header, f"params = {{{inline}}}"]
        fit = fit.fit
        if not isinstance(fit, (SeatCalibration, RoundCalibration)):
            return lines + _render_fit(fit)
    if isinstance(fit, RoundCalibration):   # one per band of rounds, by its first round
        for start, one in zip(fit.starts, fit.fits):
            lines += _render_seats_or_one(f"calibration.{search}.rounds.{start}", one)
        return lines
    if isinstance(fit, SeatCalibration):
        return lines + _render_seats_or_one(f"calibration.{search}", fit)
    return lines + ["", header] + _render_fit(fit)


def _render_seats_or_one(table, fit) -> list:
    """[table] with one calibration, or [table.seat.<name>] for each seat in player order."""
    from ardsearch.evaluation import SeatCalibration
    if isinstance(fit, SeatCalibration):
        lines = []
        for seat, one in zip(fit.seats, fit.fits):
            lines += ["", f"[{table}.seat.{seat}]"] + _render_fit(one)
        return lines
    return ["", f"[{table}]"] + _render_fit(fit)


def render(game, w, source: dict, calibration: dict | None = None) -> str:
    lines = [f"# {game.spec.title}: evaluation weights, evaluate = tanh(w . features / 2).",
             "# Written by `ardsearch tune` (docs/tuning.md); RULES.md, \"Evaluation\", says what",
             "# each feature is."]
    if game.feature_names:           # a game without features keeps only its calibration
        lines += ["", "[weights]"] + [f"{name} = {_fmt(x)}" for name, x in zip(game.feature_names, w)]
    from ardsearch.evaluation import Scoped
    for search, fit in sorted((calibration or {}).items()):
        if isinstance(fit, tuple) and fit and isinstance(fit[0], Scoped):
            for one in fit:                     # one per set of game parameters
                lines += _render_calibration(search, one, f"[[calibration.{search}]]")
        else:
            lines += _render_calibration(search, fit, f"[calibration.{search}]")
    lines += ["", "[source]"]
    for key, value in source.items():
        if isinstance(value, str):
            lines.append(f"{key} = \"{value}\"")
        elif isinstance(value, (list, tuple)):
            lines.append(f"{key} = [{', '.join(chr(34) + str(v) + chr(34) for v in value)}]")
        elif isinstance(value, float):
            lines.append(f"{key} = {_fmt(value)}")
        else:
            lines.append(f"{key} = {value}")
    return "\n".join(lines) + "\n"


def _anchor(line: str) -> str:
    """What a line of an eval.toml is, for finding it again in a rewritten
    file: a header as written, otherwise the key before its '='."""
    text = line.strip()
    return text if text.startswith("[") else text.split("=", 1)[0].strip()


def _places(lines):
    """Where each line of an eval.toml is, independent of the order of its
    tables: None for a comment or blank line; for a header, the table it
    opens; for a key, its table and name. A [[array]] entry is named by its
    header and its params line (scoped calibrations repeat the same header),
    a sub-table of an entry by the entry too, any other table by its header."""
    content = [i for i, l in enumerate(lines) if l.strip() and not l.lstrip().startswith("#")]
    places = [None] * len(lines)
    entry = table = None
    for n, i in enumerate(content):
        text = lines[i].strip()
        if text.startswith("[["):
            following = lines[content[n + 1]] if n + 1 < len(content) else ""
            params = " ".join(following.split()) if _anchor(following) == "params" else None
            entry = table = (text, params)
        elif text.startswith("["):
            if entry is not None and text.startswith("[" + entry[0].strip("[]") + "."):
                table = (entry, text)           # a sub-table of the current entry
            else:
                entry, table = None, text
        else:
            places[i] = ("key", table, _anchor(text))
            continue
        places[i] = ("table", table)
    return places


def keep_comments(old: str, new: str) -> str:
    """`new` (a rendered eval.toml) with the comments of `old` (the file it
    replaces) put back: the opening comment replaces the rendered one, and
    each other comment block goes before the line it stood before, found by
    its table and key. A block whose key is gone but whose table remains
    opens that table; one whose table is gone goes with it (it spoke of what
    was removed)."""
    old_lines, new_lines = old.splitlines(), new.splitlines()
    start = next((i for i, l in enumerate(old_lines) if l.strip() and not l.lstrip().startswith("#")),
                 len(old_lines))
    head = old_lines[:start]
    blocks: dict = {}
    pending: list = []
    for line, place in zip(old_lines[start:], _places(old_lines[start:])):
        if place is None:
            if line.strip().startswith("#") or (pending and not line.strip()):
                pending.append(line)
            continue
        while pending and not pending[-1].strip():
            pending.pop()
        if pending:
            blocks.setdefault(place, []).append(pending)
            pending = []
    while pending and not pending[-1].strip():
        pending.pop()
    tail = pending                              # comments after the last line
    if head:
        first = next((i for i, l in enumerate(new_lines) if l.strip() and not l.startswith("#")),
                     len(new_lines))
        new_lines = new_lines[first:]           # the old head keeps its own spacing
    places = _places(new_lines)
    # a block whose key is gone but whose table is still there (a curve that
    # became a table per seat) goes at the top of that table
    present = set(places)
    orphans: dict = {}
    for place, found in blocks.items():
        if place[0] == "key" and place not in present and ("table", place[1]) in present:
            orphans.setdefault(place[1], []).extend(found)
    out = list(head)
    for line, place in zip(new_lines, places):
        if place is not None and blocks.get(place):
            out += blocks[place].pop(0)
        out.append(line)
        if place is None:
            continue
        table = place[1]
        is_entry = isinstance(table, tuple) and isinstance(table[0], str) and table[0].startswith("[[")
        opens = (place[0] == "key" and place[2] == "params" and is_entry and table[1] is not None) or \
                (place[0] == "table" and not (is_entry and table[1] is not None))
        if opens and table in orphans:
            for block in orphans.pop(table):
                out += block
    if tail:
        out += [""] + tail
    return "\n".join(out).rstrip("\n") + "\n"


def tune(game, games: int, seed: int, bots=DEFAULT_BOTS, per_game: int = DEFAULT_PER_GAME,
         l2: float = DEFAULT_L2, jobs: int = 1, backend: str = "local", address=None,
         records_out=None, quiet: bool = False, records_in=None):
    """Runs the whole method; returns (file text, weights, figures).
    records_in: the records an earlier run of the same self-play kept
    (--records), read instead of playing the games again."""
    names = game.feature_names
    if not names:
        raise ValueError(f"{game.name} has no evaluation features to tune (its evaluate() is not "
                         f"features yet)")
    if records_in is not None:
        records = _read_records(records_in, game, games, bots, quiet)
    else:
        records = self_play(game, games, seed, bots, jobs, backend, address, records_out, quiet)
    X, y, pair = positions(game, records, seed, per_game, quiet)
    test = held_out_mask(pair)
    if test.all() or not test.any():
        raise ValueError(f"{len(records)} games are too few to hold some out: give --games "
                         f"{2 * HOLD_OUT_EVERY * 3} or more")
    _say(f"fitting {len(names)} weights on {int((~test).sum()) // 2} positions, "
         f"{int(test.sum()) // 2} held out (L2 {l2:g})", quiet)
    w, iters = logistic.fit(X[~test], y[~test], l2=l2,
                            on_iter=lambda i, loss: _say(f"  Newton step {i}: objective {loss:.5f}", quiet))
    classic = evaluation.classic_weights(names) if names[0] == "classic" else None
    figures = {
        "game": game.name,
        "command": command_text(game, games, seed, bots, per_game, l2),
        "seed": seed,
        "games": len(records),
        "bots": list(bots),
        "positions": int((~test).sum()) // 2,
        "held_out_positions": int(test.sum()) // 2,
        "per_game": per_game,
        "l2": float(l2),
        "newton_steps": iters,
        "log_loss": logistic.log_loss(X[~test], y[~test], w),
        "held_out_log_loss": logistic.log_loss(X[test], y[test], w),
    }
    if classic is not None:
        figures["held_out_log_loss_classic"] = logistic.log_loss(X[test], y[test], classic)
    _say(f"log-loss: training {figures['log_loss']:.4f}, held out {figures['held_out_log_loss']:.4f}"
         + (f" (classic evaluation: {figures['held_out_log_loss_classic']:.4f})" if classic is not None else ""),
         quiet)
    # The weights the game plays now (its data/eval.toml, which may not be
    # classic alone): the figure a new file must beat. Said on stderr only,
    # so the file written does not depend on what the game had installed.
    _say(f"held out, the game's installed weights: {logistic.log_loss(X[test], y[test], game.weights):.4f}", quiet)
    return render(game, w, figures), w, figures


def tune_parser() -> argparse.ArgumentParser:
    from ardsearch.tournament.backends import BACKENDS

    class _Parser(argparse.ArgumentParser):
        def error(self, message):
            self.exit(2, f"{self.prog}: error: {message} (try --help)\n")

    p = _Parser(prog="ardsearch tune",
                description="Fit a game's evaluation weights to self-play results (docs/tuning.md).")
    p.add_argument("game", help="game, e.g. 'mortain(setup=historical)' or 'ardennes(variant=basic)'")
    p.add_argument("--games", type=int, required=True, help="self-play games (about; rounded to duplicate pairs)")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--jobs", type=int, default=1, help="games at once (worker processes or Ray CPUs)")
    p.add_argument("--backend", choices=BACKENDS, default="local")
    p.add_argument("--address", help="Ray cluster address (ray backend)")
    p.add_argument("--out", help="the eval.toml to write (default: the game's data/eval.toml)")
    p.add_argument("--bots", nargs="+", default=list(DEFAULT_BOTS), metavar="SPEC",
                   help="self-play bots, as `ardsearch tournament --bots` (default: "
                        + " ".join(DEFAULT_BOTS) + ")")
    p.add_argument("--per-game", type=int, default=DEFAULT_PER_GAME,
                   help=f"positions sampled from each game (default {DEFAULT_PER_GAME})")
    p.add_argument("--l2", type=float, default=DEFAULT_L2, help=f"L2 penalty (default {DEFAULT_L2:g})")
    p.add_argument("--records", metavar="FILE", help="also keep the self-play records here")
    p.add_argument("--from-records", metavar="FILE",
                   help="fit on the records an earlier run of the same command kept (--records) "
                        "instead of playing the games again")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    return p


def main_tune(argv) -> int:
    parser = tune_parser()
    args = parser.parse_args(argv)
    try:
        game = ardsearch.load_game(args.game)
    except ValueError as e:
        parser.error(str(e))
    if args.games < 2:
        parser.error(f"--games must be at least 2, got {args.games}")
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, got {args.jobs}")
    if args.per_game < 1:
        parser.error(f"--per-game must be at least 1, got {args.per_game}")
    if not args.l2 > 0:
        parser.error(f"--l2 must be > 0, got {args.l2}")
    if not game.feature_names:
        parser.error(f"{game.name} has no evaluation features to tune (its evaluate() is not features yet)")
    out = Path(args.out) if args.out else Path(evaluation.eval_path(game.name))
    if not out.parent.is_dir():
        parser.error(f"--out {out}: the folder {out.parent} does not exist")
    try:
        text, _, _ = tune(game, args.games, args.seed, tuple(args.bots), args.per_game, args.l2,
                          args.jobs, args.backend, args.address, args.records, args.quiet,
                          args.from_records)
    except ValueError as e:
        print(f"ardsearch tune: error: {e}", file=sys.stderr)
        return 2
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, out)
    evaluation.load(str(out), game.feature_names, game.name, game.player_names)    # what was written loads
    _say(f"wrote {out}", args.quiet)
    return 0
