# Micro Armour engine: direct fire: who may fire, defence, the combat difference, the CRT; losses and break points.
# Included by _engine.pyx (one module, split by concern).
# ----------------------------------------------------------------- fire
cdef int octant_calc(int dx, int dy) noexcept nogil:
    """Direction 0..7 (n ne e se s sw w nw) whose 45-degree cone holds (dx, dy)."""
    cdef double ang = atan2(<double>dx, <double>dy) * 4.0 / M_PI   # 0 = north, clockwise
    cdef int o = <int>(ang + 8.5) % 8
    return o

# octant_calc() of every offset between two squares of a table, filled at import:
# fire tests ask it (armour facing, firing arcs) many times per legal-move list,
# and atan2 was a visible share of a playout's time (speed).
cdef uint8_t OCTANT[2 * HMAX - 1][2 * WMAX - 1]

cdef void install_octants() noexcept nogil:
    cdef int dx, dy
    for dy in range(1 - HMAX, HMAX):
        for dx in range(1 - WMAX, WMAX):
            OCTANT[dy + HMAX - 1][dx + WMAX - 1] = octant_calc(dx, dy)

install_octants()

cdef inline int octant(int dx, int dy) noexcept nogil:
    """octant_calc(dx, dy), from the table when (dx, dy) is an offset on it."""
    if 1 - WMAX <= dx < WMAX and 1 - HMAX <= dy < HMAX:
        return OCTANT[dy + HMAX - 1][dx + WMAX - 1]
    return octant_calc(dx, dy)

cdef inline bint close_kind(int kind) noexcept nogil:
    return kind == K_ASLDEF or kind == K_ASSAULT or kind == K_OVR_OF

cdef int defence(const MaState *s, int f, int t, int kind) noexcept nogil:
    cdef int ty = s.st[t].type, dv = TY_DV[ty], o, diff
    if TY_DEF[ty] == D_ARMOUR:
        if close_kind(kind):
            dv = (dv + 1) // 2          # close assault / overrun: armour keeps 50%
        else:
            o = octant(<int>s.st[f].x - <int>s.st[t].x, <int>s.st[f].y - <int>s.st[t].y)
            diff = (o - s.st[t].facing + 8) % 8
            if not (diff == 0 or diff == 1 or diff == 7):
                dv = (dv + 1) // 2      # side/rear: half, rounded up
    elif TY_DEF[ty] == D_PERSONNEL and (s.st[t].posture != P_FIRING or is_mounted(s, t)):
        dv = (dv + 1) // 2
    return dv

cdef inline int combat_diff(const MaState *s, int f, int t, int kind) noexcept nogil:
    cdef int use
    return firepower(s, f, t, kind, &use) - defence(s, f, t, kind)   # _weapons_extra.pxi

cdef inline bint cd_allowed(const MaState *s, int f, int t, int kind) noexcept nogil:
    """CD at least -3, or any CD for artillery ("below -3 there is no effect
    unless it is artillery")."""
    return combat_diff(s, f, t, kind) >= CRT_MIN or artillery_fire(s, f, t, kind)

cdef int tofire_mod(const MaState *s, int f, int t, int kind) noexcept nogil:
    cdef int m = cohesion_mods(s, f)
    if kind == K_ASLDEF or kind == K_ASSAULT:
        return m                        # close assault: terrain ignored
    if s.st[f].posture == P_FIREMOVE:
        m += 3
    if kind == K_COVERING:
        m += 3
    m += marker_fire_mod(s, f, t)       # smoke / impact markers (_artillery.pxi)
    if not (s.st[t].flags & F_FIRED) and dist(s, f, t) > 1:
        m += terrain_coh(s, s.st[t].x, s.st[t].y) + ip_coh(s, t)    # improved positions stack (_obstacles.pxi)
    return m + smoke_fire_mod(s, f, t)      # _buildings.pxi: burning buildings

cdef inline int crt_mod(const MaState *s, int f, int t, int kind) noexcept nogil:
    if kind == K_ASLDEF or kind == K_ASSAULT:
        return -3 - (3 if TY_ENGINEER[s.st[f].type] else 0)
    if kind == K_OVR_OF:
        return fire_range_mod(s, f, t, 0) + terrain_crt(s, s.st[t].x, s.st[t].y) + ip_crt(s, t)
    return fire_range_mod(s, f, t, dist(s, f, t)) + terrain_crt(s, s.st[t].x, s.st[t].y) + ip_crt(s, t)

cdef uint16_t touching_enemies(const MaState *s, int f) noexcept nogil:
    """Bit l: the enemy stand in slot l of its side is alive and touches f along a base edge."""
    cdef int e, q = 1 - side_of(f)
    cdef uint16_t m = 0
    for e in range(q * 16, q * 16 + 16):
        if alive(s, e) and iabs(<int>s.st[e].x - <int>s.st[f].x) + iabs(<int>s.st[e].y - <int>s.st[f].y) == 1:
            m |= <uint16_t>(1 << (e & 15))
    return m

cdef inline bint engaged_elsewhere(int touch, int t) noexcept nogil:
    """f, with touch = touching_enemies(s, f), touches enemies along a base edge
    and t (an enemy) is not one of them."""
    return touch != 0 and not ((touch >> (t & 15)) & 1)

cdef inline bint may_fire(const MaState *s, int f, int kind) noexcept nogil:
    """can_fire()'s tests of the firer alone: the legal-move loops skip a firer
    failing them before trying its 16 targets (speed)."""
    if not alive(s, f):
        return 0
    if is_mounted(s, f):
        return 0                         # _stand_types.pxi: cavalry fights dismounted
    if off_table(s, f):
        return 0                         # _entry.pxi: not on the table yet
    if carried(s, f):
        return 0                         # cargo cannot fire (_transport.pxi)
    if s.st[f].flags & F_FIRED:
        return 0
    if kind == K_OVR_OF:
        return s.st[f].posture != P_MOVE
    if kind == K_COVERING:
        return s.st[f].posture == P_FIRING
    return s.st[f].posture != P_MOVE

cdef inline bint may_be_fired_at(const MaState *s, int t) noexcept nogil:
    """can_fire()'s tests of the target alone."""
    # not on the table yet (_entry.pxi); fire at cargo hits its carrier (_transport.pxi)
    return alive(s, t) and not off_table(s, t) and not carried(s, t)

cdef uint16_t fired_at_mask(const MaState *s, int q) noexcept nogil:
    """Bit t: may_be_fired_at(s, q * 16 + t)."""
    cdef uint16_t m = 0
    cdef int t
    for t in range(16):
        if may_be_fired_at(s, q * 16 + t):
            m |= <uint16_t>(1 << t)
    return m

cdef inline bint can_fire(const MaState *s, int f, int t, int kind) noexcept nogil:
    """Stand f may attack t in an attack of this kind."""
    return can_fire_m(s, f, t, kind, NULL)

cdef enum:
    TOUCH_UNKNOWN = 0x10000     # can_fire_pair's *touch: touching_enemies(f) not found yet

cdef bint can_fire_m(const MaState *s, int f, int t, int kind, LosMemo *memo) noexcept nogil:
    """can_fire(), its line of sight through memo if not NULL (_board.pxi):
    callers testing many pairs in one position pass one (speed)."""
    cdef int touch = TOUCH_UNKNOWN
    if side_of(f) == side_of(t) or not may_fire(s, f, kind) or not may_be_fired_at(s, t):
        return 0
    return can_fire_pair(s, f, t, kind, memo, &touch)

cdef inline bint can_fire_pair(const MaState *s, int f, int t, int kind, LosMemo *memo, int *touch) noexcept nogil:
    """The rest of can_fire_m() once f passed may_fire(s, f, kind) and t, an
    enemy, may_be_fired_at(s, t). *touch holds touching_enemies(f) once found
    (TOUCH_UNKNOWN before): a list trying one firer on 16 targets finds it once,
    not once per target (speed). The tests are side-effect free, so their order
    is the cheapest first; the line of sight, dearest, comes last. Inline: most
    pairs a list tries fail these first tests, in the list's own loop (speed)."""
    cdef int d
    if hidden_blocks_fire(s, f, t):      # _spotting.pxi: dummies, unspotted markers
        return 0
    if fires_back_only(s, f) and not ((s.fired_at_by[f] >> (t & 15)) & 1):
        return 0                         # low on ammunition or broken: only fire back
    if kind == K_OVR_OF:
        return f == s.ctarget and t == s.mover and cd_allowed(s, f, t, kind)
    d = dist(s, f, t)
    if d > fire_range(s, f, t):
        return 0
    if d > s.sight and d > sight_reach(s, f, t):        # the turn's sighting, +5" a level above t (_board.pxi)
        return 0
    return can_fire_within(s, f, t, kind, memo, touch)

cdef bint can_fire_within(const MaState *s, int f, int t, int kind, LosMemo *memo, int *touch) noexcept nogil:
    """can_fire_pair()'s tests of a target within sighting and range."""
    if touch[0] == TOUCH_UNKNOWN:
        touch[0] = touching_enemies(s, f)
    if engaged_elsewhere(touch[0], t):
        return 0
    if not cd_allowed(s, f, t, kind):
        return 0
    return has_los_memo(s, f, t, memo)

cdef void crt_table(int cd, int m, double *p) noexcept nogil:
    """p[0..4]: probabilities of '-', S, (S), D, E on column cd with 2D6 + m."""
    cdef int r, k, res
    if cd > CRT_MAX:
        cd = CRT_MAX
    for k in range(5):
        p[k] = 0.0
    for r in range(2, 13):
        k = r + m
        if k <= cd + CRT_E:
            res = 4
        elif k <= cd + CRT_D:
            res = 3
        elif k <= cd + CRT_SS:
            res = 2
        elif k <= cd + CRT_S:
            res = 1
        else:
            res = 0
        p[res] += TWO_D6[r] / 36.0

cdef int crt_probs(const MaState *s, int f, int t, int kind, int hot, double *p) noexcept nogil:
    """p[0..4] for firer f on target t (a Hot Shot shifts two columns), with the
    weapons extras (crt_dist in _weapons_extra.pxi) folded in."""
    cdef double q[10]
    cdef int k
    crt_dist(s, f, t, kind, hot, q)
    for k in range(5):
        p[k] = q[k] + q[5 + k]
    return 0


# ----------------------------------------------------------------- losses and break points
cdef inline int bp_units(const MaState *s, int p) noexcept nogil:
    """(armed stands + 2 per HQ + 3 per GHQ) of p's formation, at full strength."""
    cdef int g, n = 0, role
    for g in range(p * 16, p * 16 + 16):
        if s.st[g].type == NONE or is_dummy(s, g):      # a dummy is no stand (_spotting.pxi)
            continue
        role = TY_ROLE[s.st[g].type]
        if role == 2:
            n += 3
        elif role == 1:
            n += 2
        elif TY_AP[s.st[g].type] + TY_HE[s.st[g].type] > 0:
            n += 1
    return n

cdef inline bint over_bp(const MaState *s, int p, int total) noexcept nogil:
    # total > units x det% x 7, in integers
    return total * 100 > bp_units(s, p) * s.det * 7

cdef void eliminate(MaState *s, int g) noexcept nogil:
    cdef int p = side_of(g), role = TY_ROLE[s.st[g].type]
    s.st[g].flags &= ~(F_ALIVE | F_S | F_D)
    if s.ghq_slot[p] == g:
        s.ghq_slot[p] = NONE             # no orders until replaced
    command_lost(s, g)
    cargo_lost(s, g)                     # _transport.pxi: its cargo dies with it
    if TY_DEF[s.st[g].type] == D_ARMOUR:
        s.st[g].flags |= F_WRECK
    if not side_broken(s, p):            # a broken formation's cards are done: it broke
        s.cards_pending[p] += 3 if role == 2 else (2 if role == 1 else 1)

cdef void apply_result(MaState *s, int t, int res) noexcept nogil:
    """CRT result res (0 '-', 1 S, 2 (S), 3 D, 4 E) on stand t."""
    if res == 4:
        ip_hit(s, t)                     # an E counts against its improved position (_obstacles.pxi)
        eliminate(s, t)
    elif res == 3 or (res == 2 and (s.st[t].flags & F_S)):
        if s.st[t].flags & F_D:
            eliminate(s, t)
        else:
            s.st[t].flags |= F_D
    elif res == 1 or res == 2:
        s.st[t].flags |= F_S
    share_result(s, t, res)              # _transport.pxi: the cargo shares it
