"""Undaunted: Normandy (`undaunted`): deck building, hidden hands, d10 combat.

The engine is ardsearch.games.undaunted._engine (C, behind the game ABI). This
package adds what is not hot: parameters, scenario loading (scenarios/*.toml,
validated with errors naming the file and key), and the board text.
"""
from __future__ import annotations

import os

from ardsearch._toml import read_toml
from ardsearch._spec import GameSpec, Outcome, Param

from . import _engine
from ._illegal_reasons import illegal_reason

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIO_DIR = os.path.join(HERE, "scenarios")
SCENARIOS = (1, 2, 3)
ARMIES = ("us", "germans")
CARDS = _engine.CARD_NAMES
UNITS = _engine.UNIT_NAMES
RIFLEMEN = ("rifA", "rifB", "rifC")


class ScenarioError(ValueError):
    """A scenario file that does not describe a playable scenario."""


class CardTableError(ValueError):
    """A data/cards.toml that does not describe the card table."""


CARD_TABLE_RANGES = {"initiative": (1, 9), "defence": (0, 10), "attack": (1, 9), "bolster": (1, 9),
                     "dice": (1, 9)}


def load_card_table(path: str | None = None) -> dict:
    """The card values of data/cards.toml (or `path`), checked: every section
    and key the engine needs, none it does not know, integers in range. The
    errors name the file, the section and the key."""
    path = path or os.path.join(HERE, "data", "cards.toml")
    name = os.path.basename(path)
    data = read_toml(path, CardTableError, "card table")
    keys = {"initiative": CARDS, "defence": UNITS, "attack": tuple(u for u in UNITS if u != "mortar"),
            "bolster": _engine.BOLSTER_CARDS, "dice": ("suppress", "explode")}
    for section in data:
        if section not in keys:
            raise CardTableError(f"{name}: [{section}]: no such section (sections: {', '.join(keys)})")
    table = {}
    for section, wanted in keys.items():
        values = data.get(section)
        if not isinstance(values, dict):
            raise CardTableError(f"{name}: [{section}]: missing (it lists {', '.join(wanted)})")
        lo, hi = CARD_TABLE_RANGES[section]
        for key, value in values.items():
            if key not in wanted:
                why = " (the Mortar has no Attack action)" if section == "attack" and key == "mortar" else ""
                raise CardTableError(f"{name}: [{section}] {key}: not a key of this section{why}; "
                                     f"its keys are {', '.join(wanted)}")
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                raise CardTableError(f"{name}: [{section}] {key}: expected an integer from {lo} to {hi}, "
                                     f"got {value!r}")
        missing = [k for k in wanted if k not in values]
        if missing:
            raise CardTableError(f"{name}: [{section}]: {', '.join(missing)} missing")
        table[section] = dict(values)
    return table


_engine.set_card_table(load_card_table())


def _load_covers():
    return read_toml(os.path.join(HERE, "data", "tiles.toml"))["cover"]


def scenario_path(number: int) -> str:
    return os.path.join(SCENARIO_DIR, f"{number}.toml")


def load_scenario(path: str, max_rounds: int = 40) -> dict:
    """A scenario file -> the structured state before its first round.

    Every key is checked; errors say the file, the key and what was expected."""
    name = os.path.basename(path)
    data = read_toml(path, ScenarioError, "scenario file")

    def err(key, expected, got=None):
        extra = "" if got is None else f", got {got!r}"
        return ScenarioError(f"{name}: {key}: expected {expected}{extra}")

    known = {"number", "name", "initiative", "tiles", "us", "germans"}
    for key in data:
        if key not in known:
            raise err(key, f"no such key (keys: {', '.join(sorted(known))})")
    number = data.get("number", 0)
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= 255:
        raise err("number", "an integer from 0 to 255", number)
    if data.get("initiative") not in ARMIES:
        raise err("initiative", "'us' or 'germans'", data.get("initiative"))
    tiles = data.get("tiles")
    if not isinstance(tiles, dict) or not 1 <= len(tiles) <= 32:
        raise err("tiles", "a table of 1 to 32 tiles")
    covers = _load_covers()
    tile_list = []
    for tname, t in tiles.items():
        key = f"tiles.{tname}"
        try:
            _engine.tile_code(tname)
        except ValueError:
            raise err("tiles", "tile names 1A..18B", tname) from None
        if not isinstance(t, dict):
            raise err(key, "a table {objective, adjacent[, cover]}")
        for k in t:
            if k not in ("objective", "adjacent", "cover"):
                raise err(f"{key}.{k}", "no such key (objective, adjacent, cover)")
        obj = t.get("objective", 0)
        if isinstance(obj, bool) or not isinstance(obj, int) or not 0 <= obj <= 9:
            raise err(f"{key}.objective", "an integer from 0 to 9", obj)
        adj = t.get("adjacent")
        if not isinstance(adj, list) or not adj or len(adj) > 8:
            raise err(f"{key}.adjacent", "a list of 1 to 8 tile names", adj)
        for n in adj:
            if n not in tiles:
                raise err(f"{key}.adjacent", f"tiles of this scenario ({', '.join(tiles)})", n)
            if n == tname:
                raise err(f"{key}.adjacent", "other tiles (a tile is not adjacent to itself)", n)
            if tname not in tiles[n].get("adjacent", []):
                raise err(f"tiles.{n}.adjacent", f"to list {tname!r} too (adjacency is mutual)")
        cover = t.get("cover", covers.get(tname))
        if cover != "hill" and (isinstance(cover, bool) or not isinstance(cover, int) or not 0 <= cover <= 3):
            raise err(f"{key}.cover", "0..3 or 'hill'", cover)
        tile_list.append({"name": tname, "cover": cover, "objective": obj, "adjacent": list(adj)})
    # connected: every tile reachable from the first
    seen, todo = {tile_list[0]["name"]}, [tile_list[0]["name"]]
    while todo:
        for n in tiles[todo.pop()]["adjacent"]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    if len(seen) != len(tiles):
        raise err("tiles", "a connected board", sorted(set(tiles) - seen))
    total_objectives = sum(t["objective"] for t in tile_list)
    armies = [_load_army(data.get(side), side, name, tiles, total_objectives) for side in ARMIES]
    for side, army in zip(ARMIES, armies):
        if army["goal"] == "capture":
            pts = sum(t["objective"] for t in tile_list if t["name"] in army["controlled"])
            if pts >= army["goal_points"]:
                raise err(f"{side}.goal_points", f"more than the {pts} points {side} controls at the start")
    for tname in tiles:
        if tname in armies[0]["controlled"] and tname in armies[1]["controlled"]:
            raise err("controlled", "a tile controlled by one army at most", tname)
    return {
        "scenario": number,
        "tiles": tile_list,
        "max_rounds": max_rounds,
        "viewer": -1,
        "phase": "deal",
        "to_move": 0,
        "initiative": ARMIES.index(data["initiative"]),
        "round": 0,
        "armies": armies,
    }


def _load_army(d, side, fname, tiles, total_objectives):
    def err(key, expected, got=None):
        extra = "" if got is None else f", got {got!r}"
        return ScenarioError(f"{fname}: {side}.{key}: expected {expected}{extra}")

    if not isinstance(d, dict):
        raise ScenarioError(f"{fname}: {side}: expected a table for the {side} army")
    known = {"goal", "goal_points", "spawn", "tokens", "controlled", "scouted", "deck", "supply"}
    for key in d:
        if key not in known:
            raise err(key, f"no such key (keys: {', '.join(sorted(known))})")
    goal = d.get("goal")
    if goal not in ("capture", "immobilize"):
        raise err("goal", "'capture' or 'immobilize'", goal)
    points = d.get("goal_points", 0)
    if goal == "capture":
        if isinstance(points, bool) or not isinstance(points, int) or not 1 <= points <= total_objectives:
            raise err("goal_points", f"an integer from 1 to the board's {total_objectives} objective points", points)
    if d.get("spawn") not in tiles:
        raise err("spawn", "a tile of this scenario", d.get("spawn"))
    tokens = d.get("tokens", {})
    if not isinstance(tokens, dict):
        raise err("tokens", "a table unit = tile")
    for unit, tile in tokens.items():
        if unit not in UNITS:
            raise err("tokens", f"units with combat tokens ({', '.join(UNITS)})", unit)
        if tile not in tiles:
            raise err(f"tokens.{unit}", "a tile of this scenario", tile)
    if not any(r in tokens for r in RIFLEMEN):
        raise err("tokens", "at least one Rifleman token on the board (else the army starts immobilized)")
    marks = {}
    for key in ("controlled", "scouted"):
        lst = d.get(key, [])
        if not isinstance(lst, list) or any(t not in tiles for t in lst):
            raise err(key, "a list of tiles of this scenario", lst)
        marks[key] = list(lst)
    if set(marks["controlled"]) & set(marks["scouted"]):
        raise err("scouted", "tiles not also controlled (one marker per army and tile)")
    zones = {}
    for key in ("deck", "supply"):
        z = d.get(key, {})
        if not isinstance(z, dict):
            raise err(key, "a table card = count")
        for card, n in z.items():
            if card not in CARDS:
                raise err(key, f"cards ({', '.join(CARDS)})", card)
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 60:
                raise err(f"{key}.{card}", "a count from 0 to 60", n)
        zones[key] = {c: n for c, n in z.items() if n}
    if sum(zones["deck"].values()) < 1:
        raise err("deck", "at least one card")
    return {
        "deck": zones["deck"], "supply": zones["supply"],
        "tokens": {u: {"tile": t, "suppressed": False} for u, t in tokens.items()},
        "scouted": marks["scouted"], "controlled": marks["controlled"],
        "spawn": d["spawn"], "target": None, "goal": goal,
        "goal_points": points if goal == "capture" else 0, "bid": None,
    }


def pack_params(values: dict) -> bytes:
    """Validated parameter values -> the parameters struct (a state before round 1)."""
    path = values.get("scenario_file") or scenario_path(values.get("scenario", 1))
    setup = load_scenario(path, values.get("max_rounds", 40))
    try:
        return _engine.pack_setup(setup)
    except ValueError as e:
        raise ScenarioError(f"{os.path.basename(path)}: {e}") from None


# ---------------------------------------------------------------- board text
def _zone(z):
    return " ".join(f"{c}x{n}" if n > 1 else c for c, n in z.items()) or "-"


def render(raw: bytes) -> str:
    d = _engine.to_dict(raw)
    lines = []
    head = f"Undaunted: Normandy, scenario {d['scenario']}, round {d['round']}/{d['max_rounds']}"
    if d["viewer"] >= 0:
        head += f" (view of {ARMIES[d['viewer']]})"
    lines.append(head)
    if d["phase"] == "over":
        lines.append(f"game over: {d['winner']} wins ({d['end_reason']})")
    else:
        lines.append(f"phase {d['phase']}, {ARMIES[d['to_move']]} to act; initiative: {ARMIES[d['initiative']]}")
    if d["roll"]:
        r = d["roll"]
        lines.append(f"roll: {r['kind']} against {ARMIES[r['army']]} {r['unit']}, {r['dice']} dice "
                     f"vs defence {r['defence']} (p = {r['probability']:.4f})")
    lines.append("tiles (cover, objective, markers US/DE, tokens):")
    for t in d["tiles"]:
        marks = []
        for a, army in enumerate(d["armies"]):
            m = "C" if t["name"] in army["controlled"] else "s" if t["name"] in army["scouted"] else "."
            marks.append(m)
        toks = []
        for a, army in enumerate(d["armies"]):
            for u, tok in army["tokens"].items():
                if tok["tile"] == t["name"]:
                    toks.append(f"{'US' if a == 0 else 'DE'}:{u}{'(s)' if tok['suppressed'] else ''}")
            if army["target"] == t["name"]:
                toks.append(f"{'US' if a == 0 else 'DE'}:target")
        obj = f"obj {t['objective']}" if t["objective"] else "     "
        lines.append(f"  {t['name']:>4} cover {str(t['cover']):>4} {obj}  {marks[0]}/{marks[1]}  "
                     f"{' '.join(toks)}   -> {' '.join(t['adjacent'])}")
    for a, army in enumerate(d["armies"]):
        hand = _zone(army["hand"])
        if army["unknown_hand"]:
            hand += f" +{army['unknown_hand']} unknown"
        deck = _zone(army["deck"])
        lines.append(f"{ARMIES[a]}: points {army['points']} ({army['goal']}"
                     f"{' ' + str(army['goal_points']) if army['goal'] == 'capture' else ''}), spawn {army['spawn']}")
        lines.append(f"  hand: {hand}")
        lines.append(f"  {'deck + unknown hand' if army['unknown_hand'] else 'deck'}: {deck}")
        lines.append(f"  discard: {_zone(army['discard'])}; play: {_zone(army['play'])}")
        lines.append(f"  supply: {_zone(army['supply'])}; removed: {_zone(army['removed'])}")
        if army["bid"]:
            lines.append(f"  initiative card: {army['bid']}")
    return "\n".join(lines)


def observation_tensor(raw: bytes, player: int):
    return _engine.observation_tensor(raw, player)


PARAMS = (
    Param("scenario", int, 1, "scenario number (1 La Rayé; 2, 3 designed boards)", min=1, max=3),
    Param("max_rounds", int, 40, "rounds before the game ends on objective points (design choice)",
          min=1, max=100),
    Param("scenario_file", str, "", "path of a scenario TOML file to play instead of `scenario`"),
)

TITLES = ("US", "Germans")
# RULES.md, "How the game ends": outcome reason <- the engine's end_reason
OUTCOME_REASONS = ("objectives", "immobilized", "both-immobilized", "irremediable", "turn-limit")
_REASON = dict(zip(_engine.END_REASONS[1:], OUTCOME_REASONS))


def _points(d, a):
    p = d["armies"][a]["points"]
    return f"{p} objective point{'s' if p != 1 else ''}"


def outcome(state) -> Outcome:
    """How a finished game ended: the engine records the reason
    (`end_reason`, RULES.md "End of the game"); this adds the facts."""
    d = state.to_dict()
    w = ARMIES.index(d["winner"])
    o = 1 - w
    reason = _REASON[d["end_reason"]]
    win, lose = TITLES[w], TITLES[o]
    armies = d["armies"]
    tie = armies[0]["points"] == armies[1]["points"]
    pw, po = armies[w]["points"], armies[o]["points"]
    on_points = (f"{win} win on objective points, {pw} to {po}" if not tie else
                 f"{win} win the tie on objective points ({pw} each) as Initiative holder")
    if reason == "objectives":
        text = (f"{win} control {_points(d, w)}, their goal of {armies[w]['goal_points']} "
                f"(round {d['round']})")
    elif reason == "immobilized":
        text = f"{lose} have no Rifleman left on the board: {win} immobilized them (round {d['round']})"
    elif reason == "both-immobilized":
        text = f"Both armies are immobilized (round {d['round']}); {on_points}"
    elif reason == "irremediable":
        if armies[o]["goal"] == "capture":
            why = f"can no longer reach their goal of {armies[o]['goal_points']} objective points"
        else:
            why = "can no longer win"
        text = f"{lose} {why} (round {d['round']}): {win} win"
    else:
        text = f"The round limit ended the game after round {d['round']}; {on_points}"
    return Outcome.make(SPEC, w, reason, text)


SPEC = GameSpec(
    name="undaunted",
    title="Undaunted: Normandy",
    capsule=_engine.capsule(),
    params=PARAMS,
    pack_params=pack_params,
    to_dict=_engine.to_dict,
    from_dict=_engine.from_dict,
    render=render,
    observation_tensor=observation_tensor,
    observation_shape=(_engine.OBS_SIZE,),
    summary="deck building with hidden hands and simultaneous initiative bids; d10 combat",
    player_names=ARMIES,
    player_titles=TITLES,
    outcome=outcome,
    outcome_reasons=OUTCOME_REASONS,
    illegal_reason=illegal_reason,
)
