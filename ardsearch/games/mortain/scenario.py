"""Loads and checks a Stand at Mortain scenario file (TOML).

The engine's C tables (terrain, unit values, the historical setup) are filled
from the `Scenario` this module returns. Every mistake in the file raises
ScenarioError naming the file, the key and what was expected, so a user who
types in the printed map finds the slip at once.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass

from ardsearch._toml import read_toml

# Shapes the engine is compiled for (the state struct has fixed arrays).
COLUMNS = 13
ROWS = 9
UNITS_PER_SIDE = 11
SIDES = ("german", "us")
KINDS = ("tank", "gun", "infantry")
RESERVED_IDS = {"pass", "redraw", "miss", "joker", "stack", "air", "airi", "oba", "setup", "exit"}
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]{0,7}$")
DEFAULT_PATH = os.path.join(os.path.dirname(__file__), "scenarios", "mortain.toml")


class ScenarioError(ValueError):
    """A scenario file that the engine cannot use; the message says where and why."""


@dataclass(frozen=True)
class Unit:
    id: str
    name: str
    side: int          # 0 German, 1 US
    kind: int          # index into KINDS
    full: tuple[int, int]     # AT, AI
    reduced: tuple[int, int]
    tiger: bool
    reinforcement: bool


@dataclass(frozen=True)
class Scenario:
    path: str
    title: str
    turns: int
    exits_to_win: int
    german_entry_column: int     # 1-based
    us_entry_column: int
    exit_column: int
    us_setup_forbidden_column: int
    us_reinforcement_turn: int
    terrain_names: tuple[str, ...]      # per terrain type index
    terrain_letters: tuple[str, ...]
    terrain_modifier: tuple[int, ...]
    terrain_blocks: tuple[bool, ...]
    terrain_hill: tuple[bool, ...]
    hex_terrain: tuple[int, ...]        # per hex index (col-1)*ROWS + (row-1)
    units: tuple[Unit, ...]             # German units first, then US
    historical: dict                    # US unit index (0..10) -> hex index


def hex_index(text: str) -> int:
    """'CCRR' -> hex index, or ValueError."""
    if not (isinstance(text, str) and len(text) == 4 and text.isdigit()):
        raise ValueError(f"expected a hex id CCRR like '0704', got {text!r}")
    col, row = int(text[:2]), int(text[2:])
    if not (1 <= col <= COLUMNS and 1 <= row <= ROWS):
        raise ValueError(f"hex {text!r} is off the map (columns 01..{COLUMNS:02d}, rows 01..{ROWS:02d})")
    return (col - 1) * ROWS + (row - 1)


def _int(where, table, key, lo, hi):
    value = table.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ScenarioError(f"{where}: key {key!r}: expected an integer from {lo} to {hi}, got {value!r}")
    return value


def _bool(where, table, key, default=None):
    value = table.get(key, default)
    if not isinstance(value, bool):
        raise ScenarioError(f"{where}: key {key!r}: expected true or false, got {value!r}")
    return value


def _str(where, table, key):
    value = table.get(key)
    if not isinstance(value, str) or not value:
        raise ScenarioError(f"{where}: key {key!r}: expected a non-empty string, got {value!r}")
    return value


def _table(where, doc, key):
    value = doc.get(key)
    if not isinstance(value, dict):
        raise ScenarioError(f"{where}: missing table [{key}]")
    return value


def load(path: str = DEFAULT_PATH) -> Scenario:
    """Reads and checks a scenario file; ScenarioError says what is wrong."""
    name = os.path.basename(path)
    doc = read_toml(path, ScenarioError, "scenario file")

    sc = _table(name, doc, "scenario")
    where = f"{name} [scenario]"
    title = _str(where, sc, "title")
    turns = _int(where, sc, "turns", 1, 20)
    exits = _int(where, sc, "exits_to_win", 1, UNITS_PER_SIDE)
    g_entry = _int(where, sc, "german_entry_column", 1, COLUMNS)
    us_entry = _int(where, sc, "us_entry_column", 1, COLUMNS)
    exit_col = _int(where, sc, "exit_column", 1, COLUMNS)
    forbidden = _int(where, sc, "us_setup_forbidden_column", 1, COLUMNS)
    reinf_turn = _int(where, sc, "us_reinforcement_turn", 1, turns)

    terrain = _table(name, doc, "terrain")
    if not 1 <= len(terrain) <= 8:
        raise ScenarioError(f"{name} [terrain]: expected 1 to 8 terrain types, got {len(terrain)}")
    t_names, t_letters, t_mod, t_block, t_hill = [], [], [], [], []
    for tname, t in terrain.items():
        where = f"{name} [terrain.{tname}]"
        if not isinstance(t, dict):
            raise ScenarioError(f"{where}: expected a table")
        letter = _str(where, t, "letter")
        if len(letter) != 1 or letter.isspace() or letter in t_letters:
            raise ScenarioError(f"{where}: key 'letter': expected one distinct non-space character, got {letter!r}")
        t_names.append(tname)
        t_letters.append(letter)
        t_mod.append(_int(where, t, "modifier", -5, 5))
        t_block.append(_bool(where, t, "blocks_los"))
        t_hill.append(_bool(where, t, "hill"))

    mp = _table(name, doc, "map")
    where = f"{name} [map]"
    if mp.get("columns") != COLUMNS:
        raise ScenarioError(f"{where}: key 'columns': the engine is built for {COLUMNS} columns, got {mp.get('columns')!r}")
    rows = mp.get("rows")
    if not isinstance(rows, list) or len(rows) != ROWS:
        raise ScenarioError(f"{where}: key 'rows': expected a list of {ROWS} strings, one per map row")
    hex_terrain = [0] * (COLUMNS * ROWS)
    for r, line in enumerate(rows):
        cells = line.split() if isinstance(line, str) else None
        if cells is None or len(cells) != COLUMNS:
            raise ScenarioError(f"{where}: key 'rows' row {r + 1:02d}: expected {COLUMNS} terrain letters separated by spaces, got {line!r}")
        for c, letter in enumerate(cells):
            if letter not in t_letters:
                raise ScenarioError(f"{where}: key 'rows' hex {c + 1:02d}{r + 1:02d}: unknown terrain letter {letter!r} "
                                    f"(known: {' '.join(t_letters)})")
            hex_terrain[c * ROWS + r] = t_letters.index(letter)

    raw_units = doc.get("unit")
    if not isinstance(raw_units, list) or not raw_units:
        raise ScenarioError(f"{name}: missing [[unit]] entries")
    units = {0: [], 1: []}
    seen = set()
    for i, u in enumerate(raw_units):
        where = f"{name} [[unit]] #{i + 1}"
        if not isinstance(u, dict):
            raise ScenarioError(f"{where}: expected a table")
        uid = _str(where, u, "id")
        where = f"{name} [[unit]] {uid!r}"
        if not ID_PATTERN.match(uid) or "x" in uid or uid in RESERVED_IDS or uid in seen:
            raise ScenarioError(f"{where}: key 'id': expected a new id of 1-8 lower-case letters, digits or '-', "
                                f"without 'x' and not a keyword, got {uid!r}")
        seen.add(uid)
        side = _str(where, u, "side")
        if side not in SIDES:
            raise ScenarioError(f"{where}: key 'side': expected one of {', '.join(SIDES)}, got {side!r}")
        kind = _str(where, u, "kind")
        if kind not in KINDS:
            raise ScenarioError(f"{where}: key 'kind': expected one of {', '.join(KINDS)}, got {kind!r}")
        vals = []
        for key in ("full", "reduced"):
            v = u.get(key)
            if not (isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) and not isinstance(x, bool)
                                                                 and 0 <= x <= 15 for x in v)):
                raise ScenarioError(f"{where}: key {key!r}: expected [AT, AI], two integers from 0 to 15, got {v!r}")
            vals.append(tuple(v))
        tiger = _bool(where, u, "tiger", False)
        reinf = _bool(where, u, "reinforcement", False)
        s = SIDES.index(side)
        if tiger and s != 0:
            raise ScenarioError(f"{where}: key 'tiger': only a German unit can be the Tiger")
        if reinf and s != 1:
            raise ScenarioError(f"{where}: key 'reinforcement': only US units are reinforcements")
        units[s].append(Unit(uid, u.get("name", uid), s, KINDS.index(kind), vals[0], vals[1], tiger, reinf))
    for s in (0, 1):
        if len(units[s]) != UNITS_PER_SIDE:
            raise ScenarioError(f"{name} [[unit]]: the engine is built for {UNITS_PER_SIDE} units per side, "
                                f"got {len(units[s])} {SIDES[s]} units")
    if sum(u.tiger for u in units[0]) != 1:
        raise ScenarioError(f"{name} [[unit]]: expected exactly one German unit with tiger = true")
    all_units = tuple(units[0] + units[1])

    setup = doc.get("setup", {}).get("historical") if isinstance(doc.get("setup"), dict) else None
    where = f"{name} [setup.historical]"
    if not isinstance(setup, dict):
        raise ScenarioError(f"{where}: missing table")
    us_ids = [u.id for u in units[1]]
    historical = {}
    for uid, hx in setup.items():
        if uid not in us_ids or units[1][us_ids.index(uid)].reinforcement:
            raise ScenarioError(f"{where}: key {uid!r}: expected a non-reinforcement US unit id")
        try:
            h = hex_index(hx)
        except ValueError as e:
            raise ScenarioError(f"{where}: key {uid!r}: {e}") from None
        if h // ROWS + 1 == forbidden:
            raise ScenarioError(f"{where}: key {uid!r}: US units may not set up in column {forbidden:02d}")
        historical[us_ids.index(uid)] = h
    missing = [u.id for u in units[1] if not u.reinforcement and us_ids.index(u.id) not in historical]
    if missing:
        raise ScenarioError(f"{where}: no hex for {', '.join(missing)}")
    for h in set(historical.values()):
        if sum(1 for x in historical.values() if x == h) > 2:
            raise ScenarioError(f"{where}: more than 2 units in hex {h // ROWS + 1:02d}{h % ROWS + 1:02d}")

    return Scenario(path, title, turns, exits, g_entry, us_entry, exit_col, forbidden, reinf_turn,
                    tuple(t_names), tuple(t_letters), tuple(t_mod), tuple(t_block), tuple(t_hill),
                    tuple(hex_terrain), all_units, historical)
