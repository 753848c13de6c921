# Micro Armour engine: airstrikes, the outside view (RULES.md "Airstrikes",
# "Hidden information", "Evaluation", "Notation"): what a player sees of the
# opponent's bomb plots, what the evaluation makes of strikes and plots, the
# airstrike notation and the validation of the airstrike fields. The rules
# themselves are in _air.pxi. Included by _engine.pyx (one module, split by concern).

# ----------------------------------------------------------------- hook: hidden information
cdef void air_observe(MaState *v, int player) noexcept nogil:
    """The opponent's plots (and whether they plotted at all) are hidden until
    the bomb falls: every plot decision of theirs reads PLOT_HIDDEN."""
    cdef int a
    for a in range(NAIR):
        if a < AIR_N[v.scn] and AIR_SIDE[v.scn][a] != player and v.plot_turn[a] != 0:
            v.plot_x[a] = PLOT_HIDDEN
            v.plot_y[a] = PLOT_HIDDEN

cdef void air_determinize(MaState *s, int player, ard_rng *rng) noexcept nogil:
    """A hidden plot becomes none or the block centre over one of the
    viewer's live stands, all equally likely."""
    cdef int a, g, n, k, b
    cdef int blocks[17]
    for a in range(NAIR):
        if s.plot_x[a] != PLOT_HIDDEN:
            continue
        n = 0
        for g in range(player * 16, player * 16 + 16):
            if alive(s, g):
                b = (s.st[g].y // 3) * BLOCK_W + s.st[g].x // 3
                if block_ok(s, b):
                    blocks[n] = b
                    n += 1
        k = <int>ard_rng_below(rng, n + 1)
        if k == n:
            s.plot_x[a] = PLOT_NONE
            s.plot_y[a] = PLOT_NONE
        else:
            s.plot_x[a] = 1 + 3 * (blocks[k] % BLOCK_W)
            s.plot_y[a] = 1 + 3 * (blocks[k] // BLOCK_W)

cdef inline int air_visible(const MaState *s, int player) noexcept nogil:
    """A plot decision is seen only by the aircraft's owner."""
    return 1 if s.air_step != AS_PLOT or air_side(s, s.air_cur) == player else 0


# ----------------------------------------------------------------- hook: evaluation
cdef double strike_value(const MaState *s, int player) noexcept nogil:
    """The strike being resolved, seen before its rolls: the chance it lands
    on its point (to attack, to deviate; a deviated strike counts nothing,
    its landing square unknown) times the expected CRT damage to each stand
    under it, counted as in pending_attack_value (own losses negative)."""
    cdef int k, g, r = BOMB_R if s.air_kind == 1 else 0, w = 2 * r + 1, m, p = air_side(s, s.air_cur)
    cdef double land = 0.0, v = 0.0, q, crt[5], dist[13]
    if s.air_step < AS_AA or s.air_step > AS_CRT or s.air_step == AS_DIR or s.air_step == AS_DIST:
        return 0.0
    if s.air_step == AS_AA:
        aa_distribution(s, dist)
        for m in range(13):
            q = p_pass(s.coh[p], m)
            land += dist[m] * q * q
    elif s.air_step == AS_ATTACK:
        q = p_pass(s.coh[p], s.air_mod)
        land = q * q
    elif s.air_step == AS_DEVIATE:
        land = p_pass(s.coh[p], s.air_mod)
    else:
        land = 1.0
    for k in range(s.air_sq if s.air_step == AS_CRT else 0, w * w):
        g = air_target_at(s, k)
        if g < 0:
            continue
        air_crt_probs(s, g, crt)
        q = land * stand_value(s, g) * (crt[4] + 0.6 * crt[3] + 0.3 * crt[2] + 0.15 * crt[1])
        v += -q if side_of(g) == player else q
    return v

cdef double air_threat(const MaState *s, int player) noexcept nogil:
    """Incoming bombs, seen before they fall: for every known plot still to be
    flown (and a strike being resolved), the expected value lost by the stands
    under its pattern, counted for the side that loses them (own bombs on own
    stands count against the owner)."""
    cdef int a, dx, dy, g, x, y
    cdef double v = 0.0, w
    for a in range(NAIR):
        if s.plot_turn[a] < s.turn or s.plot_x[a] >= PLOT_HIDDEN or not air_bomb_turn(s, a, s.plot_turn[a]):
            continue
        for dy in range(-BOMB_R, BOMB_R + 1):
            for dx in range(-BOMB_R, BOMB_R + 1):
                x = s.plot_x[a] + dx
                y = s.plot_y[a] + dy
                if not on_map(s, x, y):
                    continue
                g = occupant(s, x, y, -1)
                if g < 0:
                    continue
                w = 0.25 * stand_value(s, g)
                v += -w if side_of(g) == player else w
    if s.air_step:
        v += strike_value(s, player)
    return v


# ----------------------------------------------------------------- hook: validation
cdef int air_validate(const MaState *s, char *msg, int msglen) noexcept nogil:
    cdef int a, t
    for a in range(NAIR):
        if a >= AIR_N[s.scn]:
            if s.ordnance[a] or s.plot_turn[a] or s.plot_x[a] != PLOT_NONE or s.plot_y[a] != PLOT_NONE:
                return fail(msg, msglen, b"an aircraft slot the scenario does not use holds ordnance or a plot")
            continue
        if s.ordnance[a] > AIR_ORD[s.scn][a]:
            return fail(msg, msglen, b"an aircraft holds more ordnance than its load")
        if s.plot_turn[a] == 0:
            if s.plot_x[a] != PLOT_NONE or s.plot_y[a] != PLOT_NONE:
                return fail(msg, msglen, b"a bomb point without a plot turn")
        else:
            if s.plot_turn[a] < s.turn or s.plot_turn[a] > s.turns:
                return fail(msg, msglen, b"a bomb plot for a turn already past or after the last")
            if s.plot_x[a] == PLOT_HIDDEN or s.plot_y[a] == PLOT_HIDDEN:
                if s.plot_x[a] != s.plot_y[a] or s.viewer < 0 or s.viewer == AIR_SIDE[s.scn][a]:
                    return fail(msg, msglen, b"a hidden bomb plot outside the opponent's view")
            elif s.plot_x[a] != PLOT_NONE or s.plot_y[a] != PLOT_NONE:
                if s.plot_x[a] >= SC_W[s.scn] or s.plot_y[a] >= SC_H[s.scn]:
                    return fail(msg, msglen, b"a bomb plot off the table")
    if s.air_fasc >> AIR_N[s.scn]:
        return fail(msg, msglen, b"a FASC mark for an aircraft the scenario does not have")
    if s.air_step == AS_NONE:
        if s.air_cur or s.air_kind or s.air_x or s.air_y or s.air_mod or s.air_dir or s.air_sq or s.air_fasc:
            return fail(msg, msglen, b"airstrike bookkeeping set outside an airstrike")
        return 0
    if s.air_step > AS_BLDG or s.air_cur >= AIR_N[s.scn]:
        return fail(msg, msglen, b"airstrike step or aircraft out of range")
    if ((s.phase != (PH_PLOT if s.air_step == AS_PLOT else PH_FIRE) and s.phase != PH_OVER)
            or s.atk_step != S_NONE or s.mover != NONE):
        return fail(msg, msglen, b"an airstrike outside the air strike or joint plot phase")
    if s.air_step == AS_PLOT:
        if not air_can_plot(s, s.air_cur):
            return fail(msg, msglen, b"a bomb plot asked for an aircraft that cannot plot")
        return 0
    if not air_present(s, s.air_cur, s.turn):
        return fail(msg, msglen, b"an airstrike by an aircraft not present this turn")
    if s.air_kind > 1 or s.air_mod > 12 or s.air_dir > 7 or s.air_x >= SC_W[s.scn] or s.air_y >= SC_H[s.scn]:
        return fail(msg, msglen, b"airstrike kind, modifier, direction or point out of range")
    if s.air_step == AS_CRT:
        t = 2 * BOMB_R + 1 if s.air_kind == 1 else 1
        if s.air_sq >= t * t or air_target_at(s, s.air_sq) < 0:
            return fail(msg, msglen, b"an airstrike CRT roll with no stand under it")
    elif s.air_step == AS_BLDG:
        if (s.air_kind != 1 or s.air_sq >= (2 * BOMB_R + 1) * (2 * BOMB_R + 1) or s.bld_area == NONE
                or not on_map(s, <int>s.air_x - BOMB_R + s.air_sq % (2 * BOMB_R + 1),
                              <int>s.air_y - BOMB_R + s.air_sq // (2 * BOMB_R + 1))
                or not roll_square_ok(s, <int>s.air_x - BOMB_R + s.air_sq % (2 * BOMB_R + 1),
                                      <int>s.air_y - BOMB_R + s.air_sq // (2 * BOMB_R + 1))):
            return fail(msg, msglen, b"a bomb's building roll with no building area under its pattern square")
    elif s.air_sq:
        return fail(msg, msglen, b"an airstrike pattern square outside its CRT rolls")
    return 0


# ----------------------------------------------------------------- hook: notation
cdef int air_to_string(const MaState *s, ard_action a, char *tmp, int p) noexcept nogil:
    """strafe <stand>, bomb x,y, plot x,y, aa:<m>, dir:<compass>, dist:<inches>."""
    cdef int n, b
    if a < A_BOMB:
        n = put_text(tmp, 0, b"strafe ")
        return put_text(tmp, n, name_of(s, (1 - p) * 16 + a - A_STRAFE))
    if a < A_PLOT:
        n = put_text(tmp, 0, b"bomb ")
        n = put_int(tmp, n, (a - A_BOMB) % WMAX)
        n = put_text(tmp, n, b",")
        return put_int(tmp, n, (a - A_BOMB) // WMAX)
    if a < A_AA:
        b = a - A_PLOT
        n = put_text(tmp, 0, b"plot ")
        n = put_int(tmp, n, 1 + 3 * (b % BLOCK_W))
        n = put_text(tmp, n, b",")
        return put_int(tmp, n, 1 + 3 * (b // BLOCK_W))
    if a < A_DIR:
        n = put_text(tmp, 0, b"aa:")
        return put_int(tmp, n, a - A_AA)
    if a < A_DIST:
        n = put_text(tmp, 0, b"dir:")
        return put_text(tmp, n, DIR_NAMES[a - A_DIR])
    n = put_text(tmp, 0, b"dist:")
    return put_int(tmp, n, a - A_DIST + 1)

cdef int parse_num(const char *t, int n, int *out) noexcept nogil:
    """A decimal number of 1..2 digits filling t[0..n)."""
    cdef int i, v = 0
    if n < 1 or n > 2:
        return 0
    for i in range(n):
        if t[i] < c'0' or t[i] > c'9':
            return 0
        v = v * 10 + t[i] - c'0'
    out[0] = v
    return 1

cdef int parse_xy(const char *t, int n, int *x, int *y) noexcept nogil:
    cdef int c = 0
    while c < n and t[c] != c',':
        c += 1
    if c >= n:
        return 0
    return parse_num(t, c, x) and parse_num(t + c + 1, n - c - 1, y)

cdef ard_action air_from_string(const MaState *s, const char *t, int n, int p) noexcept nogil:
    """The airstrike notation, -1 for a malformed one, -2 for text that is not airstrike notation."""
    cdef int v, x, y, g
    if n > 3 and word_is(t, 3, b"aa:"):
        return A_AA + v if parse_num(t + 3, n - 3, &v) and v <= 12 else -1
    if n > 5 and word_is(t, 5, b"dist:"):
        return A_DIST + v - 1 if parse_num(t + 5, n - 5, &v) and 1 <= v <= 6 else -1
    if n > 4 and word_is(t, 4, b"dir:"):
        v = find_dir(t + 4, n - 4)
        return A_DIR + v if v >= 0 else -1
    if n > 7 and word_is(t, 7, b"strafe "):
        g = find_name(s, t + 7, n - 7)
        return A_STRAFE + (g & 15) if g >= 0 and side_of(g) != p else -1
    if n > 5 and word_is(t, 5, b"bomb "):
        if not parse_xy(t + 5, n - 5, &x, &y) or x >= WMAX or y >= HMAX:
            return -1
        return A_BOMB + y * WMAX + x
    if n > 5 and word_is(t, 5, b"plot "):
        if not parse_xy(t + 5, n - 5, &x, &y) or x % 3 != 1 or y % 3 != 1 or x >= WMAX or y >= HMAX:
            return -1
        return A_PLOT + (y // 3) * BLOCK_W + x // 3
    return -2
