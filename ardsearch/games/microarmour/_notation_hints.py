"""How to write, in this engine's notation, the three forms the rules contract
shows as one move but the engine takes as several (RULES.md, Notation: "The
contract's examples"), and what a plot or pre-registered point must aim at. Used
only to word the error for text that is not notation; the engine never reads
these forms."""
from __future__ import annotations

import re

from ardsearch.games.microarmour._engine import CHARTS

_ID = r"[A-Za-z][A-Za-z0-9_]*"
_DIR = r"(?:n|ne|e|se|s|sw|w|nw)"
_SQUARE = r"\d+,\d+"

_FIRE_LIST = re.compile(rf"fire\s+({_ID}(?:\s*,\s*{_ID})+)\s*>\s*({_ID})")
_MOVE_PATH = re.compile(rf"move\s+({_ID})((?:\s+{_SQUARE})+)")
_FACE = re.compile(rf"face\s+({_ID})\s+({_DIR})")
_POINT = re.compile(rf"(prereg|plot\s+(?:he|smoke))\s+({_SQUARE})")


def notation_hint(text: str) -> str | None:
    """A sentence saying how to write `text` as this engine's moves, or None
    when `text` is none of the contract's three several-move forms."""
    text = " ".join(text.split())
    m = _FIRE_LIST.fullmatch(text)
    if m:
        firers = [f.strip() for f in m.group(1).split(",")]
        moves = ", ".join(f"'fire {f}>{m.group(2)}'" for f in firers)
        return f"one firer a move: {moves}, then 'go' resolves the attack"
    m = _MOVE_PATH.fullmatch(text)
    if m:
        return (f"a stand moves an inch a move: 'order {m.group(1)}' (or 'indep {m.group(1)}'), "
                f"then 'step <dir>' for each inch and 'stop <dir>' to end the move facing dir")
    m = _FACE.fullmatch(text)
    if m:
        return (f"a stand turns as it ends its move: 'stop {m.group(2)}' while {m.group(1)} "
                f"is moving ('order {m.group(1)}' or 'indep {m.group(1)}' first)")
    m = _POINT.fullmatch(text)
    if m:
        g = CHARTS["artillery"]["plot_grid"]
        return (f"{m.group(2)} is not a plot cell's aiming square: a plot or pre-registered point aims at "
                f"the centre of a {g}-inch cell, x and y = {g // 2}, {g + g // 2}, {2 * g + g // 2}, ... "
                f"(or the table's last square in a cell its edge cuts)")
    return None
