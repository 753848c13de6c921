"""Why a Micro Armour move written in notation is not legal here: one sentence
for the refusal (GameSpec.illegal_reason, read by ardsearch/_refusals.py).

The game has many interleaved steps (attacks, movers, strikes, drops,
artillery); this speaks only in the plain steps of a phase, where the
structured state says what is asked: the lead choice, posture marking,
standard fire and the movement attempts (RULES.md, Turn sequence, Fire,
Movement). It names a stand that is lost, has fired or moved, cannot fire
from its posture, or a target beyond sighting or range; anything it cannot
be sure of (line of sight, contact, the combat difference) is left to the
core's list of legal moves (None)."""
from __future__ import annotations

from ardsearch.games.microarmour._engine import CHARTS, WEAPONS

WEAPON = {w["key"]: w for w in WEAPONS}
# RULES.md, Line of sight (Higher ground): height level by terrain name, 5" a level
LEVEL = {t["name"]: CHARTS["spotting"]["level"][i] for i, t in enumerate(CHARTS["terrain"])}
PER_LEVEL = CHARTS["spotting"]["per_level"]
PHASE_MOVES = {
    "posture": "mark postures with `posture <stand> move|firemove`, or `pass`",
    "fire": "attack with `fire <firer>><target>` (then `go`), or `pass`",
    "movement": "move a stand with `order <stand>` or `indep <stand>`, or `pass`",
}
PHASE_OF = {"posture": "posture", "fire": "fire", "order": "movement", "indep": "movement"}


def illegal_reason(d: dict, note: str) -> str | None:
    """One sentence saying why `note` is illegal in the structured state `d`, or None."""
    if d["to_move"] not in ("german", "soviet") or not _plain_step(d):
        return None
    phase = d["phase"]
    word, _, rest = note.partition(" ")
    recording = _recording(d)
    if recording or word == "prereg":
        return _prereg_reason(d, word, rest, recording)
    if phase == "lead":
        return None if word in ("lead", "follow") else \
            "the initiative winner chooses first: `lead` (act first this turn) or `follow` (act second)"
    if word in ("lead", "follow"):
        return "`lead` and `follow` answer the initiative roll at the start of a turn"
    if phase not in PHASE_MOVES:
        return None
    if word in ("step", "stop") and phase == "movement":
        return "no stand is moving: start a move with `order <stand>` or `indep <stand>`"
    if word == "go" and phase == "fire":
        return "no attack is declared: name a firer and its target with `fire <firer>><target>`"
    wanted = PHASE_OF.get(word)
    if wanted is None:
        return None
    if wanted != phase:
        return f"this is the {phase} phase, not the {wanted} phase: {PHASE_MOVES[phase]}"
    if word == "posture":
        return _posture_reason(d, _stand(d, rest.split(" ")[0]))
    if word == "fire":
        firer, _, target = rest.partition(">")
        return _fire_reason(d, _stand(d, firer), _stand(d, target))
    return _move_reason(d, word, _stand(d, rest))


def _plain_step(d: dict) -> bool:
    """No attack, mover, strike, flame, group move or drop is under way: the
    phase alone says what is asked (RULES.md, Turn sequence)."""
    units = d.get("units") or {}
    drop = d.get("drop") or {}
    strike = (d.get("air") or {}).get("strike")
    return (d["attack"] is None and d["mover"] is None and strike is None
            and units.get("flame") is None and units.get("group") is None
            and drop.get("step", "none") == "none" and d.get("building_roll") is None)


# RULES.md, Indirect artillery (Pre-registered target points)
def _recording(d: dict) -> bool:
    """Before turn 1, the side to move has pre-registered points still to record."""
    art = d.get("artillery") or {}
    mine = (art.get("prereg") or {}).get(d["to_move"], [])
    return d["turn"] == 1 and d["phase"] == "initiative" and any(p["at"] is None for p in mine)


def _prereg_reason(d: dict, word: str, rest: str, recording: bool) -> str | None:
    if not recording:
        return ("pre-registered points are recorded only before turn 1 begins; in the joint plot phase "
                "a battery calls one with `plot he pre<n>`")
    if word != "prereg":
        return ("before turn 1 each side records its pre-registered target points, hidden from the "
                "opponent: `prereg x,y` at a plot cell's aiming square (`moves` lists them)")
    # `prereg x,y` is notation only at a cell's aiming square (_notation_hints.py words the
    # rest), so a refused one names a cell the side has recorded already
    return f"{rest} is already one of your pre-registered points: record another cell"


# RULES.md, Turn sequence (2 Posture)
def _posture_reason(d: dict, s: dict | None) -> str | None:
    if s is None:
        return None
    lost = _lost(s)
    if lost:
        return lost
    if s["posture"] != "firing":
        return f"{s['id']} is already marked {s['posture']} this turn: a stand is marked once"
    return _cannot_move(s)


# RULES.md, Fire: who may fire, at what
def _fire_reason(d: dict, f: dict | None, t: dict | None) -> str | None:
    if f is None or t is None:
        return None
    for s in (f, t):
        lost = _lost(s)
        if lost:
            return lost
        if s["id"] in (d.get("units") or {}).get("offtable", []):
            return f"{s['id']} has not entered the table yet"
        if s["carried_by"]:
            return f"{s['id']} rides aboard {s['carried_by']}: cargo neither fires nor is fired at"
    firer_rules = (     # what the engine asks of the firer alone
        (f["fired"], "has already fired this turn: a stand fires once a turn"),
        (f["posture"] == "move", "is in move posture: it does not fire this turn"),
        (f["id"] in (d.get("units") or {}).get("mounted", []), "is mounted: cavalry fights dismounted"),
        (f["hidden"], f"is a hidden marker: it fires once shown (`show {f['id']}`)"),
    )
    for breaks, why in firer_rules:
        if breaks:
            return f"{f['id']} {why}"
    if t["hidden"]:
        return f"{t['id']} is an unspotted marker: it cannot be attacked until it is spotted or shows itself"
    broken = d["cards"][f["side"]]["broken"]
    if (f["low_ammo"] or broken) and t["id"] not in f["fired_at_by"]:
        why = "low on ammunition" if f["low_ammo"] else "of a broken formation"
        return f"{f['id']} is {why}: it fires only at stands that fired at it this turn"
    far = max(abs(f["at"][0] - t["at"][0]), abs(f["at"][1] - t["at"][1]))
    sight = d["conditions"]["sighting"]
    up = _level(d, f["at"]) - _level(d, t["at"])
    if far > sight + (PER_LEVEL * up if up > 0 else 0):
        if up > 0:
            return (f"{t['id']} is {far}\" from {f['id']}, beyond its sighting of {sight + PER_LEVEL * up}\" "
                    f"(this turn's {sight}\", +{PER_LEVEL}\" a level above it)")
        return f"{t['id']} is {far}\" from {f['id']}, beyond this turn's sighting of {sight}\""
    reach = _max_range(f)
    if far > reach:
        return f"{t['id']} is out of range of {f['id']} ({far}\", range {reach}\")"
    return None


def _level(d: dict, at: list) -> int:
    """The height level of square `at` from the table's terrain letters, the
    ground's changes applied (RULES.md, Weather and night: snow makes clear
    rough, frost makes streams rough). Squares built in play (bridges) keep
    their printed letter: the charts give streams and bridges no level."""
    table = d["table"]
    name = table["terrain"][table["rows"][at[1]][at[0]]]
    ground = d["conditions"]["ground"]
    if (ground in ("snow", "deep_snow") and name == "clear") or (ground == "frozen" and name == "stream"):
        name = "rough"
    return LEVEL.get(name, 0)


# RULES.md, Movement: movement attempts
def _move_reason(d: dict, word: str, s: dict | None) -> str | None:
    if s is None:
        return None
    lost = _lost(s)
    if lost:
        return lost
    if s["moved"]:
        return f"{s['id']} has already moved this turn"
    if s["posture"] == "firing":
        return f"{s['id']} is in firing posture: only stands marked move or firemove move"
    cannot = _cannot_move(s)
    if cannot:
        return cannot
    side = 0 if d["to_move"] == "german" else 1
    if word == "indep" and s["indep_tried"]:
        return f"{s['id']} has already tried its independent move this turn"
    if word == "order" and d["ghq"][side] is None:
        return "your GHQ is lost: no movement orders until it is replaced; try `indep <stand>`"
    if word == "order" and d["orders"][side] == 0:
        return "no movement orders are left this turn: try an independent move, `indep <stand>`"
    return None


# --- facts read from the state and the weapons data --------------------------------
def _stand(d: dict, sid: str) -> dict | None:
    return next((s for s in d["stands"] if s["id"] == sid), None)


def _cannot_move(s: dict) -> str | None:
    """Why the stand neither takes a moving posture nor moves: no MP, cargo, a
    hidden marker (RULES.md, Movement; Transport; Hidden set-up)."""
    if _weapon(s)["mp"] == 0:
        return f"{s['id']} has no movement points: it stays in firing posture"
    if s["carried_by"]:
        return f"{s['id']} rides aboard {s['carried_by']}: it goes where its carrier goes, or unloads"
    if s["hidden"]:
        return f"{s['id']} is a hidden marker: show it first (`show {s['id']}`)"
    return None


def _lost(s: dict) -> str | None:
    return None if s["alive"] else f"{s['id']} has been eliminated"


def _weapon(s: dict) -> dict:
    return WEAPON[s["type"]]


def _max_range(s: dict) -> int:
    """The longest range the stand fires at: an 'R' weapon fights with its
    infantry HQ's values outside its firing arc (RULES.md, Weapons extras)."""
    w = _weapon(s)
    fallback = WEAPON.get(w["restricted"]) if w.get("restricted") else None
    return max(w["range"], fallback["range"] if fallback else 0)
