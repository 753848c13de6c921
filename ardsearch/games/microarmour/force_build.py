"""The point-buy and bidding procedure (issue 12) as a tool that turns a
roster into a scenario file; not part of the search.

    ardsearch microarmour-build roster.toml -o scenario.toml

Digest (Set-up): "Players bid a point base secretly and the lowest bid is
used. Player B's points = (A's cohesion / B's cohesion) x point base x the
scenario force ratio (1:1, 1:2, 1:3 or the reverse). Extras such as HQs
(x1.5), GHQ quality multipliers, engineers (+10) ... airstrikes ... are
priced." and (Scenario generation) "Each player then secretly bids part of
his point base, and the higher bidder picks his friendly edge; both bids are
lost."

A roster names the table (`base`, a scenario whose map, turns, village and
sides it keeps), the force ratio, both players' bids and each side's force
cohesion, GHQ quality and purchases ([[side.<key>.stand]] type and count,
[[side.<key>.aircraft]] flights). Player A is the base scenario's first side.
The tool prices every purchase from data/points.toml, refuses a roster that
is malformed or over its points with one line naming the file, the key and
what to do, and writes the scenario: the stands deployed on the friendly
edges, a [points] table recording the bids, budgets and spending. RULES.md
"Point-buy forces" says how each step is read."""
from __future__ import annotations

import argparse
import math
import os
import sys

from ardsearch._toml import read_toml
from ardsearch.games.microarmour import _data
from ardsearch.games.microarmour.scenario_toml import dumps, flat_document, load_document, write_tool_output

POINTS = os.path.join(_data.HERE, "data", "points.toml")
ROSTER_KEYS = {"title", "base", "ratio", "turns", "bid", "side"}
BID_KEYS = {"point_base", "edge", "edge_choice"}
SIDE_KEYS = {"cohesion", "quality", "replace_mod", "stand", "aircraft"}
STAND_KEYS = {"type", "count"}
AIRCRAFT_KEYS = {"id", "name", "arrive", "turns", "ordnance", "strafe", "bomb", "fasc", "plot"}
DEPLOY_COLUMNS = 3      # design: stands deploy in the 3 columns nearest the friendly edge


class RosterError(ValueError):
    """A roster or points file the tool refuses: one line, file, key and reason."""


def _fail(path, key, expected, got):
    raise RosterError(f"{os.path.basename(path)}: {key}: expected {expected}, got {got!r}")


def _int(path, table, key, lo, hi, where, default=None):
    v = table.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        _fail(path, where, f"a whole number from {lo} to {hi}", v)
    return v


def _only(path, table, allowed, where):
    if not isinstance(table, dict):
        _fail(path, where, "a table", table)
    for k in table:
        if k not in allowed:
            _fail(path, f"{where}.{k}" if where else k, "one of the keys " + ", ".join(sorted(allowed)), "an unknown key")


def load_points(path=POINTS, weapons=None):
    """data/points.toml, validated: a cost for stand types of weapons.toml,
    the extras, the aircraft prices and the allowed force ratios."""
    d = read_toml(path, RosterError)
    weapons = weapons or _data.load_weapons()
    keys = {w["key"] for w in weapons}
    stand = d.get("stand")
    if not isinstance(stand, dict):
        _fail(path, "stand", "a table of stand costs by weapon type", stand)
    for k, v in stand.items():
        if k not in keys:
            _fail(path, f"stand.{k}", "a weapon type of weapons.toml", k)
        _int(path, stand, k, 1, 1000, f"stand.{k}")
    ex = d.get("extra")
    _only(path, ex, {"hq_multiplier", "engineer", "recon", "ghq_quality"}, "extra")
    hq = ex.get("hq_multiplier")
    if isinstance(hq, bool) or not isinstance(hq, (int, float)) or not 1 <= hq <= 5:
        _fail(path, "extra.hq_multiplier", "a number from 1 to 5", hq)
    q = ex.get("ghq_quality")
    if (not isinstance(q, list) or len(q) != 6
            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) and 0 < x <= 5 for x in q)):
        _fail(path, "extra.ghq_quality", "6 multipliers (0..5) for GHQ quality -2..3", q)
    air = d.get("aircraft")
    _only(path, air, {"base", "per_turn", "per_load", "fasc"}, "aircraft")
    ratio = d.get("ratio", {}).get("allowed")
    if not isinstance(ratio, list) or not ratio or not all(isinstance(r, str) and _ratio(r) for r in ratio):
        _fail(path, "ratio.allowed", 'a list of force ratios such as "1:2"', ratio)
    return {"stand": dict(stand), "hq": float(hq), "engineer": _int(path, ex, "engineer", 0, 1000, "extra.engineer"),
            "recon": _int(path, ex, "recon", 0, 1000, "extra.recon"), "ghq_quality": [float(x) for x in q],
            "air": {k: _int(path, air, k, 0, 1000, f"aircraft.{k}") for k in ("base", "per_turn", "per_load", "fasc")},
            "ratios": ratio}


def _ratio(text):
    a, sep, b = text.partition(":")
    return (int(a), int(b)) if sep and a.isdigit() and b.isdigit() and int(a) > 0 and int(b) > 0 else None


def stand_cost(points, w, quality):
    """One stand's points: its type's cost, HQs x1.5, a GHQ also x its quality
    multiplier, engineers and recon +10 (digest), rounded up to a whole point."""
    c = points["stand"][w["key"]]
    if w["role"] in ("hq", "ghq"):
        c *= points["hq"]
    if w["role"] == "ghq":
        c *= points["ghq_quality"][quality + 2]
    return math.ceil(c - 1e-9) + (points["engineer"] if w["engineer"] else 0) + (points["recon"] if w["recon"] else 0)


def aircraft_cost(points, plane):
    a = points["air"]
    return a["base"] + a["per_turn"] * plane["turns"] + a["per_load"] * plane["ordnance"] + (a["fasc"] if plane["fasc"] else 0)


def budgets(point_base, ratio, cohesion_a, cohesion_b):
    """(A's points, B's points): A has the point base; B has (A's cohesion /
    B's cohesion) x the point base x the force ratio's B share over A's,
    rounded down (design: whole points)."""
    ra, rb = ratio
    return point_base, math.floor(point_base * cohesion_a / cohesion_b * rb / ra + 1e-9)


def _deploy_squares(sc, p):
    """The squares of side p's friendly edge columns, nearest the edge first and,
    within a column, from the middle row outward (design: a deterministic deployment)."""
    w, h = sc["width"], sc["height"]
    xs = range(DEPLOY_COLUMNS) if sc["sides"][p]["edge"] == "west" else range(w - 1, w - 1 - DEPLOY_COLUMNS, -1)
    rows = sorted(range(h), key=lambda y: (abs(2 * y - (h - 1)), y))
    return [(x, y) for x in xs for y in rows]


def _ids(types, taken):
    """Stand ids from the type key: up to 4 of its letters and digits and a letter a, b, c, ..."""
    out = []
    for key in types:
        stem = "".join(c for c in key if c.isalnum())[:4] or "st"
        stem = stem if stem[0].isalpha() else "s" + stem[:3]
        for suffix in "abcdefghijklmnopqrstuvwxyz":
            if stem + suffix not in taken:
                taken.add(stem + suffix)
                out.append(stem + suffix)
                break
    return out


def build(roster_path):
    """The scenario document (as read_toml gives it) for the roster at roster_path."""
    r = read_toml(roster_path, RosterError, "roster")
    _only(roster_path, r, ROSTER_KEYS, "")
    base = r.get("base", "introductory")
    base_path = _data._scenario_files().get(base) if isinstance(base, str) else None
    if base_path is None:
        _fail(roster_path, "base", "a scenario name (" + ", ".join(_data.scenario_names()) + ")", base)
    charts, weapons = _data.load_charts(), _data.load_weapons()
    points = load_points(weapons=weapons)
    doc = flat_document(base_path)
    sc = load_document(doc, charts, weapons)
    keys = [sd["key"] for sd in sc["sides"]]
    ratio_text = r.get("ratio", "1:1")
    if ratio_text not in points["ratios"]:
        _fail(roster_path, "ratio", "a force ratio A:B, one of " + ", ".join(points["ratios"]), ratio_text)
    bid = r.get("bid")
    _only(roster_path, bid, BID_KEYS, "bid")
    pb, eb = bid.get("point_base"), bid.get("edge", [0, 0])
    for name, v, lo in (("point_base", pb, 1), ("edge", eb, 0)):
        if (not isinstance(v, list) or len(v) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) and lo <= x <= 100000 for x in v)):
            _fail(roster_path, f"bid.{name}", f"two whole numbers {lo}..100000, player A's ({keys[0]}) bid "
                                             f"and player B's ({keys[1]})", v)
    sides = r.get("side")
    _only(roster_path, sides, set(keys), "side")
    per = []
    for k in keys:
        s = sides.get(k)
        if s is None:
            _fail(roster_path, f"side.{k}", "a table with the side's cohesion, quality and purchases", None)
        _only(roster_path, s, SIDE_KEYS, f"side.{k}")
        per.append({"cohesion": _int(roster_path, s, "cohesion", 5, 20, f"side.{k}.cohesion"),
                    "quality": _int(roster_path, s, "quality", -2, 3, f"side.{k}.quality", 0),
                    "replace_mod": _int(roster_path, s, "replace_mod", 0, 10, f"side.{k}.replace_mod",
                                        sc["sides"][keys.index(k)]["replace_mod"])})
    base_pts = min(pb)                     # "the lowest bid is used"
    budget = budgets(base_pts, _ratio(ratio_text), per[0]["cohesion"], per[1]["cohesion"])
    # "the higher bidder picks his friendly edge; both bids are lost"
    edges = [sd["edge"] for sd in sc["sides"]]
    choice = bid.get("edge_choice", edges[0] if eb[0] >= eb[1] else edges[1])
    if choice not in ("west", "east"):
        _fail(roster_path, "bid.edge_choice", '"west" or "east" (the edge the higher edge bidder takes)', choice)
    for p in range(2):
        if eb[p] > budget[p]:
            _fail(roster_path, "bid.edge", f"each edge bid within its side's budget ({keys[p]}: {budget[p]} points)", eb)
    winner = None if eb[0] == eb[1] else (0 if eb[0] > eb[1] else 1)
    if winner is not None:
        edges[winner] = choice
        edges[1 - winner] = "east" if choice == "west" else "west"
    wkeys = {w["key"]: w for w in weapons}
    stands_out, planes_out, spent, taken = [], [], [], set()
    for p, k in enumerate(keys):
        s, where = sides[k], f"side.{k}"
        items = s.get("stand", [])
        if not isinstance(items, list) or not items:
            _fail(roster_path, where + ".stand", "[[stand]] purchases (type and count)", items)
        types = []
        for i, it in enumerate(items):
            _only(roster_path, it, STAND_KEYS, f"{where}.stand[{i}]")
            t = it.get("type")
            if t not in wkeys:
                _fail(roster_path, f"{where}.stand[{i}].type", "a weapon type of weapons.toml", t)
            if t not in points["stand"]:
                _fail(roster_path, f"{where}.stand[{i}].type", "a type with a cost in points.toml [stand] "
                      "(add its cost there first)", t)
            types += [t] * _int(roster_path, it, "count", 1, _data.MAX_STANDS, f"{where}.stand[{i}].count", 1)
        if len(types) > _data.MAX_STANDS:
            _fail(roster_path, where + ".stand", f"at most {_data.MAX_STANDS} stands in all", len(types))
        ghqs = [t for t in types if wkeys[t]["role"] == "ghq"]
        if len(ghqs) != 1:
            _fail(roster_path, where + ".stand", "exactly one GHQ stand (a type with role ghq)", len(ghqs))
        types.sort(key=lambda t: ("ghq", "hq", "unit").index(wkeys[t]["role"]))   # command first, then the rest
        cost = sum(stand_cost(points, wkeys[t], per[p]["quality"]) for t in types)
        for i, pl in enumerate(s.get("aircraft", [])):
            _only(roster_path, pl, AIRCRAFT_KEYS, f"{where}.aircraft[{i}]")
            plane = {"id": pl.get("id"), "name": pl.get("name", pl.get("id")), "side": k,
                     "arrive": pl.get("arrive", 1), "turns": pl.get("turns", 3), "ordnance": pl.get("ordnance", 1),
                     "strafe": pl.get("strafe", 0), "bomb": pl.get("bomb", 0), "fasc": pl.get("fasc", False)}
            if "plot" in pl:
                plane["plot"] = pl["plot"]
            for f in ("turns", "ordnance"):
                _int(roster_path, plane, f, 0, 10, f"{where}.aircraft[{i}].{f}")
            if not isinstance(plane["fasc"], bool):
                _fail(roster_path, f"{where}.aircraft[{i}].fasc", "true or false", plane["fasc"])
            cost += aircraft_cost(points, plane)
            planes_out.append(plane)
        have = budget[p] - eb[p]
        if cost > have:
            _fail(roster_path, where, f"a force of at most {have} points (budget {budget[p]} less the edge bid "
                  f"{eb[p]}): drop stands or aircraft", f"{cost} points")
        spent.append(cost)
        squares = [sq for sq in _deploy_squares({**sc, "sides": [{"edge": e} for e in edges]}, p)
                   if sq not in taken]
        ids = _ids(types, {st["id"] for st in stands_out})
        for t, sid in zip(types, ids):
            cls = "WTFA".index(wkeys[t]["move"])
            sq = next((q for q in squares if charts["terrain"][sc["grid"][q[1]][q[0]]]["cost"][cls] != 0), None)
            if sq is None:
                _fail(roster_path, where + ".stand", f"room on the {edges[p]} edge's {DEPLOY_COLUMNS} columns",
                      f"no square left for {t}")
            squares.remove(sq)
            taken.add(sq)
            stands_out.append({"id": sid, "type": t, "side": k, "at": [sq[0], sq[1]],
                               "facing": "e" if edges[p] == "west" else "w"})
    doc["title"] = str(r.get("title", f"Point-buy battle, {sc['title']} table"))
    if "turns" in r:
        doc["turns"] = _int(roster_path, r, "turns", 1, 50, "turns")
    for p, k in enumerate(keys):
        doc["side"][k].update(cohesion=per[p]["cohesion"], quality=per[p]["quality"], edge=edges[p],
                              replace_mod=per[p]["replace_mod"])
    doc["stand"] = stands_out
    for k in keys:
        doc["side"][k].pop("entry", None)  # design: the bought force stands deployed on its edge columns
    doc.pop("support_building", None)     # the base's support forces are not bought
    doc.pop("generated", None)
    # batteries and pre-registered points are priced fire support the roster
    # cannot buy yet (RULES.md, Point-buy forces): the base's are not carried over
    doc.pop("battery", None)
    for k in keys:
        doc["side"][k].pop("prereg", None)
    if planes_out:
        doc["aircraft"] = planes_out
    else:
        doc.pop("aircraft", None)
    doc["points"] = {"ratio": ratio_text, "point_base_bids": list(pb), "point_base": base_pts,
                     "budget": list(budget), "edge_bids": list(eb),
                     "edge_winner": "tie" if winner is None else keys[winner], "spent": spent}
    _check_loads(roster_path, doc, charts, weapons)
    return doc


def _check_loads(roster_path, doc, charts, weapons):
    """The scenario must pass the scenario loader (aircraft, stands, map): its
    error, if any, is the roster's."""
    try:
        load_document(doc, charts, weapons)
    except ValueError as e:
        raise RosterError(f"{os.path.basename(roster_path)}: the scenario it makes is refused: {e}") from None


HEADER = """A Micro Armour scenario built from a point-buy roster by
  ardsearch microarmour-build {roster}
(RULES.md, "Point-buy forces"). [points] records the bids, budgets and points spent."""


def main(argv=None):
    p = argparse.ArgumentParser(prog="ardsearch microarmour-build",
                                description="Turn a Micro Armour point-buy roster (bids, force cohesion, purchases) "
                                            "into a scenario file.")
    p.add_argument("roster", help="the roster (TOML; RULES.md \"Point-buy forces\")")
    p.add_argument("-o", "--out", metavar="FILE",
                   help="write the scenario here (default: print it); put it in the folder named by "
                        f"${_data.SCENARIO_DIR_ENV} to play it as scenario=<file name>")
    args = p.parse_args(argv)

    def make():
        doc = build(args.roster)
        return doc, dumps(doc, HEADER.format(roster=os.path.basename(args.roster)))

    def summary(doc):
        pts = doc["points"]
        return (f"point base {pts['point_base']}, budgets {pts['budget'][0]} / {pts['budget'][1]}, "
                f"spent {pts['spent'][0]} / {pts['spent'][1]}, edge bid won by {pts['edge_winner']}")
    return write_tool_output("microarmour-build", make, args.out, summary)

if __name__ == "__main__":
    sys.exit(main())
