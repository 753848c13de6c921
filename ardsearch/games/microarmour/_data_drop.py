"""Micro Armour scenario data: the `[[drop]]` table, a paratroop landing group
(RULES.md "Paratroops"; digest: "Paratrooper stands of a landing group must
determine 'if they arrive,' 'where' they land, and then 'how safely' they land").

    [[drop]]
    side = "german"
    stands = ["fja", "fjb", "fjc"]   # ids of that side's [[stand]] tables
    turn = 2                         # the drop turn (2..turns: its zone is plotted the turn before)
    jump = "hot"                     # "on_target" (1D8/2), "hot" (4D6, 'Hot Combat Jump'),
                                     # gliders: "glider" (2D8) or "glider_snafu" (2D8+4, 'SNAFU')
    modifier = 2                     # wind, AA and aircraft type, added to the 1D20 arrival roll

At most one landing group per scenario (design: the scenarios need no more, and
the state keeps one drop zone), and at most one HQ in it (design: the state keeps
one paratroop HQ delay; digest: "lost paratroop HQs take 1D8/2 turns to replace")."""
from __future__ import annotations

import os

JUMPS = ("on_target", "hot", "glider", "glider_snafu")     # JUMP_* in _drop.pxi


def _fail(path, key, expected, got):
    raise ValueError(f"{os.path.basename(path)}: {key}: expected {expected}, got {got!r}")


def scenario_drop(path, d, side_keys, per, weapons, turns):
    """The landing group: {side, stands (local indexes), turn, jump (index), modifier}, or None."""
    drops = d.get("drop", [])
    if not isinstance(drops, list) or not all(isinstance(x, dict) for x in drops):
        _fail(path, "drop", "an array of [[drop]] tables", drops)
    if not drops:
        return None
    if len(drops) > 1:
        _fail(path, "drop", "at most one [[drop]] landing group per scenario", len(drops))
    dr = drops[0]
    if dr.get("side") not in side_keys:
        _fail(path, "drop[0].side", " or ".join(side_keys), dr.get("side"))
    p = side_keys.index(dr["side"])
    ids = [s["id"] for s in per[p]]
    stands = dr.get("stands")
    if not isinstance(stands, list) or not stands or len(set(stands)) != len(stands):
        _fail(path, "drop[0].stands", "a list of distinct stand ids of that side", stands)
    local = []
    hqs = 0
    for i, sid in enumerate(stands):
        if sid not in ids:
            _fail(path, f"drop[0].stands[{i}]", f"a stand id of side {dr['side']} ({', '.join(ids)})", sid)
        st = per[p][ids.index(sid)]
        w = weapons[st["type"]] if st["type"] >= 0 else None
        if (w is None or w["role"] not in ("unit", "hq") or w["defence"] != "P" or st.get("carried_by") is not None
                or st.get("support") or st.get("hidden")):
            _fail(path, f"drop[0].stands[{i}]", "a paratroop stand: a personnel unit or HQ (not the GHQ, a dummy, "
                  "a support stand, cargo or a hidden marker)", sid)
        hqs += w["role"] == "hq"
        if hqs > 1:
            _fail(path, f"drop[0].stands[{i}]", "at most one HQ in the landing group (one paratroop HQ delay)", sid)
        local.append(ids.index(sid))
    turn = dr.get("turn")
    if isinstance(turn, bool) or not isinstance(turn, int) or not 2 <= turn <= turns:
        _fail(path, "drop[0].turn", f"the drop turn, 2..{turns} (the zone is plotted in the turn before)", turn)
    if dr.get("jump") not in JUMPS:
        _fail(path, "drop[0].jump", " or ".join(f'"{j}"' for j in JUMPS), dr.get("jump"))
    mod = dr.get("modifier", 0)
    if isinstance(mod, bool) or not isinstance(mod, int) or not 0 <= mod <= 19:
        _fail(path, "drop[0].modifier", "an integer 0..19 added to the 1D20 arrival roll", mod)
    return {"side": p, "stands": local, "turn": turn, "jump": JUMPS.index(dr["jump"]), "modifier": mod}
