"""Clash of the Ardennes: two lines of units pushed along seven roads, tanks,
mines and infantry in a rock-paper-scissors of clashes, and a hidden Objective
card per player. Rules as played: RULES.md. The engine is the C-struct state
in _engine.pyx; this module adds the parameters, the board text and the
structured state for the generic core."""
from __future__ import annotations

import re

from ardsearch._spec import GameSpec, Outcome, Param
from ardsearch.games.ardennes import _engine
from ardsearch.games.ardennes._illegal_reasons import illegal_reason

PARAMS = (
    Param("variant", str, "standard",
          "standard: all units; basic: no special units (general, spy, command tank, mortar)",
          choices=("standard", "basic")),
    Param("road_length", int, 16, "tiles per road (the rulebook does not print it)", min=8, max=24),
    Param("max_rounds", int, 80,
          "the game ends after this many rounds; more conquered roads wins, else a draw", min=1, max=1000),
    Param("first", str, "random", "who starts: a coin flip (a chance node), or fixed",
          choices=("random", "allies", "germans")),
    Param("victory_cards", bool, False,
          "Victory cards on conquering a road; only false: the rulebook does not print their effects"),
)

CARD_ROADS = _engine.CARD_ROADS
_UNIT_LEN = dict(zip("MTPCSGYKR", (1, 3, 2, 2, 2, 5, 1, 3, 2)))
_SIDE_TITLE = {"allies": "Allies", "germans": "Germans"}


def _road_tiles(allies: list, germans: list, length: int) -> str:
    """One road as text, Allied block on the left: one character per tile
    (upper case Allied, lower case German, '.' free) with '|' wherever a unit
    ends, so two tanks side by side read 'T T T|T T T'."""
    owner = []  # per tile: (char, unit id)
    for i, u in enumerate(allies):
        owner += [(u, ("A", i))] * _UNIT_LEN[u]
    free = length - len(owner) - sum(_UNIT_LEN[u] for u in germans)
    owner += [(".", None)] * free
    for i, u in reversed(list(enumerate(germans))):
        owner += [(u.lower(), ("G", i))] * _UNIT_LEN[u]
    out = []
    for i, (ch, unit) in enumerate(owner):
        if i:
            prev = owner[i - 1][1]
            out.append(" " if prev == unit and (unit is not None or prev is None) else "|")
        out.append(ch)
    return "".join(out)


def render(raw: bytes) -> str:
    """The board text (RULES.md, Board text)."""
    d = _engine.to_dict(raw)
    L = d["road_length"]
    lines = []
    head = f"Clash of the Ardennes ({d['variant']}, {L} tiles)  round {d['round']}/{d['max_rounds']}  "
    if d["to_move"] == "terminal":
        head += "game over: " + ("draw" if d["winner"] == "draw" else f"{_SIDE_TITLE[d['winner']]} win")
    elif d["to_move"] == "chance":
        head += "setup (chance)"
    else:
        head += f"{_SIDE_TITLE[d['to_move']]} to move, {d['ap']} AP left"
    lines.append(head)
    lines.append(" " * 8 + "Allies" + " " * max(1, 2 * L - 14) + "Germans")
    for road in d["roads"]:
        mark = ""
        if road["conquered"]:
            mark = f"  conquered by {_SIDE_TITLE[road['conquered']]}"
        lines.append(f"road {road['road']} [{_road_tiles(road['allies'], road['germans'], L)}]{mark}")
    codes = _engine.objective_codes(raw)
    units = "MTPCSGYKR" if d["variant"] == "standard" else "MTPCS"
    for p, side in enumerate(("allies", "germans")):
        stock = " ".join(f"{u}{d['stock'][side][u]}" for u in units)
        card = d["objectives"][side]
        if card is not None:
            a, b = CARD_ROADS[card - 1]
            goal = f"objective card {card} (roads {a} and {b})"
        else:
            goal = "objective not drawn" if codes[p] == 0 else "objective hidden"
        lines.append(f"{_SIDE_TITLE[side]:8s} stock {stock}   {goal}")
    return "\n".join(lines)


SIDES = ("allies", "germans")
TITLES = ("Allies", "Germans")
# RULES.md, "How the game ends"
OUTCOME_REASONS = ("objective", "three-roads", "turn-limit")


_PLACEMENT = re.compile(r"^[MTPCSGYKR]([1-7])$")


def _list(nums) -> str:
    nums = [str(n) for n in nums]
    return nums[0] if len(nums) == 1 else ", ".join(nums[:-1]) + " and " + nums[-1]


def outcome(state) -> Outcome:
    """How a finished game ended, derived from the final position and the last
    move (RULES.md, "How the game ends"): the conquest win is checked when a
    placement conquers a road, so a winner with three roads, or with both roads
    of their objective card, won by conquest; anything else ended at the round
    limit."""
    d = state.to_dict()
    held = [[r["road"] for r in d["roads"] if r["conquered"] == side] for side in SIDES]
    last = f"round {d['round']}"
    if d["winner"] == "draw":
        return Outcome.make(SPEC, None, "turn-limit",
                            f"The round limit ended the game after {last} with {len(held[0])} "
                            f"conquered road{'s' if len(held[0]) != 1 else ''} each: a draw")
    w = SIDES.index(d["winner"])
    mine, theirs = held[w], held[1 - w]
    if len(mine) >= 3:
        return Outcome.make(SPEC, w, "three-roads",
                            f"{TITLES[w]} were first to conquer three roads "
                            f"(roads {_list(mine)}) in {last}")
    card = d["objectives"][SIDES[w]]
    if card is not None:
        cards = [card] if set(CARD_ROADS[card - 1]) <= set(mine) else []
        what = f"their objective card {card}"
    else:
        # Hidden in this view: a card the winner can hold whose roads they hold,
        # one of them conquered by the last move (the placement that ended the game).
        notes = state.history_strings()
        m = _PLACEMENT.match(notes[-1]) if notes else None
        road = int(m.group(1)) if m else None
        other = d["objectives"][SIDES[1 - w]]
        cards = [k for k in range(1, len(CARD_ROADS) + 1)
                 if k != other and set(CARD_ROADS[k - 1]) <= set(mine) and road in CARD_ROADS[k - 1]]
        what = f"objective card {cards[0]}" if len(cards) == 1 else "their (hidden) objective card"
    if cards:
        roads = CARD_ROADS[cards[0] - 1] if len(cards) == 1 else mine
        return Outcome.make(SPEC, w, "objective",
                            f"{TITLES[w]} hold both roads of {what} (roads {_list(roads)}) in {last}")
    return Outcome.make(SPEC, w, "turn-limit",
                        f"The round limit ended the game after {last}: {TITLES[w]} hold more "
                        f"conquered roads, {len(mine)} to {len(theirs)}")


def _summary() -> str:
    return ("Clash of the Ardennes: 7 roads, 25 units a side, 4 action points a turn; "
            "win your hidden objective's two roads or any three roads")


SPEC = GameSpec.from_engine(_engine, name="ardennes", title="Clash of the Ardennes",
                            params=PARAMS, render=render, summary=_summary(),
                            player_names=SIDES, player_titles=TITLES, outcome=outcome,
                            outcome_reasons=OUTCOME_REASONS, illegal_reason=illegal_reason)
