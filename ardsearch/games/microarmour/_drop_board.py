"""Micro Armour board text for the paratroop landing group (RULES.md "Paratroops",
"On the boards and in the evaluation"): the plotted drop zone's 3" block on the map
and one line for the group. Both read only the `drop` key of the dict being drawn,
so a view draws what its viewer may know: the opponent's zone is "hidden" there
until the public `drop x,y` event opens the drop turn."""
from __future__ import annotations

ZONE_CHAR = "#"      # a square of the plotted drop zone (no terrain, stand or marker uses it)


def zone_squares(d):
    """The squares of the drop zone's 3" block on the table ([] if none is known to this dict)."""
    dr = d.get("drop")
    if not dr or not isinstance(dr["zone"], list):
        return []
    cx, cy = dr["zone"]
    w, h = d["table"]["width"], d["table"]["height"]
    return [(x, y) for y in range(cy - 1, cy + 2) for x in range(cx - 1, cx + 2) if 0 <= x < w and 0 <= y < h]


def mark_drop_zone(d, grid, clear="."):
    """The zone's block as `#` on its clear squares (its centre always is: "plotted in clear
    terrain"); design: a woods or hill square of the block keeps its letter, as where a stand
    comes down decides how safely it lands. Drawn under everything else."""
    for x, y in zone_squares(d):
        if grid[y][x] == clear:
            grid[y][x] = ZONE_CHAR


def lost_ids(d):
    """Stands of the group out of the game: neither waiting nor alive (removed on the
    arrival roll, or landed and lost since: the view cannot tell which, both are lost)."""
    dr = d["drop"]
    alive = {s["id"] for s in d["stands"] if s["alive"]}
    return [g for g in dr["group"] if g not in dr["waiting"] and g not in alive]


def drop_lines(d) -> list:
    """`airborne (turn 2): fja fjb fjc` (the stands still in the aircraft), then `lost:` and
    the drop zone as far as the reader knows it (`hidden`: the opponent's plot)."""
    dr = d.get("drop")
    if not dr:
        return []
    lost = lost_ids(d)
    zone = dr["zone"]
    if not dr["waiting"] and not lost and zone is None:
        return []
    line = f"airborne (turn {dr['turn']}): " + (" ".join(dr["waiting"]) if dr["waiting"] else "none waiting")
    if lost:
        line += "; lost: " + " ".join(lost)
    if zone == "hidden":
        line += "; drop zone hidden"
    elif zone is not None:
        sq = zone_squares(d)
        line += (f"; drop zone {zone[0]},{zone[1]} (block {sq[0][0]},{sq[0][1]}-{sq[-1][0]},{sq[-1][1]}, "
                 f"{ZONE_CHAR} on the map)")
    return [line]
