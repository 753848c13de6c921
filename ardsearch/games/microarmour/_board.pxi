# Micro Armour engine: small helpers over the table: distance, terrain, movement cost, line of sight.
# Included by _engine.pyx (one module, split by concern).
# ----------------------------------------------------------------- small helpers
cdef extern from *:
    """
    #define MA_ALL_SLOTS 0xFFFFFFFFu
    """
    int __builtin_ctz(unsigned int x) noexcept nogil
    const uint32_t ALL_SLOTS "MA_ALL_SLOTS"    # a slot mask holding every slot: "not narrowed down"

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
    """The terrain type of square (x, y) in the state's scenario, as built in play."""
    cdef int t = SC_TER[s.scn][y][x]
    if s.tc_bridge:                      # a bridge built in play (_engineering.pxi); one byte when none
        t = built_ter(s, x, y, t)
    return GROUND_TER[s.ground][t]       # snow and frost change terrain (_weather.pxi)

cdef inline int sight_reach_xy(const MaState *s, int ax, int ay, int bx, int by) noexcept nogil:
    """The sighting distance from square (ax, ay) to square (bx, by): this turn's
    maximum sighting (s.sight: the scenario's, or the weather's or night's roll,
    _weather.pxi) plus SPOT_PER_LEVEL (5") for each height level (T_LEVEL, charts.toml
    [spotting]) the seeing square stands above the seen one (digest: "Units on higher
    ground gain 5" of sighting per level"; contract Table: "Higher ground: +5" sighting
    per level"). The one rule for seeing a stand or a point: fire (_fire.pxi), spotting
    (_spotting.pxi) and artillery plots (_artillery.pxi) all ask it."""
    cdef int up = <int>T_LEVEL[ter(s, ax, ay)] - <int>T_LEVEL[ter(s, bx, by)]
    return s.sight + (SPOT_PER_LEVEL * up if up > 0 else 0)

cdef inline int sight_reach(const MaState *s, int a, int b) noexcept nogil:
    """sight_reach_xy() from stand a's square to stand b's."""
    return sight_reach_xy(s, s.st[a].x, s.st[a].y, s.st[b].x, s.st[b].y)

cdef inline bint at_square(const MaState *s, int g, int x, int y) noexcept nogil:
    """Slot g's square is (x, y), whatever stands there. The scans over the 32
    slots below test it first: it fails for nearly every slot, in one branch
    (speed: these scans were most of a random playout's time)."""
    return ((<int>s.st[g].x ^ x) | (<int>s.st[g].y ^ y)) == 0

cdef int wrecks_at(const MaState *s, int x, int y) noexcept nogil:
    cdef int g, n = 0
    for g in range(NSLOT):
        if at_square(s, g, x, y) and s.st[g].type != NONE and (s.st[g].flags & F_WRECK):
            n += 1
    return n

cdef int occupant(const MaState *s, int x, int y, int skip) noexcept nogil:
    """The lowest slot but skip of a live stand on (x, y) that is not cargo, or -1."""
    cdef int g
    for g in range(NSLOT):
        if at_square(s, g, x, y) and g != skip and alive(s, g) and s.carrier[g] == NONE:
            return g
    return -1

cdef uint32_t wreck_slots(const MaState *s) noexcept nogil:
    """Bit g: slot g holds a wreck (what wrecks_in_way() looks for)."""
    cdef uint32_t m = 0
    cdef int g
    for g in range(NSLOT):
        if s.st[g].type != NONE and (s.st[g].flags & F_WRECK):
            m |= <uint32_t>1 << g
    return m

cdef uint32_t standing_in(const MaState *s, int x0, int y0, int x1, int y1) noexcept nogil:
    """Bit g: slot g holds a live stand that is not cargo (one occupant() may
    name) on a square of the box x0..x1, y0..y1. A caller asking occupant() of
    many squares in one box scans the 32 slots once (occupant_of)."""
    cdef uint32_t m = 0
    cdef int g
    for g in range(NSLOT):
        if (x0 <= s.st[g].x <= x1 and y0 <= s.st[g].y <= y1 and alive(s, g)
                and s.carrier[g] == NONE):
            m |= <uint32_t>1 << g
    return m

cdef inline int occupant_of(const MaState *s, uint32_t near, int x, int y, int skip) noexcept nogil:
    """occupant(s, x, y, skip) when near is standing_in() of a box holding (x, y):
    the same slot (the lowest), looked for among near's only."""
    cdef int g
    while near:
        g = __builtin_ctz(near)
        if g != skip and at_square(s, g, x, y):
            return g
        near &= near - 1
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
    return move_cost_in(s, g, x, y, ALL_SLOTS)

cdef inline int move_cost_in(const MaState *s, int g, int x, int y, uint32_t wm) noexcept nogil:
    """move_cost(), with wm a superset of the slots holding wrecks (wreck_slots(),
    found once by a caller costing many squares; ALL_SLOTS if not known)."""
    return ground_cost(s, dry_move_cost(s, g, x, y, wm))      # deep snow (_weather.pxi)

cdef int dry_move_cost(const MaState *s, int g, int x, int y, uint32_t wm) noexcept nogil:
    """move_cost_in() before the ground's changes. Wire and ditches there make it
    dearer or impassable (_obstacles.pxi)."""
    return obstacle_cost(s, x, y, TY_CLASS[s.st[g].type], terrain_move_cost(s, g, x, y, wm))

cdef int terrain_move_cost(const MaState *s, int g, int x, int y, uint32_t wm) noexcept nogil:
    """Half-MP to enter (x, y) for stand g by its terrain and wrecks; 0 if impassable."""
    cdef int c = TY_CLASS[s.st[g].type], tr = ter(s, x, y), base = type_square_cost(s, g, x, y), w, wc, under
    if base == 0:
        return 0
    w = wrecks_in_way(s, x, y, wm)      # cleared road wrecks let the road rate resume (_obstacles.pxi)
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
    return blocks_near(s, x, y, target_personnel, standing_in(s, x, y, x, y))

cdef inline bint square_blocks_los(const MaState *s, int x, int y) noexcept nogil:
    """The square's own part of blocks() (blocks_near and the memo both ask it)."""
    if square_blocks(s, x, y):
        return 1
    return marker_at(s, x, y)          # impact and smoke markers block LOS (_artillery.pxi)

cdef inline bint stand_blocks(const MaState *s, int g, bint target_personnel) noexcept nogil:
    """The stands' part of blocks(): g, the square's occupant (occupant()), blocks
    a line to a target (personnel or not). blocks_near and the memo both ask it."""
    if is_hidden(s, g) or off_table(s, g):
        return 0                        # an unspotted marker (_spotting.pxi), a stand not entered yet: nothing
    return TY_DEF[s.st[g].type] != D_PERSONNEL or target_personnel

cdef bint blocks_near(const MaState *s, int x, int y, bint target_personnel, uint32_t near) noexcept nogil:
    """blocks(), with near a standing_in() mask of a box holding (x, y), or ALL_SLOTS.
    A new way to block LOS goes in square_blocks_los or stand_blocks, so that
    the memo below says the same."""
    cdef int g
    if square_blocks_los(s, x, y):
        return 1
    if near == 0:
        return 0
    g = occupant(s, x, y, -1) if near == ALL_SLOTS else occupant_of(s, near, x, y, -1)
    return g >= 0 and stand_blocks(s, g, target_personnel)

# A memo of blocks() over one position, for a caller tracing many lines (the
# fire legal-move lists, opportunity fire): each square's answer is found once,
# not once per line through it (speed). It lives on that caller's stack, so the
# state stays as it is; it is filled as lines are traced (ready 0: empty).
cdef enum:
    LM_KNOWN = 1            # the square's own part (terrain, smoke, markers) is known
    LM_SQUARE = 2           # ... and it blocks
    LM_HELD = 4             # the square's occupant (lowest slot, as occupant()) is recorded
    LM_BLOCK_PERS = 8       # that occupant blocks LOS to a personnel target (stand_blocks)
    LM_BLOCK_ALL = 16       # ... and to any other target

ctypedef struct LosMemo:
    int ready
    uint8_t sq[HMAX * WMAX]     # LM_* bits of square (x, y) at y * WMAX + x

cdef void los_memo_fill(const MaState *s, LosMemo *m) noexcept nogil:
    """The occupants' part of every square: the lowest slot standing there decides."""
    cdef int g, i
    cdef uint8_t v
    memset(m.sq, 0, sizeof(m.sq))
    for g in range(NSLOT):
        if alive(s, g) and s.carrier[g] == NONE and s.st[g].x < WMAX and s.st[g].y < HMAX:
            i = s.st[g].y * WMAX + s.st[g].x
            if m.sq[i] & LM_HELD:
                continue
            v = LM_HELD
            if stand_blocks(s, g, 1):
                v |= LM_BLOCK_PERS
            if stand_blocks(s, g, 0):
                v |= LM_BLOCK_ALL
            m.sq[i] |= v
    m.ready = 1

cdef inline bint blocks_memo(const MaState *s, LosMemo *m, int x, int y, bint pers) noexcept nogil:
    """blocks(s, x, y, pers) through the memo."""
    cdef int i = y * WMAX + x
    cdef uint8_t v = m.sq[i]
    if not (v & LM_KNOWN):
        v |= LM_KNOWN
        if square_blocks_los(s, x, y):
            v |= LM_SQUARE
        m.sq[i] = v
    return (v & (LM_SQUARE | (LM_BLOCK_PERS if pers else LM_BLOCK_ALL))) != 0

cdef inline bint has_los(const MaState *s, int a, int b) noexcept nogil:
    return has_los_memo(s, a, b, NULL)

cdef inline bint has_los_memo(const MaState *s, int a, int b, LosMemo *memo) noexcept nogil:
    """has_los(), through memo if it is not NULL."""
    return los_walk(s, s.st[a].x, s.st[a].y, s.st[b].x, s.st[b].y, TY_DEF[s.st[b].type] == D_PERSONNEL, NULL, memo)

cdef inline bint los_from(const MaState *s, int a, int b, bint pers) noexcept nogil:
    return has_los_xy(s, s.st[a].x, s.st[a].y, s.st[b].x, s.st[b].y, pers, NULL)

cdef inline bint blocks_at(const MaState *s, int x, int y, bint pers, const uint8_t *grid, uint32_t near,
                           LosMemo *memo) noexcept nogil:
    """blocks(), or a precomputed grid of it (grid[y * WMAX + x]) when many
    lines are traced over one position (artillery plots), or the memo's."""
    if grid != NULL:
        return grid[y * WMAX + x]
    if memo != NULL:
        return blocks_memo(s, memo, x, y, pers)
    return blocks_near(s, x, y, pers, near)

cdef bint has_los_xy(const MaState *s, int x, int y, int tx, int ty, bint pers, const uint8_t *grid) noexcept nogil:
    return los_walk(s, x, y, tx, ty, pers, grid, NULL)

cdef bint los_walk(const MaState *s, int x, int y, int tx, int ty, bint pers, const uint8_t *grid,
                   LosMemo *memo) noexcept nogil:
    """Centre to centre over squares: every square strictly between blocks or
    not; where the line runs exactly through a corner both squares beside it
    count and either blocks (ambiguous LOS favours the defender). pers: the
    target is personnel (personnel stands block LOS only to personnel). What
    blocks comes from grid if given, else from memo if given, else blocks()."""
    # one copy of the walk for each source of blocking, each without the tests
    # of the other two on every square (speed: most lines of a random playout
    # go through the memo, the artillery plot lists' through a grid)
    if grid != NULL:
        return los_walk_in(s, x, y, tx, ty, pers, grid, NULL)
    if memo != NULL:
        return los_walk_in(s, x, y, tx, ty, pers, NULL, memo)
    return los_walk_in(s, x, y, tx, ty, pers, NULL, NULL)

cdef inline bint los_walk_in(const MaState *s, int x, int y, int tx, int ty, bint pers, const uint8_t *grid,
                             LosMemo *memo) noexcept nogil:
    """los_walk(); lhs and rhs, (1 + 2 * ix) * ny and (1 + 2 * iy) * nx, kept as running sums."""
    cdef int nx = iabs(tx - x), ny = iabs(ty - y)
    cdef int sx = 1 if tx > x else -1, sy = 1 if ty > y else -1
    cdef int ix = 0, iy = 0, lhs = ny, rhs = nx
    cdef uint32_t near = ALL_SLOTS
    if grid == NULL and nx + ny > 1:
        if memo != NULL:
            if not memo.ready:
                los_memo_fill(s, memo)
        elif nx > 2 or ny > 2:
            # every square the line looks at lies in the box of its two ends: on a
            # longer line the stands there are found once, not once per square (speed)
            near = standing_in(s, x if x < tx else tx, y if y < ty else ty, x if x > tx else tx, y if y > ty else ty)
    while ix < nx or iy < ny:
        if lhs == rhs:
            if blocks_at(s, x + sx, y, pers, grid, near, memo) or blocks_at(s, x, y + sy, pers, grid, near, memo):
                return 0
            x += sx
            y += sy
            ix += 1
            iy += 1
            lhs += 2 * ny
            rhs += 2 * nx
        elif lhs < rhs:
            x += sx
            ix += 1
            lhs += 2 * ny
        else:
            y += sy
            iy += 1
            rhs += 2 * nx
        if x == tx and y == ty:
            return 1
        if blocks_at(s, x, y, pers, grid, near, memo):
            return 0
    return 1
