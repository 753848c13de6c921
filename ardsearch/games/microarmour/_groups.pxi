# Micro Armour engine: multi-stand movement groups (RULES.md, "Movement groups"): a
# scenario's [[group]] tables; posture marked for a whole group at once; one base 1D20
# movement roll per group with each stand's own modifiers, then the stands that passed
# move one after another. Included by _engine.pyx after _entry.pxi; hooks elsewhere.
# ----------------------------------------------------------------- tables (filled by install)
cdef enum:
    NGRP = 4            # movement groups per side in a scenario
    GS_NONE = 0
    GS_ROLL = 1         # chance: the group's base 1D20
    GS_MOVING = 2       # the stands that passed move one after another

cdef uint16_t SC_GMASK[MAXSCN][2 * NGRP]       # by scenario, group side * NGRP + j: its stands (local bits)
cdef char SC_GNAMES[MAXSCN][2 * NGRP][8]       # group ids for notation


cdef install_group_scenario(int k, sc):
    for i in range(2 * NGRP):
        SC_GMASK[k][i] = 0
        memset(SC_GNAMES[k][i], 0, 8)
    for p in range(2):
        for j, grp in enumerate(sc["groups"][p]):
            for l in grp["stands"]:
                SC_GMASK[k][p * NGRP + j] |= <uint16_t>1 << l
            b = grp["id"].encode()
            for i in range(len(b)):
                SC_GNAMES[k][p * NGRP + j][i] = b[i]


cdef void groups_init(MaState *s) noexcept nogil:
    s.grp_cur = NONE
    s.grp_step = GS_NONE
    s.grp_flags = 0
    s.grp_elig = 0
    s.grp_queue = 0
    s.grp_reserved = 0


# ----------------------------------------------------------------- who may act together
cdef int group_markable(const MaState *s, int gi) noexcept nogil:
    """Local bits of group gi's stands a posture mark would mark (alive, firing posture, MP)."""
    cdef int l, g, m = 0, p = gi // NGRP
    for l in range(16):
        if (SC_GMASK[s.scn][gi] >> l) & 1:
            g = p * 16 + l
            if alive(s, g) and s.st[g].posture == P_FIRING and TY_MP[s.st[g].type] > 0:
                m |= 1 << l
    return m

cdef int group_movers(const MaState *s, int gi, bint indep) noexcept nogil:
    """Local bits of group gi's stands that may join a movement attempt."""
    cdef int l, g, m = 0, p = gi // NGRP
    for l in range(16):
        if (SC_GMASK[s.scn][gi] >> l) & 1:
            g = p * 16 + l
            if can_move(s, g) and not (indep and (s.st[g].flags & F_INDEP)):
                m |= 1 << l
    return m

cdef inline int popcount16(int m) noexcept nogil:
    cdef int n = 0
    while m:
        n += m & 1
        m >>= 1
    return n

cdef int groups_legal_posture(const MaState *s, int p, ard_action *out, int n) noexcept nogil:
    """Hook (N_POSTURE): mark a group of two or more unmarked stands at once."""
    cdef int j
    for j in range(NGRP):
        if SC_GMASK[s.scn][p * NGRP + j] and popcount16(group_markable(s, p * NGRP + j)) >= 2:
            out[n] = A_GPOSTURE + 2 * j
            out[n + 1] = A_GPOSTURE + 2 * j + 1
            n += 2
    return n

cdef int groups_legal_move(const MaState *s, int p, ard_action *out, int n) noexcept nogil:
    """Hook (N_MOVE): an ordered or independent attempt by a group of two or more stands."""
    cdef int j
    for j in range(NGRP):
        if (SC_GMASK[s.scn][p * NGRP + j] and s.orders[p] > 0 and ghq_alive(s, p)
                and popcount16(group_movers(s, p * NGRP + j, 0)) >= 2):
            out[n] = A_GORDER + j
            n += 1
    for j in range(NGRP):
        if SC_GMASK[s.scn][p * NGRP + j] and popcount16(group_movers(s, p * NGRP + j, 1)) >= 2:
            out[n] = A_GINDEP + j
            n += 1
    return n


# ----------------------------------------------------------------- the group's roll
cdef int group_mod(const MaState *s, int g) noexcept nogil:
    """A stand's modifiers to the group's base roll: its own S/D, +3 for an independent
    attempt (not recon), -2 for each HQ/GHQ attempting with the group, +2 for dismounted
    personnel in extreme heat or cold (_weather.pxi)."""
    cdef int l, m = cohesion_mods(s, g) + weather_move_mod(s, g), p = side_of(g)   # extreme heat/cold
    if not (s.grp_flags & 1) and not TY_RECON[s.st[g].type]:
        m += 3
    for l in range(16):
        if (s.grp_elig >> l) & 1 and is_command(s, p * 16 + l):
            m -= 2
    return m

cdef int roll_effect(const MaState *s, int r) noexcept nogil:
    """What base roll r does: the local bits of the stands that pass, with bit 16 for an
    ordered natural 1 that keeps the order (Intuitive Action) and bit 17 for an ordered
    natural 20 that loses the orders left, nobody moving (Conflicting Orders)."""
    cdef int l, p = s.grp_cur // NGRP, q = 0
    cdef bint ordered = s.grp_flags & 1
    if ordered and r == 20 and (s.options & OPT_CONFLICT):
        return 1 << 17
    for l in range(16):
        if (s.grp_elig >> l) & 1 and r + group_mod(s, p * 16 + l) <= s.coh[p]:
            q |= 1 << l
    if ordered and r == 1 and q and (s.options & OPT_INTUITIVE):
        q |= 1 << 16
    return q

cdef int group_outcomes(const MaState *s, ard_action *a, double *pr) noexcept nogil:
    """The base 1D20 by effect: faces with the same effect are one outcome, named by the
    lowest of them (`g:<roll>`); at most 8 stands in a group, so at most 11 outcomes."""
    cdef int r, n = 0, e, last = -1
    for r in range(1, 21):
        e = roll_effect(s, r)
        if n > 0 and e == last:
            pr[n - 1] += 0.05
            continue
        a[n] = A_GROLL + r - 1
        pr[n] = 0.05
        n += 1
        last = e
    return n

cdef void group_roll(MaState *s, int r) noexcept nogil:
    """Base roll r: each attempting stand passes on r + its modifiers <= cohesion; with the
    optional rules an ordered natural 1 keeps the order (if any passed), a natural 20
    loses the orders left and nobody moves."""
    cdef int p = s.grp_cur // NGRP, q = roll_effect(s, r)
    if q & (1 << 17):
        s.orders[p] = 0
    elif q & (1 << 16):
        s.orders[p] += 1
    q &= 0xFFFF
    s.grp_queue = <uint16_t>q
    s.grp_step = GS_MOVING
    if not group_next(s):
        group_done(s)
        s.to_move = p
        alternate(s)

cdef bint group_next(MaState *s) noexcept nogil:
    """The next stand that passed starts its move; 0 when none is left."""
    cdef int l, g, p = s.grp_cur // NGRP
    for l in range(16):
        if (s.grp_queue >> l) & 1:
            g = p * 16 + l
            s.grp_queue &= ~(1 << l)
            if not can_move(s, g):
                continue                  # lost (or pinned) while the group moved
            s.mover = g
            s.mv_sub = M_STEP
            s.mv_flags = s.grp_flags & 1
            s.st[g].steps = 0
            s.st[g].mp = move_allowance(s, g)
            entry_move(s, g)
            s.to_move = p
            return 1
    return 0

cdef inline void group_done(MaState *s) noexcept nogil:
    s.grp_cur = NONE
    s.grp_step = GS_NONE
    s.grp_flags = 0
    s.grp_elig = 0
    s.grp_queue = 0

cdef bint group_continue(MaState *s) noexcept nogil:
    """Hook (end_move): 1 if the next stand of a moving group takes over."""
    if s.grp_step != GS_MOVING:
        return 0
    if group_next(s):
        return 1
    group_done(s)
    return 0


# ----------------------------------------------------------------- decisions
cdef bint groups_apply(MaState *s, int k, ard_action action) noexcept nogil:
    """Hook (units_apply): this family's actions; 1 if handled."""
    cdef int j, l, g, p = s.to_move, m
    if k == N_GROLL:
        group_roll(s, action - A_GROLL + 1)
        return 1
    if A_GPOSTURE <= action < A_GORDER:
        j = (action - A_GPOSTURE) // 2
        m = group_markable(s, p * NGRP + j)
        for l in range(16):
            if (m >> l) & 1:
                s.st[p * 16 + l].posture = P_MOVE if (action - A_GPOSTURE) % 2 == 0 else P_FIREMOVE
        alternate(s)
        return 1
    if A_GORDER <= action < A_GROLL:
        if action < A_GINDEP:
            j = action - A_GORDER
            s.orders[p] -= 1
            s.grp_flags = 1
            s.grp_elig = <uint16_t>group_movers(s, p * NGRP + j, 0)
        else:
            j = action - A_GINDEP
            s.orders[p] = 0                  # going independent forfeits the orders left
            s.grp_flags = 0
            s.grp_elig = <uint16_t>group_movers(s, p * NGRP + j, 1)
            for l in range(16):
                if (s.grp_elig >> l) & 1:
                    s.st[p * 16 + l].flags |= F_INDEP
        s.grp_cur = p * NGRP + j
        s.grp_step = GS_ROLL
        return 1
    return 0


# ----------------------------------------------------------------- notation
cdef int find_group(const MaState *s, const char *t, int n, int p) noexcept nogil:
    cdef int j
    for j in range(NGRP):
        if SC_GNAMES[s.scn][p * NGRP + j][0] and word_is(t, n, SC_GNAMES[s.scn][p * NGRP + j]):
            return j
    return -1

cdef int groups_to_string(const MaState *s, ard_action a, char *tmp, int p) noexcept nogil:
    cdef int n
    if a >= A_GROLL:
        n = put_text(tmp, 0, b"g:")
        return put_int(tmp, n, a - A_GROLL + 1)
    if a >= A_GINDEP:
        n = put_text(tmp, 0, b"gindep ")
        return put_text(tmp, n, &SC_GNAMES[s.scn][p * NGRP + a - A_GINDEP][0])
    if a >= A_GORDER:
        n = put_text(tmp, 0, b"gorder ")
        return put_text(tmp, n, &SC_GNAMES[s.scn][p * NGRP + a - A_GORDER][0])
    n = put_text(tmp, 0, b"gposture ")
    n = put_text(tmp, n, &SC_GNAMES[s.scn][p * NGRP + (a - A_GPOSTURE) // 2][0])
    return put_text(tmp, n, b" move" if (a - A_GPOSTURE) % 2 == 0 else b" firemove")

cdef int groups_from_string(const MaState *s, const char *t, int n, int p) noexcept nogil:
    """-2 if the text is not this family's."""
    cdef int sp = 0, i, j, v
    if n >= 3 and t[0] == c'g' and t[1] == c':':
        v = 0
        for i in range(2, n):
            if t[i] < c'0' or t[i] > c'9':
                return -1
            v = v * 10 + (t[i] - c'0')
        return A_GROLL + v - 1 if 1 <= v <= 20 and n <= 4 else -1
    while sp < n and t[sp] != c' ':
        sp += 1
    if sp >= n - 1:
        return -2
    if word_is(t, sp, b"gorder") or word_is(t, sp, b"gindep"):
        j = find_group(s, t + sp + 1, n - sp - 1, p)
        if j < 0:
            return -1
        return (A_GORDER if t[1] == c'o' else A_GINDEP) + j
    if word_is(t, sp, b"gposture"):
        i = sp + 1
        while i < n and t[i] != c' ':
            i += 1
        j = find_group(s, t + sp + 1, i - sp - 1, p)
        if j < 0 or i >= n:
            return -1
        if word_is(t + i + 1, n - i - 1, b"move"):
            return A_GPOSTURE + 2 * j
        if word_is(t + i + 1, n - i - 1, b"firemove"):
            return A_GPOSTURE + 2 * j + 1
        return -1
    return -2


# ----------------------------------------------------------------- validation
cdef bint groups_validate(const MaState *s) noexcept nogil:
    """1 if the group fields are corrupt."""
    cdef int p, l
    if s.grp_reserved != 0 or s.grp_step > GS_MOVING or s.grp_flags > 1:
        return 1
    if s.grp_step == GS_NONE:
        return s.grp_cur != NONE or s.grp_elig != 0 or s.grp_queue != 0 or s.grp_flags != 0
    if s.grp_cur >= 2 * NGRP or SC_GMASK[s.scn][s.grp_cur] == 0 or (s.phase != PH_MOVE and s.phase != PH_OVER):
        return 1
    if (s.grp_elig & ~SC_GMASK[s.scn][s.grp_cur]) or (s.grp_queue & ~s.grp_elig) or s.grp_elig == 0:
        return 1
    if s.phase == PH_OVER:
        return 0                          # the game ended while the group moved (both sides broken)
    p = s.grp_cur // NGRP
    if s.grp_step == GS_ROLL:
        return s.mover != NONE or s.grp_queue != 0 or s.to_move != p
    return s.mover == NONE or side_of(s.mover) != p or not ((s.grp_elig >> (s.mover & 15)) & 1)
