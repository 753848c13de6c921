"""Loads and validates the special stand types' data (RULES.md, "Special stand
types"): the weapons.toml codes terrain_cost, boat, flame, mounted_mp and
mount_cost, the charts' water terrain and a scenario stand's `mounted` key.
Every problem is a ValueError naming the file, the key and what was expected.
Called from _data.py (small hooks), so that family's code lives here."""
from __future__ import annotations

import os

UNIT_FLAGS = ("boat", "flame")


def _fail(path, key, expected, got):
    raise ValueError(f"{os.path.basename(path)}: {key}: expected {expected}, got {got!r}")


def terrain_water(path, name, t):
    """terrain.<name>.water: true for water (streams, rivers): the only terrain boats move on."""
    v = t.get("water", False)
    if not isinstance(v, bool):
        _fail(path, f"terrain.{name}.water", "true or false (water: the only terrain boats move on)", v)
    return v


def _half_cost(path, key, v):
    if v == "x":
        return 0
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v <= 0 or v > 10 or 2 * v != int(2 * v):
        _fail(path, key, 'a cost in half MP steps from 0.5 to 10, or "x" (impassable)', v)
    return int(2 * v)


def weapon_units(path, key, t):
    """The special stand type codes of one weapons.toml entry (names of terrains are
    checked against the charts in check_weapon_units)."""
    k = lambda f: f"{key}.{f}"
    out = {}
    for flag in UNIT_FLAGS:
        v = t.get(flag, False)
        if not isinstance(v, bool):
            _fail(path, k(flag), "true or false", v)
        out[flag] = v
    tc = t.get("terrain_cost", {})
    if not isinstance(tc, dict):
        _fail(path, k("terrain_cost"), 'a table terrain name = MP per inch (or "x")', tc)
    out["terrain_cost"] = {name: _half_cost(path, k(f"terrain_cost.{name}"), v) for name, v in tc.items()}
    mmp = t.get("mounted_mp", 0)
    if isinstance(mmp, bool) or not isinstance(mmp, int) or not 0 <= mmp <= 30:
        _fail(path, k("mounted_mp"), "an integer from 1 to 30 (the MP of mounted cavalry; absent: no horses)", mmp)
    out["mounted_mp"] = mmp
    mc = t.get("mount_cost", 0)
    if isinstance(mc, bool) or not isinstance(mc, int) or not 0 <= mc <= 30:
        _fail(path, k("mount_cost"), "an integer from 0 to 30 (MP to mount or dismount)", mc)
    out["mount_cost"] = mc
    if mmp and not t.get("cavalry", False):
        _fail(path, k("mounted_mp"), "only on a cavalry = true type (horse cavalry mount and dismount)", mmp)
    if "mount_cost" in t and not mmp:
        _fail(path, k("mount_cost"), "only beside mounted_mp", mc)
    if out["flame"] and t.get("defence") != "A":
        _fail(path, k("flame"), 'only on an armoured vehicle (defence "A"): the digest\'s "flame-throwing vehicle"',
              t.get("defence"))
    return out


def check_weapon_units(path, types, terrain):
    """Terrain names in terrain_cost exist; a boat's costs leave only water passable."""
    names = [t["name"] for t in terrain]
    for w in types:
        for name in w["terrain_cost"]:
            if name not in names:
                _fail(path, f"{w['key']}.terrain_cost.{name}", "a terrain of charts.toml (" + ", ".join(names) + ")",
                      name)
        if w["boat"]:
            if w["mounted_mp"] or w["flame"]:
                _fail(path, f"{w['key']}.boat", "a boat without mounted_mp or flame", True)
            for t in terrain:
                c = w["terrain_cost"].get(t["name"])
                if t["water"] and not c:
                    _fail(path, f"{w['key']}.terrain_cost.{t['name']}", "a cost for this water terrain (a boat "
                          "moves on water)", c)
                if not t["water"] and c != 0 and t["cost"][["W", "T", "F", "A"].index(w["move"])] != 0:
                    _fail(path, f"{w['key']}.terrain_cost.{t['name']}", '"x": a boat moves only on water', c)


def stand_units(path, k, st, weapon, terrain, grid):
    """A scenario stand's special-type keys: mounted (cavalry starting on horseback);
    a boat must start on water."""
    mounted = st.get("mounted", False)
    if not isinstance(mounted, bool):
        _fail(path, k + ".mounted", "true or false (cavalry starting mounted)", mounted)
    if mounted and not weapon["mounted_mp"]:
        _fail(path, k + ".mounted", f"false: {weapon['key']} has no horses (no mounted_mp)", mounted)
    if weapon["boat"]:
        x, y = st["at"]
        if not terrain[grid[y][x]]["water"]:
            _fail(path, k + ".at", "a water square: a boat is placed only on water", st["at"])
    return {"mounted": mounted}


def side_entry(path, sk, s):
    """side.<key>.entry: true when the side enters from its table edge on turn 1 (its
    stands on its edge column start off the table)."""
    v = s.get("entry", False)
    if not isinstance(v, bool):
        _fail(path, f"side.{sk}.entry", "true or false (the side enters from its table edge on turn 1)", v)
    return v


MAX_GROUPS = 4       # movement groups per side (the engine's NGRP)


def groups(path, d, side_keys, per):
    """[[group]] tables (RULES.md, Movement groups): id, side, stands (2 or more ids of
    that side; a stand in one group at most). Per side: [{"id", "stands": [local index]}]."""
    raw = d.get("group", [])
    if not isinstance(raw, list) or not all(isinstance(g, dict) for g in raw):
        _fail(path, "group", "an array of [[group]] tables", raw)
    stand_ids = {s["id"] for p in range(2) for s in per[p]}
    out = [[], []]
    seen_ids, used = set(), set()
    for i, g in enumerate(raw):
        k = f"group[{i}]"
        gid = g.get("id")
        if (not isinstance(gid, str) or not gid.isalnum() or not 1 <= len(gid) <= 6 or not gid[0].isalpha()
                or gid in seen_ids or gid in stand_ids):
            _fail(path, k + ".id", "a unique alphanumeric id of 1..6 characters starting with a letter, "
                  "not a stand's id", gid)
        seen_ids.add(gid)
        if g.get("side") not in side_keys:
            _fail(path, k + ".side", " or ".join(side_keys), g.get("side"))
        p = side_keys.index(g["side"])
        ids = [s["id"] for s in per[p]]
        members = g.get("stands")
        if (not isinstance(members, list) or not 2 <= len(members) <= 8 or len(set(members)) != len(members)
                or any(m not in ids for m in members)):
            _fail(path, k + ".stands", f"2 to 8 distinct stand ids of side {g['side']}", members)
        for m in members:
            if m in used:
                _fail(path, k + ".stands", "stands in no other group (a stand belongs to one group)", m)
            used.add(m)
        out[p].append({"id": gid, "stands": [ids.index(m) for m in members]})
        if len(out[p]) > MAX_GROUPS:
            _fail(path, "group", f"at most {MAX_GROUPS} groups for side {g['side']}", len(out[p]))
    return out
