# Micro Armour engine: paratroop drops (RULES.md "Paratroops"; digest, Airborne
# landings): a scenario's landing group waits off the table, its drop zone is
# plotted secretly in the Joint Plot phase of the turn before (like a bomb point,
# _air.pxi), and at the start of its drop turn each stand rolls 'if it arrives'
# (1D20 + modifier, removed on 20+), 'where' (a cohesion roll picks the scatter
# die, 1D8 direction as in _deviation.pxi) and 'how safely' (a landing cohesion roll).
# Included by _engine.pyx after _air.pxi; the rest of the engine calls in through the
# hooks marked "hook" (the view side is in _drop_view.pxi). Gliders (the glider tables'
# scatter dice, the roll forward after landing) and the lost paratroop HQ's replacement
# delay are here too (RULES.md "Paratroops", Gliders and The paratroop HQ).

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
    # gliders
    DS_ROLL = 9         # chance: a landed glider rolls forward 1D8/2 inches, an inch at a time (A_GLIDE + inches)

cdef enum:
    N_DROP_PLOT = 53    # node: the landing group's owner plots its drop zone (hidden from the opponent)
    N_DROP = 54         # node: a paratroop landing chance event
    # the paratroop HQ delay
    N_HQDELAY = 55      # chance: the turns (1D8/2) before a lost paratroop HQ's post may be filled
    JUMP_ON_TARGET = 0  # the jump conditions' distance dice (digest: "1D8/2 'On Target' up to 4D6 'Hot Combat Jump'")
    JUMP_HOT = 1
    JUMP_GLIDER = 2     # glider tables (digest: "glider tables up to 2D8+4 'SNAFU'"): design, a failed roll 2D8
    JUMP_SNAFU = 3      # 'SNAFU': 2D8+4, the digest's largest glider die
    NJUMP = 4
    DROP_NIGHT_MOD = 2  # design: a night drop adds 2 to the arrival roll (the digest names night, not how much)
    MAX_SCATTER = 24    # 4D6
    HQD_ROLL = 5        # hqd_left: the delay roll is due (1..4: turns left, 0: nothing held back)

# per scenario: the landing group (scenarios/*.toml [[drop]]; at most one per scenario)
cdef uint32_t SC_DROP[MAXSCN]                # bit g: slot g belongs to the landing group
cdef uint8_t DROP_SIDE[MAXSCN]
cdef uint8_t DROP_TURN[MAXSCN]               # 0: no drop in this scenario
cdef uint8_t DROP_JUMP[MAXSCN]               # JUMP_* (the file's; the `jump` parameter may replace it: s.drop_jump)
cdef uint8_t DROP_HQ[MAXSCN]                 # the landing group's HQ stand (at most one), NONE if none
cdef uint8_t DROP_MOD[MAXSCN]                # wind, AA and aircraft type, added to the arrival roll
cdef uint8_t DROP_OK[MAXSCN][BLOCK_W * 10]   # 1: the block centre is clear terrain on the map (a legal drop zone)
cdef double SCATTER_PR[NJUMP][MAX_SCATTER + 1]   # by JUMP_*: P(distance = inches)


cdef int CLEAR_T = 0                         # the terrain index of clear (charts.toml [terrain.clear])


cdef void install_drop_charts(object charts):
    """The distance dice as exact distributions: ceil(1D8 / 2), 4D6, 2D8 and 2D8 + 4."""
    global CLEAR_T
    cdef int a, b, c, d
    CLEAR_T = [t["name"] for t in charts["terrain"]].index("clear")
    for a in range(MAX_SCATTER + 1):
        for b in range(NJUMP):
            SCATTER_PR[b][a] = 0.0
    for a in range(1, 9):                # counts first, one division each (exact to the last bit)
        SCATTER_PR[JUMP_ON_TARGET][(a + 1) // 2] += 1.0
    for a in range(1, 7):
        for b in range(1, 7):
            for c in range(1, 7):
                for d in range(1, 7):
                    SCATTER_PR[JUMP_HOT][a + b + c + d] += 1.0
    for a in range(1, 9):
        for b in range(1, 9):
            SCATTER_PR[JUMP_GLIDER][a + b] += 1.0
            SCATTER_PR[JUMP_SNAFU][a + b + 4] += 1.0
    for a in range(MAX_SCATTER + 1):
        SCATTER_PR[JUMP_ON_TARGET][a] /= 8.0
        SCATTER_PR[JUMP_HOT][a] /= 1296.0
        SCATTER_PR[JUMP_GLIDER][a] /= 64.0
        SCATTER_PR[JUMP_SNAFU][a] /= 64.0


cdef void install_drop(int k, object sc):
    cdef int b, x, y
    SC_DROP[k] = 0
    DROP_SIDE[k] = DROP_TURN[k] = DROP_JUMP[k] = DROP_MOD[k] = 0
    DROP_HQ[k] = NONE
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
        if TY_ROLE[SC_START[k][dr["side"] * 16 + l].type] == 1:
            DROP_HQ[k] = dr["side"] * 16 + l     # the loader allows one HQ in the group
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

cdef inline bint drop_glider(const MaState *s) noexcept nogil:
    """The landing group comes by glider (the glider tables' jump conditions)."""
    return s.drop_jump >= JUMP_GLIDER

cdef inline bint drop_can_land(const MaState *s, int g, int x, int y) noexcept nogil:
    """A square the stand may come down on: on the table, free of live stands, passable to it."""
    return on_map(s, x, y) and occupant(s, x, y, g) < 0 and move_cost(s, g, x, y) > 0


# ----------------------------------------------------------------- hooks: the flow
cdef void drop_init(MaState *s, const MaParams *prm) noexcept nogil:
    """hook (ma_init): the landing group waits off the table, not yet alive (an HQ among
    them holds its post from its landing); its jump conditions: the parameter's or the file's."""
    cdef int g
    s.drop_jump = 0
    if DROP_TURN[s.scn]:
        s.drop_jump = prm.jump if prm.jump < NJUMP else DROP_JUMP[s.scn]
    s.hqd_left = 0
    s.drop_wait = SC_DROP[s.scn] if DROP_TURN[s.scn] <= s.turns else 0
    s.drop_x = PLOT_NONE
    s.drop_y = PLOT_NONE
    s.drop_step = DS_NONE
    s.drop_cur = NONE
    s.drop_dir = 0
    s.drop_reserved = 0
    for g in range(NSLOT):
        if (SC_DROP[s.scn] >> g) & 1:
            s.st[g].flags = 0            # in the aircraft (a game shorter than the drop never sees them)
            s.hq_mask &= ~(<uint32_t>1 << g)

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

cdef void drop_lost(MaState *s, int g) noexcept nogil:
    """Stand g of the group never lands (removed on its arrival roll, or no room on the table).
    Design: the group's HQ so lost is a lost paratroop HQ (its post is empty, its delay rolled)."""
    s.drop_wait &= ~(<uint32_t>1 << g)
    if g == DROP_HQ[s.scn]:
        s.hq_lost[side_of(g)] += 1
        s.hqd_left = HQD_ROLL
    drop_next(s)

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
            s.drop_step = DS_NONE
            drop_lost(s, g)
            return
    s.st[g].x = bx
    s.st[g].y = by
    s.st[g].facing = SC_START[s.scn][g].facing
    s.st[g].posture = P_FIRING
    s.st[g].flags = F_ALIVE
    if g == DROP_HQ[s.scn]:
        s.hq_mask |= <uint32_t>1 << g    # the paratroop HQ takes its post as it lands
    s.drop_wait &= ~(<uint32_t>1 << g)
    s.drop_step = DS_ROLL if drop_glider(s) else DS_LAND

cdef inline void land_failed(MaState *s, int g) noexcept nogil:
    """design: a bad landing in clear is S, elsewhere D (the rougher the ground the worse)."""
    s.st[g].flags |= F_S if ter(s, s.st[g].x, s.st[g].y) == CLEAR_T else F_D

cdef inline int glide_dx(const MaState *s) noexcept nogil:
    """Design: a glider flies in from its side's friendly edge toward the enemy's."""
    return 1 if SC_EDGE[s.scn][drop_side(s)] == 0 else -1

cdef inline bint glide_ok(const MaState *s, int g, int x, int y) noexcept nogil:
    """A square a rolling glider may enter: on the table, open ground (clear, or a road
    whose underlying terrain is clear: design, a road across a field stops no glider),
    passable, no live stand."""
    return on_map(s, x, y) and T_UNDER[ter(s, x, y)] == CLEAR_T and move_cost(s, g, x, y) > 0 and occupant(s, x, y, g) < 0

cdef void drop_glide(MaState *s, int g, int inches) noexcept nogil:
    """'Gliders also roll forward 1" at a time': an inch at a time toward the enemy's edge;
    a square it may not enter stops it in the square before, crashed (design: a failed
    landing, no roll); a full run goes on to the landing roll."""
    cdef int i, dx = glide_dx(s)
    for i in range(inches):
        if not glide_ok(s, g, s.st[g].x + dx, s.st[g].y):
            land_failed(s, g)
            drop_next(s)
            return
        s.st[g].x += dx
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
    if s.drop_step == DS_ROLL:           # design: the 'On Target' die, 1D8/2, the game's short distance
        for i in range(1, 5):
            a[n] = A_GLIDE + i
            pr[n] = SCATTER_PR[JUMP_ON_TARGET][i]
            n += 1
        return n
    j = JUMP_ON_TARGET if s.drop_step == DS_DIST_OT else s.drop_jump % NJUMP
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
            drop_lost(s, g)
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
    elif s.drop_step == DS_ROLL:
        drop_glide(s, g, action - A_GLIDE)
    elif s.drop_step == DS_LAND:
        if action == A_FAIL:
            land_failed(s, g)
        drop_next(s)


# ----------------------------------------------------------------- the paratroop HQ delay
# Digest: "lost paratroop HQs take 1D8/2 turns to replace". The group's HQ lost while it
# holds its post (or never landing) holds that post back: the delay is rolled in the next
# marker removal phase, before the command rolls (design: nothing before it depends on the
# roll, and one place in the flow serves every way of being lost), and counts down at each
# turn's end; at 0 the post is filled as any other (hq_replacement_possible, _command.pxi).
cdef inline void hq_delay_start(MaState *s, int g) noexcept nogil:
    """hook (command_lost): g, lost, held an HQ post."""
    if g == DROP_HQ[s.scn]:
        s.hqd_left = HQD_ROLL

cdef inline int hq_posts_held(const MaState *s, int p) noexcept nogil:
    """p's lost HQ posts that may not be filled yet (the paratroop HQ's, during its delay)."""
    return 1 if s.hqd_left and DROP_TURN[s.scn] and p == drop_side(s) else 0

cdef inline bint hq_delay_due(const MaState *s) noexcept nogil:
    return s.hqd_left == HQD_ROLL

cdef void hq_delay_turn_end(MaState *s) noexcept nogil:
    """hook (end_of_turn): one turn of the delay has passed."""
    if 0 < s.hqd_left < HQD_ROLL:
        s.hqd_left -= 1

cdef int hq_delay_outcomes(ard_action *a, double *pr) noexcept nogil:
    cdef int i
    for i in range(1, 5):
        a[i - 1] = A_HQDELAY + i
        pr[i - 1] = SCATTER_PR[JUMP_ON_TARGET][i]      # 1D8/2
    return 4

cdef void hq_delay_apply(MaState *s, ard_action action) noexcept nogil:
    s.hqd_left = action - A_HQDELAY
