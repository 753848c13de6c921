# Micro Armour engine: improved positions, wire and anti-tank ditches (RULES.md
# "Improved positions", "Wire and anti-tank ditches").
# Included by _engine.pyx (one module, split by concern).
#
# Where they are is static scenario data (scenarios/*.toml [[position]], wire,
# ditch); what changes in a game lives in the state: each position's 'E'
# results taken and whether it is gone (ip_state). Hooks: tofire_mod and
# crt_mod (_fire.pxi) add ip_coh / ip_crt for the target, apply_result adds
# ip_hit on an E, move_cost (_board.pxi) passes through obstacle_cost, and the
# marker removal phase calls positions_marker_removal.
cdef enum:
    MAXIP = 8           # improved positions per scenario (ip_state)
    IP_GONE = 128       # ip_state bit: destroyed or vanished
    OB_WIRE = 1         # SC_OBST bits
    OB_DITCH = 2
    IP_ROLL = 64        # bld_area >= IP_ROLL: the N_BLDG roll due is against position bld_area - IP_ROLL

# charts.toml [position.<class>] (class 0 light 1 medium 2 heavy) and [obstacle]
cdef int IPC_COH[3]
cdef int IPC_CRT[3]
cdef int IPC_HITS[3]                        # E results that destroy it, 0 never
cdef int IPC_VANISH[3]                      # vanishes when left empty
cdef int IPC_DV[3]                          # its DV against artillery impacts and bombs, 0 not attacked
cdef uint8_t OB_COST[2][4]                  # wire, ditch: half-MP per inch by class, 0 impassable
# per scenario
cdef int SC_NIP[MAXSCN]
cdef uint8_t SC_IPX[MAXSCN][MAXIP]
cdef uint8_t SC_IPY[MAXSCN][MAXIP]
cdef uint8_t SC_IPSIDE[MAXSCN][MAXIP]
cdef uint8_t SC_IPCLASS[MAXSCN][MAXIP]
cdef uint8_t SC_IPFACE[MAXSCN][MAXIP]       # the facing it was dug for
cdef uint8_t SC_IPIDX[MAXSCN][HMAX][WMAX]   # position on a square, NONE if none
cdef uint8_t SC_OBST[MAXSCN][HMAX][WMAX]    # OB_* bits of a square

assert MAXIP == 8    # MaState.ip_state[8]


# ----------------------------------------------------------------- improved positions
cdef inline int ip_of(const MaState *s, int g) noexcept nogil:
    """The improved position whose benefit stand g has, or -1: one of its own
    side's, still there, on g's square, and g faces the way it was dug for
    (digest: "turning away from the original facing loses the benefit")."""
    cdef int a = SC_IPIDX[s.scn][s.st[g].y][s.st[g].x]
    if (a == NONE or s.ip_state[a] & IP_GONE or SC_IPSIDE[s.scn][a] != side_of(g)
            or s.st[g].facing != SC_IPFACE[s.scn][a]):
        return -1
    return a

cdef inline int ip_coh(const MaState *s, int t) noexcept nogil:
    """The position's cohesion modifier to fire at t (stacks with terrain)."""
    cdef int a = ip_of(s, t)
    return 0 if a < 0 else IPC_COH[SC_IPCLASS[s.scn][a]]

cdef inline int ip_crt(const MaState *s, int t) noexcept nogil:
    cdef int a = ip_of(s, t)
    return 0 if a < 0 else IPC_CRT[SC_IPCLASS[s.scn][a]]

cdef void ip_hit(MaState *s, int t) noexcept nogil:
    """An E result on stand t: a position of t's side on its square counts it
    (a medium one is destroyed by two; light and heavy ones are not)."""
    cdef int a = SC_IPIDX[s.scn][s.st[t].y][s.st[t].x], c
    if a == NONE or s.ip_state[a] & IP_GONE or SC_IPSIDE[s.scn][a] != side_of(t):
        return
    c = SC_IPCLASS[s.scn][a]
    if IPC_HITS[c] == 0:
        return
    s.ip_state[a] += 1
    if s.ip_state[a] >= IPC_HITS[c]:
        s.ip_state[a] = IP_GONE | IPC_HITS[c]

# ----------------------------------------------------------------- artillery and bombs on positions
# Digest *Improved positions*: light ones "DV 5", medium "DV 8" "need two E
# results", heavy "usually indestructible". Impacts and bombs attack a light or
# medium position under them with the building areas' roll (N_BLDG, bld_area =
# IP_ROLL + position; _buildings.pxi), after the building area on that square.
cdef inline int ip_shellable(const MaState *s, int x, int y) noexcept nogil:
    """The position on (x, y) that artillery and bombs attack, or -1: still
    there and of a class with a DV (heavy ones are never attacked)."""
    cdef int a
    if not on_map(s, x, y):
        return -1
    a = SC_IPIDX[s.scn][y][x]
    if a == NONE or s.ip_state[a] & IP_GONE or IPC_DV[SC_IPCLASS[s.scn][a]] == 0:
        return -1
    return a

cdef void attack_position(MaState *s, int x, int y, int fp, int mod) noexcept nogil:
    """An impact marker or a bomb with firepower fp lands on (x, y): if a
    position it attacks is there, its roll (N_BLDG) is due."""
    cdef int a = ip_shellable(s, x, y)
    if a < 0:
        return
    s.bld_area = IP_ROLL + a
    s.bld_fp = fp if fp < 30 else 30
    s.bld_mod = mod

cdef inline int position_cd(const MaState *s, int a, int fp) noexcept nogil:
    """fp - the position's DV, on the table (artillery always rolls: -3 at worst)."""
    cdef int cd = fp - IPC_DV[SC_IPCLASS[s.scn][a]]
    if cd < CRT_MIN:
        return CRT_MIN
    return CRT_MAX if cd > CRT_MAX else cd

cdef void position_shelled(MaState *s, int a, int res) noexcept nogil:
    """CRT result res of an impact or bomb on position a: an E counts toward a
    medium one's two; a light one (a DV, no count in the digest) goes at the
    first (design)."""
    cdef int c = SC_IPCLASS[s.scn][a]
    if res != 4 or s.ip_state[a] & IP_GONE:
        return
    if IPC_HITS[c] == 0:
        s.ip_state[a] = IP_GONE
        return
    s.ip_state[a] += 1
    if s.ip_state[a] >= IPC_HITS[c]:
        s.ip_state[a] = IP_GONE | IPC_HITS[c]

cdef inline bint roll_square_ok(const MaState *s, int x, int y) noexcept nogil:
    """validate: the N_BLDG roll due (bld_area) is against the building area or
    the attackable position on (x, y)."""
    if s.bld_area >= IP_ROLL:
        return ip_shellable(s, x, y) == s.bld_area - IP_ROLL
    return building_at(s, x, y) == s.bld_area

cdef void positions_marker_removal(MaState *s) noexcept nogil:
    """Marker removal phase: a light position with no live stand of its side on
    it vanishes (digest: light ones "vanish if left empty")."""
    cdef int a, g, p, held
    for a in range(SC_NIP[s.scn]):
        if s.ip_state[a] & IP_GONE or not IPC_VANISH[SC_IPCLASS[s.scn][a]]:
            continue
        p = SC_IPSIDE[s.scn][a]
        held = 0
        for g in range(p * 16, p * 16 + 16):
            if alive(s, g) and s.st[g].x == SC_IPX[s.scn][a] and s.st[g].y == SC_IPY[s.scn][a]:
                held = 1
        if not held:
            s.ip_state[a] |= IP_GONE


# ----------------------------------------------------------------- wire and ditches
cdef inline int obstacle_cost(const MaState *s, int x, int y, int c, int base) noexcept nogil:
    """Half-MP to enter (x, y) for movement class c, given its terrain cost
    base: the dearer of the terrain and any wire or ditch there (0 impassable)."""
    cdef int b = SC_OBST[s.scn][y][x], i, oc
    if base == 0 or b == 0:
        return base
    if b & OB_DITCH and s.tc_filled and ditch_filled(s, x, y):
        b &= ~OB_DITCH                   # filled in play (_engineering.pxi)
        if b == 0:
            return base
    for i in range(2):
        if (b >> i) & 1:
            oc = OB_COST[i][c]
            if oc == 0:
                return 0
            if oc > base:
                base = oc
    return base


# ----------------------------------------------------------------- wrecks on roads
cdef int wrecks_in_way(const MaState *s, int x, int y, uint32_t wm) noexcept nogil:
    """Wrecks on (x, y) that cost movement: on a road only those not cleared
    (digest: "the marker stays but the road rate resumes"). Only the slots of
    wm are looked at: a superset of the wrecks' (wreck_slots()), or ALL_SLOTS."""
    cdef int g, n = 0, tr
    if wm == ALL_SLOTS:
        wm = wreck_slots(s)
    if wm == 0:
        return 0
    tr = ter(s, x, y)
    while wm:
        g = __builtin_ctz(wm)
        wm &= wm - 1
        if (at_square(s, g, x, y) and s.st[g].type != NONE and (s.st[g].flags & F_WRECK)
                and not (T_UNDER[tr] != tr and (s.wreck_clear >> g) & 1)):
            n += 1
    return n

cdef inline bint wreck_task(const MaState *s, int g) noexcept nogil:
    """Stand g may roll to clear the road it sits on this marker removal
    phase: a wreck-clearing type that did not move, on a road square with a
    wreck not yet cleared."""
    cdef int tr
    if not alive(s, g) or s.st[g].flags & F_MOVED or not TY_WRECKCLR[s.st[g].type]:
        return 0
    tr = ter(s, s.st[g].x, s.st[g].y)
    return T_UNDER[tr] != tr and wrecks_in_way(s, s.st[g].x, s.st[g].y, ALL_SLOTS) > 0

cdef void clear_wrecks(MaState *s, int x, int y) noexcept nogil:
    cdef int g
    for g in range(NSLOT):
        if s.st[g].type != NONE and (s.st[g].flags & F_WRECK) and s.st[g].x == x and s.st[g].y == y:
            s.wreck_clear |= <uint32_t>1 << g

cdef int validate_wrecks(const MaState *s) noexcept nogil:
    """0 if every cleared wreck is a wreck on a road square, else 1."""
    cdef int g, tr
    for g in range(NSLOT):
        if (s.wreck_clear >> g) & 1:
            if s.st[g].type == NONE or not (s.st[g].flags & F_WRECK) or (s.st[g].flags & F_ALIVE):
                return 1
            tr = ter(s, s.st[g].x, s.st[g].y)
            if T_UNDER[tr] == tr:
                return 1
    return 0


# ----------------------------------------------------------------- validation
cdef int validate_positions(const MaState *s) noexcept nogil:
    """0 if ip_state is consistent with the scenario's positions, else 1."""
    cdef int a, c
    for a in range(MAXIP):
        if a >= SC_NIP[s.scn]:
            if s.ip_state[a]:
                return 1
            continue
        c = SC_IPCLASS[s.scn][a]
        if s.ip_state[a] & IP_GONE:
            if (s.ip_state[a] & ~IP_GONE) > IPC_HITS[c]:
                return 1
            if not IPC_VANISH[c] and (IPC_HITS[c] == 0 or (s.ip_state[a] & ~IP_GONE) != IPC_HITS[c]):
                return 1
        elif IPC_HITS[c] == 0 and s.ip_state[a] != 0:
            return 1
        elif IPC_HITS[c] > 0 and s.ip_state[a] >= IPC_HITS[c]:
            return 1
    return 0


# ----------------------------------------------------------------- install
cdef install_obstacle_charts(charts):
    """[position], [obstacle] and [minefield] (charts.toml, _obstacles_data.py)."""
    for c, name in enumerate(("light", "medium", "heavy")):
        p = charts["position"][name]
        IPC_COH[c], IPC_CRT[c], IPC_HITS[c], IPC_VANISH[c] = (p["cohesion"], p["crt"], p["e_to_destroy"],
                                                              p["vanish_empty"])
        IPC_DV[c] = p["dv"]
    for i, name in enumerate(("wire", "ditch")):
        for c in range(4):
            OB_COST[i][c] = charts["obstacle"][name][c]
    install_minefield_charts(charts)     # _minefields.pxi

cdef install_obstacles(int k, sc):
    """Scenario k's improved positions, wire and ditch squares, minefields."""
    memset(SC_IPIDX[k], NONE, sizeof(uint8_t) * HMAX * WMAX)
    memset(SC_OBST[k], 0, sizeof(uint8_t) * HMAX * WMAX)
    SC_NIP[k] = len(sc["positions"])
    for a, p in enumerate(sc["positions"]):
        SC_IPX[k][a], SC_IPY[k][a], SC_IPSIDE[k][a] = p["x"], p["y"], p["side"]
        SC_IPCLASS[k][a], SC_IPFACE[k][a] = p["class"], p["facing"]
        SC_IPIDX[k][p["y"]][p["x"]] = a
    for x, y in sc["wire"]:
        SC_OBST[k][y][x] |= OB_WIRE
    for x, y in sc["ditch"]:
        SC_OBST[k][y][x] |= OB_DITCH
    install_minefields(k, sc)            # _minefields.pxi
