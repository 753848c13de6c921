# Micro Armour engine: small helpers over the table: distance, terrain, movement cost, line of sight.
# Included by _engine.pyx (one module, split by concern).
# ----------------------------------------------------------------- small helpers
cdef inline int side_of(int g) noexcept nogil:
    return g >> 4

cdef inline bint alive(const MaState *s, int g) noexcept nogil:
    return s.st[g].type != NONE and (s.st[g].flags & F_ALIVE) != 0

cdef inline int iabs(int v) noexcept nogil:
    return -v if v < 0 else v

cdef inline int dist(const MaState *s, int a, int b) noexcept nogil:
    cdef int dx = iabs(<int>s.st[a].x - <int>s.st[b].x), dy = iabs(<int>s.st[a].y - <int>s.st[b].y)
    return dx if dx > dy else dy

cdef inline bint on_map(const MaState *s, int x, int y) noexcept nogil:
    return 0 <= x < SC_W[s.scn] and 0 <= y < SC_H[s.scn]

cdef inline int ter(const MaState *s, int x, int y) noexcept nogil:
    """The terrain type of square (x, y) in the state's scenario."""
    return GROUND_TER[s.ground][SC_TER[s.scn][y][x]]     # snow and frost change terrain (_weather.pxi)

cdef int wrecks_at(const MaState *s, int x, int y) noexcept nogil:
    cdef int g, n = 0
    for g in range(NSLOT):
        if s.st[g].type != NONE and (s.st[g].flags & F_WRECK) and s.st[g].x == x and s.st[g].y == y:
            n += 1
    return n

cdef int occupant(const MaState *s, int x, int y, int skip) noexcept nogil:
    cdef int g
    for g in range(NSLOT):
        if g != skip and alive(s, g) and s.st[g].x == x and s.st[g].y == y and s.carrier[g] == NONE:
            return g
    return -1

cdef int terrain_coh(const MaState *s, int x, int y) noexcept nogil:
    cdef int w = wrecks_at(s, x, y), m = square_coh(s, x, y)     # _buildings.pxi
    if w >= 2:
        return m + WR2_COH
    if w == 1:
        return m + WR1_COH
    return m

cdef int terrain_crt(const MaState *s, int x, int y) noexcept nogil:
    cdef int w = wrecks_at(s, x, y), m = square_crt(s, x, y)
    if w >= 2:
        return m + WR2_CRT
    if w == 1:
        return m + WR1_CRT
    return m

cdef inline int move_cost(const MaState *s, int g, int x, int y) noexcept nogil:
    """Half-MP to enter (x, y) for stand g; 0 if impassable."""
    return ground_cost(s, dry_move_cost(s, g, x, y))      # deep snow (_weather.pxi)

cdef int dry_move_cost(const MaState *s, int g, int x, int y) noexcept nogil:
    """move_cost() before the ground's changes. Wire and ditches there make it
    dearer or impassable (_obstacles.pxi)."""
    return obstacle_cost(s, x, y, TY_CLASS[s.st[g].type], terrain_move_cost(s, g, x, y))

cdef int terrain_move_cost(const MaState *s, int g, int x, int y) noexcept nogil:
    """Half-MP to enter (x, y) for stand g by its terrain and wrecks; 0 if impassable."""
    cdef int c = TY_CLASS[s.st[g].type], tr = ter(s, x, y), base = type_square_cost(s, g, x, y), w, wc, under
    if base == 0:
        return 0
    w = wrecks_in_way(s, x, y)          # cleared road wrecks let the road rate resume (_obstacles.pxi)
    if w == 0:
        return base
    wc = WR2_COST[c] if w >= 2 else WR1_COST[c]
    if T_UNDER[tr] != tr:
        # a wreck on a road: the mover pays the underlying terrain's cost or the wreck's,
        # its choice (so the cheaper: MP cannot be saved), never the road rate
        under = class_cost(s, g, T_UNDER[tr])
        return wc if under == 0 or wc < under else under
    # elsewhere a wreck costs its own rate, or the terrain's if dearer
    return wc if wc > base else base

cdef inline int range_mod(int d) noexcept nogil:
    cdef int i
    for i in range(NRANGE):
        if d <= R_MAX[i]:
            return R_MOD[i]
    return R_MOD[NRANGE - 1] + (d - R_MAX[NRANGE - 1] + 4) // 5

cdef inline int cohesion_mods(const MaState *s, int g) noexcept nogil:
    cdef int m = 0
    if s.st[g].flags & F_S:
        m += 4
    if s.st[g].flags & F_D:
        m += 3
    return m

cdef inline double p_pass(int coh, int mod) noexcept nogil:
    """P(1D20 + mod <= coh)."""
    cdef int k = coh - mod
    if k <= 0:
        return 0.0
    if k >= 20:
        return 1.0
    return k / 20.0


# ----------------------------------------------------------------- line of sight
cdef bint blocks(const MaState *s, int x, int y, bint target_personnel) noexcept nogil:
    cdef int g
    if square_blocks(s, x, y):
        return 1
    if marker_at(s, x, y):
        return 1                        # impact and smoke markers block LOS (_artillery.pxi)
    g = occupant(s, x, y, -1)
    if g >= 0 and not is_hidden(s, g) and not off_table(s, g):   # an unspotted marker, a stand not entered yet: nothing
        if TY_DEF[s.st[g].type] != D_PERSONNEL or target_personnel:
            return 1
    return 0

cdef inline bint has_los(const MaState *s, int a, int b) noexcept nogil:
    return los_from(s, a, b, TY_DEF[s.st[b].type] == D_PERSONNEL)

cdef inline bint los_from(const MaState *s, int a, int b, bint pers) noexcept nogil:
    return has_los_xy(s, s.st[a].x, s.st[a].y, s.st[b].x, s.st[b].y, pers, NULL)

cdef inline bint blocks_at(const MaState *s, int x, int y, bint pers, const uint8_t *grid) noexcept nogil:
    """blocks(), or a precomputed grid of it (grid[y * WMAX + x]) when many
    lines are traced over one position (artillery plots)."""
    if grid != NULL:
        return grid[y * WMAX + x]
    return blocks(s, x, y, pers)

cdef bint has_los_xy(const MaState *s, int x, int y, int tx, int ty, bint pers, const uint8_t *grid) noexcept nogil:
    """Centre to centre over squares: every square strictly between blocks or
    not; where the line runs exactly through a corner both squares beside it
    count and either blocks (ambiguous LOS favours the defender). pers: the
    target is personnel (personnel stands block LOS only to personnel)."""
    cdef int nx = iabs(tx - x), ny = iabs(ty - y)
    cdef int sx = 1 if tx > x else -1, sy = 1 if ty > y else -1
    cdef int ix = 0, iy = 0, lhs, rhs
    while ix < nx or iy < ny:
        lhs = (1 + 2 * ix) * ny
        rhs = (1 + 2 * iy) * nx
        if lhs == rhs:
            if blocks_at(s, x + sx, y, pers, grid) or blocks_at(s, x, y + sy, pers, grid):
                return 0
            x += sx
            y += sy
            ix += 1
            iy += 1
        elif lhs < rhs:
            x += sx
            ix += 1
        else:
            y += sy
            iy += 1
        if x == tx and y == ty:
            return 1
        if blocks_at(s, x, y, pers, grid):
            return 0
    return 1
