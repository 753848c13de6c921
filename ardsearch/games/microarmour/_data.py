"""Loads and validates the game's data files (data/charts.toml,
data/weapons.toml, scenarios/*.toml) into plain Python values. Every problem
is a ValueError naming the file, the key and what was expected. The engine
copies the result into static C tables at import (the data never changes
during a game)."""
from __future__ import annotations

import os

from ardsearch._toml import read_toml
from ardsearch.scenario_folders import scenario_files
from ardsearch.games.microarmour import _obstacles_data
from ardsearch.games.microarmour import _engineering_data
from ardsearch.games.microarmour import _data_units
from ardsearch.games.microarmour import _data_transport
from ardsearch.games.microarmour import _data_drop

from ardsearch.games.microarmour import _data_hidden as _hidden

HERE = os.path.dirname(os.path.abspath(__file__))
CLASSES = "WTFA"
DIRS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
MAX_STANDS = 16      # per side
MAX_TYPES = 48
W_MAX, H_MAX = 40, 30
AA_MAX_MM = 150
MAX_AIRCRAFT = 4     # per scenario (both sides together)
MAX_AA = 6           # AA stands per side: their bonuses sum to at most 12 (one chance node)


def aa_class(mm):
    """The AA stand's bonus to an airstrike's 'to attack' and 'to deviate'
    rolls by calibre (digest, Airstrikes): 40mm or less +2, larger +1; 0 for a
    stand that is not AA."""
    if mm <= 0:
        return 0
    return 2 if mm <= 40 else 1


# A folder of more scenario files (made by `ardsearch microarmour-map` or
# `microarmour-build`), played without copying them into the package.
SCENARIO_DIR_ENV = "ARDSEARCH_MICROARMOUR_SCENARIOS"


def _scenario_files():
    """{name: path} of scenarios/*.toml and of the $ARDSEARCH_MICROARMOUR_SCENARIOS folder."""
    return scenario_files(os.path.join(HERE, "scenarios"), SCENARIO_DIR_ENV)


def scenario_names():
    """The scenario files, the Introductory first (its index 0 is the
    default), then by name."""
    names = sorted(_scenario_files())
    if "introductory" in names:
        names.remove("introductory")
        names.insert(0, "introductory")
    return names
BUILDING_CLASSES = ("light", "medium", "heavy")
MAX_BUILDINGS = 32   # building squares (areas) per scenario: the state holds their damage


def _fail(path, key, expected, got):
    raise ValueError(f"{os.path.basename(path)}: {key}: expected {expected}, got {got!r}")


def _read(path):
    return read_toml(path)


def _int(path, table, key, lo, hi, default=None, where=None, name=None):
    """table[key], an integer in lo..hi; `where` (or `name`) is the key's full name for the error."""
    v = table.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        _fail(path, where or name or key, f"an integer from {lo} to {hi}", v)
    return v


def _half_cost(path, key, v):
    """An MP cost per inch as half-MP units (0 = impassable)."""
    if v == "x":
        return 0
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v <= 0 or v > 10 or (2 * v) != int(2 * v):
        _fail(path, key, 'a cost in half MP steps from 0.5 to 10, or "x" (impassable)', v)
    return int(2 * v)


def _costs(path, key, v):
    if not isinstance(v, list) or len(v) != 4:
        _fail(path, key, "a list of 4 costs (classes W T F A)", v)
    return [_half_cost(path, f"{key}[{i}]", c) for i, c in enumerate(v)]


def _bands(path, key, rng):
    if not isinstance(rng, list) or not rng or len(rng) > 16:
        _fail(path, key, "a list of 1 to 16 [max inches, modifier] pairs", rng)
    last = 0
    bands = []
    for i, b in enumerate(rng):
        if (not isinstance(b, list) or len(b) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in b)
                or b[0] <= last or not -5 <= b[1] <= 10):
            _fail(path, f"{key}[{i}]", "[max inches increasing, modifier -5..10]", b)
        last = b[0]
        bands.append((b[0], b[1]))
    return bands


def _table(path, d, key):
    t = d.get(key)
    if not isinstance(t, dict):
        _fail(path, key, "a table", t)
    return t


def _buildings(path, d):
    """[building]: burning, the three classes and rubble (RULES.md, Buildings)."""
    b = _table(path, d, "building")
    out = {"burn_turns": _int(path, b, "burn_turns", 1, 15, where="building.burn_turns"),
           "burning_mod": _int(path, b, "burning_mod", 0, 10, where="building.burning_mod")}
    for cls in BUILDING_CLASSES:
        c = _table(path, b, cls)
        k = f"building.{cls}."
        out[cls] = {"cohesion": _int(path, c, "cohesion", -5, 10, where=k + "cohesion"),
                    "crt": _int(path, c, "crt", -5, 10, where=k + "crt"),
                    "dv": _int(path, c, "dv", 1, 30, where=k + "dv"),
                    "rubble_after": _int(path, c, "rubble_after", 1, 15, where=k + "rubble_after")}
    r = _table(path, b, "rubble")
    blocks = r.get("blocks_los", False)
    if not isinstance(blocks, bool):
        _fail(path, "building.rubble.blocks_los", "true or false", blocks)
    out["rubble"] = {"cost": _costs(path, "building.rubble.cost", r.get("cost")),
                     "cohesion": _int(path, r, "cohesion", -5, 10, where="building.rubble.cohesion"),
                     "crt": _int(path, r, "crt", -5, 10, where="building.rubble.crt"), "blocks_los": blocks}
    return out


def load_charts(path=None):
    path = path or os.path.join(HERE, "data", "charts.toml")
    d = _read(path)
    out = {}
    out["range"] = _bands(path, "range.bands", d.get("range", {}).get("bands"))
    dp = _table(path, d, "range_dp")
    out["range_dp"] = _bands(path, "range_dp.bands", dp.get("bands"))
    out["range_dp_step"] = _int(path, dp, "step", 1, 40, where="range_dp.step")
    am = _table(path, d, "ammunition")
    out["ammunition"] = {k: _int(path, am, k, lo, hi, where=f"ammunition.{k}")
                         for k, lo, hi in (("special_ap_pct", 100, 300), ("special_ap_used_at", 2, 12),
                                           ("big_gun_range", 1, 40))}
    out["building"] = _buildings(path, d)
    crt = d.get("crt")
    if not isinstance(crt, dict):
        _fail(path, "crt", "a table", crt)
    out["crt"] = {k: _int(path, crt, k, -20, 20) for k in ("min_cd", "max_cd", "e", "d", "ss", "s")}
    c = out["crt"]
    if not (c["min_cd"] <= c["max_cd"] and c["e"] <= c["d"] <= c["ss"] <= c["s"]):
        _fail(path, "crt", "min_cd <= max_cd and e <= d <= ss <= s", crt)
    o = d.get("orders")
    if not isinstance(o, dict):
        _fail(path, "orders", "a table", o)
    at, n = o.get("at"), o.get("orders")
    if not isinstance(at, list) or not isinstance(n, list) or len(at) != len(n) or not at:
        _fail(path, "orders.at / orders.orders", "two lists of equal length", (at, n))
    out["orders_at"] = [int(x) for x in at]
    out["orders_n"] = [int(x) for x in n]
    out["orders_max"] = _int(path, o, "max", 0, 9)
    if out["orders_max"] != out["orders_n"][-1] + 1 or sorted(out["orders_at"]) != out["orders_at"]:
        _fail(path, "orders", "increasing 'at' and max = last orders + 1", o)
    terr = d.get("terrain")
    if not isinstance(terr, dict) or not terr:
        _fail(path, "terrain", "a table of terrain types", terr)
    tlist = []
    chars = set()
    for name, t in terr.items():
        key = f"terrain.{name}"
        ch = t.get("char")
        if not isinstance(ch, str) or len(ch) != 1 or ch in chars:
            _fail(path, key + ".char", "one character, unique", ch)
        chars.add(ch)
        blocks = t.get("blocks_los", False)
        if not isinstance(blocks, bool):
            _fail(path, key + ".blocks_los", "true or false", blocks)
        entry = {"name": name, "char": ch, "cost": _costs(path, key + ".cost", t.get("cost")),
                 "cohesion": _int(path, t, "cohesion", -5, 10), "crt": _int(path, t, "crt", -5, 10),
                 "blocks_los": blocks, "under": t.get("under", name), "building": t.get("building"),
                 "water": _data_units.terrain_water(path, name, t)}
        cls = entry["building"]
        if cls is not None:
            if cls not in BUILDING_CLASSES:
                _fail(path, key + ".building", "light, medium or heavy", cls)
            bc = out["building"][cls]
            # one source of truth for the cover a building square gives
            if (entry["cohesion"], entry["crt"]) != (bc["cohesion"], bc["crt"]):
                _fail(path, key + ".cohesion/crt", f"the {cls} building class's cohesion {bc['cohesion']} "
                      f"and crt {bc['crt']} ([building.{cls}])", (entry["cohesion"], entry["crt"]))
        tlist.append(entry)
    if len(tlist) > 16:
        _fail(path, "terrain", "at most 16 terrain types", len(tlist))
    names = [t["name"] for t in tlist]
    under = {t["name"]: t["under"] for t in tlist}
    for t in tlist:       # a road's underlying terrain (wrecks on roads): a terrain that is not a road itself
        if t["under"] not in names or under[t["under"]] != t["under"]:
            _fail(path, f"terrain.{t['name']}.under", "the name of a terrain type without an 'under' of its own",
                  t["under"])
        t["under"] = names.index(t["under"])
    out["terrain"] = tlist
    w = d.get("wreck")
    if not isinstance(w, dict):
        _fail(path, "wreck", "a table", w)
    out["wreck"] = {"one_cost": _costs(path, "wreck.one_cost", w.get("one_cost")),
                    "two_cost": _costs(path, "wreck.two_cost", w.get("two_cost")),
                    "one_cohesion": _int(path, w, "one_cohesion", -5, 10),
                    "one_crt": _int(path, w, "one_crt", -5, 10),
                    "two_cohesion": _int(path, w, "two_cohesion", -5, 10),
                    "two_crt": _int(path, w, "two_crt", -5, 10)}
    air = d.get("air", {"bomb_radius": 1})
    if not isinstance(air, dict):
        _fail(path, "air", "a table", air)
    out["air"] = {"bomb_radius": _int(path, air, "bomb_radius", 0, 2, 1, name="air.bomb_radius")}
    out["command"] = _load_command(path, d.get("command"))
    out["artillery"] = _artillery_chart(path, d.get("artillery"))
    out.update(_obstacles_data.obstacle_charts(path, d, _costs))   # [position] [obstacle] [minefield]
    out.update(_engineering_data.engineering_charts(path, d))      # [engineering]
    out["spotting"] = _hidden.load_spotting(path, d, names)    # hidden set-up, spotting, night
    return out


def _load_command(path, c):
    """[command]: the broken formation's cohesion penalty, the rising check step and a new
    GHQ's quality on 1D20."""
    if not isinstance(c, dict):
        _fail(path, "command", "a table", c)
    out = {"broken_cohesion": _int(path, c, "broken_cohesion", 0, 20),
           "rising_step": _int(path, c, "rising_step", 0, 20)}
    at, q = c.get("ghq_quality_at"), c.get("ghq_quality")
    if (not isinstance(at, list) or not isinstance(q, list) or len(at) != len(q) or not 1 <= len(at) <= 20
            or any(isinstance(v, bool) or not isinstance(v, int) for v in at + q)
            or at != sorted(set(at)) or at[0] < 1 or at[-1] != 20 or not all(-2 <= v <= 3 for v in q)):
        _fail(path, "command.ghq_quality_at / command.ghq_quality",
              "two lists of equal length: increasing 1D20 rolls ending at 20, qualities -2..3", (at, q))
    out["ghq_quality_at"], out["ghq_quality"] = at, q
    return out


NATIONALITIES = ("us", "uk_late", "german", "uk_early", "other")


def _artillery_chart(path, a):
    """charts.toml [artillery] (RULES.md, Indirect artillery)."""
    if not isinstance(a, dict):
        _fail(path, "artillery", "a table", a)
    delay = a.get("delay")
    if not isinstance(delay, dict) or set(delay) != set(NATIONALITIES):
        _fail(path, "artillery.delay", "a delay for each of " + ", ".join(NATIONALITIES), delay)
    out = {"delay": {k: _int(path, delay, k, 1, 3) for k in NATIONALITIES}}
    at, n = a.get("prereg_at"), a.get("prereg_n")
    if (not isinstance(at, list) or not isinstance(n, list) or len(at) != len(n) or not at
            or sorted(at) != at or not all(isinstance(v, int) and 0 <= v <= 3 for v in n)):
        _fail(path, "artillery.prereg_at / prereg_n", "two lists of equal length, increasing cohesion, counts 0..3",
              (at, n))
    out["prereg_at"], out["prereg_n"] = list(at), list(n)
    out["prereg_max"] = _int(path, a, "prereg_max", 0, 3)
    out["prereg_mod"] = _int(path, a, "prereg_mod", -10, 10)
    out["adjusted_mod"] = _int(path, a, "adjusted_mod", -10, 10)
    out["barrage_columns"] = _int(path, a, "barrage_columns", 0, 6)
    spt = a.get("smoke_per_turn")
    if isinstance(spt, bool) or not isinstance(spt, (int, float)) or not 0 <= spt <= 1:
        _fail(path, "artillery.smoke_per_turn", "a number from 0 to 1", spt)
    out["smoke_per_turn"] = float(spt)
    out["smoke_turns"] = _int(path, a, "smoke_turns", 1, 3)
    out["plot_grid"] = _int(path, a, "plot_grid", 3, 10)
    return out


def plot_aim(charts, width, height, x, y):
    """The aiming square of the plot cell holding square (x, y): its centre, pulled
    back onto the table in a cell the edge cuts (as the engine's code_point)."""
    g = charts["artillery"]["plot_grid"]
    return min(x // g * g + g // 2, width - 1), min(y // g * g + g // 2, height - 1)


def prereg_allowed(charts, cohesion):
    """Pre-registered target points a force of this cohesion may have (design table)."""
    a = charts["artillery"]
    for at, n in zip(a["prereg_at"], a["prereg_n"]):
        if cohesion <= at:
            return n
    return a["prereg_max"]


def load_weapons(path=None, charts=None):
    path = path or os.path.join(HERE, "data", "weapons.toml")
    d = _read(path)
    types = []
    for key, t in d.items():
        if not isinstance(t, dict):
            _fail(path, key, "a table of weapon data", t)
        k = lambda f: f"{key}.{f}"
        name = t.get("name", key)
        defence = t.get("defence")
        if defence not in ("A", "U", "P"):
            _fail(path, k("defence"), '"A", "U" or "P"', defence)
        move = t.get("move")
        if not isinstance(move, str) or move not in CLASSES or len(move) != 1:
            _fail(path, k("move"), "one of W T F A", move)
        role = t.get("role", "unit")
        if role not in ("unit", "hq", "ghq"):
            _fail(path, k("role"), '"unit", "hq" or "ghq"', role)
        for flag in ("open_top", "recon", "cavalry", "engineer", "indirect", "smoke", "mine_clearing", "wreck_clearing") + EXTRA_FLAGS:
            if not isinstance(t.get(flag, False), bool):
                _fail(path, k(flag), "true or false", t.get(flag))
        aa_mm = t.get("aa", 0)
        if isinstance(aa_mm, bool) or not isinstance(aa_mm, int) or not 0 <= aa_mm <= AA_MAX_MM:
            _fail(path, k("aa"), f"an AA calibre in mm from 1 to {AA_MAX_MM} (0 or absent: not an AA stand)", aa_mm)
        types.append({"key": key, "name": str(name),
                      "ap": _int(path, t, "ap", 0, 30), "he": _int(path, t, "he", 0, 30),
                      "dv": _int(path, t, "dv", 1, 30), "defence": defence,
                      "range": _int(path, t, "range", 1, 40), "mp": _int(path, t, "mp", 0, 30),
                      "move": move, "role": role, "open_top": t.get("open_top", False),
                      "recon": t.get("recon", False), "cavalry": t.get("cavalry", False),
                      "engineer": t.get("engineer", False), "aa": aa_mm,
                      "indirect": t.get("indirect", False), "smoke": t.get("smoke", False),
                      "mine_clearing": t.get("mine_clearing", False),
                      "wreck_clearing": t.get("wreck_clearing", False),
                      "aa_bonus": aa_class(aa_mm),
                      "cargo": _int(path, t, "cargo", 0, 8, default=0, where=k("cargo"))})
        types[-1].update(_weapon_extras(path, key, t))
        types[-1].update(_data_units.weapon_units(path, key, t))      # special stand types
        types[-1].update(_engineering_data.weapon_engineering(path, key, t))   # dozer, bridging, materials
    if not types or len(types) > MAX_TYPES:
        _fail(path, "(file)", f"1 to {MAX_TYPES} weapon types", len(types))
    _data_units.check_weapon_units(path, types, (charts or load_charts())["terrain"])
    _data_transport.add_load_points(types)      # load points: two-turn loads (RULES.md, Transport)
    keys = [w["key"] for w in types]
    for w in types:
        r = w["restricted"]
        if r is None:
            continue
        if r not in keys:
            _fail(path, f"{w['key']}.restricted", "a weapon type of this file (the infantry HQ whose values it "
                  "fights with outside its arc)", r)
        fb = types[keys.index(r)]
        if fb["restricted"] is not None or fb["depletion"] or fb["special_ap"] or fb["heat_rounds"]:
            _fail(path, f"{w['key']}.restricted", "a type without 'R' or ammunition codes", r)
    return types


EXTRA_FLAGS = ("mmg", "light_mortar", "artillery", "special_ap", "big_gun", "dual_purpose")


def _weapon_extras(path, key, t):
    """The direct-fire codes (weapons.toml header; RULES.md, Weapons extras)."""
    k = lambda f: f"{key}.{f}"
    out = {f: t.get(f, False) for f in EXTRA_FLAGS}
    out["depletion"] = _int(path, t, "depletion", 1, 12, where=k("depletion")) if "depletion" in t else 0
    out["heat_rounds"] = _int(path, t, "heat_rounds", 1, 15, where=k("heat_rounds")) if "heat_rounds" in t else 0
    out["heat_ap"] = _int(path, t, "heat_ap", 1, 30, where=k("heat_ap")) if "heat_rounds" in t else 0
    if "heat_ap" in t and "heat_rounds" not in t:
        _fail(path, k("heat_rounds"), "an integer from 1 to 15 beside heat_ap", None)
    if sum(1 for v in (out["depletion"], out["special_ap"], out["heat_rounds"]) if v) > 1:
        _fail(path, key, "at most one of depletion, special_ap, heat_rounds", t)
    r = t.get("restricted")
    if r is not None and not isinstance(r, str):
        _fail(path, k("restricted"), "a weapon type key", r)
    out["restricted"] = r
    return out


BASE_KEYS = {"title", "base", "turns", "map", "side", "battery", "aircraft", "position"}
BASE_SIDE_KEYS = {"nationality", "prereg"}


def load_scenario(name="introductory", charts=None, weapons=None, path=None):
    path = path or _scenario_files().get(name) or os.path.join(HERE, "scenarios", f"{name}.toml")
    d = _read(path)
    charts = charts or load_charts()
    weapons = weapons or load_weapons()
    if "base" in d:
        return _load_on_base(path, d, charts, weapons)
    return _load_table(path, d, name, charts, weapons)


def _map_grid(path, rows, charts):
    """The `map` rows (top row first) as grid[y][x] of terrain indices."""
    tchars = {t["char"]: i for i, t in enumerate(charts["terrain"])}
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        _fail(path, "map", "a list of strings", rows)
    width, height = len(rows[0]), len(rows)
    if not (5 <= width <= W_MAX and 5 <= height <= H_MAX) or any(len(r) != width for r in rows):
        _fail(path, "map", f"rows of equal length, 5..{W_MAX} wide, 5..{H_MAX} high", (width, height))
    grid = [[0] * width for _ in range(height)]  # grid[y][x]
    for i, r in enumerate(rows):
        for x, ch in enumerate(r):
            if ch not in tchars:
                _fail(path, f"map[{i}][{x}]", "a terrain character from charts.toml (" + "".join(tchars) + ")", ch)
            grid[height - 1 - i][x] = tchars[ch]
    return grid


def _load_table(path, d, name, charts, weapons):
    """A scenario file without a base, read as the table `d`."""
    tkeys = {t["key"]: i for i, t in enumerate(weapons)}
    grid = _map_grid(path, d.get("map"), charts)
    width, height = len(grid[0]), len(grid)
    out = {"title": str(d.get("title", name)), "width": width, "height": height, "grid": grid,
           "turns": _int(path, d, "turns", 1, 50), "sighting": _int(path, d, "sighting", 1, 60)}
    sides = d.get("side")
    if not isinstance(sides, dict) or len(sides) != 2:
        _fail(path, "side", "two side tables", sides)
    side_keys = list(sides)
    out["sides"] = []
    for sk in side_keys:
        s = sides[sk]
        edge = s.get("edge")
        if edge not in ("west", "east"):
            _fail(path, f"side.{sk}.edge", '"west" or "east"', edge)
        out["sides"].append({"key": sk, "name": str(s.get("name", sk)),
                             "cohesion": _int(path, s, "cohesion", 5, 20),
                             "quality": _int(path, s, "quality", -2, 3), "edge": edge,
                             "replace_mod": _int(path, s, "replace_mod", 0, 10),
                             "entry": _data_units.side_entry(path, sk, s)})
    stands = d.get("stand")
    if not isinstance(stands, list):
        _fail(path, "stand", "an array of [[stand]] tables", stands)
    per = [[], []]
    ids = set()
    seen_at = set()
    for i, st in enumerate(stands):
        k = f"stand[{i}]"
        sid = st.get("id")
        if not isinstance(sid, str) or not sid.isalnum() or not 1 <= len(sid) <= 6 or sid in ids or not sid[0].isalpha():
            _fail(path, k + ".id", "a unique alphanumeric id of 1..6 characters starting with a letter", sid)
        ids.add(sid)
        if st.get("type") not in tkeys and not _hidden.is_dummy(st):
            _fail(path, k + ".type", "a weapon type from weapons.toml (or \"dummy\" for a hidden dummy)", st.get("type"))
        if st.get("side") not in side_keys:
            _fail(path, k + ".side", " or ".join(side_keys), st.get("side"))
        at = st.get("at")
        if (not isinstance(at, list) or len(at) != 2 or not all(isinstance(v, int) for v in at)
                or not 0 <= at[0] < width or not 0 <= at[1] < height
                or (tuple(at) in seen_at and "carried_by" not in st)):
            _fail(path, k + ".at", "a free square [x, y] on the map (cargo: its carrier's square)", at)
        if "carried_by" not in st:
            seen_at.add(tuple(at))
        if st.get("facing") not in DIRS:
            _fail(path, k + ".facing", "one of " + " ".join(DIRS), st.get("facing"))
        support = st.get("support", False)
        if not isinstance(support, bool):
            _fail(path, k + ".support", "true or false (a stand in play only with the support parameter)", support)
        unit_keys = (_data_units.stand_units(path, k, st, weapons[tkeys[st["type"]]], charts["terrain"], grid)
                     if st["type"] in tkeys else {"mounted": False})          # a dummy has no horses
        per[side_keys.index(st["side"])].append({"id": sid, "type": tkeys.get(st["type"], -1), "x": at[0], "y": at[1],
                                                  "facing": DIRS.index(st["facing"]), "support": support,
                                                  **unit_keys, "carried_by": st.get("carried_by"),
                                                  **_hidden.stand_keys(path, k, st)})
    for p in range(2):
        if not 1 <= len(per[p]) <= MAX_STANDS:
            _fail(path, "stand", f"1 to {MAX_STANDS} stands per side", len(per[p]))
        if sum(1 for s in per[p] if weapons[s["type"]]["role"] == "ghq") != 1:
            _fail(path, "stand", f"exactly one GHQ stand for side {side_keys[p]}", None)
        if any(s["support"] for s in per[p]) and not all(s["support"] for s in per[p][per[p].index(
                next(s for s in per[p] if s["support"])):]):
            _fail(path, "stand", f"the support stands of side {side_keys[p]} after all its other stands", None)
    out["stands"] = per
    _carriers(path, per, weapons, side_keys)
    out["aircraft"] = _aircraft(path, d, side_keys, width, height)
    out["drop"] = _data_drop.scenario_drop(path, d, side_keys, per, weapons, out["turns"])   # paratroops
    out["groups"] = _data_units.groups(path, d, side_keys, per)
    out["buildings"] = _scenario_buildings(path, d, charts, grid, width, height)
    # improved positions, wire, ditches, minefield markers (_obstacles_data.py)
    out.update(_obstacles_data.scenario_obstacles(path, d, charts, side_keys, out["sides"], per, width, height))
    _hidden.finish(path, d, out, charts, weapons)      # hidden set-up, dummies, weather and night
    for p in range(2):
        n_aa = sum(1 for s in per[p] if weapons[s["type"]]["aa"] > 0)
        if n_aa > MAX_AA:
            _fail(path, "stand", f"at most {MAX_AA} AA stands for side {side_keys[p]}", n_aa)
    _load_artillery(path, d, out, charts, weapons)
    return out


def _aircraft(path, d, side_keys, width, height):
    """[[aircraft]] tables (airstrikes, RULES.md "Airstrikes"): id, side, name,
    arrive (the first of its up to 3 turns), turns (1..3), ordnance (bomb
    loads), strafe and bomb firepower, fasc (a Forward Air Support Coordinator
    by nation and date), plot (optional: a bomb point plotted before play)."""
    planes = d.get("aircraft", [])
    if not isinstance(planes, list) or not all(isinstance(a, dict) for a in planes):
        _fail(path, "aircraft", "an array of [[aircraft]] tables", planes)
    if len(planes) > MAX_AIRCRAFT:
        _fail(path, "aircraft", f"at most {MAX_AIRCRAFT} aircraft", len(planes))
    out = []
    ids = set()
    for i, a in enumerate(planes):
        k = f"aircraft[{i}]"
        aid = a.get("id")
        if not isinstance(aid, str) or not aid.isalnum() or not 1 <= len(aid) <= 6 or aid in ids:
            _fail(path, k + ".id", "a unique alphanumeric id of 1..6 characters", aid)
        ids.add(aid)
        if a.get("side") not in side_keys:
            _fail(path, k + ".side", " or ".join(side_keys), a.get("side"))
        if "arrive" not in a:
            _fail(path, k + ".arrive", "the turn the aircraft arrives (an aircraft without turns never flies)", None)
        turns = a.get("turns", 3)
        if isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= 3:
            _fail(path, k + ".turns", "the number of turns it is present, 1 to 3 (at most 3 turns)", turns)
        fasc = a.get("fasc", False)
        if not isinstance(fasc, bool):
            _fail(path, k + ".fasc", "true or false (a Forward Air Support Coordinator by nation and date)", fasc)
        plane = {"id": aid, "side": side_keys.index(a["side"]), "name": str(a.get("name", aid)),
                 "arrive": _int(path, a, "arrive", 1, 50, name=k + ".arrive"), "turns": turns,
                 "ordnance": _int(path, a, "ordnance", 0, 2, 1, name=k + ".ordnance"),
                 "strafe": _int(path, a, "strafe", 0, 30, name=k + ".strafe"),
                 "bomb": _int(path, a, "bomb", 0, 30, 0, name=k + ".bomb"),
                 "fasc": fasc, "plot": None}
        plot = a.get("plot")
        if plot is not None:
            if (not isinstance(plot, list) or len(plot) != 2
                    or not all(isinstance(v, int) and not isinstance(v, bool) for v in plot)
                    or not 0 <= plot[0] < width or not 0 <= plot[1] < height):
                _fail(path, k + ".plot", f"a bomb point [x, y] on the table (0..{width - 1}, 0..{height - 1})", plot)
            if plane["turns"] < 2 or plane["ordnance"] == 0:
                _fail(path, k + ".plot", "no plot: the aircraft never bombs (it needs 2+ turns and ordnance)", plot)
            plane["plot"] = (plot[0], plot[1])
        out.append(plane)
    return out


def _scenario_buildings(path, d, charts, grid, width, height):
    """Every square of building terrain is a building area (RULES.md, Buildings):
    [(x, y, class index, class index with the support parameter)] in row order."""
    areas = []
    index = {}
    for y in range(height):
        for x in range(width):
            cls = charts["terrain"][grid[y][x]]["building"]
            if cls is not None:
                index[(x, y)] = len(areas)
                c = BUILDING_CLASSES.index(cls)
                areas.append([x, y, c, c])
    if len(areas) > MAX_BUILDINGS:
        _fail(path, "map", f"at most {MAX_BUILDINGS} building squares", len(areas))
    sb = d.get("support_building", [])
    if not isinstance(sb, list):
        _fail(path, "support_building", "an array of [[support_building]] tables", sb)
    for i, b in enumerate(sb):
        k = f"support_building[{i}]"
        at = b.get("at") if isinstance(b, dict) else None
        if not isinstance(at, list) or len(at) != 2 or tuple(at) not in index:
            _fail(path, k + ".at", "a building square [x, y] of the map", at)
        if b.get("class") not in BUILDING_CLASSES:
            _fail(path, k + ".class", "light, medium or heavy", b.get("class"))
        areas[index[tuple(at)]][3] = BUILDING_CLASSES.index(b["class"])
    return [tuple(a) for a in areas]


def _load_on_base(path, d, charts, weapons):
    """A scenario that takes its table, forces and terms from another file
    (`base`) and adds only fire support (batteries and aircraft) and improved positions (design,
    RULES.md Scenarios: a variant of the Introductory written once), and may set its own `turns`
    (the game's length is a term a variant may need to tune without copying the base's forces)
    and its own `map` of the base's size (so a variant balanced on one table keeps it when the
    base's layout is retuned)."""
    base = d["base"]
    files = _scenario_files()
    if base not in files or base == os.path.basename(path)[:-5] or "base" in _read(files[base]):
        _fail(path, "base", 'the name of a scenario file without a base of its own, such as "introductory" '
              "(whose table and forces it adds fire support to)", base)
    for key in d:
        if key not in BASE_KEYS:
            _fail(path, key, "no such key in a scenario with a base (allowed: " + ", ".join(sorted(BASE_KEYS)) + ")",
                  d[key])
    sides = d.get("side", {})
    if not isinstance(sides, dict):
        _fail(path, "side", "side tables", sides)
    for sk, s in sides.items():
        for key in s:
            if key not in BASE_SIDE_KEYS:
                _fail(path, f"side.{sk}.{key}", "only nationality and prereg in a scenario with a base", s[key])
    if "map" in d:      # its own table under the base's forces (RULES.md Scenarios: barrage, combined)
        _map_grid(path, d["map"], charts)            # a bad row is this file's error
        bd = _read(files[base])
        _map_grid(files[base], bd.get("map"), charts)
        if (len(d["map"]), len(d["map"][0])) != (len(bd["map"]), len(bd["map"][0])):
            _fail(path, "map", f"the base's size, {len(bd['map'][0])} x {len(bd['map'])}",
                  f"{len(d['map'][0])} x {len(d['map'])}")
        try:
            out = _load_table(files[base], dict(bd, map=d["map"]), base, charts, weapons)
        except ValueError as e:
            _fail(path, "map", f"a table the base's stands, buildings and markers fit ({e})", "one they do not")
    else:
        out = load_scenario(base, charts, weapons)
    out["title"] = str(d.get("title", out["title"]))
    if "turns" in d:                     # before the batteries: their smoke missions are turns x 0.3
        out["turns"] = _int(path, d, "turns", 1, 50)
        if out["drop"] is not None and out["drop"]["turn"] > out["turns"]:
            _fail(path, "turns", f"at least the base's drop turn, {out['drop']['turn']}", out["turns"])
    if "aircraft" in d:
        out["aircraft"] = _aircraft(path, d, [s["key"] for s in out["sides"]], out["width"], out["height"])
    _load_artillery(path, d, out, charts, weapons)
    if "position" in d:                  # improved positions for the fire support to meet (RULES.md)
        out["positions"] = _obstacles_data.scenario_obstacles(
            path, {"position": d["position"]}, charts, [s["key"] for s in out["sides"]], out["sides"],
            out["stands"], out["width"], out["height"])["positions"]
    return out


MAX_BATTERIES = 4     # per side
SHEAFS = ("closed", "open")


def _load_artillery(path, d, out, charts, weapons):
    """Nationality, pre-registered target points and off-board batteries
    (RULES.md, Indirect artillery); every problem names file, key and reason."""
    sides = d.get("side", {})
    keys = [s["key"] for s in out["sides"]]
    for sk in sides:
        if sk not in keys:
            _fail(path, f"side.{sk}", "a side of the scenario (" + ", ".join(keys) + ")", sk)
    for p, sd in enumerate(out["sides"]):
        s = sides.get(sd["key"], {})
        nat = s.get("nationality", "other")
        if nat not in NATIONALITIES:
            _fail(path, f"side.{sd['key']}.nationality", "one of " + ", ".join(NATIONALITIES), nat)
        sd["nationality"] = nat
        sd["delay"] = charts["artillery"]["delay"][nat]
        pts = s.get("prereg", [])
        allowed = prereg_allowed(charts, sd["cohesion"])
        if not isinstance(pts, list) or len(pts) > allowed:
            _fail(path, f"side.{sd['key']}.prereg",
                  f"a list of at most {allowed} pre-registered target points (cohesion {sd['cohesion']}, "
                  f"charts.toml artillery.prereg_at)", pts)
        for i, pt in enumerate(pts):
            if (not isinstance(pt, list) or len(pt) != 2 or not all(isinstance(v, int) and not isinstance(v, bool)
                                                                    for v in pt)
                    or not 0 <= pt[0] < out["width"] or not 0 <= pt[1] < out["height"]):
                _fail(path, f"side.{sd['key']}.prereg[{i}]",
                      f"a target point [x, y] on the table (0..{out['width'] - 1}, 0..{out['height'] - 1})", pt)
            if tuple(pt) != plot_aim(charts, out["width"], out["height"], *pt):
                _fail(path, f"side.{sd['key']}.prereg[{i}]",
                      f"the aiming square of a plot cell, as every plot (here {list(plot_aim(charts, out['width'], out['height'], *pt))}): "
                      f"x, y = {charts['artillery']['plot_grid']}k + {charts['artillery']['plot_grid'] // 2}, "
                      f"or the table's last square in an edge cell", pt)
            if pt in pts[:i]:
                _fail(path, f"side.{sd['key']}.prereg[{i}]", "a point not listed twice", pt)
        sd["prereg"] = [tuple(pt) for pt in pts]
    bats = d.get("battery", [])
    if not isinstance(bats, list):
        _fail(path, "battery", "an array of [[battery]] tables", bats)
    tkeys = {t["key"]: i for i, t in enumerate(weapons)}
    ids = {s["id"]: (p, l) for p in range(2) for l, s in enumerate(out["stands"][p])}
    per = [[], []]
    for i, b in enumerate(bats):
        k = f"battery[{i}]"
        if not isinstance(b, dict):
            _fail(path, k, "a table", b)
        bid = b.get("id")
        if (not isinstance(bid, str) or not bid.isalnum() or not 1 <= len(bid) <= 6 or not bid[0].isalpha()
                or bid in ids or any(bid == x["id"] for q in per for x in q)):
            _fail(path, k + ".id", "a unique alphanumeric id of 1..6 characters starting with a letter "
                  "(not a stand's)", bid)
        if b.get("side") not in keys:
            _fail(path, k + ".side", " or ".join(keys), b.get("side"))
        p = keys.index(b["side"])
        on_board = b.get("stand")
        if on_board is not None:
            # an on-board 'I' stand fires as this battery: its type is the stand's
            if on_board not in ids or ids[on_board][0] != p:
                _fail(path, k + ".stand", f"the id of an indirect-fire stand of side {b['side']}", on_board)
            if "type" in b:
                _fail(path, k + ".type", "no type for an on-board battery (the stand's type is used)", b["type"])
            ty = weapons[out["stands"][p][ids[on_board][1]]["type"]]["key"]
            if not weapons[tkeys[ty]]["indirect"]:
                _fail(path, k + ".stand", "a stand whose weapon type fires indirect (indirect = true)", on_board)
        else:
            ty = b.get("type")
        if ty not in tkeys or not weapons[tkeys[ty]]["indirect"]:
            _fail(path, k + ".type", "an indirect-fire weapon type from weapons.toml (indirect = true)", ty)
        obs = b.get("observer")
        if obs is None:
            _fail(path, k + ".observer", "the id of the battery's forward observer (a stand of its side): "
                  "a battery without an observer cannot be plotted", obs)
        if obs not in ids or ids[obs][0] != p:
            _fail(path, k + ".observer", f"the id of a stand of side {b['side']}", obs)
        sheaf = b.get("sheaf", "closed")
        if sheaf not in SHEAFS:
            _fail(path, k + ".sheaf", '"closed" or "open"', sheaf)
        barrage = b.get("barrage", False)
        if not isinstance(barrage, bool):
            _fail(path, k + ".barrage", "true or false", barrage)
        smoke = int(out["turns"] * charts["artillery"]["smoke_per_turn"]) if weapons[tkeys[ty]]["smoke"] else 0
        per[p].append({"id": bid, "type": tkeys[ty], "he": weapons[tkeys[ty]]["he"],
                       "sections": _int(path, b, "sections", 1, 3), "open": sheaf == "open",
                       "observer": ids[obs][1], "barrage": barrage,
                       "stand": None if on_board is None else ids[on_board][1], "duration": _int(path, b, "duration", 1, 3, 1),
                       "smoke": min(smoke, 15)})
    for p in range(2):
        if len(per[p]) > MAX_BATTERIES:
            _fail(path, "battery", f"at most {MAX_BATTERIES} batteries per side", len(per[p]))
        if out["sides"][p]["prereg"] and not per[p]:
            _fail(path, f"side.{keys[p]}.prereg", "no pre-registered points for a side without a [[battery]] "
                  "(only a battery fires on them)", [list(pt) for pt in out["sides"][p]["prereg"]])
    out["batteries"] = per


def _carriers(path, per, weapons, side_keys):
    """Stands that start aboard a vehicle (a stand's carried_by key, RULES.md Transport):
    each names a vehicle of its own side on its own square, with room for it; replaced
    by the carrier's index among its side's stands."""
    for p in range(2):
        ids = [s["id"] for s in per[p]]
        for s in per[p]:
            cb = s["carried_by"]
            if cb is None:
                continue
            key = f"stand {s['id']}.carried_by"
            if cb not in ids or cb == s["id"]:
                _fail(path, key, f"the id of another {side_keys[p]} stand (its carrier)", cb)
            v = per[p][ids.index(cb)]
            if v["hidden"]:
                # design (RULES.md "Transport and hidden set-up"): a marker stands for one stand
                _fail(path, key, "a carrier that is not hidden (a marker or dummy carries nothing: set the "
                      "carrier up shown, or its cargo aboard another)", cb)
            tv, tc = weapons[v["type"]], weapons[s["type"]]
            if v["carried_by"] is not None or tv["move"] == "F" or tv["cargo"] == 0:
                _fail(path, key, "a vehicle with a cargo capacity (weapons.toml cargo), not itself carried", cb)
            if tc["move"] != "F" or tc["defence"] == "A":
                _fail(path, key, "cargo that is personnel or a towed weapon (move F)", s["id"])
            if (v["x"], v["y"]) != (s["x"], s["y"]) or v["support"] != s["support"]:
                _fail(path, key, "cargo at its carrier's square, both support stands or neither", s["id"])
    for p in range(2):
        ids = [s["id"] for s in per[p]]
        for i, v in enumerate(per[p]):
            load = [s for s in per[p] if s["carried_by"] == v["id"]]
            eq = sum(1 for s in load if weapons[s["type"]]["defence"] == "U")
            if len(load) - eq > weapons[v["type"]]["cargo"] or eq > 1:
                _fail(path, f"stand {v['id']}", f"at most {weapons[v['type']]['cargo']} personnel stands "
                      "and one towed weapon aboard", [s["id"] for s in load])
        for s in per[p]:
            if s["carried_by"] is not None:
                s["carried_by"] = ids.index(s["carried_by"])
