"""The terrain-generation procedure (issue 12) as a seeded set-up tool: it
builds a random legal table for a scenario and writes the scenario file.

Digest (Terrain): "Open uses 2 x 2D6%, Mixed 4 x 2D6% and Closed 7 x 2D6% of
the board area; each piece's area is recorded. Players alternate placing
features until the total is reached." and "Unless the scenario says
otherwise, maximum sighting distance is 40" in Open, 20" in Mixed and 10" in
Closed terrain."

    ardsearch microarmour-map mixed --seed 7 [--base introductory] [-o FILE]

How it reads the procedure (RULES.md, "Generated terrain"; design choices
where the digest says nothing):
- 2D6 is rolled once; the total is density multiplier x roll percent of the
  table's squares, rounded to the nearest square. Terrain features are the
  squares that are neither clear nor road.
- The base scenario's fixed features stay: its village (the objective), roads
  and any stream or ford; the village counts toward the total. A base that
  takes its table from another file (`base = ...`) is first made whole. Its woods,
  rough and hills are cleared and replaced by the generated pieces.
- Pieces are woods, rough or hill, 3 to 12 squares each, grown square by square
  from a random square; the sides alternate (the scenario's first side
  first), each piece anywhere free on the table (where a player would put it
  is a choice the digest leaves to the players; the tool chooses at random).
  The last piece is cut to what is left of the total, so the total is exact.
- Legal: the file passes the scenario loader; no piece covers a square where
  a stand starts (either deployment) with terrain impassable to that stand's
  movement class, and every stand can still reach the village over terrain
  its class may enter. A piece that would cut a stand off is tried elsewhere
  and in the end laid as rough (passable to every class).
The same density, seed and base give the same file, on every machine."""
from __future__ import annotations

import argparse
import os
import random
import sys

from ardsearch.games.microarmour import _data
from ardsearch.games.microarmour.scenario_toml import dumps, flat_document, load_document, write_tool_output

MULTIPLIER = {"open": 2, "mixed": 4, "closed": 7}      # digest: 2 / 4 / 7 x 2D6 % of the board area
SIGHTING = {"open": 40, "mixed": 20, "closed": 10}     # digest: maximum sighting distance
PIECE_TERRAIN = ("woods", "rough", "hill")             # design: the features a piece may be
PIECE_MIN, PIECE_MAX = 3, 12                           # design: a piece's area in 1" squares
TRIES = 20                                             # places tried for a piece that would cut a stand off
CLOSE_SHIFT = 9      # deployment=close moves each side this many inches nearer (_tables.pxi CLOSE_SHIFT)
NEIGHBOURS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]   # stands step in 8 directions


class Table:
    """The base scenario's table as terrain names, the squares stands start
    on (by movement class) and the fixed features."""

    def __init__(self, doc, charts, weapons, name="scenario"):
        sc = load_document(doc, charts, weapons)
        self.terrain = charts["terrain"]
        self.by_name = {t["name"]: i for i, t in enumerate(self.terrain)}
        for name in ("clear",) + PIECE_TERRAIN:
            if name not in self.by_name:
                raise ValueError(f"charts.toml: terrain: expected a terrain type {name!r} (the generator lays it)")
        self.w, self.h = sc["width"], sc["height"]
        self.char = [t["char"] for t in self.terrain]
        clear = self.by_name["clear"]
        # fixed: every square that is not clear and not a piece terrain (village, roads, water)
        self.grid = [[t if self.terrain[t]["name"] not in PIECE_TERRAIN else clear for t in row] for row in sc["grid"]]
        self.starts = {}           # (x, y) -> movement classes of stands that may start there
        for p, stands in enumerate(sc["stands"]):
            for st in stands:
                cls = "WTFA".index(weapons[st["type"]]["move"])
                # as the engine shifts (_legal.pxi): from the side's own edge toward the enemy's
                shift = CLOSE_SHIFT if sc["sides"][p]["edge"] == "west" else -CLOSE_SHIFT
                for x in (st["x"], st["x"] + shift):
                    if 0 <= x < self.w:
                        self.starts.setdefault((x, st["y"]), set()).add(cls)
        self.goal = [(x, y) for y in range(self.h) for x in range(self.w)
                     if self.terrain[self.grid[y][x]]["building"] is not None]
        if not self.goal:
            raise ValueError(f"{name}: map: expected a village (building squares): "
                             "the objective the generated table keeps")
        self.side_keys = [sd["key"] for sd in sc["sides"]]
        self.title = sc["title"]

    def is_feature(self, t):
        """A terrain feature counts toward the total: not clear, not a road (a terrain with an 'under')."""
        return self.terrain[t]["name"] != "clear" and self.terrain[t]["under"] == t

    def passable(self, t, cls):
        return self.terrain[t]["cost"][cls] != 0

    def connected(self):
        """Every stand can reach the village over terrain its class may enter."""
        for cls in {c for cs in self.starts.values() for c in cs}:
            seen = {sq for sq in self.goal if self.passable(self.grid[sq[1]][sq[0]], cls)}
            todo = list(seen)
            while todo:
                x, y = todo.pop()
                for dx, dy in NEIGHBOURS:
                    n = (x + dx, y + dy)
                    if (0 <= n[0] < self.w and 0 <= n[1] < self.h and n not in seen
                            and self.passable(self.grid[n[1]][n[0]], cls)):
                        seen.add(n)
                        todo.append(n)
            if any(cls in cs and sq not in seen for sq, cs in self.starts.items()):
                return False
        return True

    def rows(self):
        return ["".join(self.char[t] for t in self.grid[y]) for y in range(self.h - 1, -1, -1)]


def _grow(table, rng, free, terrain, area):
    """Up to `area` free squares grown from a random one (orthogonal steps),
    none a start square whose stands the terrain would stop."""
    ok = [sq for sq in sorted(free) if all(table.passable(terrain, c) for c in table.starts.get(sq, ()))]
    if not ok:
        return []
    piece = [rng.choice(ok)]
    inside = set(piece)
    while len(piece) < area:
        edge = sorted({(x + dx, y + dy) for x, y in piece for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                       if (x + dx, y + dy) in free and (x + dx, y + dy) not in inside
                       and all(table.passable(terrain, c) for c in table.starts.get((x + dx, y + dy), ()))})
        if not edge:
            break
        sq = rng.choice(edge)
        piece.append(sq)
        inside.add(sq)
    return piece


def generate(density, seed, base="introductory", base_path=None):
    """The scenario document (as read_toml gives it) of `base` with a table
    generated for `density` (open, mixed, closed) from `seed`."""
    if density not in MULTIPLIER:
        raise ValueError(f"density {density!r}: expected open, mixed or closed")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed {seed!r}: expected a whole number 0 or more")
    base_path = base_path or _data._scenario_files().get(base)
    if base_path is None:
        raise ValueError(f"base scenario {base!r}: expected one of {', '.join(_data.scenario_names())}")
    charts, weapons = _data.load_charts(), _data.load_weapons()
    doc = flat_document(base_path)
    table = Table(doc, charts, weapons, os.path.basename(base_path))
    rng = random.Random(f"microarmour terrain {density} {seed}")
    roll = rng.randint(1, 6) + rng.randint(1, 6)
    percent = MULTIPLIER[density] * roll
    target = round(percent * table.w * table.h / 100)
    count = sum(1 for row in table.grid for t in row if table.is_feature(t))
    free = {(x, y) for y in range(table.h) for x in range(table.w) if table.grid[y][x] == table.by_name["clear"]}
    pieces = []
    while count < target and free:
        by = table.side_keys[len(pieces) % 2]
        name = rng.choice(PIECE_TERRAIN)
        area = min(rng.randint(PIECE_MIN, PIECE_MAX), target - count)
        for attempt in range(TRIES + 1):
            if attempt == TRIES:
                name = "rough"          # passable to every class: it cannot cut a stand off
            t = table.by_name[name]
            piece = _grow(table, rng, free, t, area)
            for x, y in piece:
                table.grid[y][x] = t
            if piece and (attempt == TRIES or table.connected()):
                break
            for x, y in piece:
                table.grid[y][x] = table.by_name["clear"]
        if not piece:
            break                       # no free square takes this terrain
        free -= set(piece)
        count += len(piece)
        pieces.append({"by": by, "terrain": name, "area": len(piece)})
    doc["title"] = f"{table.title}, generated {density} terrain (seed {seed})"
    doc["density"] = density
    doc["sighting"] = SIGHTING[density]
    doc["map"] = table.rows()
    doc["generated"] = {"base": base, "density": density, "seed": seed, "roll_2d6": roll, "percent": percent,
                        "board_squares": table.w * table.h, "total": target, "feature_squares": count,
                        "pieces": pieces}
    return doc


HEADER = """A Micro Armour scenario with a generated table, written by
  ardsearch microarmour-map {density} --seed {seed} --base {base}
(RULES.md, "Generated terrain"). [generated] records the 2D6 roll, the total
and each piece's area and placing side, as the procedure asks."""


def main(argv=None):
    p = argparse.ArgumentParser(prog="ardsearch microarmour-map",
                                description="Generate a Micro Armour table (terrain density open, mixed or closed: "
                                            "2, 4 or 7 x 2D6 percent of the board in features) and write the "
                                            "scenario file.")
    p.add_argument("density", help="open, mixed or closed")
    p.add_argument("--seed", type=int, default=0, help="the same seed gives the same table (default 0)")
    p.add_argument("--base", default="introductory",
                   help="the scenario whose forces, village and roads the table keeps (default introductory)")
    p.add_argument("-o", "--out", metavar="FILE",
                   help="write the scenario here (default: print it); put it in the folder named by "
                        f"${_data.SCENARIO_DIR_ENV} to play it as scenario=<file name>")
    args = p.parse_args(argv)

    def make():
        doc = generate(args.density, args.seed, args.base)
        return doc, dumps(doc, HEADER.format(density=args.density, seed=args.seed, base=args.base))

    def summary(doc):
        g = doc["generated"]
        return (f"{args.density} terrain, 2D6 = {g['roll_2d6']}: {g['percent']}% of "
                f"{g['board_squares']} squares = {g['total']} feature squares in {len(g['pieces'])} pieces")
    return write_tool_output("microarmour-map", make, args.out, summary)

if __name__ == "__main__":
    sys.exit(main())
