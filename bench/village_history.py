"""`python -m bench.village_history RECORDS [RECORDS ...]`: who held each
village square of a Micro Armour game, in turn, over the games of tournament
or match records (docs/records.md).

For each game: the entrants (German first), the result and, per village
square, the sides that stood on it in order (`G`, `S`, `.` empty), e.g.
`(13,7):.S.S.G` = empty, Soviet, empty, Soviet again, then German. A
square's *home* side is the side whose stands start nearer to it (median
distance; in the meeting scenario the bank of the stream on the side's
entry edge). A square is *taken* when the other side stands on it (meeting:
a stand crossed the stream), *refilled* when its home side stands on it
again after it was left empty. The totals say which entrant took squares.
Written to read the meeting scenario's 2-2 draws (bench/README.md, Micro
Armour meeting).
"""
from __future__ import annotations

import argparse
import collections
import statistics
import sys

import ardsearch

SIDE_LETTER = {"german": "G", "soviet": "S"}


def village_squares(d):
    """(x, y) of every village (`b`) square of the table in to_dict() d."""
    rows = d["table"]["rows"]
    return [(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "b"]


def home_sides(d, squares):
    """{square: the side letter whose live stands on the table are nearer to
    it in to_dict() d, by the median Chebyshev distance (a median, so that one
    stand set up far forward, such as the meeting scenario's river boat, does
    not move a side's home); None if a side has none."""
    where = collections.defaultdict(list)
    for s in d["stands"]:
        if s["alive"] and s["at"]:
            where[SIDE_LETTER[s["side"]]].append(s["at"])
    if len(where) < 2:
        return {sq: None for sq in squares}
    home = {}
    for sq in squares:
        median = {side: statistics.median(max(abs(x - sq[0]), abs(y - sq[1])) for x, y in ats)
                  for side, ats in where.items()}
        home[sq] = min(median, key=median.get)
    return home


def square_history(rec):
    """({square: 'G'/'S'/'.' sequence of holders} over every position of rec,
    {square: home side letter})."""
    hist = home = None
    for state in rec.states():
        d = state.to_dict()
        if hist is None:
            hist = {sq: "" for sq in village_squares(d)}
            home = home_sides(d, hist)
        occupant = {tuple(s["at"]): SIDE_LETTER[s["side"]] for s in d["stands"]
                    if s["alive"] and s["at"] and tuple(s["at"]) in hist}
        for sq in hist:
            c = occupant.get(sq, ".")
            if not hist[sq] or hist[sq][-1] != c:
                hist[sq] += c
    return hist or {}, home or {}


def summarize(path, out=sys.stdout):
    """Print each game's squares; return Counter of squares taken by entrant and refills."""
    totals = collections.Counter()
    with open(path) as f:
        count = sum(1 for line in f if line.strip())
    for index in range(count):
        rec = ardsearch.read_record(path, index=index)
        if rec.game != "microarmour":
            raise ValueError(f"{path} game {index} is {rec.game!r}: village_history reads "
                             f"Micro Armour records only")
        names = {SIDE_LETTER[p["side"]]: p["name"] for p in rec.players}
        hist, home = square_history(rec)
        for sq, seq in hist.items():
            held = seq.replace(".", "")
            if not held:
                continue
            mine = home[sq] or held[0]
            for side in set(held) - {mine}:
                totals["taken by " + names[side]] += 1
            totals["refilled"] += max(0, held.count(mine) - 1)
        totals["games"] += 1
        totals["draws"] += rec.result == "1/2-1/2"
        squares = " ".join(f"({x},{y}):{seq}" for (x, y), seq in hist.items())
        print(f"{index:3d} G={names['G']} S={names['S']} {rec.result:7s} {squares}", file=out)
    return totals


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m bench.village_history", description=__doc__.split("\n\n")[0])
    ap.add_argument("records", nargs="+", help="records files (tournament --out, match --out)")
    args = ap.parse_args(argv)
    totals = collections.Counter()
    for path in args.records:
        totals += summarize(path)
    print(", ".join(f"{k}: {v}" for k, v in sorted(totals.items())))


if __name__ == "__main__":
    main()
