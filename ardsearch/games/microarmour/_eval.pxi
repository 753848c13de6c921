# Micro Armour engine: vtable: returns, the evaluation, the hash.
# Included by _engine.pyx (one module, split by concern).
# ----------------------------------------------------------------- vtable: returns, evaluate, hash
cdef void ma_returns(const void *state, double *out) noexcept nogil:
    cdef const MaState *s = <const MaState *>state
    out[0] = 0.0
    out[1] = 0.0
    if s.phase == PH_OVER and (s.winner == 0 or s.winner == 1):
        out[s.winner] = 1.0
        out[1 - s.winner] = -1.0

cdef double stand_value(const MaState *s, int g) noexcept nogil:
    cdef int ty = s.st[g].type
    cdef double v
    if is_dummy(s, g):
        return 0.0                           # _spotting.pxi
    v = 1.0 + (ammo_value(s, g) + TY_HE[ty] + TY_DV[ty]) / 10.0   # _weapons_extra.pxi
    if TY_ROLE[ty] != 0:
        v += 1.0
    if s.st[g].flags & F_S:
        v *= 0.85
    if s.st[g].flags & F_D:
        v *= 0.6
    return v

cdef double airborne_share(const MaState *s, int g) noexcept nogil:
    """How much of stand g counts while it waits in the aircraft (RULES.md Paratroops, "On
    the boards and in the evaluation"; design): 0 for a stand not waiting (landed, removed,
    or no landing group), the chance it arrives, (20 - modifier - 1) / 20, before its arrival
    roll, and 1 once that roll has passed (the stand in hand, scattering). So the material
    neither drops while the group waits nor jumps when it lands, and before the arrival roll
    it is that roll's expectation."""
    cdef int i
    if not (s.drop_wait >> g) & 1:
        return 0.0
    if g == s.drop_cur and DS_COH <= s.drop_step <= DS_DIST_JUMP:
        return 1.0
    i = drop_arrive_mod(s) + 1                   # removed on rolls 20 - mod .. 20 (_drop.pxi)
    return 1.0 - (20 if i > 20 else i) / 20.0

cdef double side_score(const MaState *s, int p) noexcept nogil:
    """Material (stands alive, hurt by S/D; a landing group's stands still in the
    aircraft at their expected share) and room left before the break point, in
    material units."""
    cdef int g
    cdef double mat = 0.0, expect, limit
    for g in range(p * 16, p * 16 + 16):
        if alive(s, g):
            mat += stand_value(s, g)
        elif (s.drop_wait >> g) & 1:             # waiting in the aircraft (never an empty slot:
            mat += airborne_share(s, g) * stand_value(s, g)   # stand_value reads its type's tables)
    if hidden_from_view(s, p):
        expect = s.ncards[p] * 85.0 / 13.0
    else:
        expect = s.total[p]
    limit = bp_units(s, p) * s.det * 7 / 100.0
    return mat - 4.0 * expect / (limit + 1.0)

cdef double reach(const MaState *s, int g) noexcept nogil:
    """Inches stand g may still move this turn: its movement points once its
    move has started, else what its posture promises before the movement
    phase is over (nothing after a failed or finished move)."""
    cdef int flags = s.st[g].flags
    if s.phase == PH_RECOVER or s.phase == PH_OVER or flags & F_MOVED:
        return 0.0
    if s.st[g].mp:
        return s.st[g].mp / 2.0
    if flags & F_INDEP:
        return 0.0
    if s.st[g].posture == P_MOVE:
        return TY_MP[s.st[g].type]
    if s.st[g].posture == P_FIREMOVE:
        return TY_MP[s.st[g].type] // 2
    return 0.0

cdef inline double village_hold_bonus(const MaState *s) noexcept nogil:
    """What a stand in the village counts beyond 1: more as the last turn nears."""
    return 0.5 + 0.5 * s.turn / (s.turns if s.turns else 1)

cdef double race_term(const MaState *s, int g, double d, double hold) noexcept nogil:
    """One stand's part of village_score, d inches from the village (the
    features `village_path` and `village_markers` correct it, _features.pxi)."""
    if d == 0:
        return 1.0 + hold
    d -= 0.5 * reach(s, g)
    if d < 0.5:
        d = 0.5
    if d < 20:
        return 1.0 - d / 20.0
    return 0.0

cdef double village_score(const MaState *s, int p) noexcept nogil:
    """The scenario's victory condition, seen from afar: each live stand
    counts by how near it is to the village (linear, so every inch gained is
    worth the same and a one-step search sees it; half of what it may still
    move this turn counts as gained, so that postures and orders that lead to
    movement show at once), a stand in the village counts fully and more so
    as the last turn nears."""
    cdef int g
    cdef double v = 0.0, hold = village_hold_bonus(s)
    for g in range(p * 16, p * 16 + 16):
        if alive(s, g):
            v += race_term(s, g, SC_VDIST[s.scn][s.st[g].y][s.st[g].x], hold)
    return v

cdef double pending_attack_value(const MaState *s, int player) noexcept nogil:
    """Expected damage of the declared attack (so a one-ply search sees it)."""
    cdef int l, f
    cdef double crt[5], v = 0.0, pf, val
    if s.atk_step == S_NONE or s.atk_target == NONE or not alive(s, s.atk_target):
        return 0.0
    val = stand_value(s, s.atk_target)
    for l in range(16):
        if (s.atk_firers >> l) & 1:
            f = s.atk_side * 16 + l
            if not alive(s, f):
                continue
            if s.atk_step == S_CRT and l == s.atk_cur:
                if s.bld_area != NONE:
                    continue                 # its CRT roll is made; the building's is due
                pf = 1.0
            elif l < s.atk_cur or (s.st[f].flags & F_FIRED):
                continue
            else:
                pf = p_pass(coh_eff(s, s.atk_side), tofire_mod(s, f, s.atk_target, s.atk_kind))
            crt_probs(s, f, s.atk_target, s.atk_kind, s.hot if l == s.atk_cur else 0, crt)
            v += pf * val * (crt[4] + 0.6 * crt[3] + 0.3 * crt[2] + 0.15 * crt[1])
    return v if s.atk_side == player else -v

cdef double ma_evaluate_classic(const void *state, int player) noexcept nogil:
    """The hand-set evaluation (feature `classic`, _features.pxi)."""
    cdef const MaState *s = <const MaState *>state
    cdef double a, b, e
    if s.phase == PH_OVER:
        if s.winner == player:
            return 1.0
        if s.winner == 1 - player:
            return -1.0
        return 0.0
    a = side_score(s, player)
    b = side_score(s, 1 - player)
    # Material as a share of the whole, plus the village race: one inch
    # nearer for one stand is worth about 0.002, a stand in the village 0.05
    # to 0.08 (the game is won there; material only matters on the way).
    e = (a - b + pending_attack_value(s, player) + air_threat(s, player) + incoming_fire(s, player)) \
        / (a + b + 10.0) \
        + 0.04 * (village_score(s, player) - village_score(s, 1 - player))
    if e > 1.0:
        e = 1.0
    if e < -1.0:
        e = -1.0
    if side_broken(s, player) != side_broken(s, 1 - player):
        # one formation broke: the other side wins unless it breaks too (RULES.md, How the
        # game ends); the position still shades the value
        return (-0.85 if side_broken(s, player) else 0.85) + 0.1 * e
    return 0.95 * e

cdef uint64_t ma_hash(const void *state) noexcept nogil:
    return ard_hash_bytes(state, sizeof(MaState))
