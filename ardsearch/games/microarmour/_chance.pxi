# Micro Armour engine: vtable: chance nodes, their outcomes and exact probabilities.
# Included by _engine.pyx (one module, split by concern).
# ----------------------------------------------------------------- vtable: chance
cdef inline int card_side(int k) noexcept nogil:
    return 0 if k == N_CARD0 or k == N_BRK0 else 1

cdef inline bint hidden_from_view(const MaState *s, int p) noexcept nogil:
    return s.viewer >= 0 and s.viewer != p

cdef double view_break_estimate(const MaState *s, int p) noexcept nogil:
    """In a view that does not know p's total: a rough chance that p breaks now
    (expected card 85/13 each); only used to weight the view's chance node."""
    cdef double expect = s.ncards[p] * 85.0 / 13.0
    cdef double limit = bp_units(s, p) * s.det * 7 / 100.0
    cdef double x = 0.5 + (expect - limit) / 20.0
    if x < 0.05:
        return 0.05
    if x > 0.95:
        return 0.95
    return x

cdef int natural_outcomes(int c, bint hot, bint low, ard_action *a, double *pr) noexcept nogil:
    """A 'to fire' roll where rolls 1..c pass and natural rolls matter: with Hot
    Shot a passing natural 1 is `c:n1`; with Low Ammunition a natural 20 is
    `c:n20` (a failure that leaves the firer low on ammunition)."""
    cdef int r, ok = 0, bad = 0, n = 0
    for r in range(1, 21):
        if (r == 1 and hot and r <= c) or (r == 20 and low):
            continue
        if r <= c:
            ok += 1
        else:
            bad += 1
    if ok:
        a[n] = A_OK
        pr[n] = ok / 20.0
        n += 1
    if bad:
        a[n] = A_FAIL
        pr[n] = bad / 20.0
        n += 1
    if hot and c >= 1:
        a[n] = A_N1
        pr[n] = 0.05
        n += 1
    if low:
        a[n] = A_N20
        pr[n] = 0.05
        n += 1
    return n

cdef int two_outcomes(double p_ok, ard_action *a, double *pr) noexcept nogil:
    if p_ok >= 1.0:
        a[0] = A_OK
        pr[0] = 1.0
        return 1
    if p_ok <= 0.0:
        a[0] = A_FAIL
        pr[0] = 1.0
        return 1
    a[0] = A_OK
    pr[0] = p_ok
    a[1] = A_FAIL
    pr[1] = 1.0 - p_ok
    return 2

cdef int ma_chance_outcomes(const void *state, ard_action *a, double *pr) noexcept nogil:
    cdef const MaState *s = <const MaState *>state
    cdef int k = node(s), n = 0, p, v, left, i, r, q, c, mod, g, f, t, m, okn
    cdef double probs[10]
    cdef double crt[10]
    cdef double pa, pt, pb
    if k == N_AIRCH:
        return air_chance(s, a, pr)          # hook: airstrikes
    if k == N_DROP:
        return drop_chance(s, a, pr)         # hook: paratroop drops (_drop.pxi)
    if k == N_HQDELAY:
        return hq_delay_outcomes(a, pr)      # hook: a lost paratroop HQ's delay (_drop.pxi)
    if is_art_chance(k):
        return art_chance(s, k, a, pr)       # hook: artillery fire (_artillery.pxi)
    if k == N_FLAME:
        return flame_outcomes(s, a, pr)      # hook: special stand types
    if k == N_GROLL:
        return group_outcomes(s, a, pr)      # hook: movement groups
    if k == N_SIGHT:
        return sight_outcomes(s, a, pr)      # hook: weather and night (_weather.pxi)
    if k == N_SHOWN:
        return shown_outcomes(s, a, pr)     # hook: hidden set-up (_spotting.pxi)
    if k == N_CARD0 or k == N_CARD1:
        p = card_side(k)
        left = 0
        for v in range(10):
            probs[v] = FULL_DECK[v] if hidden_from_view(s, p) else s.deck[p][v]
            left += <int>probs[v]
        for v in range(10):
            if probs[v] > 0:
                a[n] = A_CARD + v
                pr[n] = probs[v] / left
                n += 1
        return n
    if k == N_BRK0 or k == N_BRK1:
        p = card_side(k)
        if hidden_from_view(s, p):
            pb = view_break_estimate(s, p)
            a[0] = A_BRK_NO
            pr[0] = 1.0 - pb
            a[1] = A_BRK_YES
            pr[1] = pb
            return 2
        a[0] = A_BRK_YES if over_bp(s, p, s.total[p]) else A_BRK_NO
        pr[0] = 1.0
        return 1
    if k == N_TOFIRE:
        f = atk_slot(s, s.atk_cur)
        mod = tofire_mod(s, f, s.atk_target, s.atk_kind)
        if not (s.options & 3):
            return two_outcomes(p_pass(coh_eff(s, s.atk_side), mod), a, pr)
        return natural_outcomes(coh_eff(s, s.atk_side) - mod, s.options & 1, s.options & 2, a, pr)
    if k == N_BLDG:
        return building_outcomes(s, a, pr)          # _buildings.pxi
    if k == N_MINE:
        return mine_outcomes(s, a, pr)              # _minefields.pxi
    if k == N_BREACH:
        return breach_outcomes(s, a, pr)            # _minefields.pxi
    if k == N_REVEAL:
        return reveal_outcomes(s, a, pr)            # _minefields.pxi
    if k == N_CRT:
        crt_dist(s, atk_slot(s, s.atk_cur), s.atk_target, s.atk_kind, s.hot, crt)   # _weapons_extra.pxi
        for r in range(10):
            if crt[r] > 0:
                a[n] = A_CRT + r if r < 5 else A_CRT_OUT + r - 5
                pr[n] = crt[r]
                n += 1
        return n
    if k == N_OVR_HIT1 or k == N_OVR_HIT2:
        if k == N_OVR_HIT1:
            crt_table(5, 0, crt)              # the overrunner's attack on the +5 column
        else:
            crt_table(3 if TY_AP[s.st[s.ctarget].type] >= 5 else 2, 0, crt)
        for r in range(5):
            if crt[r] > 0:
                a[n] = A_CRT + r
                pr[n] = crt[r]
                n += 1
        return n
    if k == N_PASSCHK:
        return two_outcomes(p_pass(s.coh[side_of(s.mover)], cohesion_mods(s, s.mover) + 3), a, pr)
    if k == N_OVR_DEFROLL:
        return two_outcomes(p_pass(coh_eff(s, side_of(s.ctarget)), cohesion_mods(s, s.ctarget)), a, pr)
    if k == N_OVR_ATKROLL:
        mod = cohesion_mods(s, s.mover)
        if TY_DEF[s.st[s.ctarget].type] == D_PERSONNEL and TY_AP[s.st[s.ctarget].type] >= 2:
            mod += 3
        return two_outcomes(p_pass(coh_eff(s, side_of(s.mover)), mod), a, pr)
    if k == N_REPLACE:
        p = 0 if s.rep_pending & 1 else 1
        g = first_hq(s, p)
        return two_outcomes(p_pass(coh_eff(s, p), SC_REPL[s.scn][p] + cohesion_mods(s, g)), a, pr)
    if k == N_GHQQUAL or k == N_HQREP or k == N_RISING:
        return command_outcomes(s, k, a, pr)
    if k == N_INIT:
        # 1D6 + cohesion each, ties rerolled
        pa = 0.0
        pt = 0.0
        for i in range(1, 7):
            for r in range(1, 7):
                if i + coh_eff(s, 0) > r + coh_eff(s, 1):
                    pa += 1.0
                elif i + coh_eff(s, 0) == r + coh_eff(s, 1):
                    pt += 1.0
        pb = 36.0 - pa - pt
        if pb == 0:
            a[0] = A_INIT
            pr[0] = 1.0
            return 1
        if pa == 0:
            a[0] = A_INIT + 1
            pr[0] = 1.0
            return 1
        a[0] = A_INIT
        pr[0] = pa / (pa + pb)
        a[1] = A_INIT + 1
        pr[1] = pb / (pa + pb)
        return 2
    if k == N_ORDERS:
        q = s.ghq_qual[orders_side(s)]
        for v in range(ORD_MAX + 1):
            probs[v] = 0.0
        for r in range(2, 13):
            probs[orders_for(r + q)] += TWO_D6[r] / 36.0
        for v in range(ORD_MAX + 1):
            if probs[v] > 0:
                a[n] = A_ORDERS + v
                pr[n] = probs[v]
                n += 1
        return n
    if k == N_MVROLL:
        return move_roll_outcomes(s, a, pr)
    if k == N_LOADROLL:
        return load_outcomes(s, a, pr)          # _transport.pxi
    if k == N_STOPCHK:
        return two_outcomes(p_pass(s.coh[side_of(s.mover)], cohesion_mods(s, s.mover)), a, pr)
    if k == N_RECOVER:
        g = s.rec_next
        c = recovery_level(s, g)             # rolls r with r <= c succeed
        if c > 19:
            c = 19
        okn = c - 1 if c >= 2 else 0         # successes among rolls 2..19
        if okn > 0:
            a[n] = A_OK
            pr[n] = okn / 20.0
            n += 1
        if okn < 18:
            a[n] = A_FAIL
            pr[n] = (18 - okn) / 20.0
            n += 1
        a[n] = A_N1
        pr[n] = 0.05
        a[n + 1] = A_N20
        pr[n + 1] = 0.05
        return n + 2
    return 0

cdef int orders_for(int roll) noexcept nogil:
    cdef int i
    for i in range(NORD):
        if roll <= ORD_AT[i]:
            return ORD_N[i]
    return ORD_MAX

cdef inline int recovery_level(const MaState *s, int g) noexcept nogil:
    """The highest 1D20 roll that is a (modified) success of stand g's recovery
    roll: its side's cohesion level less its recovery modifiers. The natural 1
    (`c:n1`) is a modified success too only if this is at least 1."""
    return coh_eff(s, side_of(g)) - recovery_mod(s, g)

cdef int recovery_mod(const MaState *s, int g) noexcept nogil:
    cdef int m = cohesion_mods(s, g), h
    for h in range(side_of(g) * 16, side_of(g) * 16 + 16):
        if (h != g and alive(s, h) and is_command(s, h) and not (s.st[h].flags & F_S)
                and dist(s, g, h) <= 1):
            return m - 1
    return m

cdef ard_action ma_sample_chance(const void *state, ard_rng *rng) noexcept nogil:
    cdef ard_action acts[MAX_LEGAL]          # a sighting roll has up to MAX_SIGHT outcomes
    cdef double probs[MAX_LEGAL]
    cdef int n = ma_chance_outcomes(state, acts, probs), i
    cdef double u = ard_rng_double(rng)
    if n == 0:
        return -1                        # not a chance node
    for i in range(n - 1):
        u -= probs[i]
        if u < 0:
            return acts[i]
    return acts[n - 1]
