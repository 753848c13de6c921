# Micro Armour engine: paratroop drops (RULES.md "Paratroops"; digest, Airborne
# landings): a scenario's landing group waits off the table, its drop zone is
# plotted secretly in the Joint Plot phase of the turn before (like a bomb point,
# _air.pxi), and at the start of its drop turn each stand rolls 'if it arrives'
# (1D20 + modifier, removed on 20+), 'where' (a cohesion roll picks the scatter
# die, 1D8 direction as in _deviation.pxi) and 'how safely' (a landing cohesion roll).
# Included by _engine.pyx after _air.pxi; the rest of the engine calls in through the
# hooks marked "hook" (the view side is in _drop_view.pxi).

cdef enum:  # drop_step: what the drop waits for
    DS_NONE = 0
    DS_PLOT = 1         # the owner, in the Joint Plot phase: plot the drop zone (a clear block centre)
    DS_ARRIVE = 2       # chance: 'if it arrives': 1D20 + modifier, removed on 20+ (A_OK arrives, A_FAIL removed)
    DS_COH = 3          # chance: the scatter cohesion roll (A_OK: the 'On Target' die, A_FAIL: the jump's die)
    DS_DIR = 4          # chance: 1D8 scatter direction (A_DIR + d)
    DS_DIST_OT = 5      # chance: the 'On Target' distance, 1D8/2 (A_SCATTER + inches)
    DS_DIST_JUMP = 6    # chance: the jump conditions' distance die (A_SCATTER + inches)
    DS_LAND = 7         # chance: 'how safely': the landing terrain cohesion roll
    DS_REVEAL = 8       # chance (public, one outcome in a full state): the drop turn opens, the zone is seen

cdef enum:
    N_DROP_PLOT = 53    # node: the landing group's owner plots its drop zone (hidden from the opponent)
    N_DROP = 54         # node: a paratroop landing chance event
    JUMP_ON_TARGET = 0  # the jump conditions' distance dice (digest: "1D8/2 'On Target' up to 4D6 'Hot Combat Jump'")
    JUMP_HOT = 1
    DROP_NIGHT_MOD = 2  # design: a night drop adds 2 to the arrival roll (the digest names night, not how much)
    MAX_SCATTER = 24    # 4D6

# per scenario: the landing group (scenarios/*.toml [[drop]]; at most one per scenario)
cdef uint32_t SC_DROP[MAXSCN]                # bit g: slot g belongs to the landing group
cdef uint8_t DROP_SIDE[MAXSCN]
cdef uint8_t DROP_TURN[MAXSCN]               # 0: no drop in this scenario
cdef uint8_t DROP_JUMP[MAXSCN]               # JUMP_*
cdef uint8_t DROP_MOD[MAXSCN]                # wind, AA and aircraft type, added to the arrival roll
cdef uint8_t DROP_OK[MAXSCN][BLOCK_W * 10]   # 1: the block centre is clear terrain on the map (a legal drop zone)
cdef double SCATTER_PR[2][MAX_SCATTER + 1]   # by JUMP_*: P(distance = inches)


cdef int CLEAR_T = 0                         # the terrain index of clear (charts.toml [terrain.clear])


cdef void install_drop_charts(object charts):
    """The two distance dice as exact distributions: ceil(1D8 / 2) and 4D6."""
    global CLEAR_T
    cdef int a, b, c, d
    CLEAR_T = [t["name"] for t in charts["terrain"]].index("clear")
    for a in range(MAX_SCATTER + 1):
        SCATTER_PR[0][a] = 0.0
        SCATTER_PR[1][a] = 0.0
    for a in range(1, 9):                # counts first, one division each (exact to the last bit)
        SCATTER_PR[JUMP_ON_TARGET][(a + 1) // 2] += 1.0
    for a in range(1, 7):
        for b in range(1, 7):
            for c in range(1, 7):
                for d in range(1, 7):
                    SCATTER_PR[JUMP_HOT][a + b + c + d] += 1.0
    for a in range(MAX_SCATTER + 1):
        SCATTER_PR[JUMP_ON_TARGET][a] /= 8.0
        SCATTER_PR[JUMP_HOT][a] /= 1296.0


cdef void install_drop(int k, object sc):
    cdef int b, x, y
    SC_DROP[k] = 0
    DROP_SIDE[k] = DROP_TURN[k] = DROP_JUMP[k] = DROP_MOD[k] = 0
    for b in range(BLOCK_W * 10):
        x = 1 + 3 * (b % BLOCK_W)
        y = 1 + 3 * (b // BLOCK_W)
        DROP_OK[k][b] = (b % BLOCK_W < (SC_W[k] + 1) // 3 and b // BLOCK_W < (SC_H[k] + 1) // 3
                         and x < SC_W[k] and y < SC_H[k] and SC_TER[k][y][x] == CLEAR_T)
    dr = sc.get("drop")
    if dr is None:
        return
    DROP_SIDE[k] = dr["side"]
    DROP_TURN[k] = dr["turn"]
    DROP_JUMP[k] = dr["jump"]
    DROP_MOD[k] = dr["modifier"]
    for l in dr["stands"]:
        SC_DROP[k] |= <uint32_t>1 << (dr["side"] * 16 + l)
    SC_ENTRY[k] &= ~SC_DROP[k]           # the landing group never enters from the table edge


# ----------------------------------------------------------------- helpers
cdef inline int drop_side(const MaState *s) noexcept nogil:
    return DROP_SIDE[s.scn]

cdef inline bint drop_ok_block(const MaState *s, int b) noexcept nogil:
    return 0 <= b < BLOCK_W * 10 and DROP_OK[s.scn][b]

cdef inline bint drop_plot_due(const MaState *s) noexcept nogil:
    """The Joint Plot phase of the turn before the drop turn, the group still waiting."""
    return s.drop_wait != 0 and s.turn + 1 == DROP_TURN[s.scn] and s.drop_x == PLOT_NONE

cdef int drop_first(const MaState *s, int start) noexcept nogil:
    cdef int g
    for g in range(start, NSLOT):
        if (s.drop_wait >> g) & 1:
            return g
    return -1

cdef inline bint drop_can_land(const MaState *s, int g, int x, int y) noexcept nogil:
    """A square the stand may come down on: on the table, free of live stands, passable to it."""
    return on_map(s, x, y) and occupant(s, x, y, g) < 0 and move_cost(s, g, x, y) > 0


# ----------------------------------------------------------------- hooks: the flow
cdef void drop_init(MaState *s) noexcept nogil:
    """hook (ma_init): the landing group waits off the table, not yet alive."""
    cdef int g
    s.drop_wait = SC_DROP[s.scn] if DROP_TURN[s.scn] <= s.turns else 0
    s.drop_x = PLOT_NONE
    s.drop_y = PLOT_NONE
    s.drop_step = DS_NONE
    s.drop_cur = NONE
    s.drop_dir = 0
    s.drop_reserved[0] = s.drop_reserved[1] = s.drop_reserved[2] = 0
    for g in range(NSLOT):
        if (SC_DROP[s.scn] >> g) & 1:
            s.st[g].flags = 0            # in the aircraft (a game shorter than the drop never sees them)

cdef void drop_turn_begin(MaState *s) noexcept nogil:
    """hook (start_turn): the drop turn opens with the landings (before initiative)."""
    if s.drop_wait == 0 or s.turn != DROP_TURN[s.scn] or s.drop_x == PLOT_NONE:
        return
    s.drop_step = DS_REVEAL              # the aircraft come over: the zone is seen by both (a view learns it here)

cdef bint drop_plot_begin(MaState *s) noexcept nogil:
    """hook (joint_plot_begin): 1 if the drop zone is to be plotted now (the bomb plots follow)."""
    if not drop_plot_due(s):
        return 0
    s.phase = PH_PLOT
    s.drop_step = DS_PLOT
    return 1

cdef void drop_next(MaState *s) noexcept nogil:
    """The current stand is done: the next waiting one, or the drop is over."""
    cdef int g = drop_first(s, s.drop_cur + 1 if s.drop_cur < NSLOT else NSLOT)
    s.drop_dir = 0
    if g >= 0:
        s.drop_cur = g
        s.drop_step = DS_ARRIVE
        return
    s.drop_cur = NONE
    s.drop_step = DS_NONE
    s.drop_x = PLOT_NONE                 # the drop zone is spent
    s.drop_y = PLOT_NONE

cdef void drop_land(MaState *s, int g, int inches) noexcept nogil:
    """The stand comes down `inches` from the drop zone along drop_dir: clamped to
    the table, then (a taken or impassable square) on the nearest free square,
    searched ring by ring, row by row from the south-west (design)."""
    cdef int x, y, r, dx, dy, bx, by
    deviate(s, s.drop_x, s.drop_y, s.drop_dir, inches, &x, &y)
    x = 0 if x < 0 else (SC_W[s.scn] - 1 if x >= SC_W[s.scn] else x)
    y = 0 if y < 0 else (SC_H[s.scn] - 1 if y >= SC_H[s.scn] else y)
    bx = x
    by = y
    if not drop_can_land(s, g, x, y):
        bx = -1
        for r in range(1, WMAX):
            for dy in range(-r, r + 1):
                for dx in range(-r, r + 1):
                    if (dx == r or dx == -r or dy == r or dy == -r) and drop_can_land(s, g, x + dx, y + dy):
                        bx = x + dx
                        by = y + dy
                        break
                if bx >= 0:
                    break
            if bx >= 0:
                break
        if bx < 0:                       # no free square on the whole table: it is lost
            s.drop_wait &= ~(<uint32_t>1 << g)
            s.drop_step = DS_NONE
            drop_next(s)
            return
    s.st[g].x = bx
    s.st[g].y = by
    s.st[g].facing = SC_START[s.scn][g].facing
    s.st[g].posture = P_FIRING
    s.st[g].flags = F_ALIVE
    s.drop_wait &= ~(<uint32_t>1 << g)
    s.drop_step = DS_LAND


# ----------------------------------------------------------------- hooks: legal, chance, apply
cdef int drop_legal(const MaState *s, ard_action *out) noexcept nogil:
    """The drop zone: the centre of any 3" block that is clear terrain (digest: 'Drop and
    landing zones are secretly plotted in clear terrain'); no pass."""
    cdef int b, n = 0
    for b in range(BLOCK_W * 10):
        if DROP_OK[s.scn][b]:
            out[n] = A_DROP_PLOT + b
            n += 1
    return n

cdef inline int drop_arrive_mod(const MaState *s) noexcept nogil:
    return DROP_MOD[s.scn] + (DROP_NIGHT_MOD if s.night else 0)

cdef int drop_chance(const MaState *s, ard_action *a, double *pr) noexcept nogil:
    cdef int n = 0, i, p = drop_side(s), j
    cdef double lost
    if s.drop_step == DS_REVEAL:
        if s.drop_x < PLOT_HIDDEN:       # a full state: the plotted zone, certainly
            a[0] = A_DROP_PLOT + (s.drop_y // 3) * BLOCK_W + s.drop_x // 3
            pr[0] = 1.0
            return 1
        n = drop_legal(s, a)             # a view: any legal zone, all equally likely
        for i in range(n):
            pr[i] = 1.0 / n
        return n
    if s.drop_step == DS_ARRIVE:
        # removed on 1D20 + mod >= 20: rolls 20 - mod .. 20
        i = drop_arrive_mod(s) + 1
        lost = (20 if i > 20 else i) / 20.0
        return two_outcomes(1.0 - lost, a, pr)
    if s.drop_step == DS_COH or s.drop_step == DS_LAND:
        return two_outcomes(p_pass(coh_eff(s, p), 0), a, pr)
    if s.drop_step == DS_DIR:
        for i in range(8):
            a[i] = A_DIR + i
            pr[i] = 0.125
        return 8
    j = JUMP_ON_TARGET if s.drop_step == DS_DIST_OT else DROP_JUMP[s.scn]
    for i in range(MAX_SCATTER + 1):
        if SCATTER_PR[j][i] > 0.0:
            a[n] = A_SCATTER + i
            pr[n] = SCATTER_PR[j][i]
            n += 1
    return n

cdef void drop_apply(MaState *s, ard_action action) noexcept nogil:
    cdef int g = s.drop_cur, b
    if s.drop_step == DS_PLOT or s.drop_step == DS_REVEAL:
        if action == ARD_HIDDEN_OUTCOME:  # a view: the opponent's plot, unseen
            s.drop_x = PLOT_HIDDEN
            s.drop_y = PLOT_HIDDEN
        else:
            b = action - A_DROP_PLOT
            s.drop_x = 1 + 3 * (b % BLOCK_W)
            s.drop_y = 1 + 3 * (b // BLOCK_W)
        if s.drop_step == DS_PLOT:
            s.drop_step = DS_NONE
            joint_plot_drop_done(s)
        else:
            s.drop_cur = drop_first(s, 0)
            s.drop_step = DS_ARRIVE
        return
    if g >= NSLOT:
        return
    if s.drop_step == DS_ARRIVE:
        if action == A_FAIL:             # removed: it never reaches the battle
            s.drop_wait &= ~(<uint32_t>1 << g)
            drop_next(s)
        else:
            s.drop_step = DS_COH
    elif s.drop_step == DS_COH:
        s.drop_step = DS_DIR
        s.drop_dir = DS_DIST_OT if action == A_OK else DS_DIST_JUMP   # the die, kept until the direction
    elif s.drop_step == DS_DIR:
        s.drop_step = s.drop_dir
        s.drop_dir = action - A_DIR
    elif s.drop_step == DS_DIST_OT or s.drop_step == DS_DIST_JUMP:
        drop_land(s, g, action - A_SCATTER)
    elif s.drop_step == DS_LAND:
        if action == A_FAIL:             # design: a bad landing in clear is S, elsewhere D
            s.st[g].flags |= F_S if ter(s, s.st[g].x, s.st[g].y) == CLEAR_T else F_D
        drop_next(s)
