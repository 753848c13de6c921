"""Stosstruppen: battalion-level WW1 miniatures rules on a grid of 5 cm
squares, played from a Sequence deck of eight cards (Move, Fire, Assault,
Rally for each side), with morale tests, fire dice against terrain
protection, tanks, barrages and air strikes. Rules as played: RULES.md. The
engine is the C-struct state in _engine.pyx; unit and scenario data are the
TOML files beside it (units.toml, scenarios/*.toml, checked by data.py)."""
from __future__ import annotations

from ardsearch._spec import GameSpec, Outcome, Param
from ardsearch.games.stosstruppen import _engine
from ardsearch.games.stosstruppen._illegal_reasons import illegal_reason
from ardsearch.games.stosstruppen._notation_hints import notation_hint

PARAMS = (
    Param("scenario", str, "kaiserschlacht",
          "scenario file in scenarios/ (or the folder $ARDSEARCH_STOSSTRUPPEN_SCENARIOS): kaiserschlacht "
          "(storm battalion against a trench line) or villers (tanks on both sides)",
          choices=_engine.SCENARIO_NAMES),
    Param("turns", int, 0, "turn limit; 0 keeps the scenario's (Kaiserschlacht 8, Villers 6)", min=0, max=30),
)

_TERRAIN_CHARS = ".=WBFMCTKL"
_SIDE_TITLE = {"german": "Germans", "british": "British"}
_UNIT_LETTER = {"hq": "h", "rifle": "r", "bombers": "b", "pioneers": "p", "lmg": "l", "hmg": "m",
                "atrifle": "a", "ltm_de": "t", "ltm_gb": "t", "lig": "i", "mig": "j",
                "fieldgun": "g", "markiv": "4", "whippet": "w", "a7v": "7", "ft17": "f",
                "schneider": "s"}


def render(raw: bytes) -> str:
    """The board: terrain letters, German units upper case, British lower case
    (a status mark after a pinned '+' or suppressed '*' unit), then the rosters."""
    d = _engine.to_dict(raw)
    sc = _engine.scenario_info(d["scenario"])
    w, h = sc["width"], sc["height"]
    grid = [[_TERRAIN_CHARS[sc["terrain"][r * 16 + c]] + " " for c in range(w)] for r in range(h)]
    for sq in sc["wire"]:
        grid[sq // 16][sq % 16] = grid[sq // 16][sq % 16][0] + "#"
    for u in d["units"]:
        if u["square"] is None:
            continue
        c, r = ord(u["square"][0]) - 97, int(u["square"][1:]) - 1
        ch = _UNIT_LETTER.get(u["type"], "?")
        ch = ch.upper() if u["side"] == "german" else ch.lower()
        mark = {"normal": " ", "pinned": "+", "suppressed": "*"}[u["status"]]
        grid[r][c] = ch + mark
    head = f"Stosstruppen: {sc['title']}  turn {d['turn']}/{d['turns']}  "
    if d["phase"] == "over":
        head += f"game over: {_SIDE_TITLE.get(d['winner'], '?')} win"
    elif d["phase"] == "draw":
        head += "drawing the next Sequence card"
    else:
        head += f"card {d['card']} ({d['phase']}), to move: {d['to_move']}"
    lines = [head, "    " + " ".join(chr(97 + c) + " " for c in range(w))]
    for r in range(h - 1, -1, -1):
        lines.append(f"{r + 1:3d} " + " ".join(grid[r]))
    lines.append("terrain . open = road W woods B buildings F ford M marsh C craters T trench "
                 "K bunker L wall, # wire; objectives: "
                 + " ".join(f"{chr(97 + q % 16)}{q // 16 + 1}" for q in sc["objectives"]))
    for side in ("german", "british"):
        alive = [u for u in d["units"] if u["side"] == side and u["square"]]
        mk = [m for m in d["markers"] if m["side"] == side and m["kind"] != "none"]
        lines.append(f"{_SIDE_TITLE[side]}: {len(alive)} units; markers "
                     + (", ".join(f"{m['kind']}{'@' + m['square'] if m['square'] else ''}"
                                  f"{' (armed)' if m['armed'] else ''}" for m in mk) or "none"))
    lines.append("drawn: " + (" ".join(d["drawn"]) or "-"))
    return "\n".join(lines)


SIDES = ("german", "british")
TITLES = ("Germans", "British")
# RULES.md, "How the game ends"
OUTCOME_REASONS = ("elimination", "morale", "objectives", "turn-limit")


def _square(sq: int) -> str:
    return f"{chr(97 + sq % 16)}{sq // 16 + 1}"


def outcome(state) -> Outcome:
    """How a finished game ended, derived from the final position (RULES.md,
    "How the game ends"): victory is checked at the end of a turn, and an
    attacker with no units left loses at once."""
    d = state.to_dict()
    sc = _engine.scenario_info(d["scenario"])
    att = sc["attacker"]
    w = SIDES.index(d["winner"])
    o = 1 - w
    alive = [[u for u in d["units"] if u["side"] == side and u["square"]] for side in SIDES]
    start = [sum(1 for u in d["units"] if u["side"] == side) for side in SIDES]
    objectives = {_square(q) for q in sc["objectives"]}
    held = sorted(u["square"] for u in alive[att] if u["square"] in objectives)
    need, turn = sc["objectives_needed"], d["turn"]
    where = f" ({', '.join(held)})" if held else ""
    if not alive[o] and o == att:
        return Outcome.make(SPEC, w, "elimination",
                            f"The {TITLES[o]} have no units left (turn {turn}): the {TITLES[w]} win")
    if w == att:
        lost = start[o] - len(alive[o])
        demoralised = 2 * lost >= start[o]
        if len(held) >= need and (turn >= d["turns"] or not demoralised):
            return Outcome.make(SPEC, w, "objectives",
                                f"The {TITLES[w]} hold {len(held)} objective{'s' if len(held) != 1 else ''}"
                                f"{where} at the end of turn {turn} ({need} needed)")
        return Outcome.make(SPEC, w, "morale",
                            f"The {TITLES[o]} are demoralised ({lost} of {start[o]} units lost) and the "
                            f"{TITLES[w]} hold {len(held)} objective{'s' if len(held) != 1 else ''}{where} "
                            f"at the end of turn {turn}")
    return Outcome.make(SPEC, w, "turn-limit",
                        f"The {TITLES[w]} held out to the end of turn {turn}: the {TITLES[o]} hold "
                        f"{len(held)} objective{'s' if len(held) != 1 else ''}{where}, {need} needed")


def _summary() -> str:
    return ("Stosstruppen: WW1 battalion actions on a 16 x 12 grid, a Sequence deck of "
            "8 cards, morale tests, fire dice against cover, tanks, barrages")


SPEC = GameSpec.from_engine(_engine, name="stosstruppen", title="Stosstruppen",
                            params=PARAMS, render=render, summary=_summary(),
                            player_names=SIDES, player_titles=TITLES, outcome=outcome,
                            outcome_reasons=OUTCOME_REASONS, illegal_reason=illegal_reason,
                            notation_hint=notation_hint)
