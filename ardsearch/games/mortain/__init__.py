"""Stand at Mortain (Pocket Battle Games #1): US 30th Infantry Division against
the German Mortain counter-attack, August 1944. A card-driven game: every
activation and every combat is a draw from one deck, so the game is perfect
information with chance. Rules as played: RULES.md; the map, order of battle
and historical setup: scenarios/mortain.toml."""
from __future__ import annotations

from ardsearch._spec import GameSpec, Outcome, Param
from ardsearch.games.mortain import _engine
from ardsearch.games.mortain._illegal_reasons import illegal_reason
from ardsearch.games.mortain.scenario import ScenarioError  # noqa: F401  (re-exported)

SCENARIO = _engine.SCENARIO

PARAMS = (
    # The default is the boxed game's US setup phase (the contract: "The US setup is part of
    # the game"; R Set-Up); search benchmarks say setup=historical (RULES.md, Setup).
    Param("setup", str, "free",
          "US setup: 'free' (the game's own) lets the US player place the units one by one, in any "
          "order, before turn 1; 'historical' places them from the scenario file (the search "
          "benchmarks' setup)", choices=("free", "historical")),
    Param("strike_terrain", str, "errata",
          "Air/OBA and terrain: 'errata' ignores terrain; 'variant' applies it unless a German unit is "
          "adjacent to the target hex (the errata's variant rule)", choices=("errata", "variant")),
)


def render(raw: bytes) -> str:
    """The board as text: a header line, the hex map with occupants, and where every unit is."""
    d = _engine.to_dict(raw)
    units = SCENARIO.units
    by_hex: dict[str, list] = {}
    for u in units:
        where = d["units"][u.id]["at"]
        by_hex.setdefault(where, []).append(u)
    deck_left = sum(d["deck"].values())
    head = f"{SCENARIO.title}  turn {d['turn']}/{SCENARIO.turns}  exits {d['exits']}/{SCENARIO.exits_to_win}  " \
           f"deck {deck_left} cards"
    if d["winner"]:
        head += f"  -- {d['winner']} wins"
    elif d["phase"] == "setup":
        to_place = [u.id for u in units if u.side == 1 and not u.reinforcement and d["units"][u.id]["at"] == "reserve"]
        head += "  US setup: to place " + " ".join(to_place)
    elif d["card"]:
        side = "German" if d["active"] == "german" else "US"
        head += f"  card {d['card']} ({side}"
        if d["activations_left"]:
            head += f", {d['activations_left']} activations left"
        if d["stack"]:
            head += ", stack " + "+".join(d["stack"])
        head += ")"
    if d["attack"]:
        a = d["attack"]
        who = "+".join(a["firers"]) if a["kind"] == "ground" else a["kind"]
        head += f"  attack {who} x {a['target']}"
    if d["interdicted"]:
        head += f"  interdicted {d['interdicted']}"
    lines = [head, "", ("     " + "".join(f"{c:02d}   " for c in range(1, 14))).rstrip()]
    for r in range(1, 10):
        row = f" {r:02d}  "
        for c in range(1, 14):
            h = f"{c:02d}{r:02d}"
            letter = SCENARIO.terrain_letters[SCENARIO.hex_terrain[(c - 1) * 9 + r - 1]]
            here = by_hex.get(h, [])
            mark = ""
            if here:
                side = "G" if here[0].side == 0 else "U"
                n = sum(1 for u in here if not u.tiger)
                mark = side + (str(n) if n else "") + ("T" if any(u.tiger for u in here) else "")
            row += f"{letter}{mark:<4}"
        lines.append(row.rstrip())
    lines.append("")
    for side, name in ((0, "German"), (1, "US")):
        parts = []
        for u in units:
            if u.side == side:
                info = d["units"][u.id]
                parts.append(f"{u.id}:{info['at']}{'*' if info['reduced'] else ''}")
        lines.append(f"{name}: " + " ".join(parts))
    lines.append("(* = reduced; a cell is the terrain letter, then G/U with the number of units and T for the Tiger;"
                 " odd columns sit half a hex higher)")
    return "\n".join(lines)


SIDES = ("german", "us")
TITLES = ("Germans", "US")
# RULES.md, "How the game ends"
OUTCOME_REASONS = ("exit", "elimination", "turn-limit", "germans-spent")


def outcome(state) -> Outcome:
    """How a finished game ended, derived from the final position (RULES.md,
    "How the game ends")."""
    d = state.to_dict()
    need, turns = SCENARIO.exits_to_win, SCENARIO.turns
    at = {u.id: d["units"][u.id]["at"] for u in SCENARIO.units}
    us_left = sum(1 for u in SCENARIO.units if u.side == 1 and at[u.id] != "eliminated")
    german_left = sum(1 for u in SCENARIO.units if u.side == 0 and at[u.id] not in ("exited", "eliminated"))
    lost = sum(1 for u in SCENARIO.units if u.side == 0 and at[u.id] == "eliminated")
    exits, turn = d["exits"], d["turn"]
    plural = "s" if exits != 1 else ""
    if d["winner"] == "german":
        if us_left == 0:
            return Outcome.make(SPEC, 0, "elimination",
                                f"No US unit is left in the game (turn {turn}): the Germans win")
        return Outcome.make(SPEC, 0, "exit",
                            f"{exits} German unit{plural} exited off the west edge by turn {turn} "
                            f"({need} needed)")
    if german_left == 0:
        return Outcome.make(SPEC, 1, "germans-spent",
                            f"No German unit is left to act in turn {turn} ({exits} exited, {lost} "
                            f"eliminated): the Germans can no longer exit {need}")
    return Outcome.make(SPEC, 1, "turn-limit",
                        f"The US held to the end of turn {turns}: only {exits} German unit{plural} "
                        f"exited ({need} needed)")


def book(state) -> str | None:
    """The searching bots' US setup (RULES.md, Setup): the scenario's historical
    one. While every US unit placed so far stands on its historical hex, the
    next unplaced unit in the scenario's order goes to its own; once the setup
    has left the historical one (a person placed a unit elsewhere, or a hex is
    full), None, and the bot searches."""
    d = state.to_dict()
    if d["phase"] != "setup":
        return None
    us = [u for u in SCENARIO.units if u.side == 1]
    for index, hx in sorted(SCENARIO.historical.items()):
        at = d["units"][us[index].id]["at"]
        home = _engine.hex_name(hx)
        if at == "reserve":
            move = f"setup {us[index].id} {home}"
            return move if move in {state.action_to_string(a) for a in state.legal_actions()} else None
        if at != home:
            return None
    return None


SPEC = GameSpec.from_engine(
    _engine, name="mortain", title="Stand at Mortain", params=PARAMS, render=render,
    summary="Card-driven German breakthrough to the west edge against the US 30th Division (perfect information, card-deck chance).",
    player_names=SIDES, player_titles=TITLES, outcome=outcome, outcome_reasons=OUTCOME_REASONS,
    illegal_reason=illegal_reason, book=book,
)
