"""Pool the duplicate pairs of several tournament results files into one
figure for one entrant: the pentanomial, Elo with its 95% interval, the
points it took on each side, and the median simulations a move of each
entrant. bench/README's "seeds pooled" rows are read this way.

    python -m bench.pool --entrant mcts FILE.jsonl[.gz] ...

A faulted game counts as the tournament counted it. Pairs are matched
within a file (pair numbers restart in every match), so files of
different seeds pool without clashing. A pair missing a leg (a match
stopped early) is left out and counted. Every file must hold games of the
named entrant against one opponent, the same opponent in every file.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from ardsearch.tournament.records import read_results
from ardsearch.tournament.report import elo_text
from ardsearch.tournament.standings import PairingTally, points_for


def opponent_of(records: list[dict], entrant: str, path: Path) -> str:
    names = {name for r in records for name in r["seats"]}
    if entrant not in names:
        raise ValueError(f"{path}: no games of entrant {entrant!r} (entrants here: {', '.join(sorted(names))})")
    others = names - {entrant}
    if len(others) != 1:
        raise ValueError(f"{path}: {entrant!r} meets {len(others)} opponents ({', '.join(sorted(others))}); "
                         "pool one pairing at a time")
    return others.pop()


def pool(paths: list[Path], entrant: str) -> dict:
    """The pooled figure of `entrant` over the files' complete pairs."""
    if not paths:
        raise ValueError("no results files given")
    penta, wdl = [0] * 5, [0, 0, 0]
    sides: dict[str, list[float]] = {}
    nodes: dict[str, list[int]] = {}
    opponent, open_legs = None, 0
    for path in paths:
        records = read_results(path)
        other = opponent_of(records, entrant, path)
        if opponent is not None and other != opponent:
            raise ValueError(f"{path}: opponent {other!r}, but the files before meet {opponent!r}")
        opponent = other
        by_pair: dict[int, list[dict]] = {}
        for record in records:
            by_pair.setdefault(record["pair"], []).append(record)
        tally = PairingTally(entrant, other)
        for legs in by_pair.values():
            if len(legs) != 2:
                open_legs += len(legs)
                continue
            for record in legs:
                tally.add(record)
                seat = record["seats"].index(entrant)
                side = record["players"][seat]["side"]
                sides.setdefault(side, []).append(points_for(record, entrant))
                for move in record.get("moves", []):
                    if move.get("player", -1) >= 0 and "nodes" in move:
                        nodes.setdefault(record["seats"][move["player"]], []).append(move["nodes"])
        penta = [a + b for a, b in zip(penta, tally.penta)]
        wdl = [a + b for a, b in zip(wdl, tally.wdl)]
    total = PairingTally(entrant, opponent)
    total.penta, total.wdl = penta, wdl
    summary = total.summary()
    summary["files"] = len(paths)
    summary["legs_without_pair"] = open_legs
    summary["sides"] = {side: {"points": sum(p), "games": len(p)} for side, p in sorted(sides.items())}
    summary["median_nodes"] = {name: statistics.median(n) for name, n in sorted(nodes.items())}
    return summary


def text(summary: dict) -> str:
    s, t = summary, summary["trinomial"]
    lines = [f"{s['a']} against {s['b']}: {s['pairs']} pairs from {s['files']} file(s)",
             f"pentanomial (0, 1/2, 1, 1 1/2, 2): {', '.join(map(str, s['penta']))}",
             f"Elo {elo_text(s['elo'])} [{elo_text(s['elo_low'])}, {elo_text(s['elo_high'])}] (95%), LOS {100 * s['los']:.1f}%",
             f"games +{s['wins']} ={s['draws']} -{s['losses']}; trinomial (the games as if independent) "
             f"Elo {elo_text(t['elo'])} [{elo_text(t['elo_low'])}, {elo_text(t['elo_high'])}]"]
    if sum(1 for c in s["penta"] if c) == 1 and s["pairs"] > 1:
        lines.append("every pair scored the same, so the pentanomial interval has no width: "
                     "read the trinomial one")
    for side, t in s["sides"].items():
        lines.append(f"as {side}: {t['points']:g} of {t['games']}")
    for name, n in s["median_nodes"].items():
        lines.append(f"median simulations a move, {name}: {n:g}")
    if s["legs_without_pair"]:
        lines.append(f"left out: {s['legs_without_pair']} game(s) whose pair is incomplete")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pool", description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrant", required=True, help="the entrant whose figure is read, e.g. mcts")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("files", nargs="+", type=Path, help="tournament results files (.jsonl or .jsonl.gz)")
    args = parser.parse_args(argv)
    try:
        summary = pool(args.files, args.entrant)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(summary, indent=1) if args.json else text(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
