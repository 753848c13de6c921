"""Loads and validates the engineering-task data (RULES.md "Engineering: bridges
and AT ditches"): charts.toml [engineering] (the successful rolls each task
needs) and the weapons.toml codes dozer, bridging and materials. Every problem is
a ValueError naming the file, the key and what was expected (one line), as in
_data.py, which calls these (small hooks) so that this family's code lives here."""
from __future__ import annotations

import os

ENG_FLAGS = ("dozer", "bridging", "materials")
ENG_COUNTS = ("ditch_dozer", "ditch_engineer", "bridge_tank", "bridge_materials")
MAX_NEED = 9         # a task's successes are kept in a byte and checked by validate()


def _fail(path, key, expected, got):
    raise ValueError(f"{os.path.basename(path)}: {key}: expected {expected}, got {got!r}")


def engineering_charts(path, d):
    """[engineering] of charts.toml: successful rolls per task and worker."""
    e = d.get("engineering")
    if not isinstance(e, dict):
        _fail(path, "engineering", "a table of successful rolls (ditch_dozer, ditch_engineer, bridge_tank, "
              "bridge_materials)", e)
    out = {}
    for k in ENG_COUNTS:
        v = e.get(k)
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= MAX_NEED:
            _fail(path, f"engineering.{k}", f"an integer from 1 to {MAX_NEED} (successful rolls)", v)
        out[k] = v
    return {"engineering": out}


def weapon_engineering(path, key, t):
    """The engineering codes of one weapons.toml entry: dozer (a dozer-blade vehicle
    fills AT ditches), bridging (a bridging tank lays bridges), materials (engineers
    carrying bridging materials build bridges; only with engineer = true)."""
    out = {}
    for flag in ENG_FLAGS:
        v = t.get(flag, False)
        if not isinstance(v, bool):
            _fail(path, f"{key}.{flag}", "true or false", v)
        out[flag] = v
    for flag in ("dozer", "bridging"):
        if out[flag] and t.get("move") == "F":
            _fail(path, f"{key}.{flag}", "only on a vehicle (move W, T or A): the digest's dozer and bridging tank",
                  out[flag])
    if out["materials"] and not t.get("engineer", False):
        _fail(path, f"{key}.materials", "only beside engineer = true (the digest's \"engineers with materials\")",
              out["materials"])
    return out
