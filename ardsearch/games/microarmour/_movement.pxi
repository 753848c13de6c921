# Micro Armour engine: movement: costs, steps, overruns, the end of a move.
# Included by _engine.pyx (one module, split by concern).
# ----------------------------------------------------------------- movement
cdef bint can_stop_on(const MaState *s, int g, int x, int y) noexcept nogil:
    return occupant(s, x, y, g) < 0

cdef int step_cost(const MaState *s, int g, int d) noexcept nogil:
    """Half-MP the step in direction d costs, or -1 if it is not allowed."""
    return step_cost_in(s, g, d, ALL_SLOTS, ALL_SLOTS)

cdef int step_cost_in(const MaState *s, int g, int d, uint32_t near, uint32_t wm) noexcept nogil:
    """step_cost(), with near a standing_in() mask of a box holding the square
    stepped to and its neighbours, and wm a wreck_slots() mask (ALL_SLOTS for
    either: not known). The legal-move loop finds both once for its 8 steps (speed)."""
    cdef int x = s.st[g].x + DX[d], y = s.st[g].y + DY[d], c, o, e, cx, cy, left, ce
    if not on_map(s, x, y) or not broken_step_ok(s, g, d) or not mine_step_ok(s, g, x, y):
        return -1
    c = move_cost_in(s, g, x, y, wm)
    if c == 0:
        return -1
    if c > s.st[g].mp:
        if s.st[g].steps > 0 or s.st[g].mp == 0:
            return -1
        c = s.st[g].mp          # a stand allowed to move moves at least 1"
    if near == ALL_SLOTS:
        near = standing_in(s, x - 1, y - 1, x + 1, y + 1)     # (x, y) and its neighbours: one scan
    o = occupant_of(s, near, x, y, g)
    if o >= 0 and off_table(s, o):
        return -1                # _entry.pxi: a stand waiting to enter holds its entry square
    if o >= 0:
        if side_of(o) != side_of(g):
            # only a vehicle passes an enemy vehicle (after a nerve roll, from
            # a square it could halt on); other enemies block: overrun them
            if not brushes_aside(s, g, o) and not (TY_DEF[s.st[g].type] == D_ARMOUR and TY_DEF[s.st[o].type] == D_ARMOUR
                    and can_stop_on(s, g, s.st[g].x, s.st[g].y)):
                return -1
        # passing through: there must be MP left to step off again (for a broken
        # formation's stand, a step nearer its edge: a friend on that edge is no way through)
        left = s.st[g].mp - c
        for e in range(8):
            cx = x + DX[e]
            cy = y + DY[e]
            if on_map(s, cx, cy) and occupant_of(s, near, cx, cy, g) < 0:
                if side_broken(s, side_of(g)) and edge_dist(s, side_of(g), cx) >= edge_dist(s, side_of(g), x):
                    continue            # a broken stand's way off must also lead toward its edge
                ce = move_cost_in(s, g, cx, cy, wm)
                if ce > 0 and ce <= left:
                    return c
        return -1
    return c

cdef bint can_move(const MaState *s, int g) noexcept nogil:
    return (alive(s, g) and s.st[g].posture != P_FIRING and not (s.st[g].flags & F_MOVED)
            and TY_MP[s.st[g].type] > 0 and not carried(s, g) and not tr_busy(s, g)    # held for a two-turn load
            and not is_hidden(s, g))    # a marker shows itself first (_spotting.pxi)

cdef inline uint16_t adjacent_enemies(const MaState *s, int m) noexcept nogil:
    """Bit l: the enemy slot l holds a live stand at distance 1 from m (a close
    assault and an overrun both need one: can_assault, overrun_cost)."""
    cdef uint16_t a = 0
    cdef int l, q = 1 - side_of(m)
    for l in range(16):
        if alive(s, q * 16 + l) and dist(s, m, q * 16 + l) == 1:
            a |= <uint16_t>(1 << l)
    return a

cdef inline bint may_assault(const MaState *s, int m) noexcept nogil:
    """can_assault()'s tests of the mover alone: the legal-move list skips its 16
    targets when they fail (speed)."""
    return (TY_DEF[s.st[m].type] == D_PERSONNEL and not side_broken(s, side_of(m))
            and s.st[m].posture == P_MOVE and s.st[m].mp >= 2)     # "with an MP left": one MP, 2 half-MP

cdef bint can_assault(const MaState *s, int m, int t) noexcept nogil:
    """Close assault: infantry in movement posture with an MP left, ending adjacent."""
    return (may_assault(s, m) and alive(s, t) and side_of(t) != side_of(m) and not off_table(s, t) and not carried(s, t)
            and dist(s, m, t) == 1
            and can_stop_on(s, m, s.st[m].x, s.st[m].y) and combat_diff(s, m, t, K_ASSAULT) >= CRT_MIN)

cdef inline int overrun_x(const MaState *s, int m, int t) noexcept nogil:
    """The square an overrunner finishes on: over t, the next square in line."""
    return 2 * <int>s.st[t].x - <int>s.st[m].x

cdef inline int overrun_y(const MaState *s, int m, int t) noexcept nogil:
    return 2 * <int>s.st[t].y - <int>s.st[m].y

cdef inline bint may_overrun(const MaState *s, int m) noexcept nogil:
    """overrun_cost()'s cheap tests of the mover alone: the legal-move list skips
    its 16 targets when they fail (speed)."""
    return TY_DEF[s.st[m].type] == D_ARMOUR and not side_broken(s, side_of(m))

cdef int overrun_cost(const MaState *s, int m, int t) noexcept nogil:
    """MP an overrun of t costs m (passing over t's square and finishing on the square beyond
    it, adjacent to t), or -1 if not allowed: vehicles overrun non-vehicles, not into
    blocking terrain (woods, buildings), and the square beyond must be one m may end on."""
    cdef int c, ce, x = overrun_x(s, m, t), y = overrun_y(s, m, t)
    if (not may_overrun(s, m) or not alive(s, t) or side_of(t) == side_of(m) or off_table(s, t) or carried(s, t)
            or TY_DEF[s.st[t].type] == D_ARMOUR or dist(s, m, t) != 1
            or not can_stop_on(s, m, s.st[m].x, s.st[m].y) or square_blocks(s, s.st[t].x, s.st[t].y)):
        return -1
    if not on_map(s, x, y) or occupant(s, x, y, m) >= 0:
        return -1
    c = move_cost(s, m, s.st[t].x, s.st[t].y)
    ce = move_cost(s, m, x, y)
    if c == 0 or ce == 0 or s.st[m].mp == 0:
        return -1
    c += ce
    if c > s.st[m].mp:
        if s.st[m].steps > 0:
            return -1
        c = s.st[m].mp
    return c

cdef void end_move(MaState *s) noexcept nogil:
    cdef int g = s.mover
    if g != NONE and alive(s, g):
        s.st[g].flags |= F_MOVED
        s.st[g].mp = 0
    s.mover = NONE
    s.mv_sub = M_NONE
    s.mv_flags = 0
    s.mv_dir = 0
    s.of_firers = 0
    s.to_move = side_of(g) if g != NONE else s.to_move
    if group_continue(s):                # _groups.pxi: the group's next stand moves
        return
    alternate(s)

cdef void end_attempt_failed(MaState *s) noexcept nogil:
    cdef int g = s.mover
    s.mover = NONE
    s.mv_sub = M_NONE
    s.mv_flags = 0
    s.mv_dir = 0
    s.to_move = side_of(g)
    alternate(s)

cdef int move_mod(const MaState *s, int g) noexcept nogil:
    cdef int m = cohesion_mods(s, g)
    if not (s.mv_flags & 1) and not TY_RECON[s.st[g].type]:
        m += 3                   # independent move
    if is_command(s, g):
        m -= 2                   # an HQ/GHQ in the group
    m += weather_move_mod(s, g)          # +2 for dismounted personnel in extreme heat or cold (_weather.pxi)
    return m + mine_leave_mod(s, g)      # +3 to leave an enemy minefield marker (_minefields.pxi)

cdef void after_step(MaState *s) noexcept nogil:
    """Impact markers on the new square attack the mover (_artillery.pxi); then
    opportunity fire may halt it where it could end its move."""
    if move_hits_from(s, 0):
        return
    after_step_fire(s)

cdef void after_step_fire(MaState *s) noexcept nogil:
    cdef int g = s.mover, q = 1 - side_of(g)
    if (not (s.st[g].flags & F_OFSUF) and can_stop_on(s, g, s.st[g].x, s.st[g].y)
            and any_fire(s, q, g, K_OPPORTUNITY, 0)):
        s.mv_sub = M_OFASK
        s.to_move = q
