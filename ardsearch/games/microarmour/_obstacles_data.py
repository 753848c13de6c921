"""Loads and validates the obstacle and minefield data (RULES.md "Improved
positions", "Wire and anti-tank ditches", "Minefields"): the charts.toml tables
[position], [obstacle] and [minefield], and a scenario's [[position]], wire,
ditch and [[minefield]] keys. Every problem is a ValueError naming the file,
the key and what was expected (one line), as in _data.py."""
from __future__ import annotations

import os

IP_CLASSES = ("light", "medium", "heavy")
MF_KINDS = ("dummy", "hasty", "standard", "concentrated")   # marker kind 0..3 (state: 2 bits a marker)
MAX_POSITIONS = 8    # improved positions per scenario (the state holds their damage)
MAX_MINEFIELDS = 16  # minefield markers per scenario, real and dummy (a 16-bit mask in the state)
DIRS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")


def _fail(path, key, expected, got):
    raise ValueError(f"{os.path.basename(path)}: {key}: expected {expected}, got {got!r}")


def _int(path, t, key, lo, hi, where):
    v = t.get(key) if isinstance(t, dict) else None
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        _fail(path, where, f"an integer from {lo} to {hi}", v)
    return v


def _table(path, d, key):
    t = d.get(key)
    if not isinstance(t, dict):
        _fail(path, key, "a table", t)
    return t


def obstacle_charts(path, d, costs):
    """[position.<class>], [obstacle] and [minefield] of charts.toml; `costs`
    is _data._costs (a list of 4 per-class costs in half-MP, 0 impassable)."""
    out = {"position": {}}
    pos = _table(path, d, "position")
    for cls in IP_CLASSES:
        c = pos.get(cls)
        k = f"position.{cls}."
        if not isinstance(c, dict):
            _fail(path, f"position.{cls}", "a table", c)
        vanish = c.get("vanish_empty", False)
        if not isinstance(vanish, bool):
            _fail(path, k + "vanish_empty", "true or false", vanish)
        out["position"][cls] = {"cohesion": _int(path, c, "cohesion", -5, 10, k + "cohesion"),
                                "crt": _int(path, c, "crt", -5, 10, k + "crt"),
                                "e_to_destroy": _int(path, c, "e_to_destroy", 0, 7, k + "e_to_destroy"),
                                "vanish_empty": vanish,
                                "dv": _int(path, c, "dv", 0, 20, k + "dv")}
    ob = _table(path, d, "obstacle")
    out["obstacle"] = {"wire": costs(path, "obstacle.wire_cost", ob.get("wire_cost")),
                       "ditch": costs(path, "obstacle.ditch_cost", ob.get("ditch_cost"))}
    mf = _table(path, d, "minefield")
    col = mf.get("column")
    if not isinstance(col, dict):
        _fail(path, "minefield.column", "a table of CRT columns by kind (hasty, standard, concentrated)", col)
    out["minefield"] = {"column": [0] + [_int(path, col, k, -3, 9, f"minefield.column.{k}") for k in MF_KINDS[1:]],
                        "leave_mod": _int(path, mf, "leave_mod", 0, 10, "minefield.leave_mod")}
    for who in ("engineer", "vehicle"):
        b = mf.get(f"breach_{who}")
        if not isinstance(b, dict):
            _fail(path, f"minefield.breach_{who}", "a table of successful rolls by kind (hasty, standard, "
                  "concentrated)", b)
        out["minefield"][f"breach_{who}"] = [0] + [_int(path, b, k, 1, 9, f"minefield.breach_{who}.{k}")
                                                   for k in MF_KINDS[1:]]
    dm = mf.get("dummies")
    if (not isinstance(dm, list) or not dm or not all(
            isinstance(b, list) and len(b) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in b)
            for b in dm) or [b[0] for b in dm] != sorted({b[0] for b in dm}) or dm[-1][0] < 20
            or not all(0 <= b[1] <= 16 for b in dm)):
        _fail(path, "minefield.dummies", "[[cohesion up to, dummies per 4 real minefields], ...] with increasing "
              "cohesion, the last at 20 or more", dm)
    out["minefield"]["dummies"] = [tuple(b) for b in dm]
    return out


def dummies_allowed(charts, cohesion, real):
    """Dummy markers a side of this force cohesion may add to `real` real
    minefields (digest: 1/4 at 11 or less, 1/2 at 12-14, 1 at 15+ per real
    one; rounded down, design)."""
    for upto, per4 in charts["minefield"]["dummies"]:
        if cohesion <= upto:
            return real * per4 // 4
    return 0


def _square(path, key, at, width, height):
    if (not isinstance(at, list) or len(at) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in at)
            or not 0 <= at[0] < width or not 0 <= at[1] < height):
        _fail(path, key, f"a square [x, y] on the map (0..{width - 1}, 0..{height - 1})", at)
    return at[0], at[1]


def scenario_obstacles(path, d, charts, side_keys, sides, stands, width, height):
    """A scenario's improved positions, wire and ditch squares and minefield
    markers. `stands` is the per-side stand list _data.load_scenario built
    (dicts with x, y), `sides` its side dicts (cohesion)."""
    out = {}
    pos = d.get("position", [])
    if not isinstance(pos, list) or not all(isinstance(p, dict) for p in pos):
        _fail(path, "position", "an array of [[position]] tables", pos)
    if len(pos) > MAX_POSITIONS:
        _fail(path, "position", f"at most {MAX_POSITIONS} improved positions", len(pos))
    seen = set()
    out["positions"] = []
    for i, p in enumerate(pos):
        k = f"position[{i}]"
        extra = sorted(set(p) - {"side", "at", "class", "facing"})
        if extra:
            _fail(path, f"{k}.{extra[0]}", "only side, at, class and facing (wire and ditch go before the "
                  "first [[table]] of the file)", p[extra[0]])
        if p.get("side") not in side_keys:
            _fail(path, k + ".side", " or ".join(side_keys), p.get("side"))
        side = side_keys.index(p["side"])
        x, y = _square(path, k + ".at", p.get("at"), width, height)
        if (x, y) in seen:
            _fail(path, k + ".at", "a square without another improved position", [x, y])
        seen.add((x, y))
        if p.get("class") not in IP_CLASSES:
            _fail(path, k + ".class", "light, medium or heavy", p.get("class"))
        if p.get("facing") not in DIRS:
            _fail(path, k + ".facing", "the facing it was dug for: one of " + " ".join(DIRS), p.get("facing"))
        cls = IP_CLASSES.index(p["class"])
        if charts["position"][p["class"]]["vanish_empty"] and not any(
                (s["x"], s["y"]) == (x, y) for s in stands[side]):
            _fail(path, k + ".at", f"a square holding a stand of side {p['side']} (an empty {p['class']} "
                  "position vanishes)", [x, y])
        out["positions"].append({"x": x, "y": y, "side": side, "class": cls, "facing": DIRS.index(p["facing"])})
    for key in ("wire", "ditch"):
        sq = d.get(key, [])
        if not isinstance(sq, list):
            _fail(path, key, "a list of squares [[x, y], ...]", sq)
        got = []
        for i, at in enumerate(sq):
            xy = _square(path, f"{key}[{i}]", at, width, height)
            if xy in got:
                _fail(path, f"{key}[{i}]", "a square not listed twice", at)
            got.append(xy)
        out[key] = got
    mfs = d.get("minefield", [])
    if not isinstance(mfs, list) or not all(isinstance(m, dict) for m in mfs):
        _fail(path, "minefield", "an array of [[minefield]] tables", mfs)
    if len(mfs) > MAX_MINEFIELDS:
        _fail(path, "minefield", f"at most {MAX_MINEFIELDS} minefield markers (real and dummy)", len(mfs))
    seen = set()
    out["minefields"] = []
    for i, m in enumerate(mfs):
        k = f"minefield[{i}]"
        extra = sorted(set(m) - {"side", "at", "kind"})
        if extra:
            _fail(path, f"{k}.{extra[0]}", "only side, at and kind", m[extra[0]])
        if m.get("side") not in side_keys:
            _fail(path, k + ".side", " or ".join(side_keys) + " (the side that laid it)", m.get("side"))
        side = side_keys.index(m["side"])
        x, y = _square(path, k + ".at", m.get("at"), width, height)
        if (x, y) in seen:
            _fail(path, k + ".at", "a square without another minefield marker", [x, y])
        seen.add((x, y))
        if any((s["x"], s["y"]) == (x, y) for s in stands[1 - side]):
            _fail(path, k + ".at", "a square without an enemy stand on it at the start", [x, y])
        if m.get("kind") not in MF_KINDS:
            _fail(path, k + ".kind", "hasty, standard, concentrated or dummy", m.get("kind"))
        out["minefields"].append({"x": x, "y": y, "side": side, "kind": MF_KINDS.index(m["kind"])})
    for p in range(2):
        real = sum(1 for m in out["minefields"] if m["side"] == p and m["kind"] != 0)
        dummy = sum(1 for m in out["minefields"] if m["side"] == p and m["kind"] == 0)
        allowed = dummies_allowed(charts, sides[p]["cohesion"], real)
        if dummy > allowed:
            _fail(path, "minefield", f"at most {allowed} dummy markers for side {side_keys[p]} ({real} real "
                  f"minefields at cohesion {sides[p]['cohesion']})", dummy)
    return out
