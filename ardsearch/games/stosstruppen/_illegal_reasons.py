"""Why a Stosstruppen move written in notation is not legal here: one sentence
for the refusal (GameSpec.illegal_reason, read by ardsearch/_refusals.py).
It reads the structured state and the unit and map tables (units.toml, the
scenario) and names the rule of RULES.md that forbids the move: the card's
phase, a unit's status or what it did this turn, a target it may not fire at.
Where every other condition is seen to hold, the one left is named (a path
out of reach, a line of sight); where nothing is sure, None."""
from __future__ import annotations

import re

from ardsearch.games.stosstruppen._engine import (SCENARIOS, UNIT_TYPES, in_assault_contact, in_front_arc,
                                                  square_distance)
from ardsearch.games.stosstruppen.data import TERRAIN_NAMES, parse_square

TYPE = {t["id"]: t for t in UNIT_TYPES}
ACTION = re.compile(r"([a-p]\d+|u\d+)([-x@])([a-p]\d+)")
MARKER = re.compile(r"(barrage|gas|cas)[ :]([a-p]\d+)")
DOES = {"-": ("move", "moves are made"), "x": ("fire", "fire is made"), "@": ("assault", "assaults are made")}
IN_FOOT_ONLY = {"buildings": "buildings", "marsh": "marsh", "bunker": "a bunker", "trench": "a trench"}


def illegal_reason(d: dict, note: str) -> str | None:
    """One sentence saying why `note` is illegal in the structured state `d`, or None."""
    if d["to_move"] not in ("german", "british"):
        return None
    phase = d["phase"]
    if phase == "advance":
        return None if note in ("advance", "stay") else \
            "your assaulting unit won: choose `advance` into the vacated square or `stay` first"
    if note in ("advance", "stay"):
        return "`advance` and `stay` follow an assault your unit won, and none is waiting"
    if note == "rally":
        if phase != "rally":
            return (f"`rally` is played on your Rally card; this is the {phase} phase (card {d['card']}): "
                    "play it then, or `done`")
        if any(u["side"] == d["to_move"] and u["square"] and u["status"] != "normal" for u in d["units"]):
            return None
        return "none of your units is pinned or suppressed: nothing to rally, play `done`"
    m = MARKER.fullmatch(note)
    if m:
        return _marker_reason(d, m.group(1), m.group(2))
    m = ACTION.fullmatch(note)
    if m:
        return _unit_reason(d, *m.groups())
    return None


def _wrong_phase(d: dict, wanted: str, what: str) -> str | None:
    if d["phase"] != wanted:
        return (f"{what} on your {wanted.title()} card; this is the {d['phase']} phase "
                f"(card {d['card']}): `done` ends it")
    return None


# RULES.md, Barrages and air support
def _marker_reason(d: dict, kind: str, square: str) -> str | None:
    wrong = _wrong_phase(d, "fire", "barrage, gas and CAS markers are placed")
    if wrong:
        return wrong
    if _off_table(d, square):
        return f"{square} is off the table"
    stock = "cas-stock" if kind == "cas" else "barrage-stock"
    if not any(mk["side"] == d["to_move"] and mk["kind"] == stock for mk in d["markers"]):
        return f"you have no {'CAS' if kind == 'cas' else 'barrage'} marker left to place"
    if kind != "cas":
        # in the Fire phase, with a marker in stock and the square on the table, what is left is sight
        return f"none of your units has a line of sight to {square}: a {kind} goes on a square one of them sees"
    return None


# RULES.md, Movement, Fire, Assault
def _unit_reason(d: dict, who: str, sign: str, where: str) -> str | None:
    verb, what = DOES[sign]
    wrong = _wrong_phase(d, verb, what)
    if wrong:
        return wrong
    me = d["to_move"]
    unit = _unit(d, me, who)
    if unit is None:
        return None
    if unit["square"] is None:
        return f"that unit ({who}) has been eliminated"
    kind = TYPE[unit["type"]]
    if sign == "-":
        return _move_reason(d, unit, kind, where)
    target = _unit(d, "british" if me == "german" else "german", where)
    if target is None:
        return None
    if sign == "x":
        return _fire_reason(d, unit, kind, target)
    return _assault_reason(unit, kind, target)


def _move_reason(d: dict, unit: dict, kind: dict, dest: str) -> str | None:
    sq, name = unit["square"], kind["name"]
    if unit["status"] != "normal":
        return (f"{sq} ({name}) is {unit['status']}: pinned and suppressed units do not move; "
                "rally them on your Rally card")
    if unit["acted"]:
        return f"{sq} ({name}) has already moved this phase: a unit moves once a phase"
    if kind["move"] == 0:
        return f"a {name} has no move allowance"
    if unit["stuck"] or unit.get("immobilised"):
        return f"{sq} ({name}) is immobilised for the game"
    if kind["star"] and unit["fired"]:
        return f"{sq} ({name}) fired this turn: a * unit moves or fires in a turn, not both"
    if not kind["foot"] and _terrain(d, sq) == "trench":
        return f"{sq} ({name}) stands in a trench: a unit that is not on foot never leaves one"
    if _off_table(d, dest):
        return f"{dest} is off the table"
    if dest == sq:
        return f"{sq} is where the unit stands: a move goes to another square"
    if any(u["square"] == dest for u in d["units"]):
        return f"{dest} is occupied: units move through friends but never end on another unit"
    if not kind["foot"] and _terrain(d, dest) in IN_FOOT_ONLY:
        return f"a {name} may not end a move in {IN_FOOT_ONLY[_terrain(d, dest)]}: only foot units do"
    squares = f"{kind['move']} square{'s' if kind['move'] != 1 else ''}"
    return (f"{dest} is out of {sq}'s reach this move ({squares}; woods, fords and marsh cost "
            "double, no passing through enemies, and one obstacle a move: wire or a trench crossing, not both)")


def _fire_reason(d: dict, unit: dict, kind: dict, target: dict) -> str | None:
    sq, name, tsq = unit["square"], kind["name"], target["square"]
    armoured = TYPE[target["type"]]["tank"]
    if unit["status"] == "suppressed":
        return f"{sq} ({name}) is suppressed: suppressed units do not fire; rally it on your Rally card"
    if kind["tank"]:
        weapons = _tank_weapons(unit, kind, armoured)
        if weapons:
            return weapons
        if not kind["all_round"] and not in_front_arc(unit["facing"], sq, tsq):
            return f"{tsq} is outside the 45-degree front arc of {sq} ({name}, facing {unit['facing']})"
    else:
        if unit["fired"]:
            return f"{sq} ({name}) has already fired this turn: a unit fires once a turn"
        if kind["fire"] == 0:
            return f"a {name} has no fire die"
        if kind["star"] and unit["moved"]:
            return f"{sq} ({name}) moved this turn: a * unit moves or fires in a turn, not both"
        if armoured and kind["at"] == 0:
            return (f"a {name} cannot fire at tanks: only AT rifles, infantry and field guns, "
                    "the German light trench mortar and gun-armed tanks do")
        if armoured and kind["at_no_long"] and square_distance(sq, tsq) >= 8:
            return (f"{name}s do not fire at tanks at long range "
                    f"(8 squares or more; {tsq} is {square_distance(sq, tsq)})")
        if _terrain(d, sq) == "bunker":
            return None     # the bunker's aperture arc is the scenario's: not read here
    if _terrain(d, tsq) in ("woods", "buildings") and not target["spotted"]:
        return (f"{tsq} is in {_terrain(d, tsq)} and not spotted yet: it can be fired on once an enemy comes "
                "within 2 squares or it fires or moves")
    return (f"{sq} has no line of sight to {tsq}: woods, buildings and hills block it "
            "(the hill unless a unit is on the hilltop)")


def _tank_weapons(unit: dict, kind: dict, armoured: bool) -> str | None:
    """Why neither armament of a tank may fire at this target, or None if one may (RULES.md, Fire: tanks)."""
    def state(weapon, out, fired, at_tanks):
        if not kind[weapon]:
            return "none"
        if unit.get(out):
            return "out"
        if unit.get(fired):
            return "fired this turn"
        return None if at_tanks else "does not fire at tanks"
    main = state("main", "main_out", "main_fired", kind["main_at"] or not armoured)
    secondary = state("secondary", "secondary_out", "secondary_fired", not armoured)
    if main is None or secondary is None:
        return None
    return f"{unit['square']} ({kind['name']}) has no weapon for this target: main {main}, secondary {secondary}"


def _assault_reason(unit: dict, kind: dict, target: dict) -> str | None:
    sq, name = unit["square"], kind["name"]
    if not kind["assault"]:
        return f"a {name} cannot start an assault (its melee die is in parentheses)"
    if unit["status"] != "normal":
        return f"{sq} ({name}) is {unit['status']}: pinned and suppressed units do not assault"
    if unit["acted"]:
        return f"{sq} ({name}) has already assaulted this phase: once a phase"
    if not in_assault_contact(sq, target["square"]):
        return (f"{target['square']} is not next to {sq} ({square_distance(sq, target['square'])} squares "
                "away): a unit assaults an enemy on one of the 8 squares around it, diagonals included")
    return None


# --- the table ----------------------------------------------------------------------
def _unit(d: dict, side: str, who: str) -> dict | None:
    for u in d["units"]:
        if u["side"] == side and (u["square"] == who or f"u{u['slot']}" == who):
            return u
    return None


def _scenario(d: dict) -> dict:
    return next(s for s in SCENARIOS if s["name"] == d["scenario"])


def _off_table(d: dict, square: str) -> bool:
    at = parse_square(square)
    sc = _scenario(d)
    return at is None or at[0] >= sc["width"] or at[1] >= sc["height"]


def _terrain(d: dict, square: str) -> str:
    col, row = parse_square(square)
    return TERRAIN_NAMES[_scenario(d)["terrain"][row * 16 + col]]
