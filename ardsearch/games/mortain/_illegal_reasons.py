"""Why a Stand at Mortain move written in notation is not legal here: one
sentence for the refusal (GameSpec.illegal_reason, read by
ardsearch/_refusals.py). It reads the structured state and the scenario's
static data (sides, terrain), names the rule that forbids the move, and says
nothing (None) where it cannot be sure; the core then lists the legal moves.
Rule sources are RULES.md's sections, named in each sentence's comment."""
from __future__ import annotations

import re

from ardsearch.games.mortain._engine import SCENARIO, hex_distance
from ardsearch.games.mortain.scenario import hex_index

SIDE_TITLE = {"german": "German", "us": "US"}
UNIT = {u.id: u for u in SCENARIO.units}
_ID = "|".join(re.escape(u) for u in sorted(UNIT, key=len, reverse=True))
_HEX = r"\d{4}"
SETUP = re.compile(rf"setup ({_ID}) ({_HEX})")
STACK = re.compile(rf"stack ({_HEX})")
STRIKE = re.compile(rf"(air|oba) ({_ID})")
AIRI = re.compile(rf"airi ({_HEX})")
MOVE = re.compile(rf"({_ID})(\+tiger)?-({_HEX}|exit)")
FIRE = re.compile(rf"({_ID})(?:\+({_ID}))?x({_ID})")


def illegal_reason(d: dict, note: str) -> str | None:
    """One sentence saying why `note` is illegal in the structured state `d`, or None."""
    phase = d["phase"]
    m = SETUP.fullmatch(note)
    if phase == "setup":
        if m is None:
            to_place = ", ".join(_to_place(d))
            return ("the US set-up comes first: place each US unit with `setup <unit> <hex>` "
                    f"(still to place: {to_place})")
        return _setup_reason(d, m.group(1), m.group(2))
    if m is not None:
        if d["params"]["setup"] == "historical":
            return ("this game's US units were set up from the scenario (setup=historical); "
                    "`setup` moves exist only with setup=free")
        return "the US set-up is over: it is played before the first card of Turn 1"
    if phase == "redraw":
        if note in ("redraw", "miss"):
            if note == "miss" or _deck_left(d):
                return None
            return "the deck is empty, so there is no card to redraw: answer `miss`"
        return "a face card was drawn for the attack: answer `redraw` or `miss` first"
    if phase != "act":
        return None
    if note in ("redraw", "miss"):
        return "`redraw` and `miss` answer a face card drawn in combat, and no attack is waiting for one"
    for pattern, why in ((STACK, _stack_reason), (STRIKE, _strike_reason), (AIRI, _strike_reason),
                         (MOVE, _move_reason), (FIRE, _fire_reason)):
        m = pattern.fullmatch(note)
        if m is not None:
            return why(d, m)
    return None


# --- the US set-up (RULES.md, Setup) ------------------------------------------------
def _to_place(d: dict) -> list[str]:
    return [u.id for u in SCENARIO.units if u.side == 1 and not u.reinforcement
            and d["units"][u.id]["at"] == "reserve"]


def _setup_reason(d: dict, unit: str, hex_: str) -> str | None:
    if UNIT[unit].reinforcement:
        return (f"{unit} is a reinforcement: it is not set up but enters a column "
                f"{SCENARIO.us_entry_column:02d} hex from Turn {SCENARIO.us_reinforcement_turn}")
    at = d["units"][unit]["at"]
    if at != "reserve":
        return f"{unit} is already placed (on {at}): place another unit ({', '.join(_to_place(d))})"
    if int(hex_[:2]) == SCENARIO.us_setup_forbidden_column:
        return (f"column {SCENARIO.us_setup_forbidden_column:02d} is off limits in the US set-up: "
                "place the unit in another column")
    here = _stackers(d, hex_, "us")
    if len(here) >= 2:
        return f"{hex_} already holds 2 US units ({', '.join(here)}): at most 2 a hex, choose another hex"
    return None


# --- face cards, Air and OBA (RULES.md, Turn and cards; US Air and OBA) -------------
def _face(d: dict) -> bool:
    return d["card"] is not None and d["card"][:-1] in ("J", "Q", "K")


def _stack_reason(d: dict, m) -> str | None:
    if not _face(d):
        return f"`stack <hex>` is for a face card (J, Q, K); {d['card']} is a number card: activate units one at a time"
    if not d["card_fresh"]:
        left = f" ({'+'.join(d['stack'])} still to act)" if d["stack"] else ""
        return "this face card's stack is already named" + left
    side = d["active"]
    if not any(d["units"][u]["at"] == m.group(1) for u in UNIT if _side(u) == side):
        return f"{m.group(1)} holds no {SIDE_TITLE[side]} unit: name a hex holding your units"
    return None


def _strike_reason(d: dict, m) -> str | None:
    if d["active"] != "us":
        return f"Air and OBA are US strikes, and the German player acts on this card ({d['card']})"
    if d["air_used"]:
        return "the US has already used Air or OBA this turn (one of the two, once a turn)"
    if not d["card_fresh"]:
        return f"Air and OBA come instead of activating ground units, and this card ({d['card']}) has been used already"
    air_card = d["card"][:-1] in ("A", "3", "5", "7", "9", "J")
    kind = m.group(0).split(" ")[0]
    if kind in ("air", "airi") and not air_card:
        return f"{d['card']} allows OBA, not Air (Air needs a red A, 3, 5, 7, 9 or J)"
    if kind == "oba" and air_card:
        return f"{d['card']} allows Air, not OBA (OBA needs a red 2, 4, 6, 8, 10, Q or K)"
    if kind == "airi":
        if not _stackers(d, m.group(1), "german", tiger=True):
            return f"{m.group(1)} holds no German unit: interdiction is aimed at a hex with German units"
        return None
    target = m.group(2)
    if _side(target) != "german":
        return f"{target} is a US unit: a strike attacks a German unit"
    if not _on_map(d, target):
        return f"{target} is not on the map ({d['units'][target]['at']}): a strike attacks a unit on the map"
    if not _deck_left(d):
        return "the deck is empty, and a strike draws a combat card"
    return None


# --- moves (RULES.md, Movement, entry and exit; Stacking and the Tiger) --------------
def _move_reason(d: dict, m) -> str | None:
    unit, with_tiger, dest = m.group(1), m.group(2), m.group(3)
    not_yours = _not_yours(d, unit)
    if not_yours:
        return not_yours
    at = d["units"][unit]["at"]
    if at in ("exited", "eliminated"):
        return f"{unit} has {'exited the map' if at == 'exited' else 'been eliminated'}: it acts no more"
    card_rule = _card_rule(d, unit, at)
    if card_rule:
        return card_rule
    if at == "reserve":
        return _entry_reason(d, unit, with_tiger, dest)
    if with_tiger and d["units"]["tiger"]["at"] != at:
        return f"the Tiger is not in {unit}'s hex ({at}): it rides free only with a unit in its hex"
    if dest == "exit":
        if _side(unit) != "german":
            return "only German units exit, off the west edge"
        if int(at[:2]) != SCENARIO.exit_column:
            return f"{unit} is in column {at[:2]}: a German unit exits from column {SCENARIO.exit_column:02d} only"
        return None
    if hex_distance(at, dest) != 1:
        return f"{dest} is {hex_distance(at, dest)} hexes from {unit} on {at}: a unit moves 1 hex an activation"
    return _room_reason(d, unit, dest)


def _entry_reason(d: dict, unit: str, with_tiger, dest: str) -> str | None:
    if with_tiger:
        return f"{unit} is not on the map yet: the Tiger rides free only with a unit in its hex on the map"
    if _side(unit) == "us" and d["turn"] < SCENARIO.us_reinforcement_turn:
        return f"{unit} enters from Turn {SCENARIO.us_reinforcement_turn} (this is Turn {d['turn']})"
    column = SCENARIO.german_entry_column if _side(unit) == "german" else SCENARIO.us_entry_column
    if dest == "exit" or int(dest[:2]) != column:
        edge = "east" if _side(unit) == "german" else "west"
        return f"{unit} is not on the map yet: it enters a hex of column {column:02d} (the {edge} edge)"
    return _room_reason(d, unit, dest)


def _room_reason(d: dict, unit: str, dest: str) -> str | None:
    side = _side(unit)
    enemy = "us" if side == "german" else "german"
    there = _stackers(d, dest, enemy, tiger=True)
    if there:
        return f"{dest} holds {SIDE_TITLE[enemy]} units ({', '.join(there)}): German and US units never share a hex"
    friends = _stackers(d, dest, side)
    if unit != "tiger" and len(friends) >= 2:
        return (f"{dest} already holds 2 {SIDE_TITLE[side]} units ({', '.join(friends)}): "
                "at most 2 a hex (the Tiger does not count)")
    return None


def _card_rule(d: dict, unit: str, at: str) -> str | None:
    """What the card in play forbids this unit (RULES.md, Turn and cards)."""
    if not _face(d):
        return None
    if d["card_fresh"]:
        return None      # one unit acts directly (a reserve unit enters), or `stack <hex>`
    if unit not in d["stack"]:
        left = "+".join(d["stack"]) or "none"
        return f"{unit} is not in this face card's stack (still to act: {left})"
    return None


# --- fire (RULES.md, Combat) ---------------------------------------------------------
def _fire_reason(d: dict, m) -> str | None:
    firers = [u for u in (m.group(1), m.group(2)) if u]
    target = m.group(3)
    for u in firers:
        not_yours = _not_yours(d, u)
        if not_yours:
            return not_yours
        if not _on_map(d, u):
            return f"{u} is not on the map ({d['units'][u]['at']}): only units on the map fire"
    if _side(target) == d["active"]:
        return f"{target} is your own unit: fire at an enemy unit"
    if not _on_map(d, target):
        return f"{target} is not on the map ({d['units'][target]['at']}): fire at a unit on the map"
    if not _deck_left(d):
        return "the deck is empty, and fire draws a combat card"
    if _face(d) and d["card_fresh"] and len(firers) == 2 and not _tiger_rides(d, firers):
        at = [d["units"][u]["at"] for u in firers]
        if at[0] == at[1]:
            return (f"a face card ({d['card']}) activates one unit or one stack: two units fire "
                    f"together as a stack, so name it first: `stack {at[0]}`")
        return (f"a face card ({d['card']}) activates one unit or one stack (the units of one hex): "
                f"{firers[0]} on {at[0]} and {firers[1]} on {at[1]} are not in one hex")
    if not _face(d) and len(firers) == 2 and d["activations_left"] < 2 and not _tiger_rides(d, firers):
        return f"two firers spend 2 activations and this card has {d['activations_left']} left"
    if _face(d) and not d["card_fresh"] and not _stack_may_fire(d, firers):
        return f"on this face card only the stack's units fire (still to act: {'+'.join(d['stack']) or 'none'})"
    where = d["units"][target]["at"]
    for u in firers:
        at = d["units"][u]["at"]
        reach = 3 if _hill(at) else 2
        if hex_distance(at, where) > reach:
            return (f"{target} on {where} is out of range of {u} on {at} "
                    f"({hex_distance(at, where)} hexes, range {reach}{' from a hill' if reach == 3 else ''})")
    if len(firers) == 1:
        # every other condition of a single unit's fire holds: what is left is the line of sight
        return (f"{u} on {at} has no line of sight to {where}: a village, city, hill or forest hex "
                "lies between (fire may enter such a hex, not pass through it)")
    return None


def _tiger_rides(d: dict, firers: list[str]) -> bool:
    """The Tiger joins a unit in its hex for free (RULES.md, Stacking and the Tiger)."""
    return len(firers) == 2 and "tiger" in firers and d["units"][firers[0]]["at"] == d["units"][firers[1]]["at"]


def _stack_may_fire(d: dict, firers: list[str]) -> bool:
    """Every firer is a unit of the named stack, or the Tiger joining one in its hex."""
    return all(u in d["stack"] or (u == "tiger" and _tiger_rides(d, firers)) for u in firers)


# --- facts read from the state and the scenario ------------------------------------
def _side(unit: str) -> str:
    return "german" if UNIT[unit].side == 0 else "us"


def _not_yours(d: dict, unit: str) -> str | None:
    if _side(unit) != d["active"]:
        return (f"{unit} is a {SIDE_TITLE[_side(unit)]} unit, and the {SIDE_TITLE[d['active']]} player "
                f"acts on this card ({d['card']})")
    return None


def _on_map(d: dict, unit: str) -> bool:
    return d["units"][unit]["at"] not in ("reserve", "exited", "eliminated")


def _stackers(d: dict, hex_: str, side: str, tiger: bool = False) -> list[str]:
    """The units of `side` in the hex, the Tiger only with tiger=True (it does not stack)."""
    return [u for u in UNIT if _side(u) == side and d["units"][u]["at"] == hex_
            and (tiger or not UNIT[u].tiger)]


def _deck_left(d: dict) -> int:
    return sum(d["deck"].values())


def _hill(hex_: str) -> bool:
    return SCENARIO.terrain_hill[SCENARIO.hex_terrain[hex_index(hex_)]]
