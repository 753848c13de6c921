# Micro Armour engine: engineering tasks that change the table: bridging a stream
# square and filling an AT ditch square (RULES.md "Engineering: bridges and AT ditches").
# Included by _engine.pyx (one module, split by concern).
#
# Digest *Engineering*: "Each task needs a set number of successful cohesion rolls,
# made in the Marker Removal Phase while the stand stays in place; the successes need
# not be consecutive ... AT ditches take 2 (dozer) or 4 (engineers), bridges 2
# (bridging tank) or 4 (engineers with materials)". One engineering-roll mechanism
# (_minefields.pxi: breach_next / breach_outcomes / breach_apply, node N_BREACH) runs
# the minefield breaches, the wreck clearing and these tasks; this file says which
# square a stand works on and what a success does.
#
# The squares changed in play are a short list in the state (tc_*), public. Terrain
# lookups stay fast: ter() (_board.pxi) looks at the list only when tc_bridge is not 0,
# obstacle_cost (_obstacles.pxi) only on a ditch square when tc_filled is not 0.
cdef enum:
    MAXTC = 8           # squares worked on or changed per game (MaState.tc_x[8])
    TK_NONE = 0
    TK_DITCH = 1
    TK_BRIDGE = 2

cdef int ENG_NEED[3][2]                     # successes by [task][worker]: ditch [dozer, engineers], bridge [tank, materials]
cdef int STREAM_T = -1                      # the terrain a bridge may be built on
cdef int BRIDGE_T = -1                      # the terrain it becomes


cdef inline int tc_find(const MaState *s, int x, int y) noexcept nogil:
    """The list entry of square (x, y), or -1."""
    cdef int i, n = s.tc_n if s.tc_n <= MAXTC else MAXTC
    for i in range(n):
        if s.tc_x[i] == x and s.tc_y[i] == y:
            return i
    return -1

cdef int built_ter(const MaState *s, int x, int y, int t) noexcept nogil:
    """Terrain t of (x, y) as built in play: a bridge where one was built (called
    by ter() only while some bridge is)."""
    cdef uint32_t m = s.tc_bridge
    cdef int i
    while m:
        i = __builtin_ctz(m)
        m &= m - 1
        if i < MAXTC and s.tc_x[i] == x and s.tc_y[i] == y:
            return BRIDGE_T
    return t

cdef inline bint ditch_filled(const MaState *s, int x, int y) noexcept nogil:
    """The AT ditch on (x, y) was filled in play (it is no obstacle now)."""
    cdef uint32_t m = s.tc_filled
    cdef int i
    while m:
        i = __builtin_ctz(m)
        m &= m - 1
        if i < MAXTC and s.tc_x[i] == x and s.tc_y[i] == y:
            return 1
    return 0

cdef inline int task_kind(const MaState *s, int x, int y) noexcept nogil:
    """What work square (x, y) takes: TK_DITCH on a scenario ditch square, else
    TK_BRIDGE on a stream square of the map (design: a ditch on a stream is
    filled, not bridged), else TK_NONE."""
    if SC_OBST[s.scn][y][x] & OB_DITCH:
        return TK_DITCH
    if SC_TER[s.scn][y][x] == STREAM_T:
        return TK_BRIDGE
    return TK_NONE

cdef inline int task_need(const MaState *s, int g, int kind) noexcept nogil:
    """Successes stand g needs for a task of this kind; 0 if it cannot do it
    (the smaller when it is both kinds of worker)."""
    cdef int t = s.st[g].type, a = 0, b = 0
    if kind == TK_DITCH:
        a = ENG_NEED[TK_DITCH][0] if TY_DOZER[t] else 0
        b = ENG_NEED[TK_DITCH][1] if TY_ENGINEER[t] else 0
    elif kind == TK_BRIDGE:
        a = ENG_NEED[TK_BRIDGE][0] if TY_BRIDGING[t] else 0
        b = ENG_NEED[TK_BRIDGE][1] if TY_MATERIALS[t] else 0
    if a and b:
        return a if a < b else b
    return a if a else b

cdef int terrain_task(const MaState *s, int g) noexcept nogil:
    """The square (y * WMAX + x) stand g works on this marker removal phase, or -1.
    Design: the square in front of it (its facing), so a player picks the task by
    the facing its stand stops with; the stand is live, on the table, not cargo,
    not an unspotted marker, did not move this turn ("while the stand stays in
    place") and can do that square's task; the ditch is not yet filled, the
    stream not yet bridged and holds no live stand (a boat or an amphibious
    vehicle in the water stops the bridging); a new square needs room in the list."""
    cdef int x, y, kind, f
    if not alive(s, g):
        return -1                        # first: an empty slot's type is NONE, no table index
    if not (TY_ENGINEER[s.st[g].type] or TY_DOZER[s.st[g].type] or TY_BRIDGING[s.st[g].type]):
        return -1                        # no worker (materials go with engineers)
    if (s.st[g].flags & F_MOVED or s.carrier[g] != NONE
            or (s.offtable >> g) & 1 or (s.hid >> g) & 1):
        return -1
    f = s.st[g].facing & 7
    x = <int>s.st[g].x + DX[f]
    y = <int>s.st[g].y + DY[f]
    if not on_map(s, x, y):
        return -1
    kind = task_kind(s, x, y)
    if kind == TK_NONE or task_need(s, g, kind) == 0:
        return -1
    if kind == TK_DITCH and ditch_filled(s, x, y):
        return -1
    if kind == TK_BRIDGE and (built_ter(s, x, y, STREAM_T) == BRIDGE_T or occupant(s, x, y, -1) >= 0):
        return -1
    if tc_find(s, x, y) < 0 and s.tc_n >= MAXTC:
        return -1
    return y * WMAX + x

cdef void terrain_task_success(MaState *s, int g) noexcept nogil:
    """A successful roll on g's task square: counted there (kept if g goes); at
    g's number the ditch is filled or the bridge built."""
    cdef int sq = terrain_task(s, g), x, y, i, kind
    if sq < 0:
        return
    x = sq % WMAX
    y = sq // WMAX
    i = tc_find(s, x, y)
    if i < 0:
        i = s.tc_n
        s.tc_n += 1
        s.tc_x[i] = x
        s.tc_y[i] = y
    s.tc_succ[i] += 1
    kind = task_kind(s, x, y)
    if s.tc_succ[i] >= task_need(s, g, kind):
        if kind == TK_DITCH:
            s.tc_filled |= <uint8_t>(1 << i)
        else:
            s.tc_bridge |= <uint8_t>(1 << i)


# ----------------------------------------------------------------- validation
cdef int validate_engineering(const MaState *s) noexcept nogil:
    """0 if the list of changed squares is one play can make, else 1: every
    entry a ditch or stream square of the scenario on the table, no square
    twice, 1..9 successes, done bits only on entries of their kind, nothing
    past tc_n, and no bridge under a boat."""
    cdef int i, j, kind, g
    if s.tc_n > MAXTC or s.tc_reserved or s.tc_bridge & s.tc_filled:
        return 1
    if (s.tc_bridge | s.tc_filled) >> s.tc_n:
        return 1
    for i in range(MAXTC):
        if i >= s.tc_n:
            if s.tc_x[i] or s.tc_y[i] or s.tc_succ[i]:
                return 1
            continue
        if not on_map(s, s.tc_x[i], s.tc_y[i]) or s.tc_succ[i] == 0 or s.tc_succ[i] > 9:
            return 1
        kind = task_kind(s, s.tc_x[i], s.tc_y[i])
        if kind == TK_NONE:
            return 1
        if ((s.tc_bridge >> i) & 1 and kind != TK_BRIDGE) or ((s.tc_filled >> i) & 1 and kind != TK_DITCH):
            return 1
        for j in range(i):
            if s.tc_x[j] == s.tc_x[i] and s.tc_y[j] == s.tc_y[i]:
                return 1
        if (s.tc_bridge >> i) & 1:
            for g in range(NSLOT):
                if (alive(s, g) and TY_BOAT[s.st[g].type] and s.st[g].x == s.tc_x[i]
                        and s.st[g].y == s.tc_y[i]):
                    return 1
    return 0


# ----------------------------------------------------------------- install
cdef install_engineering_charts(charts):
    """[engineering] (charts.toml) and the stream and bridge terrains."""
    global STREAM_T, BRIDGE_T
    e = charts["engineering"]
    ENG_NEED[TK_NONE][0] = ENG_NEED[TK_NONE][1] = 0
    ENG_NEED[TK_DITCH][0], ENG_NEED[TK_DITCH][1] = e["ditch_dozer"], e["ditch_engineer"]
    ENG_NEED[TK_BRIDGE][0], ENG_NEED[TK_BRIDGE][1] = e["bridge_tank"], e["bridge_materials"]
    names = [t["name"] for t in charts["terrain"]]
    STREAM_T, BRIDGE_T = names.index("stream"), names.index("bridge")
