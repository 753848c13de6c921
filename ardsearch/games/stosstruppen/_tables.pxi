# Static tables filled once at import from units.toml and scenarios/*.toml
# (checked by data.py). They never change during a game: a state refers to
# its scenario by index, so states stay small and self-contained per build.

cdef bint los_blocked(const Scn *sc, int a, int b) noexcept nogil:
    """Line of sight from square a to b: the squares whose interior the segment
    between the two centres crosses (a corner touch does not count) block if
    they are woods or buildings, or a hill unless a or b is on a hill; every
    square of a hill holding woods or buildings always blocks (Fire A: "No LOS
    may pass over a hill containing Woods or Buildings"). Units and wire never
    block. Symmetric by construction."""
    cdef int ax = a % STRIDE, ay = a // STRIDE, bx = b % STRIDE, by = b // STRIDE
    cdef int x0 = ax if ax < bx else bx, x1 = bx if ax < bx else ax
    cdef int y0 = ay if ay < by else by, y1 = by if ay < by else ay
    cdef int dx = bx - ax, dy = by - ay, cx, cy, k, f, lo, hi, c, t
    cdef bint hill_end = (sc.flags[a] & F_HILL) or (sc.flags[b] & F_HILL)
    for cy in range(y0, y1 + 1):
        for cx in range(x0, x1 + 1):
            c = cy * STRIDE + cx
            if c == a or c == b:
                continue
            # doubled coordinates: centres at even numbers, corners at odd
            lo = 1 << 30
            hi = -(1 << 30)
            for k in range(4):
                f = dx * (2 * cy + (1 if k & 1 else -1) - 2 * ay) - dy * (2 * cx + (1 if k & 2 else -1) - 2 * ax)
                if f < lo:
                    lo = f
                if f > hi:
                    hi = f
            if not (lo < 0 < hi):
                continue
            t = sc.terrain[c]
            if t == T_WOODS or t == T_BUILDINGS:
                return True
            if (sc.flags[c] & F_WOODED_HILL) or ((sc.flags[c] & F_HILL) and not hill_end):
                return True
    return False


cdef void build_los(Scn *sc) noexcept nogil:
    cdef int a, b
    memset(sc.los, 0, sizeof(sc.los))
    for a in range(NSQ):
        if a % STRIDE >= sc.width or a // STRIDE >= sc.height:
            continue
        for b in range(NSQ):
            if b % STRIDE >= sc.width or b // STRIDE >= sc.height:
                continue
            if a == b or not los_blocked(sc, a, b):
                sc.los[a][b >> 3] |= <uint8_t>(1 << (b & 7))


cdef void build_masks(const Scn *sc, Masks *mk) noexcept nogil:
    """The bitboard form of the scenario's map (needs sc.los built)."""
    cdef int a, b, t
    memset(mk, 0, sizeof(Masks))
    for a in range(NSQ):
        if a % STRIDE >= sc.width or a // STRIDE >= sc.height:
            continue
        t = sc.terrain[a]
        bb_set(&mk.board, a)
        bb_set(&mk.enter[1], a)
        if t == T_ROAD:
            bb_set(&mk.road, a)
        if t == T_TRENCH:
            bb_set(&mk.trench, a)
        if sc.flags[a] & F_WIRE:
            bb_set(&mk.wire, a)
        if not (t == T_BUILDINGS or t == T_MARSH or t == T_BUNKER or t == T_TRENCH):
            bb_set(&mk.enter[0], a)         # may_enter() of a non-foot unit
        if t == T_WOODS or t == T_FORD or t == T_MARSH:
            bb_set(&mk.slow[1], a)          # step_cost() 4 ...
            bb_set(&mk.slow[0], a)
        elif t == T_CRATERS:
            bb_set(&mk.slow[0], a)          # ... craters for non-foot units only
        for b in range(NSQ):
            if has_los(sc, a, b):
                bb_set(&mk.los[a], b)


def _fill_tables():
    """Copies the data files into UT and SC; returns (type ids, scenario dicts)."""
    global NTYPES_LOADED, NSCN
    cdef Scn *sc
    units, scenarios = _data.load_all()
    memset(UT, 0, sizeof(UT))
    for i, u in enumerate(units):
        UT[i].foot = u["foot"]
        UT[i].tank = u["tank"]
        UT[i].move = u["move"]
        UT[i].fire = u["fire"]
        UT[i].at = u["at"]
        UT[i].at_no_long = u["at_no_long"]
        UT[i].melee = u["melee"]
        UT[i].assault = u["assault"] and u["foot"]
        UT[i].artillery = u["artillery"]
        UT[i].star = u["star"]
        UT[i].plunging = u["plunging"]
        UT[i].direct = u["direct"]
        UT[i].hq = u["hq"]
        UT[i].armour = u["armour"]
        UT[i].main = u["main"]
        UT[i].main_at = u["main_at"]
        UT[i].secondary = u["secondary"]
        UT[i].all_round = u["all_round"]
        UT[i].bonus = u["table_bonus"]
    NTYPES_LOADED = len(units)
    memset(SC, 0, sizeof(SC))
    memset(SM, 0, sizeof(SM))
    for k, d in enumerate(scenarios):
        sc = &SC[k]
        sc.width = d["width"]
        sc.height = d["height"]
        sc.turns = d["turns"]
        sc.attacker = d["attacker"]
        sc.obj_needed = d["objectives_needed"]
        for sq in range(NSQ):
            sc.terrain[sq] = d["terrain"][sq]
            sc.aperture[sq] = d["aperture"][sq]
        for sq in d["hill"]:
            sc.flags[sq] |= F_HILL
        for sq in d["wooded_hill"]:
            sc.flags[sq] |= F_WOODED_HILL
        for sq in d["wire"]:
            sc.flags[sq] |= F_WIRE
        for k2, sq in enumerate(d["objectives"]):
            sc.flags[sq] |= F_OBJECTIVE
            sc.objsq[k2] = sq
        sc.nobj = len(d["objectives"])
        for p in range(2):
            army = d["armies"][p]
            sc.morale[p] = army["morale"]
            sc.nunits[p] = len(army["units"])
            for i in range(UPS):
                sc.utype[p][i] = NOTYPE
                sc.usq[p][i] = NOSQ
            for i, (t, sq, facing) in enumerate(army["units"]):
                sc.utype[p][i] = t
                sc.usq[p][i] = sq
                sc.ufacing[p][i] = facing
            for i, kind in enumerate(army["markers"]):
                sc.mkind[p][i] = MK_BARRAGE_STOCK if kind == "barrage" else MK_CAS_STOCK
        build_los(sc)
        build_masks(sc, &SM[k])
    NSCN = len(scenarios)
    return units, scenarios


UNIT_TYPES, SCENARIOS = _fill_tables()
SCENARIO_NAMES = tuple(d["name"] for d in SCENARIOS)
