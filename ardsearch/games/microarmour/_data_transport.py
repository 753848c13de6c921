"""Micro Armour data: load points for transport (data/loads.toml; RULES.md "Transport",
two-turn loads). Each weapon type gets `load` (its load points; 0 for a type that is
never cargo) and `two_turn_load` (its load is over the digest's 10 points)."""
from __future__ import annotations

import os

from ardsearch._toml import read_toml

HERE = os.path.dirname(os.path.abspath(__file__))
MAX_POINTS = 40


def _fail(path, key, expected, got):
    raise ValueError(f"{os.path.basename(path)}: {key}: expected {expected}, got {got!r}")


def _points(path, key, v):
    if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= MAX_POINTS:
        _fail(path, key, f"load points, an integer from 1 to {MAX_POINTS}", v)
    return v


def cargo_kind(t):
    """"personnel", "equipment" (an unarmoured stand moved on foot: a towed weapon) or
    None (a vehicle or armour: never cargo), as RULES.md "Transport" says who is cargo."""
    if t["defence"] == "P":
        return "personnel"
    if t["defence"] == "U" and t["move"] == "F":
        return "equipment"
    return None


def add_load_points(types, path=None):
    """Sets `load` and `two_turn_load` on every weapon type dict of `types`. A listed key
    that is not a weapon type of `types` is ignored (a reduced weapons file in a test);
    tests/test_microarmour_loads.py checks the shipped file names only real types."""
    path = path or os.path.join(HERE, "data", "loads.toml")
    d = read_toml(path)
    over = _points(path, "two_turns_over", d.get("two_turns_over"))
    default = d.get("default")
    if not isinstance(default, dict):
        _fail(path, "default", "a table with personnel and equipment load points", default)
    defaults = {k: _points(path, f"default.{k}", default.get(k)) for k in ("personnel", "equipment")}
    table = d.get("stand", {})
    if not isinstance(table, dict):
        _fail(path, "stand", "a table of load points by weapon type", table)
    for key, v in table.items():
        _points(path, f"stand.{key}", v)
    for t in types:
        kind = cargo_kind(t)
        t["load"] = 0 if kind is None else table.get(t["key"], defaults[kind])
        t["two_turn_load"] = t["load"] > over
    return types
