# Micro Armour engine: building areas: their cover, damage, fire and rubble (RULES.md, Buildings).
# Included by _engine.pyx (one module, split by concern).
#
# Every square of building terrain is one building area (design: the table is a
# grid of 1" squares, the size of an impact marker). Its class (light, medium,
# heavy) is static scenario data; what changes in a game lives in the state:
# the 'E' results it took (rubble at 2/3/5) and the turns it still burns.
#
# Hooks for the other fire-support families (artillery, air): call
# attack_building(s, x, y, fp, mod) when an attack with firepower fp lands on
# square (x, y); the N_BLDG chance node then rolls it (`crt:E` / `crt:-`), and
# building_roll_done() resumes a direct-fire attack (other callers resume their
# own flow from their node()).
# ----------------------------------------------------------------- building areas
cdef inline int building_at(const MaState *s, int x, int y) noexcept nogil:
    """The building area on square (x, y) of the state's scenario, or -1."""
    cdef int a = SC_BIDX[s.scn][y][x]
    return -1 if a == NONE else a

cdef inline int building_class(const MaState *s, int a) noexcept nogil:
    return SC_BCLASS[s.scn][1 if s.df_options & DF_SUPPORT else 0][a]

cdef inline bint is_rubble(const MaState *s, int a) noexcept nogil:
    return s.bld_hits[a] >= BC_RUBBLE[building_class(s, a)]

cdef inline bint square_burning(const MaState *s, int x, int y) noexcept nogil:
    cdef int a = building_at(s, x, y)
    return a >= 0 and s.bld_fire[a] > 0

cdef inline int square_coh(const MaState *s, int x, int y) noexcept nogil:
    """The cohesion cover of a square's terrain (a building area's class or rubble)."""
    cdef int a = building_at(s, x, y)
    if a < 0:
        return T_COH[ter(s, x, y)]
    return RUB_COH if is_rubble(s, a) else BC_COH[building_class(s, a)]

cdef inline int square_crt(const MaState *s, int x, int y) noexcept nogil:
    cdef int a = building_at(s, x, y)
    if a < 0:
        return T_CRT[ter(s, x, y)]
    return RUB_CRT if is_rubble(s, a) else BC_CRT[building_class(s, a)]

cdef inline int square_cost(const MaState *s, int x, int y, int c) noexcept nogil:
    """Half-MP per inch for movement class c (0 impassable); rubble has its own."""
    cdef int a = building_at(s, x, y)
    if a >= 0 and is_rubble(s, a):
        return RUB_COST[c]
    return T_COST[ter(s, x, y)][c]

cdef inline bint square_blocks(const MaState *s, int x, int y) noexcept nogil:
    """Terrain that LOS may enter but not pass through: blocking terrain, a
    burning building area (smoke), rubble only if the chart says so."""
    cdef int a = building_at(s, x, y)
    if a < 0:
        return T_BLOCK[ter(s, x, y)]
    if s.bld_fire[a]:
        return 1
    return RUB_BLOCK if is_rubble(s, a) else T_BLOCK[ter(s, x, y)]

cdef inline int smoke_fire_mod(const MaState *s, int f, int t) noexcept nogil:
    """+BURN_MOD to fire into or out of a burning building area (its smoke)."""
    if (square_burning(s, s.st[t].x, s.st[t].y) or square_burning(s, s.st[f].x, s.st[f].y)):
        return BURN_MOD
    return 0

# ----------------------------------------------------------------- attacks on buildings
cdef inline int building_cd(const MaState *s, int a, int fp) noexcept nogil:
    """Column of an attack with firepower fp on area a: fp - DV, clamped to the
    table (artillery may attack below -3: the -3 column)."""
    cdef int cd = fp - BC_DV[building_class(s, a)]
    if cd < CRT_MIN:
        return CRT_MIN
    if cd > CRT_MAX:
        return CRT_MAX
    return cd

cdef inline double building_e_prob(const MaState *s, int a, int fp, int mod) noexcept nogil:
    """P(E) of the building roll: 2D6 + mod on its column (only E harms a building)."""
    cdef double p[5]
    crt_table(building_cd(s, a, fp), mod, p)
    return p[4]

cdef void attack_building(MaState *s, int x, int y, int fp, int mod) noexcept nogil:
    """An artillery (or bomb) attack with firepower fp lands on (x, y): if an
    intact building area is there, its roll (N_BLDG) is due."""
    cdef int a
    if not on_map(s, x, y):
        return
    a = building_at(s, x, y)
    if a < 0 or is_rubble(s, a):
        return
    s.bld_area = a
    s.bld_fp = fp if fp < 30 else 30
    s.bld_mod = mod

cdef void building_result(MaState *s, int a, int res) noexcept nogil:
    """CRT result res on area a: an E sets it alight and counts toward rubble."""
    if a >= IP_ROLL:
        position_shelled(s, a - IP_ROLL, res)        # _obstacles.pxi
        return
    if res != 4 or is_rubble(s, a):
        return
    s.bld_hits[a] += 1
    s.bld_fire[a] = BURN_TURNS

cdef void building_roll_done(MaState *s) noexcept nogil:
    """After a building (or improved position) roll: the direct-fire attack's
    next firer, or the artillery impact's or the bomb's next building area or
    position (their own flow: 2 x square + 1 the square's position, + 2 the
    next square)."""
    cdef int nxt = 2 if s.bld_area >= IP_ROLL else 1
    s.bld_area = NONE
    s.bld_fp = 0
    s.bld_mod = 0
    if s.atk_step == S_CRT:
        s.hot = 0
        s.atk_cur += 1
        advance_attack(s)
    elif s.air_step == AS_BLDG:
        air_buildings_from(s, 2 * s.air_sq + nxt)    # _air.pxi
    elif s.phase == PH_ART and s.art_step == AR_BLDG:
        art_building_done(s, nxt)                    # _artillery.pxi

cdef void buildings_new_turn(MaState *s) noexcept nogil:
    """A new turn: fires burn down (BURN_TURNS turns in all, design)."""
    cdef int a
    for a in range(SC_NBLDG[s.scn]):
        if s.bld_fire[a]:
            s.bld_fire[a] -= 1

cdef int building_outcomes(const MaState *s, ard_action *a, double *pr) noexcept nogil:
    cdef double pe
    cdef double p[5]
    cdef int n = 0
    if s.bld_area >= IP_ROLL:                    # an improved position's roll (_obstacles.pxi)
        crt_table(position_cd(s, s.bld_area - IP_ROLL, s.bld_fp), s.bld_mod, p)
        pe = p[4]
    else:
        pe = building_e_prob(s, s.bld_area, s.bld_fp, s.bld_mod)
    if pe < 1.0:
        a[n] = A_CRT
        pr[n] = 1.0 - pe
        n += 1
    if pe > 0.0:
        a[n] = A_CRT + 4
        pr[n] = pe
        n += 1
    return n

cdef int validate_buildings(const MaState *s) noexcept nogil:
    """0 if the building bytes are consistent, else 1."""
    cdef int a
    for a in range(MAXBLDG):
        if a >= SC_NBLDG[s.scn]:
            if s.bld_hits[a] or s.bld_fire[a]:
                return 1
        elif s.bld_hits[a] > BC_RUBBLE[building_class(s, a)] or s.bld_fire[a] > BURN_TURNS:
            return 1
    if s.bld_area != NONE and s.bld_area >= IP_ROLL:
        if (s.bld_area - IP_ROLL >= SC_NIP[s.scn] or s.bld_fp > 30 or s.bld_mod < -20 or s.bld_mod > 20
                or ip_shellable(s, SC_IPX[s.scn][s.bld_area - IP_ROLL], SC_IPY[s.scn][s.bld_area - IP_ROLL]) < 0):
            return 1
    elif s.bld_area != NONE and (s.bld_area >= SC_NBLDG[s.scn] or is_rubble(s, s.bld_area) or s.bld_fp > 30
                               or s.bld_mod < -20 or s.bld_mod > 20):
        return 1
    if s.bld_area == NONE and (s.bld_fp or s.bld_mod):
        return 1
    return 0

cdef install_building_charts(charts):
    """The building classes' values (charts.toml [building])."""
    global BURN_TURNS, BURN_MOD, RUB_COH, RUB_CRT, RUB_BLOCK
    b = charts["building"]
    BURN_TURNS, BURN_MOD = b["burn_turns"], b["burning_mod"]
    for c, name in enumerate(("light", "medium", "heavy")):
        BC_COH[c], BC_CRT[c], BC_DV[c], BC_RUBBLE[c] = (b[name]["cohesion"], b[name]["crt"], b[name]["dv"],
                                                        b[name]["rubble_after"])
    for c in range(4):
        RUB_COST[c] = b["rubble"]["cost"][c]
    RUB_COH, RUB_CRT, RUB_BLOCK = b["rubble"]["cohesion"], b["rubble"]["crt"], b["rubble"]["blocks_los"]

cdef install_buildings(int k, sc):
    """Scenario k's building areas (every square of building terrain is one)."""
    memset(SC_BIDX[k], NONE, sizeof(uint8_t) * HMAX * WMAX)
    if len(sc["buildings"]) > MAXBLDG:
        raise ValueError(f"scenario {k}: {len(sc['buildings'])} building squares, at most {MAXBLDG}: "
                         "use fewer building squares")
    SC_NBLDG[k] = len(sc["buildings"])
    for a, (x, y, c0, c1) in enumerate(sc["buildings"]):
        SC_BIDX[k][y][x] = a
        SC_BX[k][a], SC_BY[k][a] = x, y
        SC_BCLASS[k][0][a], SC_BCLASS[k][1][a] = c0, c1
