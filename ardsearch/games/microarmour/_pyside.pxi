# Included by _engine.pyx: the slow, friendly Python side (GameSpec helpers
# and test helpers). Nothing here is called by the search.

PHASES = ("initiative", "lead", "posture", "fire", "orders", "movement", "recovery", "over", "artillery", "plot")
POSTURES = ("firing", "move", "firemove")
KINDS = ("standard", "opportunity", "covering", "assault_defence", "assault", "overrun_fire")
STEPS = ("none", "declare", "tofire", "crt")
MOVER_SUBS = ("none", "roll", "step", "opportunity", "stopcheck", "covering", "passcheck", "close",
              "retreat", "overrun_fire", "overrun_defender_roll", "overrun_hit", "overrun_roll",
              "overrun_counter", "artillery")
DIRS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
FLAG_NAMES = (("alive", F_ALIVE), ("suppressed", F_S), ("disorganized", F_D), ("fired", F_FIRED),
              ("moved", F_MOVED), ("indep_tried", F_INDEP), ("opportunity_suffered", F_OFSUF),
              ("wreck", F_WRECK))
OBS_PLANES = 10
DEPLOYMENTS = ("edges", "close")
OBSERVATION_SHAPE = (OBS_PLANES, MAP_H, MAP_W)


cdef int load_state(object raw, MaState *s) except -1:
    if not isinstance(raw, (bytes, bytearray, memoryview)):
        raise ValueError(f"a microarmour state is {sizeof(MaState)} raw bytes, got {type(raw).__name__}")
    b = bytes(raw)
    if len(b) != sizeof(MaState):
        raise ValueError(f"a microarmour state is {sizeof(MaState)} bytes, got {len(b)}")
    memcpy(s, <const char *>b, sizeof(MaState))
    return 0


cdef bytes state_bytes(const MaState *s):
    return PyBytes_FromStringAndSize(<const char *>s, sizeof(MaState))


def default_params():
    return {"turns": DEF_TURNS, "determination": 35,
            "german_cohesion": DEF_COH[0], "soviet_cohesion": DEF_COH[1],
            "german_quality": DEF_QUAL[0], "soviet_quality": DEF_QUAL[1], "deployment": "edges",
            "hot_shot": False, "low_ammo": False, "scenario": "introductory"}


def _check_int(values, key, lo, hi):
    v = values[key]
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ValueError(f"parameter {key}={v!r}: expected an integer from {lo} to {hi}")
    return v


def pack_params(values):
    """Validated parameter values by name -> the MaParams struct bytes."""
    cdef MaParams prm
    vals = default_params()
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
    if not isinstance(vals["hot_shot"], bool):
        raise ValueError(f"parameter hot_shot={vals['hot_shot']!r}: expected true or false")
    if not isinstance(vals["low_ammo"], bool):
        raise ValueError(f"parameter low_ammo={vals['low_ammo']!r}: expected true or false")
    prm.options = (1 if vals["hot_shot"] else 0) | (2 if vals["low_ammo"] else 0)
    if vals["scenario"] not in SCENARIO_NAMES:
        raise ValueError(f"parameter scenario={vals['scenario']!r}: expected one of {', '.join(SCENARIO_NAMES)}")
    prm.scn = SCENARIO_NAMES.index(vals["scenario"])
    return PyBytes_FromStringAndSize(<const char *>&prm, sizeof(MaParams))


def _slot_id(int g):
    return STAND_IDS[g] if 0 <= g < NSLOT and STAND_IDS[g] else None


def _mask_ids(int side, int mask):
    return [STAND_IDS[side * 16 + l] for l in range(16) if (mask >> l) & 1]


def to_dict(raw):
    """The structured state (schema in RULES.md) of raw state bytes."""
    cdef MaState s
    load_state(raw, &s)
    cp = ma_current_player(&s)
    to_move = {ARD_TERMINAL: "terminal", ARD_CHANCE: "chance"}.get(cp) or SIDE_KEYS[cp]
    stands = []
    for g in range(NSLOT):
        if s.st[g].type == NONE:
            continue
        d = {"id": STAND_IDS[g], "side": SIDE_KEYS[g >> 4], "type": WEAPONS[s.st[g].type % NTYPES]["key"],
             "at": [s.st[g].x, s.st[g].y], "facing": DIRS[s.st[g].facing % 8],
             "posture": POSTURES[s.st[g].posture % 3], "mp": s.st[g].mp, "steps": s.st[g].steps,
             "low_ammo": bool((s.low_ammo >> g) & 1),
             "fired_at_by": _mask_ids(1 - (g >> 4), s.fired_at_by[g])}
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
        mover = {"id": _slot_id(s.mover), "step": MOVER_SUBS[s.mv_sub % 15], "ordered": bool(s.mv_flags & 1),
                 "stopped": bool(s.mv_flags & 2), "pass_dir": DIRS[s.mv_dir % 8],
                 "close_target": _slot_id(s.ctarget) if s.ctarget != NONE else None,
                 "opportunity_firers": _mask_ids(1 - (s.mover >> 4) if s.mover < NSLOT else 0, s.of_firers)}
    cards = {}
    for p in range(2):
        hidden = s.viewer == 1 - p
        cards[SIDE_KEYS[p]] = {"drawn": s.ncards[p], "checked": s.ncards_ok[p], "pending": s.cards_pending[p],
                               "break_check_due": bool((s.brk_pending >> p) & 1),
                               "broken": bool((s.broken >> p) & 1),
                               "total": None if hidden else s.total[p],
                               "deck": None if hidden else [s.deck[p][v] for v in range(10)]}
    winner = None
    if s.phase == PH_OVER:
        winner = "draw" if s.winner == 2 else SIDE_KEYS[s.winner & 1]
    return {
        "game": "microarmour", "turns": s.turns, "determination": s.det,
        "cohesion": [s.coh[0], s.coh[1]], "quality": [s.quality[0], s.quality[1]],
        "viewer": None if s.viewer < 0 else SIDE_KEYS[s.viewer & 1],
        "turn": s.turn, "phase": PHASES[s.phase % 10], "to_move": to_move,
        "initiative": SIDE_KEYS[s.init_side & 1], "first": SIDE_KEYS[s.first & 1],
        "active": SIDE_KEYS[s.to_move & 1],
        "passed": [bool(s.passed & 1), bool(s.passed & 2)], "orders_rolled": s.ord_count,
        "orders": [s.orders[0], s.orders[1]],
        "attack": attack, "mover": mover,
        "recovery_next": _slot_id(s.rec_next) if s.rec_next != NONE else None,
        "replacement_due": [bool(s.rep_pending & 1), bool(s.rep_pending & 2)],
        "ghq": [_slot_id(s.ghq_slot[p]) if s.ghq_slot[p] != NONE else None for p in range(2)],
        "hot_shot": bool(s.options & 1), "low_ammo": bool(s.options & 2),
        "cards": cards, "winner": winner, "stands": stands,
        "table": _table_dict(SCENARIOS[s.scn]["title"] if s.scn < NSCN else SCENARIO["title"]), "types": _types_dict(d["type"] for d in stands),
        "scenario": SCENARIO_NAMES[s.scn] if s.scn < NSCN else str(s.scn),
        "artillery": _artillery_dict(&s),
    }


def _table_dict(title):
    """The scenario's table (static, public): derived for a board that draws
    it (the web board), ignored by from_dict. rows[y] is the row y (y 0 is the
    south edge), one terrain character per square, named in `terrain`."""
    terr = CHARTS["terrain"]
    sc = SCENARIO
    return {"title": title, "width": sc["width"], "height": sc["height"],
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
                    "defence": w["defence"], "range": w["range"], "mp": w["mp"], "role": w["role"]}
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
    if v not in STAND_IDS or not v:
        raise ValueError(f"{key}={v!r}: expected a stand id ({', '.join(i for i in STAND_IDS if i)})")
    return STAND_IDS.index(v)


def from_dict(d, params=None):
    """Raw state bytes from a structured state (the to_dict schema); ValueError
    naming the problem. Keys the dict leaves out come from a fresh game with
    `params`."""
    cdef MaState s
    cdef char msg[160]
    if not isinstance(d, dict):
        raise ValueError(f"a microarmour state dict is a dict, got {type(d).__name__}")
    if d.get("game", "microarmour") != "microarmour":
        raise ValueError(f"game={d.get('game')!r}: expected 'microarmour'")
    prm = default_params()
    prm.update(params or {})
    if "scenario" in d:
        prm["scenario"] = d["scenario"]
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
    s.options = ((1 if d.get("hot_shot", bool(s.options & 1)) else 0)
                 | (2 if d.get("low_ammo", bool(s.options & 2)) else 0))
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
        deck = c.get("deck", [FULL_DECK[v] for v in range(10)])
        if deck is None:
            deck = [0] * 10
        if not isinstance(deck, list) or len(deck) != 10:
            raise ValueError("cards.deck: expected 10 counts (values 1..10)")
        for v in range(10):
            s.deck[p][v] = _int_in(deck[v], 0, 16, f"cards.deck[{v}]")
        total = c.get("total", 0)
        s.total[p] = _int_in(total if total is not None else 0, 0, 400, "cards.total")
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
            if g in seen:
                raise ValueError(f"{key}.id={sd['id']!r}: listed twice")
            seen.add(g)
            if "type" in sd and sd["type"] != WEAPONS[START[g].type]["key"]:
                raise ValueError(f"{key}.type={sd['type']!r}: stand {sd['id']} is a "
                                 f"{WEAPONS[START[g].type]['key']} in this scenario")
            at = _get(sd, "at", key)
            if not isinstance(at, list) or len(at) != 2:
                raise ValueError(f"{key}.at: expected [x, y]")
            s.st[g].x = _int_in(at[0], 0, MAP_W - 1, key + ".at[0]")
            s.st[g].y = _int_in(at[1], 0, MAP_H - 1, key + ".at[1]")
            s.st[g].facing = _choice(sd.get("facing", "n"), DIRS, key + ".facing")
            s.st[g].posture = _choice(sd.get("posture", "firing"), POSTURES, key + ".posture")
            s.st[g].mp = _int_in(sd.get("mp", 0), 0, 60, key + ".mp")
            s.st[g].steps = _int_in(sd.get("steps", 0), 0, 255, key + ".steps")
            if sd.get("low_ammo", False):
                s.low_ammo |= <uint32_t>1 << g
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
        for g in range(NSLOT):
            if START[g].type != NONE and g not in seen:
                raise ValueError(f"stands: stand {STAND_IDS[g]!r} is missing (list every stand; "
                                 f"a lost one with alive=false)")
    _artillery_from_dict(d.get("artillery"), &s)
    if ma_validate(&s, msg, 160) != 0:
        raise ValueError("invalid microarmour state: " + msg.decode())
    return state_bytes(&s)


def observation_tensor(raw, int player):
    """Planes over the map (y, x) from `player`'s view: own stands, enemy stands,
    armoured, personnel, suppressed, disorganized, fired this turn, wrecks,
    blocking terrain, village; the view is taken here so nothing hidden leaks."""
    cdef MaState s
    load_state(raw, &s)
    ma_observe(&s, player, &s)
    out = np.zeros(OBSERVATION_SHAPE, dtype=np.float32)
    for g in range(NSLOT):
        if s.st[g].type == NONE or s.st[g].x >= MAP_W or s.st[g].y >= MAP_H:
            continue
        x, y = s.st[g].x, s.st[g].y
        if s.st[g].flags & F_WRECK:
            out[7, y, x] += 1
        if not alive(&s, g):
            continue
        out[0 if (g >> 4) == player else 1, y, x] = 1
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
    for y in range(MAP_H):
        for x in range(MAP_W):
            out[8, y, x] = T_BLOCK[TER[y][x]]
            out[9, y, x] = 1 if TER[y][x] == VILLAGE_T else 0
    return out


# ----------------------------------------------------------------- test helpers
def _has_los(raw, a, b):
    cdef MaState s
    load_state(raw, &s)
    return bool(has_los(&s, STAND_IDS.index(a), STAND_IDS.index(b)))


def _combat_diff(raw, a, b):
    cdef MaState s
    load_state(raw, &s)
    return combat_diff(&s, STAND_IDS.index(a), STAND_IDS.index(b), K_STANDARD)


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
