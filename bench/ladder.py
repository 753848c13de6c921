"""The Elo ladder of the difficulty levels, anchored at `random` = 0.

    python -m bench.ladder <game> [--pairs N ...] [--seed S] [--jobs J] [--clock cpu] [--write]

Plays seeded duplicate pairs between neighbouring rungs (level-1 against
random, level-2 against level-1, ...), prints each step's Elo with its 95%
interval (pentanomial, from the pair variance) and the chained Elo of every
level above random, with the steps' intervals added in quadrature. `--pairs`
takes one count for every step or one per step (the top steps cost the
most). `--clock cpu` counts every time-limited bot's cap in CPU time
(level-6 is the preset capped at a few seconds a move), so a loaded
machine does not weaken it. `--json` appends each pair as it finishes.
`--write` stores each level's chained Elo for this game in its preset's
[elo] table (bots/level-*.toml), which the protocol's Elo option reads. A
step that one side swept has an infinite Elo; the chain then uses the
score with half a game added to each side (a finite lower bound) and marks
the level with ">=".
"""
from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from ardsearch.stats import elo_from_score

from bench.pairs import Match, PairResult, label, parse_spec, play_match

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Step:
    """One rung over the one below it: points of the upper rung, pair count, Elo and interval."""
    upper: str
    lower: str
    points: float
    games: int
    elo: float
    low: float
    high: float

    @property
    def swept(self) -> bool:
        return math.isinf(self.elo)


@dataclass(frozen=True)
class Rung:
    name: str
    elo: float
    low: float
    high: float
    bound: bool      # True: a step below was a sweep, elo is a lower (or upper) bound


def step_of(match: Match) -> Step:
    elo, low, high = match.elo()
    w, d, _ = match.wdl()
    return Step(match.a, match.b, w + 0.5 * d, 2 * len(match.pairs), elo, low, high)


def finite_elo(step: Step) -> float:
    """The step's Elo, or for a sweep the Elo of the score with half a game
    given to each side: (points + 0.5) / (games + 1)."""
    if not step.swept:
        return step.elo
    return elo_from_score((step.points + 0.5) / (step.games + 1))


def chain(anchor: str, steps: list[Step]) -> list[Rung]:
    """Rungs from the anchor (Elo 0) up: each rung's Elo is the sum of the
    steps below it; its interval adds the steps' half-widths (each side
    apart) in quadrature, as for independent matches. A swept step adds its
    finite_elo and an unknown half-width on the open side."""
    rungs = [Rung(anchor, 0.0, 0.0, 0.0, False)]
    total, var_lo, var_hi, bound = 0.0, 0.0, 0.0, False
    for s in steps:
        e = finite_elo(s)
        total += e
        lo_half = e - s.low if math.isfinite(s.low) else math.inf
        hi_half = s.high - e if math.isfinite(s.high) else math.inf
        var_lo += lo_half ** 2
        var_hi += hi_half ** 2
        bound = bound or s.swept
        rungs.append(Rung(s.upper, total, total - math.sqrt(var_lo), total + math.sqrt(var_hi), bound))
    return rungs


def _num(x: float) -> str:
    return "+inf" if x == math.inf else "-inf" if x == -math.inf else f"{x:+.0f}"


def table(game: str, steps: list[Step], rungs: list[Rung], command: str) -> str:
    """The ladder as a Markdown table."""
    lines = [f"`{command}`", "",
             "| rung | step | games | points | step Elo [95%] | Elo vs random [95%] |",
             "|---|---|---:|---:|---|---|",
             f"| {rungs[0].name} | anchor | | | | 0 |"]
    for s, r in zip(steps, rungs[1:]):
        mark = ">=" if r.bound else ""
        lines.append(f"| {r.name} | over {s.lower} | {s.games} | {s.points:g} | "
                     f"{_num(s.elo)} [{_num(s.low)}, {_num(s.high)}] | "
                     f"{mark}{r.elo:.0f} [{_num(r.low)}, {_num(r.high)}] |")
    return "\n".join(lines)


def write_elo(game: str, rungs: list[Rung], folder: Path = ROOT / "bots") -> list[Path]:
    """Stores `game = <Elo>` in the [elo] table of each level's preset file."""
    changed = []
    for r in rungs[1:]:
        path = folder / f"{r.name}.toml"
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        text = set_elo(text, game, round(r.elo))
        path.write_text(text, encoding="utf-8")
        changed.append(path)
    return changed


def set_elo(text: str, game: str, elo: int) -> str:
    """`text` with `game = elo` set in its [elo] table (added at the end if absent)."""
    if not re.search(r"^\[elo\]\s*$", text, re.M):
        text = text.rstrip("\n") + "\n\n[elo]\n"
    head, _, tail = text.partition("[elo]")
    end = re.search(r"^\[", tail[1:], re.M)
    body, rest = (tail[:end.start() + 1], tail[end.start() + 1:]) if end else (tail, "")
    line = re.compile(rf"^{re.escape(game)}\s*=.*$", re.M)
    if line.search(body):
        body = line.sub(f"{game} = {elo}", body)
    else:
        kept = body.rstrip("\n")
        body = kept + f"\n{game} = {elo}" + (body[len(kept):] or "\n")
    return head + "[elo]" + body + rest


def save_pairs(path: str, game: str, m: Match, clock: str | None = None) -> None:
    """One JSON line per pair: game, the two bots, seed, A's points per leg,
    lengths, and the match's --clock when one was given (for the record: a
    pair is keyed by its bots and seed alone)."""
    with open(path, "a", encoding="utf-8") as f:
        for pr in m.pairs:
            line = {"game": game, "a": m.a, "b": m.b, "index": pr.index, "seed": pr.seed,
                    "a_points": list(pr.a_points), "lengths": list(pr.lengths),
                    "seconds": round(pr.seconds, 2)}
            if clock is not None:
                line["clock"] = clock
            f.write(json.dumps(line) + "\n")


def _saver(path: str | None, game: str, clock: str | None):
    """play_match's progress hook that appends the pair just finished to
    `path` (None: saves nothing)."""
    if not path:
        return None
    return lambda m: save_pairs(path, game, Match(m.a, m.b, m.pairs[-1:]), clock)


def load_pairs(path: str, game: str) -> dict:
    """(a, b) -> Match from the pairs save_pairs wrote for this game. A pair is
    its game seed: a pair played again (the same seed) counts once, its last
    line winning; runs of one step on other --seed values add their pairs."""
    found: dict = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r["game"] != game:
                continue
            m = found.setdefault((r["a"], r["b"]), {})
            m[r["seed"]] = PairResult(r["index"], r["seed"], tuple(r["a_points"]), tuple(r["lengths"]),
                                       r["seconds"])
    out = {}
    for (a, b), pairs in found.items():
        out[(a, b)] = Match(a, b, sorted(pairs.values(), key=lambda pr: (pr.index, pr.seed)))
    return out


def main(argv=None) -> int:
    from ardsearch.levels import level_names
    p = argparse.ArgumentParser(prog="python -m bench.ladder", description=__doc__.split("\n\n")[0])
    p.add_argument("game", help="a game name, or name(key=value,...) for a scenario")
    p.add_argument("--rungs", nargs="+", default=None,
                   help="bots from the weakest up, preset[:key=value,...] (default: random, then every level)")
    p.add_argument("--pairs", nargs="+", type=int, default=[10],
                   help="duplicate pairs per step: one count, or one per step from the bottom")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--clock", choices=("wall", "cpu"), default=None,
                   help="what every time-limited rung's time limit counts (default: each bot's own, wall); "
                        "cpu keeps a time-capped level (level-6) at its strength on a loaded machine")
    p.add_argument("--write", action="store_true", help="store each level's Elo in bots/level-*.toml")
    p.add_argument("--json", metavar="FILE",
                   help="append every pair's result here as it finishes (JSON lines; a stopped run keeps its pairs)")
    p.add_argument("--from", dest="source", metavar="FILE",
                   help="play nothing: the table from the pairs --json runs saved (the steps it has; "
                        "runs of one step on other --seed values, concatenated, add their pairs)")
    args = p.parse_args(argv)
    rungs = args.rungs or ["random"] + level_names()
    specs = [parse_spec(r) for r in rungs]
    nsteps = len(specs) - 1
    if len(args.pairs) not in (1, nsteps):
        p.error(f"--pairs takes one count or {nsteps} (one per step), got {len(args.pairs)}")
    counts = args.pairs * nsteps if len(args.pairs) == 1 else args.pairs
    steps = []
    if args.source:
        saved = load_pairs(args.source, args.game)
        for i in range(nsteps):
            m = saved.get((label(specs[i + 1]), label(specs[i])))
            if m is None:
                break
            steps.append(step_of(m))
        nsteps = 0
    for i in range(nsteps):
        if counts[i] < 1:
            p.error("--pairs: every step needs at least one pair")
        t0 = time.perf_counter()
        # Each pair is saved as it finishes, so a long step stopped midway keeps its pairs.
        m = play_match(args.game, specs[i + 1], specs[i], counts[i], args.seed, args.jobs, clock=args.clock,
                       progress=_saver(args.json, args.game, args.clock))
        steps.append(step_of(m))
        s = steps[-1]
        print(f"{s.upper} over {s.lower}: {s.points:g}/{s.games}, Elo {_num(s.elo)} "
              f"[{_num(s.low)}, {_num(s.high)}] ({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)
    if not steps:
        p.error(f"no step of this ladder in {args.source}")
    ladder = chain(rungs[0], steps)
    command = "python -m bench.ladder " + " ".join(argv if argv is not None else sys.argv[1:])
    print(table(args.game, steps, ladder, command))
    if args.write:
        name = args.game.split("(", 1)[0]
        for path in write_elo(name, ladder):
            print(f"wrote {path.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
