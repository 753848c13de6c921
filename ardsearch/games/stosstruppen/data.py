"""Loads and checks the Stosstruppen data files: units.toml (the capability
tables) and scenarios/*.toml (map, armies, victory terms).

The engine copies what this module returns into static C tables at import:
the data never changes during a game, and the state names its scenario by
index. Every mistake raises DataError naming the file, the key and what was
expected, so a user who types in the printed tables finds the slip at once.
"""
from __future__ import annotations

import os
import re

from ardsearch._toml import read_toml
from ardsearch.scenario_folders import scenario_files

HERE = os.path.dirname(os.path.abspath(__file__))
UNITS_PATH = os.path.join(HERE, "units.toml")
SCENARIO_DIR = os.path.join(HERE, "scenarios")
# A folder of more scenario files, played beside the shipped ones (read when
# the engine is imported): a user's own maps, and the tests' maps for rules no
# shipped map has terrain for.
SCENARIO_DIR_ENV = "ARDSEARCH_STOSSTRUPPEN_SCENARIOS"

# Shapes the engine is compiled for (the state struct has fixed arrays).
MAX_COLS = 16
MAX_ROWS = 12
UNITS_PER_SIDE = 16
MARKERS_PER_SIDE = 4
MAX_TYPES = 32
MAX_SCENARIOS = 8
SIDES = ("german", "british")
MORALE = ("green", "regular", "veteran")
DICE = (0, 4, 6, 8, 10, 12, 20)
# map letters in terrain code order (the engine's T_* codes)
TERRAIN_LETTERS = ".=WBFMCTKL"
TERRAIN_NAMES = ("open", "road", "woods", "buildings", "ford", "marsh", "craters",
                 "trench", "bunker", "wall")
DIRECTIONS = ("n", "e", "s", "w")
SQUARE = re.compile(r"^([a-p])([1-9]|1[0-2])$")

UNIT_FLAGS = ("foot", "tank", "at_no_long", "artillery", "star", "plunging", "direct",
              "hq", "main_at", "all_round")
UNIT_DEFAULTS = dict(foot=False, tank=False, move=0, fire=0, at=0, at_no_long=False,
                     melee=0, assault=True, artillery=False, star=False, plunging=False,
                     direct=False, hq=False, armour=0, main=0, main_at=False, secondary=0,
                     all_round=False, table_bonus=0)


class DataError(ValueError):
    """A data file the engine cannot use; the message says where and why."""


def _load_toml(path):
    return read_toml(path, DataError)


def parse_square(text, width=MAX_COLS, height=MAX_ROWS):
    """'c3' -> (col 2, row 2) zero-based, or None if it is not a square on the table."""
    m = SQUARE.match(text) if isinstance(text, str) else None
    if not m:
        return None
    col, row = ord(m.group(1)) - 97, int(m.group(2)) - 1
    if col >= width or row >= height:
        return None
    return col, row


def square_name(col, row):
    return f"{chr(97 + col)}{row + 1}"


def load_units(path=UNITS_PATH):
    """The unit types in file order: list of dicts with every key of UNIT_DEFAULTS plus id, name."""
    data = _load_toml(path)
    types = data.get("type")
    if not isinstance(types, dict) or not types:
        raise DataError(f"{path}: key 'type': expected tables [type.<id>] of unit types")
    if len(types) > MAX_TYPES:
        raise DataError(f"{path}: key 'type': at most {MAX_TYPES} unit types, got {len(types)}")
    out = []
    for tid, t in types.items():
        where = f"{path}: key 'type.{tid}'"
        if not isinstance(t, dict):
            raise DataError(f"{where}: expected a table")
        unknown = set(t) - set(UNIT_DEFAULTS) - {"name"}
        if unknown:
            raise DataError(f"{where}: unknown key {sorted(unknown)[0]!r} "
                            f"(expected: name, {', '.join(UNIT_DEFAULTS)})")
        u = dict(UNIT_DEFAULTS)
        u.update(t)
        u["id"] = tid
        u["name"] = str(t.get("name", tid))
        for k, v in u.items():
            if k in ("id", "name"):
                continue
            if isinstance(UNIT_DEFAULTS[k], bool):
                if not isinstance(v, bool):
                    raise DataError(f"{where}.{k}: expected true or false, got {v!r}")
            elif isinstance(v, bool) or not isinstance(v, int):
                raise DataError(f"{where}.{k}: expected an integer, got {v!r}")
        for k in ("fire", "at", "melee", "main", "secondary"):
            if u[k] not in DICE:
                raise DataError(f"{where}.{k}: expected a die size (one of {DICE}), got {u[k]}")
        if not 0 <= u["move"] <= 8:
            raise DataError(f"{where}.move: expected 0..8 squares, got {u['move']}")
        if not 0 <= u["armour"] <= 20 or not 0 <= u["table_bonus"] <= 5:
            raise DataError(f"{where}: armour expected 0..20 and table_bonus 0..5")
        if u["melee"] == 0:
            raise DataError(f"{where}.melee: every unit needs a melee die")
        if u["tank"] and u["foot"]:
            raise DataError(f"{where}: a unit cannot be both foot and tank")
        if u["tank"] and (u["fire"] or u["at"]):
            raise DataError(f"{where}: tanks fire with main/secondary, not fire/at")
        if not u["tank"] and (u["main"] or u["secondary"] or u["armour"]):
            raise DataError(f"{where}: only tanks have armour, main and secondary")
        out.append(u)
    if not any(u["hq"] for u in out):
        raise DataError(f"{path}: no unit type with hq = true")
    return out


def load_scenario(path, unit_ids):
    """One scenario as a dict ready for the engine's C tables."""
    d = _load_toml(path)
    name = os.path.splitext(os.path.basename(path))[0]

    def need(key, kind, desc):
        if key not in d:
            raise DataError(f"{path}: missing key '{key}' ({desc})")
        v = d[key]
        if not isinstance(v, kind) or isinstance(v, bool) and kind is not bool:
            raise DataError(f"{path}: key '{key}': expected {desc}, got {v!r}")
        return v

    title = need("title", str, "a string")
    w = need("width", int, f"an integer 4..{MAX_COLS}")
    h = need("height", int, f"an integer 4..{MAX_ROWS}")
    if not 4 <= w <= MAX_COLS or not 4 <= h <= MAX_ROWS:
        raise DataError(f"{path}: width/height: expected 4..{MAX_COLS} x 4..{MAX_ROWS}, got {w} x {h}")
    turns = need("turns", int, "an integer 1..30")
    if not 1 <= turns <= 30:
        raise DataError(f"{path}: key 'turns': expected 1..30, got {turns}")
    attacker = need("attacker", str, "german or british")
    if attacker not in SIDES:
        raise DataError(f"{path}: key 'attacker': expected german or british, got {attacker!r}")
    rows = need("map", list, f"a list of {h} strings of {w} characters")
    if len(rows) != h or not all(isinstance(r, str) and len(r) == w for r in rows):
        raise DataError(f"{path}: key 'map': expected {h} strings of {w} characters each")
    terrain = [0] * (MAX_COLS * MAX_ROWS)
    for i, text in enumerate(rows):
        row = h - 1 - i
        for col, ch in enumerate(text):
            if ch not in TERRAIN_LETTERS:
                raise DataError(f"{path}: key 'map' row {row + 1} column {chr(97 + col)}: "
                                f"unknown terrain letter {ch!r} (expected one of {TERRAIN_LETTERS})")
            terrain[row * MAX_COLS + col] = TERRAIN_LETTERS.index(ch)

    def squares(key):
        v = d.get(key, [])
        if not isinstance(v, list):
            raise DataError(f"{path}: key '{key}': expected a list of squares like \"c3\"")
        out = []
        for s in v:
            sq = parse_square(s, w, h)
            if sq is None:
                raise DataError(f"{path}: key '{key}': {s!r} is not a square of the {w} x {h} table")
            out.append(sq[1] * MAX_COLS + sq[0])
        return out

    hill, wire, objectives = squares("hill"), squares("wire"), squares("objectives")
    if not 1 <= len(objectives) <= 8:
        raise DataError(f"{path}: key 'objectives': expected 1..8 squares")
    need_obj = need("objectives_needed", int, "an integer")
    if not 1 <= need_obj <= len(objectives):
        raise DataError(f"{path}: key 'objectives_needed': expected 1..{len(objectives)}")
    bunkers = d.get("bunkers", {})
    if not isinstance(bunkers, dict):
        raise DataError(f"{path}: key 'bunkers': expected a table square = direction")
    aperture = [0] * (MAX_COLS * MAX_ROWS)
    for s, dirn in bunkers.items():
        sq = parse_square(s, w, h)
        if sq is None or terrain[sq[1] * MAX_COLS + sq[0]] != TERRAIN_LETTERS.index("K"):
            raise DataError(f"{path}: key 'bunkers.{s}': expected a bunker square (K on the map)")
        if dirn not in DIRECTIONS:
            raise DataError(f"{path}: key 'bunkers.{s}': expected one of n, e, s, w, got {dirn!r}")
        aperture[sq[1] * MAX_COLS + sq[0]] = DIRECTIONS.index(dirn)
    armies = []
    occupied = set()
    for side in SIDES:
        a = d.get(side)
        if not isinstance(a, dict):
            raise DataError(f"{path}: missing table [{side}]")
        morale = a.get("morale")
        if morale not in MORALE:
            raise DataError(f"{path}: key '{side}.morale': expected green, regular or veteran, got {morale!r}")
        markers = []
        for kind in ("barrage", "cas"):
            n = a.get(kind, 0)
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise DataError(f"{path}: key '{side}.{kind}': expected a count >= 0")
            markers += [kind] * n
        if len(markers) > MARKERS_PER_SIDE:
            raise DataError(f"{path}: [{side}]: at most {MARKERS_PER_SIDE} barrage + cas markers")
        units = a.get("units")
        if not isinstance(units, list) or not 1 <= len(units) <= UNITS_PER_SIDE:
            raise DataError(f"{path}: key '{side}.units': expected a list of 1..{UNITS_PER_SIDE} units")
        placed = []
        for i, u in enumerate(units):
            where = f"{path}: key '{side}.units[{i}]'"
            if not isinstance(u, dict) or u.get("type") not in unit_ids:
                raise DataError(f"{where}.type: expected a unit type of units.toml "
                                f"({', '.join(unit_ids)})")
            sq = parse_square(u.get("at"), w, h)
            if sq is None:
                raise DataError(f"{where}.at: expected a square of the {w} x {h} table, got {u.get('at')!r}")
            idx = sq[1] * MAX_COLS + sq[0]
            if idx in occupied:
                raise DataError(f"{where}.at: square {u['at']} already holds a unit")
            occupied.add(idx)
            facing = u.get("facing", "n" if side == "german" else "s")
            if facing not in DIRECTIONS:
                raise DataError(f"{where}.facing: expected one of n, e, s, w, got {facing!r}")
            placed.append((unit_ids.index(u["type"]), idx, DIRECTIONS.index(facing)))
        armies.append(dict(morale=MORALE.index(morale), markers=markers, units=placed))
    return dict(name=name, path=path, title=title, width=w, height=h, turns=turns,
                attacker=SIDES.index(attacker), objectives_needed=need_obj, terrain=terrain,
                hill=hill, wooded_hill=wooded_hills(hill, terrain), wire=wire, objectives=objectives,
                aperture=aperture, armies=armies)


def wooded_hills(hill, terrain):
    """The squares of every hill holding woods or buildings (Fire A: "No LOS
    may pass over a hill containing Woods or Buildings"). A hill is a group of
    hill squares joined through any of the 8 neighbours (distance is
    Chebyshev, RULES.md, Table and measurement)."""
    blocking = (TERRAIN_LETTERS.index("W"), TERRAIN_LETTERS.index("B"))
    left, out = set(hill), []
    while left:
        group, todo = set(), [left.pop()]
        while todo:
            sq = todo.pop()
            group.add(sq)
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    nb = sq + dy * MAX_COLS + dx
                    if (dx or dy) and nb in left and abs(nb % MAX_COLS - sq % MAX_COLS) <= 1:
                        left.discard(nb)
                        todo.append(nb)
        if any(terrain[sq] in blocking for sq in group):
            out += sorted(group)
    return sorted(out)


def load_all():
    """(unit types, scenarios sorted by file name)."""
    units = load_units()
    ids = [u["id"] for u in units]
    try:
        files = scenario_files(SCENARIO_DIR, SCENARIO_DIR_ENV)
    except OSError as e:
        raise DataError(f"{e.filename}: cannot list scenarios ({e.strerror})") from None
    except ValueError as e:
        raise DataError(str(e)) from None
    if not files or len(files) > MAX_SCENARIOS:
        raise DataError(f"{SCENARIO_DIR} and ${SCENARIO_DIR_ENV}: expected 1..{MAX_SCENARIOS} scenario files "
                        f"in all, got {len(files)}")
    scenarios = [load_scenario(files[name], ids) for name in sorted(files)]
    for sc in scenarios:
        for p, army in enumerate(sc["armies"]):
            if sum(1 for t, _, _ in army["units"] if units[t]["hq"]) > 1:
                raise DataError(f"{sc['path']}: [{SIDES[p]}] has more than one HQ")
            for t, sq, _ in army["units"]:
                if not units[t]["foot"] and sc["terrain"][sq] in (3, 5, 8):
                    raise DataError(f"{sc['path']}: [{SIDES[p]}] a {units[t]['id']} on "
                                    f"{square_name(sq % 16, sq // 16)}: only foot units may be in "
                                    f"buildings, marsh or a bunker")
    return units, scenarios
