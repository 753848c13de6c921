# Included by _engine.pyx: the slow, friendly Python side (GameSpec helpers
# and test helpers). Nothing here is called by the search.

PHASES = ("initiative", "lead", "posture", "fire", "orders", "movement", "recovery", "over", "artillery", "plot")
POSTURES = ("firing", "move", "firemove")
KINDS = ("standard", "opportunity", "covering", "assault_defence", "assault", "overrun_fire")
STEPS = ("none", "declare", "tofire", "crt")
MOVER_SUBS = ("none", "roll", "step", "opportunity", "stopcheck", "covering", "passcheck", "close",
              "retreat", "overrun_fire", "overrun_defender_roll", "overrun_hit", "overrun_roll",
              "overrun_counter", "artillery", "minefield", "reveal", "load_roll", "artillery_retreat")
DIRS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
FLAG_NAMES = (("alive", F_ALIVE), ("suppressed", F_S), ("disorganized", F_D), ("fired", F_FIRED),
              ("moved", F_MOVED), ("indep_tried", F_INDEP), ("opportunity_suffered", F_OFSUF),
              ("wreck", F_WRECK))
OBS_PLANES = 10
# the optional rules: parameter name and options bit
OPTION_BITS = (("hot_shot", OPT_HOT_SHOT), ("low_ammo", OPT_LOW_AMMO), ("intuitive_action", OPT_INTUITIVE),
               ("conflicting_orders", OPT_CONFLICT))
END_CAUSES = (None, "last_turn", "rising_check", "both_broken")
DEPLOYMENTS = ("edges", "close")
# one shape for the game: the largest table among the scenarios (smaller ones pad with zeros)
OBSERVATION_SHAPE = (OBS_PLANES, max(s["height"] for s in SCENARIOS), max(s["width"] for s in SCENARIOS))
AIR_STEPS = ("none", "fasc", "choose", "aa", "attack", "deviate", "direction", "distance", "crt", "plot", "building")
# the ma-df parameters (RULES.md, Weapons extras and Buildings): name, df_options bit
DF_PARAMS = (("special_ap", DF_SPECIAL_AP), ("heat", DF_HEAT), ("big_gun_he", DF_BIG_GUN),
             ("depletion", DF_DEPLETION), ("support", DF_SUPPORT))
BUILDING_CLASSES = ("light", "medium", "heavy")


cdef int load_state(object raw, MaState *s) except -1:
    if not isinstance(raw, (bytes, bytearray, memoryview)):
        raise ValueError(f"a microarmour state is {sizeof(MaState)} raw bytes, got {type(raw).__name__}")
    b = bytes(raw)
    if len(b) != sizeof(MaState):
        raise ValueError(f"a microarmour state is {sizeof(MaState)} bytes, got {len(b)}")
    memcpy(s, <const char *>b, sizeof(MaState))
    if s.scn >= NSCN:
        raise ValueError(f"a microarmour state with scenario index {s.scn}: expected 0..{NSCN - 1}")
    return 0


cdef bytes state_bytes(const MaState *s):
    return PyBytes_FromStringAndSize(<const char *>s, sizeof(MaState))


def default_params(scenario=None):
    """Every parameter's default; `turns`, the cohesion levels and the GHQ
    qualities are the named scenario's (its file's keys of those names)."""
    k = SCENARIO_NAMES.index(scenario) if scenario in SCENARIO_NAMES else 0
    return {"scenario": SCENARIO_NAMES[k], "turns": SC_TURNS[k], "determination": 35,
            "german_cohesion": SC_COH[k][0], "soviet_cohesion": SC_COH[k][1],
            "german_quality": SC_QUAL[k][0], "soviet_quality": SC_QUAL[k][1], "deployment": "edges",
            "hot_shot": False, "low_ammo": False, "intuitive_action": False, "conflicting_orders": False,
            "special_ap": False, "heat": False, "big_gun_he": False, "depletion": True, "support": False,
            "tank_riders": False,
            "weather": "scenario", "ground": "scenario", "night": "scenario", "jump": "scenario"}


def _check_int(values, key, lo, hi):
    v = values[key]
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ValueError(f"parameter {key}={v!r}: expected an integer from {lo} to {hi}")
    return v


def pack_params(values):
    """Validated parameter values by name -> the MaParams struct bytes."""
    cdef MaParams prm
    vals = default_params((values or {}).get("scenario"))
    vals.update(values or {})
    prm.turns = _check_int(vals, "turns", 1, 50)
    prm.det = _check_int(vals, "determination", 1, 100)
    prm.coh[0] = _check_int(vals, "german_cohesion", 5, 20)
    prm.coh[1] = _check_int(vals, "soviet_cohesion", 5, 20)
    prm.quality[0] = _check_int(vals, "german_quality", -2, 3)
    prm.quality[1] = _check_int(vals, "soviet_quality", -2, 3)
    if vals["deployment"] not in DEPLOYMENTS:
        raise ValueError(f"parameter deployment={vals['deployment']!r}: expected edges or close")
    prm.deploy = DEPLOYMENTS.index(vals["deployment"])
    prm.options = 0
    for key, bit in OPTION_BITS:
        if not isinstance(vals[key], bool):
            raise ValueError(f"parameter {key}={vals[key]!r}: expected true or false")
        if vals[key]:
            prm.options |= bit
    if vals["scenario"] not in SCENARIO_NAMES:
        raise ValueError(f"parameter scenario={vals['scenario']!r}: expected one of {', '.join(SCENARIO_NAMES)} "
                         f"(the files in scenarios/)")
    prm.scn = SCENARIO_NAMES.index(vals["scenario"])
    prm.df_options = 0
    for name, bit in DF_PARAMS:
        if not isinstance(vals[name], bool):
            raise ValueError(f"parameter {name}={vals[name]!r}: expected true or false")
        if vals[name]:
            prm.df_options |= bit
    if prm.df_options & DF_SUPPORT and not SC_SUPPORT[prm.scn] and not SC_NBLDG[prm.scn]:
        raise ValueError(f"parameter support=true: the {vals['scenario']} scenario has no support stands "
                         f"or buildings (use scenario=introductory)")
    if not isinstance(vals["tank_riders"], bool):
        raise ValueError(f"parameter tank_riders={vals['tank_riders']!r}: expected true or false")
    prm.tr_options = TR_RIDERS if vals["tank_riders"] else 0
    _pack_weather(vals, &prm)            # _spotting_py.pxi
    _pack_jump(vals, &prm)               # _drop_view.pxi
    return PyBytes_FromStringAndSize(<const char *>&prm, sizeof(MaParams))


# The stand ids of the scenario being read or built (set by to_dict / from_dict
# before they name stands; the Python side runs under the GIL, one at a time).
_IDS = STAND_IDS


def _slot_id(int g):
    return _IDS[g] if 0 <= g < NSLOT and _IDS[g] else None


def _mask_ids(int side, int mask):
    return [_IDS[side * 16 + l] for l in range(16) if (mask >> l) & 1]


def to_dict(raw):
    """The structured state (schema in RULES.md) of raw state bytes."""
    global _IDS
    cdef MaState s
    load_state(raw, &s)
    if s.scn >= NSCN:
        raise ValueError(f"a microarmour state with scenario index {s.scn}: expected 0..{NSCN - 1}")
    _IDS = SC_IDS[s.scn]
    cp = ma_current_player(&s)
    to_move = {ARD_TERMINAL: "terminal", ARD_CHANCE: "chance"}.get(cp) or SIDE_KEYS[cp]
    stands = []
    for g in range(NSLOT):
        if s.st[g].type == NONE:
            continue
        d = {"id": _IDS[g], "side": SIDE_KEYS[g >> 4],
             "type": "?" if _masked(&s, g) else WEAPONS[s.st[g].type % NTYPES]["key"],
             **_stand_hidden_keys(&s, g),
             "at": [s.st[g].x, s.st[g].y], "facing": DIRS[s.st[g].facing % 8],
             "posture": POSTURES[s.st[g].posture % 3], "mp": s.st[g].mp, "steps": s.st[g].steps,
             "low_ammo": bool((s.low_ammo >> g) & 1), "hq": bool((s.hq_mask >> g) & 1),
             "fired_at_by": _mask_ids(1 - (g >> 4), s.fired_at_by[g]),
             "special_ap_used": bool(s.ammo[g] & AM_SPECIAL_USED), "depleted": bool(s.ammo[g] & AM_DEPLETED),
             "heat_fired": s.ammo[g] >> AM_HEAT_SHIFT,
             "carried_by": _IDS[s.carrier[g]] if s.carrier[g] < NSLOT else None,
             "loaded_this_turn": bool((s.tr_loaded >> g) & 1),
             "loading_onto": _IDS[s.tr_half[g]] if s.tr_half[g] < NSLOT else None}
        for name, bit in FLAG_NAMES:
            d[name] = bool(s.st[g].flags & bit)
        stands.append(d)
    attack = None
    if s.atk_step != S_NONE:
        attack = {"side": SIDE_KEYS[s.atk_side & 1], "kind": KINDS[s.atk_kind % 6],
                  "target": _slot_id(s.atk_target), "firers": _mask_ids(s.atk_side & 1, s.atk_firers),
                  "step": STEPS[s.atk_step % 4], "current": s.atk_cur, "hit": s.atk_hit,
                  "hot_shot": bool(s.hot)}
    mover = None
    if s.mover != NONE:
        mover = {"id": _slot_id(s.mover), "step": MOVER_SUBS[s.mv_sub % len(MOVER_SUBS)], "ordered": bool(s.mv_flags & 1),
                 "stopped": bool(s.mv_flags & 2), "pass_dir": DIRS[s.mv_dir % 8],
                 "close_target": _slot_id(s.ctarget) if s.ctarget != NONE else None,
                 "opportunity_firers": _mask_ids(1 - (s.mover >> 4) if s.mover < NSLOT else 0, s.of_firers)}
    cards = {}
    for p in range(2):
        hidden = s.viewer == 1 - p
        cards[SIDE_KEYS[p]] = {"drawn": s.ncards[p], "checked": s.ncards_ok[p], "pending": s.cards_pending[p],
                               "break_check_due": bool((s.brk_pending >> p) & 1),
                               "broken": bool((s.broken >> p) & 1),
                               "broken_turn": s.brk_turn[p] if s.brk_turn[p] else None,
                               "total": None if hidden else s.total[p],
                               "deck": None if hidden else [s.deck[p][v] for v in range(10)]}
    winner = None
    if s.phase == PH_OVER:
        winner = "draw" if s.winner == 2 else SIDE_KEYS[s.winner & 1]
    return {
        "game": "microarmour", "scenario": SCENARIO_NAMES[s.scn], "turns": s.turns, "determination": s.det,
        "cohesion": [s.coh[0], s.coh[1]], "quality": [s.quality[0], s.quality[1]],
        "viewer": None if s.viewer < 0 else SIDE_KEYS[s.viewer & 1],
        "turn": s.turn, "phase": PHASES[s.phase % 10], "to_move": to_move,
        "initiative": SIDE_KEYS[s.init_side & 1], "first": SIDE_KEYS[s.first & 1],
        "active": SIDE_KEYS[s.to_move & 1],
        "passed": [bool(s.passed & 1), bool(s.passed & 2)], "orders_rolled": s.ord_count,
        "orders": [s.orders[0], s.orders[1]],
        "attack": attack, "mover": mover, "tank_riders": bool(s.tr_options & TR_RIDERS),
        "loading_into": _slot_id(s.tr_to) if s.tr_to != NONE else None,
        "recovery_next": _slot_id(s.rec_next) if s.rec_next != NONE else None,
        "replacement_due": [bool(s.rep_pending & 1), bool(s.rep_pending & 2)],
        "ghq": [_slot_id(s.ghq_slot[p]) if s.ghq_slot[p] != NONE else None for p in range(2)],
        **{key: bool(s.options & bit) for key, bit in OPTION_BITS},
        "ghq_quality": [s.ghq_qual[0], s.ghq_qual[1]], "hq_lost": [s.hq_lost[0], s.hq_lost[1]],
        "rising_checks": [s.rise_n[0], s.rise_n[1]],
        "command_due": {name: [bool((s.cmd_pending >> p) & bit) for p in range(2)] for name, bit in
                        (("ghq_quality", CMD_QUAL), ("hq_replacement", CMD_HQREP), ("appoint", CMD_APPOINT),
                         ("rising_check", CMD_RISE))},
        "end_cause": END_CAUSES[s.end_cause % 4],
        **{name: bool(s.df_options & bit) for name, bit in DF_PARAMS},
        "buildings": _buildings_dict(&s),
        "building_roll": (None if s.bld_area == NONE or s.bld_area >= SC_NBLDG[s.scn] else
                          {"at": [SC_BX[s.scn][s.bld_area], SC_BY[s.scn][s.bld_area]], "firepower": s.bld_fp,
                           "modifier": s.bld_mod}),
        **_obstacles_dict(&s),               # _obstacles_view.pxi
        "cards": cards, "winner": winner, "stands": stands, "air": _air_dict(&s),
        **({"drop": _drop_dict(&s)} if DROP_TURN[s.scn] else {}),      # _drop_view.pxi: only with a landing group
        "artillery": _artillery_dict(&s),
        "units": _units_dict(&s),
        "conditions": _weather_dict(&s),
        "table": _table_dict(s.scn), "types": _types_dict(d["type"] for d in stands if d["type"] != "?"),
    }


FLAME_STEPS = (None, "roll", "retreat")


cdef object _units_dict(const MaState *s):
    """Special stand types (_stand_types.pxi): the cavalry on horseback, the flame check due."""
    flame = None
    if s.fl_step != FL_NONE:
        flame = {"target": _slot_id(s.fl_target), "by": _slot_id(s.fl_src), "step": FLAME_STEPS[s.fl_step % 3]}
    return {"mounted": [_IDS[g] for g in range(NSLOT) if (s.mounted >> g) & 1], "flame": flame,
            "offtable": [_IDS[g] for g in range(NSLOT) if (s.offtable >> g) & 1], "group": _group_dict(s)}


GROUP_STEPS = (None, "roll", "moving")


def _group_names(int k):
    """Group ids by index side * NGRP + j in scenario k (None: no such group)."""
    out = [None] * (2 * NGRP)
    for p in range(2):
        for j, grp in enumerate(SCENARIOS[k]["groups"][p]):
            out[p * NGRP + j] = grp["id"]
    return out


cdef object _group_dict(const MaState *s):
    """The movement group attempt in progress (_groups.pxi), or None."""
    if s.grp_step == GS_NONE or s.grp_cur >= 2 * NGRP:
        return None
    p = s.grp_cur // NGRP
    return {"id": _group_names(s.scn)[s.grp_cur], "step": GROUP_STEPS[s.grp_step % 3],
            "ordered": bool(s.grp_flags & 1), "attempting": _mask_ids(p, s.grp_elig),
            "to_move": _mask_ids(p, s.grp_queue)}


cdef int _units_from(d, MaState *s) except -1:
    """The "units" key of to_dict back into the state (absent: the scenario's start)."""
    u = d.get("units")
    if u is None:
        return 0
    if not isinstance(u, dict):
        raise ValueError("units: expected a dict with mounted and flame")
    s.mounted = 0
    for i in u.get("mounted", []):
        g = _stand_slot(i, "units.mounted")
        if not TY_MOUNT_MP[SC_START[s.scn][g].type]:
            raise ValueError(f"units.mounted: {i!r} has no horses (its type has no mounted_mp)")
        s.mounted |= <uint32_t>1 << g
    fl = u.get("flame")
    if fl is None:
        s.fl_step, s.fl_target, s.fl_src = FL_NONE, NONE, NONE
    else:
        s.fl_target = _stand_slot(_get(fl, "target", "units.flame"), "units.flame.target")
        s.fl_src = _stand_slot(_get(fl, "by", "units.flame"), "units.flame.by")
        s.fl_step = _choice(fl.get("step", "roll"), FLAME_STEPS[1:], "units.flame.step") + 1
    s.offtable = 0
    for i in u.get("offtable", []):
        g = _stand_slot(i, "units.offtable")
        if not (SC_ENTRY[s.scn] >> g) & 1:
            raise ValueError(f"units.offtable: {i!r} is not a stand entering from its table edge in this scenario")
        s.offtable |= <uint32_t>1 << g
    grp = u.get("group")
    s.grp_cur, s.grp_step, s.grp_flags, s.grp_elig, s.grp_queue = NONE, GS_NONE, 0, 0, 0
    if grp is not None:
        names = _group_names(s.scn)
        gid = _get(grp, "id", "units.group")
        if gid not in names:
            raise ValueError(f"units.group.id={gid!r}: expected a movement group of this scenario")
        s.grp_cur = names.index(gid)
        p = s.grp_cur // NGRP
        s.grp_step = _choice(grp.get("step", "roll"), GROUP_STEPS[1:], "units.group.step") + 1
        s.grp_flags = 1 if grp.get("ordered", True) else 0
        for key in ("attempting", "to_move"):
            m = 0
            for i in grp.get(key, []):
                g = _stand_slot(i, f"units.group.{key}")
                if g >> 4 != p:
                    raise ValueError(f"units.group.{key}: {i!r} is not a stand of the group's side")
                m |= 1 << (g & 15)
            if key == "attempting":
                s.grp_elig = m
            else:
                s.grp_queue = m
    return 0


cdef list _buildings_dict(const MaState *s):
    """Every building area (a building square): class, 'E' results taken, turns
    left burning, rubble."""
    return [{"at": [SC_BX[s.scn][a], SC_BY[s.scn][a]], "class": BUILDING_CLASSES[building_class(s, a)], "hits": s.bld_hits[a],
             "burning": s.bld_fire[a], "rubble": bool(is_rubble(s, a))} for a in range(SC_NBLDG[s.scn])]


cdef int _buildings_from(d, MaState *s) except -1:
    """The building keys of a structured state (after the options are set)."""
    blds = d.get("buildings")
    if blds is not None:
        if not isinstance(blds, list):
            raise ValueError("buildings: expected a list of building areas")
        where = {(SC_BX[s.scn][a], SC_BY[s.scn][a]): a for a in range(SC_NBLDG[s.scn])}
        for i, b in enumerate(blds):
            at = _get(b, "at", f"buildings[{i}]")
            if not isinstance(at, list) or tuple(at) not in where:
                raise ValueError(f"buildings[{i}].at={at!r}: expected a building square of the map")
            a = where[tuple(at)]
            s.bld_hits[a] = _int_in(b.get("hits", 0), 0, BC_RUBBLE[building_class(s, a)], f"buildings[{i}].hits")
            s.bld_fire[a] = _int_in(b.get("burning", 0), 0, BURN_TURNS, f"buildings[{i}].burning")
    roll = d.get("building_roll")
    if roll is not None:
        at = _get(roll, "at", "building_roll")
        if not isinstance(at, list) or len(at) != 2 or building_at(s, at[0] % WMAX, at[1] % HMAX) < 0:
            raise ValueError(f"building_roll.at={at!r}: expected a building square of the map")
        s.bld_area = building_at(s, at[0], at[1])
        s.bld_fp = _int_in(roll.get("firepower", 0), 0, 30, "building_roll.firepower")
        s.bld_mod = _int_in(roll.get("modifier", 0), -20, 20, "building_roll.modifier")
    return 0


cdef object _plot_dict(const MaState *s, int a):
    """An aircraft's bomb plot: None (no plot decision), "hidden" (the
    opponent's, in a view), or {"turn", "at": [x, y] or None (decided: none)}."""
    if s.plot_turn[a] == 0:
        return None
    if s.plot_x[a] == PLOT_HIDDEN:
        return {"turn": s.plot_turn[a], "at": "hidden"}
    if s.plot_x[a] == PLOT_NONE:
        return {"turn": s.plot_turn[a], "at": None}
    return {"turn": s.plot_turn[a], "at": [s.plot_x[a], s.plot_y[a]]}


cdef object _air_dict(const MaState *s):
    """Aircraft (RULES.md "Airstrikes"): each with its data, its ordnance left
    and its plot; the strike or plot in progress."""
    planes = []
    sc = SCENARIOS[s.scn]
    for a, pl in enumerate(sc["aircraft"]):
        planes.append({"id": pl["id"], "side": SIDE_KEYS[pl["side"]], "name": pl["name"],
                       "arrive": pl["arrive"], "turns": pl["turns"], "strafe": pl["strafe"], "bomb": pl["bomb"],
                       "fasc": pl["fasc"], "present": bool(air_present(s, a, s.turn)),
                       "ordnance": s.ordnance[a], "fasc_ok": bool((s.air_fasc >> a) & 1),
                       "plot": _plot_dict(s, a)})
    strike = None
    if s.air_step != AS_NONE:
        strike = {"step": AIR_STEPS[s.air_step % 11], "aircraft": AIR_IDS[s.scn][s.air_cur % max(1, AIR_N[s.scn])]
                  if AIR_N[s.scn] else None,
                  "kind": "bomb" if s.air_kind else "strafe", "at": [s.air_x, s.air_y], "aa": s.air_mod,
                  "direction": DIRS[s.air_dir % 8], "square": s.air_sq}
    return {"aircraft": planes, "strike": strike}


def _table_dict(int k=0):
    """The scenario's table (static, public): derived for a board that draws
    it (the web board), ignored by from_dict. rows[y] is the row y (y 0 is the
    south edge), one terrain character per square, named in `terrain`."""
    terr = CHARTS["terrain"]
    sc = SCENARIOS[k]
    return {"title": sc["title"], "width": sc["width"], "height": sc["height"],
            "rows": ["".join(terr[sc["grid"][y][x]]["char"] for x in range(sc["width"]))
                     for y in range(sc["height"])],
            "terrain": {t["char"]: t["name"] for t in terr}}


def _types_dict(keys):
    """The weapons data of the stand types in play (static, public; derived,
    ignored by from_dict): what a stand's label shows."""
    out = {}
    for key in keys:
        w = next(w for w in WEAPONS if w["key"] == key)
        out[key] = {"name": w["name"], "ap": w["ap"], "he": w["he"], "dv": w["dv"],
                    "defence": w["defence"], "range": w["range"], "mp": w["mp"], "role": w["role"],
                    "special": [c for c in ("cavalry", "boat", "flame") if w[c]]
                    + (["terrain_cost"] if w["terrain_cost"] else []),
                    "mounted_mp": w["mounted_mp"]}
    return out


def _get(d, key, where="state"):
    if key not in d:
        raise ValueError(f"{where}: missing key {key!r}")
    return d[key]


def _int_in(v, lo, hi, key):
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ValueError(f"{key}={v!r}: expected an integer from {lo} to {hi}")
    return v


def _choice(v, choices, key):
    if v not in choices:
        raise ValueError(f"{key}={v!r}: expected one of {', '.join(map(str, choices))}")
    return choices.index(v)


def _side(v, key):
    return _choice(v, SIDE_KEYS, key)


def _stand_slot(v, key):
    if v not in _IDS or not v:
        raise ValueError(f"{key}={v!r}: expected a stand id ({', '.join(i for i in _IDS if i)})")
    return _IDS.index(v)


def from_dict(d, params=None):
    """Raw state bytes from a structured state (the to_dict schema); ValueError
    naming the problem. Keys the dict leaves out come from a fresh game with
    `params`."""
    global _IDS
    cdef MaState s
    cdef char msg[160]
    if not isinstance(d, dict):
        raise ValueError(f"a microarmour state dict is a dict, got {type(d).__name__}")
    if d.get("game", "microarmour") != "microarmour":
        raise ValueError(f"game={d.get('game')!r}: expected 'microarmour'")
    prm = default_params(d.get("scenario", (params or {}).get("scenario")))
    prm.update(params or {})
    if "scenario" in d:
        prm["scenario"] = d["scenario"]
    if prm["scenario"] not in SCENARIO_NAMES:
        raise ValueError(f"scenario={prm['scenario']!r}: expected one of {', '.join(SCENARIO_NAMES)}")
    _IDS = SC_IDS[SCENARIO_NAMES.index(prm["scenario"])]
    raw = pack_params(prm)
    ma_init(&s, <const char *>raw, 0)
    s.turns = _int_in(d.get("turns", s.turns), 1, 50, "turns")
    s.det = _int_in(d.get("determination", s.det), 1, 100, "determination")
    coh = d.get("cohesion", [s.coh[0], s.coh[1]])
    qual = d.get("quality", [s.quality[0], s.quality[1]])
    if not isinstance(coh, list) or len(coh) != 2 or not isinstance(qual, list) or len(qual) != 2:
        raise ValueError("cohesion and quality: expected two-element lists [german, soviet]")
    for p in range(2):
        s.coh[p] = _int_in(coh[p], 5, 20, f"cohesion[{p}]")
        s.quality[p] = _int_in(qual[p], -2, 3, f"quality[{p}]")
    viewer = d.get("viewer")
    s.viewer = -1 if viewer is None else _side(viewer, "viewer")
    s.turn = _int_in(d.get("turn", 1), 1, s.turns, "turn")
    s.phase = _choice(d.get("phase", "initiative"), PHASES, "phase")
    s.init_side = _side(d.get("initiative", SIDE_KEYS[0]), "initiative")
    s.first = _side(d.get("first", SIDE_KEYS[0]), "first")
    s.to_move = _side(d.get("active", SIDE_KEYS[0]), "active")
    passed = d.get("passed", [False, False])
    if not isinstance(passed, list) or len(passed) != 2:
        raise ValueError("passed: expected [bool, bool]")
    s.passed = (1 if passed[0] else 0) | (2 if passed[1] else 0)
    s.ord_count = _int_in(d.get("orders_rolled", 0), 0, 2, "orders_rolled")
    orders = d.get("orders", [0, 0])
    for p in range(2):
        s.orders[p] = _int_in(orders[p], 0, ORD_MAX, f"orders[{p}]")
    atk = d.get("attack")
    if atk is not None:
        s.atk_side = _side(_get(atk, "side", "attack"), "attack.side")
        s.atk_kind = _choice(_get(atk, "kind", "attack"), KINDS, "attack.kind")
        s.atk_target = _stand_slot(_get(atk, "target", "attack"), "attack.target")
        s.atk_firers = 0
        for f in _get(atk, "firers", "attack"):
            g = _stand_slot(f, "attack.firers")
            if g >> 4 != s.atk_side:
                raise ValueError(f"attack.firers: {f!r} is not a stand of {SIDE_KEYS[s.atk_side]}")
            s.atk_firers |= 1 << (g & 15)
        s.atk_step = _choice(atk.get("step", "declare"), STEPS, "attack.step")
        s.atk_cur = _int_in(atk.get("current", 0), 0, 16, "attack.current")
        s.atk_hit = _int_in(int(atk.get("hit", 0)), 0, 2, "attack.hit")
        s.hot = 1 if atk.get("hot_shot", False) else 0
    mv = d.get("mover")
    if mv is not None:
        s.mover = _stand_slot(_get(mv, "id", "mover"), "mover.id")
        s.mv_sub = _choice(mv.get("step", "step"), MOVER_SUBS, "mover.step")
        s.mv_flags = (1 if mv.get("ordered", True) else 0) | (2 if mv.get("stopped", False) else 0)
        s.mv_dir = _choice(mv.get("pass_dir", "n"), DIRS, "mover.pass_dir")
        ct = mv.get("close_target")
        s.ctarget = NONE if ct is None else _stand_slot(ct, "mover.close_target")
        s.of_firers = 0
        for f in mv.get("opportunity_firers", []):
            g = _stand_slot(f, "mover.opportunity_firers")
            s.of_firers |= 1 << (g & 15)
    rep = d.get("replacement_due", [False, False])
    s.rep_pending = (1 if rep[0] else 0) | (2 if rep[1] else 0)
    if "ghq" in d:
        for p in range(2):
            s.ghq_slot[p] = NONE if d["ghq"][p] is None else _stand_slot(d["ghq"][p], f"ghq[{p}]")
    opts = 0
    for key, bit in OPTION_BITS:
        if d.get(key, bool(s.options & bit)):
            opts |= bit
    s.options = opts
    gq = d.get("ghq_quality", [s.ghq_qual[0], s.ghq_qual[1]])
    lost = d.get("hq_lost", [0, 0])
    rise = d.get("rising_checks", [0, 0])
    for name, v in (("ghq_quality", gq), ("hq_lost", lost), ("rising_checks", rise)):
        if not isinstance(v, list) or len(v) != 2:
            raise ValueError(f"{name}: expected a two-element list [german, soviet]")
    for p in range(2):
        s.ghq_qual[p] = _int_in(gq[p], -2, 3, f"ghq_quality[{p}]")
        s.hq_lost[p] = _int_in(lost[p], 0, 16, f"hq_lost[{p}]")
        s.rise_n[p] = _int_in(rise[p], 0, 50, f"rising_checks[{p}]")
    due = d.get("command_due") or {}
    s.cmd_pending = 0
    for name, bit in (("ghq_quality", CMD_QUAL), ("hq_replacement", CMD_HQREP), ("appoint", CMD_APPOINT),
                      ("rising_check", CMD_RISE)):
        v = due.get(name, [False, False])
        if not isinstance(v, list) or len(v) != 2:
            raise ValueError(f"command_due.{name}: expected [bool, bool]")
        for p in range(2):
            if v[p]:
                s.cmd_pending |= bit << p
    s.end_cause = _choice(d.get("end_cause"), END_CAUSES, "end_cause")
    for name, bit in DF_PARAMS:
        if d.get(name, bool(s.df_options & bit)):
            s.df_options |= bit
        else:
            s.df_options &= ~bit
    support_slots(&s)
    _buildings_from(d, &s)
    _obstacles_from(d, &s)                   # _obstacles_view.pxi
    rn = d.get("recovery_next")
    s.rec_next = NONE if rn is None else _stand_slot(rn, "recovery_next")
    cards = d.get("cards", {})
    for p in range(2):
        c = cards.get(SIDE_KEYS[p], {})
        s.ncards[p] = _int_in(c.get("drawn", 0), 0, 52, "cards.drawn")
        s.ncards_ok[p] = _int_in(c.get("checked", 0), 0, 52, "cards.checked")
        s.cards_pending[p] = _int_in(c.get("pending", 0), 0, 40, "cards.pending")
        if c.get("break_check_due", False):
            s.brk_pending |= 1 << p
        if c.get("broken", False):
            s.broken |= 1 << p
            bt = c.get("broken_turn")
            s.brk_turn[p] = _int_in(s.turn if bt is None else bt, 1, s.turn, "cards.broken_turn")
        deck = c.get("deck", [FULL_DECK[v] for v in range(10)])
        if deck is None:
            deck = [0] * 10
        if not isinstance(deck, list) or len(deck) != 10:
            raise ValueError("cards.deck: expected 10 counts (values 1..10)")
        for v in range(10):
            s.deck[p][v] = _int_in(deck[v], 0, 16, f"cards.deck[{v}]")
        total = c.get("total", 0)
        s.total[p] = _int_in(total if total is not None else 0, 0, 400, "cards.total")
    if d.get("air") is not None:
        _air_from_dict(&s, d["air"])
    _drop_from(d, &s)                        # _drop_view.pxi
    _units_from(d, &s)
    winner = d.get("winner")
    if winner is None:
        s.winner = -1
    elif winner == "draw":
        s.winner = 2
    else:
        s.winner = _side(winner, "winner")
    if "stands" in d:
        seen = set()
        for i, sd in enumerate(_get(d, "stands")):
            key = f"stands[{i}]"
            g = _stand_slot(_get(sd, "id", key), key + ".id")
            if s.st[g].type == NONE:
                raise ValueError(f"{key}.id={sd['id']!r}: a support stand, in play only with support=true")
            if g in seen:
                raise ValueError(f"{key}.id={sd['id']!r}: listed twice")
            seen.add(g)
            if "type" in sd and not _stand_type_ok(&s, g, sd, key) and sd["type"] != WEAPONS[SC_START[s.scn][g].type]["key"]:
                raise ValueError(f"{key}.type={sd['type']!r}: stand {sd['id']} is a "
                                 f"{WEAPONS[SC_START[s.scn][g].type]['key']} in this scenario")
            at = _get(sd, "at", key)
            if not isinstance(at, list) or len(at) != 2:
                raise ValueError(f"{key}.at: expected [x, y]")
            s.st[g].x = _int_in(at[0], 0, SC_W[s.scn] - 1, key + ".at[0]")
            s.st[g].y = _int_in(at[1], 0, SC_H[s.scn] - 1, key + ".at[1]")
            s.st[g].facing = _choice(sd.get("facing", "n"), DIRS, key + ".facing")
            s.st[g].posture = _choice(sd.get("posture", "firing"), POSTURES, key + ".posture")
            s.st[g].mp = _int_in(sd.get("mp", 0), 0, 60, key + ".mp")
            s.st[g].steps = _int_in(sd.get("steps", 0), 0, 255, key + ".steps")
            if sd.get("low_ammo", False):
                s.low_ammo |= <uint32_t>1 << g
            s.ammo[g] = ((AM_SPECIAL_USED if sd.get("special_ap_used", False) else 0)
                         | (AM_DEPLETED if sd.get("depleted", False) else 0)
                         | (_int_in(sd.get("heat_fired", 0), 0, 15, key + ".heat_fired") << AM_HEAT_SHIFT))
            for fid in sd.get("fired_at_by", []):
                h = _stand_slot(fid, key + ".fired_at_by")
                if h >> 4 == g >> 4:
                    raise ValueError(f"{key}.fired_at_by: {fid!r} is a friend")
                s.fired_at_by[g] |= 1 << (h & 15)
            flags = 0
            for name, bit in FLAG_NAMES:
                if sd.get(name, name == "alive"):
                    flags |= bit
            s.st[g].flags = flags
            # an HQ post is held by a live stand (a hand-built position that loses its HQ leaves no post)
            s.hq_mask &= ~(<uint32_t>1 << g)
            if sd.get("hq", TY_ROLE[SC_START[s.scn][g].type] == 1) and flags & F_ALIVE and s.ghq_slot[g >> 4] != g:
                s.hq_mask |= <uint32_t>1 << g
            cb = sd.get("carried_by")
            s.carrier[g] = NONE if cb is None else _stand_slot(cb, key + ".carried_by")
            if sd.get("loaded_this_turn", False):
                s.tr_loaded |= <uint32_t>1 << g
            else:
                s.tr_loaded &= ~(<uint32_t>1 << g)
            lo = sd.get("loading_onto")          # a two-turn load (RULES.md, Transport)
            s.tr_half[g] = NONE if lo is None else _stand_slot(lo, key + ".loading_onto")
        s.tr_held = 0
        for g in range(NSLOT):
            if s.tr_half[g] < NSLOT:
                s.tr_held |= <uint32_t>1 << s.tr_half[g]
        for g in range(NSLOT):
            if s.st[g].type != NONE and g not in seen and not (SC_HIDMASK[s.scn] >> g) & 1:
                raise ValueError(f"stands: stand {_IDS[g]!r} is missing (list every stand; "
                                 f"a lost one with alive=false)")
        _hidden_from(d, &s, seen)        # _spotting_py.pxi
    s.tr_options = TR_RIDERS if d.get("tank_riders", bool(s.tr_options & TR_RIDERS)) else 0
    lt = d.get("loading_into")
    s.tr_to = NONE if lt is None else _stand_slot(lt, "loading_into")
    _weather_from(d, &s)
    if "end_cause" not in d and s.phase == PH_OVER:
        # a finished state written before end_cause existed: the end it can only have had
        s.end_cause = END_BOTH_BROKEN if s.broken == 3 else END_LAST_TURN
    _artillery_from_dict(d.get("artillery"), &s)
    if ma_validate(&s, msg, 160) != 0:
        raise ValueError("invalid microarmour state: " + msg.decode())
    return state_bytes(&s)


cdef int _air_from_dict(MaState *s, air) except -1:
    """The "air" key of to_dict back into the state (aircraft by id)."""
    if not isinstance(air, dict):
        raise ValueError("air: expected a dict with aircraft and strike")
    ids = AIR_IDS[s.scn]
    seen = set()
    for i, pl in enumerate(air.get("aircraft", [])):
        key = f"air.aircraft[{i}]"
        if not isinstance(pl, dict) or pl.get("id") not in ids:
            raise ValueError(f"{key}.id={pl.get('id') if isinstance(pl, dict) else pl!r}: expected an aircraft id "
                             f"of this scenario ({', '.join(ids) or 'none'})")
        a = ids.index(pl["id"])
        if a in seen:
            raise ValueError(f"{key}.id={pl['id']!r}: listed twice")
        seen.add(a)
        s.ordnance[a] = _int_in(pl.get("ordnance", s.ordnance[a]), 0, AIR_ORD[s.scn][a], key + ".ordnance")
        if pl.get("fasc_ok", False):
            s.air_fasc |= 1 << a
        else:
            s.air_fasc &= ~(1 << a)
        plot = pl.get("plot")
        if plot is None:
            s.plot_turn[a] = 0
            s.plot_x[a] = s.plot_y[a] = PLOT_NONE
        else:
            if not isinstance(plot, dict):
                raise ValueError(f"{key}.plot: expected null or {{turn, at}}")
            s.plot_turn[a] = _int_in(plot.get("turn"), 1, 50, key + ".plot.turn")
            at = plot.get("at")
            if at is None:
                s.plot_x[a] = s.plot_y[a] = PLOT_NONE
            elif at == "hidden":
                s.plot_x[a] = s.plot_y[a] = PLOT_HIDDEN
            elif isinstance(at, list) and len(at) == 2:
                s.plot_x[a] = _int_in(at[0], 0, SC_W[s.scn] - 1, key + ".plot.at[0]")
                s.plot_y[a] = _int_in(at[1], 0, SC_H[s.scn] - 1, key + ".plot.at[1]")
            else:
                raise ValueError(f"{key}.plot.at={at!r}: expected [x, y], null (decided: none) or \"hidden\"")
    st = air.get("strike")
    if st is not None:
        if not isinstance(st, dict):
            raise ValueError("air.strike: expected null or a dict")
        s.air_step = _choice(st.get("step", "choose"), AIR_STEPS[1:], "air.strike.step") + 1
        if st.get("aircraft") not in ids:
            raise ValueError(f"air.strike.aircraft={st.get('aircraft')!r}: expected one of {', '.join(ids) or 'none'}")
        s.air_cur = ids.index(st["aircraft"])
        s.air_kind = _choice(st.get("kind", "strafe"), ("strafe", "bomb"), "air.strike.kind")
        at = st.get("at", [0, 0])
        if not isinstance(at, list) or len(at) != 2:
            raise ValueError("air.strike.at: expected [x, y]")
        s.air_x = _int_in(at[0], 0, SC_W[s.scn] - 1, "air.strike.at[0]")
        s.air_y = _int_in(at[1], 0, SC_H[s.scn] - 1, "air.strike.at[1]")
        s.air_mod = _int_in(st.get("aa", 0), 0, 12, "air.strike.aa")
        s.air_dir = _choice(st.get("direction", "n"), DIRS, "air.strike.direction")
        s.air_sq = _int_in(st.get("square", 0), 0, 24, "air.strike.square")
    return 0


def observation_tensor(raw, int player):
    """Planes over the map (y, x) from `player`'s view: own stands, enemy stands,
    armoured, personnel, suppressed, disorganized, fired this turn, wrecks,
    blocking terrain, village; the view is taken here so nothing hidden leaks."""
    cdef MaState s
    load_state(raw, &s)
    ma_observe(&s, player, &s)
    out = np.zeros(OBSERVATION_SHAPE, dtype=np.float32)
    for g in range(NSLOT):
        if s.st[g].type == NONE or s.st[g].x >= SC_W[s.scn] or s.st[g].y >= SC_H[s.scn]:
            continue
        x, y = s.st[g].x, s.st[g].y
        if s.st[g].flags & F_WRECK:
            out[7, y, x] += 1
        if not alive(&s, g):
            continue
        out[0 if (g >> 4) == player else 1, y, x] = 1
        if _masked(&s, g):
            continue                         # an unspotted marker: where it is, nothing more
        if TY_DEF[s.st[g].type] == D_ARMOUR:
            out[2, y, x] = 1
        if TY_DEF[s.st[g].type] == D_PERSONNEL:
            out[3, y, x] = 1
        if s.st[g].flags & F_S:
            out[4, y, x] = 1
        if s.st[g].flags & F_D:
            out[5, y, x] = 1
        if s.st[g].flags & F_FIRED:
            out[6, y, x] = 1
    for y in range(SC_H[s.scn]):
        for x in range(SC_W[s.scn]):
            out[8, y, x] = T_BLOCK[SC_TER[s.scn][y][x]]
            out[9, y, x] = 1 if SC_TER[s.scn][y][x] == VILLAGE_T else 0
    return out


# ----------------------------------------------------------------- test helpers
def _has_los(raw, a, b):
    cdef MaState s
    load_state(raw, &s)
    return bool(has_los(&s, SC_IDS[s.scn].index(a), SC_IDS[s.scn].index(b)))


def _combat_diff(raw, a, b, assault=False):
    """combat_diff() (_fire.pxi) of stand a against stand b: a standard attack or a close assault."""
    cdef MaState s
    load_state(raw, &s)
    return combat_diff(&s, SC_IDS[s.scn].index(a), SC_IDS[s.scn].index(b), K_ASSAULT if assault else K_STANDARD)


def _side_broken(raw, int p):
    """side_broken() (_command.pxi) of a state: p's formation has broken."""
    cdef MaState s
    load_state(raw, &s)
    return bool(side_broken(&s, p))


def _break_units(raw, int p):
    cdef MaState s
    load_state(raw, &s)
    return bp_units(&s, p)


# ----------------------------------------------------------------- benchmarks
cdef long playout(MaState *st, ard_rng *rng, ard_action *buf) noexcept nogil:
    cdef long n = 0
    cdef int k
    while ma_current_player(st) != ARD_TERMINAL:
        if ma_current_player(st) == ARD_CHANCE:
            ma_apply(st, ma_sample_chance(st, rng))
        else:
            k = ma_legal_actions(st, buf)
            ma_apply(st, buf[ard_rng_below(rng, k)])
        n += 1
    return n


def _bench_playouts(int games, uint64_t seed, params=None):
    """Random playouts in C (actions, seconds)."""
    import time
    cdef MaState st
    cdef ard_rng rng
    cdef ard_action buf[MAX_LEGAL]
    cdef long total = 0
    cdef int i
    raw = pack_params(params or {})
    cdef const char *prm = raw
    ard_rng_seed(&rng, seed)
    t0 = time.perf_counter()
    with nogil:
        for i in range(games):
            ma_init(&st, prm, 0)
            total += playout(&st, &rng, buf)
    return total, time.perf_counter() - t0
