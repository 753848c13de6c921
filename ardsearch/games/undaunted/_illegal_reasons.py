"""Why an Undaunted: Normandy move written in notation is not legal here: one
sentence for the refusal (GameSpec.illegal_reason, read by
ardsearch/_refusals.py), from the structured state alone. It names the
phase a move belongs to, a card not in hand, a suppressed token, and a
destination or target the card's action cannot reach (RULES.md, Round and
Playing a card); where it cannot be sure (a hand it cannot see), None."""
from __future__ import annotations

from ardsearch.games.undaunted._engine import tile_distance

UNITS = ("mortar", "mg", "sniper", "rifA", "rifB", "rifC", "scoutA", "scoutB", "scoutC")


def illegal_reason(d: dict, note: str) -> str | None:
    """One sentence saying why `note` is illegal in the structured state `d`, or None."""
    phase = d["phase"]
    if phase not in ("bid1", "bid2", "turn", "bolster"):
        return None     # chance or the end: no player's move is asked
    me = d["armies"][d["to_move"]]
    parts = note.split(":")
    if phase in ("bid1", "bid2"):
        if parts[0] != "bid":
            return "the round begins with the initiative: choose a card from your hand with `bid:<card>`"
        return _not_in_hand(me, parts[1])
    if parts[0] == "bid":
        return "initiative is chosen at the start of a round; now cards are played for actions, then `end`"
    if phase == "bolster":
        if parts[0] != "bolster":
            return "finish the Bolster first: take a card with `bolster:<card>` or stop with `bolster:stop`"
        return _pick_reason(d, me, parts[1])
    if parts[0] == "bolster":
        return "`bolster:<card>` takes a card during a Bolster: play a Bolster card first (`<card>:bolster`)"
    if phase != "turn" or note == "end":
        return None
    if d["turn_plays"] >= 60:
        return "a turn ends after 60 card plays: `end`"
    return _play_reason(d, me, parts)


def _play_reason(d: dict, me: dict, parts: list[str]) -> str | None:
    """A card played in a turn (RULES.md, Playing a card)."""
    card, action, args = parts[0], parts[1], parts[2] if len(parts) > 2 else ""
    missing = _not_in_hand(me, card)
    if missing:
        return missing
    if action == "shelter":
        return None
    unit = card if card in UNITS else None
    token = me["tokens"].get(unit) if unit else None
    suppressed = bool(token and token.get("suppressed"))
    if action == "rally":
        return None if suppressed else f"{unit} is not suppressed: `rally` flips a suppressed token ready"
    if suppressed:
        return f"{unit} is suppressed: its card can only rally it (`{unit}:rally`) or be sheltered (`{unit}:shelter`)"
    if action in ("move", "sneak"):
        return _step_reason(d, me, unit, _position(me, unit), args, sneak=action == "sneak")
    if action == "advance":
        unit, _, tile = args.partition(",")
        moved = me["tokens"].get(unit)
        if not moved or moved.get("tile") is None:
            return f"{unit} is not on the board: Advance moves a token on the board"
        if moved.get("suppressed"):
            return f"{unit} is suppressed: Advance moves a ready token"
        return _step_reason(d, me, unit, moved["tile"], tile, sneak=False)
    if action == "scout":
        tiles = args.split(",")
        here = _position(me, unit)
        for tile in tiles:
            if tile == here:
                return f"the Scout is on {here} already: each step of its path goes to an adjacent tile"
            if tile not in _adjacent(d, here):
                return f"{tile} is not next to {here}: a Scout's path goes from tile to adjacent tile"
            here = tile
        return None
    if action in ("attack", "suppress"):
        enemy = d["armies"][1 - d["to_move"]]["tokens"].get(args)
        if not enemy or enemy.get("tile") is None:
            return f"the enemy {args} token is not on the board: attack a token on the board"
        return None
    return _support_reason(d, me, unit, card, action, args)


def _support_reason(d: dict, me: dict, unit, card: str, action: str, args: str) -> str | None:
    enemy = d["armies"][1 - d["to_move"]]
    if action == "explode" and me["target"] is None:
        return "the Mortar has no Target marker: aim it first (`mortar:aim:<tile>`)"
    if action == "aim":
        far = tile_distance(d["tiles"], _position(me, "mortar"), args)
        if far < 3:
            return f"{args} is {far} tile{'s' if far != 1 else ''} from the Mortar: Aim needs a tile 3 or more away"
    if action == "control":
        tile = _position(me, unit)
        if tile in me["controlled"]:
            return f"your army already controls {tile}: Control a tile you do not hold"
        if any(t.get("tile") == tile for t in enemy["tokens"].values()):
            return f"an enemy token is on {tile}: no Control there while it is"
    if action == "conceal" and not enemy["supply"].get("fog"):
        return "the opponent's supply has no Fog of War card left to put in their discard pile"
    if action == "recon" and not me["hand"].get("fog"):
        return "Reconnoitre removes a Fog of War card from your hand, and you have none"
    if action == "command":
        left = sum(me["deck"].values()) + sum(me["discard"].values())
        if int(args) > left:
            return f"your deck and discard pile hold {left} card{'s' if left != 1 else ''}: draw at most that"
    if action == "inspire":
        group = card[-1]
        if not args.endswith(group) or args.startswith("sl_"):
            return f"{card} inspires only combat group {group}'s cards, not a Squad Leader"
        if not me["play"].get(args):
            return f"there is no {args} in your play area to take back to hand"
    if action == "bolster" and not _takeable(me, card):
        return f"your supply has no card that {card}'s Bolster can take"
    return None


def _pick_reason(d: dict, me: dict, card: str) -> str | None:
    """A card taken in a Bolster (RULES.md, Bolster X)."""
    if card == "stop":
        return None
    if not me["supply"].get(card):
        return f"your supply has no {card} to take"
    group = d["bolster"]["group"] if d["bolster"] else ""
    if group and not card.endswith(group):
        return f"this Bolster is a Squad Leader's: it takes only combat group {group}'s cards"
    return None


def _step_reason(d: dict, me: dict, unit: str, here: str, tile: str, sneak: bool) -> str | None:
    if tile not in _adjacent(d, here):
        return f"{tile} is not next to {unit}'s tile {here}: it moves one tile"
    if not sneak and tile not in me["scouted"] and tile not in me["controlled"]:
        return (f"{tile} is neither scouted nor controlled by your army: a unit moves only onto such a tile "
                "(scout it first; the Sniper's Sneak goes anywhere)")
    return None


def _not_in_hand(me: dict, card: str) -> str | None:
    if me.get("unknown_hand"):
        return None     # a view of the opponent's hand: it cannot be sure
    if me["hand"].get(card):
        return None
    held = ", ".join(c for c, n in me["hand"].items() if n) or "no cards"
    return f"you have no {card} in hand (your hand: {held})"


def _takeable(me: dict, card: str) -> bool:
    group = card[-1] if card.startswith("sl_") else ""
    return any(n and (not group or c.endswith(group)) for c, n in me["supply"].items())


# --- the board ----------------------------------------------------------------------
def _position(me: dict, unit: str) -> str:
    """Where a unit acts from: its token's tile, or its spawn tile if it is not on the board."""
    token = me["tokens"].get(unit)
    return token["tile"] if token and token.get("tile") else me["spawn"]


def _adjacent(d: dict, tile: str) -> list[str]:
    return next((t["adjacent"] for t in d["tiles"] if t["name"] == tile), [])
