"""Micro Armour: The Game - WWII: platoon stands on a 1" grid, cohesion rolls
for every task, a 2D6 Combat Results Table, movement orders, opportunity fire,
and hidden break-point card totals. Rules as played (issue one): RULES.md. The
engine is the C-struct state in _engine.pyx; the charts, weapons and scenario
are TOML files (data/charts.toml, data/weapons.toml, scenarios/) read by _data.py."""
from __future__ import annotations

from ardsearch._spec import GameSpec, Outcome, Param
from ardsearch.games.microarmour import _engine
from ardsearch.games.microarmour._drop_board import drop_lines, mark_drop_zone
from ardsearch.games.microarmour._illegal_reasons import illegal_reason
from ardsearch.games.microarmour._notation_hints import notation_hint

_SC = _engine.SCENARIO


def _scenario_value(values: dict, key: str, side: int | None = None):
    """A scenario file's `turns`, or one side's `cohesion` / `quality`: the
    defaults of the game parameters of the same names (RULES.md, Scenarios)."""
    sc = _engine.SCENARIOS[_engine.SCENARIO_NAMES.index(values["scenario"])]
    return sc[key] if side is None else sc["sides"][side][key]

PARAMS = (
    Param("scenario", str, _engine.SCENARIO_NAMES[0],
          "scenario file in scenarios/: introductory (the book's first), airstrike (its forces "
          "with an aircraft and an AA stand per side), barrage (its forces with "
          "off-board artillery and smoke on both sides), combined (batteries and aircraft on both sides), "
          "minefield, meeting, ambush, outpost (hidden set-up, dummies, minefields and transports together), "
          "or airdrop (the Introductory's forces with a German paratroop landing group dropping on turn 2); "
          "airstrike, barrage, combined and airdrop keep the Introductory's table as laid out until session 46; "
          "RULES.md, Scenarios",
          choices=_engine.SCENARIO_NAMES),
    Param("turns", int, _SC["turns"], "game length in turns (default: the scenario file's `turns`)",
          min=1, max=50, default_for=lambda v: _scenario_value(v, "turns")),
    Param("determination", int, 35, "determination level in percent for break points (35 base)",
          min=1, max=100),
    Param("german_cohesion", int, _SC["sides"][0]["cohesion"],
          "German force cohesion level (default: the scenario file's)", min=5, max=20,
          default_for=lambda v: _scenario_value(v, "cohesion", 0)),
    Param("soviet_cohesion", int, _SC["sides"][1]["cohesion"],
          "Soviet force cohesion level (default: the scenario file's)", min=5, max=20,
          default_for=lambda v: _scenario_value(v, "cohesion", 1)),
    Param("german_quality", int, _SC["sides"][0]["quality"], "German GHQ quality (default: the scenario file's)",
          min=-2, max=3, default_for=lambda v: _scenario_value(v, "quality", 0)),
    Param("soviet_quality", int, _SC["sides"][1]["quality"], "Soviet GHQ quality (default: the scenario file's)",
          min=-2, max=3, default_for=lambda v: _scenario_value(v, "quality", 1)),
    Param("deployment", str, "edges",
          "edges: the scenario's entry edges; close: both sides start 9 inches nearer the village "
          "(a quick start, also used by the tests to reach combat under random play)",
          choices=("edges", "close")),
    Param("hot_shot", bool, False,
          "optional rule: a natural 1 on a 'to fire' roll shifts the attack two CRT columns"),
    Param("low_ammo", bool, False,
          "optional rule: a natural 20 on a 'to fire' roll leaves the stand low on ammunition: "
          "from then on it may only fire at stands that fired at it this turn"),
    Param("intuitive_action", bool, False,
          "optional rule: a natural 1 on an ordered movement roll is Intuitive Action: the stand moves "
          "and the order is not spent"),
    Param("conflicting_orders", bool, False,
          "optional rule: a natural 20 on an ordered movement roll is Conflicting Orders: the stand "
          "does not move and its side loses the orders it has left this turn"),
    Param("special_ap", bool, False,
          "optional rule: stands with special AP ammunition fire at x1.5 AP until an unmodified CRT roll "
          "of 5 or less uses it up"),
    Param("heat", bool, False, "optional rule: stands with limited HEAT rounds fire them at armour"),
    Param("big_gun_he", bool, False, "optional rule: big guns fire their HE at armour within 4 inches"),
    Param("depletion", bool, True,
          "D# rule: a D# stand loses its AP ability when an unmodified AP CRT roll is at or below #"),
    Param("support", bool, False,
          "the scenario's support stands (MMGs, light mortars, a Panzerschreck, a StuG, an infantry gun, "
          "a howitzer, an AA gun) and its stronger village buildings are in play"),
    Param("tank_riders", bool, False,
          "optional rule: a tracked armoured vehicle without a cargo capacity carries one personnel stand "
          "as tank riders"),
    # weather and night (RULES.md "Weather and night"): "scenario" keeps the scenario file's
    Param("weather", str, "scenario",
          "the weather: its dice give each turn's maximum sighting (light_rain 3D6, haze 2D8, heavy_rain and "
          "light_snow 2D6, heavy_snow, fog and sandstorm 1D6 inches; haze_percent: haze's alternative, the "
          "board's sighting less 1D20%); scenario: the scenario file's",
          choices=_engine.WEATHER_PARAM),
    Param("ground", str, "scenario",
          "terrain changes: snow (clear is rough), deep_snow (and MP costs doubled), frozen (extreme cold: streams are "
          "rough), extreme_heat; both give +2 to dismounted personnel movement rolls; scenario: the scenario file's", choices=_engine.GROUND_PARAM),
    Param("night", str, "scenario", "day or night (sighting 1D5 inches at most); scenario: the scenario file's",
          choices=_engine.NIGHT_PARAM),
    # paratroops (RULES.md "Paratroops"): the landing group's jump conditions
    Param("jump", str, "scenario",
          "the landing group's jump conditions (a scenario with a [[drop]] group): on_target (1D8/2 scatter), hot "
          "('Hot Combat Jump', 4D6 on a failed roll), glider (2D8) or glider_snafu ('SNAFU', 2D8+4), gliders rolling "
          "forward 1D8/2 inches on landing; scenario: the scenario file's", choices=_engine.JUMP_PARAM),
)

_TITLE = {"german": "German", "soviet": "Soviet"}


def _stand_char(st) -> str:
    """Upper case German, lower case Soviet: T tank/armour, I infantry, G gun,
    A AA stand, H HQ, Q GHQ; '*' marks a wreck where nothing stands."""
    w = _engine.WEAPONS[[t["key"] for t in _engine.WEAPONS].index(st["type"])]
    ch = ({"ghq": "Q", "hq": "H"}.get(w["role"]) or ("A" if w["aa"] else None)
          or {"A": "T", "P": "I", "U": "G"}[w["defence"]])
    return ch if st["side"] == _engine.SIDE_KEYS[0] else ch.lower()


def _stand_char(st, _plain=_stand_char) -> str:
    """'?' an unspotted enemy marker in a view; in the full state 'D'/'d' a dummy
    (RULES.md, Board text; 'X' is an impact marker)."""
    if st["type"] == "?":
        return "?"
    if st.get("dummy"):
        return "D" if st["side"] == _engine.SIDE_KEYS[0] else "d"
    return _plain(st)


def _flare_text(cond, p):
    """At night: the side's flares left and whether one burns this turn (RULES.md, Weather and night)."""
    if not cond["night"] or not (cond["flares"][p] or cond["flare"][p]):
        return ""
    return f", flares {cond['flares'][p]}" + (" (one burning)" if cond["flare"][p] else "")


def render(raw: bytes) -> str:
    """The board text (RULES.md, Board text)."""
    d = _engine.to_dict(raw)
    sc = _engine.SCENARIOS[_engine.SCENARIO_NAMES.index(d["scenario"])]
    terr = _engine.CHARTS["terrain"]
    grid = [[terr[sc["grid"][y][x]]["char"] for x in range(sc["width"])] for y in range(sc["height"])]
    mark_drop_zone(d, grid, next(t["char"] for t in terr if t["name"] == "clear"))     # RULES.md, Paratroops: `#`
    for st in d["stands"]:      # wrecks first: a live stand on a wreck shows the stand
        if st["wreck"] and not st["alive"]:
            grid[st["at"][1]][st["at"][0]] = "*"
    for b in d["buildings"]:     # RULES.md, Buildings: '%' rubble, '^' burning
        if b["burning"] or b["rubble"]:
            grid[b["at"][1]][b["at"][0]] = "^" if b["burning"] else "%"
    art = d.get("artillery")
    for b in (art or {}).get("batteries", []):     # markers: X impact, & smoke
        for x, y in b["markers"]:
            grid[y][x] = "&" if b["mission"]["kind"] == "smoke" else "X"
    _mark_obstacles(d, grid)     # RULES.md, Board text: wire, ditches, positions, minefield markers
    for st in d["stands"]:
        if st["alive"] and st["id"] not in d["units"]["offtable"] and not st["carried_by"]:     # entering stands are not on the table; cargo is listed aboard its carrier
            grid[st["at"][1]][st["at"][0]] = _stand_char(st)
    title = _engine.SCENARIOS[_engine.SCENARIO_NAMES.index(d["scenario"])]["title"]
    head = f"{title}  turn {d['turn']}/{d['turns']}  phase {d['phase']}  "
    if d["to_move"] == "terminal":
        head += "game over: " + ("draw" if d["winner"] == "draw" else f"{_TITLE.get(d['winner'], d['winner'])} win")
    else:
        head += f"to move: {d['to_move']}"
    lines = [head]
    for y in range(sc["height"] - 1, -1, -1):
        lines.append(f"{y:2d} " + "".join(grid[y]))
    lines.append("   " + "".join(str(x % 10) for x in range(sc["width"])))
    for side in _engine.SIDE_KEYS:
        c = d["cards"][side]
        total = "hidden" if c["total"] is None else str(c["total"])
        lines.append(f"{_TITLE.get(side, side)}: orders {d['orders'][_engine.SIDE_KEYS.index(side)]}, "
                     f"cards drawn {c['drawn']} (total {total})"
                     + (f" BROKEN (turn {c['broken_turn']})" if c["broken"] else "")
                     + (f", rising checks {d['rising_checks'][_engine.SIDE_KEYS.index(side)]}"
                        if d["rising_checks"][_engine.SIDE_KEYS.index(side)] else "")
                     + _flare_text(d["conditions"], _engine.SIDE_KEYS.index(side)))
    for st in d["stands"]:
        if not st["alive"]:
            continue
        marks = "".join(m for m, k in (("S", "suppressed"), ("D", "disorganized"), ("f", "fired"),
                                        ("m", "moved"), ("x", "depleted"), ("a", "special_ap_used")) if st[k])
        if st["heat_fired"]:
            marks += f"h{st['heat_fired']}"
        if st["id"] in d["units"]["mounted"]:
            marks += "H"                # on horseback (RULES.md, Special stand types)
        if st["id"] in d["units"]["offtable"]:
            marks += "o"                # off the table, entering at its square (RULES.md, Entry)
        if st["loaded_this_turn"]:
            marks += "L"
        aboard = f" aboard {st['carried_by']}" if st["carried_by"] else ""
        if st["loading_onto"]:
            aboard += f" loading onto {st['loading_onto']}"     # a two-turn load (RULES.md, Transport)
        # a marker on its owner's side (RULES.md, Board text): "dummy", not its placeholder type; "hidden"
        kind = "dummy" if st["dummy"] else st["type"]
        hidden = " hidden" if st["hidden"] and st["type"] != "?" else ""
        lines.append(f"  {st['id']:6s} {kind:9s} {st['at'][0]:2d},{st['at'][1]:<2d} "
                     f"{st['facing']:2s} {st['posture']:8s} {marks}{aboard}{hidden}")
    for b in d["buildings"]:
        if b["hits"] or b["burning"]:
            lines.append(f"building {b['at'][0]},{b['at'][1]} {b['class']}: {b['hits']} E"
                         f"{' rubble' if b['rubble'] else ''}{' burning ' + str(b['burning']) if b['burning'] else ''}")
    if d["attack"]:
        a = d["attack"]
        lines.append(f"attack ({a['kind']}): {','.join(a['firers'])} > {a['target']} [{a['step']}]")
    if d["mover"]:
        lines.append(f"moving: {d['mover']['id']} ({d['mover']['step']})")
    if d["units"]["group"]:
        gr = d["units"]["group"]
        lines.append(f"group: {gr['id']} ({gr['step']}) {','.join(gr['attempting'])}"
                     + (f"; still to move: {','.join(gr['to_move'])}" if gr["to_move"] else ""))
    if d["units"]["flame"]:
        fl = d["units"]["flame"]
        lines.append(f"flame: {fl['by']} > {fl['target']} [{fl['step']}]")
    lines.extend(_air_lines(d))
    lines.extend(drop_lines(d))     # the landing group still in the aircraft, lost, and its zone
    lines += _artillery_lines(d)
    lines.extend(_obstacle_lines(d))
    return "\n".join(lines)


def _mark_obstacles(d, grid):
    """Wire `"`, AT ditch `_`, improved position `o` (gone: not shown), minefield
    marker `!` (unrevealed), `M` (revealed real); a removed dummy is not shown."""
    for key, ch in (("wire", '"'), ("ditches", "_")):
        for x, y in d[key]:
            grid[y][x] = ch
    for c in d.get("terrain_changes", []):     # RULES.md, Engineering: a built bridge `+`, a filled ditch gone
        if c["done"]:
            x, y = c["at"]
            grid[y][x] = "+" if c["task"] == "bridge" else _engine.CHARTS["terrain"][
                _engine.SCENARIOS[_engine.SCENARIO_NAMES.index(d["scenario"])]["grid"][y][x]]["char"]
    for p in d["positions"]:
        if not p["destroyed"]:
            grid[p["at"][1]][p["at"][0]] = "o"
    for m in d["minefields"]:
        if not m["removed"]:
            grid[m["at"][1]][m["at"][0]] = "M" if m["revealed"] else "!"


def _obstacle_lines(d) -> list:
    """One line per improved position and per minefield marker still on the
    table (a marker's kind only where the viewer may know it)."""
    out = []
    for p in d["positions"]:
        if not p["destroyed"]:
            out.append(f"position {p['at'][0]},{p['at'][1]} {p['side']} {p['class']} facing {p['facing']}"
                       + (f" ({p['hits']} E)" if p["hits"] else ""))
    for m in d["minefields"]:
        if not m["removed"]:
            out.append(f"minefield {m['at'][0]},{m['at'][1]} {m['side']} "
                       + m["kind"]
                       + (" revealed" if m["revealed"] else ""))
    for m in d["minefields"]:
        if m["breach"] and not m["removed"]:
            out.append(f"breach {m['at'][0]},{m['at'][1]}: {m['breach']} successes")
    for c in d.get("terrain_changes", []):     # RULES.md, Engineering: bridges and AT ditches
        done = ("built" if c["task"] == "bridge" else "filled") if c["done"] else "in progress"
        out.append(f"{c['task']} {c['at'][0]},{c['at'][1]}: {done}, {c['successes']} successes")
    if d["engineering_roll"]:
        out.append(f"breaching roll: {d['engineering_roll']}")
    if d["minefield_attack"]:
        out.append(f"minefield attack at {d['minefield_attack'][0]},{d['minefield_attack'][1]}")
    return out


def _air_lines(d) -> list:
    """Aircraft (present or to come), their ordnance and plots: a plot shows
    only to its owner's view or the full state (RULES.md, Board text)."""
    air = d["air"]
    out = []
    for pl in air["aircraft"]:
        when = "present" if pl["present"] else f"turns {pl['arrive']}-{pl['arrive'] + pl['turns'] - 1}"
        line = (f"  aircraft {pl['id']:6s} {_TITLE.get(pl['side'], pl['side'])} {pl['name']}: {when}, "
                f"strafe {pl['strafe']}, bomb {pl['bomb']} x{pl['ordnance']} left"
                f"{', FASC' + (' through' if pl['fasc_ok'] else '') if pl['fasc'] else ''}")
        p = pl["plot"]
        if p is not None:
            at = p["at"]
            line += f"; plot for turn {p['turn']}: " + ("hidden" if at == "hidden" else
                                                        "none" if at is None else f"{at[0]},{at[1]}")
        out.append(line)
    st = air["strike"]
    if st:
        what = "plotting" if st["step"] == "plot" else f"{st['kind']} at {st['at'][0]},{st['at'][1]}"
        out.append(f"airstrike: {st['aircraft']} {what} [{st['step']}]" + (f" AA +{st['aa']}" if st["aa"] else ""))
    return out


def _artillery_lines(d) -> list:
    """One line per battery: smoke missions left and its mission as far as
    the reader sees it (an opponent's plot is `?` in a view: RULES.md, Board text)."""
    art = d.get("artillery")
    if not art:
        return []
    out = []
    for b in art["batteries"]:
        m = b["mission"]
        what = {"none": "-", "held": "-", "hidden": "?"}.get(b["state"])
        if what is None:
            aim = f"pre{m['prereg']}" if m["prereg"] else f"{m['target'][0]},{m['target'][1]}"
            if b["state"] == "plotted":
                what = f"plotted {m['kind']} {aim}, lands turn {b['lands']}"
            else:
                where = " ".join(f"{x},{y}" for x, y in b["markers"])
                what = f"{m['kind']} on {where} ({b['turns_left']} turn{'s' if b['turns_left'] > 1 else ''})"
        out.append(f"battery {b['id']:6s} {_TITLE.get(b['side'], b['side']):7s} smoke {b['smoke_left']}  {what}")
    parts = [f"{_TITLE.get(side, side)} " + " ".join(_point_text(p) for p in pts)
             for side, pts in (art.get("prereg") or {}).items() if pts]
    if parts:
        out.append("pre-registered points: " + "; ".join(parts))
    if art["current"] and d["phase"] in ("artillery", "plot"):
        out.append(f"{d['phase']}: battery {art['current']} ({art['step'] if d['phase'] == 'artillery' else 'plot'})")
    return out


def _point_text(p) -> str:
    """One pre-registered point as the reader sees it: `13,10` (`(seen)` once a call
    on it landed), `?` an opponent's unseen point, `-` not recorded yet."""
    if p["at"] is None:
        return "-"
    if p["at"] == "hidden":
        return "?"
    return f"{p['at'][0]},{p['at'][1]}" + (" (seen)" if p["shown"] else "")


SIDES = tuple(_engine.SIDE_KEYS)
TITLES = ("Germans", "Soviets")
# RULES.md, "How the game ends"
OUTCOME_REASONS = ("break", "village", "both_broken")
_VILLAGE = {name: {(x, y) for y in range(sc["height"]) for x in range(sc["width"])
                   if _engine.CHARTS["terrain"][sc["grid"][y][x]]["name"] == "buildings"}
            for name, sc in zip(_engine.SCENARIO_NAMES, _engine.SCENARIOS)}


def _stands(n):
    return f"{n} stand{'s' if n != 1 else ''}"


def _broke(state, d, p):
    """'The Soviet formation broke in turn 7 (loss cards total 37, break point 36.75)': the
    total only where the reader sees it."""
    side = SIDES[p]
    c = d["cards"][side]
    bp = _engine._break_units(state.raw(), p) * d["determination"] * 7 / 100
    total = "" if c["total"] is None else f"loss cards total {c['total']}, "
    return f"The {_TITLE[side]} formation broke in turn {c['broken_turn']} ({total}break point {bp:g})"


def outcome(state) -> Outcome:
    """How a finished game ended, derived from the final position (RULES.md,
    "How the game ends"): a side whose formation broke loses when its enemy fails a
    rising cohesion check or the last turn ends; if both break, or neither, the village
    decides."""
    d = state.to_dict()
    broken = [d["cards"][side]["broken"] for side in SIDES]
    n = [sum(1 for st in d["stands"] if st["alive"] and not st["hidden"] and st["side"] == side and tuple(st["at"])
              in _VILLAGE[d["scenario"]])
         for side in SIDES]
    winner = None if d["winner"] == "draw" else SIDES.index(d["winner"])
    if broken[0] != broken[1]:
        b = 0 if broken[0] else 1
        w = 1 - b
        if d["end_cause"] == "rising_check":
            how = (f"the {TITLES[w]} failed their rising cohesion check in turn {d['turn']} "
                   f"(after {d['rising_checks'][w]} passed) and stopped fighting")
        else:
            how = f"the {TITLES[w]} fought on to the end of turn {d['turn']}"
        return Outcome.make(SPEC, w, "break", f"{_broke(state, d, b)}; {how}: the {TITLES[w]} win")
    if broken[0]:
        first = sorted((0, 1), key=lambda p: d["cards"][SIDES[p]]["broken_turn"])
        both = (f"Both formations broke, the {_TITLE[SIDES[first[0]]]} in turn "
                f"{d['cards'][SIDES[first[0]]]['broken_turn']}, the {_TITLE[SIDES[first[1]]]} in turn "
                f"{d['cards'][SIDES[first[1]]]['broken_turn']}: the village decides")
        if winner is None:
            return Outcome.make(SPEC, None, "both_broken", f"{both}, each side has {_stands(n[0])} in it: a draw")
        return Outcome.make(SPEC, winner, "both_broken",
                            f"{both}, the {TITLES[winner]} hold it with {_stands(n[winner])} to {n[1 - winner]}")
    end = f"At the end of turn {d['turn']}"
    if winner is None:
        return Outcome.make(SPEC, None, "village", f"{end} each side has {_stands(n[0])} in the village: a draw")
    return Outcome.make(SPEC, winner, "village",
                        f"{end} the {TITLES[winner]} hold the village with {_stands(n[winner])} to {n[1 - winner]}")


def book(state) -> str | None:
    """The searching bots' pre-registered target points (RULES.md, Indirect
    artillery, Pre-registered target points): the scenario file's, in its order.
    While the side's points so far are the file's, its next one; once a point
    differs (a person recorded elsewhere), None, and the bot searches. None
    outside the recording before turn 1."""
    d = state.to_dict()
    art = d.get("artillery")
    side = d["to_move"]
    if not art or d["turn"] != 1 or d["phase"] != "initiative" or side not in SIDES:
        return None
    mine = art["prereg"][side]
    if all(pt["at"] is not None for pt in mine):
        return None
    own = _engine.SCENARIOS[_engine.SCENARIO_NAMES.index(d["scenario"])]["sides"][SIDES.index(side)]["prereg"]
    for pt, (x, y) in zip(mine, own):
        if pt["at"] is None:
            move = f"prereg {x},{y}"
            return move if move in {state.action_to_string(a) for a in state.legal_actions()} else None
        if pt["at"] != [x, y]:
            return None
    return None


def _summary() -> str:
    return ("Micro Armour: The Game - WWII, the book's Introductory scenario (Eastern Front 1943) and nine "
            "designed ones (artillery, air, minefields, hidden set-up, paratroops): platoon stands, "
            "cohesion rolls, 2D6 CRT, hidden break-point cards")


SPEC = GameSpec.from_engine(_engine, name="microarmour", title="Micro Armour: The Game - WWII",
                            params=PARAMS, render=render, summary=_summary(),
                            player_names=SIDES, player_titles=TITLES, outcome=outcome,
                            outcome_reasons=OUTCOME_REASONS, notation_hint=notation_hint,
                            illegal_reason=illegal_reason, book=book)
