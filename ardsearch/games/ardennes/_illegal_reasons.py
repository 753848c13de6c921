"""Why a Clash of the Ardennes move written in notation is not legal here: one
sentence for the refusal (GameSpec.illegal_reason, read by
ardsearch/_refusals.py), from the structured state alone. Where the state
shows every other condition of a move met, the one left is named (a clash on
touching lines can only fail on strength); where nothing is sure, None."""
from __future__ import annotations

import re

NAME = {"M": "mine", "T": "tank", "P": "private", "C": "corporal", "S": "sergeant",
        "G": "general", "Y": "spy", "K": "command tank", "R": "mortar"}
LENGTH = {"M": 1, "T": 3, "P": 2, "C": 2, "S": 2, "G": 5, "Y": 1, "K": 3, "R": 2}
SPECIALS = "GYKR"
ONE_EACH = "SGYKR"      # a side has one sergeant and one of each special (RULES.md, Board and units)
ROADS = 7
PLACE = re.compile(r"([MTPCSGYKR])(\d)")
FRONT, RETREAT, ATTACK, MORTAR = (re.compile(rf"{c}(\d)") for c in "fxam")
FLANK = re.compile(r"k(\d):(\d)")


def illegal_reason(d: dict, note: str) -> str | None:
    """One sentence saying why `note` is illegal in the structured state `d`, or None."""
    if d["to_move"] not in ("allies", "germans"):
        return None
    me = d["to_move"]
    for pattern, why in ((PLACE, _place), (FRONT, _front), (RETREAT, _retreat), (ATTACK, _attack),
                         (FLANK, _flank), (MORTAR, _mortar)):
        m = pattern.fullmatch(note)
        if m is not None:
            return why(d, me, *m.groups())
    return None


# RULES.md, Turns and rounds: place 1 AP, only into enough free tiles; one special on the board
def _place(d: dict, me: str, letter: str, road: str) -> str | None:
    name = NAME[letter]
    if letter in SPECIALS and d["variant"] == "basic":
        return "the basic variant has no special units (general, spy, command tank, mortar): place M, T, P, C or S"
    if d["ap"] < 1:
        return "you have no action points left (a placement costs 1): attack if you can, or `pass`"
    if d["stock"][me][letter] == 0:
        every = f"your {name} is on the board" if letter in ONE_EACH else f"all your {name}s are on the board"
        return f"you have no {name} left in stock: {every}"
    if letter in SPECIALS:
        on_board = _specials_on_board(d, me)
        if on_board:
            return (f"you already have a special unit on the board ({on_board}): "
                    "at most one of general, spy, command tank and mortar at a time")
    free = _free_tiles(d, int(road))
    if free < LENGTH[letter]:
        return (f"road {road} has {free} free tile{'s' if free != 1 else ''} between the lines "
                f"and a {name} needs {LENGTH[letter]}: place it on a road with more room")
    return None


def _front(d: dict, me: str, road: str) -> str | None:
    if d["ap"] < 2:
        return f"bringing the rearmost unit to the front costs 2 action points and you have {d['ap']}"
    n = len(_road(d, road)[me])
    if n < 2:
        return f"you have {n} unit{'s' if n != 1 else ''} on road {road}: the front move needs at least two"
    return None


def _retreat(d: dict, me: str, road: str) -> str | None:
    line = _road(d, road)
    if not line[me]:
        return f"you have no unit on road {road} to retreat"
    if line["conquered"] == me:
        return f"road {road} is yours, conquered: a leading unit cannot retreat from a conquered road"
    blocked = bool(line[_enemy(me)]) and _free_tiles(d, int(road)) == 0
    cost = 3 if blocked else 2
    if d["ap"] < cost:
        why = " (3 when it touches the enemy's leading unit)" if blocked else ""
        return f"a retreat on road {road} costs {cost} action points{why} and you have {d['ap']}"
    return None


# RULES.md, Clash: the leading units touch and the attacker's is not weaker
def _attack(d: dict, me: str, road: str) -> str | None:
    line = _road(d, road)
    mine, theirs = line[me], line[_enemy(me)]
    if not mine:
        return f"you have no unit on road {road} to attack with"
    if not theirs:
        return f"the enemy has no unit on road {road} to attack"
    free = _free_tiles(d, int(road))
    if free > 0:
        return (f"the leading units on road {road} do not touch ({free} free tile{'s' if free != 1 else ''} "
                "between them): a clash needs them to touch")
    # touching lines: what is left is strength
    return (f"your leading {NAME[mine[-1]]} on road {road} is weaker than the enemy's leading "
            f"{NAME[theirs[-1]]}: a unit cannot attack a stronger one")


# RULES.md, Special attacks: the command tank flank and the mortar shot
def _flank(d: dict, me: str, road: str, target: str) -> str | None:
    special = _special_reason(d, me, "K", road)
    if special:
        return special
    if not 1 <= int(target) <= ROADS:
        return f"there is no road {target}: the command tank flanks road {int(road) - 1} or {int(road) + 1}"
    if _road(d, target)["conquered"] == _enemy(me):
        return f"road {target} is conquered by the enemy: nothing can be flanked into a conquered road"
    return (f"no enemy infantry unit covers the tile beside your command tank's arrows on road {target} "
            "(tanks, mines and the spy cannot be flanked)")


def _mortar(d: dict, me: str, road: str) -> str | None:
    special = _special_reason(d, me, "R", road)
    if special:
        return special
    target = int(road) - 2 if me == "allies" else int(road) + 2
    if not 1 <= target <= ROADS:
        return f"your mortar on road {road} aims two roads to its left, at road {target}, which does not exist"
    if _road(d, str(target))["conquered"] == _enemy(me):
        return f"your mortar aims at road {target}, which the enemy has conquered: no shot into a conquered road"
    return f"no enemy private covers the tile your mortar on road {road} aims at on road {target}"


def _special_reason(d: dict, me: str, letter: str, road: str) -> str | None:
    """Why the special unit `letter` cannot act from `road`: not in the game or not there."""
    if d["variant"] == "basic":
        return f"the basic variant has no {NAME[letter]}"
    if letter not in _road(d, road)[me]:
        where = next((r["road"] for r in d["roads"] if letter in r[me]), None)
        return (f"your {NAME[letter]} is not on road {road} "
                + (f"(it is on road {where})" if where else "(it is in stock)"))
    return None


# --- facts read from the state ----------------------------------------------------
def _road(d: dict, road) -> dict:
    return d["roads"][int(road) - 1]


def _enemy(me: str) -> str:
    return "germans" if me == "allies" else "allies"


def _free_tiles(d: dict, road: int) -> int:
    line = d["roads"][road - 1]
    used = sum(LENGTH[u] for u in line["allies"] + line["germans"])
    return d["road_length"] - used


def _specials_on_board(d: dict, me: str) -> str:
    for line in d["roads"]:
        for u in line[me]:
            if u in SPECIALS:
                return f"your {NAME[u]} on road {line['road']}"
    return ""
