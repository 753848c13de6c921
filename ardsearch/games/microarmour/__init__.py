"""Micro Armour: The Game - WWII: platoon stands on a 1" grid, cohesion rolls
for every task, a 2D6 Combat Results Table, movement orders, opportunity fire,
and hidden break-point card totals. Rules as played (issue one): RULES.md. The
engine is the C-struct state in _engine.pyx; the charts, weapons and scenario
are TOML files (data/charts.toml, data/weapons.toml, scenarios/) read by _data.py."""
from __future__ import annotations

from ardsearch._spec import GameSpec, Outcome, Param
from ardsearch.games.microarmour import _engine

_SC = _engine.SCENARIO

PARAMS = (
    Param("turns", int, _SC["turns"], "game length in turns (the scenario's is 12)", min=1, max=50),
    Param("determination", int, 35, "determination level in percent for break points (35 base)",
          min=1, max=100),
    Param("german_cohesion", int, _SC["sides"][0]["cohesion"], "German force cohesion level", min=5, max=20),
    Param("soviet_cohesion", int, _SC["sides"][1]["cohesion"], "Soviet force cohesion level", min=5, max=20),
    Param("german_quality", int, _SC["sides"][0]["quality"], "German GHQ quality", min=-2, max=3),
    Param("soviet_quality", int, _SC["sides"][1]["quality"], "Soviet GHQ quality", min=-2, max=3),
    Param("deployment", str, "edges",
          "edges: the scenario's entry edges; close: both sides start 9 inches nearer the village "
          "(a quick start, also used by the tests to reach combat under random play)",
          choices=("edges", "close")),
    Param("hot_shot", bool, False,
          "optional rule: a natural 1 on a 'to fire' roll shifts the attack two CRT columns"),
    Param("low_ammo", bool, False,
          "optional rule: a natural 20 on a 'to fire' roll leaves the stand low on ammunition: "
          "from then on it may only fire at stands that fired at it this turn"),
    Param("scenario", str, "introductory",
          "scenario file in scenarios/: introductory (no fire support), barrage (the same table and "
          "forces with off-board artillery and smoke on both sides)",
          choices=tuple(_engine.SCENARIO_NAMES)),
)

_TITLE = {"german": "German", "soviet": "Soviet"}


def _stand_char(st) -> str:
    """Upper case German, lower case Soviet: T tank/armour, I infantry, G gun,
    H HQ, Q GHQ; '*' marks a wreck where nothing stands."""
    w = _engine.WEAPONS[[t["key"] for t in _engine.WEAPONS].index(st["type"])]
    ch = {"ghq": "Q", "hq": "H"}.get(w["role"]) or {"A": "T", "P": "I", "U": "G"}[w["defence"]]
    return ch if st["side"] == _engine.SIDE_KEYS[0] else ch.lower()


def render(raw: bytes) -> str:
    """The board text (RULES.md, Board text)."""
    d = _engine.to_dict(raw)
    sc = _engine.SCENARIO
    terr = _engine.CHARTS["terrain"]
    grid = [[terr[sc["grid"][y][x]]["char"] for x in range(sc["width"])] for y in range(sc["height"])]
    for st in d["stands"]:      # wrecks first: a live stand on a wreck shows the stand
        if st["wreck"] and not st["alive"]:
            grid[st["at"][1]][st["at"][0]] = "*"
    art = d.get("artillery")
    for b in (art or {}).get("batteries", []):     # markers: X impact, % smoke
        for x, y in b["markers"]:
            grid[y][x] = "%" if b["mission"]["kind"] == "smoke" else "X"
    for st in d["stands"]:
        if st["alive"]:
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
                     f"cards drawn {c['drawn']} (total {total}){' BROKEN' if c['broken'] else ''}")
    for st in d["stands"]:
        if not st["alive"]:
            continue
        marks = "".join(m for m, k in (("S", "suppressed"), ("D", "disorganized"), ("f", "fired"),
                                        ("m", "moved")) if st[k])
        lines.append(f"  {st['id']:6s} {st['type']:9s} {st['at'][0]:2d},{st['at'][1]:<2d} "
                     f"{st['facing']:2s} {st['posture']:8s} {marks}")
    if d["attack"]:
        a = d["attack"]
        lines.append(f"attack ({a['kind']}): {','.join(a['firers'])} > {a['target']} [{a['step']}]")
    if d["mover"]:
        lines.append(f"moving: {d['mover']['id']} ({d['mover']['step']})")
    lines += _artillery_lines(d)
    return "\n".join(lines)


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
    if art["current"] and d["phase"] in ("artillery", "plot"):
        out.append(f"{d['phase']}: battery {art['current']} ({art['step'] if d['phase'] == 'artillery' else 'plot'})")
    return out


SIDES = tuple(_engine.SIDE_KEYS)
TITLES = ("Germans", "Soviets")
# RULES.md, "How the game ends"
OUTCOME_REASONS = ("break", "village")
_VILLAGE = {(x, y) for y in range(_SC["height"]) for x in range(_SC["width"])
            if _engine.CHARTS["terrain"][_SC["grid"][y][x]]["name"] == "buildings"}


def outcome(state) -> Outcome:
    """How a finished game ended, derived from the final position (RULES.md,
    "How the game ends"): a side whose break check comes up `brk:yes` loses at
    once; otherwise the end of the last turn decides on the village."""
    d = state.to_dict()
    for p, side in enumerate(SIDES):
        c = d["cards"][side]
        if c["broken"]:
            w = 1 - p
            units = _engine._break_units(state.raw(), p)
            bp = units * d["determination"] * 7 / 100
            total = "" if c["total"] is None else f"loss cards total {c['total']}, "
            return Outcome.make(SPEC, w, "break",
                                f"The {_TITLE[side]} formation broke in turn {d['turn']}: {total}"
                                f"break point {bp:g}; the {TITLES[w]} win")
    n = [sum(1 for st in d["stands"] if st["alive"] and st["side"] == side and tuple(st["at"]) in _VILLAGE)
         for side in SIDES]
    winner = None if d["winner"] == "draw" else SIDES.index(d["winner"])
    end = f"At the end of turn {d['turn']}"
    if winner is None:
        return Outcome.make(SPEC, None, "village",
                            f"{end} each side has {n[0]} stand{'s' if n[0] != 1 else ''} in the village: a draw")
    return Outcome.make(SPEC, winner, "village",
                        f"{end} the {TITLES[winner]} hold the village with {n[winner]} "
                        f"stand{'s' if n[winner] != 1 else ''} to {n[1 - winner]}")


def _summary() -> str:
    return ("Micro Armour: The Game - WWII, Introductory scenario (Eastern Front 1943): "
            "platoon stands, cohesion rolls, 2D6 CRT, hidden break-point cards")


SPEC = GameSpec.from_engine(_engine, name="microarmour", title="Micro Armour: The Game - WWII",
                            params=PARAMS, render=render, summary=_summary(),
                            player_names=SIDES, player_titles=TITLES, outcome=outcome,
                            outcome_reasons=OUTCOME_REASONS)
