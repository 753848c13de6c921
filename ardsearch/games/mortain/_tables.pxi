# Included by _engine.pyx: fills the static scenario tables at import from
# scenarios/mortain.toml (checked by scenario.py), and the hex geometry:
# neighbours, distances and line of sight.

cdef inline void hex_cube(int h, int *x, int *y, int *z) noexcept nogil:
    """Cube coordinates of a hex. Columns are flat-topped with odd map columns
    (01, 03, ...) half a hex higher, i.e. 0-based odd columns shifted down."""
    cdef int c = h // ROWS, r = h % ROWS
    x[0] = c
    z[0] = r - (c - (c & 1)) // 2
    y[0] = -x[0] - z[0]

cdef inline int cube_hex(int x, int z) noexcept nogil:
    """Hex index of cube (x, z), or -1 if off the map."""
    cdef int c = x, r = z + (x - (x & 1)) // 2
    if c < 0 or c >= COLS or r < 0 or r >= ROWS:
        return -1
    return c * ROWS + r

cdef int round_to_hex(double fx, double fy, double fz) noexcept nogil:
    cdef double rx = c_round(fx), ry = c_round(fy), rz = c_round(fz)
    cdef double dx = fabs(rx - fx), dy = fabs(ry - fy), dz = fabs(rz - fz)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return cube_hex(<int>rx, <int>rz)

cdef int line_blocked(int a, int b, int n) noexcept nogil:
    """1 if a blocking hex lies strictly between a and b (n = distance). The
    line is drawn twice, nudged to either side of the centre line; a line
    along a hex edge then meets both hexes of that edge, and either one
    blocks (design choice)."""
    cdef int ax, ay, az, bx, by, bz, i, side, h
    cdef double t, e
    hex_cube(a, &ax, &ay, &az)
    hex_cube(b, &bx, &by, &bz)
    for side in range(2):
        e = 1e-6 if side == 0 else -1e-6
        for i in range(1, n):
            t = <double>i / n
            h = round_to_hex(ax + e + (bx - ax) * t, ay + 2 * e + (by - ay) * t, az - 3 * e + (bz - az) * t)
            if h >= 0 and h != a and h != b and T_BLOCK[h]:
                return 1
    return 0

cdef void build_geometry():
    cdef int a, b, i, j, k, ax, ay, az, bx, by, bz, d, tmp
    cdef int DX[6]
    cdef int DZ[6]
    DX[:] = [1, 1, 0, -1, -1, 0]
    DZ[:] = [-1, 0, 1, 1, 0, -1]
    for a in range(NHEX):
        hex_cube(a, &ax, &ay, &az)
        k = 0
        for i in range(6):
            NEIGH[a][i] = NONE
        for i in range(6):
            b = cube_hex(ax + DX[i], az + DZ[i])
            if b >= 0:
                NEIGH[a][k] = b
                k += 1
        for i in range(k):                  # increasing order: legal moves come out sorted
            for j in range(i + 1, k):
                if NEIGH[a][j] < NEIGH[a][i]:
                    tmp = NEIGH[a][i]
                    NEIGH[a][i] = NEIGH[a][j]
                    NEIGH[a][j] = tmp
        for b in range(NHEX):
            hex_cube(b, &bx, &by, &bz)
            d = max(abs(ax - bx), abs(ay - by), abs(az - bz))
            DIST[a][b] = d
    for a in range(NHEX):
        for b in range(NHEX):
            LOS[a][b] = 1 if DIST[a][b] > 3 else (0 if line_blocked(a, b, DIST[a][b]) else 1)
    # fire range (needs the terrain: hills see farther), so that move
    # generation tests a hex pair with one bit
    memset(RANGE, 0, sizeof(RANGE))
    for a in range(NHEX):
        for b in range(NHEX):
            if in_range(a, b):
                hs_add(&RANGE[a], b)
    memset(NEIGH_SET, 0, sizeof(NEIGH_SET))
    for a in range(NHEX):
        for i in range(6):
            if NEIGH[a][i] != NONE:
                hs_add(&NEIGH_SET[a], NEIGH[a][i])


def _install_scenario(sc):
    """Copies a checked Scenario (scenario.py) into the static C tables."""
    global TIGER, S_TURNS, S_EXITS, S_GCOL, S_UCOL, S_XCOL, S_FORBID, S_REINF_TURN, SETUP_UNITS
    cdef int h, u, k, a, b, fs
    for h in range(NHEX):
        t = sc.hex_terrain[h]
        T_MOD[h] = sc.terrain_modifier[t]
        T_BLOCK[h] = sc.terrain_blocks[t]
        T_HILL[h] = sc.terrain_hill[t]
    for u, unit in enumerate(sc.units):
        U_KIND[u] = unit.kind
        U_VAL[u][0][0], U_VAL[u][0][1] = unit.full
        U_VAL[u][1][0], U_VAL[u][1][1] = unit.reduced
        U_REINF[u] = unit.reinforcement
        ident = unit.id.encode()
        for k in range(9):
            U_ID[u][k] = ident[k] if k < len(ident) else 0
        if unit.tiger:
            TIGER = u
    for k in range(NSIDE):
        HIST[k] = sc.historical.get(k, NONE)
    S_TURNS, S_EXITS = sc.turns, sc.exits_to_win
    S_GCOL, S_UCOL, S_XCOL = sc.german_entry_column, sc.us_entry_column, sc.exit_column
    S_FORBID, S_REINF_TURN = sc.us_setup_forbidden_column, sc.us_reinforcement_turn
    # movers: each unit alone, then each German non-Tiger unit with the Tiger
    k = NU
    for u in range(NU):
        MOVER_UNIT[u] = u
        MOVER_TIGER[u] = 0
        TIGER_MOVER[u] = -1
    for u in range(NSIDE):
        if u != TIGER:
            MOVER_UNIT[k] = u
            MOVER_TIGER[k] = 1
            TIGER_MOVER[u] = k
            k += 1
    # fire sets: each unit alone, then same-side pairs a < b
    for u in range(NU):
        FSET_A[u] = u
        FSET_B[u] = NONE
    fs = NU
    for a in range(NU):
        for b in range(a + 1, NU):
            if side_of(a) == side_of(b):
                FSET_A[fs] = a
                FSET_B[fs] = b
                fs += 1
    # lookups for move generation: the acting side's movers (in increasing
    # order, so moves come out sorted), the fire set of a firer or pair, and
    # the entry hexes as sets
    SIDE_NMOVERS[0] = SIDE_NMOVERS[1] = 0
    for k in range(NMOVER):
        a = side_of(MOVER_UNIT[k])
        SIDE_MOVERS[a][SIDE_NMOVERS[a]] = k
        SIDE_NMOVERS[a] += 1
    memset(FSET_OF, NONE, sizeof(FSET_OF))
    for fs in range(NFSET):
        a = FSET_A[fs]
        FSET_OF[a][a if FSET_B[fs] == NONE else FSET_B[fs]] = fs
    memset(ENTRY, 0, sizeof(ENTRY))
    for k in range(ROWS):
        hs_add(&ENTRY[0], (S_GCOL - 1) * ROWS + k)
        hs_add(&ENTRY[1], (S_UCOL - 1) * ROWS + k)
    memset(&SETUP_HEXES, 0, sizeof(SETUP_HEXES))
    for h in range(NHEX):
        if hex_col(h) != S_FORBID:
            hs_add(&SETUP_HEXES, h)
    SETUP_UNITS = 0
    for u in range(NSIDE, NU):
        SETUP_UNITS += not U_REINF[u]
    # every card (53) can bring at most 8 actions including its own draw
    VTABLE.max_game_length = NSIDE + S_TURNS * 53 * 8
    build_geometry()


from ardsearch.games.mortain import scenario as _scenario
SCENARIO = _scenario.load()
_install_scenario(SCENARIO)
