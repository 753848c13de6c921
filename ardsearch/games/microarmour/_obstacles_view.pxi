# Micro Armour engine: improved positions, wire, ditches and minefield markers in
# the structured state (to_dict / from_dict, RULES.md "State schema"). A view
# shows the opponent's unrevealed markers with kind "unknown".
# Included by _engine.pyx after _pyside.pxi (the slow, friendly Python side).
IP_CLASS_NAMES = ("light", "medium", "heavy")
MF_KIND_NAMES = ("dummy", "hasty", "standard", "concentrated")


cdef dict _obstacles_dict(const MaState *s):
    k = s.scn
    mfs = []
    for i in range(SC_NMF[k]):
        p = SC_MFSIDE[k][i]
        open_ = (s.mf_shown | s.mf_gone) >> i & 1
        hidden = s.viewer >= 0 and s.viewer != p and not open_
        mfs.append({"at": [SC_MFX[k][i], SC_MFY[k][i]], "side": SIDE_KEYS[p],
                    "kind": "unknown" if hidden else MF_KIND_NAMES[mf_kind_of(s, i)],
                    "revealed": bool(open_), "removed": bool(s.mf_gone >> i & 1), "breach": s.mf_breach[i]})
    return {
        "positions": [{"at": [SC_IPX[k][a], SC_IPY[k][a]], "side": SIDE_KEYS[SC_IPSIDE[k][a]],
                       "class": IP_CLASS_NAMES[SC_IPCLASS[k][a]], "facing": DIRS[SC_IPFACE[k][a]],
                       "hits": s.ip_state[a] & ~IP_GONE, "destroyed": bool(s.ip_state[a] & IP_GONE)}
                      for a in range(SC_NIP[k])],
        "wire": [[x, y] for y in range(SC_H[k]) for x in range(SC_W[k]) if SC_OBST[k][y][x] & OB_WIRE],
        "ditches": [[x, y] for y in range(SC_H[k]) for x in range(SC_W[k]) if SC_OBST[k][y][x] & OB_DITCH],
        "minefields": mfs,
        "minefield_attack": None if s.mf_cur == NONE or s.mf_cur >= SC_NMF[k] else [SC_MFX[k][s.mf_cur],
                                                                                    SC_MFY[k][s.mf_cur]],
        "engineering_roll": _slot_id(s.mf_bnext) if s.mf_bnext != NONE else None,
        "wrecks_cleared": [_IDS[g] for g in range(NSLOT) if (s.wreck_clear >> g) & 1],
        "terrain_changes": _engineering_list(s),           # bridges and filled ditches (_engineering_view.pxi)
        "position_roll": (None if s.bld_area == NONE or s.bld_area < IP_ROLL
                          or s.bld_area - IP_ROLL >= SC_NIP[k] else
                          {"at": [SC_IPX[k][s.bld_area - IP_ROLL], SC_IPY[k][s.bld_area - IP_ROLL]],
                           "firepower": s.bld_fp, "modifier": s.bld_mod}),
    }


cdef int _obstacles_from(d, MaState *s) except -1:
    """The obstacle keys of a structured state back into s (after init: the
    scenario's record sheet is the default)."""
    k = s.scn
    pos = d.get("positions")
    if pos is not None:
        where = {(SC_IPX[k][a], SC_IPY[k][a]): a for a in range(SC_NIP[k])}
        if not isinstance(pos, list):
            raise ValueError("positions: expected a list of improved positions")
        for i, p in enumerate(pos):
            at = _get(p, "at", f"positions[{i}]")
            if not isinstance(at, list) or len(at) != 2 or tuple(at) not in where:
                raise ValueError(f"positions[{i}].at={at!r}: expected an improved position's square")
            a = where[tuple(at)]
            s.ip_state[a] = (_int_in(p.get("hits", 0), 0, 7, f"positions[{i}].hits")
                             | (IP_GONE if p.get("destroyed", False) else 0))
    mfs = d.get("minefields")
    if mfs is not None:
        where = {(SC_MFX[k][i], SC_MFY[k][i]): i for i in range(SC_NMF[k])}
        if not isinstance(mfs, list):
            raise ValueError("minefields: expected a list of minefield markers")
        s.mf_shown = 0
        s.mf_gone = 0
        for j, m in enumerate(mfs):
            at = _get(m, "at", f"minefields[{j}]")
            if not isinstance(at, list) or len(at) != 2 or tuple(at) not in where:
                raise ValueError(f"minefields[{j}].at={at!r}: expected a minefield marker's square")
            i = where[tuple(at)]
            kind = m.get("kind", MF_KIND_NAMES[mf_kind_of(s, i)])
            kv = 0 if kind == "unknown" else _choice(kind, MF_KIND_NAMES, f"minefields[{j}].kind")
            s.mf_kind = (s.mf_kind & ~(<uint32_t>3 << (2 * i))) | (<uint32_t>kv << (2 * i))
            if m.get("removed", False):
                s.mf_gone |= 1 << i
            elif m.get("revealed", False):
                s.mf_shown |= 1 << i
            s.mf_breach[i] = _int_in(m.get("breach", 0), 0, 8, f"minefields[{j}].breach")
    at = d.get("minefield_attack")
    s.mf_cur = NONE
    if at is not None:
        where = {(SC_MFX[k][i], SC_MFY[k][i]): i for i in range(SC_NMF[k])}
        if not isinstance(at, list) or len(at) != 2 or tuple(at) not in where:
            raise ValueError(f"minefield_attack={at!r}: expected a minefield marker's square")
        s.mf_cur = where[tuple(at)]
    s.wreck_clear = 0
    for i, wid in enumerate(d.get("wrecks_cleared", [])):
        s.wreck_clear |= <uint32_t>1 << _stand_slot(wid, f"wrecks_cleared[{i}]")
    roll = d.get("position_roll")
    if roll is not None:
        where = {(SC_IPX[k][a], SC_IPY[k][a]): a for a in range(SC_NIP[k])}
        at = _get(roll, "at", "position_roll")
        if not isinstance(at, list) or len(at) != 2 or tuple(at) not in where:
            raise ValueError(f"position_roll.at={at!r}: expected an improved position's square")
        if s.bld_area != NONE:
            raise ValueError("position_roll: a building_roll is due too; give one roll at a time")
        s.bld_area = IP_ROLL + where[tuple(at)]
        s.bld_fp = _int_in(roll.get("firepower", 0), 0, 30, "position_roll.firepower")
        s.bld_mod = _int_in(roll.get("modifier", 0), -20, 20, "position_roll.modifier")
    _engineering_from(d, s)              # terrain_changes (_engineering_view.pxi)
    br = d.get("engineering_roll")
    s.mf_bnext = NONE if br is None else _stand_slot(br, "engineering_roll")
    return 0
